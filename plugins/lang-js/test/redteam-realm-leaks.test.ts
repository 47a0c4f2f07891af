/**
 * Red team: nothing one execution does is visible to a later execution in the same sandbox process, whichever path
 * it took to change the realm (the quick restore compares only enumerable keys and writable values unless a listed
 * path was taken) and however it ended (a result, a throw, the step meter, a stop at an allocation bound). Every
 * case runs through real sandboxes: one pool of one sandbox, runtimes (scopes) on it. A case runs its program twice
 * (the same text twice), then a fingerprint of the realm in its scope or another, which must equal the fingerprint
 * taken before (`npm run build` first: the sandbox loads the built worker module).
 *
 * The fingerprint walks every object a program can reach from the global object and from the prototypes of one
 * value of every kind (async functions, generators, iterators, arguments, %ThrowTypeError%...), through values,
 * accessors and prototypes, and lists each object's extensibility, prototype and every own key with its attributes
 * and what its value is; then it reads behaviour that no key shows (internal slots, caches, registries).
 *
 * The last group are leaks this file found (each on a sandbox of its own, since a leak outlives the execution that
 * made it): `%AsyncFunction.prototype%` and its constructor were never recorded by the realm's seal (only a map of
 * function kinds held them), and where a built-in was first thrown or given a stack was kept for the worker's life.
 */
import { CodeMode, SandboxPool, Tool } from "@codemode/core"
import { Effect, Schema } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

const pools: SandboxPool[] = []
afterAll(() => {
  for (const pool of pools) pool.close()
})

/**
 * A pool of one sandbox and three runtimes on it (three scopes): every execution runs in the same process. The
 * third has a short time limit, for programs the meter stops at their deadline.
 */
const sandbox = () => {
  const pool = new SandboxPool({ maxWorkers: 1, keepIdle: 1 })
  pools.push(pool)
  const run = (runtime: ReturnType<typeof CodeMode.make>) => async (code: string) => {
    const { toolCalls: _, ...rest } = await Effect.runPromise(runtime.execute(code) as Effect.Effect<CodeMode.Result>)
    return rest
  }
  return {
    sameScope: run(CodeMode.make({ language: "javascript", pool })),
    otherScope: run(CodeMode.make({ language: "javascript", pool })),
    shortScope: run(CodeMode.make({ language: "javascript", pool, limits: { timeoutMs: 300 } })),
  }
}

