/**
 * Built-ins: each case is a function body run by the interpreter and by Node, which must agree.
 */
import { describe, expect, it } from "vitest"
import { evaluate, runJs } from "./harness.js"
import { sameAsNode } from "./node.js"

const cases = (name: string, bodies: string[]) =>
  describe(name, () => {
    it.each(bodies)("%s", (body) => sameAsNode(body))
  })

cases("Object", [
  "return Object.keys({ b: 1, a: 2, 1: 'x', 0: 'y' })",
  "return Object.values({ a: 1, b: [2] })",
  "return Object.entries({ a: 1, b: 2 })",
  "return Object.fromEntries([['a', 1], ['b', 2]])",
  "return Object.fromEntries(new Map([['m', 1]]))",
  "return Object.assign({ a: 1 }, { b: 2 }, null, { a: 3 })",
  "const o = Object.create({ p: 1 }, { own: { value: 2, enumerable: true } }); return [o.p, o.own, Object.keys(o)]",
  "return Object.getPrototypeOf(Object.create(null)) === null",
  "const o = {}; Object.defineProperty(o, 'x', { get() { return 5 }, enumerable: true }); return [o.x, Object.keys(o)]",
  "const o = Object.defineProperties({}, { a: { value: 1, enumerable: true }, b: { value: 2 } }); return [Object.keys(o), o.b]",
  "const d = Object.getOwnPropertyDescriptor({ a: 1 }, 'a'); return d",
  "const o = { get g() { return 1 } }; const d = Object.getOwnPropertyDescriptor(o, 'g'); return [typeof d.get, d.set === undefined, d.enumerable]",
  "return Object.getOwnPropertyNames({ a: 1, b: 2 })",
  "return Object.getOwnPropertyNames([1, 2])",
  "const o = Object.freeze({ a: { b: 1 } }); o.a.b = 2; return [Object.isFrozen(o), o.a.b]",
  "const o = Object.seal({ a: 1 }); o.a = 2; return [Object.isSealed(o), o.a, Object.isExtensible(o)]",
  "return [Object.is(NaN, NaN), Object.is(0, -0), Object.is('a', 'a')]",
  "return [Object.hasOwn({ a: 1 }, 'a'), Object.hasOwn({ a: 1 }, 'toString'), ({ a: 1 }).hasOwnProperty('a')]",
  "return [Object.prototype.toString.call([]), Object.prototype.toString.call(null), Object.prototype.toString.call(new Date(0)), Object.prototype.toString.call(/x/), String({})]",
  "const o = { a: 1 }; return [o.propertyIsEnumerable('a'), Object.prototype.isPrototypeOf.call(Object.prototype, o)]",
  "const proto = {}; const o = Object.setPrototypeOf({}, proto); return Object.getPrototypeOf(o) === proto",
  "return Object.entries('ab')",
  "return Object.keys(new Map([[1, 2]]))",
  "return JSON.stringify(Object.getOwnPropertyDescriptors({ a: 1 }))",
  "return [Object(1) instanceof Number, typeof Object('s'), Object('s').length]",
  "return ({}).constructor === Object && [].constructor === Array && (() => 1).constructor === Function",
])

