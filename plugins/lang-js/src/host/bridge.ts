/**
 * The program's way out: `tools`, `search`, extension globals, `require`/`import`, and the host calls still running.
 *
 * Tool calls and async extension calls start at once (`host.start`) and return promises that settle when the event
 * loop receives their outcome; `search` and sync extension calls block (`host.call`). A fatal failure ends the
 * execution with the call site's location; other failures become catchable program errors carrying their kind.
 */
import { caught, fatal, markKind, noteThrow, throwValue } from "../runtime/errors.js"
import { DataConversionError, fromData, toData } from "../runtime/data.js"
import {
  call as callFunction,
  defineValue,
  isCallable,
  isObject,
  makeNative,
  type Value,
} from "../runtime/functions.js"
import {
  newPromise,
  performThen,
  type PromiseRecord,
  promiseResolve,
  rejectPromise,
  resolvePromise,
} from "../runtime/promises.js"
import type { Realm } from "../runtime/realm.js"
import { rt } from "../runtime/state.js"
import { createDataProperty } from "../runtime/properties.js"
import type {
  DataValue,
  Diagnostic,
  GlobalShape,
  HostCall,
  HostFailure,
  HostOutcome,
  Kind,
  Location,
  ResultFunction,
  RunRequest,
  SandboxHost,
  ToolShape,
} from "@codemode/core/sandbox"

interface Pending {
  readonly record: PromiseRecord
  readonly location: Location | undefined
  /** The extension whose call this is (its result may carry functions). */
  readonly extension: string | undefined
}

/** The host side of one execution. */
export class Bridge {
  private readonly inflight = new Map<number, Pending>()
  private readonly extensionGlobals = new Map<string, Value>()

  constructor(
    private readonly realm: Realm,
    private readonly host: SandboxHost,
  ) {}

  /** Number of started host calls that have not ended. */
  get pending(): number {
    return this.inflight.size
  }

  /** Block until one started call ends and settle its promise. */
  waitOne(): void {
    const { ticket, outcome } = this.host.waitAny()
    const p = this.inflight.get(ticket)
    if (p === undefined) return
    this.inflight.delete(ticket)
    if (outcome.ok) {
      resolvePromise(p.record, this.value(outcome, p.extension))
      return
    }
    rejectPromise(p.record, this.failure(outcome.error, p.location))
  }

  /**
   * Settle the started calls that have already ended on the host (the program has finished without awaiting them),
   * so a failure nobody handles becomes an unhandled-rejection warning. A fatal failure cannot end a finished
   * program: it is returned as a warning instead.
   */
  settleFinished(): Diagnostic[] {
    const warnings: Diagnostic[] = []
    if (this.inflight.size === 0) return warnings
    for (const { ticket, outcome } of this.host.settledCalls()) {
      const p = this.inflight.get(ticket)
      if (p === undefined) continue
      this.inflight.delete(ticket)
      if (outcome.ok) resolvePromise(p.record, this.value(outcome, p.extension))
      else if (outcome.error.fatal) {
        const { kind, message } = outcome.error
        warnings.push(p.location ? { kind, message, location: p.location } : { kind, message })
      } else rejectPromise(p.record, this.programError(outcome.error.kind, outcome.error.message, p.location))
    }
    return warnings
  }

  /** Interrupt everything still running (the program has finished). */
  cancelAll(): void {
    for (const ticket of this.inflight.keys()) this.host.cancel(ticket)
    this.inflight.clear()
  }

  /** Install `tools`, `search`, the extension globals and `require`. */
  install(request: RunRequest): void {
    const realm = this.realm
    realm.defineGlobal("tools", this.toolNamespace(request.tools, []))
    realm.defineGlobal(
      "search",
      makeNative("search", 1, (_t, a) => this.search(a.length > 0 ? a[0] : undefined)),
    )
    for (const ext of request.extensions) {
      if (ext.language === "lua") continue
      for (const [name, shape] of Object.entries(ext.globals)) {
        const value = this.extensionValue(ext.name, shape, [name])
        this.extensionGlobals.set(name, value)
        realm.defineGlobal(name, value)
      }
    }
    realm.defineGlobal(
      "require",
      makeNative("require", 1, (_t, a) => this.resolveModule(typeof a[0] === "string" ? a[0] : String(a[0]), rt.loc)),
    )
  }

