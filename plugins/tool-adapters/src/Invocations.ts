/**
 * The invocation hub: every intercepted tool call Drive knows about, who is waiting for which, and how each one
 * settles. Transport-independent: the control channel feeds it arrivals, disconnects and aborts; scripts take and
 * settle invocations through {@link Control}. All state changes happen synchronously on the JavaScript thread, so
 * arrival order and waiter order are exact.
 */
import { Deferred, Effect, Fiber } from "effect"
import {
  InvocationSettledError,
  ToolChannelClosedError,
  ToolNotControllableError,
  ToolSettlementError,
} from "./Errors.js"
import type { ProgressDisplay } from "./ProgressDisplay.js"
import { view } from "./ProgressDisplay.js"
import type { InvokeRequest, Line, TerminalLine } from "./Protocol.js"
import { canonicalName, opencodeName } from "./ToolNames.js"

/** The terminal result of an intercepted built-in tool call. */
export interface ToolSuccess {
  /** What the model sees as the tool's output. */
  readonly output: string
  /** The exit status, for the shell tool. */
  readonly exit?: number
  /** Extra metadata OpenCode stores with the tool part. */
  readonly metadata?: Readonly<Record<string, unknown>>
}

/** One intercepted invocation of a statically declared built-in tool. */
export interface Invocation {
  /** The adapter's transport identity of this invocation. */
  readonly id: string
  /** The model's tool-call id (`Llm.toolCall({ id })`). */
  readonly callID: string
  /** The canonical tool name (`shell` for OpenCode 1.x `bash`). */
  readonly tool: string
  /** The model's arguments. */
  readonly input: unknown
  readonly sessionID: string | undefined
  readonly messageID: string | undefined
  /**
   * Stream progress to OpenCode, shown on the running tool part: a string, or the text parts of
   * `{ structured, content: [{ type: "text", text }] }`, is appended to the live output (`structured` is kept in
   * its metadata); `{ title, metadata }` sets those; anything else is kept as `metadata.progress`.
   */
  readonly progress: (update: unknown) => Effect.Effect<void, InvocationSettledError>
  /** Settle successfully; an invocation settles exactly once. */
  readonly succeed: (result: ToolSuccess) => Effect.Effect<void, InvocationSettledError>
  /** Settle with a failure the model sees as a failed tool call. */
  readonly fail: (error: unknown) => Effect.Effect<void, InvocationSettledError>
  /** Completes when OpenCode aborts the call or the transport breaks before settlement. */
  readonly awaitInterrupted: () => Effect.Effect<void>
}

/** Runtime control of one declared tool. */
export interface Control {
  /** Reserve the invocation with this model call id (whenever it arrives), or the oldest unclaimed one. */
  readonly take: (callID?: string) => Effect.Effect<Invocation, ToolChannelClosedError>
}

/** A fixed handler for the callback form of `options.tools`. */
export type Handler = (invocation: Invocation) => Effect.Effect<ToolSuccess, unknown>

/** Where an invocation's response lines go (one open HTTP response). */
export interface Sink {
  readonly write: (line: Line) => void
  readonly end: () => void
}

/** An invocation that blocks settlement. */
export interface PendingInvocation {
  readonly callID: string
  readonly tool: string
  /** `untaken`: intercepted but nobody took it; `unsettled`: taken but never settled. */
  readonly state: "untaken" | "unsettled"
}

/** The outcome of reporting an invocation to the hub. */
export type Arrival = { readonly accepted: true } | { readonly accepted: false; readonly message: string }

interface Entry {
  readonly request: InvokeRequest
  readonly key: string
  readonly invocation: Invocation
  readonly interrupted: Deferred.Deferred<void>
  readonly progress: Array<Line>
  readonly sinks: Set<Sink>
  taken: boolean
  outcome: undefined | "succeeded" | "failed" | "interrupted"
  terminal: TerminalLine | undefined
  graceTimer: ReturnType<typeof setTimeout> | undefined
  handler: Fiber.Fiber<unknown, unknown> | undefined
  /** The string progress so far (the live output shown on the tool part). */
  output: string
  /** Completes when every progress update so far is shown on the tool part. */
  displayed: Promise<void>
}