cases("Array", [
  "return [Array.isArray([]), Array.isArray({ length: 0 }), Array.of(1, 2), Array.from('ab'), Array.from({ length: 3 }, (_, i) => i * 2)]",
  "return [new Array(3).length, new Array(1, 2), Array(2).fill(0)]",
  "const a = [1, 2, 3]; return [a.push(4), a.pop(), a.shift(), a.unshift(0, 1), a]",
  "const a = [1, 2, 3, 4, 5]; const removed = a.splice(1, 2, 'x', 'y', 'z'); return [removed, a]",
  "return [[1, 2, 3].slice(1), [1, 2, 3].slice(-2), [1, 2, 3].slice(0, -1), [1, 2].concat([3], 4, [[5]])]",
  "return [[1, 2, 3].indexOf(2), [1, 2, 3].lastIndexOf(3), [NaN].indexOf(NaN), [NaN].includes(NaN), [1, 2].includes(3)]",
  "return [[1, 2, 3].join('-'), [1, [2, [3]]].join(), [null, undefined, 1].join(','), String([1, 2])]",
  "return [3, 1, 2].sort()",
  "return [10, 9, 1, 100].sort()",
  "return [10, 9, 1, 100].sort((a, b) => a - b)",
  "return ['b', 'a', 'c'].sort().reverse()",
  "return [{ n: 2 }, { n: 1 }, { n: 2, s: 1 }].sort((a, b) => a.n - b.n)",
  "return [3, undefined, 1].sort().map(String)",
  "const a = [3, 1, 2]; const s = a.toSorted(); return [a, s, a.toReversed(), a.with(0, 9), a.toSpliced(1, 1)]",
  "return [1, 2, 3, 4].filter((x) => x % 2 === 0).map((x) => x * 10).reduce((s, x) => s + x, 0)",
  "return [[1, 2], [3]].reduceRight((acc, x) => acc.concat(x), [])",
  "return [[1, [2, [3, [4]]]].flat(), [[1, [2, [3, [4]]]]].flat(Infinity), [1, 2].flatMap((x) => [x, x * 2])]",
  "return [[1, 2, 3].find((x) => x > 1), [1, 2, 3].findIndex((x) => x > 5), [1, 2, 3].findLast((x) => x < 3), [1, 2, 3].findLastIndex((x) => x === 1)]",
  "return [[1, 2].some((x) => x > 1), [1, 2].every((x) => x > 1), [].every(() => false), [].some(() => true)]",
  "const r = []; [1, , 3].forEach((x, i) => r.push(i)); return r",
  "return [[1, 2, 3].at(-1), [1, 2, 3].at(5) === undefined, [1, 2, 3, 4].copyWithin(0, 2), [1, 2, 3].fill(0, 1)]",
  "return Array.from([1, 2, 3].keys()).concat(Array.from([7, 8].values()))",
  "const a = [1, 2]; a.length = 1; a[3] = 4; return [a.length, 1 in a, 2 in a]",
  "return [[].concat.call([1], [2]), Array.prototype.map.call('abc', (c) => c.toUpperCase())]",
  "return Array.from(new Set([1, 2, 2, 3])).map((x) => x * x)",
  "return [1, 2, 3, 4, 5].slice(1, 4).reverse().join('')",
  "const a = Array.from({ length: 5 }, (_, i) => i); return [a.indexOf(3, 4), a.includes(0, 1), a.lastIndexOf(4, -2)]",
  "return [['a', 1], ['b', 2]].map(([k, v]) => k + v)",
  "return [5, 1, 4].map(String).sort().join()",
  "return [10, '9', -0, 0, 1e21, 1e-7, NaN, -Infinity, 'b', 'B', 'é', '\\ud83d\\ude00', '\\uffff', '', 2.5, -1].sort().map((x) => (Object.is(x, -0) ? '-0' : String(x)))",
  "return Array.from([3, 'x', , undefined, '1', 2].sort(), String).concat(Array.from([, 'b', 'a', 10, 9].toSorted(), String))",
  "return [2, { toString: () => '10' }, '3', 1].sort().map(String)",
  "const words = ['banana', 'Apple', 'cherry']; return words.sort((a, b) => a.toLowerCase() < b.toLowerCase() ? -1 : 1)",
  "return [1, 2, 3].entries().next().value",
  "return Array.prototype.slice.call({ 0: 'a', 1: 'b', length: 2 })",
])