/** The realm as data: every reachable object's state, then behaviour no key shows. */
const FINGERPRINT = String.raw`
const ids = new Map(), queue = [], rows = []
const ref = (v, path) => {
  if (v === null || (typeof v !== "object" && typeof v !== "function")) return typeof v + ":" + String(v)
  if (!ids.has(v)) { ids.set(v, path); queue.push([v, path]) }
  return "@" + ids.get(v)
}
ref(globalThis, "G")
const kinds = { AF: async function () {}, AAF: async () => {}, AM: { async m() {} }.m, GF: function* () {}, AGF: async function* () {},
  ARGS: (function () { return arguments })(1), AI: [][Symbol.iterator](), MI: new Map().entries(), SI: new Set().values(),
  STI: ""[Symbol.iterator](), RSI: "a".matchAll(/a/g), GEN: (function* () {})(), AGEN: (async function* () {})(),
  PR: Promise.resolve(), ERR: new Error("x"), TE: new TypeError("x"), RE: /x/g, DATE: new Date(0), U8: new Uint8Array(1),
  TTE: Object.getOwnPropertyDescriptor((function () { return arguments })(), "callee").get, BOUND: Math.max.bind(null),
  URL: new URL("http://x/"), USP: new URLSearchParams(""), WM: new WeakMap(), WS: new WeakSet(), SYM: Object(Symbol()),
  CLS: class {}, ARROW: () => {}, TAG: ((s) => s)${"`"}a${"`"} }
for (const [k, v] of Object.entries(kinds)) ref(Object.getPrototypeOf(v), k + ".__proto__")
for (let i = 0; i < queue.length; i++) {
  const [o, path] = queue[i]
  const row = [path, Object.isExtensible(o), ref(Object.getPrototypeOf(o), path + ".__proto__")]
  for (const k of Reflect.ownKeys(o)) {
    const d = Reflect.getOwnPropertyDescriptor(o, k)
    const p = path + "." + String(k)
    if (path === "G" && (k === "tools" || k === "search" || k === "require")) row.push(k)
    else row.push([String(k), d.writable, d.enumerable, d.configurable,
      "value" in d ? ref(d.value, p) : ref(d.get, p + ".get") + "/" + ref(d.set, p + ".set")].join("|"))
  }
  rows.push(row.join(";"))
}
const behaviour = []
const t = (f) => { try { behaviour.push(String(f())) } catch (e) { behaviour.push("throws " + e.name) } }
t(() => [typeof RegExp.$1, typeof RegExp.lastMatch, typeof RegExp.input, RegExp["$&"]])
t(() => [Symbol.keyFor(Symbol.for("leak")), Symbol.for("leak").description, Symbol.keyFor(Symbol.iterator)])
t(() => Date.prototype.getTime.call(Date.prototype))
t(() => [Number.prototype.valueOf.call(Number.prototype), String.prototype.valueOf.call(String.prototype), Boolean.prototype.valueOf.call(Boolean.prototype)])
t(() => [RegExp.prototype.source, RegExp.prototype.flags, RegExp.prototype.global])
t(() => RegExp.prototype.exec.call(RegExp.prototype, "x"))
t(() => Map.prototype.get.call(Map.prototype, 1))
t(() => Set.prototype.has.call(Set.prototype, 1))
t(() => [Error.stackTraceLimit, typeof Error.prepareStackTrace, new Error("m").stack])
t(() => { const a = []; for (const x of [1, 2]) a.push(x); return [a, [..."ab"], [...new Set([1, 2])], [...new Map([[1, 2]])]] })
t(() => { const [a, b] = [1, 2]; const { c = 3, ...r } = { d: 4 }; return [a, b, c, JSON.stringify(r)] })
t(() => JSON.stringify({ a: [1, { b: 2 }], c: "x" }) + String({}) + String([1, [2]]) + ${"`"}${"${"}1}${"${"}{}}${"`"})
t(() => { const tag = (s) => s; const s = tag${"`"}a${"${"}1}b${"`"}; return [Object.isFrozen(s), Object.isFrozen(s.raw), s.length, Object.keys(s), s.extra] })
t(() => { const r = /a/g; return [r.lastIndex, r.extra, r.exec("aa").index, "aXbX".replace(/X/g, "$&$&"), "a1b2".match(/\d/g)] })
t(() => { function f() {} return [typeof f.extra, Object.keys(f), typeof f.prototype.extra, f.name, f.length, String(f), String(async () => 1)] })
t(() => JSON.stringify(Object.getOwnPropertyDescriptors({ a: 1, get b() { return 2 } })))
t(() => (function () { return [arguments.length, Object.keys(arguments)] })(1, 2))
t(() => { let s = ""; for (const k in [1, 2]) s += k; for (const k in { a: 1 }) s += k; for (const k in "xy") s += k; return s })
t(() => [Math.max(1, 2), JSON.stringify([undefined]), Array.from({ length: 2 }).length, [3, 1, 2].sort(), [1, 2, 3].map((x) => x * 2).filter((x) => x > 2)])
t(() => [[], null, new Date(0), /x/, (function* () {})(), Promise.resolve(), async () => {}, Math, JSON].map((v) => Object.prototype.toString.call(v)))
t(() => { class A { #p = 1; static has(o) { return #p in o } } return [A.has(Math), A.has(Array.prototype), A.has(globalThis)] })
t(() => [new Date(0).toISOString(), Date.UTC(2020, 0), (1234.5).toFixed(1), "a".localeCompare("b")])
t(() => [(async () => 1) instanceof Function, (async () => 1).call === Function.prototype.call, typeof (async () => 1).map])
t(() => [typeof leaked, Object.keys(globalThis), Object.getOwnPropertySymbols(globalThis).length])
t(() => { const e = new TypeError("x"); return [e instanceof Error, e.name, e.message, Object.keys(e), String(e)] })
t(() => { try { null.x } catch (e) { return e.constructor.name + e.message } })
t(() => typeof console.log + Object.keys(console))
t(() => { Object.setPrototypeOf(Math, new Date(0)); const v = Math.getTime(); Object.setPrototypeOf(Math, Object.prototype); return v })
JSON.stringify([rows, behaviour])`

/** How one fingerprint differs from another: the rows and behaviours that are not in both. */
const differences = (before: string, after: string): string[] => {
  const [rowsA, behaviourA] = JSON.parse(before) as [string[], string[]]
  const [rowsB, behaviourB] = JSON.parse(after) as [string[], string[]]
  const a = new Set(rowsA)
  const b = new Set(rowsB)
  const out: string[] = []
  for (const r of rowsB) if (!a.has(r)) out.push(`now:  ${r}`)
  for (const r of rowsA) if (!b.has(r)) out.push(`was:  ${r}`)
  behaviourA.forEach((x, i) => {
    if (x !== behaviourB[i]) out.push(`behaviour ${i}: ${x} -> ${behaviourB[i]}`)
  })
  return out
}

/** One attack: a program that changes the realm by one path and how it ends ("ok": its value is 1). */
interface Attack {
  readonly name: string
  readonly program: string
  /** The kind of the failure that ends it, when it does not end with the value 1. */
  readonly ends?: string
  /** Run once, not twice (it takes long: the time limit, filling the heap). */
  readonly once?: boolean
}

const S = "Symbol.iterator"
const AF = "Object.getPrototypeOf(async function () {})"

/** Paths that change a built-in: the listed ones the quick restore relies on, and the ones it may have missed. */
const attacks: ReadonlyArray<Attack> = [
  // The paths the quick restore lists.
  { name: "Object.defineProperty, same value", program: `Object.defineProperty(Math, "max", { writable: false }); 1` },
  { name: "Reflect.defineProperty", program: `Reflect.defineProperty(Array.prototype, "map", { writable: false }); 1` },
  { name: "Object.defineProperties", program: `Object.defineProperties(JSON, { x: { value: 1 } }); 1` },
  {
    name: "__defineGetter__ / __defineSetter__",
    program: `const at = Array.prototype.at; Array.prototype.__defineGetter__("at", () => at); 1`,
  },
  {
    name: "delete, Function.prototype's virtual name and length too",
    program: `delete Array.prototype.flat; delete Function.prototype.name; delete Function.prototype.length; Reflect.deleteProperty(Math, "hypot"); 1`,
  },
  {
    name: "the integrity functions",
    program: `Object.freeze(Math.max); Object.seal(Array.prototype.map); Object.preventExtensions(JSON.parse); 1`,
  },
  {
    name: "Object.setPrototypeOf / Reflect.setPrototypeOf",
    program: `Object.setPrototypeOf(Math, null); Reflect.setPrototypeOf(JSON, Array.prototype); 1`,
  },
  { name: "__defineSetter__", program: `Object.prototype.__defineSetter__("zz", () => {}); 1` },
  { name: "__proto__ assignment", program: `Math.__proto__ = Array.prototype; 1` },
  {
    name: "Object.prototype.__proto__ cannot change",
    program: `try { Object.prototype.__proto__ = Array.prototype } catch {} try { Reflect.setPrototypeOf(Object.prototype, {}) } catch {} 1`,
  },
  // Symbol-keyed writes in every assignment form.
  { name: "symbol-keyed assignment", program: `Math[${S}] = 1; 1` },
  { name: "symbol-keyed for-of head", program: `for (Math[${S}] of [1]); 1` },
  { name: "symbol-keyed for-in head", program: `for (JSON[Symbol.asyncIterator] in { a: 1 }); 1` },
  { name: "symbol-keyed update expression", program: `Math[Symbol.hasInstance] = 0; Math[Symbol.hasInstance]++; 1` },
  {
    name: "symbol-keyed compound and logical assignment",
    program: `Reflect[${S}] = 1; Reflect[${S}] += 1; Reflect[Symbol.match] ||= 2; Reflect[Symbol.match] &&= 3; 1`,
  },
  { name: "symbol-keyed object pattern target", program: `;({ a: Math[Symbol.split] } = { a: 1 }); 1` },
  { name: "symbol-keyed rest element target", program: `;[...Math[Symbol.search]] = [1]; 1` },
  { name: "symbol-keyed object rest target", program: `;({ ...JSON[Symbol.species] } = { a: 1 }); 1` },
  { name: "symbol-keyed pattern default", program: `;[Math[Symbol.toPrimitive] = 5] = []; 1` },
  {
    name: "a program symbol on the core prototypes and the global object",
    program: `const k = Symbol("k"); Array.prototype[k] = 1; Object.prototype[k] = 2; Function.prototype[k] = 3; globalThis[k] = 4; 1`,
  },
  {
    name: "super.x and super[symbol] with a built-in this",
    program: `const o = { m() { super[${S}] = 1 } }; o.m.call(Math); 1`,
  },
  { name: "Object.assign of a symbol-keyed property", program: `Object.assign(Math.max, { [Symbol.match]: 1 }); 1` },
  { name: "Object.assign of arrays and strings", program: `Object.assign(Math, [1, 2], "xy"); 1` },
  { name: "Reflect.set of a symbol onto another receiver", program: `Reflect.set({}, Symbol.iterator, 1, Reflect); 1` },
  // Class elements stamped on a built-in a base constructor returned.
  {
    name: "private accessor on a returned built-in",
    program: `class B { constructor() { return Math } } class C extends B { get #g() { return 1 } } new C(); 1`,
  },
  {
    name: "private and public fields on a returned built-in",
    program: `class B { constructor() { return JSON } } class C extends B { #x = 1; [${S}] = 3 } new C(); 1`,
  },
  {
    name: "a field initializer that throws after a private field was stamped",
    program: `class B { constructor() { return Math } } class C extends B { #x = 1; y = (() => { throw 1 })() } try { new C() } catch {} 1`,
  },
  {
    name: "private names reached through a built-in's prototype",
    program: `class A { #x = 1; #m() {} get #g() { return 1 } set #g(v) {} static poke(o) { for (const f of [() => { o.#x = 2 }, () => o.#m(), () => { o.#g = 3 }]) try { f() } catch {} } } Object.setPrototypeOf(Math, new A()); A.poke(Math); 1`,
  },
  // Error stacks.
  {
    name: "an error's stack setter run on a built-in",
    program: `Object.setPrototypeOf(JSON, new Error("x")); JSON.stack = 1; Object.setPrototypeOf(JSON, Object.prototype); 1`,
  },
  {
    name: "an error's stack getter run on a built-in",
    program: `Object.setPrototypeOf(Math, new Error("x")); Math.stack; Reflect.get(new Error("e"), "stack", JSON); 1`,
  },
  {
    name: "Error.captureStackTrace on a built-in",
    program: `Error.captureStackTrace(Math); Error.captureStackTrace(Object.prototype); 1`,
  },
  {
    name: "Error.stackTraceLimit and prepareStackTrace",
    program: `Error.stackTraceLimit = 0; Error.prepareStackTrace = () => "x"; 1`,
  },
  // Built-ins that write to the object they are given.
  {
    name: "generic array methods on built-ins",
    program: `Array.prototype.push.call(Math, 1, 2); Array.prototype.pop.call(Math); Array.prototype.reverse.call(Math); Array.prototype.copyWithin.call(Math, 0, 1); Array.prototype.push.call(Array.prototype, 1); Array.prototype.splice.call(Array.prototype, 0, 1); 1`,
  },
  {
    name: "Array.prototype's length and elements",
    program: `Array.prototype.length = 5; Array.prototype[3] = 1; Object.prototype[0] = 1; 1`,
  },
  {
    name: "Array.from / Array.of with a constructor returning a built-in",
    program: `Array.from.call(function () { return Math }, [1, 2]); Array.of.call(function () { return JSON }, 1); 1`,
  },
  {
    name: "Symbol.species returning a built-in",
    program: `const a = [1]; a.constructor = { [Symbol.species]: function () { return Reflect } }; a.map((x) => x); a.filter(() => true); a.slice(0); a.splice(0, 0); 1`,
  },
  {
    name: "a JSON.parse reviver walking into a built-in",
    program: `Math.z = 1; JSON.parse('{"a":1,"b":2}', function (k, v) { if (k === "a") this.b = Math; return k === "z" ? undefined : v }); 1`,
  },
  {
    name: "a JSON.stringify replacer writing to a built-in",
    program: `Math.e1 = 1; JSON.stringify(Math, function (k, v) { if (this === Math) this.e2 = 2; return v }); 1`,
  },
  {
    name: "RegExp methods on a built-in",
    program: `Math.exec = () => null; RegExp.prototype[Symbol.replace].call(Math, "a", "b"); RegExp.prototype.lastIndex = 5; 1`,
  },
  {
    name: "internal slots of the prototypes",
    program: `for (const f of [() => Date.prototype.setTime.call(Date.prototype, 5), () => Map.prototype.set.call(Map.prototype, 1, 2), () => Set.prototype.add.call(Set.prototype, 1), () => RegExp.prototype.compile.call(RegExp.prototype, "x")]) try { f() } catch {} 1`,
  },
  // Registries, globals, the iteration and function kind prototypes.
  {
    name: "Array.prototype's length made read-only (the realm is replaced)",
    program: `Object.defineProperty(Array.prototype, "length", { writable: false }); 1`,
  },
  {
    name: "Function.prototype's virtual prototype accessor replaced",
    program: `Function.prototype.prototype = 1; Object.defineProperty(Function.prototype, "prototype", { value: 5, writable: true, configurable: true }); 1`,
  },
  {
    // Slots are not inherited, so each use throws a TypeError (as in Node) and must leave nothing behind.
    name: "built-ins given a Map, a RegExp or a generator as prototype and used as one",
    program: `Object.setPrototypeOf(Math, new Map()); try { Math.set(1, 2) } catch {} Object.setPrototypeOf(JSON, /a/g); try { JSON.exec("aa") } catch {} Object.setPrototypeOf(Reflect, (function* () { yield 1 })()); try { Reflect.next() } catch {} 1`,
  },
  { name: "Symbol.for", program: `Symbol.for("leak"); 1` },
  {
    name: "globals of every kind",
    program: `globalThis.leaked = 1; var leaked2 = 2; let leaked3 = 3; function leaked4() {} Object.defineProperty(globalThis, "leaked5", { value: 1 }); 1`,
  },
  {
    name: "built-in globals replaced and deleted",
    program: `Array = 1; globalThis.Math = 3; delete globalThis.JSON; 1`,
  },
  {
    name: "Array.prototype[Symbol.unscopables]",
    program: `Array.prototype[Symbol.unscopables].flat = false; Array.prototype[Symbol.unscopables].leaked = 1; 1`,
  },
  {
    name: "the array iteration fast path",
    program: `Array.prototype.values = function* () { yield 9 }; Array.prototype[${S}] = Array.prototype.values; Object.getPrototypeOf([][${S}]()).next = () => ({ done: true }); 1`,
  },
  {
    name: "%IteratorPrototype% and %GeneratorPrototype%",
    program: `Object.getPrototypeOf(Object.getPrototypeOf([][${S}]())).leaked = 1; Object.getPrototypeOf(function* () {}).prototype.next = () => 1; 1`,
  },
  {
    name: "%AsyncGeneratorFunction.prototype%",
    program: `Object.getPrototypeOf(async function* () {}).leaked = 1; Object.getPrototypeOf(function* () {}).leaked = 1; 1`,
  },
  {
    name: "Function.prototype's methods",
    program: `Function.prototype.call = () => 1; Function.prototype.apply = 2; Function.prototype.bind = 3; Function.prototype.toString = () => "x"; 1`,
  },
  { name: "Function.prototype's prototype setter", program: `Math.max.prototype = 1; 1` },
  { name: "Promise.prototype.then", program: `Promise.prototype.then = function () { return 1 }; 1` },
  {
    name: "primitive wrappers' prototypes",
    program: `String.prototype.leaked = 1; Number.prototype.leaked = 2; Boolean.prototype.leaked = 3; Symbol.prototype.leaked = 4; 1`,
  },
  {
    name: "Math, Date, JSON members",
    program: `Math.random = () => 0.5; Date.now = () => 1; JSON.stringify = () => "x"; Date.prototype.toISOString = () => "y"; 1`,
  },
  {
    name: "console state",
    program: `console.group("g"); console.count("c"); console.time("t"); console.log = () => 1; 1`,
  },
  {
    name: "web built-ins",
    program: `URLSearchParams.prototype.get = 1; URL.prototype.leak = 2; Uint8Array.prototype.leak = 3; Uint8Array.prototype[0] = 1; TextEncoder.prototype.encode = 4; 1`,
  },
  {
    name: "accessor functions of built-ins and %ThrowTypeError%",
    program: `Object.getOwnPropertyDescriptor(Map.prototype, "size").get.leak = 1; try { Object.getOwnPropertyDescriptor((function () { return arguments })(), "callee").get.leak = 1 } catch {} Object.getOwnPropertyDescriptor(Object.prototype, "__proto__").set.leak = 1; 1`,
  },
  { name: "a template object", program: `const t = (s) => s; const s = t${"`"}a${"`"}; try { s.leak = 1 } catch {} 1` },
  { name: "a regular expression literal", program: `const r = /a/g; r.exec("aa"); r.leak = 1; 1` },
  // Runs that end mid-mutation.
  {
    name: "a throw after a symbol-keyed write",
    program: `Math[${S}] = 1; throw new Error("x")`,
    ends: "ExecutionFailure",
  },
  {
    name: "the call depth bound after a redefinition",
    program: `Object.defineProperty(Math, "max", { writable: false }); const f = () => f() + 1; f()`,
    ends: "ExecutionFailure",
  },
  {
    name: "a throw in a getter Object.assign reads",
    program: `Object.assign(Math, { [Symbol.match]: 1 }, { get x() { throw 1 } })`,
    ends: "ExecutionFailure",
  },
  {
    name: "an in-process timeout in a JSON.parse reviver",
    program: `JSON.parse('{"a":1}', function () { Math[Symbol.split] = 1; Object.defineProperty(Math, "q", { value: 1 }); for (;;) {} })`,
    ends: "TimeoutExceeded",
  },
  {
    name: "an in-process timeout in a field initializer",
    program: `class B { constructor() { return Math } } class C extends B { #x = 1; y = (() => { for (;;) {} })() } new C()`,
    ends: "TimeoutExceeded",
  },
  {
    name: "a throw in defineProperties' descriptors",
    program: `Object.defineProperties(Math, { a: { value: 1 }, get b() { throw 1 } })`,
    ends: "ExecutionFailure",
  },
  {
    name: "the string length bound after a prototype change",
    program: `Object.setPrototypeOf(JSON, Array.prototype); Math[${S}] = 1; let s = "x"; for (;;) s += s`,
    ends: "ExecutionFailure",
  },
  {
    name: "the array length bound after a symbol-keyed write",
    program: `Math[${S}] = 1; new Array(1e8).fill(0)`,
    ends: "ExecutionFailure",
  },
  {
    name: "the work budget after a redefinition",
    program: `Object.defineProperty(Math, "q", { value: 1 }); Math[${S}] = 1; let n = 0; for (;;) n += "x".repeat(3e7).length`,
    ends: "ExecutionFailure",
  },
  {
    name: "the heap bound (out of memory) after a symbol-keyed write",
    program: `Math[${S}] = 1; Object.setPrototypeOf(JSON, null); const a = []; for (;;) a.push(new Array(8e6).fill(a.length))`,
    ends: "ExecutionFailure",
    once: true,
  },
  {
    name: "a promise that never settles",
    program: `Object.defineProperty(JSON, "zz", { value: 1 }); await new Promise(() => {})`,
    ends: "ExecutionFailure",
  },
  {
    name: "a result that is not data after a redefinition",
    program: `Object.defineProperty(Math, "q", { value: 1 }); Math[${S}] = 1; ({ f() {} })`,
    ends: "InvalidDataValue",
  },
  {
    name: "a result whose conversion throws after a symbol-keyed write",
    program: `Math[${S}] = 1; ({ get x() { throw new Error("in conversion") } })`,
    ends: "ExecutionFailure",
  },
  {
    name: "a result whose conversion runs a getter",
    program: `({ get x() { Math[${S}] = 1; Object.defineProperty(JSON, "q", { value: 1 }); return 1 } }).x`,
  },
]

describe("red team: an execution never sees what an earlier one did to the realm", () => {
  const { sameScope, otherScope, shortScope } = sandbox()
  let pristine = ""

  beforeAll(async () => {
    const r = await sameScope(FINGERPRINT)
    if (!r.ok) throw new Error(`fingerprint failed: ${JSON.stringify(r.error)}`)
    pristine = r.value as string
  })

  attacks.forEach((attack, index) =>
    it(attack.name, async () => {
      // The same text twice (its second run sees whatever the first left); a program the meter stops at its
      // deadline or at the heap bound once (that takes long).
      for (let i = attack.ends === "TimeoutExceeded" || attack.once ? 1 : 0; i < 2; i++) {
        const r = await (attack.ends === "TimeoutExceeded" ? shortScope : sameScope)(attack.program)
        if (attack.ends === undefined) expect(r).toMatchObject({ ok: true, value: 1 })
        else expect(r).toMatchObject({ ok: false, error: { kind: attack.ends } })
      }
      // One realm serves every scope of the sandbox: the cases fingerprint in the same and the other scope in turn
      // (a fingerprint takes most of a case's time).
      const r = await (index % 2 === 0 ? sameScope : otherScope)(FINGERPRINT)
      expect(r.ok).toBe(true)
      expect(differences(pristine, r.ok ? (r.value as string) : "")).toEqual([])
    }),
  )
})

/**
 * Programs that read the state of what they made (literals, functions, classes, a private brand on a built-in, a
 * registered symbol...) before they change it: the same text run twice must read the same start (a cache of
 * compiled code, template objects or literals shared between runs would show).
 */
const sameText: ReadonlyArray<readonly [string, string]> = [
  [
    "a regular expression literal",
    `const r = /a/g; const before = [r.lastIndex, r.leak, Object.keys(r)]; r.exec("aaa"); r.leak = 1; Object.defineProperty(r, "x", { value: 1 }); before`,
  ],
  [
    "a template object",
    `const tag = (s) => s; const s = tag${"`"}a${"${"}1}b${"`"}; const before = [Object.isFrozen(s), s.leak, Object.getOwnPropertyNames(s)]; try { s.leak = 1 } catch {} before`,
  ],
  [
    "a function declaration and its prototype",
    `function f() {} const before = [f.leak, Object.keys(f), f.prototype.leak]; f.leak = 1; f.prototype.leak = 2; before`,
  ],
  [
    "a class's static field",
    `class K { static s = 1 } const before = [K.s, K.leak, Object.keys(K)]; K.s = 2; K.leak = 3; before`,
  ],
  [
    "a private field's brand on built-ins",
    `class B { constructor(o) { return o } } class C extends B { #x = 1; static has(o) { return #x in o } } const before = [C.has(Math), C.has(Array.prototype)]; new C(Math); new C(Array.prototype); before`,
  ],
  [
    "a private method's brand on a built-in",
    `class B { constructor(o) { return o } } class C extends B { static #s = 1; #m() {} static has(o) { return #m in o } } const before = C.has(JSON); new C(JSON); before`,
  ],
  [
    "a registered symbol on a built-in",
    `const s = Symbol.for("k"); const before = [Math[s], Symbol.keyFor(s)]; Math[s] = 1; before`,
  ],
  [
    "object and array literals",
    `const o = { a: 1, b: [1, 2] }; const a = [1, 2, 3]; const before = [JSON.stringify(o), a.join()]; o.a = 2; o.b.push(3); o.c = 4; a.push(4); a[0] = 9; a.length = 10; before`,
  ],
  [
    "the arguments object",
    `const before = (function () { const a = arguments; const b = [a.length, a[0], a.leak]; a.leak = 1; a[0] = 5; return b })(1, 2); before`,
  ],
  [
    "a counter kept on a built-in",
    `const before = [Math.leakCounter ?? 0]; Math.leakCounter = (Math.leakCounter ?? 0) + 1; before`,
  ],
  [
    "collections and dates",
    `const m = new Map([[1, 2]]); const d = new Date(0); const before = [m.size, m.get(1), d.getTime()]; m.set(1, 5); m.set(2, 3); d.setTime(5); before`,
  ],
]

describe("red team: the same program text twice starts from the same state", () => {
  const { sameScope, otherScope } = sandbox()
  for (const [name, program] of sameText)
    it(name, async () => {
      const code = `${program.slice(0, program.lastIndexOf("before"))}JSON.stringify(before)`
      const first = await sameScope(code)
      expect(first.ok).toBe(true)
      expect(await sameScope(code)).toEqual(first)
      expect(await otherScope(code)).toEqual(first)
    })
})

describe("red team: an answer from the host belongs to the execution that asked", () => {
  const slow = Tool.make({
    description: "Answers with its tag after a delay",
    input: Schema.Struct({ ms: Schema.Number, tag: Schema.String }),
    output: Schema.String,
    execute: ({ ms, tag }) => Effect.as(Effect.sleep(`${ms} millis`), tag),
  })
  const pool = new SandboxPool({ maxWorkers: 1, keepIdle: 1 })
  pools.push(pool)
  const runtime = (maxToolCalls?: number) =>
    CodeMode.make({
      language: "javascript",
      pool,
      tools: { t: { slow } },
      ...(maxToolCalls ? { limits: { maxToolCalls } } : {}),
    })
  const [one, two, limited] = [runtime(), runtime(), runtime(1)]
  const run = (r: typeof one, code: string) => Effect.runPromise(r.execute(code))

  it("a call one execution left in flight never answers the next one, nor logs in it", async () => {
    const first = await run(
      one,
      `tools.t.slow({ ms: 100, tag: "one" }).then((v) => console.log("late", v)); console.group("g"); 1`,
    )
    expect(first).toMatchObject({ ok: true, value: 1 })
    const same = await run(one, `const v = await tools.t.slow({ ms: 250, tag: "two" }); console.log("mine"); v`)
    expect(same).toMatchObject({ ok: true, value: "two", logs: ["mine"] })
    expect(await run(one, `tools.t.slow({ ms: 50, tag: "three" }); 1`)).toMatchObject({ ok: true, value: 1 })
    const other = await run(two, `[await tools.t.slow({ ms: 150, tag: "four" })]`)
    expect(other).toMatchObject({ ok: true, value: ["four"] })
    expect(other.logs ?? []).toEqual([])
  })

  it("a run the tool call limit ends mid-mutation leaves nothing behind", async () => {
    const check = `[Object.getOwnPropertySymbols(Math).length, Object.getOwnPropertyNames(Math).includes("q"), typeof Math.caught]`
    const before = await run(one, check)
    const r = await run(
      limited,
      `Object.defineProperty(Math, "q", { value: 1 }); Math[Symbol.iterator] = 1; await tools.t.slow({ ms: 1, tag: "a" }); try { await tools.t.slow({ ms: 1, tag: "b" }) } finally { Math.caught = 1 }`,
    )
    expect(r).toMatchObject({ ok: false, error: { kind: "ToolCallLimitExceeded" } })
    expect(await run(limited, check)).toEqual(before)
    expect(await run(one, check)).toEqual(before)
  })
})

/** `probe` answers the same before and after `poison` ran, in the poison's scope and in another one. */
const leak = async (box: ReturnType<typeof sandbox>, poison: string, probe: string) => {
  const { sameScope, otherScope } = box
  const first = await sameScope(probe)
  expect(first.ok).toBe(true)
  expect(await sameScope(poison)).toMatchObject({ ok: true, value: 1 })
  return { first, same: await sameScope(probe), other: await otherScope(probe) }
}

describe("red team: leaks found by this file (a sandbox for each object they change)", () => {
  const [closure, asyncFunction, others] = [sandbox(), sandbox(), sandbox()]
  it("%AsyncFunction.prototype% is restored: a closure of one execution never runs in the next", async () => {
    const r = await leak(
      closure,
      `const secret = "one's secret"; ${AF}.toString = function () { return secret }; 1`,
      `String(async () => 1)`,
    )
    expect(r.same).toEqual(r.first)
    expect(r.other).toEqual(r.first)
  })

  it("%AsyncFunction.prototype%'s prototype, extensibility and tag are restored", async () => {
    const r = await leak(
      asyncFunction,
      `Object.defineProperty(${AF}, Symbol.toStringTag, { value: "Mine" }); Object.setPrototypeOf(${AF}, Array.prototype); Object.preventExtensions(${AF}); 1`,
      `[Object.prototype.toString.call(async () => 1), (async () => 1) instanceof Function, Object.isExtensible(${AF})]`,
    )
    expect(r.same).toEqual(r.first)
    expect(r.other).toEqual(r.first)
  })

  it("the AsyncFunction constructor is restored", async () => {
    const r = await leak(asyncFunction, `${AF}.constructor.leak = 42; 1`, `${AF}.constructor.leak ?? "none"`)
    expect(r.same).toEqual(r.first)
    expect(r.other).toEqual(r.first)
  })

  it("where a built-in was first thrown does not outlive the execution (its stack)", async () => {
    const r = await leak(
      others,
      `\n\n\n      try { throw Reflect } catch {}\n1`,
      `Object.setPrototypeOf(Reflect, new Error("x")); const s = Reflect.stack; Object.setPrototypeOf(Reflect, Object.prototype); s`,
    )
    expect(r.same).toEqual(r.first)
    expect(r.other).toEqual(r.first)
  })

  it("where a built-in was first thrown does not outlive the execution (an unhandled rejection's location)", async () => {
    const r = await leak(others, `\n\n\n      try { throw JSON } catch {}\n1`, `Promise.reject(JSON); 1`)
    expect(r.same).toEqual(r.first)
    expect(r.other).toEqual(r.first)
  })

  it("a Date setter run on a built-in that inherits from a Date leaves no time value for the next execution", async () => {
    // Brand checks read the brand through the prototype chain, so `Math` passed as a Date and the setter wrote the
    // time value as an own internal (symbol-keyed) property of `Math`, which no listed path notes: the quick restore
    // never saw it, and the next execution read it back. Slots are own now: both uses throw a TypeError, as in Node.
    const r = await leak(
      others,
      `Object.setPrototypeOf(Math, new Date(0)); try { Math.setTime(8640000000000) } catch {} 1`,
      `Object.setPrototypeOf(Math, new Date(0)); let t; try { t = Math.getTime() } catch (e) { t = e.name } Object.setPrototypeOf(Math, Object.prototype); t`,
    )
    expect(r.same).toEqual(r.first)
    expect(r.other).toEqual(r.first)
  })

  it("where Error.captureStackTrace ran on a built-in does not outlive the execution", async () => {
    const r = await leak(
      others,
      `\n\n\n      Error.captureStackTrace(Array.prototype); 1`,
      `Object.setPrototypeOf(Array.prototype, new Error("x")); const s = Array.prototype.stack; Object.setPrototypeOf(Array.prototype, Object.prototype); s`,
    )
    expect(r.same).toEqual(r.first)
    expect(r.other).toEqual(r.first)
  })
})
