/**
 * The realm restore compares only enumerable keys and writable values while no program redefined, deleted or
 * gave a built-in a key those do not show (`Realm.redefined`). Each case below changes a built-in by one path in a
 * way that neither enumerable keys nor writable values show, so it fails if that path does not note the change:
 * the next execution must see every built-in exactly as before.
 */
import { describe, expect, it } from "vitest"
import { afterRun, run } from "../src/worker.js"
import { fakeHost } from "./harness.js"

/** Run a program as the sandbox does (`run`, then `afterRun` once the result is sent). */
const runInWorker = (code: string) => {
  const f = fakeHost({})
  const outcome = run(f.request(code), f.host)
  expect(afterRun()).toBeUndefined()
  return outcome
}

/** Every own key of some built-ins with its attributes and what its value is, as data. */
const SNAPSHOT = `
const objects = { Math, JSON, Reflect, AP: Array.prototype, SP: String.prototype, OP: Object.prototype,
  FP: Function.prototype, EP: Error.prototype, max: Math.max, map: Array.prototype.map, Array, Error }
const out = {}
for (const [name, o] of Object.entries(objects)) {
  const p = Object.getPrototypeOf(o)
  out[name] = [Object.isExtensible(o), p === Object.prototype ? "OP" : p === Function.prototype ? "FP" : String(p),
    Reflect.ownKeys(o).map((k) => {
      const d = Reflect.getOwnPropertyDescriptor(o, k)
      const v = !("value" in d) ? "accessor" : typeof d.value === "function" ? "fn " + d.value.name
        : typeof d.value === "object" && d.value !== null ? "object" : String(d.value)
      return [String(k), d.writable === true, d.enumerable, d.configurable, v]
    })]
}
JSON.stringify(out)`

const pristine = () => {
  const r = runInWorker(SNAPSHOT)
  if (!r.ok) throw new Error(r.error.message)
  return r.value
}

const paths: ReadonlyArray<readonly [string, string]> = [
  ["Object.defineProperty (same value, not writable)", `Object.defineProperty(Math, "max", { writable: false })`],
  ["Reflect.defineProperty", `Reflect.defineProperty(Array.prototype, "map", { writable: false })`],
  ["Object.defineProperties", `Object.defineProperties(String.prototype, { trim: { writable: false } })`],
  [
    "__defineGetter__ returning the same value (an accessor now)",
    `const at = Array.prototype.at; Array.prototype.__defineGetter__("at", () => at)`,
  ],
  ["__defineSetter__", `Math.__defineSetter__("min", () => {})`],
  ["the delete operator on a non-enumerable key", `delete Array.prototype.flat`],
  ["Reflect.deleteProperty", `Reflect.deleteProperty(Math, "hypot")`],
  ["a function's own name deleted", `delete Math.max.name`],
  ["a symbol-keyed assignment", `Math[Symbol.iterator] = function* () {}`],
  ["a compound symbol-keyed assignment", `Math[Symbol.asyncIterator] ??= 1`],
  ["a symbol-keyed assignment in a pattern", `;[Array.prototype[Symbol.hasInstance]] = [1]`],
  ["a symbol-keyed assignment to a function", `Math.max[Symbol.toPrimitive] = () => 1`],
  ["a symbol-keyed property replaced", `delete Math[Symbol.toStringTag]; Math[Symbol.toStringTag] = "Math"`],
  ["Object.assign of a symbol-keyed property", `Object.assign(Math, { [Symbol.iterator]: 1 })`],
  ["Reflect.set of a symbol key", `Reflect.set(JSON, Symbol.iterator, 1)`],
  ["Reflect.set onto another receiver", `Reflect.set({}, Symbol.iterator, 1, Reflect)`],
  ["super[symbol] = v with a built-in this", `const o = { m() { super[Symbol.iterator] = 1 } }; o.m.call(Math)`],
  [
    "class fields on a built-in a base constructor returned",
    `class B { constructor() { return Math } }
     class C extends B { [Symbol.toStringTag] = "Math"; [Symbol.iterator] = 1; #secret = 2 }
     new C()`,
  ],
  [
    "a private method on a built-in a base constructor returned",
    `class B { constructor() { return Array.prototype } }
     class C extends B { #m() {} }
     new C()`,
  ],
  [
    "an error's stack setter run on a built-in",
    `Object.setPrototypeOf(Math, new Error("x")); Math.stack = "s"; Object.setPrototypeOf(Math, Object.prototype)`,
  ],
  ["an error's stack setter through Reflect.set", `Reflect.set(new Error("x"), "stack", "s", JSON)`],
  [
    "Error.captureStackTrace on a built-in",
    `Error.captureStackTrace(Math); Error.captureStackTrace(Array.prototype.map)`,
  ],
  ["Object.seal", `Object.seal(Math)`],
  ["Object.freeze of a function", `Object.freeze(Math.max)`],
  ["Object.preventExtensions", `Object.preventExtensions(Array.prototype.map)`],
  ["Reflect.preventExtensions", `Reflect.preventExtensions(JSON)`],
  ["Object.setPrototypeOf", `Object.setPrototypeOf(Math, null)`],
  ["__proto__", `JSON.__proto__ = Array.prototype`],
  [
    "a writable value replaced",
    `Array.prototype.map = Array.prototype.filter; Math.max.length; Error.prototype.name = "E"`,
  ],
  ["a built-in's length written", `Array.prototype.length = 3`],
  ["an enumerable key added", `Math.extra = 1; Array.prototype.map.extra = 2`],
  ["generic array methods on a built-in", `Array.prototype.push.call(Math, 1, 2); Array.prototype.pop.call(JSON)`],
  [
    "a JSON.parse reviver deleting what a program added",
    `Math.z = 1; JSON.parse('{"a":1,"b":2}', function (k, v) { if (k === "a") this.b = Math; return k === "z" ? undefined : v })`,
  ],
  ["a global", `globalThis.leaked = 1; Object.defineProperty(globalThis, "hidden", { value: 2 })`],
]

