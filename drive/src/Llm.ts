/**
 * `Llm`: pure, serializable descriptions of what the simulated model answers. Each output variant is an
 * individually named Effect Schema; `Output` is their manual union. Constructors only build values — the live
 * `llm` capability of a driver queues, sends and serves them.
 */
import { Schema } from "effect"

/** A duration in milliseconds, zero or more. */
export const NonNegativeMilliseconds = Schema.Number.check(Schema.isGreaterThanOrEqualTo(0))

/** How a text, reasoning or tool input is streamed: `chunkSize` characters per chunk, `delay` ms between chunks. */
export const StreamOptions = Schema.Struct({
  delay: Schema.optionalKey(NonNegativeMilliseconds),
  chunkSize: Schema.optionalKey(Schema.Int.check(Schema.isGreaterThanOrEqualTo(1))),
})
export interface StreamOptions extends Schema.Schema.Type<typeof StreamOptions> {}

/** Why a response ended (AI SDK vocabulary; mapped to OpenAI `finish_reason` on the wire). */
export const FinishReason = Schema.Literals(["stop", "length", "tool-calls", "content-filter", "other"])
export type FinishReason = Schema.Schema.Type<typeof FinishReason>

/** Assistant text. */
export const Text = Schema.Struct({
  type: Schema.Literal("text"),
  text: Schema.String,
  options: Schema.optionalKey(StreamOptions),
})
export interface Text extends Schema.Schema.Type<typeof Text> {}

/** Reasoning ("thinking") text, sent as `reasoning_content`. */
export const Reasoning = Schema.Struct({
  type: Schema.Literal("reasoning"),
  text: Schema.String,
  options: Schema.optionalKey(StreamOptions),
})
export interface Reasoning extends Schema.Schema.Type<typeof Reasoning> {}

/** Wait before the next output of the same response. */
export const Pause = Schema.Struct({
  type: Schema.Literal("pause"),
  milliseconds: NonNegativeMilliseconds,
})
export interface Pause extends Schema.Schema.Type<typeof Pause> {}

/** End the response with a finish reason (default `"stop"`). A terminal output. */
export const Finish = Schema.Struct({
  type: Schema.Literal("finish"),
  reason: Schema.optionalKey(FinishReason),
})
export interface Finish extends Schema.Schema.Type<typeof Finish> {}

/** The model's call of one tool. `name` may be canonical (`shell`); Drive translates it to the running OpenCode's name. */
export const ToolCallRequest = Schema.Struct({
  index: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)),
  id: Schema.String,
  name: Schema.String,
  input: Schema.Unknown,
})
export interface ToolCallRequest extends Schema.Schema.Type<typeof ToolCallRequest> {}

/** A tool call; atomic unless stream options are given, then its JSON input streams in chunks. */
export const ToolCall = Schema.Struct({
  type: Schema.Literal("tool-call"),
  call: ToolCallRequest,
  options: Schema.optionalKey(StreamOptions),
})
export interface ToolCall extends Schema.Schema.Type<typeof ToolCall> {}

/**
 * One raw SSE event: a string is sent verbatim as the `data:` payload, anything else as its JSON. For testing
 * how OpenCode reacts to wire data Drive does not model.
 */
export const Raw = Schema.Struct({
  type: Schema.Literal("raw"),
  data: Schema.Unknown,
})
export interface Raw extends Schema.Schema.Type<typeof Raw> {}

/** Drop the connection without finishing the stream. A terminal output. */
export const Disconnect = Schema.Struct({
  type: Schema.Literal("disconnect"),
})
export interface Disconnect extends Schema.Schema.Type<typeof Disconnect> {}

/** Every output a simulated response can contain. */
export const Output = Schema.Union([Text, Reasoning, Pause, Finish, ToolCall, Raw, Disconnect])
export type Output = Schema.Schema.Type<typeof Output>

/** Assistant text, optionally streamed in chunks. */
export const text = (text: string, options?: StreamOptions): Text =>
  Text.make({ type: "text", text, ...(options ? { options } : {}) })

/** Reasoning text, optionally streamed in chunks. */
export const reasoning = (text: string, options?: StreamOptions): Reasoning =>
  Reasoning.make({ type: "reasoning", text, ...(options ? { options } : {}) })

/** A pause of `milliseconds` within the response. */
export const pause = (milliseconds: number): Pause => Pause.make({ type: "pause", milliseconds })

/** The end of the response, `"stop"` unless another reason is given. */
export const finish = (reason?: FinishReason): Finish =>
  Finish.make({ type: "finish", ...(reason !== undefined ? { reason } : {}) })

/** A tool call; with stream options its JSON input is streamed in chunks. */
export const toolCall = (call: ToolCallRequest, options?: StreamOptions): ToolCall =>
  ToolCall.make({ type: "tool-call", call, ...(options ? { options } : {}) })

/** A raw SSE `data:` payload. */
export const raw = (data: unknown): Raw => Raw.make({ type: "raw", data })

/** Drop the connection mid-response. */
export const disconnect = (): Disconnect => Disconnect.make({ type: "disconnect" })

/** Whether an output ends its response. */
export const isTerminal = (output: Output): output is Finish | Disconnect =>
  output.type === "finish" || output.type === "disconnect"

/** A one-line human description of an output, used in settlement errors. */
export const describe = (output: Output): string => {
  switch (output.type) {
    case "text":
    case "reasoning":
      return `${output.type} ${JSON.stringify(output.text.length > 60 ? `${output.text.slice(0, 57)}...` : output.text)}`
    case "pause":
      return `pause ${output.milliseconds}ms`
    case "finish":
      return `finish ${output.reason ?? "stop"}`
    case "tool-call":
      return `tool-call ${output.call.name} (${output.call.id})`
    case "raw":
      return "raw"
    case "disconnect":
      return "disconnect"
  }
}
