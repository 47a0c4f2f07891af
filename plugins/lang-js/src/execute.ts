/**
 * Running one program: parse, analyse, compile, run the top level and the event loop, then turn the outcome into
 * data and diagnostics.
 */
import { acquireRealm } from "./builtins/index.js"
import { analyze } from "./compiler/analyze.js"
import { type CompiledProgram, compileProgram, type ModuleResolver } from "./compiler/compiler.js"
import { CompileError, RETURN } from "./compiler/shared.js"
import { Bridge } from "./host/bridge.js"
import { type Parsed, parse } from "./parse.js"
import { keepProgram, keptProgram, programKey } from "./programCache.js"
import { type Diagnostic, diagnostic, type RunOutcome, type RunRequest, type SandboxHost } from "@codemode/core/sandbox"
import { DataConversionError, toData } from "./runtime/data.js"
import { caught, FatalError, kindOf, locationOf, resetErrors } from "./runtime/errors.js"
import { isObject, type Value } from "./runtime/functions.js"
import { runTopLevel } from "./runtime/generators.js"
import { inspect } from "./runtime/inspect.js"
import { Brand, resetPrivateNames, brandOf } from "./runtime/internals.js"
import { resetMeter } from "./runtime/meter.js"
import {
  drainJobs,
  hasJobs,
  isFulfilled,
  isSettled,
  newPromise,
  type PromiseRecord,
  resetPromises,
  resolvePromise,
  unhandledRejections,
} from "./runtime/promises.js"
import { rt } from "./runtime/state.js"

/** A program that parsed. */
type ParsedProgram = Extract<Parsed, { ok: true }>

/** Read a data property without running program code. */
const plainProperty = (o: Value, key: string): Value => {
  let p = o
  while (p !== null && typeof p === "object") {
    const d = Object.getOwnPropertyDescriptor(p, key)
    if (d) return "value" in d ? d.value : undefined
    p = Object.getPrototypeOf(p)
  }
  return undefined
}

/** A thrown value as text: `Name: message` for errors, an inspection otherwise. */
export const describeThrown = (value: Value): string => {
  if (isObject(value) && brandOf(value) === Brand.Error) {
    const name = plainProperty(value, "name")
    const message = plainProperty(value, "message")
    const n = typeof name === "string" ? name : "Error"
    return typeof message === "string" && message !== "" ? `${n}: ${message}` : n
  }
  return inspect(value)
}

/** The diagnostic of a program error nobody caught. */
const uncaught = (value: Value, prefix: string): Diagnostic => {
  const kind = kindOf(value)
  if (kind !== undefined) {
    const message = plainProperty(value, "message")
    return diagnostic(kind, typeof message === "string" ? message : describeThrown(value), locationOf(value))
  }
  return diagnostic("ExecutionFailure", `${prefix}${describeThrown(value)}`, locationOf(value))
}

const reset = (host: SandboxHost): void => {
  rt.execution++
  rt.host = host
  rt.depth = 0
  rt.base = 0
  rt.loc = undefined
  rt.ret = undefined
  rt.completion = undefined
  rt.dead = false
  rt.awaiting = false
  resetMeter(host.deadline)
  resetPromises()
  resetErrors()
  resetPrivateNames()
}

/** Start the program: its outcome settles the returned promise. */
const start = (program: CompiledProgram): PromiseRecord => {
  const env = program.setup()
  if (program.body !== undefined) {
    const signal = program.body(env)
    const record = newPromise()
    record.handled = true
    resolvePromise(record, signal === RETURN ? rt.ret : rt.completion)
    return record
  }
  const body = program.resumableBody!
  return runTopLevel(
    (function* () {
      const signal = yield* body(env)
      return signal === RETURN ? rt.ret : rt.completion
    })(),
  )
}

/** Run the event loop until `record` settles: jobs first, then block on the host for a started call. */
const settle = (record: PromiseRecord, bridge: Bridge): void => {
  for (;;) {
    drainJobs()
    if (isSettled(record)) return
    if (bridge.pending === 0) {
      throw new FatalError(
        diagnostic(
          "ExecutionFailure",
          "The program is waiting for a promise that can never settle (nothing is running that could settle it)",
          rt.loc,
        ),
      )
    }
    bridge.waitOne()
  }
}

