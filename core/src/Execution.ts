/**
 * Running one program: the host side of an execution.
 *
 * The program runs in a sandbox worker; every call it makes arrives here as a message and runs as an Effect in the
 * execution's environment (schema decoding, hooks, limits), and its answer wakes the worker. Timeout or
 * interruption terminates the worker and interrupts the calls in flight.
 */
import { Cause, Duration, Effect, Exit, Fiber, Option, Schema } from "effect"
import { copyData, DataError, type DataValue, defaultCopyBounds } from "./Data.js"
import * as Diagnostic from "./Diagnostic.js"
import * as Extension from "./Extension.js"
import { type Hooks, type Outcome, toEffect } from "./Hooks.js"
import type { Definition } from "./Language.js"
import type { Limits } from "./Limits.js"
import * as Result from "./Result.js"
import type {
  ExtensionShape,
  HostCall,
  HostFailure,
  HostOutcome,
  ResultFunction,
  ToolShape,
} from "./sandbox/protocol.js"
import type { SandboxPool, SandboxWorker, WorkerEvent } from "./sandbox/Pool.js"
import * as Search from "./Search.js"
import type { Entry } from "./ToolTree.js"
import { isEffectSchema } from "./TypeModel.js"

/** Everything an execution needs, prepared once per runtime. */
export interface Plan {
  readonly language: Definition
  readonly entries: ReadonlyMap<string, Entry>
  /** The search index, built on first use. */
  readonly index: () => Search.Index
  readonly tools: ToolShape
  readonly extensions: ReadonlyMap<string, Extension.Extension>
  readonly extensionShapes: ReadonlyArray<ExtensionShape>
  readonly hooks: Hooks<any>
  readonly limits: Limits
  readonly pool: () => SandboxPool
  readonly render: (entry: Entry) => string
}

/** The message of anything a tool, hook or extension failed with, with its underlying cause. */
export const messageOf = (error: unknown): string => {
  if (Cause.isCause(error)) return messageOf(Cause.squash(error))
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause
    const own = error.message || error.name
    return cause !== undefined && cause !== null && !Schema.isSchemaError(error)
      ? `${own} (cause: ${messageOf(cause)})`
      : own
  }
  if (typeof error === "object" && error !== null) {
    const record = error as Record<string, unknown>
    if (typeof record.message === "string" && record.message) return record.message
    if (typeof record._tag === "string") {
      const { _tag, ...fields } = record
      return Object.keys(fields).length ? `${_tag} ${safeJson(fields)}` : _tag
    }
    return safeJson(error)
  }
  return String(error)
}

const safeJson = (value: unknown): string => {
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return String(value)
  }
}

const failure = (kind: Diagnostic.Kind, message: string, fatal = false): HostOutcome => ({
  ok: false,
  error: { kind, message, fatal },
})

/** A function an extension returned inside a result, callable by its handle for the rest of the execution. */
interface ResultHandle {
  readonly fn: Extension.HostFunction
  /** The object or array that held it, its `this` when called. */
  readonly holder: object | undefined
  readonly name: string
  readonly extension: string
}

/** The functions of one execution's extension results, by handle. */
class Handles {
  private readonly byId = new Map<number, ResultHandle>()

  /** The function behind `id`, if one of `extension`'s calls returned it. */
  get(id: number, extension: string): ResultHandle | undefined {
    const found = this.byId.get(id)
    return found?.extension === extension ? found : undefined
  }

  /** Register a function found in the result of `extension`'s call `callName`; returns how the program sees it. */
  add(
    extension: string,
    callName: string,
    fn: Extension.HostFunction,
    holder: object | undefined,
    path: ReadonlyArray<string | number>,
  ): ResultFunction {
    const handle = this.byId.size + 1
    const name = `${callName}()${path.map((p) => (typeof p === "number" ? `[${p}]` : `.${p}`)).join("")}`
    this.byId.set(handle, { fn, holder, name, extension })
    return { path, handle, name, async: Extension.isAsync(fn) }
  }
}

