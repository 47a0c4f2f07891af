/**
 * Strict options: a host's typo must never be silently ignored.
 */
import { nearest } from "./Suggest.js"

/**
 * Throw a `TypeError` when `value` is not a plain object or has a key outside `accepted`, naming the key and the
 * accepted ones: `limits: unknown option "timeout"; the accepted options are timeoutMs, maxToolCalls, maxOutputBytes`.
 */
export const checkKeys = (what: string, value: unknown, accepted: ReadonlyArray<string>): void => {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new TypeError(`${what} must be an object`)
  const unknown = Object.keys(value).filter((key) => !accepted.includes(key))
  if (unknown.length === 0) return
  const each = unknown.map((key) => {
    const near = nearest(key, accepted)
    return near === undefined ? `"${key}"` : `"${key}" (did you mean "${near}"?)`
  })
  throw new TypeError(
    `${what}: unknown option${unknown.length === 1 ? "" : "s"} ${each.join(", ")}; the accepted options are ${accepted.join(", ")}`,
  )
}