cases("String", [
  "return ['Hello'.toUpperCase(), 'Hello'.toLowerCase(), ' x '.trim(), ' x '.trimStart(), ' x '.trimEnd()]",
  "return ['abc'.padStart(5, '-'), 'abc'.padEnd(6, '12'), 'ab'.repeat(3), 'abc'.at(-1)]",
  "return ['a,b,,c'.split(','), 'abc'.split(''), 'a1b2c3'.split(/\\d/), 'a b  c'.split(/\\s+/), 'abc'.split(',', 1)]",
  "return ['hello world'.indexOf('o'), 'hello world'.lastIndexOf('o'), 'hello'.includes('ell'), 'hello'.startsWith('he'), 'hello'.endsWith('lo', 5)]",
  "return ['abcdef'.slice(1, 3), 'abcdef'.slice(-2), 'abcdef'.substring(4, 1), 'abcdef'.substr(2, 2)]",
  "return ['x-y-z'.replace('-', '+'), 'x-y-z'.replaceAll('-', '+'), 'x-y-z'.replace(/-/g, '_'), 'aaa'.replace(/a/g, (m, i) => i)]",
  "return 'John Smith'.replace(/(\\w+)\\s(\\w+)/, '$2, $1')",
  "return '2024-01-15'.replace(/(?<y>\\d+)-(?<m>\\d+)-(?<d>\\d+)/, '$<d>/$<m>/$<y>')",
  "return 'price: 10 and 20'.match(/\\d+/g)",
  "const m = 'key=value'.match(/(\\w+)=(\\w+)/); return [m[0], m[1], m[2], m.index]",
  "return [...'a1b2c3'.matchAll(/[a-z](\\d)/g)].map((m) => m[1] + '@' + m.index)",
  "return ['abc'.search(/c/), 'abc'.charAt(1), 'abc'.charCodeAt(1), 'abc'.codePointAt(0), '😀'.codePointAt(0)]",
  "return [String.fromCharCode(72, 105), String.fromCodePoint(128512), 'a'.concat('b', 1)]",
  "return ['ä'.normalize('NFD').length, 'b'.localeCompare('a'), 'a'.localeCompare('b'), 'a'.localeCompare('a')]",
  "return [String(null), String(123), String(true), String([1, 2]), String({}), String(Symbol('s'))]",
  "return ['abc' < 'abd', 'B' < 'a', '10' > '9']",
  "return Array.from('ab😀').length",
  "return 'Title Case Me'.split(' ').map((w) => w[0].toLowerCase() + w.slice(1)).join('_')",
  "return `${'x'.padStart(3)}|`",
  "return 'a-b_c d'.replace(/[-_ ]/g, (c) => ({ '-': '1', _: '2', ' ': '3' })[c])",
  "return 'camelCaseString'.replace(/([A-Z])/g, ' $1').toLowerCase()",
  "return 'aXbX'.split('X')",
  "return 'abc'.replace('b', '$&$&')",
  "return ['x'.isWellFormed(), 'abc'.toString(), new String('s').valueOf()]",
])

cases("Number, Boolean and Math", [
  "return [Number('42'), Number(''), Number('0x10'), Number(' 12 '), Number(null), Number([5])]",
  "return [parseInt('42px'), parseInt('ff', 16), parseInt('101', 2), parseFloat('3.14abc'), parseInt('  -7')]",
  "return [(1234.5678).toFixed(2), (0.000001234).toPrecision(2), (123456).toExponential(2), (255).toString(16), (255).toString(2)]",
  "return [Number.isInteger(5), Number.isInteger(5.5), Number.isSafeInteger(2 ** 53), Number.isFinite('5'), isFinite('5'), Number.isNaN('x'), isNaN('x')]",
  "return [Number.MAX_SAFE_INTEGER, Number.EPSILON > 0, Number.MIN_VALUE > 0]",
  "return [Math.max(1, 5, 3), Math.min(1, -5), Math.max(), Math.min()].map(String)",
  "return [Math.round(2.5), Math.round(-2.5), Math.floor(-1.5), Math.ceil(1.1), Math.trunc(-4.7), Math.sign(-3)]",
  "return [Math.abs(-3), Math.sqrt(16), Math.cbrt(27), Math.pow(2, 8), Math.hypot(3, 4), Math.log2(8), Math.log10(1000)]",
  "return [Math.PI.toFixed(5), Math.E.toFixed(3), Math.sin(0), Math.cos(0), Math.atan2(1, 1).toFixed(4)]",
  "const r = Math.random(); return r >= 0 && r < 1",
  "return [Boolean(''), Boolean('0'), Boolean([]), new Boolean(false).valueOf(), true.toString()]",
  "return [(5).toString(), 5..toString(), (-0).toString(), (1e21).toString(), (0.1 * 3).toString()]",
  "return [(1234567.891).toLocaleString(), (0.5).toLocaleString()]",
  "return [Math.max(...[1, 9, 3]), Math.min.apply(null, [4, 2, 8])]",
  "return [7 / 2 | 0, ~~-3.7, Math.clz32(1), Math.fround(5.5), Math.imul(3, 4)]",
  "return Number.parseFloat === parseFloat",
])

