/**
 * The language: every case is a function body run both by the interpreter and by Node, which must agree.
 */
import { describe, expect, it } from "vitest"
import { evaluate } from "./harness.js"
import { sameAsNode } from "./node.js"

const cases = (name: string, bodies: string[]) =>
  describe(name, () => {
    it.each(bodies)("%s", (body) => sameAsNode(body))
  })

cases("variables and scope", [
  "let x = 1; { let x = 2 } return x",
  "const a = 1, b = a + 1; return [a, b]",
  "var v = 1; if (true) { var v = 2 } return v",
  "function f() { return typeof hoisted } var hoisted = 1; return f()",
  "return typeof later; function later() {}",
  "let s = 0; for (let i = 0; i < 5; i++) { let i2 = i * 2; s += i2 } return s",
  "const fns = []; for (let i = 0; i < 3; i++) fns.push(() => i); return fns.map(f => f())",
  "const fns = []; for (var i = 0; i < 3; i++) fns.push(() => i); return fns.map(f => f())",
  "const fns = []; for (const x of [1, 2, 3]) fns.push(() => x * 10); return fns.map(f => f())",
  "const fns = []; let i = 0; while (i < 3) { const j = i; fns.push(() => j); i++ } return fns.map(f => f())",
  "let a = 1; function f() { a = 2 } f(); return a",
  "let counter = (() => { let n = 0; return () => ++n })(); counter(); counter(); return counter()",
  "try { x; let x = 1 } catch (e) { return e.name + ': ' + e.message }",
  "try { const c = 1; c = 2 } catch (e) { return e.name }",
  "try { undefinedVariable } catch (e) { return e.name }",
  "let x = 'outer'; { const f = () => x; let x2 = 'inner'; return f() }",
  "function outer() { const v = 'o'; function inner() { return v } return inner } return outer()()",
  "const o = { x: 1 }; { const o = { x: 2 }; } return o.x",
  "let r = []; for (let i = 0; i < 3; i++) { setTimeout_ = null; r.push(i) } var setTimeout_; return r",
  "switch (1) { case 1: let y = 'one'; return y }",
  "label: { break label } return 'after'",
  "return (function () { 'use strict'; return this })() === undefined",
])

cases("operators", [
  "return [1 + 2, '1' + 2, 1 + '2', 3 - '1', '6' / 2, 7 % 3, 2 ** 10, -7 % 3]",
  "return [1 < 2, 'a' < 'b', '10' < '9', 10 < 9, null >= 0, undefined == null, NaN == NaN]",
  "return [1 == '1', 1 === '1', 0 == false, '' == 0, null == 0, [] == '', [1] == 1]",
  "return [5 & 3, 5 | 3, 5 ^ 3, ~5, 1 << 4, -16 >> 2, -16 >>> 28]",
  "return [!0, !!'', !!'x', !!{}, !![], !null]",
  "return [typeof 1, typeof 'a', typeof true, typeof undefined, typeof null, typeof {}, typeof [], typeof (() => 1), typeof Symbol()]",
  "return [typeof notDeclaredAnywhere, typeof Math, typeof class {}]",
  "let a = null; return [a ?? 'd', 0 ?? 'd', '' || 'e', 'x' && 'y', null && 1]",
  "let a; a ??= 5; let b = 1; b ||= 2; let c = 1; c &&= 3; return [a, b, c]",
  "const o = {}; o.x ??= 1; o.x ??= 2; o.y ||= 'y'; return o",
  "let i = 1; const r = [i++, i, ++i, i--, --i]; return r",
  "const o = { n: 1 }; o.n++; ++o.n; o['n'] += 10; return o.n",
  "let x = 5; x += 2; x -= 1; x *= 3; x /= 2; x %= 5; x **= 2; x <<= 1; x >>= 1; x |= 8; x &= 12; x ^= 1; return x",
  "let s = 'a'; s += 'b'; s += 1; return s",
  "return [1, 2, 3].length + (void 0 === undefined ? 1 : 0)",
  "return (1, 2, 3)",
  "return ['x' in { x: 1 }, 'y' in { x: 1 }, 0 in [5], 'length' in []]",
  "class A {} class B extends A {} const b = new B(); return [b instanceof B, b instanceof A, b instanceof Object, [] instanceof Array]",
  "const o = { a: 1, b: 2 }; delete o.a; return [Object.keys(o), delete o.zz]",
  "return [0.1 + 0.2, 1 / 3, 2 ** 0.5, -0 === 0, Object.is(-0, 0)]",
  "return ['b' + 'a' + +'a' + 'a']",
  "return [1 + null, String(1 + undefined), '5' * '2', true + 1, [] + [], [] + {}]",
  "return [10 / 0, -10 / 0].map(String)",
  "const x = { valueOf() { return 42 } }; return [x + 1, x * 2, `${x}`, x > 41]",
  "const x = { toString() { return 'str' } }; return [x + '', `${x}`, String(x)]",
  "const x = { [Symbol.toPrimitive](hint) { return hint } }; return [`${x}`, x + '', String(+x)]",
  "return [1 < 2 < 3, 3 > 2 > 1]",
  "return [null ?? undefined ?? 0, (null || undefined) ?? 'z']",
])

