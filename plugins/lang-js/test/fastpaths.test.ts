/**
 * The interpreter's fast paths keep the language's semantics: `o.push(x)` appended inline, branches that compare
 * their test's operands themselves, `+` of a string and a number. Each case is checked against Node.
 */
import { describe, expect, it } from "vitest"
import { failure } from "./harness.js"
import { sameAsNode } from "./node.js"

describe("o.push(x) appended at the call site", () => {
  it("returns the new length and appends in order, holes and all", () => {
    sameAsNode(
      "const a = []; const r = [a.push(1), a.push(null), a.push([2])]; const h = [1, , 3]; h.push(4); return [r, a, h.length, 1 in h, a.length]",
    )
  })

  it("calls a replaced push, on the prototype or on the array", () => {
    sameAsNode(`const seen = []
const original = Array.prototype.push
Array.prototype.push = function (x) { seen[seen.length] = "proto:" + x; return -1 }
const a = []
const r1 = a.push(1)
Array.prototype.push = original
const b = []
b.push = function (x) { seen[seen.length] = "own:" + x; return -2 }
const r2 = b.push(2)
return [r1, r2, a.length, b.length, seen]`)
  })

  it("takes the general path for array-likes, strings and arrays whose length is not plain", () => {
    sameAsNode(`const o = { length: 2, push: Array.prototype.push }
const n = o.push("x")
const args = (function () { arguments.push = Array.prototype.push; arguments.push(9); return [arguments.length, arguments[1]] })(7)
let err = ""
try { "abc".push(1) } catch (e) { err = e.constructor.name }
const fixed = Object.defineProperty([1], "length", { writable: false })
let err2 = ""
try { fixed.push(2) } catch (e) { err2 = e.constructor.name }
return [n, o.length, o[2], args, err, err2, fixed.length]`)
  })

  it("refuses to grow a frozen array with the language's TypeError", () => {
    sameAsNode(`const a = Object.freeze([1])
try { a.push(2); return "pushed" } catch (e) { return [e instanceof TypeError, a.length] }`)
  })

  it("still meets the array-length bound", () => {
    const d = failure("const a = []; a.length = 8388608; a.push(1)")
    expect(d.message).toMatch(/array|length|elements/i)
  })

  it("evaluates the receiver, then the callee, then the argument", () => {
    sameAsNode(`const log = []
const box = { get a() { log.push("recv"); return { get push() { log.push("callee"); return Array.prototype.push } } } }
box.a.push((log.push("arg"), 1))
return log`)
  })
})

describe("branches on comparisons", () => {
  it("compare numbers, strings, mixed values and objects as the operators do", () => {
    sameAsNode(`const out = []
const values = [1, 2, "10", "9", "a", NaN, null, undefined, true, -0, 0, { valueOf() { return 3 } }, [4]]
for (const x of values) for (const y of values) {
  out.push([x < y ? 1 : 0, x <= y ? 1 : 0, x > y ? 1 : 0, x >= y ? 1 : 0, x === y ? 1 : 0, x !== y ? 1 : 0].join(""))
  if (x < y) out.push("lt")
  if (x === y) out.push("eq"); else out.push("ne")
}
function g(n) { if (n < 2) return n; if (n === 5) return "five"; return g(n - 1) }
return [out.join(","), g(7), g(1), g("3")]`)
  })

  it("convert each operand once, left first", () => {
    sameAsNode(`const log = []
const a = { valueOf() { log.push("a"); return 1 } }
const b = { valueOf() { log.push("b"); return 2 } }
const r = a < b ? "yes" : "no"
if (b > a) log.push("then")
return [r, log]`)
  })
})

describe("+ of a string and a number", () => {
  it("concatenates with the number's text", () => {
    sameAsNode(
      `return ["a" + 1, 1 + "a", "x" + -0, 0.1 + "", "" + 1e21, "n" + NaN, "i" + -Infinity, 2 + 3 + "4", "4" + 2 + 3]`,
    )
  })
})