cases("JSON", [
  "return JSON.stringify({ a: [1, 'two', true, null], b: { c: 1.5 } })",
  "return JSON.stringify({ u: undefined, f() {}, s: Symbol('x'), n: NaN, i: -Infinity })",
  "return JSON.stringify([undefined, function () {}, Symbol('y')])",
  "return JSON.stringify({ a: 1, b: [1, 2] }, null, 2)",
  "return JSON.stringify({ a: 1, b: 2, c: { a: 3, z: 4 } }, ['a', 'c'])",
  "return JSON.stringify({ a: 1, b: 'x' }, (k, v) => (typeof v === 'number' ? v * 10 : v))",
  "return JSON.stringify({ d: new Date(0), t: { toJSON(key) { return 'key:' + key } } })",
  "return JSON.stringify('he said \"hi\"\\n')",
  "return JSON.stringify({ a: 1 }, null, '--')",
  'return JSON.parse(\'{"a":[1,{"b":null}],"c":"\\\\u0041"}\')',
  "return JSON.parse('[1, 2, 3]', (k, v) => (Array.isArray(v) ? v : v * 2))",
  "return JSON.parse('{\"a\":{\"b\":1}}', function (k, v) { return k === 'b' ? undefined : v })",
  "const o = JSON.parse('{\"x\":1}'); return [o.hasOwnProperty('x'), Object.getPrototypeOf(o) === Object.prototype]",
  "const a = JSON.parse('[1]'); return [Array.isArray(a), a.map((x) => x + 1)]",
  "try { const o = {}; o.self = o; JSON.stringify(o) } catch (e) { return e.name }",
  "try { JSON.parse('[1,]') } catch (e) { return e.name }",
  'return JSON.stringify(JSON.parse(\'{"__proto__": {"polluted": true}}\'))',
  "return [JSON.stringify(undefined) === undefined, JSON.stringify(null), JSON.stringify('s'), JSON.stringify(new String('b')), JSON.stringify(Object(5))]",
  "return JSON.stringify({ nested: { deep: [{ x: [] }, {}] } })",
  "return JSON.stringify([new Map([[1, 2]]), new Set([1])])",
])

cases("Map, Set, WeakMap and WeakSet", [
  "const m = new Map([['a', 1]]); m.set('b', 2).set('a', 3); return [m.get('a'), m.size, m.has('b'), m.delete('b'), m.size, [...m.keys()]]",
  "const k = {}; const m = new Map([[k, 'obj'], [NaN, 'nan'], [0, 'zero']]); return [m.get(k), m.get(NaN), m.get(-0)]",
  "const m = new Map([['x', 1], ['y', 2]]); const r = []; m.forEach((v, k) => r.push(k + v)); return [r, [...m.entries()], [...m.values()]]",
  "const s = new Set([1, 2, 2, 3]); s.add(4).add(1); return [s.size, s.has(2), s.delete(2), [...s]]",
  "const s = new Set(['a']); const r = []; s.forEach((v, k) => r.push(v + k)); return [r, [...s.entries()]]",
  "const m = new Map(); m.set('z', 1); m.clear(); return m.size",
  "const wm = new WeakMap(); const k = {}; wm.set(k, 1); return [wm.get(k), wm.has({}), wm.delete(k), wm.has(k)]",
  "const ws = new WeakSet(); const k = {}; ws.add(k); return [ws.has(k), ws.has({})]",
  "try { new WeakMap().set('str', 1) } catch (e) { return e.name }",
  "return Object.prototype.toString.call(new Map()) + Object.prototype.toString.call(new Set())",
  "const m = new Map([[1, 'a']]); for (const [k, v] of m) m.set(k + 1, v + 'x'), k > 3 && m.clear(); return [...m.values()].length > 0",
  "const s = new Set([1, 2, 3]); const seen = []; for (const x of s) { seen.push(x); if (x === 1) s.delete(2) } return seen",
  "return [...new Map([[1, 2]])[Symbol.iterator]()]",
])

