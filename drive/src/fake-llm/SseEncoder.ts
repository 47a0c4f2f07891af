/**
 * Maps `Llm` outputs to OpenAI Chat Completions streaming chunks. Pure and incremental: feed outputs one by one
 * (they may come from a live `Stream`), then call `end()`. The result is a list of wire steps the HTTP layer
 * executes in order: SSE events, sleeps and disconnects.
 */
import type { FinishReason, Output, StreamOptions } from "../Llm.js"
import { toOffered } from "./ToolNames.js"

/** One thing the HTTP layer does while streaming a response. */
export type WireStep =
  | { readonly kind: "event"; readonly data: string }
  | { readonly kind: "sleep"; readonly milliseconds: number }
  | { readonly kind: "disconnect" }

/** What the encoder needs to know about the request it answers. */
export interface EncoderContext {
  readonly id: string
  readonly model: string
  /** Seconds since the epoch, as OpenAI's `created`. */
  readonly created: number
  /** Tool names OpenCode offered in the request (`tools[].function.name`). */
  readonly offeredTools: ReadonlyArray<string>
  /** Rough prompt size in tokens, reported in the usage chunk. */
  readonly promptTokens: number
}

const finishReasons: Record<FinishReason, string> = {
  stop: "stop",
  length: "length",
  "tool-calls": "tool_calls",
  "content-filter": "content_filter",
  other: "other",
}

/** Split `text` into pieces of `size` code points (never splitting a surrogate pair); one piece when no size. */
export const chunkText = (text: string, size: number | undefined): ReadonlyArray<string> => {
  if (size === undefined) return [text]
  const points = Array.from(text)
  const pieces: Array<string> = []
  for (let i = 0; i < points.length; i += size) pieces.push(points.slice(i, i + size).join(""))
  return pieces.length === 0 ? [""] : pieces
}

/** The OpenAI wire value of a finish reason. */
export const wireFinishReason = (reason: FinishReason | undefined): string => finishReasons[reason ?? "stop"]

/** An incremental encoder for one response. */
export class SseEncoder {
  private started = false
  private ended = false
  private completionChars = 0
  private prefix: string | undefined

  constructor(private readonly context: EncoderContext) {}

  /** Whether a terminal output (finish or disconnect) was encoded. */
  get terminated(): boolean {
    return this.ended
  }

  /** The wire steps of one output. Outputs after a terminal output are a programming error of the caller. */
  encode(output: Output): ReadonlyArray<WireStep> {
    if (this.ended) throw new Error(`output ${output.type} after the end of the response`)
    switch (output.type) {
      case "text":
        return this.streamed(output.text, output.options, (piece) => ({ content: piece }))
      case "reasoning":
        return this.streamed(output.text, output.options, (piece) => ({ reasoning_content: piece }))
      case "pause":
        return [{ kind: "sleep", milliseconds: output.milliseconds }]
      case "tool-call": {
        const { index, id, name, input } = output.call
        const args = JSON.stringify(input ?? {})
        const wireName = toOffered(name, this.context.offeredTools)
        this.completionChars += args.length
        if (output.options === undefined) {
          return [
            this.delta({
              tool_calls: [{ index, id, type: "function", function: { name: wireName, arguments: args } }],
            }),
          ]
        }
        const steps: Array<WireStep> = [
          this.delta({ tool_calls: [{ index, id, type: "function", function: { name: wireName, arguments: "" } }] }),
        ]
        chunkText(args, output.options.chunkSize).forEach((piece, i) => {
          if (i > 0 && output.options?.delay) steps.push({ kind: "sleep", milliseconds: output.options.delay })
          steps.push(this.delta({ tool_calls: [{ index, function: { arguments: piece } }] }))
        })
        return steps
      }
      case "raw":
        return [{ kind: "event", data: typeof output.data === "string" ? output.data : JSON.stringify(output.data) }]
      case "finish":
        return this.finish(output.reason)
      case "disconnect":
        this.ended = true
        return [{ kind: "disconnect" }]
    }
  }

  /** The closing steps: an implicit `"stop"` finish when no terminal output was encoded. */
  end(): ReadonlyArray<WireStep> {
    return this.ended ? [] : this.finish(undefined)
  }

  private finish(reason: FinishReason | undefined): ReadonlyArray<WireStep> {
    const steps: Array<WireStep> = []
    if (!this.started) steps.push(this.delta({ content: "" }))
    steps.push(this.chunk({}, wireFinishReason(reason)))
    const completionTokens = Math.ceil(this.completionChars / 4)
    steps.push({
      kind: "event",
      data: JSON.stringify({
        ...this.envelope(),
        choices: [],
        usage: {
          prompt_tokens: this.context.promptTokens,
          completion_tokens: completionTokens,
          total_tokens: this.context.promptTokens + completionTokens,
        },
      }),
    })
    steps.push({ kind: "event", data: "[DONE]" })
    this.ended = true
    return steps
  }

  private streamed(
    text: string,
    options: StreamOptions | undefined,
    field: (piece: string) => Record<string, unknown>,
  ): ReadonlyArray<WireStep> {
    this.completionChars += text.length
    const steps: Array<WireStep> = []
    chunkText(text, options?.chunkSize).forEach((piece, i) => {
      if (i > 0 && options?.delay) steps.push({ kind: "sleep", milliseconds: options.delay })
      steps.push(this.delta(field(piece)))
    })
    return steps
  }

  private delta(delta: Record<string, unknown>): WireStep {
    const first = !this.started
    this.started = true
    return this.chunk(first ? { role: "assistant", ...delta } : delta, null)
  }

  private chunk(delta: Record<string, unknown>, finishReason: string | null): WireStep {
    // The envelope is the same for every chunk of a response: serialise it once, and only the delta per chunk.
    this.prefix ??= `${JSON.stringify(this.envelope()).slice(0, -1)},"choices":[{"index":0,"delta":`
    return {
      kind: "event",
      data: `${this.prefix}${JSON.stringify(delta)},"finish_reason":${JSON.stringify(finishReason)}}]}`,
    }
  }

  private envelope() {
    return {
      id: this.context.id,
      object: "chat.completion.chunk",
      created: this.context.created,
      model: this.context.model,
    }
  }
}

/** Encode a whole response at once. */
export const encodeResponse = (outputs: ReadonlyArray<Output>, context: EncoderContext): ReadonlyArray<WireStep> => {
  const encoder = new SseEncoder(context)
  const steps: Array<WireStep> = []
  for (const output of outputs) {
    steps.push(...encoder.encode(output))
    if (encoder.terminated) return steps
  }
  steps.push(...encoder.end())
  return steps
}
