/**
 * Running one program: the host side of an execution.
 *
 * The program runs in a sandbox process; every call it makes arrives here as a message and runs as an Effect in the
 * execution's environment (see `HostCall.ts`), and its answer goes back tagged with the run and the call, so it can
 * reach no other execution. `timeoutMs` counts from the `execute` call, waiting for a free sandbox included. Timeout
 * or interruption kills the sandbox and interrupts the calls in flight. Everything the host keeps for an execution
 * (calls running and queued, their records, logs, warnings) is bounded whatever the configured limits.
 */
import { Cause, Duration, Effect, Exit, Fiber, Option } from "effect"
import { copyData, DataError, type DataValue, defaultCopyBounds } from "./Data.js"
import * as Diagnostic from "./Diagnostic.js"
import type * as Extension from "./Extension.js"
import { type CallContext, type CallRecord, callEffect, failure, Handles, messageOf, recordError } from "./HostCall.js"
import type { Definition } from "./Language.js"
import type { Limits } from "./Limits.js"
import * as Result from "./Result.js"
import type { Sandbox, SandboxEvent, SandboxPool } from "./sandbox/Pool.js"
import type { ExtensionShape, HostCall, HostOutcome, RunOutcome, ToolShape } from "./sandbox/protocol.js"

/** Everything an execution needs, prepared once per runtime. */
export interface Plan extends CallContext {
  readonly language: Definition
  readonly tools: ToolShape
  readonly extensions: ReadonlyMap<string, Extension.Extension>
  readonly extensionShapes: ReadonlyArray<ExtensionShape>
  readonly limits: Limits
  readonly pool: () => SandboxPool
  /** This runtime's cache scope in the sandbox (see `RunRequest.scope`). */
  readonly scope: string
  /**
   * True for the host's warm-up: a run takes an idle, warm sandbox or does not start (see
   * `SandboxPool.acquireIdle`); it never waits for one, and never starts a process.
   */
  readonly background?: boolean
}

/** Calls of one execution that run at once; the rest wait their turn in order (the program sees no difference). */
export const MAX_RUNNING_CALLS = 8
/** Call records an execution keeps for `toolCalls`; past this the list ends and a `Truncated` warning says so. */
export const MAX_CALL_RECORDS = 10_000
/**
 * Calls of one execution waiting their turn, at most. One more ends the program (`ToolCallLimitExceeded`): a program
 * that starts calls without ever waiting for them cannot make the host hold them without bound.
 */
export const MAX_QUEUED_CALLS = 100_000
/**
 * How long past its deadline a program has to end by itself before its sandbox is killed. The sandbox's meter ends a
 * program at the same deadline (and a call it waits for is aborted then), so a program that is not stuck in a
 * built-in ends within this and its sandbox is kept: a killed sandbox costs a new process.
 */
export const TIMEOUT_GRACE_MS = 50
/** The longest the host waits for calls a finished program left running to stop before it abandons them. */
export const INTERRUPT_GRACE_MS = 1_000
/**
 * The inputs of calls waiting their turn, in bytes of their messages, at most. A call that would go past this ends
 * the program (`ToolCallLimitExceeded`): a program that starts calls with large inputs without waiting for them
 * cannot make the host hold those inputs without bound.
 */
export const MAX_QUEUED_BYTES = 64 * 1024 * 1024
/** Answers the sandbox has not read yet, in bytes, past which queued calls wait before they start. */
export const MAX_UNREAD_BYTES = 32 * 1024 * 1024

type End =
  | { readonly type: "done"; readonly outcome: RunOutcome; readonly retire?: string }
  | { readonly type: "crash"; readonly reason: string; readonly outOfMemory: boolean }

const timeoutDiagnostic = (limits: Limits, waiting: boolean) =>
  Diagnostic.make(
    "TimeoutExceeded",
    waiting
      ? `the program could not start within timeoutMs (${limits.timeoutMs} ms): every sandbox was busy`
      : `the program did not finish within timeoutMs (${limits.timeoutMs} ms) and was stopped`,
  )