cases("destructuring, spread and rest", [
  "const [a, b] = [1, 2]; return [b, a]",
  "const [a, , c = 3, ...rest] = [1, 2, undefined, 4, 5]; return { a, c, rest }",
  "const { x, y: { z }, w = 'default', ...others } = { x: 1, y: { z: 2 }, p: 3, q: 4 }; return { x, z, w, others }",
  "let a = 1, b = 2; [a, b] = [b, a]; return [a, b]",
  "const o = {}; [o.first, o.second] = 'ab'; return o",
  "const { length } = 'hello'; return length",
  "function f({ a = 0, b = 2 } = {}, [c, d = 4] = [3, 4], ...more) { return [a, b, c, d, more] } return [f(), f({ a: 1 }, [5], 6, 7)]",
  "const key = 'dyn'; const { [key]: v } = { dyn: 'ok' }; return v",
  "return [...'héllo']",
  "return [...[1, 2], ...new Set([3, 3, 4]), ...new Map([[5, 6]])]",
  "const a = { x: 1, y: 2 }; return { ...a, y: 3, ...{ z: 4 }, ...null, ...undefined }",
  "function sum(...n) { return n.reduce((s, x) => s + x, 0) } return sum(...[1, 2], 3, ...[4])",
  "const [first, ...others] = new Set(['a', 'b', 'c']); return [first, others]",
  "function* g() { yield 1; yield 2; yield 3 } const [x, y] = g(); return [x, y]",
  "const { a: { b: [c] } } = { a: { b: ['deep'] } }; return c",
  "for (const [k, v] of Object.entries({ a: 1, b: 2 })) { if (k === 'b') return v }",
  "const arr = [[1, 2], [3, 4]]; return arr.map(([a, b]) => a * b)",
  "let x, y; ({ x, y = 5 } = { x: 1 }); return [x, y]",
  "const { ...copy } = { a: 1, b: [2] }; return copy",
  "const [a = 1, b = a + 1] = []; return [a, b]",
])

cases("functions and closures", [
  "function f(a, b = a * 2) { return a + b } return [f(1), f(1, 1)]",
  "const f = (x) => (y) => x + y; return f(1)(2)",
  "function f() { return arguments.length + arguments[0] } return f(10, 20, 30)",
  "function f() { return Array.from(arguments) } return f(1, 'a')",
  "function f() { return [...arguments] } return f(1, 2)",
  "const f = function named() { return typeof named }; return f()",
  "const fact = function f(n) { return n <= 1 ? 1 : n * f(n - 1) }; return fact(10)",
  "function f(a, b) {} return [f.length, ((a, b = 1, c) => 0).length, ((...r) => 0).length]",
  "function named() {} const anon = () => {}; const o = { m() {} }; return [named.name, anon.name, o.m.name]",
  "const o = { x: 1, get() { return this.x } }; const g = o.get; return [o.get(), (() => { try { return g() } catch (e) { return e.name } })()]",
  "const o = { v: 7, arrow() { return (() => this.v)() } }; return o.arrow()",
  "function f() { return this } return [f.call(5) === 5, f.apply('s') === 's', f.bind(1)() === 1]",
  "function add(a, b) { return a + b } const inc = add.bind(null, 1); return [inc(5), inc.name, inc.length]",
  "function make() { let n = 0; return { inc: () => ++n, get: () => n } } const c = make(); c.inc(); c.inc(); return c.get()",
  "const memo = {}; function fib(n) { if (n < 2) return n; if (memo[n]) return memo[n]; return memo[n] = fib(n - 1) + fib(n - 2) } return fib(80)",
  "return [1, 2, 3].map(function (x) { return x * this.k }, { k: 10 })",
  "function outer() { return inner(); function inner() { return 'hoisted' } } return outer()",
  "const f = (a, { b }, [c]) => a + b + c; return f(1, { b: 2 }, [3])",
  "return (function () { return typeof arguments })()",
  "const compose = (...fs) => (x) => fs.reduceRight((v, f) => f(v), x); return compose((x) => x + 1, (x) => x * 2)(5)",
  "function f() { return new.target === undefined } return [f(), new (function () { this.t = new.target !== undefined })().t]",
  "function Point(x, y) { this.x = x; this.y = y } Point.prototype.len = function () { return this.x + this.y }; return new Point(1, 2).len()",
  "function C() { return { custom: true } } return new C()",
  "const f = () => ({ obj: true }); return f()",
  "return ((a, b) => a + b).toString()",
  "function f(a, b) { return [a, b].map(String) } return [f(1), f(1, 2, 3), f()]",
  "const o = Object.create(function () { return 1 }); try { o() } catch (e) { return [typeof o, e.name] }",
  "let n; [2, 1].sort(function () { n = arguments.length; return 0 }); let m; [1].map(function () { m = arguments.length }); return [n, m]",
  "const add = (a, b, c) => a + b + c; const o = { m(x) { return this.k + x }, k: 1 }; return [add(1, 2, 3), o.m(2), [1, 2].map(o.m, o)]",
])