describe("sort with a comparator, run by our own TimSort", () => {
  // The comparator sees the same pairs in the same order as under Node, so logging and inconsistent comparators agree.
  const seeded = `let seed = 7
const draw = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648 }`
  it("calls a consistent comparator with Node's pairs, in Node's order", () => {
    sameAsNode(`${seeded}
const out = []
for (const n of [2, 3, 10, 33, 64, 65, 200, 1500]) {
  const a = Array.from({ length: n }, () => Math.floor(draw() * n))
  const log = []
  a.sort((x, y) => { log.push(x, y); return x - y })
  out.push([a.join(), log.length, log.join()])
}
return out`)
  })

  it("leaves Node's order for inconsistent comparators", () => {
    sameAsNode(`${seeded}
const out = []
for (const n of [5, 40, 300, 3000]) {
  const a = Array.from({ length: n }, (_, i) => (i * 7919) % 101)
  const calls = []
  out.push(a.slice().sort((x, y) => x > y).join(), a.slice().sort(() => -1).join(), a.slice().sort(() => 1).join())
  out.push(a.slice().sort((x, y) => { calls.push(x); return draw() - 0.5 }).join(), calls.join())
}
return out`)
  })

  it("sorts runs that make it gallop, stably, and toSorted alike", () => {
    sameAsNode(`const a = []
for (let i = 0; i < 2000; i++) a.push({ k: i < 1000 ? i * 2 : (i - 1000) * 2 + 1, tie: i % 3, i })
const byK = a.slice().sort((x, y) => x.k - y.k).map((o) => o.i)
const byTie = a.toSorted((x, y) => x.tie - y.tie).map((o) => o.i)
const runs = []
for (let r = 0; r < 40; r++) for (let j = 0; j < 50; j++) runs.push(r % 2 ? 5000 - r * 50 - j : r * 50 + j)
const log = []
runs.sort((x, y) => { log.push(x - y); return x - y })
return [byK.join(), byTie.join(), runs.join(), log.length, log.join()]`)
  })

  it("converts results as the language does and keeps undefined last", () => {
    sameAsNode(`const a = [3, undefined, 1, "10", null, 2, undefined, NaN]
const log = []
a.sort((x, y) => { log.push(String(x) + String(y)); return { valueOf() { return Number(x) - Number(y) } } })
return [a.map(String), log, [3, 1, 2].sort(() => NaN), [3, 1, 2].sort(() => "1")]`)
  })
})

describe("JSON with enumerable keys on Object.prototype", () => {
  it("stringifies and parses own keys only", () => {
    sameAsNode(`Object.prototype.extra = { deep: [1] }
try {
  const parsed = JSON.parse('{"x":{"y":[1,{"z":2}]},"w":3}')
  return [JSON.stringify({ a: 1, b: { c: [2, { d: 3 }] } }), JSON.stringify(parsed), Object.keys(parsed.x.y[1]), JSON.stringify({ a: 1 }, null, 2)]
} finally {
  delete Object.prototype.extra
}`)
  })
})

describe("JSON.stringify's host path for plain data", () => {
  it("writes arguments objects as objects and arrays whatever they inherit from", () => {
    sameAsNode(`function args() { return arguments }
const a = [1, [2]]
Object.setPrototypeOf(a, { x: 1 })
const b = [3]
Object.setPrototypeOf(b, new Number(4))
return [JSON.stringify(args(1, "x")), JSON.stringify({ a: args(), b: [args(2)] }), JSON.stringify(args(1), null, 1), JSON.stringify(a),
  JSON.stringify(b), JSON.stringify([args(5)], ["0"])]`)
  })

  it("runs getters once, including a class's accessor made enumerable", () => {
    sameAsNode(`const log = []
class C { get g() { log.push("g"); return 1 } }
Object.defineProperty(C.prototype, "g", { enumerable: true })
const plain = Object.setPrototypeOf(C.prototype, null)
const arr = [0]
Object.defineProperty(arr, 0, { get() { log.push("el"); return 2 }, enumerable: true })
return [JSON.stringify(plain), JSON.stringify(arr), JSON.stringify({ get h() { log.push("h"); return 3 } }), log]`)
  })
})

