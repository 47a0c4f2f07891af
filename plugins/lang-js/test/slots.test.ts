/**
 * Internal slots are an object's own: an object that only inherits from a Date, Map, RegExp... is not one, so the
 * built-in methods that need the slot throw a TypeError on it, as in Node, and never write a slot onto it (a write
 * onto a built-in that inherits from one would outlive the execution).
 */
import { describe, it } from "vitest"
import { sameAsNode } from "./node.js"

/** Each call runs on an object whose prototype carries the slot; Node and the interpreter must agree. */
const inheritedSlot: Record<string, string> = {
  Date: "Date.prototype.getTime.call(Object.create(new Date(0)))",
  "Date setter": "Date.prototype.setTime.call(Object.create(new Date(0)), 5)",
  Map: "Map.prototype.get.call(Object.create(new Map([[1, 2]])), 1)",
  Set: "Set.prototype.has.call(Object.create(new Set([1])), 1)",
  WeakMap: "WeakMap.prototype.has.call(Object.create(new WeakMap()), {})",
  WeakSet: "WeakSet.prototype.has.call(Object.create(new WeakSet()), {})",
  RegExp: "RegExp.prototype.exec.call(Object.create(/a/), 'a')",
  Promise: "Promise.prototype.then.call(Object.create(Promise.resolve(1)), () => 1)",
  Number: "Number.prototype.valueOf.call(Object.create(new Number(1)))",
  String: "String.prototype.valueOf.call(Object.create(new String('s')))",
  Boolean: "Boolean.prototype.valueOf.call(Object.create(new Boolean(true)))",
  Symbol: "Symbol.prototype.valueOf.call(Object.create(Object(Symbol('s'))))",
  generator: "const g = (function* () { yield 1 })(); return Object.getPrototypeOf(g).next.call(Object.create(g))",
  "array iterator": "const i = [1][Symbol.iterator](); return Object.getPrototypeOf(i).next.call(Object.create(i))",
  "map iterator": "const i = new Map([[1, 2]]).entries(); return Object.getPrototypeOf(i).next.call(Object.create(i))",
  "a built-in given a Date as prototype":
    "Object.setPrototypeOf(Math, new Date(0)); try { return Math.getTime() } finally { Object.setPrototypeOf(Math, Object.prototype) }",
}

describe("internal slots are not inherited", () => {
  for (const [name, call] of Object.entries(inheritedSlot))
    it(name, () => {
      sameAsNode(
        `try { ${call.includes("return") ? call : `return ${call}`} } catch (e) { return [e instanceof TypeError, e.name] }`,
      )
    })

  it("a Date is still a Date, and one made from a Date reads its time", () => {
    sameAsNode("const d = new Date(5); return [d.getTime(), new Date(d).getTime(), Object.prototype.toString.call(d)]")
  })
  it("an object inheriting from a Date is an ordinary object to toString and JSON (whose toJSON throws)", () => {
    sameAsNode(
      "const o = Object.create(new Date(0)); o.a = 1; let j; try { j = JSON.stringify(o) } catch (e) { j = e.name } return [j, Object.prototype.toString.call(o)]",
    )
  })
})