/** The bridge of the running execution: compiled code, which may be kept for later executions, resolves through it. */
let running: Bridge | undefined

const resolveModule: ModuleResolver = (specifier, location) => running!.resolveModule(specifier, location)

/**
 * Parse, analyse and compile a program as `runProgram` would, without running or keeping it: the warm-up's later
 * rounds train the parser and the compiler, which every new program needs. False when it does not compile.
 */
export const compileOnly = (request: RunRequest, host: SandboxHost): boolean => {
  reset(host)
  const realm = acquireRealm()
  const tree = parse(request.code)
  if (!tree.ok) return false
  const bridge = new Bridge(realm, host)
  running = bridge
  try {
    bridge.install(request)
    compileProgram(analyze(tree.program), realm, request.code, tree.locate, resolveModule, tree.program)
    return true
  } catch (e) {
    if (e instanceof CompileError || e instanceof FatalError) return false
    throw e
  } finally {
    running = undefined
  }
}

/** Run a program inside the sandbox worker. */
export const runProgram = (request: RunRequest, host: SandboxHost): RunOutcome => {
  reset(host)
  const realm = acquireRealm()
  const key = programKey(request)
  const kept = keptProgram(key, realm)
  let parsed: ParsedProgram | undefined
  if (kept === undefined) {
    const tree = parse(request.code)
    if (!tree.ok) return { ok: false, error: tree.diagnostic }
    parsed = tree
  }
  let bridge: Bridge | undefined
  const warnings: Diagnostic[] = []
  let outcome: RunOutcome
  try {
    bridge = new Bridge(realm, host)
    running = bridge
    // Compiled code reads the globals `install` defines by cell, so it is compiled after them.
    bridge.install(request)
    let program = kept
    if (program === undefined) {
      const { program: tree, locate } = parsed!
      program = compileProgram(analyze(tree), realm, request.code, locate, resolveModule, tree)
      keepProgram(key, request.code, program)
    }
    let record: PromiseRecord
    try {
      record = start(program)
    } catch (e) {
      const thrown = caught(e)
      record = newPromise()
      record.handled = true
      record.state = 2
      record.value = thrown
    }
    settle(record, bridge)
    if (!isFulfilled(record)) outcome = { ok: false, error: uncaught(record.value, "Uncaught ") }
    else {
      try {
        outcome = { ok: true, value: toData(record.value) }
      } catch (e) {
        if (!(e instanceof DataConversionError)) throw e
        outcome = {
          ok: false,
          error: diagnostic("InvalidDataValue", `The result is not data: ${e.reason} at ${e.path}`),
        }
      }
    }
    try {
      if (hasJobs()) drainJobs()
      // Calls the program did not await that have already ended settle now, so a failure nobody handles is
      // reported (the ones still running are cancelled below).
      if (!rt.dead) {
        warnings.push(...bridge.settleFinished())
        if (hasJobs()) drainJobs()
      }
    } catch (e) {
      if (e instanceof FatalError) warnings.push(e.diagnostic)
      else throw e
    }
  } catch (e) {
    if (e instanceof FatalError) outcome = { ok: false, error: e.diagnostic }
    else if (e instanceof CompileError) {
      const location = parsed!.locate(e.offset)
      outcome = { ok: false, error: diagnostic("UnsupportedSyntax", `${e.message}. ${e.hint}`, location) }
    } else if (rt.dead || e instanceof Error) {
      outcome = {
        ok: false,
        error: diagnostic(
          "ExecutionFailure",
          `Internal interpreter error: ${e instanceof Error ? e.message : String(e)}`,
        ),
      }
    } else {
      outcome = { ok: false, error: uncaught(e, "Uncaught ") }
    }
  } finally {
    bridge?.cancelAll()
    running = undefined
  }
  for (const r of unhandledRejections()) {
    const d = uncaught(r.value, "Unhandled promise rejection: ")
    // A host failure keeps its kind; the warning still says that nothing handled it.
    warnings.push(kindOf(r.value) === undefined ? d : { ...d, message: `Unhandled promise rejection: ${d.message}` })
  }
  for (const w of warnings) host.warn(w)
  // The realm is put back after the result is sent (the worker's `afterRun`), or by the next `acquireRealm`.
  return outcome
}
