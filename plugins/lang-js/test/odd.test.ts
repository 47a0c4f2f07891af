/**
 * Unusual but legal programs: each either runs or fails with an ordinary diagnostic, never an internal error.
 */
import { describe, expect, it } from "vitest"
import { runJs } from "./harness.js"
import { sameAsNode } from "./node.js"

const odd: string[] = [
  "class A { static async *gen() { yield 1; yield 2 } } const r = []; for await (const x of A.gen()) r.push(x); return r",
  "const o = { async *[Symbol.asyncIterator]() { yield 'a' } }; const r = []; for await (const x of o) r.push(x); return r",
  "const r = []; for (const [a, b] of new Map([[1, 2]]).entries()) r.push(a + b); return r",
  "const base = { hi() { return 'base' } }; const o = { __proto__: base, hi() { return 'child>' + super.hi() } }; return o.hi()",
  "function F() { const arrow = () => new.target === F; return arrow() } return [new F() instanceof F, F()]",
  "class A { set x(v) { this._x = v } } class B extends A { m() { super.x = 5; return this._x } } return new B().m()",
  "class A extends null {} try { new A() } catch (e) { return e.name }",
  "const a = {}, c = []; [a.b, c[0]] = [1, 2]; return [a.b, c[0]]",
  "const k = 'dyn'; const { [k]: v, ...rest } = { dyn: 1, other: 2 }; return [v, rest]",
  "class A { m() { return 'm' } } class B extends A { call() { return super.m?.() } } return new B().call()",
  "const o = { a: { b: 1 } }; delete o?.a.b; return o",
  "const x = 1; return `outer ${`inner ${x + 1}`} end`",
  "async function* g() { try { yield 1; yield 2 } finally { order.push('cleanup') } } const order = []; const it = g(); await it.next(); await it.return('done'); return order",
  "function* g() { yield 1 } const it = g(); try { it.throw(new Error('early')) } catch (e) { return [e.message, it.next().done] }",
  "const log = []; function* g() { try { yield 1 } finally { log.push('finally') } } const it = g(); it.next(); const r = it.return(9); return [r.value, r.done, log]",
  "class A { static #p = 1; static get p() { return A.#p } static set p(v) { A.#p = v } } A.p = 5; return A.p",
  "function f(...a) { return a.length } return f(...'abc', ...[1, 2])",
  "function outer() { const inner = () => arguments[0]; return inner() } return outer('arg')",
  "const fns = []; for (const k in { a: 1, b: 2 }) fns.push(() => k); return fns.map((f) => f())",
  "const fns = []; for (let i = 0; i < 3; i++) { switch (i) { case 1: { let v = i * 10; fns.push(() => v) } } } return fns.map((f) => f())",
  "const r = []; outer: switch (1) { case 1: { for (;;) { break outer } } } r.push('after'); return r",
  "const o = { 'a b': 1, 2: 'two', [Symbol.toStringTag]: 'Custom' }; return [o['a b'], o[2], String(o)]",
  "return [, 1, , 2].length",
  "const [x = 1] = [undefined], [y = 2] = [null]; return [x, y]",
  "let i = 0; const o = { get v() { return ++i } }; const { v: a } = o, { v: b } = o; return [a, b]",
  "return ((a, b = a, [c] = [b]) => [a, b, c])(7)",
  "label1: label2: for (let i = 0; i < 3; i++) { if (i === 1) continue label1; if (i === 2) break label2 } return 'ok'",
  "const s = new Set([1]); s.forEach(function () { this.hit = true }, globalThis); return typeof hit",
  "try { null?.x.y.z; return 'no throw' } catch { return 'threw' }",
  "const a = [1, 2, 3]; for (const x of a) { if (x === 1) a.push(4) } return a",
  "class P { static create() { return new this() } } class Q extends P {} return Q.create() instanceof Q",
  "const obj = { toString() { return 'o' } }; return [obj + '', `${obj}`, obj == 'o']",
  "return typeof (function* () {}).prototype.next",
  "const f = async () => { throw new Error('async boom') }; return await f().catch((e) => e.message)",
  "return [Number('  12  '), Number('1_000'), 1_000, 0b101, 0o17, 0xff, .5, 5.].map(String)",
  "a: b: { if (true) break a; return 'not here' } c: d: { break d } return 'after'",
  "const re = /(?<word>\\w+)/g; return [...'a bc'.matchAll(re)].map((m) => m.groups.word)",
  "return Object.entries({ a: 1 }).map(([k, v]) => ({ [k + v]: true }))",
]

describe("unusual programs agree with Node", () => {
  it.each(odd)("%s", async (body) => {
    if (!body.includes("await")) return sameAsNode(body)
    const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor
    const expected = JSON.parse(JSON.stringify((await new AsyncFunction(`"use strict";\n${body}`)()) ?? null))
    const r = runJs(body)
    if (!r.outcome.ok) throw new Error(`${r.outcome.error.kind}: ${r.outcome.error.message}`)
    expect(r.value).toEqual(expected)
  })
})
