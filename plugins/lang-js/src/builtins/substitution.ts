/**
 * `GetSubstitution`: expanding a replacement template (`$&`, `$1`, `$<name>`...) for one match. The string methods
 * use it when they expand templates themselves, which they do whenever the result could grow past the string bound,
 * so that its length is counted match by match.
 */
import type { Value } from "../runtime/functions.js"
import { concat, toStr } from "../runtime/operators.js"

const isDigit = (c: number): boolean => c >= 48 && c <= 57

/**
 * The replacement for `matched` found at `position` in `str`, from `template`. `captures` are the capture groups
 * (undefined when a group did not take part), `named` the groups object (undefined without named groups).
 */
export const getSubstitution = (
  matched: string,
  str: string,
  position: number,
  captures: ReadonlyArray<string | undefined>,
  named: Value,
  template: string,
): string => {
  let i = template.indexOf("$")
  if (i < 0) return template
  let result = template.slice(0, i)
  const n = template.length
  while (i < n) {
    const c = template.charCodeAt(i)
    if (c !== 36 || i + 1 >= n) {
      const next = template.indexOf("$", i + 1)
      const end = next < 0 ? n : next
      result = concat(result, template.slice(i, end))
      i = end
      continue
    }
    const d = template.charCodeAt(i + 1)
    if (d === 36) {
      result = concat(result, "$")
      i += 2
    } else if (d === 38) {
      result = concat(result, matched)
      i += 2
    } else if (d === 96) {
      result = concat(result, str.slice(0, position))
      i += 2
    } else if (d === 39) {
      result = concat(result, str.slice(Math.min(position + matched.length, str.length)))
      i += 2
    } else if (isDigit(d)) {
      let digits = 1
      let index = d - 48
      if (i + 2 < n && isDigit(template.charCodeAt(i + 2))) {
        const two = index * 10 + (template.charCodeAt(i + 2) - 48)
        if (two <= captures.length) {
          digits = 2
          index = two
        }
      }
      if (index >= 1 && index <= captures.length) result = concat(result, captures[index - 1] ?? "")
      else result = concat(result, template.slice(i, i + 1 + digits))
      i += 1 + digits
    } else if (d === 60) {
      const close = template.indexOf(">", i + 2)
      if (close < 0 || named === undefined) {
        result = concat(result, "$<")
        i += 2
      } else {
        const capture = named[template.slice(i + 2, close)]
        if (capture !== undefined) result = concat(result, toStr(capture))
        i = close + 1
      }
    } else {
      result = concat(result, "$")
      i += 1
    }
  }
  return result
}
