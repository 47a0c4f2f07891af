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

  it("construct with list-free entries: base and derived classes, functions, default constructors, any count", () => {
    sameAsNode(`class A { constructor(x, y) { this.s = [x, y] } }
class B extends A { constructor(x) { super(x, x === undefined ? "none" : x * 2); this.b = new.target.name } }
class C extends B {}
class D extends A {}
class R { constructor(...r) { this.n = r.length } }
class S extends R {}
class T extends R { constructor(a) { super(a, a) } }
class P { #x; y = 1; constructor(x = 5, { z } = { z: 9 }) { this.#x = x; this.z = z } get x() { return this.#x } }
class Q extends P { w = this.y + 1; constructor(a, b, c) { super(a); this.abc = [a, b, c] } }
function F(a, b, c) { this.t = [a, b, c] }
function G(a, b, c, d) { this.t = [a, b, c, d] }
function H() { return { own: arguments.length } }
const q = new Q(1, 2)
return JSON.stringify([new A(1, 2), new B(5), new B(), new C(7), new C(), new D(1, 2, 3), new S().n, new S(1).n, new S(1, 2, 3).n,
  new S(1, 2, 3, 4).n, new T(4).n, [q.x, q.y, q.w, q.z, q.abc], [new P().x, new P(2, { z: 3 }).z], new F(1), new F(1, 2, 3),
  new G(1, 2, 3, 4), new H(1, 2), Object.getPrototypeOf(new C(1)) === C.prototype, new C(1) instanceof A,
  Reflect.construct(B, [3], C) instanceof C], (k, v) => (v === undefined ? "undefined" : v))`)
  })

  it("report construction errors from list-free entries as Node does", () => {
    sameAsNode(`const out = []
const attempt = (f) => { try { out.push(String(f())) } catch (e) { out.push(e.constructor.name + ": " + e.message) } }
class A { constructor(v) { return v } }
class B extends A { constructor(v) { super(v) } }
class Twice extends Object { constructor() { super(); super() } }
class Early extends A { constructor(v) { this.x = v; super(v) } }
class Never extends A { constructor() {} }
class Num extends A { constructor() { super(); return 5 } }
const o = Object.create(function F(a) { this.a = a })
const arrow = (a) => a
const order = []
const log = (x) => { order.push(x); return x }
attempt(() => new B({ k: 1 }).k)
attempt(() => new B(3) instanceof B)
attempt(() => new Twice())
attempt(() => new Early(1))
attempt(() => new Never())
attempt(() => new Num())
attempt(() => new o(1))
attempt(() => new arrow(1))
attempt(() => new (log(arrow))(log(1), log(2)))
attempt(() => new Math.max(1, 2))
attempt(() => { class E extends B {} Object.setPrototypeOf(E, Object.create(null)); try { new E(1) } catch (e) { return e.constructor.name } })
return [out, order.map(String)]`)
  })

  it("pass four to six arguments as the callee's environment, and any other count or callee the usual way", () => {
    sameAsNode(`function four(a, b, c, d) { a = a * 10; const get = () => [a, b, c, d]; d = "late"; return get() }
function six(a, b, c, d, e, f) { return [a, b, c, d, e, f] }
function withLocal(a, b, c, d) { let x = a + d; return x }
function hanoi(n, from, to, via) { return n === 0 ? 0 : hanoi(n - 1, from, via, to) + 1 + hanoi(n - 1, via, to, from) }
function count(a, b, c, d) { return arguments.length }
const obj = { m(a, b, c, d) { return this === obj && a + b + c + d } }
const mx = Math.max
const bound = six.bind(null, 1)
const order = []
const log = (x) => { order.push(x); return x }
let err = ""
try { const notFn = 5; notFn(log(1), log(2), log(3), log(4)) } catch (e) { err = e.constructor.name + ": " + e.message }
return JSON.stringify([four(1, 2, 3, 4), four(1, 2, 3), four(1, 2, 3, 4, 5), six(1, 2, 3, 4, 5, 6), six(1, 2, 3, 4), six(1, 2, 3, 4, 5),
  six(1, 2, 3, 4, 5, 6, 7), withLocal(1, 2, 3, 4), hanoi(10, 1, 2, 3), count(1, 2, 3, 4), count(1, 2, 3, 4, 5, 6), obj.m(1, 2, 3, 4),
  mx(1, 9, 3, 4), mx(1, 2, 3, 4, 8, 6), bound(2, 3, 4, 5), err, order], (k, v) => (v === undefined ? "undefined" : v))`)
  })
})