/**
 * Wait for a sandbox until `deadline` (`None` past it); interruptible, and a sandbox delivered as the wait is
 * interrupted goes back to the pool. The timer is the wait's own, so that a sandbox at hand costs no timer at all.
 */
const acquire = (pool: SandboxPool, module: string, deadline: number) =>
  Effect.callback<Option.Option<Sandbox>>((resume) => {
    let delivered: Sandbox | undefined
    let timer: ReturnType<typeof setTimeout> | undefined
    let withdraw: () => void
    try {
      withdraw = pool.acquire(module, (sandbox) => {
        delivered = sandbox
        clearTimeout(timer)
        resume(Effect.succeed(Option.some(sandbox)))
      })
    } catch (error) {
      resume(Effect.die(error))
      return
    }
    if (delivered === undefined && deadline !== Infinity)
      timer = setTimeout(
        () => {
          withdraw()
          resume(Effect.succeed(Option.none()))
        },
        Math.max(0, deadline - Date.now()),
      )
    return Effect.sync(() => {
      clearTimeout(timer)
      withdraw()
      if (delivered) pool.release(delivered)
    })
  })

/**
 * The longest program the host sends to a sandbox, in UTF-16 code units: far above what either language accepts
 * (each refuses a longer program with its own message), and far below what the channel could carry.
 */
export const MAX_SOURCE_LENGTH = 4 * 1024 * 1024

const refused = (message: string): Result.Result => ({
  ok: false,
  error: Diagnostic.make("ParseError", message),
  toolCalls: [],
})

/** Run `code` under `plan`. Never fails: every problem is a diagnostic in the `Result`. */
export const execute = (plan: Plan, code: string): Effect.Effect<Result.Result, never, any> =>
  Effect.suspend(() => {
    if (typeof code !== "string")
      return Effect.succeed(
        refused(`the program must be a string of source code (got ${code === null ? "null" : typeof code})`),
      )
    if (code.trim() === "") return Effect.succeed(refused("the source is empty; write a program that returns a value"))
    if (code.length > MAX_SOURCE_LENGTH)
      return Effect.succeed(
        refused(
          `the program is ${code.length} characters long; a program is at most ${MAX_SOURCE_LENGTH} characters (split the work into smaller programs)`,
        ),
      )
    const { limits } = plan
    const deadline = limits.timeoutMs === Infinity ? Infinity : Date.now() + limits.timeoutMs
    const pool = plan.pool()
    return Effect.uninterruptibleMask((restore) =>
      Effect.gen(function* () {
        const waited = plan.background
          ? Option.fromNullishOr(pool.acquireIdle(plan.language.workerModule))
          : yield* restore(acquire(pool, plan.language.workerModule, deadline))
        if (Option.isNone(waited) || Date.now() >= deadline) {
          if (Option.isSome(waited)) pool.release(waited.value)
          return { ok: false, error: timeoutDiagnostic(limits, true), toolCalls: [] } satisfies Result.Result
        }
        const sandbox = waited.value
        let reusable = false
        return yield* restore(
          runOn(plan, code, sandbox, deadline).pipe(
            Effect.map((r) => {
              reusable = r.reusable
              return r.result
            }),
          ),
        ).pipe(Effect.ensuring(Effect.sync(() => (reusable ? pool.release(sandbox) : pool.discard(sandbox)))))
      }),
    )
  })

