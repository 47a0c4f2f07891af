/**
 * The simulated model: a loopback HTTP server speaking OpenAI Chat Completions with SSE at
 * `/v1/chat/completions`, plus the live `llm` capability scripts use to queue, send and serve responses.
 *
 * Rules: one `queue(...)` call is one future response, answered in order; requests with no queued response go
 * to the `serve` handler when one is registered, otherwise they wait (so `send` can answer a request already
 * made). Title requests are answered with a short title and never consume the queue. `settle` fails with a
 * message naming unused responses, responses still streaming and failed `serve` streams, and never waits longer
 * than its timeout; requests nothing answered are reported in the summary, whenever they arrived.
 */
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import { randomBytes } from "node:crypto"
import { Deferred, Effect, FiberSet, type Scope, Stream } from "effect"
import { DriverSettledError, LlmOutputError, LlmSettlementError, LlmTimeoutError } from "../Errors.js"
import * as Llm from "../Llm.js"
import { decodeOne, decodeResponse, describeResponse } from "./Outputs.js"
import { describeRequest, parseRequest, titleFor, type LlmRequest } from "./Requests.js"
import { SseEncoder, type WireStep } from "./SseEncoder.js"

/** A handler for `llm.serve`: one `Stream` of outputs per model request (`index` counts model requests from 0). */
export type ResponseHandler<E = never> = (request: LlmRequest, index: number) => Stream.Stream<Llm.Output, E>

/** Options of `llm.send` and `llm.waitForRequests`. */
export interface LlmWaitOptions {
  /** Milliseconds; default 60 000. */
  readonly timeout?: number
}

/** The live LLM capability of a driver. */
export interface LlmControl {
  /** Queue one future model response made of these outputs (in order). Raw schema-compatible objects are accepted. */
  readonly queue: (...outputs: ReadonlyArray<Llm.Output>) => Effect.Effect<void, LlmOutputError | DriverSettledError>
  /** Queue one response and wait until it has been streamed to OpenCode (default timeout 60 s). */
  readonly send: (
    ...outputs: ReadonlyArray<Llm.Output>
  ) => Effect.Effect<void, LlmOutputError | DriverSettledError | LlmTimeoutError>
  /** Answer every model request that finds no queued response with the handler's `Stream`. */
  readonly serve: <E>(handler: ResponseHandler<E>) => Effect.Effect<void, DriverSettledError>
  /** Every request OpenCode made so far, title requests included (`kind: "title"`). */
  readonly requests: Effect.Effect<ReadonlyArray<LlmRequest>>
  /** Wait until at least `count` model requests arrived; returns the first `count`. */
  readonly waitForRequests: (
    count: number,
    options?: LlmWaitOptions,
  ) => Effect.Effect<ReadonlyArray<LlmRequest>, LlmTimeoutError>
}

/** What settlement reports about the simulated model. */
export interface LlmSummary {
  readonly modelRequests: number
  readonly titleRequests: number
  readonly responsesStreamed: number
  /**
   * Model requests nothing answered (no queued response, no `serve` handler), whether they arrived before
   * settlement or during it: OpenCode's agent loop asks again after the last tool result, and a script that
   * did not script that turn is not wrong. Each got HTTP 503.
   */
  readonly unansweredRequests: ReadonlyArray<string>
}

/** The running fake LLM server. */
export interface FakeLlm {
  readonly control: LlmControl
  /** `http://127.0.0.1:<port>/v1` */
  readonly baseUrl: string
  /** The bearer token OpenCode must send. */
  readonly apiKey: string
  /** Reject new responses, validate queued work and report (never waits longer than `timeoutMs`). */
  readonly settle: (timeoutMs: number) => Effect.Effect<LlmSummary, LlmSettlementError>
}

/** The model id the fake LLM reports. */
export const modelId = "simulated"

interface QueuedResponse {
  readonly number: number
  readonly outputs: ReadonlyArray<Llm.Output>
  readonly streamed: Deferred.Deferred<void>
}

type Source =
  | {
      readonly kind: "outputs"
      readonly outputs: Stream.Stream<unknown, unknown>
      /** The in-flight entry, registered the moment the response was assigned. */
      readonly number: number
      /** Completed when streaming ends (a queued response's `send` waits on it). */
      readonly done?: Deferred.Deferred<void>
    }
  | { readonly kind: "rejected" }

interface PendingRequest {
  readonly request: LlmRequest
  readonly source: Deferred.Deferred<Source>
}

const defaultWait = 60_000

