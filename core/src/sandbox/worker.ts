/**
 * The interpreter thread of a sandbox process. It loads language runtimes on demand and runs one program at a time.
 * It has no event loop to spare: it blocks reading the host's frames, so a host call is a frame out and a blocking
 * read until the answer to that ticket arrives. Answers for another run, or for a ticket nobody waits for, are
 * dropped.
 */
import { workerData } from "node:worker_threads"
import { isDataObject } from "../Data.js"
import { boundDiagnostic, cutLogLine } from "../Result.js"
import { tooLong } from "../SearchBounds.js"
import { BlockingFrameReader, writeFrame } from "./frames.js"
import { collectBetweenRuns, collectionDue } from "./memory.js"
import { FROM_SANDBOX_FD, type HostMessage, type RunMessage, type SandboxMessage, TO_SANDBOX_FD } from "./messages.js"
import type {
  Diagnostic,
  HostCall,
  HostOutcome,
  LanguageRuntime,
  RunOutcome,
  RunRequest,
  SandboxHost,
} from "./protocol.js"

/** The most warnings one run sends; the host adds a `Truncated` warning for the rest. */
const MAX_WARNINGS = 1_000

const reader = new BlockingFrameReader(TO_SANDBOX_FD)
const send = (message: SandboxMessage) => writeFrame(FROM_SANDBOX_FD, message)
const runtimes = new Map<string, LanguageRuntime>()

/** One run's view of the host. */
class Bridge implements SandboxHost {
  private nextTicket = 1
  private nextBarrier = 1
  private warnings = 0
  private readonly inFlight = new Set<number>()
  private readonly ready: Array<{ ticket: number; outcome: HostOutcome }> = []
  private aborted: { ticket: number; outcome: HostOutcome } | undefined
  retired: string | undefined

  constructor(
    private readonly run: number,
    readonly deadline: number,
  ) {}

  /** The next message for this run: an answer to a ticket in flight, a barrier reply or the host's abort. */
  private receive(): { ticket: number; outcome: HostOutcome } | { barrier: number } | { abort: true } {
    for (;;) {
      const message = reader.next() as HostMessage
      if (message.t === "answer" && message.run === this.run) return message
      if (message.t === "barrier" && message.run === this.run) return { barrier: message.id }
      if (message.t === "abort" && message.run === this.run) {
        this.aborted = { ticket: message.ticket, outcome: { ok: false, error: message.error } }
        return { abort: true }
      }
      if (message.t === "run") throw new Error("the host started a run while another was in progress")
    }
  }

  /** After the host's abort: the outcome every wait receives, first for the call that crossed the limit. */
  private takeAborted(): { ticket: number; outcome: HostOutcome } | undefined {
    const aborted = this.aborted
    if (aborted === undefined || this.inFlight.size === 0) return undefined
    const ticket = this.inFlight.has(aborted.ticket) ? aborted.ticket : this.inFlight.values().next().value!
    this.inFlight.delete(ticket)
    return { ticket, outcome: aborted.outcome }
  }

  call(call: HostCall): HostOutcome {
    if (this.aborted) return this.aborted.outcome
    const refused = refuseLocally(call)
    if (refused) return refused
    const ticket = this.nextTicket++
    send({ t: "call", run: this.run, ticket, call })
    for (;;) {
      const answer = this.receive()
      if ("abort" in answer) return this.aborted!.outcome
      if ("barrier" in answer) continue
      if (answer.ticket === ticket) return answer.outcome
      if (this.inFlight.has(answer.ticket)) this.ready.push(answer)
    }
  }

  start(call: HostCall): number {
    const ticket = this.nextTicket++
    this.inFlight.add(ticket)
    const refused = refuseLocally(call)
    if (refused) this.ready.push({ ticket, outcome: refused })
    else if (!this.aborted) send({ t: "call", run: this.run, ticket, call })
    return ticket
  }

