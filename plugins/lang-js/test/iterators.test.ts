/**
 * Built-in iterators stepped directly by for-of, spread and destructuring (array, Map, Set, string and regexp
 * iterators, generators) and `await` of values that are not promises: every program must log what Node logs.
 */
import { describe, it } from "vitest"
import { sameLogsAsNode } from "./node.js"

const iterations: string[] = [
  "const a = ['x', 'y', 'z']; for (const [i, v] of a.entries()) console.log(i, v); for (const k of a.keys()) console.log(k); console.log([...a.values()].join())",
  "const it = [1, 2, 3, 4].values(); it.next(); for (const v of it) { console.log(v); if (v === 3) break } console.log(JSON.stringify(it.next()), JSON.stringify(it.next()))",
  "const a = [1, 2]; const it = a.values(); for (const v of it) { console.log(v); a.push(v + 10); if (a.length > 4) break } console.log(a.join())",
  "const m = new Map([['a', 1], ['b', 2], ['c', 3]]); const it = m.entries(); it.next(); for (const [k, v] of it) console.log(k, v); console.log(JSON.stringify(it.next()))",
  "const m = new Map([[1, 'one']]); for (const k of m.keys()) { console.log(k); if (k < 4) m.set(k + 1, 'n') } console.log([...m.values()].join())",
  "const s = new Set([3, 1, 2]); console.log([...s.values()].join(), [...s.entries()].map((e) => e.join(':')).join(), Array.from(s.keys()).join())",
  "const [a, b, ...rest] = new Set('hello').values(); console.log(a, b, rest.join())",
  "console.log([...'a😀b'[Symbol.iterator]()].length, [...'x1y2'.matchAll(/\\d/g)].map((m) => m[0] + m.index).join())",
  "const p = Object.getPrototypeOf([][Symbol.iterator]()); p.return = function () { console.log('return called'); return {} }; for (const v of [1, 2].values()) break; const [x] = [5, 6].keys(); const [y, z] = new Set([7, 8]); console.log(x, y, z); delete p.return",
  "const p = Object.getPrototypeOf([][Symbol.iterator]()); p.return = function () { console.log('return', String(this.next().value)); return {} }; for (const v of [1, 2]) break; const [z] = [5, 6]; const [a, b] = [7, 8]; console.log(z, a, b, [...[3, 4]].length); delete p.return",
  "Object.defineProperty(Object.prototype, 'return', { configurable: true, get() { console.log('get return'); return () => { console.log('returned'); return {} } } }); for (const v of [1, 2]) break; const [z] = [5, 6]; delete Object.prototype.return; console.log(z)",
  "const p = Object.getPrototypeOf(new Map().keys()); const next = p.next; p.next = function () { const r = next.call(this); console.log('next', JSON.stringify(r)); return r }; for (const k of new Map([[1, 2]]).keys()) console.log('k', k); p.next = next; console.log('end')",
  "const it = [1, 2].values(); it.next = () => ({ done: true }); console.log([...it].length); const g = (function* () { yield 1 })(); g.next = () => ({ value: 'own', done: false, }); for (const v of g) { console.log(v); break } console.log('end')",
  "try { Object.getPrototypeOf([].values()).next.call({}) } catch (e) { console.log(e.constructor.name) } for (const v of { [Symbol.iterator]: () => new Map([[1, 1]]).values() }) console.log(v)",
]

const generators: string[] = [
  "function* range(n) { for (let i = 0; i < n; i++) yield i; return 'done' } console.log([...range(4)].join()); const [a, , c] = range(9); console.log(a, c)",
  "function* g() { try { yield 1; yield 2 } finally { console.log('finally') } } for (const v of g()) { console.log(v); break } const it = g(); for (const v of it) { console.log(v); break } console.log(JSON.stringify(it.next()))",
  "function* g() { yield 1; throw new Error('inside') } try { for (const v of g()) console.log(v) } catch (e) { console.log('caught', e.message) }",
  "function* g() { const x = yield 1; console.log('got', String(x)); yield 2 } const it = g(); it.next(); for (const v of it) console.log('v', v); console.log(JSON.stringify(it.next()))",
  "function* g() { yield* [1, 2]; yield 3 } const it = g(); console.log(it.next().value); console.log([...it].join(), [...it].length)",
  "function* inner() { try { yield 'a'; yield 'b' } finally { console.log('inner finally') } } function* outer() { for (const x of inner()) yield x.toUpperCase() } for (const v of outer()) { console.log(v); break }",
  "function* g() { yield 1; for (const x of g2) console.log('nested', x) } let g2; const it = g(); g2 = it; it.next(); try { it.next() } catch (e) { console.log(e.constructor.name, e.message) }",
]

const awaits: string[] = [
  "let reads = 0; const o = { get then() { reads++; return undefined } }; (async () => { const v = await o; console.log('reads', reads, v === o) })(); Promise.resolve().then(() => console.log('p1')).then(() => console.log('p2'))",
  "const o = { get then() { throw new Error('bad then') } }; (async () => { try { await o } catch (e) { console.log('caught', e.message) } })(); Promise.resolve().then(() => console.log('p1')).then(() => console.log('p2'))",
  "let n = 0; const t = { get then() { n++; return (r) => r('t' + n) } }; (async () => console.log(await t, n))(); Promise.resolve().then(() => console.log('a')).then(() => console.log('b')).then(() => console.log('c'))",
  "(async () => { for (const v of [1, 'x', null, undefined, Symbol.iterator, { a: 1 }, [1], () => 1]) console.log(typeof (await v)) })(); (async () => { for (let i = 0; i < 5; i++) { await i; console.log('other', i) } })()",
  "function F() {} F.prototype.then = 5; (async () => { const f = new F(); console.log((await f) === f) })(); Promise.resolve().then(() => console.log('m'))",
  "const x = await (async () => { try { return x } catch (e) { return e.constructor.name } })(); console.log(x); let a = await 1, b = (await a) + 1; var c = await b; console.log(a, b, c)",
  "function* g() { yield; yield g.name; const y = yield 3; console.log('y', y) } const it = g(); console.log(JSON.stringify([it.next(), it.next(), it.next(), it.next('sent'), it.next()]))",
  "async function f() { await null; await 1; console.log('f done') } f(); (async () => { const r = await 'v'; console.log(r); await r; console.log('second') })(); Promise.resolve().then(() => console.log('p1')).then(() => console.log('p2'))",
  "const fn = () => 1; fn.then = (r) => r('from fn then'); (async () => console.log(await fn))(); Promise.resolve().then(() => console.log('x')).then(() => console.log('y'))",
]

describe("built-in iterators stepped directly match Node", () => {
  it.each(iterations)("%s", async (program) => {
    await sameLogsAsNode(program)
  })
})

describe("generators in for-of, spread and destructuring match Node", () => {
  it.each(generators)("%s", async (program) => {
    await sameLogsAsNode(program)
  })
})

describe("await of values that are not promises matches Node", () => {
  it.each(awaits)("%s", async (program) => {
    await sameLogsAsNode(program)
  })
})