  private toolNamespace(shape: ToolShape, path: string[]): Value {
    const o = this.realm.newObject()
    for (const [segment, child] of Object.entries(shape)) {
      const p = [...path, segment]
      o[segment] = child === true ? this.toolFunction(p.join(".")) : this.toolNamespace(child, p)
    }
    return o
  }

  private toolFunction(path: string): Value {
    return makeNative(path, 1, (_t, a) => {
      const location = rt.loc
      const record = newPromise()
      let input: DataValue
      try {
        input = toData(a.length > 0 && a[0] !== undefined ? a[0] : null, "input")
      } catch (e) {
        if (!(e instanceof DataConversionError)) {
          rejectPromise(record, caught(e))
          return record.object
        }
        rejectPromise(
          record,
          this.programError("InvalidToolInput", `Invalid input for tools.${path}: ${e.message}`, location),
        )
        return record.object
      }
      this.start({ kind: "tool", path, input }, record, location, undefined)
      return record.object
    })
  }

  private start(
    call: HostCall,
    record: PromiseRecord,
    location: Location | undefined,
    extension: string | undefined,
  ): void {
    const ticket = this.host.start(call)
    this.inflight.set(ticket, { record, location, extension })
  }

  private search(input: Value): Value {
    const location = rt.loc
    let data: DataValue
    try {
      data = toData(input === undefined ? null : input, "input")
    } catch (e) {
      if (!(e instanceof DataConversionError)) throw e
      return throwValue(
        this.programError("InvalidToolInput", `Invalid input for search: ${e.message}`, location),
        location,
      )
    }
    const outcome = this.host.call({ kind: "search", input: data })
    return thenable(this.realm, this.settled(outcome, location, undefined))
  }

  /** The value of a blocking call's outcome, or throw its failure. */
  private settled(outcome: HostOutcome, location: Location | undefined, extension: string | undefined): Value {
    if (outcome.ok) return this.value(outcome, extension)
    return throwValue(this.failure(outcome.error, location), location)
  }

  /** A successful outcome's value, with the functions an extension returned put back where its result had them. */
  private value(
    outcome: { readonly value: DataValue; readonly functions?: ReadonlyArray<ResultFunction> },
    extension: string | undefined,
  ): Value {
    const value = fromData(outcome.value)
    if (outcome.functions === undefined || extension === undefined) return value
    let root = value
    for (const f of outcome.functions) {
      const fn = this.extensionFunction(extension, f.name, f.async, f.handle)
      if (f.path.length === 0) {
        root = fn
        continue
      }
      let holder = root
      for (let i = 0; i < f.path.length - 1 && isObject(holder); i++) holder = holder[f.path[i]]
      const last = f.path[f.path.length - 1]
      if (isObject(holder)) {
        if (typeof last === "number") holder[last] = fn
        else createDataProperty(holder, last, fn)
      }
    }
    return root
  }

  /** A failed call's error for the program; fatal failures end the execution here. */
  private failure(error: HostFailure, location: Location | undefined): Value {
    if (error.fatal) return fatal(error.kind, error.message, location)
    return this.programError(error.kind, error.message, location)
  }

  private programError(kind: Kind, message: string, location: Location | undefined): Value {
    const e = this.realm.makeError("Error", message)
    defineValue(e, "kind", kind)
    markKind(e, kind)
    noteThrow(e, location)
    return e
  }

  private extensionValue(extension: string, shape: GlobalShape, path: string[]): Value {
    if (typeof shape === "string") return this.extensionFunction(extension, path.join("."), shape === "async")
    const o = this.realm.newObject()
    for (const [k, child] of Object.entries(shape)) o[k] = this.extensionValue(extension, child, [...path, k])
    return o
  }