interface CallRecord {
  name: string
  kind: Result.ToolCall["kind"]
  status: Result.ToolCall["status"]
  started: number
  durationMs: number
  error?: string
}

type End =
  | { readonly type: "done"; readonly outcome: import("./sandbox/protocol.js").RunOutcome }
  | { readonly type: "crash"; readonly reason: string; readonly outOfMemory: boolean }

/** Run `code` under `plan`. Never fails: every problem is a diagnostic in the `Result`. */
export const execute = (plan: Plan, code: string): Effect.Effect<Result.Result, never, any> =>
  Effect.suspend(() => {
    if (typeof code !== "string" || code.trim() === "")
      return Effect.succeed<Result.Result>({
        ok: false,
        error: Diagnostic.make("ParseError", "the source is empty; write a program that returns a value"),
        toolCalls: [],
      })
    const pool = plan.pool()
    let clean = false
    return Effect.acquireUseRelease(
      Effect.promise(() => pool.acquire()),
      (worker) =>
        runOn(plan, code, worker).pipe(
          Effect.tap((r) =>
            Effect.sync(() => {
              clean = r.clean
            }),
          ),
          Effect.map((r) => r.result),
        ),
      (worker) => Effect.sync(() => (clean ? pool.release(worker) : pool.discard(worker))),
    )
  })