cases("control flow", [
  "let s = ''; for (let i = 0; i < 10; i++) { if (i % 2) continue; if (i > 6) break; s += i } return s",
  "let n = 0; outer: for (let i = 0; i < 5; i++) { for (let j = 0; j < 5; j++) { if (j === 3) continue outer; if (i === 3) break outer; n++ } } return n",
  "let i = 0; do { i++ } while (i < 5); return i",
  "let i = 10; do { i++ } while (false); return i",
  "let i = 0, s = 0; while (true) { if (++i > 100) break; s += i } return s",
  "const r = []; for (const k in { a: 1, b: 2, c: 3 }) r.push(k); return r",
  "const r = []; for (const i in ['x', 'y']) r.push(typeof i, i); return r",
  "class P { constructor() { this.own = 1 } } P.prototype.inherited = 2; const r = []; for (const k in new P()) r.push(k); return r",
  "const r = []; for (const ch of 'ab') r.push(ch); for (const [k, v] of new Map([['m', 1]])) r.push(k + v); return r",
  "function grade(s) { switch (true) { case s >= 90: return 'A'; case s >= 80: return 'B'; default: return 'C' } } return [95, 85, 10].map(grade)",
  "const r = []; switch (2) { case 1: r.push(1); case 2: r.push(2); case 3: r.push(3); break; case 4: r.push(4) } return r",
  "const r = []; switch ('z') { default: r.push('d'); case 'a': r.push('a') } return r",
  "function f(x) { if (x > 0) { return 'pos' } else if (x < 0) { return 'neg' } return 'zero' } return [f(1), f(-1), f(0)]",
  "return [1, 2, 3].find((x) => x > 1) ?? 'none'",
  "let s = 0; for (let i = 0, j = 10; i < j; i++, j--) s += j - i; return s",
  "let r = ''; for (;;) { r += 'x'; if (r.length === 3) break } return r",
  "const o = { a: 1 }; let x; for (x in o); return x",
  "let last; for (last of [1, 2, 3]); return last",
  "block: { if (true) break block; return 'not here' } return 'broke'",
  "let s = 0; for (const x of [1, 2, 3, 4]) { if (x === 2) continue; if (x === 4) break; s += x } return s",
  "function* nat() { let i = 0; while (true) yield i++ } const r = []; for (const n of nat()) { if (n > 4) break; r.push(n) } return r",
])

