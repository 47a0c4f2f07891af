/**
 * Argument checks for library functions, worded like PUC Lua's `luaL_check*`:
 * `bad argument #1 to 'insert' (table expected, got nil)`.
 */
import { numberToString, stringToNumber, toIntegerExact } from "../numbers.js"
import { libError, rt } from "../runtime.js"
import { LuaFloat, LuaTable, type LuaFunction, type LuaValue, shownType } from "../value.js"

/**
 * The error for argument `n` of function `fname` (its qualified name, `table.insert`). Lua names the function as
 * the call names it: by its field (`insert`) when Lua code calls it, by its qualified name when a library function
 * such as `pcall` does (the call site is then negative, see `locationOf`).
 */
export const argError = (n: number, fname: string, reason: string) =>
  libError(`bad argument #${n} to '${rt.site < 0 ? fname : fname.slice(fname.lastIndexOf(".") + 1)}' (${reason})`)

/** "got nil" or "got no value", as Lua says it. */
const got = (v: LuaValue, present: boolean): string => (present ? shownType(v) : "no value")

/** A table argument. `present` is false when the argument was not passed at all. */
export const checkTable = (v: LuaValue, n: number, fname: string, present = true): LuaTable => {
  if (v instanceof LuaTable) return v
  throw argError(n, fname, `table expected, got ${got(v, present)}`)
}

/** A function argument. */
export const checkFunction = (v: LuaValue, n: number, fname: string, present = true): LuaFunction => {
  if (typeof v === "function") return v
  throw argError(n, fname, `function expected, got ${got(v, present)}`)
}

/** Any value but "no value". */
export const checkAny = (present: boolean, n: number, fname: string): void => {
  if (!present) throw argError(n, fname, "value expected")
}

/** A string argument; numbers are converted as Lua converts them. */
export const checkString = (v: LuaValue, n: number, fname: string, present = true): string => {
  if (typeof v === "string") return v
  if (typeof v === "number" || typeof v === "bigint" || v instanceof LuaFloat) return numberToString(v)
  throw argError(n, fname, `string expected, got ${got(v, present)}`)
}

/** An optional string argument. */
export const optString = (v: LuaValue, n: number, fname: string, fallback: string): string =>
  v === undefined ? fallback : checkString(v, n, fname)

/** An integer argument (floats with an exact integer value and numeric strings are accepted). */
export const checkInteger = (v: LuaValue, n: number, fname: string, present = true): number | bigint => {
  if (typeof v === "number" && Number.isSafeInteger(v)) return v
  const i = toIntegerExact(v)
  if (i !== undefined) return i
  if (typeof v === "number" || v instanceof LuaFloat || (typeof v === "string" && stringToNumber(v) !== undefined))
    throw argError(n, fname, "number has no integer representation")
  throw argError(n, fname, `number expected, got ${got(v, present)}`)
}

/** An integer argument clamped into the safe range (for positions and counts). */
export const checkPosition = (v: LuaValue, n: number, fname: string, present = true): number => {
  const i = checkInteger(v, n, fname, present)
  if (typeof i === "number") return i
  return i > 0n ? Number.MAX_SAFE_INTEGER : Number.MIN_SAFE_INTEGER
}

/** An optional integer argument clamped into the safe range. */
export const optPosition = (v: LuaValue, n: number, fname: string, fallback: number): number =>
  v === undefined ? fallback : checkPosition(v, n, fname)

/** A number argument, as a Lua number value (numeric strings converted). */
export const checkNumber = (v: LuaValue, n: number, fname: string, present = true): number | bigint | LuaFloat => {
  if (typeof v === "number" || typeof v === "bigint" || v instanceof LuaFloat) return v
  if (typeof v === "string") {
    const x = stringToNumber(v)
    if (x !== undefined) return x
  }
  throw argError(n, fname, `number expected, got ${got(v, present)}`)
}

/** A number argument as a JS double. */
export const checkDouble = (v: LuaValue, n: number, fname: string, present = true): number => {
  const x = checkNumber(v, n, fname, present)
  return typeof x === "number" ? x : typeof x === "bigint" ? Number(x) : x.n
}