cases("Promise (values)", ["return 1"])

cases("Symbol, Reflect and misc globals", [
  "const s = Symbol('desc'); return [s.toString(), s.description, typeof s, Symbol.for('k') === Symbol.for('k'), Symbol.keyFor(Symbol.for('k'))]",
  "return [typeof Symbol.iterator, Symbol() === Symbol()]",
  "const o = { a: 1 }; return [Reflect.has(o, 'a'), Reflect.ownKeys({ b: 1, [Symbol.iterator]: 0 }).length, Reflect.get(o, 'a'), Reflect.set(o, 'c', 3), o.c]",
  "return [Reflect.apply(Math.max, null, [1, 3]), Reflect.construct(Date, [0]).getTime(), Reflect.getPrototypeOf([]) === Array.prototype]",
  "return [encodeURIComponent('a b&c/d'), decodeURIComponent('%E2%9C%93'), encodeURI('http://x/a b'), decodeURI('%41')]",
  "const o = { a: [1, { b: 2 }], d: new Date(0) }; const c = structuredClone(o); return [c.a[1].b, c !== o, c.a !== o.a, c.d.getTime()]",
  "try { structuredClone({ f() {} }) } catch (e) { return e.name }",
  "return [globalThis.Math === Math, typeof globalThis]",
  "globalThis.custom = 5; return custom",
  "return [typeof parseInt, typeof undefined, typeof NaN, Infinity > 1e308]",
])

cases("Date (UTC, deterministic)", [
  "const d = new Date(Date.UTC(2024, 0, 15, 10, 30)); return [d.getFullYear(), d.getMonth(), d.getDate(), d.getDay(), d.getHours(), d.getMinutes(), d.toISOString()]",
  "return new Date('2024-03-05T10:20:30Z').getTime()",
  "return new Date('2024-03-05').toISOString()",
  "return new Date(0).toISOString()",
  "const d = new Date(2020, 1, 29); d.setDate(d.getDate() + 1); return d.toISOString()",
  "const d = new Date(0); d.setFullYear(2000, 5, 15); d.setHours(23, 59, 59, 999); return d.toISOString()",
  "return [new Date(NaN).getTime(), String(new Date('garbage'))].map(String)",
  "return new Date(Date.UTC(2024, 0, 1)).toUTCString()",
  "return JSON.stringify({ at: new Date(86400000) })",
  "return [Date.UTC(1970, 0, 2), new Date(2024, 0, 1) - new Date(2023, 11, 31)]",
  "const d = new Date('2024-06-01T00:00:00.000Z'); return [d.valueOf(), +d, d.getTimezoneOffset()]",
  "return typeof Date.now() === 'number' && Date.now() > 1.7e12",
  "return new Date(2024, 11, 31, 23, 59).getUTCHours()",
  "return new Date(Date.UTC(99, 0)).getUTCFullYear()",
])

cases("RegExp", [
  "const re = /(\\d{4})-(\\d{2})/; const m = re.exec('on 2024-05'); return [m[0], m[1], m.index, m.input]",
  "const re = /a/g; const r = []; let m; while ((m = re.exec('banana')) !== null) r.push(m.index, re.lastIndex); return r",
  "return [/abc/i.test('ABC'), /^x$/m.test('a\\nx'), /a.b/s.test('a\\nb'), /\\u{1F600}/u.test('😀')]",
  "const re = /x/gimsuy; return [re.source, re.flags, re.global, re.ignoreCase, re.multiline, re.sticky, re.unicode, re.dotAll]",
  "return [String(/a\\/b/g), new RegExp('a+', 'g').toString(), new RegExp(/x/, 'i').flags]",
  "const m = /(?<year>\\d+)/.exec('y2024'); return m.groups.year",
  "const re = /o/y; re.lastIndex = 4; return [re.test('hello'), re.lastIndex]",
  "try { new RegExp('(') } catch (e) { return e.name }",
  "return 'a.b.c'.split(/\\./)",
  "return /(a)|(b)/.exec('b').map(String)",
  "const re = /\\bfoo\\b/g; return 'foo food foo'.replace(re, 'bar')",
])

