/**
 * One host call of a program, run to completion as an Effect in the execution's environment: the extension global
 * or tool it names, its hooks, the decoding of its input and output, and the copy of its result as data. It never
 * fails: every problem becomes a failed `HostOutcome`, and the call's record says how it ended.
 */
import { Cause, Effect, Exit, Option, Schema } from "effect"
import { copyData, type DataValue, defaultCopyBounds } from "./Data.js"
import type * as Diagnostic from "./Diagnostic.js"
import * as Extension from "./Extension.js"
import { type Hooks, type Outcome, toEffect } from "./Hooks.js"
import * as Result from "./Result.js"
import type { HostCall, HostOutcome, ResultFunction } from "./sandbox/protocol.js"
import * as Search from "./Search.js"
import * as Tool from "./Tool.js"
import type { Entry } from "./ToolTree.js"
import { isEffectSchema } from "./TypeModel.js"

/** What a host call needs of its runtime. */
export interface CallContext {
  readonly entries: ReadonlyMap<string, Entry>
  readonly index: () => Search.Index
  readonly extensions: ReadonlyMap<string, Extension.Extension>
  readonly hooks: Hooks<any>
  /** Signatures for search pages (summaries) and exact-path lookups (full). */
  readonly render: Search.Renderer
}

/** Causes followed by {@link messageOf}: a chain of errors (or a cycle, `e.cause = e`) ends there. */
const MAX_CAUSES = 8

/**
 * The message of anything a tool, hook or extension failed with, with its underlying causes (at most
 * {@link MAX_CAUSES}, each error once). Never throws, whatever getters or proxies the failure holds.
 */
export const messageOf = (error: unknown): string => {
  const seen = new Set<unknown>()
  const parts: string[] = []
  let current: unknown = error
  while (parts.length <= MAX_CAUSES) {
    if (seen.has(current)) break
    seen.add(current)
    let next: unknown
    try {
      if (Cause.isCause(current)) {
        current = Cause.squash(current)
        seen.delete(current)
        continue
      }
      const [own, cause] = describeOne(current)
      parts.push(own)
      next = cause
    } catch (thrown) {
      parts.push(`(a failure whose message could not be read: ${thrown instanceof Error ? thrown.message : "?"})`)
      break
    }
    if (next === undefined || next === null) break
    current = next
  }
  return parts.length === 1
    ? parts[0]
    : parts.map((p, i) => (i === 0 ? p : ` (cause: ${p}`)).join("") + ")".repeat(parts.length - 1)
}

/** One failure's own message, and its cause when it is an error that has one. */
const describeOne = (error: unknown): [string, unknown] => {
  if (error instanceof Error) {
    const own = error.message || error.name
    return Schema.isSchemaError(error) ? [own, undefined] : [own, (error as { cause?: unknown }).cause]
  }
  if (typeof error === "object" && error !== null) {
    const record = error as Record<string, unknown>
    if (typeof record.message === "string" && record.message) return [record.message, undefined]
    if (typeof record._tag === "string") {
      const { _tag, ...fields } = record
      return [Object.keys(fields).length ? `${_tag} ${safeJson(fields)}` : _tag, undefined]
    }
    return [safeJson(error), undefined]
  }
  return [String(error), undefined]
}

const safeJson = (value: unknown): string => {
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return String(value)
  }
}

/** A function an extension returned inside a result, callable by its handle for the rest of the execution. */
interface ResultHandle {
  readonly fn: Extension.HostFunction
  /** The object or array that held it, its `this` when called. */
  readonly holder: object | undefined
  readonly name: string
  readonly extension: string
}

/**
 * The most functions from extension results one execution holds (each keeps its holder alive on the host). A result
 * that would go past this fails the call instead, so a program calling `db.open()` in a loop cannot make the host
 * hold results without bound.
 */
export const MAX_RESULT_FUNCTIONS = 10_000

/** The functions of one execution's extension results, by handle. */
export class Handles {
  private readonly byId = new Map<number, ResultHandle>()