interface Waiter {
  readonly key: string
  readonly name: string
  readonly callID: string | undefined
  readonly resume: (effect: Effect.Effect<Invocation, ToolChannelClosedError>) => void
}

/** How the hub is configured. */
export interface HubOptions {
  /** Canonical or OpenCode names of the tools whose adapters are installed. */
  readonly declared: ReadonlyArray<string>
  /** Fixed handlers by tool name; those tools are not available through `control`. */
  readonly handlers?: ReadonlyMap<string, Handler>
  /** How long a dropped adapter connection may stay away before the invocation counts as interrupted. */
  readonly reconnectGraceMs?: number
  /**
   * Shows progress on OpenCode's tool part. With a display, a terminal result reaches the adapter only after
   * every earlier progress update was shown, so a late update never overwrites the completed part.
   */
  readonly display?: ProgressDisplay
}

/** The invocation hub. */
export interface Hub {
  /** Report an invocation (first attempt or replay) and attach `sink` to its response stream. */
  readonly arrive: (request: InvokeRequest, sink: Sink) => Arrival
  /** A response stream closed (the adapter's connection ended). */
  readonly disconnect: (id: string, sink: Sink) => void
  /** OpenCode aborted the invocation `id`; unknown ids are ignored. */
  readonly abort: (id: string) => void
  /** Runtime control of a declared tool. */
  readonly control: (name: string) => Effect.Effect<Control, ToolNotControllableError>
  /** Invocations that were never taken or never settled, in arrival order. */
  readonly pending: () => ReadonlyArray<PendingInvocation>
  /** Fails naming the call IDs of every pending invocation. */
  readonly settle: Effect.Effect<void, ToolSettlementError>
  /** Fail blocked takes, interrupt unresolved invocations and stop fixed handlers. */
  readonly close: Effect.Effect<void>
}

const defaultGraceMs = 3_000

/** A readable message for whatever a script failed an invocation with. */
export const describeFailure = (error: unknown): string => {
  if (typeof error === "string") return error
  if (typeof error === "object" && error !== null && typeof (error as { message?: unknown }).message === "string") {
    return (error as { message: string }).message
  }
  try {
    return JSON.stringify(error) ?? String(error)
  } catch {
    return String(error)
  }
}