cases("exceptions", [
  "try { throw new Error('boom') } catch (e) { return [e.message, e instanceof Error, e.name] }",
  "try { throw 42 } catch (e) { return e }",
  "try { null.x } catch (e) { return e instanceof TypeError }",
  "try { (void 0)() } catch (e) { return e.constructor.name }",
  "const r = []; try { r.push('try') } finally { r.push('finally') } return r",
  "function f() { try { return 'try' } finally { return 'finally' } } return f()",
  "function f() { try { throw 1 } catch (e) { return 'caught ' + e } finally { } } return f()",
  "function f() { let r = 'a'; try { return r } finally { r = 'b' } } return f()",
  "const r = []; for (let i = 0; i < 3; i++) { try { if (i === 1) continue; r.push(i) } finally { r.push('f' + i) } } return r",
  "try { try { throw new Error('inner') } finally { } } catch (e) { return e.message }",
  "try { throw new TypeError('t') } catch ({ name, message }) { return name + ':' + message }",
  "try { JSON.parse('{bad') } catch (e) { return e.name }",
  "try { [].reduce((a, b) => a) } catch (e) { return e.name }",
  "try { new Array(-1) } catch (e) { return e.name }",
  "try { 'x'.repeat(-1) } catch (e) { return e.name }",
  "class MyError extends Error { constructor(m) { super(m); this.name = 'MyError'; this.extra = 1 } } try { throw new MyError('m') } catch (e) { return [e.name, e.message, e.extra, e instanceof MyError, e instanceof Error, String(e)] }",
  "const e = new Error('with cause', { cause: 'why' }); return e.cause",
  "try { throw undefined } catch { return 'optional binding' }",
  "function f() { try { throw new Error('x') } catch (e) { throw new RangeError('wrapped ' + e.message) } } try { f() } catch (e) { return [e.name, e.message] }",
  "let r = ''; try { r += 'a'; throw 0 } catch { r += 'b' } finally { r += 'c' } return r",
  "try { Symbol() + '' } catch (e) { return e.name }",
  "try { BigIntish() } catch (e) { return e.message.includes('BigIntish') }",
])

cases("objects and classes", [
  "const o = { a: 1, 'b-c': 2, [1 + 1]: 3, f() { return this.a } }; return [o.a, o['b-c'], o[2], o.f()]",
  "const x = 1, y = 2; return { x, y }",
  "const o = { get full() { return this.a + this.b }, set full(v) { [this.a, this.b] = v.split(' ') }, a: 'x', b: 'y' }; o.full = 'p q'; return [o.full, o.a]",
  "const o = { __proto__: { inherited: true }, own: 1 }; return [o.inherited, Object.keys(o)]",
  "const proto = { hi() { return 'hi ' + this.n } }; const o = Object.create(proto); o.n = 'z'; return o.hi()",
  "class A { constructor(x) { this.x = x } get double() { return this.x * 2 } static make() { return new A(5) } } return [A.make().double, typeof A]",
  "class A { static count = 0; id = ++A.count } new A(); new A(); return [new A().id, A.count]",
  "class A { #secret = 42; reveal() { return this.#secret } static has(o) { return #secret in o } } return [new A().reveal(), A.has(new A()), A.has({})]",
  "class A { #m() { return 'private method' } call() { return this.#m() } } return new A().call()",
  "class A { static #count = 3; static get count() { return A.#count } } return A.count",
  "class A { #v = 1; get v() { return this.#v } set v(x) { this.#v = x * 10 } } const a = new A(); a.v = 2; return a.v",
  "class Animal { speak() { return 'generic' } describe() { return `I say ${this.speak()}` } } class Dog extends Animal { speak() { return 'woof' } describe() { return super.describe() + '!' } } return new Dog().describe()",
  "class A { constructor() { this.a = 1 } } class B extends A { constructor() { super(); this.b = this.a + 1 } } return { ...new B() }",
  "class A { constructor(...args) { this.args = args } } class B extends A {} return new B(1, 2).args",
  "class A { static s() { return 'static ' + this.name } } class B extends A {} return B.s()",
  "class A { m() { return 'A' } } class B extends A { m() { return super.m() + 'B' } } class C extends B { m() { return super.m() + 'C' } } return new C().m()",
  "class Temp { static { Temp.initialized = true } } return Temp.initialized",
  "const C = class Named { who() { return Named.name } }; return new C().who()",
  "class A { ['computed' + 1]() { return 'c' } } return new A().computed1()",
  "class A { toString() { return 'A!' } } return `${new A()}`",
  "class Stack extends Array { peek() { return this[this.length - 1] } } const s = new Stack(); s.push(1, 2); return [s.peek(), s.length, Array.isArray(s)]",
  "class Counter { count = 0; inc = () => { this.count++; return this } } const c = new Counter(); const { inc } = c; inc(); inc(); return c.count",
  "try { class A { constructor() { this.x } } class B extends A { constructor() { this.y = 1; super() } } new B() } catch (e) { return e.name }",
  "try { class A {} A() } catch (e) { return e.name }",
  "const o = { a: 1 }; Object.defineProperty(o, 'hidden', { value: 2, enumerable: false }); return [Object.keys(o), o.hidden, JSON.stringify(o)]",
  "const o = Object.freeze({ a: 1 }); try { o.a = 2 } catch (e) { return [e.name, o.a] }",
  "class A { get x() { return 1 } } const a = new A(); try { a.x = 2 } catch (e) { return e.name }",
  "const o = { a: { b: { c: 1 } } }; return [o?.a?.b?.c, o?.x?.y?.z === undefined, o.a?.['b']?.c]",
  "const o = { f() { return 'called' } }; return [o.f?.(), o.g?.() ?? 'none', o?.f()]",
  "let n = null; return [n?.x, n?.[0], n?.(), n?.a.b.c.d].map(String)",
  "const o = { a: [1, 2] }; return o.a?.map((x) => x * 2)",
  "return Object.getPrototypeOf(Object.getPrototypeOf({})) === null",
  "const o = {}; o.__proto__ = { z: 26 }; return o.z",
  "return { toJSON() { return { replaced: true } } }",
  "const sym = Symbol('k'); const o = { [sym]: 1, a: 2 }; return [o[sym], Object.keys(o)]",
])

