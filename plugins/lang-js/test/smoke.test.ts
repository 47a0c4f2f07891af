import { expect, test } from "vitest"
import { evaluate, runJs } from "./harness.js"

test("smoke", () => {
  expect(evaluate("1 + 2")).toBe(3)
  expect(evaluate("function fib(n) { if (n < 2) return n; return fib(n-1) + fib(n-2) } fib(20)")).toBe(6765)
  expect(evaluate("let s = 0; for (let i = 0; i < 10; i++) s += i; s")).toBe(45)
  expect(evaluate("[1,2,3].map(x => x * 2)")).toEqual([2, 4, 6])
  expect(evaluate("const o = {a: 1, b: [1, 2]}; o")).toEqual({ a: 1, b: [1, 2] })
  const r = runJs("console.log('hi', {a: 1}); return await Promise.resolve(5)")
  expect(r.logs).toEqual(["hi { a: 1 }"])
  expect(r.value).toBe(5)
  expect(evaluate("'a-b-c'.split('-').map(s => s.toUpperCase()).join('+')")).toBe("A+B+C")
  expect(evaluate('JSON.parse(\'{"a":[1,2,{"b":null}]}\')')).toEqual({ a: [1, 2, { b: null }] })
  expect(evaluate("JSON.stringify({a: [1, 'x', {b: true}], d: new Date(0)})")).toBe(
    '{"a":[1,"x",{"b":true}],"d":"1970-01-01T00:00:00.000Z"}',
  )
  expect(evaluate("new Map([[1,2]]).get(1) + [...new Set([1,1,2])].length")).toBe(4)
  expect(
    evaluate(
      "class A { #x = 1; get x() { return this.#x } static s = 2 } class B extends A { constructor() { super(); this.y = 3 } } const b = new B(); [b.x, b.y, B.s, b instanceof A]",
    ),
  ).toEqual([1, 3, 2, true])
  expect(evaluate("function* g() { yield 1; yield 2 } [...g()]")).toEqual([1, 2])
  expect(evaluate("async function f(x) { await null; return x * 2 } await Promise.all([f(1), f(2)])")).toEqual([2, 4])
  expect(evaluate("/(\\d+)-(\\d+)/.exec('10-20').slice(1).map(Number)")).toEqual([10, 20])
  expect(evaluate("new URL('https://a.b/c?d=1').searchParams.get('d')")).toBe("1")
})
