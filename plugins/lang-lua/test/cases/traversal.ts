/**
 * Programs aimed at traversals of large string-keyed tables, which keep the list of their keys between traversals
 * while no key is added or removed: every way a key set can change between two traversals (a key added, one
 * removed, one removed and another added so the count stays the same, keys cleared during a traversal), several
 * tables traversed in turn, values changed during a traversal, and `next` loops. Every result is independent of the
 * traversal order (which PUC Lua does not share).
 */
import { v, type Case } from "../support/case.js"

/** Sum of the values, count of the keys and a sum over key lengths of `t`, by `pairs`. */
const census =
  "local function census(t) local s, c, h = 0, 0, 0 for k, x in pairs(t) do s = s + x c = c + 1 h = h + #k * x end return s .. ':' .. c .. ':' .. h end "

/** The same census, by a `while` loop over `next`. */
const nextCensus =
  "local function ncensus(t) local s, c, h = 0, 0, 0 local k, x = next(t) while k ~= nil do s = s + x c = c + 1 h = h + #k * x k, x = next(t, k) end return s .. ':' .. c .. ':' .. h end "

/** `local t` with string keys `k1` .. `kn` holding 1 .. n. */
const big = (n: number, name = "t") => `local ${name} = {} for i = 1, ${n} do ${name}["k" .. i] = i end `

export const traversal: ReadonlyArray<Case> = [
  ...[31, 32, 33, 200].map((n) =>
    v(
      `${n} string keys: traversed again after a key is added, one removed, one replaced by another`,
      `${census}${big(n)}local a = census(t) local a2 = census(t) t.extra = 1000 local b = census(t) t.k1 = nil local c = census(t) t.k2 = nil t.other = 7 local d = census(t) t.k2 = 2 t.other = nil local e = census(t) return { a, a2, b, c, d, e }`,
      (() => {
        const c = (keys: Array<[string, number]>) =>
          `${keys.reduce((s, [, x]) => s + x, 0)}:${keys.length}:${keys.reduce((s, [k, x]) => s + k.length * x, 0)}`
        const base: Array<[string, number]> = Array.from({ length: n }, (_, i) => [`k${i + 1}`, i + 1])
        const b: Array<[string, number]> = [...base, ["extra", 1000]]
        const cc = b.filter(([k]) => k !== "k1")
        const d: Array<[string, number]> = [...cc.filter(([k]) => k !== "k2"), ["other", 7]]
        const e: Array<[string, number]> = [...cc]
        return [c(base), c(base), c(b), c(cc), c(d), c(e)]
      })(),
    ),
  ),
  v(
    "values changed during traversals of a large table are seen by the next traversal",
    `${census}${big(100)}for r = 1, 5 do for k, x in pairs(t) do t[k] = x + r end end return census(t)`,
    `${5050 + 1500}:100:${Array.from({ length: 100 }, (_, i) => `k${i + 1}`.length * (i + 1 + 15)).reduce((a, b) => a + b, 0)}`,
  ),
  v(
    "a large table cleared during its traversal, then refilled with other keys",
    `${census}${big(64)}census(t) for k in pairs(t) do t[k] = nil end local empty = next(t) == nil for i = 1, 40 do t["z" .. i] = i end return { empty, census(t) }`,
    [true, `820:40:${Array.from({ length: 40 }, (_, i) => `z${i + 1}`.length * (i + 1)).reduce((a, b) => a + b, 0)}`],
  ),
  v(
    "half the keys cleared during a traversal, the rest counted again",
    `${census}${big(80)}local i = 0 for k in pairs(t) do i = i + 1 if i % 2 == 0 then t[k] = nil end end local s, c = 0, 0 for _, x in pairs(t) do s = s + x c = c + 1 end return { c, s == 3240 - s or s > 0 }`,
    [40, true],
  ),
  v(
    "two large tables traversed in turn while keys of one are removed and added",
    `${census}${big(50, "a")}${big(70, "b")}local out = {} for r = 1, 4 do out[#out + 1] = census(a) out[#out + 1] = census(b) a["k" .. r] = nil b["n" .. r] = r end return out`,
    (() => {
      const c = (keys: Array<[string, number]>) =>
        `${keys.reduce((s, [, x]) => s + x, 0)}:${keys.length}:${keys.reduce((s, [k, x]) => s + k.length * x, 0)}`
      let a: Array<[string, number]> = Array.from({ length: 50 }, (_, i) => [`k${i + 1}`, i + 1])
      let b: Array<[string, number]> = Array.from({ length: 70 }, (_, i) => [`k${i + 1}`, i + 1])
      const out: Array<string> = []
      for (let r = 1; r <= 4; r++) {
        out.push(c(a), c(b))
        a = a.filter(([k]) => k !== `k${r}`)
        b = [...b, [`n${r}`, r]]
      }
      return out
    })(),
  ),
  v(
    "next loops over a large table between changes to its keys",
    `${nextCensus}${census}${big(40)}local a = ncensus(t) t.k40 = nil t.k41 = 41 local b = ncensus(t) for k in pairs(t) do t[k] = nil break end local c = ncensus(t) == census(t) return { a, b, c }`,
    [
      `820:40:${Array.from({ length: 40 }, (_, i) => `k${i + 1}`.length * (i + 1)).reduce((a, b) => a + b, 0)}`,
      `821:40:${Array.from({ length: 40 }, (_, i) => `k${i === 39 ? 41 : i + 1}`.length * (i === 39 ? 41 : i + 1)).reduce((a, b) => a + b, 0)}`,
      true,
    ],
  ),
]
