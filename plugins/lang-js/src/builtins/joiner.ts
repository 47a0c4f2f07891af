/**
 * Joining many strings into one (`Array.prototype.join`, `toLocaleString`, typed array `join`) within the string
 * bound: the length is checked as the parts come in and before the result is allocated, and parts are joined in
 * chunks so that no list as long as the input is ever held.
 */
import { MAX_STRING_LENGTH } from "../limits.js"
import { reserveChars } from "../runtime/memory.js"
import { charge } from "../runtime/meter.js"

const CHUNK = 4096

/** Join `count` strings made by `part(i)` with `separator` (one unit of work per part). */
export const joinStrings = (count: number, separator: string, part: (i: number) => string): string => {
  if (count === 0) return ""
  let total = separator.length * (count - 1)
  if (total > MAX_STRING_LENGTH) reserveChars(total)
  charge(count)
  const chunks: string[] = []
  let parts: string[] = []
  for (let i = 0; i < count; i++) {
    const s = part(i)
    total += s.length
    if (total > MAX_STRING_LENGTH) reserveChars(total)
    parts.push(s)
    if (parts.length === CHUNK && i + 1 < count) {
      chunks.push(parts.join(separator))
      parts = []
    }
  }
  if (chunks.length === 0) {
    reserveChars(total)
    return parts.join(separator)
  }
  chunks.push(parts.join(separator))
  reserveChars(total)
  return chunks.join(separator)
}
