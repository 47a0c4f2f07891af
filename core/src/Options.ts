/**
 * Strict options: a host's typo must never be silently ignored.
 */

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
    const near = accepted.find((a) => closeTo(a, key))
    return near === undefined ? `"${key}"` : `"${key}" (did you mean "${near}"?)`
  })
  throw new TypeError(
    `${what}: unknown option${unknown.length === 1 ? "" : "s"} ${each.join(", ")}; the accepted options are ${accepted.join(", ")}`,
  )
}

/** True when `a` and `b` differ by at most one edit (or only by case). */
const closeTo = (a: string, b: string): boolean => {
  if (a.toLowerCase() === b.toLowerCase()) return true
  if (Math.abs(a.length - b.length) > 1) return false
  let i = 0
  while (i < a.length && i < b.length && a[i] === b[i]) i++
  let j = 0
  while (j < a.length - i && j < b.length - i && a[a.length - 1 - j] === b[b.length - 1 - j]) j++
  return a.length - i - j <= 1 && b.length - i - j <= 1
}