const runOn = (plan: Plan, code: string, sandbox: Sandbox, deadline: number) =>
  Effect.gen(function* () {
    const services = yield* Effect.context<any>()
    const fork = Effect.runForkWith(services)
    const { limits, language } = plan
    const logs = new Result.LogCollector(Math.min(limits.maxOutputBytes, Result.MAX_LOG_BYTES))
    const warnings = new Result.WarningCollector()
    const records: CallRecord[] = []
    let recordsCut = 0
    const running = new Map<number, Fiber.Fiber<HostOutcome>>()
    const queued: Array<{ ticket: number; call: HostCall; record: CallRecord; bytes: number }> = []
    let queuedBytes = 0
    const handles = new Handles()
    let admitted = 0
    let run = 0
    let ended = false
    let pumping = false
    let aborted = false

    const counts = (call: HostCall) => call.kind !== "extension" || language.extensionsCountTowardLimit
    const reply = (ticket: number, outcome: HostOutcome) => {
      if (!ended && !aborted) sandbox.answer(run, ticket, outcome)
    }
    // The end of the program, decided by the host: one frame that every later wait in the sandbox receives, and no
    // more work for this run (calls the program still makes are not even read into records).
    const abort = (ticket: number, kind: "ToolCallLimitExceeded" | "TimeoutExceeded", message: string) => {
      if (aborted) return
      aborted = true
      sandbox.abort(run, ticket, { kind, message, fatal: true })
      for (const q of queued.splice(0)) q.record.status = "interrupted"
      queuedBytes = 0
      for (const fiber of running.values()) fiber.interruptUnsafe()
    }
    const room = () => running.size < MAX_RUNNING_CALLS && sandbox.unreadBytes() < MAX_UNREAD_BYTES

    const startCall = (ticket: number, call: HostCall, record: CallRecord) => {
      record.started = performance.now()
      const fiber = fork(callEffect(plan, call, record, handles))
      running.set(ticket, fiber)
      fiber.addObserver((exit) => {
        running.delete(ticket)
        record.durationMs = Math.round((performance.now() - record.started) * 1000) / 1000
        if (Exit.isSuccess(exit)) reply(ticket, exit.value)
        else if (Cause.hasInterruptsOnly(exit.cause)) {
          record.status = "interrupted"
          reply(ticket, failure("ExecutionFailure", "the call was interrupted", true))
        } else {
          record.status = "failure"
          const message = messageOf(exit.cause)
          record.error = recordError(message)
          reply(ticket, failure("ExecutionFailure", `host defect: ${message}`))
        }
        schedulePump()
      })
    }

    // Queued calls start on a later turn of the event loop, a few at a time, so that a program flooding the host
    // with calls that answer at once cannot hold the host's event loop.
    // While the sandbox leaves answers unread, queued calls wait for the channel to drain.
    const pump = () => {
      pumping = false
      if (ended || aborted) return
      while (queued.length > 0 && room()) {
        const next = queued.shift()!
        queuedBytes -= next.bytes
        startCall(next.ticket, next.call, next.record)
      }
      if (queued.length > 0 && running.size < MAX_RUNNING_CALLS) sandbox.onDrain(schedulePump)
    }
    const schedulePump = () => {
      if (pumping || queued.length === 0 || ended) return
      pumping = true
      setImmediate(pump)
    }

    const handleCall = (ticket: number, called: HostCall, bytes: number) => {
      if (aborted) return
      // `tools.search(...)` is the built-in search when no tool owns the root path `search` (see CodeMode's shape).
      const call: HostCall =
        called.kind === "tool" && called.path === "search" && !plan.entries.has("search")
          ? { kind: "search", input: called.input }
          : called
      if (counts(call)) {
        if (admitted >= limits.maxToolCalls)
          return abort(
            ticket,
            "ToolCallLimitExceeded",
            `the program exceeded maxToolCalls: at most ${limits.maxToolCalls} ${language.extensionsCountTowardLimit ? "host calls" : "tool calls"} are allowed`,
          )
        admitted++
      }
      const record: CallRecord = {
        name: call.kind === "tool" ? call.path : call.kind === "search" ? "search" : `${call.extension}:${call.name}`,
        kind: call.kind,
        status: "running",
        started: performance.now(),
        durationMs: 0,
      }
      if (records.length < MAX_CALL_RECORDS) records.push(record)
      else recordsCut++
      if (queued.length === 0 && room()) startCall(ticket, call, record)
      else if (queued.length >= MAX_QUEUED_CALLS)
        abort(
          ticket,
          "ToolCallLimitExceeded",
          `the program started more than ${MAX_QUEUED_CALLS} calls that have not finished; await results before starting more`,
        )
      else if (queuedBytes + bytes > MAX_QUEUED_BYTES)
        abort(
          ticket,
          "ToolCallLimitExceeded",
          `the program started calls whose inputs add up to more than ${MAX_QUEUED_BYTES / (1024 * 1024)} MiB while they wait for earlier calls to finish; await results before starting more`,
        )
      else {
        queued.push({ ticket, call, record, bytes })
        queuedBytes += bytes
        schedulePump()
      }
    }

    const cancel = (ticket: number) => {
      const fiber = running.get(ticket)
      if (fiber) return fiber.interruptUnsafe()
      const index = queued.findIndex((q) => q.ticket === ticket)
      if (index >= 0) {
        const [dropped] = queued.splice(index, 1)
        queuedBytes -= dropped.bytes
        dropped.record.status = "interrupted"
      }
    }

    const onEvent = (finish: (end: End) => void) => (event: SandboxEvent) => {
      if (event.type === "crash") return finish(event)
      const message = event.message
      switch (message.t) {
        case "call":
          return handleCall(message.ticket, message.call, event.bytes)
        case "cancel":
          return cancel(message.ticket)
        case "barrier":
          // One more turn of the event loop lets calls that end at once (a tool failing synchronously) answer first.
          return void setImmediate(() => {
            if (!ended) sandbox.barrier(run, message.id)
          })
        case "log":
          return logs.add(message.line)
        case "warn":
          return warnings.add(message.diagnostic)
        case "done":
          return finish({
            type: "done",
            outcome: message.outcome,
            ...(message.retire !== undefined ? { retire: message.retire } : {}),
          })
      }
    }

    const request = { code, scope: plan.scope, tools: plan.tools, extensions: plan.extensionShapes, limits }
    // The end of the run, or `None` when it has not ended by the deadline and the grace after it: one timer of its
    // own, cleared when the run ends or the wait is interrupted. At the deadline the program is aborted (a call it
    // waits for fails with `TimeoutExceeded`, as its meter's next check does), and the host waits the grace for it
    // to end by itself.
    let timedOut = false
    const waitForEnd = Effect.callback<Option.Option<End>>((resume) => {
      let timer: ReturnType<typeof setTimeout> | undefined
      let settled = false
      const settle = (end: Option.Option<End>) => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        resume(Effect.succeed(end))
      }
      if (deadline !== Infinity)
        timer = setTimeout(
          () => {
            timedOut = true
            abort(0, "TimeoutExceeded", timeoutDiagnostic(limits, false).message)
            timer = setTimeout(() => settle(Option.none()), TIMEOUT_GRACE_MS)
          },
          Math.max(0, deadline - Date.now()),
        )
      run = sandbox.start(
        language.workerModule,
        request,
        deadline,
        onEvent((end) => settle(Option.some(end))),
      )
      return Effect.sync(() => {
        settled = true
        clearTimeout(timer)
      })
    })
    const stopCalls = Effect.suspend(() => {
      ended = true
      for (const q of queued.splice(0)) q.record.status = "interrupted"
      queuedBytes = 0
      return Fiber.interruptAll([...running.values()])
    })
    // Past the deadline, or when the program is gone, calls are told to stop and not waited for: a tool or hook
    // that does not stop (an uninterruptible step, an after hook that never settles) cannot hold the execution.
    const abandonCalls = () => {
      ended = true
      for (const q of queued.splice(0)) q.record.status = "interrupted"
      queuedBytes = 0
      for (const fiber of running.values()) fiber.interruptUnsafe()
    }
    const finished = yield* waitForEnd.pipe(Effect.onInterrupt(() => Effect.sync(abandonCalls)))
    if (Option.isNone(finished) || finished.value.type === "crash") abandonCalls()

    const toolCalls = (): ReadonlyArray<Result.ToolCall> =>
      records.map((r) => ({
        name: r.name,
        kind: r.kind,
        status: r.status,
        durationMs: r.durationMs,
        ...(r.error !== undefined ? { error: r.error } : {}),
      }))
    if (recordsCut > 0)
      warnings.add(
        Diagnostic.make(
          "Truncated",
          `toolCalls lists the first ${MAX_CALL_RECORDS} calls; ${recordsCut} more were made and are not listed`,
        ),
      )

    const failed = (error: Diagnostic.Diagnostic, reusable: boolean) => {
      const bounded = Result.bound(null, logs, [], limits.maxOutputBytes)
      const result: Result.Result = {
        ok: false,
        error: Result.boundDiagnostic(error),
        ...(bounded.logs.length ? { logs: bounded.logs } : {}),
        ...(bounded.truncated ? { truncated: true } : {}),
        toolCalls: toolCalls(),
      }
      return { result, reusable }
    }

    if (Option.isNone(finished)) return failed(timeoutDiagnostic(limits, false), false)
    const end = finished.value
    if (end.type === "crash")
      return failed(
        Diagnostic.make(
          "ExecutionFailure",
          end.outOfMemory
            ? "the sandbox ran out of memory and was stopped (the program allocated more than the sandbox's heap limit allows)"
            : `the sandbox stopped unexpectedly: ${end.reason}`,
        ),
        false,
      )
    const reusable = end.retire === undefined
    const outcome = end.outcome
    const metered = !outcome.ok && outcome.error.kind === "TimeoutExceeded"
    if (timedOut || metered) {
      // Ended past the deadline, by its meter or within the grace: one timeout diagnostic, at the place where the
      // meter stopped the program when it did.
      abandonCalls()
      const own = metered ? outcome.error.location : undefined
      return failed({ ...timeoutDiagnostic(limits, false), ...(own !== undefined ? { location: own } : {}) }, reusable)
    }
    // Work the program left running (JavaScript's un-awaited calls) is interrupted now, waiting at most until the
    // deadline and never more than INTERRUPT_GRACE_MS; past that the result stands, the calls are abandoned and a
    // warning says the background work was cut off.
    const background = [...running.values()]
    const grace = Math.max(0, Math.min(deadline - Date.now(), INTERRUPT_GRACE_MS))
    // With nothing left running (the common case) there is nothing to wait for, and no timer to set.
    let interrupted = true
    if (running.size === 0) yield* stopCalls
    else interrupted = yield* Effect.timeoutOption(stopCalls, Duration.millis(grace)).pipe(Effect.map(Option.isSome))
    if (!interrupted) {
      abandonCalls()
      warnings.add(
        Diagnostic.make(
          "TimeoutExceeded",
          `the program returned, but ${background.length} call${background.length === 1 ? "" : "s"} still running could not be interrupted within ${grace} ms; ${background.length === 1 ? "it was" : "they were"} abandoned`,
        ),
      )
    }
    if (!outcome.ok) return failed(outcome.error, reusable)
    let value: DataValue
    try {
      value = copyData(outcome.value, defaultCopyBounds)
    } catch (error) {
      const reason = error instanceof DataError ? error.message : messageOf(error)
      return failed(Diagnostic.make("InvalidDataValue", `the result is not plain data: ${reason}`), reusable)
    }
    const bounded = Result.bound(value, logs, warnings.list, limits.maxOutputBytes)
    const result: Result.Result = {
      ok: true,
      value: bounded.value,
      ...(bounded.warnings.length ? { warnings: bounded.warnings } : {}),
      ...(bounded.logs.length ? { logs: bounded.logs } : {}),
      ...(bounded.truncated ? { truncated: true } : {}),
      toolCalls: toolCalls(),
    }
    return { result, reusable }
  })