  /** How many functions the execution holds. */
  get size(): number {
    return this.byId.size
  }

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

/** The record of one admitted call, filled in as it runs. */
export interface CallRecord {
  name: string
  kind: Result.ToolCall["kind"]
  status: Result.ToolCall["status"]
  started: number
  durationMs: number
  error?: string
}

/** A failed outcome; its message is cut to {@link Result.MAX_MESSAGE}. */
export const failure = (kind: Diagnostic.Kind, message: string, fatal = false): HostOutcome => ({
  ok: false,
  error: { kind, message: Result.cutMessage(message), fatal },
})

/** A call record's failure message, cut to {@link Result.MAX_CALL_ERROR}. */
export const recordError = (message: string): string => Result.cutMessage(message, Result.MAX_CALL_ERROR)

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
export const callEffect = (
  plan: CallContext,
  call: HostCall,
  record: CallRecord,
  handles: Handles,
): Effect.Effect<HostOutcome, never, any> => {
  const deny = (kind: Diagnostic.Kind, message: string, status: CallRecord["status"] = "failure"): HostOutcome => {
    record.status = status
    record.error = recordError(message)
    return failure(kind, message)
  }
  const warnAfter = (which: string) => (message: string) => {
    record.error = recordError(`${which} after hook failed: ${message}`)
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
    const beforeHook = plan.hooks["extension.before"]
    const afterHookFn = plan.hooks["extension.after"]
    return Effect.gen(function* () {
      const before = yield* runHook(beforeHook && (() => beforeHook(info)))
      if (Exit.isFailure(before))
        return deny("ExecutionFailure", `${name} was denied: ${messageOf(before.cause)}`, "denied")
      const after = (outcome: Outcome) =>
        afterHook(afterHookFn && (() => afterHookFn(info, outcome)), warnAfter("extension"))
      const exit = yield* Effect.exit(
        toEffect(() => target.fn.apply(target.holder, [...call.args])).pipe(
          Effect.onInterrupt(() => after({ status: "interrupted" })),
        ),
      )
      if (Exit.isFailure(exit)) {
        yield* after({ status: "failure", error: Cause.squash(exit.cause) })
        return deny("ExecutionFailure", `${name} failed: ${messageOf(exit.cause)}`)
      }
      // Functions inside the result become callable for the program (`Extension.make` only: `Extension.lua`
      // globals return plain data).
      const found: Array<[Extension.HostFunction, object | undefined, ReadonlyArray<string | number>]> = []
      const collect =
        extension.language === "any"
          ? (fn: Extension.HostFunction, holder: object | undefined, path: ReadonlyArray<string | number>) =>
              void found.push([fn, holder, path])
          : undefined
      let value: DataValue
      try {
        value = exit.value === undefined ? null : copyData(exit.value, defaultCopyBounds, "$", collect)
      } catch (error) {
        yield* after({ status: "failure", error })
        return deny("InvalidDataValue", `${name} returned something that is not plain data: ${messageOf(error)}`)
      }
      if (handles.size + found.length > MAX_RESULT_FUNCTIONS) {
        const message = `${name} returned ${found.length} function${found.length === 1 ? "" : "s"}, but an execution can hold at most ${MAX_RESULT_FUNCTIONS} functions from extension results and this one already holds ${handles.size}`
        yield* after({ status: "failure", error: new Error(message) })
        return deny("ExecutionFailure", message)
      }
      const functions = found.map(([fn, holder, path]) => handles.add(call.extension, name, fn, holder, path))
      yield* after({ status: "success", value })
      record.status = "success"
      return (functions.length > 0 ? { ok: true, value, functions } : { ok: true, value }) as HostOutcome
    })
  }

  const beforeTool = plan.hooks["tool.before"]
  const afterTool = plan.hooks["tool.after"]
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
    !beforeTool && !afterTool
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
          const before = yield* runHook(beforeTool && (() => beforeTool(info)))
          if (Exit.isFailure(before))
            return deny("ToolFailure", `${name} was denied: ${messageOf(before.cause)}`, "denied")
          const after = (outcome: Outcome) =>
            afterHook(afterTool && (() => afterTool(info, outcome)), warnAfter("tool"))
          const exit = yield* Effect.exit(body.pipe(Effect.onInterrupt(() => after({ status: "interrupted" }))))
          if (Exit.isFailure(exit)) {
            const error = Cause.findErrorOption(exit.cause)
            yield* after({ status: "failure", error: Option.isSome(error) ? error.value : Cause.squash(exit.cause) })
            return settle(exit.cause, name)
          }
          yield* after({ status: "success", value: exit.value })
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
      Effect.mapError((error): { kind: Diagnostic.Kind; message: string } =>
        Tool.isInvalidInput(error)
          ? { kind: "InvalidToolInput", message: `invalid input for ${path}: ${error.message}` }
          : { kind: "ToolFailure", message: `${path} failed: ${messageOf(error)}` },
      ),
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