cases("URL and URLSearchParams", [
  "const u = new URL('https://user:pw@example.com:8080/a/b?x=1&y=2#frag'); return [u.protocol, u.username, u.hostname, u.port, u.pathname, u.search, u.hash, u.origin, u.host]",
  "const u = new URL('/path?q=1', 'https://base.org/dir/'); return u.href",
  "const u = new URL('https://a.com'); u.pathname = '/x y'; u.searchParams.set('k', 'v w'); return u.toString()",
  "const p = new URLSearchParams('a=1&b=2&a=3'); return [p.get('a'), p.getAll('a'), p.has('b'), p.toString(), [...p.keys()], p.size]",
  "const p = new URLSearchParams({ x: '1', y: 'two' }); p.append('x', '3'); p.delete('y'); p.sort(); return p.toString()",
  "const p = new URLSearchParams([['k', 'v']]); const r = []; p.forEach((v, k) => r.push(k + '=' + v)); return [r, [...p]]",
  "try { new URL('not a url') } catch (e) { return e.name }",
  "return [URL.canParse('https://x.y'), URL.canParse('nope')]",
  "return JSON.stringify({ u: new URL('https://x.y/z') })",
  "const u = new URL('https://x.y/?a=1'); u.searchParams.append('b', '2'); return u.search",
])

cases("TextEncoder, TextDecoder and Uint8Array", [
  "const b = new TextEncoder().encode('héllo'); return [b.length, b[1], b[2], Array.from(b)]",
  "return new TextDecoder().decode(new TextEncoder().encode('round trip ✓'))",
  "const b = new Uint8Array([1, 2, 300]); return [b.length, b[2], Array.from(b.slice(1)), [...b.subarray(0, 1)]]",
  "const b = new Uint8Array(3); b.fill(7); b[1] = 1; return [Array.from(b), b.join('-'), b.includes(7), b.indexOf(1)]",
  "return [new TextEncoder().encoding, new TextDecoder().encoding]",
  "return Array.from(Uint8Array.from([1, 2], (x) => x * 2))",
])

describe("ES2024 groupBy (newer than the Node these tests run on)", () => {
  it("Object.groupBy groups by key into a null-prototype object", () =>
    expect(
      evaluate(
        "const g = Object.groupBy([1, 2, 3, 4], (x) => (x % 2 ? 'odd' : 'even')); [Object.getPrototypeOf(g), g.odd, g.even]",
      ),
    ).toEqual([null, [1, 3], [2, 4]]))
  it("Map.groupBy groups by any key", () =>
    expect(evaluate("const g = Map.groupBy([1, 2, 3], (x) => x > 1); [g.get(true), g.get(false), g.size]")).toEqual([
      [2, 3],
      [1],
      2,
    ]))
})