describe("built-ins called without an argument list", () => {
  // A call with at most three arguments reaches these built-ins' list-free entries, which see the argument count.
  it("String.fromCharCode counts its arguments, explicit undefined included", () => {
    sameAsNode(`const u = undefined
const f = String.fromCharCode
return [String.fromCharCode(), String.fromCharCode(97), String.fromCharCode(97, u), String.fromCharCode(u),
  String.fromCharCode(97, 98, 99), String.fromCharCode("98", { valueOf() { return 99 } }), f(100), String.fromCharCode(65601),
  String.fromCharCode(97, 98, 99, 100), [97, 98].map(String.fromCharCode), String.fromCharCode.length]`)
  })

  it("charAt and charCodeAt convert this and the position as the language does", () => {
    sameAsNode(`const o = { charAt: String.prototype.charAt, charCodeAt: String.prototype.charCodeAt, toString() { return "xyz" } }
const errors = []
for (const f of [String.prototype.charAt, String.prototype.charCodeAt]) { try { f(0) } catch (e) { errors.push(e.message) } }
const s = "héllo"
return [s.charAt(), s.charAt(1), s.charAt(-1), s.charAt(9), s.charAt("2"), s.charAt(1.7, 0, 0), s.charCodeAt(), s.charCodeAt(1),
  String(s.charCodeAt(99)), s.charCodeAt({ valueOf() { return 4 } }), o.charAt(1), o.charCodeAt(2), new String("ab").charAt(1),
  errors, ["ab", "cd"].map((x) => x.charCodeAt(1))]`)
  })

  it("String.prototype's methods give the same results with and without a list, and convert as the language does", () => {
    sameAsNode(`const s = "Hello, wörld, hello"
const o = { toString() { return "a-b-c" } }
const pos = { valueOf() { return 2 } }
const calls = [["indexOf", "l"], ["indexOf", "l", 5], ["indexOf", "l", pos], ["indexOf"], ["lastIndexOf", "l"], ["lastIndexOf", "l", 4],
  ["includes", "wör"], ["includes", "wör", 9], ["startsWith", "ello", 1], ["endsWith", "wörld", 12], ["slice", -5], ["slice", 2, -3],
  ["slice"], ["substring", 5, 2], ["substring", pos], ["substr", -5, 2], ["at", -1], ["at", pos], ["codePointAt", 8], ["trim"],
  ["trimStart"], ["trimEnd"], ["toUpperCase"], ["toLowerCase"], ["padStart", 22, "*-"], ["padEnd", 21], ["repeat", 2],
  ["split", ","], ["split", ",", 2], ["split"], ["split", /l+/], ["replace", "l", "L"], ["replace", /l/g, "$&$&"],
  ["replaceAll", "l", (m, i) => i], ["match", /l+/g], ["search", "w"], ["localeCompare", "Hello"], ["concat", 1, 2, 3]]
const out = []
for (const [name, ...args] of calls) {
  const f = String.prototype[name]
  const direct = args.length === 0 ? s[name]() : args.length === 1 ? s[name](args[0]) : args.length === 2 ? s[name](args[0], args[1]) : s[name](args[0], args[1], args[2])
  out.push(JSON.stringify([direct, f.apply(s, args), f.call(o, ...args)]))
}
const errors = []
for (const name of ["indexOf", "slice", "split", "replace", "toUpperCase", "padStart"]) {
  try { String.prototype[name].call(null, "x") } catch (e) { errors.push(e.constructor.name + ": " + e.message) }
  try { String.prototype[name].call(undefined) } catch (e) { errors.push(e.constructor.name + ": " + e.message) }
}
try { s.startsWith(/x/) } catch (e) { errors.push(e.constructor.name + ": " + e.message) }
const u = undefined
const conversions = [String(), String(u), String(1.5), String(null), String(Symbol("x")), String({ toString() { return "o" } }),
  String("s", 2), String([1, [2]]), [1, true].map(String), typeof new String("n"), new String("n").length]
return [out, errors, conversions, ["ab", "cd"].map((x) => x.slice(1)), String.prototype.slice.length, String.prototype.indexOf.length]`)
  })

  it("Math's functions count their arguments and convert them", () => {
    sameAsNode(`const u = undefined
const v = { valueOf() { return 2.5 } }
return [Math.max(), Math.min(), Math.max(1), Math.max(1, 2), Math.min(1, 2), Math.max(1, u), Math.min(u, 1), Math.max(1, 2, 3),
  Math.min(3, 2, 1), Math.max(0, -0), Math.min(0, -0), Math.max(NaN, 1), Math.max("3", 2), Math.min(v, 3), Math.floor(),
  Math.floor(2.5), Math.round(v), Math.abs("-3"), Math.sqrt(16, 0), [1.5, 2.5].map(Math.round), [3, 1, 2].sort(Math.min),
  [[1, 5], [7, 2]].map(([a, b]) => Math.max(a, b)), [4, 9].map(Math.max)].map((x) => (Object.is(x, -0) ? "-0" : String(x)))`)
  })
  it("Array.prototype.slice converts this and its bounds as the language does", () => {
    sameAsNode(`const a = [1, 2, , 4, 5]
const like = { length: 3, 0: "a", 2: "c", slice: Array.prototype.slice }
const order = []
const lo = { valueOf() { order.push("start"); return 1 } }
const hi = { valueOf() { order.push("end"); return -1 } }
const sliced = [a.slice(), a.slice(1), a.slice(-2), a.slice(1, undefined), a.slice(undefined, 2), a.slice(lo, hi), a.slice(1, 3, 9)]
return [sliced.map((x) => [x.length, Object.keys(x)]), like.slice(1).join(), Object.keys(like.slice(1)), Object.keys(like.slice()), order]`)
  })
})

