/**
 * The Lua runtime for core's sandbox worker: `run(request, host)` parses, compiles and runs one program and returns
 * its result as data or a diagnostic. Everything here is synchronous; host calls block inside `host.call`.
 */
import { type Compiled, compile, compileRest, compilerFailure, instantiate, settleRest } from "./compile.js"
import { DataProblem, toData } from "./data.js"
import { LuaError, LuaFatal } from "./errors.js"
import { resetIntrinsics } from "./intrinsics.js"
import { resetNext } from "./lib/base.js"
import { forgetFormats } from "./lstrings/index.js"
import { createEnvironment } from "./lib/index.js"
import { JSON_NULL, resetValues, tostring } from "./ops.js"
import { ParseFailure } from "./parse.js"
import { diagnostic, type Diagnostic, type RunOutcome, type RunRequest, type SandboxHost } from "@codemode/core/sandbox"
import { locationOf, MAX_CALL_DEPTH, MAX_STEPS, MAX_STRING_BYTES, resetRuntime, rt, warnAt } from "./runtime.js"
import { utf8DecodeLenient } from "./utf8.js"
import { warmUp, warmSteps as warmStepsOf } from "./warm.js"
import { LuaTable, type LuaValue } from "./value.js"

/** The message of an uncaught Lua error value, as the standalone `lua` would print it. */
const errorMessage = (value: LuaValue): string => {
  if (typeof value === "string") return utf8DecodeLenient(value)
  if (typeof value === "number" || typeof value === "bigint") return tostring(value)
  if (value instanceof LuaTable && value !== JSON_NULL) {
    try {
      return `(error object is a table value) ${JSON.stringify(toData(value))}`
    } catch {
      return "(error object is a table value)"
    }
  }
  return `(error object is a ${value === undefined ? "nil" : typeof value === "object" ? "table" : typeof value} value)`
}

/** Turn whatever ended the run into a diagnostic; JS engine failures that are resource exhaustion are named. */
const toDiagnostic = (e: unknown): Diagnostic => {
  if (e instanceof LuaError) return diagnostic(e.kind, errorMessage(e.value), e.location)
  if (e instanceof LuaFatal) return diagnostic(e.kind, e.message, e.location)
  // Parse messages may quote the program (names, symbols): its text is UTF-8 bytes.
  if (e instanceof ParseFailure) return { ...e.diagnostic, message: utf8DecodeLenient(e.diagnostic.message) }
  if (e instanceof RangeError) {
    const location = locationOf(rt.site)
    if (/call stack/i.test(e.message))
      return diagnostic(
        "ExecutionFailure",
        `the program nests calls too deeply for the interpreter's stack (call depth limit ${MAX_CALL_DEPTH.toLocaleString("en-US")} nested calls)`,
        location,
      )
    if (/string length/i.test(e.message))
      return diagnostic(
        "ExecutionFailure",
        `string length exceeded the limit of ${MAX_STRING_BYTES} bytes (16 MiB)`,
        location,
      )
    if (/array length|allocation/i.test(e.message))
      return diagnostic("ExecutionFailure", `the program ran out of memory (${e.message})`, location)
  }
  throw e
}

/** Compile `code` (a stack overflow of the compiler is reported as its own: see `compilerFailure`). */
const compileProgram = (code: string, deadline: number, scope: string | undefined): Compiled => {
  try {
    return compile(code, deadline, scope)
  } catch (e) {
    throw compilerFailure(e)
  }
}

/** An empty table that is not marked as an array leaves as `{}`, which is rarely what a model meant. */
const emptyObject = (v: LuaValue): boolean =>
  v instanceof LuaTable && v !== JSON_NULL && !v.jsonArray && !v.jsonObject && v.size() === 0

const EMPTY_TABLE_HINT = "which is returned as the empty object {}: use json.array() for an empty array"