const settledError = (operation: string) =>
  new DriverSettledError({
    message: `llm.${operation} after settle(): the driver is settled and accepts no more LLM responses`,
    operation: `llm.${operation}`,
  })

/** Start the fake LLM on a free loopback port; it stops when the scope closes. */
export const make: Effect.Effect<FakeLlm, never, Scope.Scope> = Effect.gen(function* () {
  const apiKey = randomBytes(16).toString("hex")
  const runFork = yield* FiberSet.makeRuntime<never>()
  const queue: Array<QueuedResponse> = []
  const pending: Array<PendingRequest> = []
  const requests: Array<LlmRequest> = []
  const inflight = new Map<number, { readonly label: string; readonly done: Deferred.Deferred<void> }>()
  const handlerFailures: Array<string> = []
  const unanswered: Array<string> = []
  let handler: ResponseHandler<unknown> | undefined
  let closed = false
  let responseNumber = 0
  let queuedCount = 0
  let modelRequestCount = 0
  let streamedCount = 0
  let requestWaiters: Array<() => void> = []

  const wakeRequestWaiters = () => {
    const waiters = requestWaiters
    requestWaiters = []
    for (const wake of waiters) wake()
  }

  /** Register a response as in flight (synchronously, so settlement always sees it). */
  const startInflight = (request: LlmRequest): number => {
    const number = ++responseNumber
    inflight.set(number, { label: describeRequest(request), done: Deferred.makeUnsafe<void>() })
    return number
  }

  const sourceForQueued = (request: LlmRequest, response: QueuedResponse): Source => ({
    kind: "outputs",
    outputs: Stream.fromIterable(response.outputs),
    number: startInflight(request),
    done: response.streamed,
  })

  const sourceForHandler = (request: LlmRequest, index: number): Source => ({
    kind: "outputs",
    outputs: Stream.suspend(() => handler!(request, index)),
    number: startInflight(request),
  })

  /**
   * Decide where a model request's response comes from, synchronously (so a request is always either assigned
   * or pending when waiters wake up); the returned Effect waits when nothing is available yet.
   */
  const assignSource = (request: LlmRequest, index: number): Effect.Effect<Source> => {
    if (closed) return Effect.succeed<Source>({ kind: "rejected" })
    const next = queue.shift()
    if (next) return Effect.succeed(sourceForQueued(request, next))
    if (handler) return Effect.succeed(sourceForHandler(request, index))
    const entry: PendingRequest = { request, source: Deferred.makeUnsafe<Source>() }
    pending.push(entry)
    return Deferred.await(entry.source).pipe(
      Effect.onInterrupt(() =>
        Effect.sync(() => {
          const at = pending.indexOf(entry)
          if (at !== -1) pending.splice(at, 1)
        }),
      ),
    )
  }

  const writeText = (res: Http.ServerResponse, text: string) =>
    Effect.callback<void>((resume) => {
      if (res.write(text)) resume(Effect.void)
      else res.once("drain", () => resume(Effect.void))
    })

  /**
   * Execute wire steps in order. Consecutive events with no pause between them go out in one socket write (the
   * client still receives them as separate SSE events); a pause or a disconnect flushes what came before it.
   */
  const writeSteps = (res: Http.ServerResponse, steps: ReadonlyArray<WireStep>): Effect.Effect<void> =>
    Effect.gen(function* () {
      let pending = ""
      for (const step of steps) {
        if (step.kind === "event") {
          pending += `data: ${step.data}\n\n`
          if (pending.length < 65_536) continue
        }
        if (pending !== "") {
          yield* writeText(res, pending)
          pending = ""
        }
        if (step.kind === "sleep") yield* Effect.sleep(step.milliseconds)
        if (step.kind === "disconnect") {
          // let already written events leave the socket first, then drop the connection without finishing
          yield* Effect.callback<void>((resume) => {
            setImmediate(() => {
              res.destroy()
              resume(Effect.void)
            })
          })
        }
      }
      if (pending !== "") yield* writeText(res, pending)
    })

  /** Stream outputs as SSE until a terminal output; an invalid output or failing handler drops the stream. */
  const streamOutputs = (res: Http.ServerResponse, request: LlmRequest, outputs: Stream.Stream<unknown, unknown>) =>
    Effect.gen(function* () {
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" })
      res.flushHeaders()
      res.socket?.setNoDelay(true)
      const encoder = new SseEncoder({
        id: `chatcmpl-drive-${request.index}`,
        model: request.model || modelId,
        created: Math.floor(request.receivedAt / 1000),
        offeredTools: request.tools.map((tool) => tool.name),
        promptTokens: Math.ceil(JSON.stringify(request.messages).length / 4),
      })
      let position = 0
      const failure = yield* outputs.pipe(
        Stream.takeWhile(() => !encoder.terminated),
        Stream.runForEach((raw) =>
          Effect.gen(function* () {
            const output = yield* decodeOne(raw, position++)
            yield* writeSteps(res, encoder.encode(output))
          }),
        ),
        Effect.flip,
        Effect.option,
      )
      if (failure._tag === "Some") {
        const reason = failure.value instanceof LlmOutputError ? failure.value.message : String(failure.value)
        handlerFailures.push(`${describeRequest(request)}: ${reason}`)
        yield* writeSteps(res, [{ kind: "disconnect" }])
        return
      }
      yield* writeSteps(res, encoder.end())
      if (!res.destroyed) res.end()
    })

  const readBody = (req: Http.IncomingMessage) =>
    Effect.callback<string>((resume) => {
      const chunks: Array<Buffer> = []
      req.on("data", (chunk: Buffer) => chunks.push(chunk))
      req.on("end", () => resume(Effect.succeed(Buffer.concat(chunks).toString("utf8"))))
      req.on("error", () => resume(Effect.succeed("")))
    })

  const clientGone = (res: Http.ServerResponse) =>
    Effect.callback<void>((resume) => {
      res.on("close", () => {
        if (!res.writableFinished) resume(Effect.void)
      })
    })

  const handleCompletion = (req: Http.IncomingMessage, res: Http.ServerResponse) =>
    Effect.gen(function* () {
      const raw = yield* readBody(req)
      const parsed = parseRequest(raw, requests.length, Date.now())
      if (!parsed.ok) {
        res.writeHead(400, { "content-type": "application/json" })
        res.end(JSON.stringify({ error: { message: `opencode-drive fake LLM: ${parsed.error}` } }))
        return
      }
      const request = parsed.request
      requests.push(request)
      if (request.kind === "title") {
        wakeRequestWaiters()
        yield* streamOutputs(res, request, Stream.make(Llm.text(titleFor(request.messages)), Llm.finish("stop")))
        return
      }
      const index = modelRequestCount++
      const assigned = assignSource(request, index)
      wakeRequestWaiters()
      const source = yield* assigned
      if (source.kind === "rejected") {
        unanswered.push(describeRequest(request))
        res.writeHead(503, { "content-type": "application/json" })
        res.end(
          JSON.stringify({
            error: { message: "opencode-drive: the run is settled; no response was scripted for this request" },
          }),
        )
        return
      }
      yield* streamOutputs(res, request, source.outputs).pipe(
        Effect.ensuring(
          Effect.gen(function* () {
            const entry = inflight.get(source.number)
            inflight.delete(source.number)
            streamedCount++
            if (entry) yield* Deferred.succeed(entry.done, undefined)
            if (source.done) yield* Deferred.succeed(source.done, undefined)
          }),
        ),
      )
    })

  const server = Http.createServer((req, res) => {
    const path = (req.url ?? "").split("?")[0]
    if (req.headers.authorization !== `Bearer ${apiKey}`) {
      res.writeHead(401, { "content-type": "application/json" })
      res.end(JSON.stringify({ error: { message: "opencode-drive fake LLM: wrong API key" } }))
      return
    }
    if (req.method === "POST" && path === "/v1/chat/completions") {
      runFork(Effect.raceFirst(handleCompletion(req, res), clientGone(res)))
      return
    }
    if (req.method === "GET" && path === "/v1/models") {
      res.writeHead(200, { "content-type": "application/json" })
      res.end(JSON.stringify({ object: "list", data: [{ id: modelId, object: "model", owned_by: "opencode-drive" }] }))
      return
    }
    res.writeHead(404, { "content-type": "application/json" })
    res.end(JSON.stringify({ error: { message: `opencode-drive fake LLM: no route ${req.method} ${path}` } }))
  })

  const port = yield* Effect.acquireRelease(
    Effect.callback<number>((resume) => {
      server.listen(0, "127.0.0.1", () => resume(Effect.succeed((server.address() as AddressInfo).port)))
    }),
    () =>
      Effect.callback<void>((resume) => {
        server.close(() => resume(Effect.void))
        server.closeAllConnections()
      }),
  )

  const enqueue = (operation: string, values: ReadonlyArray<unknown>) =>
    Effect.gen(function* () {
      if (closed) return yield* settledError(operation)
      const outputs = yield* decodeResponse(values)
      const response: QueuedResponse = { number: ++queuedCount, outputs, streamed: yield* Deferred.make<void>() }
      const waiting = pending.shift()
      if (waiting) yield* Deferred.succeed(waiting.source, sourceForQueued(waiting.request, response))
      else queue.push(response)
      return response
    })

  const control: LlmControl = {
    queue: (...outputs) => Effect.asVoid(enqueue("queue", outputs)),
    send: (...outputs) =>
      Effect.gen(function* () {
        const response = yield* enqueue("send", outputs)
        yield* Deferred.await(response.streamed).pipe(
          Effect.timeoutOrElse({
            duration: defaultWait,
            orElse: () =>
              Effect.fail(
                new LlmTimeoutError({
                  message: `llm.send: OpenCode did not request the response ${describeResponse(response.outputs)} within ${defaultWait} ms; make the TUI ask the model (e.g. ui.submit) before or while sending`,
                  timeoutMs: defaultWait,
                }),
              ),
          }),
        )
      }),
    serve: (next) =>
      Effect.gen(function* () {
        if (closed) return yield* settledError("serve")
        handler = next as ResponseHandler<unknown>
        while (pending.length > 0) {
          const waiting = pending.shift()!
          yield* Deferred.succeed(waiting.source, sourceForHandler(waiting.request, modelIndexOf(waiting.request)))
        }
      }),
    requests: Effect.sync(() => requests.slice()),
    waitForRequests: (count, options) => {
      const timeout = options?.timeout ?? defaultWait
      const models = () => requests.filter((request) => request.kind === "model")
      const wait: Effect.Effect<ReadonlyArray<LlmRequest>> = Effect.suspend(() =>
        models().length >= count
          ? Effect.succeed(models().slice(0, count))
          : Effect.callback<void>((resume) => {
              requestWaiters.push(() => resume(Effect.void))
            }).pipe(Effect.flatMap(() => wait)),
      )
      return wait.pipe(
        Effect.timeoutOrElse({
          duration: timeout,
          orElse: () =>
            Effect.fail(
              new LlmTimeoutError({
                message: `llm.waitForRequests: expected ${count} model request(s) within ${timeout} ms, got ${models().length}`,
                timeoutMs: timeout,
              }),
            ),
        }),
      )
    },
  }

  const modelIndexOf = (request: LlmRequest) =>
    requests.filter((other) => other.kind === "model" && other.index < request.index).length

  const settle = (timeoutMs: number) =>
    Effect.gen(function* () {
      closed = true
      const streaming = [...inflight.values()]
      yield* Effect.forEach(streaming, (entry) => Deferred.await(entry.done), { discard: true }).pipe(
        Effect.timeoutOption(timeoutMs),
      )
      const unfinished = [...inflight.values()].map((entry) => entry.label)
      const unused = queue
        .splice(0)
        .map((response) => `response #${response.number} ${describeResponse(response.outputs)}`)
      for (const entry of pending.splice(0))
        Deferred.doneUnsafe(entry.source, Effect.succeed<Source>({ kind: "rejected" }))
      const failures = handlerFailures.splice(0)
      const summary: LlmSummary = {
        modelRequests: modelRequestCount,
        titleRequests: requests.length - modelRequestCount,
        responsesStreamed: streamedCount,
        // a live view: requests rejected from now on are listed too
        unansweredRequests: unanswered,
      }
      if (unused.length + unfinished.length + failures.length === 0) return summary
      const parts: Array<string> = []
      if (unused.length > 0) {
        parts.push(
          `${unused.length} queued response(s) were never requested by OpenCode: ${unused.join("; ")} — remove them or make the TUI ask the model again`,
        )
      }
      if (unfinished.length > 0) {
        parts.push(
          `${unfinished.length} response(s) were still streaming after ${timeoutMs} ms: ${unfinished.join("; ")}`,
        )
      }
      if (failures.length > 0) parts.push(`${failures.length} response(s) failed: ${failures.join("; ")}`)
      return yield* new LlmSettlementError({
        message: `LLM settlement failed: ${parts.join(". ")}`,
        unusedResponses: unused,
        unfinishedResponses: [...unfinished, ...failures],
      })
    })

  return { control, baseUrl: `http://127.0.0.1:${port}/v1`, apiKey, settle } satisfies FakeLlm
})

export type { LlmRequest } from "./Requests.js"
