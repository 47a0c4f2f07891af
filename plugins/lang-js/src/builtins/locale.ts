/**
 * Locale arguments of `toLocaleString` and friends: a locale tag (default `en-US`) and the options the host's
 * formatter accepts, copied as primitives so the host never sees a program object.
 */
import { isObject, type Value } from "../runtime/functions.js"
import { toStr } from "../runtime/operators.js"

/** The locale to format with: the program's tag when it gives one, else `en-US` (never the host's own locale). */
export const localeOf = (v: Value): string => {
  if (typeof v === "string") return v
  if (Array.isArray(v) && typeof v[0] === "string") return v[0]
  return "en-US"
}

/** Copy the listed formatter options from a program object as primitives. */
export const localeOptions = (v: Value, keys: ReadonlyArray<string>): Record<string, string | number | boolean> => {
  const out: Record<string, string | number | boolean> = {}
  if (!isObject(v)) return out
  for (const k of keys) {
    const x = v[k]
    if (x === undefined) continue
    out[k] = typeof x === "number" || typeof x === "boolean" ? x : toStr(x)
  }
  return out
}
