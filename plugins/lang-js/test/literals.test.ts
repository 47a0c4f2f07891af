/**
 * Object literals of plain keys are filled by assignment while no program of the worker has touched a prototype
 * (see `definesBySet`); what a property's value does to `Object.prototype` must be seen by the properties after it.
 * Each case runs on a fresh copy of the interpreter's modules, so that it is the first program to touch one.
 */
import { describe, expect, it, vi } from "vitest"
import { fakeHost } from "./harness.js"
import { nodeValue } from "./node.js"

const touch = `const log = []
const touch = (key, how) => Object.defineProperty(Object.prototype, key, how === "setter"
  ? { set(v) { log.push(key + " set " + v) }, configurable: true } : { value: 0, writable: false, configurable: true })`

const literals: ReadonlyArray<readonly [string, string]> = [
  ["one key", `({ a: (touch("a", "setter"), 1) })`],
  ["two keys", `({ a: (touch("b", "setter"), 1), b: 2 })`],
  ["three keys", `({ a: 1, b: (touch("c", "readonly"), 2), c: 3 })`],
  ["five keys", `({ a: 1, b: 2, c: 3, d: (touch("e", "setter"), 4), e: 5 })`],
  ["a __proto__ shorthand", `(() => { const __proto__ = 7; return { a: (touch("x", "setter"), 1), __proto__ } })()`],
  ["a key after a spread", `({ ...{ x: 1 }, a: (touch("a", "setter"), 1) })`],
  ["a computed key after a method", `(() => { const k = "c"; return { m() {}, [k]: (touch("c", "readonly"), 2) } })()`],
  ["a computed __proto__ (no prototype touched)", `(() => { const k = "__proto__"; return { ...{}, [k]: 5 } })()`],
  ["a key after a getter", `({ get g() { return 1 }, b: (touch("b", "setter"), 2), ...{ y: 3 } })`],
]

describe("object literals filled by assignment", () => {
  for (const [name, literal] of literals)
    it(`define after a value gave Object.prototype a setter or a read-only key: ${name}`, async () => {
      vi.resetModules()
      const { run } = await import("../src/worker.js")
      const body = `${touch}
const o = ${literal}
const out = [log, Object.getOwnPropertyNames(o).map((k) => {
  const d = Object.getOwnPropertyDescriptor(o, k)
  return [k, "value" in d ? (typeof d.value === "function" ? "a function" : d.value) : "an accessor", d.writable === true, d.enumerable]
})]
for (const k of ["a", "b", "c", "e", "x"]) delete Object.prototype[k]
return out`
      const f = fakeHost({})
      expect(run(f.request(body), f.host)).toEqual({ ok: true, value: nodeValue(body) })
    })
})