  waitAny(): { ticket: number; outcome: HostOutcome } {
    for (;;) {
      const index = this.ready.findIndex((r) => this.inFlight.has(r.ticket))
      if (index >= 0) {
        const [answer] = this.ready.splice(index, 1)
        this.inFlight.delete(answer.ticket)
        return answer
      }
      if (this.inFlight.size === 0) throw new Error("waitAny: no host call is in flight")
      const aborted = this.takeAborted()
      if (aborted) return aborted
      const answer = this.receive()
      if ("abort" in answer || "barrier" in answer) continue
      if (this.inFlight.has(answer.ticket)) this.ready.push(answer)
    }
  }

  settledCalls(): ReadonlyArray<{ ticket: number; outcome: HostOutcome }> {
    if (this.inFlight.size > 0 && !this.aborted) {
      const id = this.nextBarrier++
      send({ t: "barrier", run: this.run, id })
      for (;;) {
        const answer = this.receive()
        if ("abort" in answer) break
        if ("barrier" in answer) {
          if (answer.barrier === id) break
          continue
        }
        if (this.inFlight.has(answer.ticket)) this.ready.push(answer)
      }
    }
    const settled = this.ready.filter((r) => this.inFlight.has(r.ticket))
    this.ready.length = 0
    for (const r of settled) this.inFlight.delete(r.ticket)
    const aborted = this.takeAborted()
    return aborted ? [...settled, aborted] : settled
  }

  cancel(ticket: number): void {
    if (this.inFlight.delete(ticket) && !this.aborted) send({ t: "cancel", run: this.run, ticket })
  }

  log(line: string): void {
    // Cut here too, so that a huge line never crosses the channel.
    send({ t: "log", run: this.run, line: cutLogLine(String(line)) })
  }

  warn(diagnostic: Diagnostic): void {
    if (++this.warnings > MAX_WARNINGS) return
    send({ t: "warn", run: this.run, diagnostic: boundDiagnostic(diagnostic) })
  }

  retire(reason: string): void {
    this.retired ??= String(reason)
  }

  /** Cancel whatever the program left running. */
  finish(): void {
    if (!this.aborted) for (const ticket of this.inFlight) send({ t: "cancel", run: this.run, ticket })
    this.inFlight.clear()
    this.ready.length = 0
  }
}

/** A search whose query the host would refuse for its size is refused here, before it crosses the channel. */
const refuseLocally = (call: HostCall): HostOutcome | undefined => {
  if (call.kind !== "search") return undefined
  const input = call.input
  const query = typeof input === "string" ? input : isDataObject(input) ? input.query : undefined
  const message = typeof query === "string" ? tooLong("query", query.length) : undefined
  return message === undefined ? undefined : { ok: false, error: { kind: "InvalidToolInput", message, fatal: false } }
}

const load = async (module: string): Promise<LanguageRuntime> => {
  let runtime = runtimes.get(module)
  if (!runtime) {
    const imported = (await import(module)) as Partial<LanguageRuntime> & { default?: LanguageRuntime }
    const candidate = typeof imported.run === "function" ? (imported as LanguageRuntime) : imported.default
    if (!candidate || typeof candidate.run !== "function")
      throw new Error(`${module} does not export run(request, host)`)
    runtime = candidate
    runtimes.set(module, runtime)
  }
  return runtime
}

const internalFailure = (error: unknown): RunOutcome => {
  const text = error instanceof Error ? error.message : String(error)
  const overflow = error instanceof RangeError && /call stack/i.test(text)
  return {
    ok: false,
    error: {
      kind: "ExecutionFailure",
      message: overflow
        ? "the interpreter's stack overflowed (the program nests too deeply)"
        : `internal error: ${text}`,
    },
  }
}

/** The tool and extension shapes of the last run read in full, frozen: runs of the same scope share them. */
let shapes: Pick<RunRequest, "scope" | "tools" | "extensions"> | undefined

const deepFreeze = <T>(value: T): T => {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key])
  }
  return value
}

/** The request of a run message: its shapes are those of the last full request when the host left them out. */
const requestOf = (message: RunMessage): RunRequest => {
  if (message.sameShapes) {
    if (shapes === undefined || shapes.scope !== message.request.scope)
      throw new Error("the host left out the shapes of a scope this sandbox does not hold")
    return { ...message.request, tools: shapes.tools, extensions: shapes.extensions }
  }
  const request = message.request as RunRequest
  shapes = { scope: request.scope, tools: deepFreeze(request.tools), extensions: deepFreeze(request.extensions) }
  return request
}