const runOn = (plan: Plan, code: string, worker: SandboxWorker) =>
  Effect.gen(function* () {
    const services = yield* Effect.context<any>()
    const fork = Effect.runForkWith(services)
    const { limits, language } = plan
    const logs = new Result.LogCollector(
      limits.maxOutputBytes === Infinity ? Number.MAX_SAFE_INTEGER : limits.maxOutputBytes,
    )
    const warnings: Diagnostic.Diagnostic[] = []
    const records: CallRecord[] = []
    const inFlight = new Map<number, Fiber.Fiber<HostOutcome>>()
    const handles = new Handles()
    let admitted = 0
    const deadline = limits.timeoutMs === Infinity ? Infinity : Date.now() + limits.timeoutMs

    const counts = (call: HostCall) => call.kind !== "extension" || language.extensionsCountTowardLimit

    const handleCall = (ticket: number, call: HostCall) => {
      if (counts(call)) {
        if (admitted >= limits.maxToolCalls) {
          worker.reply(
            ticket,
            failure(
              "ToolCallLimitExceeded",
              `the program exceeded maxToolCalls: at most ${limits.maxToolCalls} ${language.extensionsCountTowardLimit ? "host calls" : "tool calls"} are allowed`,
              true,
            ),
          )
          return
        }
        admitted++
      }
      const record: CallRecord = {
        name: call.kind === "tool" ? call.path : call.kind === "search" ? "search" : `${call.extension}:${call.name}`,
        kind: call.kind,
        status: "running",
        started: performance.now(),
        durationMs: 0,
      }
      records.push(record)
      const fiber = fork(callEffect(plan, call, record, handles))
      inFlight.set(ticket, fiber)
      fiber.addObserver((exit) => {
        inFlight.delete(ticket)
        record.durationMs = Math.round((performance.now() - record.started) * 1000) / 1000
        if (Exit.isSuccess(exit)) {
          worker.reply(ticket, exit.value)
        } else if (Cause.hasInterruptsOnly(exit.cause)) {
          record.status = "interrupted"
          worker.reply(ticket, failure("ExecutionFailure", "the call was interrupted", true))
        } else {
          record.status = "failure"
          record.error = messageOf(exit.cause)
          worker.reply(ticket, failure("ExecutionFailure", `host defect: ${record.error}`))
        }
      })
    }

    const onEvent = (resume: (effect: Effect.Effect<End>) => void) => (event: WorkerEvent) => {
      if (event.type === "crash") return resume(Effect.succeed(event))
      const message = event.message
      switch (message.t) {
        case "call":
          return handleCall(message.ticket, message.call)
        case "cancel":
          return inFlight.get(message.ticket)?.interruptUnsafe()
        case "log":
          return logs.add(message.line)
        case "warn":
          warnings.push(message.diagnostic)
          return
        case "done":
          return resume(Effect.succeed({ type: "done", outcome: message.outcome }))
      }
    }

    const request = { code, tools: plan.tools, extensions: plan.extensionShapes, limits }
    const waitForEnd = Effect.callback<End>((resume) => {
      worker.run(language.workerModule, request, deadline, onEvent(resume))
    })
    const ended = yield* (
      limits.timeoutMs === Infinity
        ? Effect.map(waitForEnd, Option.some)
        : Effect.timeoutOption(waitForEnd, Duration.millis(limits.timeoutMs))
    ).pipe(Effect.onInterrupt(() => Effect.suspend(() => Fiber.interruptAll([...inFlight.values()]))))
    if (Option.isNone(ended) || ended.value.type === "crash") yield* Fiber.interruptAll([...inFlight.values()])

    const toolCalls = (): ReadonlyArray<Result.ToolCall> =>
      records.map((r) => ({
        name: r.name,
        kind: r.kind,
        status: r.status,
        durationMs: r.durationMs,
        ...(r.error !== undefined ? { error: r.error } : {}),
      }))

    const failed = (error: Diagnostic.Diagnostic, clean: boolean) => {
      const bounded = Result.bound(null, logs, [], limits.maxOutputBytes)
      const result: Result.Result = {
        ok: false,
        error,
        ...(bounded.logs.length ? { logs: bounded.logs } : {}),
        ...(bounded.truncated ? { truncated: true } : {}),
        toolCalls: toolCalls(),
      }
      return { result, clean }
    }

    if (Option.isNone(ended))
      return failed(
        Diagnostic.make(
          "TimeoutExceeded",
          `the program did not finish within timeoutMs (${limits.timeoutMs} ms) and was stopped`,
        ),
        false,
      )
    const end = ended.value
    if (end.type === "crash")
      return failed(
        Diagnostic.make(
          "ExecutionFailure",
          end.outOfMemory
            ? "the program ran out of memory and was stopped (the sandbox worker's heap limit was reached)"
            : `the sandbox worker stopped unexpectedly: ${end.reason}`,
        ),
        false,
      )
    const outcome = end.outcome
    // Work the program left running (JavaScript's un-awaited calls) is interrupted now; if that outlasts the
    // timeout, the result stands and a warning says the background work was cut off.
    const background = [...inFlight.values()]
    if (background.length > 0) {
      const remaining = deadline === Infinity ? undefined : Math.max(0, deadline - Date.now())
      const interrupted = Fiber.interruptAll(background)
      const finished =
        remaining === undefined
          ? yield* Effect.as(interrupted, true)
          : yield* Effect.timeoutOption(interrupted, Duration.millis(remaining)).pipe(Effect.map(Option.isSome))
      if (!finished)
        warnings.push(
          Diagnostic.make(
            "TimeoutExceeded",
            `the program returned, but ${background.length} call${background.length === 1 ? "" : "s"} still running could not be interrupted within timeoutMs (${limits.timeoutMs} ms)`,
          ),
        )
    }
    if (!outcome.ok) return failed(outcome.error, true)
    let value: DataValue
    try {
      value = copyData(outcome.value, defaultCopyBounds)
    } catch (error) {
      const reason = error instanceof DataError ? error.message : messageOf(error)
      return failed(Diagnostic.make("InvalidDataValue", `the result is not plain data: ${reason}`), true)
    }
    const bounded = Result.bound(value, logs, warnings, limits.maxOutputBytes)
    const result: Result.Result = {
      ok: true,
      value: bounded.value,
      ...(bounded.warnings.length ? { warnings: bounded.warnings } : {}),
      ...(bounded.logs.length ? { logs: bounded.logs } : {}),
      ...(bounded.truncated ? { truncated: true } : {}),
      toolCalls: toolCalls(),
    }
    return { result, clean: true }
  })