/** Warnings about what the program returned: nothing after calling tools, or empty tables that become `{}`. */
const warnAboutResult = (r: LuaValue | Array<LuaValue>, value: LuaValue): void => {
  if (Array.isArray(r) && r.length === 0 && rt.hostCalls > 0)
    warnAt(
      "ExecutionFailure",
      "the program called tools but ended without `return`, so its result is null: end it with `return <value>`",
      0,
    )
  if (emptyObject(value)) {
    warnAt("InvalidDataValue", `the result is an empty table, ${EMPTY_TABLE_HINT}`, 0)
    return
  }
  if (!(value instanceof LuaTable)) return
  // One level down: `{ items = {} }` and `{ {}, {} }`.
  let seen = 0
  const check = (v: LuaValue, path: string): boolean => {
    if (!emptyObject(v)) return ++seen < 1000
    warnAt("InvalidDataValue", `${path} is an empty table, ${EMPTY_TABLE_HINT}`, 0)
    return false
  }
  for (let i = 0; i < value.arr.length; i++) if (!check(value.arr[i], `$[${i + 1}]`)) return
  for (const k in value.fields) if (!check(value.fields[k], `$.${utf8DecodeLenient(k)}`)) return
}

/**
 * Start a run from a clean slate: nothing an earlier run left in module-level state (`json.null`, pseudo-addresses,
 * the `next` cursor, loop scratch, parsed format strings) is visible to it.
 */
const resetModuleState = (): void => {
  resetValues()
  resetNext()
  resetIntrinsics()
  forgetFormats()
}

/**
 * The host as `program`'s run sees it. While the rest of its split main chunk is still to compile (see
 * `Generator.program`), a host call of the first part is started, the rest compiled while the host works on it,
 * and the call then awaited: the program sees an ordinary blocking call, and the tool's time hides the compile.
 * Once the main function has reached the rest, it has compiled it, and calls go straight to the host.
 */
const overlapping = (program: Compiled, host: SandboxHost): SandboxHost => {
  const rest = program.rest
  if (rest === undefined || rest.factory !== undefined) return host
  let tried = false
  return {
    call: (call) => {
      if (tried || rest.factory !== undefined) return host.call(call)
      tried = true
      const ticket = host.start(call)
      try {
        compileRest(program)
      } catch {
        // The main function compiles the rest again when it reaches it, and the failure is reported there.
      }
      const answer = host.waitAny()
      if (answer.ticket !== ticket) throw new Error("the host answered a call the run did not start")
      return answer.outcome
    },
    start: (call) => {
      tried = true
      return host.start(call)
    },
    waitAny: () => host.waitAny(),
    settledCalls: () => host.settledCalls(),
    cancel: (ticket) => host.cancel(ticket),
    log: (line) => host.log(line),
    warn: (diagnostic) => host.warn(diagnostic),
    retire: (reason) => host.retire(reason),
    deadline: host.deadline,
  }
}

/** Run one Lua program. */
export const run = (request: RunRequest, host: SandboxHost): RunOutcome => runWithWorkBound(request, host, MAX_STEPS)

/**
 * {@link run} with a lower work bound, for tests of the bound (hosts have no way to set it: the sandbox calls
 * `run`, and a bound above {@link MAX_STEPS} is cut to it).
 */
export const runWithWorkBound = (request: RunRequest, host: SandboxHost, maxSteps: number): RunOutcome => {
  try {
    const program = compileProgram(request.code, host.deadline, request.scope)
    resetModuleState()
    const globals = createEnvironment(request, overlapping(program, host))
    resetRuntime(program.locations, host.deadline, (d) => host.warn(d), maxSteps)
    let r: LuaValue | Array<LuaValue>
    try {
      r = instantiate(program, globals)()
    } finally {
      settleRest(program)
    }
    const value = Array.isArray(r) ? r[0] : r
    warnAboutResult(r, value)
    try {
      return { ok: true, value: toData(value) }
    } catch (e) {
      if (!(e instanceof DataProblem)) throw e
      return {
        ok: false,
        error: { kind: "InvalidDataValue", message: `the result cannot cross to the host: ${e.reason} at ${e.path}` },
      }
    }
  } catch (e) {
    return { ok: false, error: toDiagnostic(e) }
  }
}

/**
 * Compile and optimise the interpreter's own code before the first program (see `warm.ts`). The sandbox calls it once
 * after loading this module, while it is idle.
 */
export const warm = (rounds?: number): void => {
  warmUp(run, rounds, compileOnly)
}

/** The warm-up of {@link warm}, a program a step, for a sandbox that stops it when a run arrives. */
export const warmSteps = (): Iterator<unknown> => warmStepsOf(run, undefined, compileOnly)

/** The compiler's part of a run, for the warm-up's later rounds: both parts of a split main chunk are generated. */
const compileOnly = (code: string): void => {
  compileRest(compile(code))
}