/**
 * Run one program and send its `done`. Returns the runtime to clean up after, or `undefined` when nothing is left to
 * clean: the runtime has no `afterRun` and no collection is due (`done` then says so), or the sandbox retires with
 * this run (the host discards it).
 */
const execute = async (message: RunMessage): Promise<LanguageRuntime | undefined> => {
  const bridge = new Bridge(message.run, message.deadline)
  let outcome: RunOutcome
  let runtime: LanguageRuntime | undefined
  try {
    const request = requestOf(message)
    runtime = await load(message.module)
    try {
      outcome = runtime.run(request, bridge)
    } finally {
      bridge.finish()
    }
  } catch (error) {
    outcome = internalFailure(error)
    // Whatever escaped the interpreter may have left its state half reset: never reuse this sandbox.
    bridge.retire(`an error escaped the interpreter: ${outcome.ok ? "" : outcome.error.message}`)
  }
  // A huge message (a program throwing a huge string) is cut here, so that it never crosses the channel.
  const bounded: RunOutcome = outcome.ok ? outcome : { ok: false, error: boundDiagnostic(outcome.error) }
  if (bridge.retired) {
    send({ t: "done", run: message.run, outcome: bounded, retire: bridge.retired })
    return undefined
  }
  const clean = runtime?.afterRun === undefined && !collectionDue()
  send({ t: "done", run: message.run, outcome: bounded, ...(clean ? { clean: true } : {}) })
  return clean ? undefined : runtime
}

/**
 * Put back what a run or a warm-up left, after its result has gone: the language's own reset (`afterRun`), then the
 * garbage, so that it does not count against the next run's heap. Returns why the sandbox must retire, if it must.
 */
const cleanUp = (runtime: LanguageRuntime | undefined): string | undefined => {
  let reason: string | undefined
  try {
    const returned = runtime?.afterRun?.()
    if (returned !== undefined) reason = String(returned)
  } catch (error) {
    reason = `resetting the language after the run failed: ${error instanceof Error ? error.message : String(error)}`
  }
  collectBetweenRuns()
  return reason
}

/**
 * Say that this sandbox must not run another program, and stop: it reads nothing more, so a run the host sent it
 * after its last one stays unread and the host starts it over in a new sandbox process.
 */
const retire = (reason: string): never => {
  send({ t: "retire", reason })
  const never = new Int32Array(new SharedArrayBuffer(4))
  for (;;) Atomics.wait(never, 0, 0)
}

/** Set by the process's main thread when the host has given this sandbox a run (see `process.ts`). */
const runWaiting = (workerData as { runWaiting: Int32Array }).runWaiting

/** Warm `runtime` up, a step at a time when it can, stopping early when a run waits. */
const warmUp = (runtime: LanguageRuntime): void => {
  const steps = runtime.warmSteps?.()
  if (steps === undefined) return runtime.warm?.()
  while (Atomics.load(runWaiting, 0) === 0 && steps.next().done !== true) {}
}

const serve = async (): Promise<void> => {
  send({ t: "ready" })
  for (;;) {
    const message = reader.next() as HostMessage
    if (message.t === "run") {
      Atomics.store(runWaiting, 0, 0)
      const runtime = await execute(message)
      if (runtime === undefined) continue
      // The caller has its result. The next run, which the host may have sent already, is read only once clean.
      const reason = cleanUp(runtime)
      if (reason !== undefined) retire(reason)
      send({ t: "idle", run: message.run })
    } else if (message.t === "preload") {
      for (const module of message.modules) {
        const runtime = await load(module).catch(() => undefined)
        if (message.warm) {
          try {
            if (runtime !== undefined) warmUp(runtime)
          } catch {
            // Warming is an optimisation: a runtime that fails at it still runs programs.
          }
          const reason = cleanUp(runtime)
          if (reason !== undefined) retire(reason)
        }
      }
      if (message.warm) send({ t: "warmed" })
    }
    // Late answers and barrier replies of finished runs are dropped here.
  }
}

void serve()