describe("the realm restore after each path that can change a built-in", () => {
  for (const [name, poison] of paths)
    it(name, () => {
      const before = pristine()
      const r = runInWorker(`${poison}; 1`)
      expect(r).toEqual({ ok: true, value: 1 })
      expect(pristine()).toBe(before)
      expect(runInWorker("[typeof leaked, typeof hidden, [3, 1, 2].map((x) => x * 2).join()]")).toEqual({
        ok: true,
        value: ["undefined", "undefined", "6,2,4"],
      })
    })
})

describe("what an execution leaves on objects no key shows", () => {
  const AF = "Object.getPrototypeOf(async function () {})"
  const cases: ReadonlyArray<readonly [string, string, string]> = [
    [
      "%AsyncFunction.prototype% and its constructor are restored",
      `const secret = "one's secret"; ${AF}.toString = function () { return secret }; ${AF}.constructor.leak = 42
       Object.defineProperty(${AF}, Symbol.toStringTag, { value: "Mine" }); Object.preventExtensions(${AF})`,
      `[String(async () => 1), ${AF}.constructor.leak ?? "none", Object.prototype.toString.call(async () => 1), Object.isExtensible(${AF})]`,
    ],
    [
      "where a built-in was thrown is forgotten",
      `\n\n\n      try { throw Reflect } catch {}`,
      `Object.setPrototypeOf(Reflect, new Error("x")); const s = Reflect.stack; Object.setPrototypeOf(Reflect, Object.prototype); s`,
    ],
    [
      "where Error.captureStackTrace ran on a built-in is forgotten",
      `\n\n\n      Error.captureStackTrace(Array.prototype)`,
      `const has = Object.getOwnPropertyNames(Array.prototype).includes("stack"); Object.setPrototypeOf(Array.prototype, new Error("x")); const s = Array.prototype.stack; Object.setPrototypeOf(Array.prototype, Object.prototype); [s, has]`,
    ],
  ]
  for (const [name, poison, probe] of cases)
    it(name, () => {
      const before = runInWorker(probe)
      expect(before.ok).toBe(true)
      expect(runInWorker(`${poison}; 1`)).toEqual({ ok: true, value: 1 })
      expect(runInWorker(probe)).toEqual(before)
    })
})