cases("strings and templates", [
  "const name = 'w'; return `hello ${name}! ${1 + 1} ${[1, 2]} ${{}.toString()}`",
  "return `multi\nline`",
  "function tag(s, ...v) { return s.raw.join('|') + v.join(',') } return tag`a${1}b${2}c`",
  "function tag(s) { return s } return tag`x` === tag`x`",
  "return String.raw`a\\nb${1}`",
  "return 'abc'[1] + 'abc'.at(-1) + 'abc'.length",
  "return `${null} ${undefined} ${true} ${[]} ${[1, [2, 3]]}`",
  "return 'emoji 😀'.length",
])

cases("generators and iterators", [
  "function* g() { const x = yield 1; yield x * 2 } const it = g(); return [it.next().value, it.next(21).value, it.next().done]",
  "function* g() { yield* [1, 2]; yield* 'ab'; return 'end' } return [...g()]",
  "function* g() { try { yield 1; yield 2 } finally { cleanup = true } } let cleanup = false; const it = g(); it.next(); it.return(5); return cleanup",
  "function* g() { try { yield 1 } catch (e) { yield 'caught ' + e } } const it = g(); it.next(); return it.throw('x').value",
  "const it = { from: 1, to: 3, [Symbol.iterator]() { let c = this.from, t = this.to; return { next: () => c <= t ? { value: c++, done: false } : { value: undefined, done: true } } } }; return [...it]",
  "function* fib() { let [a, b] = [0, 1]; while (true) { yield a; [a, b] = [b, a + b] } } const r = []; for (const f of fib()) { if (f > 50) break; r.push(f) } return r",
  "const o = { *items() { yield 'a'; yield 'b' } }; return Array.from(o.items())",
  "class Tree { constructor(v, kids = []) { this.v = v; this.kids = kids } *[Symbol.iterator]() { yield this.v; for (const k of this.kids) yield* k } } return [...new Tree(1, [new Tree(2), new Tree(3, [new Tree(4)])])]",
  "function* g() { const r = yield* inner(); yield r } function* inner() { yield 'i'; return 'ret' } return [...g()]",
  "const arr = ['a', 'b']; const it = arr[Symbol.iterator](); return [it.next(), it.next(), it.next()]",
  "return Array.from(['x', 'y'].entries())",
  "function* g() { yield 1 } const it = g(); return [typeof it.next, it[Symbol.iterator]() === it]",
  "let closed = false; const it = { [Symbol.iterator]() { return { next: () => ({ value: 1, done: false }), return() { closed = true; return {} } } } }; for (const x of it) break; return closed",
  "let closed = false; const it = { [Symbol.iterator]() { return { next: () => ({ value: 1, done: false }), return() { closed = true; return {} } } } }; const [a] = it; return [a, closed]",
])

describe("REPL-style results", () => {
  it("returns the last top-level expression", () => expect(evaluate("const a = 2; a * 21")).toBe(42))
  it("prefers an explicit return", () => expect(evaluate("1; return 2; 3")).toBe(2))
  it("turns undefined into null", () => expect(evaluate("let x = 1")).toBe(null))
  it("uses the last expression statement, not the last statement", () =>
    expect(evaluate("let r = 5; r; if (true) { 1 }")).toBe(5))
  it("awaits a final promise", () => expect(evaluate("Promise.resolve(7)")).toBe(7))
  it("supports top-level await", () => expect(evaluate("const v = await Promise.resolve(3); v + 1")).toBe(4))
  it("supports return after top-level await", () => expect(evaluate("await null; return 'done'")).toBe("done"))
  it("returns objects and arrays as data", () =>
    expect(evaluate("({ list: [1, { a: null }], empty: {}, none: [] })")).toEqual({
      list: [1, { a: null }],
      empty: {},
      none: [],
    }))
})