describe("object spread copied by the host's Object.assign", () => {
  // Spread into an object literal takes the host's copy only while that is CreateDataProperty: these cases must
  // still define (never set) each property, skip internal keys and run getters in order.
  it("copies own enumerable keys and symbols in order, running getters once, defining __proto__ as data", () => {
    sameAsNode(`const log = []
const sym = Symbol("s")
const hidden = Symbol("h")
const src = { b: 1, a: 2, 2: "two", 1: "one", get g() { log.push("g"); return 3 }, [sym]: 4 }
Object.defineProperty(src, "n", { value: 5, enumerable: false })
Object.defineProperty(src, hidden, { value: 6, enumerable: false })
const o = { first: 0, ...src, last: 9 }
const p = { ...JSON.parse('{"__proto__": {"x": 1}, "y": 2}') }
const q = { get a() { return "getter" }, ...{ a: 1 } }
return [Object.keys(o), o[sym], hidden in o, "n" in o, log, Object.getPrototypeOf(p) === Object.prototype,
  Object.keys(p), p.__proto__, Object.getOwnPropertyDescriptor(q, "a").value]`)
  })

  it("defines keys that Object.prototype has as setters, read-only or frozen properties", () => {
    sameAsNode(`const log = []
Object.defineProperty(Object.prototype, "s", { set(v) { log.push("setter " + v) }, configurable: true })
const a = { ...{ s: 1 } }
delete Object.prototype.s
Object.defineProperty(Object.prototype, "ro", { value: 0, writable: false, configurable: true })
const b = { ...{ ro: 1 } }
delete Object.prototype.ro
const keep = Object.prototype.toString
Object.freeze(Object.prototype)
const c = { ...{ toString: 1, valueOf: 2 } }
return [log, Object.getOwnPropertyDescriptor(a, "s"), b.ro, c.toString, c.valueOf, keep === Object.prototype.toString]`)
  })

  it("skips what is internal to functions, built-in objects and objects inheriting from functions", () => {
    sameAsNode(`function f() {}
f.x = 1
class K { #p = 1; q = 2; static s = 3 }
const fromFn = Object.create(f)
fromFn.own = 1
Object.setPrototypeOf(fromFn, Object.prototype)
const date = new Date(0)
date.d = 1
const m = new Map([[1, 2]])
m.k = 1
function* gen() {}
const g = gen()
g.gg = 1
const out = [{ ...f }, { ...K }, { ...new K() }, { ...fromFn }, { ...date }, { ...m }, { ...g }, { ...[1, 2] }, { ..."ab" }, { ...5 }, { ...null }]
return out.map((o) => [Object.keys(o), Object.getOwnPropertySymbols(o).length])`)
  })
})