const runHook = (hook: (() => unknown) | undefined) =>
  hook ? Effect.exit(toEffect(hook)) : Effect.succeed(Exit.void as Exit.Exit<unknown, unknown>)

const afterHook = (run: (() => unknown) | undefined, onFail: (message: string) => void) =>
  run
    ? Effect.exit(toEffect(run)).pipe(
        Effect.tap((exit) =>
          Effect.sync(() => {
            if (Exit.isFailure(exit) && !Cause.hasInterruptsOnly(exit.cause)) onFail(messageOf(exit.cause))
          }),
        ),
        Effect.asVoid,
      )
    : Effect.void

/**
 * Run one host call to completion: never fails; every problem becomes a `HostOutcome` failure and the record's
 * status says how it ended.
 */
const callEffect = (
  plan: Plan,
  call: HostCall,
  record: CallRecord,
  handles: Handles,
): Effect.Effect<HostOutcome, never, any> => {
  const deny = (kind: Diagnostic.Kind, message: string, status: CallRecord["status"] = "failure"): HostOutcome => {
    record.status = status
    record.error = message
    return failure(kind, message)
  }
  const warnAfter = (which: string) => (message: string) => {
    record.error = `${which} after hook failed: ${message}`
  }

  if (call.kind === "extension") {
    const extension = plan.extensions.get(call.extension)
    // A function that came in a result is found by its handle; a global by its dotted name.
    const global = call.handle === undefined && extension ? Extension.lookup(extension, call.name) : undefined
    const target =
      call.handle !== undefined
        ? handles.get(call.handle, call.extension)
        : global && { fn: global, holder: undefined, name: call.name, extension: call.extension }
    if (!extension || !target)
      return Effect.succeed(deny("UnknownTool", `no extension global "${call.name}" is available`))
    const name = target.name
    const info = { extension: call.extension, name, args: call.args }
    const hooks = plan.hooks.extension
    return Effect.gen(function* () {
      const before = yield* runHook(hooks?.before && (() => hooks.before!(info)))
      if (Exit.isFailure(before))
        return deny("ExecutionFailure", `${name} was denied: ${messageOf(before.cause)}`, "denied")
      const after = (outcome: Outcome) =>
        afterHook(hooks?.after && (() => hooks.after!(info, outcome)), warnAfter("extension"))
      const exit = yield* Effect.exit(
        toEffect(() => target.fn.apply(target.holder, [...call.args])).pipe(
          Effect.onInterrupt(() => after({ _tag: "interrupted" })),
        ),
      )
      if (Exit.isFailure(exit)) {
        yield* after({ _tag: "failure", error: Cause.squash(exit.cause) })
        return deny("ExecutionFailure", `${name} failed: ${messageOf(exit.cause)}`)
      }
      // Functions inside the result become callable for the program (`Extension.make` only: `Extension.lua`
      // globals return plain data).
      const functions: Array<ResultFunction> = []
      const found =
        extension.language === "any"
          ? (fn: Extension.HostFunction, holder: object | undefined, path: ReadonlyArray<string | number>) =>
              void functions.push(handles.add(call.extension, name, fn, holder, path))
          : undefined
      let value: DataValue
      try {
        value = exit.value === undefined ? null : copyData(exit.value, defaultCopyBounds, "$", found)
      } catch (error) {
        yield* after({ _tag: "failure", error })
        return deny("InvalidDataValue", `${name} returned something that is not plain data: ${messageOf(error)}`)
      }
      yield* after({ _tag: "success", value })
      record.status = "success"
      return (functions.length > 0 ? { ok: true, value, functions } : { ok: true, value }) as HostOutcome
    })
  }

  const hooks = plan.hooks.tool
  const settle = (cause: Cause.Cause<{ kind: Diagnostic.Kind; message: string }>, name: string): HostOutcome => {
    const error = Cause.findErrorOption(cause)
    return Option.isSome(error)
      ? deny(error.value.kind, error.value.message)
      : deny("ToolFailure", `${name} failed: ${messageOf(cause)}`)
  }
  const guarded = (
    name: string,
    input: unknown,
    body: Effect.Effect<DataValue, { kind: Diagnostic.Kind; message: string }, any>,
  ) =>
    !hooks?.before && !hooks?.after
      ? // Without hooks, the call is the body alone: the hot path of every host call.
        Effect.matchCause(body, {
          onSuccess: (value): HostOutcome => {
            record.status = "success"
            return { ok: true, value }
          },
          onFailure: (cause) => settle(cause, name),
        })
      : Effect.gen(function* () {
          const info = { name, input }
          const before = yield* runHook(hooks?.before && (() => hooks.before!(info)))
          if (Exit.isFailure(before))
            return deny("ToolFailure", `${name} was denied: ${messageOf(before.cause)}`, "denied")
          const after = (outcome: Outcome) =>
            afterHook(hooks?.after && (() => hooks.after!(info, outcome)), warnAfter("tool"))
          const exit = yield* Effect.exit(body.pipe(Effect.onInterrupt(() => after({ _tag: "interrupted" }))))
          if (Exit.isFailure(exit)) {
            const error = Cause.findErrorOption(exit.cause)
            yield* after({ _tag: "failure", error: Option.isSome(error) ? error.value : Cause.squash(exit.cause) })
            return settle(exit.cause, name)
          }
          yield* after({ _tag: "success", value: exit.value })
          record.status = "success"
          return { ok: true, value: exit.value } as HostOutcome
        })

  if (call.kind === "search") {
    const request = Search.parseRequest(call.input)
    if (typeof request === "string") return Effect.succeed(deny("InvalidToolInput", request))
    return guarded(
      "search",
      request,
      Effect.sync(() => Search.run(plan.index(), request, plan.render) as unknown as DataValue),
    )
  }

  const entry = plan.entries.get(call.path)
  if (!entry)
    return Effect.succeed(
      deny(
        "UnknownTool",
        `there is no tool "${call.path}"; use search to find the available tools and their exact paths`,
      ),
    )
  const tool = entry.tool
  const path = entry.path
  const copyOutput = (output: unknown) =>
    Effect.try({
      try: () => copyData(output, defaultCopyBounds),
      catch: (error) => ({
        kind: "InvalidToolOutput" as const,
        message: `${path} returned something that is not plain data: ${messageOf(error)}`,
      }),
    })
  const outputSchema = isEffectSchema(tool.output) ? (tool.output as Schema.Top) : undefined
  const run = (input: unknown) => {
    const produced = toEffect(() => tool.execute(input)).pipe(
      Effect.mapError((error) => ({ kind: "ToolFailure" as const, message: `${path} failed: ${messageOf(error)}` })),
    )
    const body: Effect.Effect<DataValue, { kind: Diagnostic.Kind; message: string }, any> =
      tool.output === undefined
        ? Effect.as(produced, null)
        : outputSchema
          ? Effect.flatMap(produced, (value) =>
              Schema.decodeUnknownEffect(outputSchema)(value).pipe(
                Effect.mapError((error) => ({
                  kind: "InvalidToolOutput" as const,
                  message: `${path} returned an invalid output: ${messageOf(error)}`,
                })),
                Effect.flatMap(copyOutput),
              ),
            )
          : Effect.flatMap(produced, copyOutput)
    return guarded(path, input, body)
  }
  if (!isEffectSchema(tool.input)) return run(call.input)
  return Schema.decodeUnknownEffect(tool.input as Schema.Top)(call.input).pipe(
    Effect.matchCauseEffect({
      onSuccess: run,
      onFailure: (cause) => Effect.succeed(deny("InvalidToolInput", `invalid input for ${path}: ${messageOf(cause)}`)),
    }),
  )
}

export type { HostFailure }
