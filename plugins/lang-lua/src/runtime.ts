/**
 * The interpreter's shared run-time state: the work meter, the call depth, the location of the call in progress,
 * and the helpers that raise errors at a source location. One worker runs one program at a time, so this state is
 * module-level and reset by {@link resetRuntime} before each run.
 */
import { memoryNearlyFull, outOfMemoryMessage } from "@codemode/core/sandbox"
import { LuaError, LuaFatal } from "./errors.js"
import type { Diagnostic, Kind, Location } from "@codemode/core/sandbox"

/** The name Lua error messages give the program (`input:3: boom`). */
export const CHUNK_NAME = "input"
/**
 * The deepest chain of nested Lua function calls (a tail call of a function to itself does not add a level). The
 * sandbox worker's stack is sized for it.
 */
export const MAX_CALL_DEPTH = 10_000
/** The most interpreter work steps one run may spend (loop iterations, calls, and library work). */
export const MAX_STEPS = 1_000_000_000
/**
 * The most values one call may return (`table.unpack`, `string.byte`, `utf8.codepoint`): PUC Lua's stack holds
 * 1,000,000 slots, less those in use.
 */
export const MAX_RESULTS = 999_000
/** The longest string a program may build, in bytes. */
export const MAX_STRING_BYTES = 16 * 1024 * 1024
/** Steps between two looks at the clock. */
const CHUNK = 16384

/** The source locations of a compiled program's sites, by id (0 means "unknown"). */
export interface Locations {
  at(site: number): Location | undefined
}

/** The locations of no program. */
const NO_LOCATIONS: Locations = { at: () => undefined }

/** Mutable state shared by compiled code and the standard library. */
export const rt = {
  /** Steps left before the next look at the meter. */
  budget: CHUNK,
  /** Steps spent before the current chunk. */
  spent: 0,
  /** Current depth of nested Lua calls. */
  depth: 0,
  /** Location id of the call in progress (set by every call site just before it calls). */
  site: 0,
  /** `Date.now()` after which the run times out. */
  deadline: Infinity,
  /** Source locations by id (id 0 means "unknown"). */
  locations: NO_LOCATIONS as Locations,
  /** The work bound of this run: {@link MAX_STEPS}, lower only in tests (see `runWithWorkBound`). */
  maxSteps: MAX_STEPS,
  /** Calls the program made to the host (tools, search, extensions). */
  hostCalls: 0,
  /** Where warnings go (the host's `warn`). */
  warn: undefined as ((diagnostic: Diagnostic) => void) | undefined,
}

/** Warnings already given this run, by message and site: each is given once. */
const warned = new Set<string>()
/** The most warnings one run gives (the host bounds its buffer too). */
const MAX_WARNINGS = 32

/** Give a warning about the program, located at `site`, once per message and site. */
export const warnAt = (kind: Kind, message: string, site: number): void => {
  const key = `${Math.abs(site)} ${message}`
  if (warned.has(key) || warned.size >= MAX_WARNINGS || rt.warn === undefined) return
  warned.add(key)
  const location = locationOf(site)
  const text = location === undefined ? message : `${CHUNK_NAME}:${location.line}: ${message}`
  rt.warn(location === undefined ? { kind, message: text } : { kind, message: text, location })
}

/** `callSites[d]` is the location id of the call that entered depth `d`; used by `error(msg, level)`. */
export const callSites: Array<number> = new Array(MAX_CALL_DEPTH + 2).fill(0)

/** Reset the state for a new run. */
export const resetRuntime = (
  locations: Locations,
  deadline: number,
  warn?: (diagnostic: Diagnostic) => void,
  maxSteps = MAX_STEPS,
): void => {
  rt.maxSteps = Math.min(maxSteps, MAX_STEPS)
  rt.hostCalls = 0
  rt.warn = warn
  warned.clear()
  rt.budget = CHUNK
  rt.spent = 0
  rt.depth = 0
  rt.site = 0
  rt.deadline = deadline
  rt.locations = locations
}

/**
 * The source location of a location id. Ids are positive; a negative id `-s` means "location `s`, but reached from a
 * library function" (for example a function called by `pcall` itself), where Lua gives messages no position prefix.
 */
export const locationOf = (site: number): Location | undefined => rt.locations.at(site < 0 ? -site : site)

/** Called when the step budget of a chunk runs out: account, enforce the work bound and the deadline. */
export const meter = (site: number): void => {
  rt.spent += CHUNK - rt.budget
  rt.budget = CHUNK
  if (rt.spent > rt.maxSteps)
    throw new LuaFatal(
      "ExecutionFailure",
      `the program exceeded the interpreter work limit of ${rt.maxSteps.toLocaleString("en-US")} steps`,
      locationOf(site),
    )
  if (Date.now() > rt.deadline) throw new LuaFatal("TimeoutExceeded", "the execution timed out", locationOf(site))
  if (memoryNearlyFull()) throw new LuaFatal("ExecutionFailure", outOfMemoryMessage, locationOf(site))
}

/**
 * Charge `n` steps of library work to the meter, at the location of the call in progress. A step is about one loop
 * iteration of compiled code; library functions charge one step per byte they read or write and per element they
 * move (and more per value they create), so a loop of library calls reaches the work bound as a loop of plain
 * code does, whatever its time limit.
 */
export const charge = (n: number): void => {
  rt.budget -= n
  if (rt.budget <= 0) meter(rt.site)
}

/** Charge `n` steps of work done by an operator at `site` (a comparison of long strings). */
export const chargeAt = (n: number, site: number): void => {
  rt.budget -= n
  if (rt.budget <= 0) meter(site)
}

/** Lua's position prefix for a message raised at `site` (`input:3: `), or "" when unknown. */
export const where = (site: number): string => {
  if (site <= 0) return ""
  const loc = rt.locations.at(site)
  return loc === undefined ? "" : `${CHUNK_NAME}:${loc.line}: `
}

/** An ordinary Lua error with `message` raised at `site`, positioned the way Lua positions it. */
export const errorAt = (message: string, site: number, kind: Kind = "ExecutionFailure"): LuaError =>
  new LuaError(where(site) + message, locationOf(site), kind)

/** An ordinary Lua error raised by a library function, at the location of the call in progress. */
export const libError = (message: string): LuaError => errorAt(message, rt.site)

/** A fatal error (a bound was exceeded) at `site`. */
export const fatalAt = (message: string, site: number, kind: Kind = "ExecutionFailure"): LuaFatal =>
  new LuaFatal(kind, message, locationOf(site))

/** The error for a call chain deeper than {@link MAX_CALL_DEPTH}. */
export const callDepthError = (site: number): LuaFatal =>
  fatalAt(
    `call depth exceeded the limit of ${MAX_CALL_DEPTH.toLocaleString("en-US")} nested calls (runaway recursion?)`,
    site,
  )

/** Throw a fatal error when a string of `length` bytes would exceed {@link MAX_STRING_BYTES}. */
export const checkStringLength = (length: number, site: number = rt.site): void => {
  if (length > MAX_STRING_BYTES)
    throw fatalAt(`string length exceeded the limit of ${MAX_STRING_BYTES} bytes (16 MiB)`, site)
}
