/**
 * Near-miss names: which accepted name a mistyped one most likely meant (`productid`, `product_id` and `prodctId`
 * all mean `productId`).
 */

/** A name compared without case and without `_`, `-`, `.` or spaces. */
const fold = (name: string): string => name.toLowerCase().replace(/[-_.\s]/g, "")

/** Optimal string alignment distance (Levenshtein plus adjacent transpositions), stopping early past `limit`. */
const distance = (a: string, b: string, limit: number): number => {
  if (Math.abs(a.length - b.length) > limit) return limit + 1
  let before: number[] = []
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    let best = i
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let value = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, before[j - 2] + 1)
      current.push(value)
      best = Math.min(best, value)
    }
    if (best > limit) return limit + 1
    before = previous
    previous = current
  }
  return previous[b.length]
}

/** How many edits a name of this length may be away from the one meant. */
const allowance = (length: number): number => (length <= 2 ? 0 : length <= 5 ? 1 : length <= 10 ? 2 : 3)

/**
 * The candidate `name` most likely meant, or `undefined` when none is close: equal without case and separators first,
 * then the fewest edits, a name extending the other counting as one (ties go to the earlier candidate).
 */
export const nearest = (name: string, candidates: Iterable<string>): string | undefined => {
  const folded = fold(name)
  let best: string | undefined
  let bestDistance = Number.POSITIVE_INFINITY
  for (const candidate of candidates) {
    if (candidate === name) continue
    const other = fold(candidate)
    if (other === folded) return candidate
    const limit = allowance(Math.max(folded.length, other.length))
    // One name extending the other (`mountPoint`, `mount`) counts as a single edit.
    const extended =
      Math.min(folded.length, other.length) >= 4 && (folded.startsWith(other) || other.startsWith(folded))
    const d = extended ? 1 : distance(folded, other, limit)
    if (d <= limit && d < bestDistance) {
      best = candidate
      bestDistance = d
    }
  }
  return best
}
