/**
 * Objects that become tables from data (json.decode; tool results take the same path): arrays of objects that share
 * their keys, then objects with the same keys in another order, fewer or more keys, keys that are not ASCII, more
 * keys than a sized record holds, and tables made from them changed afterwards. Each is read back field by field and
 * encoded again (keys leave in the order they arrived).
 */
import type { Case } from "../support/case.js"

const d = (name: string, code: string, value: unknown): Case => ({ name, code, value, puc: false })

export const decoded: ReadonlyArray<Case> = [
  d(
    "objects sharing keys, then reordered, fewer, more and other keys",
    `local list = json.decode('[{"a":1,"b":2},{"a":3,"b":4},{"b":5,"a":6},{"a":7},{"a":8,"b":9,"c":10},{"x":11,"y":12},{"a":13,"b":14}]') local out = {} for i, o in ipairs(list) do out[i] = tostring(o.a) .. '/' .. tostring(o.b) .. '/' .. tostring(o.c) .. '/' .. tostring(o.x) end return { out, json.encode(list) }`,
    [
      ["1/2/nil/nil", "3/4/nil/nil", "6/5/nil/nil", "7/nil/nil/nil", "8/9/10/nil", "nil/nil/nil/11", "13/14/nil/nil"],
      '[{"a":1,"b":2},{"a":3,"b":4},{"b":5,"a":6},{"a":7},{"a":8,"b":9,"c":10},{"x":11,"y":12},{"a":13,"b":14}]',
    ],
  ),
  d(
    "keys that are not ASCII, shared by several objects",
    `local list = json.decode('[{"ключ":1,"é":2},{"ключ":3,"é":4}]') return { list[2]['ключ'], list[1]['é'], json.encode(list) }`,
    [3, 2, '[{"ключ":1,"é":2},{"ключ":3,"é":4}]'],
  ),
  d(
    "objects of nine and more keys next to small ones, changed after decoding",
    `local list = json.decode('[{"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9},{"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8},{"k1":1}]') local sums = {} for i, o in ipairs(list) do o.extra = 100 o.k1 = nil local s, c = 0, 0 for _, v in pairs(o) do s = s + v c = c + 1 end sums[i] = s .. ':' .. c end return sums`,
    ["144:9", "135:8", "100:1"],
  ),
  d(
    "long strings and keys with a character beyond ASCII at the end cross as UTF-8 both ways",
    `local long = ('x'):rep(40) local t = json.decode('{"' .. long .. 'é":"' .. ('y'):rep(600) .. 'ü"}') local k = next(t) return { #k, #t[k], t[k]:sub(-2) == 'ü', long .. 'é', (('z'):rep(700)) .. '€' }`,
    [42, 602, true, `${"x".repeat(40)}é`, `${"z".repeat(700)}€`],
  ),
  d(
    "an empty object among records stays an object",
    `local list = json.decode('[{"a":1},{},{"a":2}]') return { list[2].a == nil, json.encode(list) }`,
    [true, '[{"a":1},{},{"a":2}]'],
  ),
]