describe("object literals define their properties", () => {
  it("never run an inherited setter or stop at a read-only property, whatever the prototype", () => {
    sameAsNode(`const log = []
const withSetter = { set a(v) { log.push("set " + v) } }
const readOnly = Object.freeze({ a: 0 })
const f = function named() {}
const k = "a"
const out = [{ __proto__: withSetter, a: 1 }, { __proto__: readOnly, a: 2 }, { __proto__: readOnly, [k]: 3 },
  { __proto__: f, name: "n", length: 4 }, { __proto__: Math, PI: 3 }, { __proto__: null, a: 5 }, { __proto__: readOnly, ...{ a: 6 } }]
return [log, out.map((o) => [Object.keys(o), Object.getOwnPropertyNames(o).map((n) => o[n])])]`)
  })

  it("define over an own getter of the same literal", () => {
    sameAsNode(`const k = "a"
const o = { get a() { return "getter" }, a: 1 }
const p = { get [k]() { return "getter" }, [k]: 2 }
const q = { set a(v) {}, ...{ a: 3 } }
return [Object.getOwnPropertyDescriptor(o, "a"), Object.getOwnPropertyDescriptor(p, "a"), Object.getOwnPropertyDescriptor(q, "a")]`)
  })
})

describe("hasOwnProperty and Object.hasOwn without a descriptor", () => {
  it("answer as the language does for every kind of object", () => {
    sameAsNode(`function f(a, b) {}
const arrow = () => 1
class K { #p = 1; q = 2; static s() {} }
const sym = Symbol("s")
const o = { a: 1, [sym]: 2, 3: "x" }
const e = new Error("m")
function args() { return arguments }
const keys = ["a", "3", 3, sym, "length", "name", "prototype", "q", "s", "stack", "message", "0", "Math", "toString"]
const targets = [o, [1], f, arrow, K, new K(), Function.prototype, Object.prototype, globalThis, e, args(1), "abc", Object.create(o), Math]
const out = targets.map((t) => keys.map((k) => (Object.hasOwn(t, k) ? 1 : 0) + (Object.prototype.hasOwnProperty.call(t, k) ? 2 : 0)).join(""))
delete f.name
return [out, Object.hasOwn(f, "name"), f.hasOwnProperty("length")]`)
  })
})

describe("Object.assign by the host's copy", () => {
  it("assigns (running setters), reads getters in order, skips internal keys, and fails as the language does", () => {
    sameAsNode(`const log = []
const sym = Symbol("s")
const target = { set a(v) { log.push("set a " + v) }, kept: 0 }
const src = { b: 1, get g() { log.push("get g"); return 2 }, a: 3, [sym]: 4, 1: "one" }
const r1 = Object.assign(target, src, null, undefined, 5, "xy", [7, 8])
const r2 = Object.assign({}, JSON.parse('{"__proto__": {"inherited": 1}}'))
function f() {}
f.own = 1
const r3 = Object.assign({}, f, new Map([[1, 2]]), new Date(0))
const fn = Object.assign(function g() {}, { extra: 1 })
const arr = Object.assign([1, 2], { 0: "z", length: 3 })
let err = ""
try { Object.assign(Object.freeze({ a: 1 }), { a: 2 }) } catch (e) { err = e.constructor.name }
return [log, Object.keys(r1), r1[sym], r1.kept, Object.getPrototypeOf(r2).inherited, Object.keys(r2), Object.keys(r3), fn.extra,
  arr.join(), arr.length, err]`)
  })
})
