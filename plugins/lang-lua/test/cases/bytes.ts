/**
 * Strings of every length around the points where an ASCII test changes method (32 code units, longer), with a byte
 * of 0x80 or more at the start, in the middle or at the end: `string.upper` and `string.lower` (which map only
 * ASCII letters, as the C locale does) and, for data, strings and keys that leave as UTF-8.
 */
import { v, type Case } from "../support/case.js"

const lengths = [31, 32, 33, 100, 5000]

export const bytes: ReadonlyArray<Case> = [
  ...lengths.map((n) =>
    v(
      `upper and lower of ${n} bytes with a byte above 0x7f at the start, middle or end`,
      `local s = ('aB'):rep(${n}):sub(1, ${n}) local out = {} for _, at in ipairs({ 1, ${Math.ceil(n / 2)}, ${n} }) do local t = s:sub(1, at - 1) .. '\\xe9' .. s:sub(at + 1) local u, l = t:upper(), t:lower() out[#out + 1] = #u .. ':' .. u:byte(at) .. ':' .. l:byte(at) .. ':' .. select(2, u:gsub('A', '')) .. ':' .. select(2, l:gsub('b', '')) end out[#out + 1] = s:upper():sub(1, 4) .. s:lower():sub(-2) return out`,
      [
        ...[1, Math.ceil(n / 2), n].map((at) => {
          const s = "aB".repeat(n).slice(0, n)
          const t = s.slice(0, at - 1) + "\xe9" + s.slice(at)
          const count = (c: string, x: string) => [...x].filter((ch) => ch === c).length
          return `${n}:233:233:${count("a", t) + count("A", t)}:${count("b", t) + count("B", t)}`
        }),
        `${"AB".repeat(2)}${"ab".repeat(n).slice(0, n).slice(-2)}`,
      ],
    ),
  ),
]