describe("console", () => {
  const logs = (code: string) => runJs(code).logs
  it("prints strings raw and values inspected", () =>
    expect(logs("console.log('a', 1, true, null, undefined, [1, 'x'], { k: 'v' })")).toEqual([
      "a 1 true null undefined [ 1, 'x' ] { k: 'v' }",
    ]))
  it("formats placeholders", () =>
    expect(logs("console.log('%s is %d years, %i, %f, %j %%', 'Bo', 42.5, 3.9, '1.5', { a: 1 })")).toEqual([
      'Bo is 42.5 years, 3, 1.5, {"a":1} %',
    ]))
  it("formats nested objects like Node", () =>
    expect(logs("console.log({ a: { b: { c: { d: 1 } } }, list: [[1, [2, [3, [4]]]]] })")).toEqual([
      "{ a: { b: { c: [Object] } }, list: [ [ 1, [Array] ] ] }",
    ]))
  it("formats Maps, Sets, dates, regexps, errors and functions", () => {
    const r = logs(
      "console.log(new Map([['k', 1]]), new Set([1]), new Date(0), /x/g, function named() {}, () => {}, class K {}, Symbol('s'))",
    )
    expect(r).toEqual([
      "Map(1) { 'k' => 1 } Set(1) { 1 } 1970-01-01T00:00:00.000Z /x/g [Function: named] [Function (anonymous)] [class K] Symbol(s)",
    ])
  })
  it("prints errors with their stack line", () =>
    expect(logs("console.log(new TypeError('bad'))")[0]).toMatch(/^TypeError: bad\n {4}at <program>:1:13$/))
  it("breaks long objects over lines", () =>
    expect(
      logs(
        "console.log({ alpha: 'aaaaaaaaaaaaaaaa', beta: 'bbbbbbbbbbbbbbbbbb', gamma: 'cccccccccccccccccccc', delta: 1 })",
      ),
    ).toEqual([
      "{\n  alpha: 'aaaaaaaaaaaaaaaa',\n  beta: 'bbbbbbbbbbbbbbbbbb',\n  gamma: 'cccccccccccccccccccc',\n  delta: 1\n}",
    ]))
  it("shows circular references", () =>
    expect(logs("const o = { name: 'o' }; o.self = o; console.log(o)")).toEqual([
      "<ref *1> { name: 'o', self: [Circular *1] }",
    ]))
  it("shows class instances and null prototypes", () =>
    expect(logs("class P { constructor() { this.x = 1 } } console.log(new P(), Object.create(null))")).toEqual([
      "P { x: 1 } [Object: null prototype] {}",
    ]))
  it("shows getters without running them", () =>
    expect(logs("let ran = false; console.log({ get g() { ran = true; return 1 } }); console.log(ran)")).toEqual([
      "{ g: [Getter] }",
      "false",
    ]))
  it("shows promises", () =>
    expect(logs("console.log(Promise.resolve(1), new Promise(() => {}))")).toEqual([
      "Promise { 1 } Promise { <pending> }",
    ]))
  it("supports the other console methods", () => {
    const r = logs(
      "console.info('i'); console.warn('w'); console.error('e'); console.debug('d'); console.assert(1 === 2, 'nope'); console.assert(true, 'no'); console.count(); console.count(); console.count('x'); console.group('G'); console.log('in'); console.groupEnd(); console.log('out')",
    )
    expect(r).toEqual([
      "i",
      "w",
      "e",
      "d",
      "Assertion failed: nope",
      "default: 1",
      "default: 2",
      "x: 1",
      "G",
      "  in",
      "out",
    ])
  })
  it("shows arrays with holes and many items", () => {
    expect(logs("console.log([1, , 3], new Array(3))")).toEqual(["[ 1, <1 empty item>, 3 ] [ <3 empty items> ]"])
    expect(logs("console.log(Array.from({ length: 120 }, (_, i) => i))")[0]).toContain("... 20 more items")
  })
  it("does not carry counters between executions", () => {
    expect(logs("console.count('c')")).toEqual(["c: 1"])
    expect(logs("console.count('c')")).toEqual(["c: 1"])
  })
})

describe("built-ins behave per execution", () => {
  it("prototype changes do not leak into the next execution", () => {
    expect(evaluate("Array.prototype.extra = () => 'polluted'; Object.prototype.evil = 1; [].extra()")).toBe("polluted")
    expect(evaluate("[typeof [].extra, ({}).evil === undefined]")).toEqual(["undefined", true])
  })
  it("replaced built-ins are restored", () => {
    expect(evaluate("Math.max = () => 'mine'; JSON.stringify = () => 'x'; Math.max(1, 2)")).toBe("mine")
    expect(evaluate("[Math.max(1, 2), JSON.stringify([1])]")).toEqual([2, "[1]"])
  })
  it("a frozen prototype does not leak either", () => {
    expect(evaluate("Object.freeze(Array.prototype); Object.isFrozen(Array.prototype)")).toBe(true)
    expect(evaluate("Array.prototype.x = 1; [Object.isFrozen(Array.prototype), [].x]")).toEqual([false, 1])
    expect(evaluate("[].x === undefined")).toBe(true)
  })
  it("globals created by one execution are gone in the next", () => {
    expect(evaluate("globalThis.leak = 1; Math = null; leak")).toBe(1)
    expect(evaluate("[typeof leak, typeof Math.max]")).toEqual(["undefined", "function"])
  })
  it("Symbol.for registries are per execution", () => {
    expect(evaluate("Symbol.for('s').toString()")).toBe("Symbol(s)")
    expect(evaluate("Symbol.keyFor(Symbol.for('t'))")).toBe("t")
  })
})
