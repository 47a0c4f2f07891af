/**
 * Throwing, catching and locating errors.
 *
 * A program's `throw` is a host `throw` of the program's value. Host errors raised by built-ins (a `RangeError` from
 * `"x".repeat(-1)`) are turned into the program's own error objects where they are caught, so a program never holds
 * a host error. `FatalError` is the one exception a program can never catch: limits, the deadline and fatal host
 * failures end the execution through it.
 */
import type { Diagnostic, Kind, Location } from "@codemode/core/sandbox"
import { rt } from "./state.js"

/** The error names a program's errors can have. */
export type ErrorName =
  | "Error"
  | "TypeError"
  | "RangeError"
  | "SyntaxError"
  | "ReferenceError"
  | "EvalError"
  | "URIError"
  | "AggregateError"

/** A failure the program cannot catch: it ends the execution with `diagnostic`. */
export class FatalError extends Error {
  constructor(readonly diagnostic: Diagnostic) {
    super(diagnostic.message)
  }
}

/** End the execution with a diagnostic the program cannot catch. */
export const fatal = (kind: Kind, message: string, location?: Location): never => {
  rt.dead = true
  throw new FatalError(location ? { kind, message, location } : { kind, message })
}

// Per execution (see `resetErrors`): a built-in object outlives the execution that threw it.
let thrownAt = new WeakMap<object, Location>()
let createdAt = new WeakMap<object, Location>()

/** Record where a program error was created (for its `stack`). */
export const noteCreation = (error: object): void => {
  if (rt.loc !== undefined) createdAt.set(error, rt.loc)
}

/** Where a program error was created, or else first thrown. */
export const originOf = (error: object): Location | undefined => createdAt.get(error) ?? thrownAt.get(error)
let failureKinds = new WeakMap<object, Kind>()
let lastThrow: Location | undefined

/** Forget the locations and failure kinds of the previous execution. */
export const resetErrors = (): void => {
  lastThrow = undefined
  thrownAt = new WeakMap()
  createdAt = new WeakMap()
  failureKinds = new WeakMap()
}

const isObject = (v: unknown): v is object => typeof v === "object" && v !== null

/** Record where `value` was thrown (the first throw of an object wins, so a rethrow keeps the origin). */
export const noteThrow = (value: unknown, location: Location | undefined): void => {
  if (location === undefined) return
  lastThrow = location
  if (isObject(value) && !thrownAt.has(value)) thrownAt.set(value, location)
}

/** Where a thrown value was first thrown, when known. */
export const locationOf = (value: unknown): Location | undefined =>
  (isObject(value) ? thrownAt.get(value) : undefined) ?? lastThrow

/** Mark a program error as carrying a host failure of `kind` (a failed tool call, an unknown tool...). */
export const markKind = (error: object, kind: Kind): void => {
  failureKinds.set(error, kind)
}

/** The host failure kind a program error carries, if any. */
export const kindOf = (value: unknown): Kind | undefined => (isObject(value) ? failureKinds.get(value) : undefined)

/** Throw `value` as the program's exception from `location`. */
export const throwValue = (value: unknown, location: Location | undefined): never => {
  noteThrow(value, location)
  throw value
}

/** Create one of the program's error objects. */
export const makeError = (name: ErrorName, message: string): object => rt.realm.makeError(name, message)

/** The first line of an error's `stack` and of `Error.prototype.toString`: `Name: message`. */
export const errorHead = (name: string, message: string): string =>
  name === "" ? message : message === "" ? name : `${name}: ${message}`

/** Throw a program `TypeError`. */
export const throwTypeError = (message: string, location?: Location): never =>
  throwValue(makeError("TypeError", message), location ?? rt.loc)

/** Throw a program `RangeError`. */
export const throwRangeError = (message: string, location?: Location): never =>
  throwValue(makeError("RangeError", message), location ?? rt.loc)

/** Throw a program `ReferenceError`. */
export const throwReferenceError = (message: string, location?: Location): never =>
  throwValue(makeError("ReferenceError", message), location ?? rt.loc)

/** Throw a program `SyntaxError`. */
export const throwSyntaxError = (message: string, location?: Location): never =>
  throwValue(makeError("SyntaxError", message), location ?? rt.loc)

/**
 * Throw an error for a feature outside the supported subset. The program may catch it; uncaught, it becomes an
 * `UnsupportedSyntax` diagnostic.
 */
export const throwUnsupported = (message: string, location?: Location): never => {
  const error = makeError("TypeError", message)
  markKind(error, "UnsupportedSyntax")
  return throwValue(error, location ?? rt.loc)
}

const hostErrorNames: Record<string, ErrorName> = {
  TypeError: "TypeError",
  RangeError: "RangeError",
  SyntaxError: "SyntaxError",
  ReferenceError: "ReferenceError",
  URIError: "URIError",
  EvalError: "EvalError",
}

/**
 * Turn what a catch site caught into the program's exception value. Fatal errors propagate (they must never reach
 * the program); host errors from built-ins become the program's errors with the same name and message; running
 * out of host stack is fatal.
 */
export const caught = (e: unknown): unknown => {
  if (rt.dead) throw e
  if (e instanceof Error) {
    if (e instanceof FatalError) throw e
    if (e instanceof RangeError && e.message.includes("call stack")) {
      return fatal(
        "ExecutionFailure",
        "Maximum call depth exceeded: the program ran out of stack space (unbounded recursion?)",
        rt.loc,
      )
    }
    // The host names a program's plain object `[object Object]` (its prototypes have no constructor); V8 shows
    // a plain object as `#<Object>`.
    const error = makeError(hostErrorNames[e.name] ?? "Error", e.message.replaceAll("'[object Object]'", "'#<Object>'"))
    noteThrow(error, rt.loc)
    return error
  }
  return e
}
