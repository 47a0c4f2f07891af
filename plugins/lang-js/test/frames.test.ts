/**
 * Fast call frames (`src/compiler/frames.ts`) keep the language's semantics for every kind of function they take:
 * any number of slots and parameters, TDZ bindings captured by closures, hoisted declarations, named function
 * expressions, `super` methods, constructors, callbacks of the array built-ins. Each case is checked against Node.
 */
import { describe, it } from "vitest"
import { sameAsNode } from "./node.js"

describe("fast call frames", () => {
  it("bind parameters and locals of functions of every size, called with fewer or more arguments", () => {
    sameAsNode(`function small(a) { return [a] }
function wide(a, b, c, d, e) { var x; let y = a; return [a, b, c, d, e, x, y] }
function big(a, b) { var v1 = 1, v2, v3 = 3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13 = a; return [v1, v2, v3, v13, b, v12] }
const seven = (a, b, c, d, e, f, g) => [a, g, f]
const show = (k, v) => (v === undefined ? "undefined" : v)
return JSON.stringify([small(), small(1, 2), wide(1), wide(1, 2, 3, 4, 5, 6), big(7), big(7, 8, 9),
  seven(1, 2, 3, 4, 5, 6, 7, 8), wide.apply(null, [9, 8, 7, 6, 5, 4]), big.call(null, "a", "b")], show)`)
  })

  it("keep the temporal dead zone of bindings captured by closures", () => {
    sameAsNode(`function f(n) {
  const read = () => value
  let first
  try { first = read() } catch (e) { first = e.constructor.name }
  const value = n * 2
  return [first, read()]
}
function g(x) { const h = () => y + x; const y = 10; return h() }
return [f(1), f(2), g(5)]`)
  })

  it("instantiate hoisted declarations, even over a parameter of the same name", () => {
    sameAsNode(`function outer(a, b) { return [inner(a), typeof b, b === inner2]; function inner(x) { return x + 1 } function b() {} }
function inner2() {}
function shadow(f) { function f() { return "declared" } return f() }
return [outer(1, 2), shadow(() => "argument")]`)
  })

  it("bind a named function expression's own name, and new.target", () => {
    sameAsNode(`const fact = function self(n) { return n <= 1 ? 1 : n * self(n - 1) }
function T(x) { this.x = x; this.called = new.target === undefined ? "call" : "new" }
const o = {}
T.call(o, 1)
const t = new T(2)
return [fact(6), o, t.x, t.called, Object.getPrototypeOf(t) === T.prototype]`)
  })

  it("give methods their home object for super, and classes their instance fields before the parameters", () => {
    sameAsNode(`const base = { hi(n) { return "base " + n } }
const child = { __proto__: base, hi(n) { return super.hi(n) + "!" } }
const order = []
class P { a = order.push("field"); constructor(x, y = order.push("default")) { order.push("body"); this.s = x + y } sum(k) { return this.s + k } }
const p = new P(1)
class Q { constructor(x) { this.x = x } get double() { return this.x * 2 } }
return [child.hi(3), p.sum(1), order, new Q(4).double, p instanceof P]`)
  })

  it("give a fresh environment per call and keep each closure's captures", () => {
    sameAsNode(`function counter(start) { let n = start; return { inc: () => ++n, get: function () { return n } } }
const a = counter(1), b = counter(10)
a.inc(); a.inc(); b.inc()
const fs = []
for (let i = 0; i < 3; i++) fs.push(() => i)
function make(k) { return function (x) { return x + k } }
return [a.get(), b.get(), fs.map((f) => f()), [1, 2].map(make(5)), make(1)(make(2)(3))]`)
  })

  it("pass reduce's four arguments to built-ins and to functions that read them", () => {
    sameAsNode(`const seen = []
const r1 = [1, 2, 3].reduce((acc, v, i) => acc + v * i, 0)
const r2 = [1, 2, 3].reduce(function (acc, v, i, arr) { seen.push(arr.length); return acc + v })
const r3 = [1, 2, 3].reduce(function () { return arguments.length })
const r4 = [5, 1, 4].reduce(Math.max)
const r5 = [5, 1, 4].reduceRight((a, b) => a - b)
const r6 = [[1], [2]].reduce((acc, x, ...rest) => acc.concat(x, rest.length), [])
return [r1, r2, r3, String(r4), r5, r6, seen]`)
  })

  it("bind patterns and defaults in order, with their scope and TDZ", () => {
    sameAsNode(`const errors = []
const attempt = (f) => { try { return f() } catch (e) { errors.push(e.constructor.name); return "threw" } }
function d(a, b = a + 1, { c = b * 2, ...rest } = {}) { return [a, b, c, rest] }
function early(a = b, b = 1) { return [a, b] }
function scoped(x, f = () => x) { var x = 5; return [x, f()] }
function hoisted(a = 1) { return g(); function g() { return a + 10 } }
function self({ n } = {}, k = this && this.k) { return [n, k] }
class P { constructor({ x, y } = { x: 1, y: 2 }, [z] = [3]) { this.s = x + y + z } }
const pairs = Object.entries({ a: 1, b: 2 }).map(([k, v], i) => k + v + i)
return [d(1), d(1, 5, { c: 0, e: 9 }), attempt(() => early()), early(7), scoped(1), hoisted(), self.call({ k: 4 }, { n: 3 }),
  new P().s, new P({ x: 10, y: 20 }, [30]).s, pairs, attempt(() => (({ a }) => a)()), attempt(() => (([a]) => a)(null)),
  [{ p: 1 }, { p: 2 }].map(({ p }) => p * 2), errors]`)
  })

  it("run getters, setters and Function.prototype.call through the list-free entries", () => {
    sameAsNode(`class C { #v = 1; get v() { return this.#v } set v(x) { this.#v = x * 2 } }
const c = new C()
c.v = 5
const o = { n: 1, get twice() { return this.n * 2 }, set twice(x) { this.n = x } }
o.twice = 21
const d = {}
Object.defineProperty(d, "r", { get: Math.random === Math.random ? () => "arrow" : null })
function f(a, b, c) { return [this === undefined ? "none" : this.k, String(a), String(b), String(c), arguments.length] }
function g(a, b) { return [this.k, a, String(b)] }
const t = { k: "t" }
let err = ""
try { Function.prototype.call.call(1, t) } catch (e) { err = e.constructor.name }
return [c.v, o.twice, o.n, d.r, f.call(), f.call(t), f.call(t, 1), f.call(t, 1, 2), f.call(t, 1, 2, 3), g.call(t, 1),
  Object.prototype.hasOwnProperty.call({ x: 1 }, "x"), Math.max.call(null, 1, 9, 3), String.prototype.slice.call("abcd", 1, 3),
  err]`)
  })

  it("name anonymous functions of declarations, and not those in a conditional", () => {
    sameAsNode(`const f = () => 1, g = function () {}, k = class {}, c = true ? function () {} : 0, d = false ? 0 : class {}
let x = 1, y = x + 1, z = y
const s = "s", n = null
return [f.name, g.name, k.name, c.name, d.name, x, y, z, s, n]`)
  })

  it("bind rest parameters and long pattern lists (through the general setup)", () => {
    sameAsNode(`const sum = (...xs) => xs.reduce((a, b) => a + b, 0)
function head(a, { b } = { b: 2 }, ...rest) { return [a, b, rest] }
function four(a = 1, [b] = [2], { c } = { c: 3 }, d = a + b + c) { return [a, b, c, d] }
class R { constructor(...parts) { this.parts = parts } }
function later(x = 1, ...ys) { return f(); function f() { return [x, ys.length] } }
return [sum(), sum(1, 2, 3), head(0), head(0, { b: 5 }, 6, 7), four(), four(9, [8]), new R(1, 2).parts, later(), later(4, 5, 6)]`)
  })

  it("run leading guard clauses before the rest of a body", () => {
    sameAsNode(`const seen = []
function walk(t) { if (t === null) return; if (t.skip) { return } seen.push(t.v); walk(t.l); walk(t.r) }
walk({ v: 1, l: { v: 2, l: null, r: null }, r: { v: 3, skip: true, l: null, r: null } })
function f(n) { if (n < 0) return "neg"; function g() { return n * 2 } if (n === 0) return "zero"; const m = g(); if (m > 10) { return "big" } return m }
function early(x) { if (x) return later; let later = 1; return later }
let err = ""
try { early(true) } catch (e) { err = e.constructor.name }
function loop(n) { if (n > 3) return "many"; for (let i = 0; i < n; i++) if (i === 1) return "one" }
return [seen, f(-1), f(0), f(2), f(9), early(false), err, loop(5), loop(2), String(loop(1))]`)
  })
})