  /**
   * A program function calling an extension function: a global by its dotted `name`, or one that came in a result by
   * `handle`. An asynchronous one starts the call and returns a promise; a synchronous one blocks.
   */
  private extensionFunction(extension: string, name: string, async: boolean, handle?: number): Value {
    const call = (args: DataValue[]): HostCall =>
      handle === undefined
        ? { kind: "extension", extension, name, args }
        : { kind: "extension", extension, name, args, handle }
    const shown = name.slice(name.lastIndexOf(".") + 1)
    if (!async)
      return makeNative(shown, 0, (_t, a) => {
        const location = rt.loc
        const args = this.extensionArgs(name, a, location)
        return this.settled(this.host.call(call(args)), location, extension)
      })
    return makeNative(shown, 0, (_t, a) => {
      const location = rt.loc
      const record = newPromise()
      let args: DataValue[]
      try {
        args = this.extensionArgs(name, a, location)
      } catch (e) {
        rejectPromise(record, caught(e))
        return record.object
      }
      this.start(call(args), record, location, extension)
      return record.object
    })
  }

  private extensionArgs(name: string, args: Value[], location: Location | undefined): DataValue[] {
    const out: DataValue[] = []
    for (let i = 0; i < args.length; i++) {
      try {
        out.push(toData(args[i], `arguments[${i}]`))
      } catch (e) {
        if (!(e instanceof DataConversionError)) throw e
        throwValue(
          this.programError("InvalidDataValue", `Invalid argument for ${name}: ${e.message}`, location),
          location,
        )
      }
    }
    return out
  }

  /** Resolve `import`/`require` specifiers to extension globals (and `url`/`util`, which the realm provides). */
  resolveModule = (specifier: string, location: Location | undefined): Value => {
    const name = specifier.startsWith("node:") ? specifier.slice(5) : specifier
    const realm = this.realm
    const global = (n: string) => realm.cells.get(n)?.value
    if (this.extensionGlobals.has(name)) return this.extensionGlobals.get(name)
    if (name === "fs/promises" && this.extensionGlobals.has("fs")) {
      const fs = this.extensionGlobals.get("fs")
      if (isObject(fs) && fs.promises !== undefined) return fs.promises
    }
    if (name === "url") return moduleObject(realm, { URL: global("URL"), URLSearchParams: global("URLSearchParams") })
    if (name === "util")
      return moduleObject(realm, { TextEncoder: global("TextEncoder"), TextDecoder: global("TextDecoder") })
    if (name === "buffer" && this.extensionGlobals.has("Buffer")) {
      return moduleObject(realm, { Buffer: this.extensionGlobals.get("Buffer") })
    }
    const available = [...this.extensionGlobals.keys(), "url", "util"].join(", ")
    const e = realm.makeError(
      "Error",
      `Cannot find module '${specifier}': programs can import only the host's extension globals by their module name (available: ${available})`,
    )
    return throwValue(e, location)
  }
}

const moduleObject = (realm: Realm, members: Record<string, Value>): Value => {
  const o = realm.newObject()
  for (const [k, v] of Object.entries(members)) if (v !== undefined) o[k] = v
  return o
}

/**
 * `search` returns its result directly, and the result can also be awaited or chained: it carries non-enumerable
 * `then`/`catch`/`finally` methods that continue with a plain copy of the result (so awaiting it does not loop).
 */
const thenable = (realm: Realm, value: Value): Value => {
  if (!isObject(value)) return value
  const plainCopy = (): Value => {
    const copy = Array.isArray(value) ? new realm.SA() : realm.newObject()
    for (const k of Object.keys(value)) copy[k] = value[k]
    return copy
  }
  const chain = (onFulfilled: Value, onRejected: Value): Value => {
    const derived = newPromise()
    performThen(promiseResolve(plainCopy()), onFulfilled, onRejected, derived, false)
    return derived.object
  }
  defineValue(
    value,
    "then",
    makeNative("then", 2, (_t, a) => chain(callableOrUndefined(a[0]), callableOrUndefined(a[1]))),
  )
  defineValue(
    value,
    "catch",
    makeNative("catch", 1, () => chain(undefined, undefined)),
  )
  defineValue(
    value,
    "finally",
    makeNative("finally", 1, (_t, a) => {
      const f = callableOrUndefined(a[0])
      const derived = newPromise()
      performThen(
        promiseResolve(plainCopy()),
        makeNative("", 1, (_u, b) => {
          if (f) realmCall(f)
          return b[0]
        }),
        undefined,
        derived,
        false,
      )
      return derived.object
    }),
  )
  return value
}

const callableOrUndefined = (f: Value): Value => (isCallable(f) ? f : undefined)
const realmCall = (f: Value): Value => callFunction(f, undefined, [])