/** Build an empty hub. */
export const make = (options: HubOptions): Hub => {
  const graceMs = options.reconnectGraceMs ?? defaultGraceMs
  const declared = new Set(options.declared.map(opencodeName))
  const handlers = new Map<string, Handler>()
  for (const [name, handler] of options.handlers ?? []) {
    handlers.set(opencodeName(name), handler)
    declared.add(opencodeName(name))
  }
  const entries = new Map<string, Entry>()
  const arrivals: Array<Entry> = []
  const unclaimed: Array<Entry> = []
  const waiters: Array<Waiter> = []
  let closed = false

  const describe = (entry: Entry) => `call ${entry.request.callID} (${entry.invocation.tool})`

  const deliver = (entry: Entry, line: TerminalLine) => {
    for (const sink of entry.sinks) {
      sink.write(line)
      sink.end()
    }
    entry.sinks.clear()
  }

  const finish = (entry: Entry, outcome: "succeeded" | "failed" | "interrupted", line: TerminalLine) => {
    entry.outcome = outcome
    entry.terminal = line
    if (entry.graceTimer !== undefined) clearTimeout(entry.graceTimer)
    if (options.display === undefined || outcome === "interrupted") deliver(entry, line)
    else void entry.displayed.then(() => deliver(entry, line))
  }

  const interrupt = (entry: Entry, reason: string) => {
    if (entry.outcome !== undefined) return
    finish(entry, "interrupted", { type: "error", message: reason })
    Deferred.doneUnsafe(entry.interrupted, Effect.void)
    if (entry.handler !== undefined) Effect.runFork(Fiber.interrupt(entry.handler))
  }

  const settleWith = (entry: Entry, outcome: "succeeded" | "failed", line: TerminalLine) =>
    Effect.suspend(() => {
      if (entry.outcome !== undefined) {
        return Effect.fail(
          new InvocationSettledError({
            message: `${describe(entry)} was already ${entry.outcome}; an invocation settles exactly once`,
            callID: entry.request.callID,
          }),
        )
      }
      finish(entry, outcome, line)
      return Effect.void
    })

  const makeEntry = (request: InvokeRequest, key: string): Entry => {
    const entry = {
      request,
      key,
      interrupted: Deferred.makeUnsafe<void>(),
      progress: [],
      sinks: new Set(),
      taken: false,
      outcome: undefined,
      terminal: undefined,
      graceTimer: undefined,
      handler: undefined,
      output: "",
      displayed: Promise.resolve(),
    } as unknown as Entry
    const invocation: Invocation = {
      id: request.id,
      callID: request.callID,
      tool: canonicalName(request.tool),
      input: request.input,
      sessionID: request.sessionID,
      messageID: request.messageID,
      progress: (data) =>
        Effect.suspend(() => {
          if (entry.outcome !== undefined) {
            return Effect.fail(
              new InvocationSettledError({
                message: `${describe(entry)} was already ${entry.outcome}; progress after settlement is not delivered`,
                callID: request.callID,
              }),
            )
          }
          const line: Line = { type: "progress", seq: entry.progress.length + 1, data }
          entry.progress.push(line)
          for (const sink of entry.sinks) sink.write(line)
          const display = options.display
          if (display !== undefined) {
            const shown = view(data, entry.output, request.input)
            entry.output = shown.output
            const address = { sessionID: request.sessionID, messageID: request.messageID, callID: request.callID }
            entry.displayed = entry.displayed.then(() => display.show(address, shown.view))
          }
          return Effect.void
        }),
      succeed: (result) =>
        settleWith(entry, "succeeded", {
          type: "result",
          output: result.output,
          ...(result.exit === undefined ? {} : { exit: result.exit }),
          ...(result.metadata === undefined ? {} : { metadata: result.metadata }),
        }),
      fail: (error) => settleWith(entry, "failed", { type: "error", message: describeFailure(error) }),
      awaitInterrupted: () => Deferred.await(entry.interrupted),
    }
    ;(entry as { invocation: Invocation }).invocation = invocation
    return entry
  }

  const claim = (entry: Entry): Invocation => {
    entry.taken = true
    return entry.invocation
  }

  const dispatch = (entry: Entry) => {
    const handler = handlers.get(entry.key)
    if (handler !== undefined) {
      entry.taken = true
      entry.handler = Effect.runFork(
        handler(entry.invocation).pipe(
          Effect.matchEffect({
            onSuccess: (result) => entry.invocation.succeed(result),
            onFailure: (error) => entry.invocation.fail(error),
          }),
          Effect.ignore,
        ),
      )
      return
    }
    const exact = waiters.findIndex((w) => w.key === entry.key && w.callID === entry.request.callID)
    const index = exact >= 0 ? exact : waiters.findIndex((w) => w.key === entry.key && w.callID === undefined)
    if (index >= 0) {
      const [waiter] = waiters.splice(index, 1)
      waiter.resume(Effect.succeed(claim(entry)))
      return
    }
    unclaimed.push(entry)
  }

  const arrive = (request: InvokeRequest, sink: Sink): Arrival => {
    const known = entries.get(request.id)
    if (known !== undefined) {
      for (const line of known.progress) {
        if (line.type === "progress" && line.seq > (request.after ?? 0)) sink.write(line)
      }
      if (known.terminal !== undefined) {
        const terminal = known.terminal
        const replay = () => {
          sink.write(terminal)
          sink.end()
        }
        if (options.display === undefined || known.outcome === "interrupted") replay()
        else void known.displayed.then(replay)
      } else {
        if (known.graceTimer !== undefined) clearTimeout(known.graceTimer)
        known.graceTimer = undefined
        known.sinks.add(sink)
      }
      return { accepted: true }
    }
    const key = opencodeName(request.tool)
    if (!declared.has(key)) {
      return {
        accepted: false,
        message: `tool "${request.tool}" is not intercepted in this run; declare it before OpenCode starts (options.tools)`,
      }
    }
    if (closed) {
      return {
        accepted: false,
        message: `Drive's run has ended; call ${request.callID} (${request.tool}) cannot be handled`,
      }
    }
    const entry = makeEntry(request, key)
    entries.set(request.id, entry)
    arrivals.push(entry)
    entry.sinks.add(sink)
    dispatch(entry)
    return { accepted: true }
  }

  const disconnect = (id: string, sink: Sink) => {
    const entry = entries.get(id)
    if (entry === undefined || !entry.sinks.delete(sink)) return
    if (entry.outcome !== undefined || entry.sinks.size > 0) return
    entry.graceTimer = setTimeout(
      () =>
        interrupt(
          entry,
          `the adapter's connection for ${describe(entry)} dropped and did not come back within ${graceMs} ms`,
        ),
      graceMs,
    )
    entry.graceTimer.unref?.()
  }

  const abort = (id: string) => {
    const entry = entries.get(id)
    if (entry !== undefined) interrupt(entry, `OpenCode aborted ${describe(entry)}`)
  }

  const take = (key: string, name: string, callID: string | undefined) =>
    Effect.callback<Invocation, ToolChannelClosedError>((resume) => {
      if (closed) {
        resume(Effect.fail(closedError(name, callID)))
        return
      }
      const index = unclaimed.findIndex(
        (entry) => entry.key === key && (callID === undefined || entry.request.callID === callID),
      )
      if (index >= 0) {
        const [entry] = unclaimed.splice(index, 1)
        resume(Effect.succeed(claim(entry)))
        return
      }
      const waiter: Waiter = { key, name, callID, resume }
      waiters.push(waiter)
      return Effect.sync(() => {
        const at = waiters.indexOf(waiter)
        if (at >= 0) waiters.splice(at, 1)
      })
    })

  const closedError = (name: string, callID: string | undefined) =>
    new ToolChannelClosedError({
      message:
        callID === undefined
          ? `tools.control("${name}").take() was still waiting when the run ended: no unclaimed ${name} invocation arrived`
          : `tools.control("${name}").take("${callID}") was still waiting when the run ended: OpenCode never called ${name} with call ID ${callID}`,
    })

  const control = (name: string) =>
    Effect.suspend(() => {
      const key = opencodeName(name)
      if (handlers.has(key)) {
        return Effect.fail(
          new ToolNotControllableError({
            message: `tool "${name}" is handled by a fixed callback (options.tools as a function), so it is not available through tools.control`,
            tool: name,
          }),
        )
      }
      if (!declared.has(key)) {
        const list = [...declared].map(canonicalName).join(", ") || "none"
        return Effect.fail(
          new ToolNotControllableError({
            message: `tool "${name}" was not declared before OpenCode started (declared: ${list}); add it to options.tools`,
            tool: name,
          }),
        )
      }
      return Effect.succeed<Control>({ take: (callID) => take(key, name, callID) })
    })

  const pending = (): ReadonlyArray<PendingInvocation> =>
    arrivals.flatMap((entry): Array<PendingInvocation> => {
      if (!entry.taken) return [{ callID: entry.request.callID, tool: entry.invocation.tool, state: "untaken" }]
      if (entry.outcome === undefined)
        return [{ callID: entry.request.callID, tool: entry.invocation.tool, state: "unsettled" }]
      return []
    })

  const settle = Effect.suspend(() => {
    const open = pending()
    if (open.length === 0) return Effect.void
    const details = open.map((p) =>
      p.state === "untaken"
        ? `${p.callID} (${p.tool}) was intercepted but never taken; take it with tools.control("${p.tool}").take("${p.callID}")`
        : `${p.callID} (${p.tool}) was taken but never settled; call succeed(...) or fail(...) on it`,
    )
    return Effect.fail(
      new ToolSettlementError({
        message: `${open.length} intercepted tool call${open.length === 1 ? " was" : "s were"} not settled: ${details.join("; ")}`,
        callIDs: open.map((p) => p.callID),
      }),
    )
  })

  const close = Effect.suspend(() => {
    closed = true
    for (const waiter of waiters.splice(0)) {
      waiter.resume(Effect.fail(closedError(waiter.name, waiter.callID)))
    }
    const handlerFibers: Array<Fiber.Fiber<unknown, unknown>> = []
    for (const entry of arrivals) {
      if (entry.handler !== undefined) handlerFibers.push(entry.handler)
      interrupt(entry, `Drive's run ended before ${describe(entry)} was settled`)
    }
    return Effect.asVoid(Fiber.interruptAll(handlerFibers))
  })

  return { arrive, disconnect, abort, control, pending, settle, close }
}
