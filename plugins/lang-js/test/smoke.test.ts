import { test, expect } from "vitest"
import { evaluate, runJs } from "./harness.js"
test("smoke", () => {
  expect(evaluate("1 + 2")).toBe(3)
  expect(evaluate("function fib(n) { if (n < 2) return n; return fib(n-1) + fib(n-2) } fib(20)")).toBe(6765)
  expect(evaluate("let s = 0; for (let i = 0; i < 10; i++) s += i; s")).toBe(45)
  expect(evaluate("[1,2,3].map(x => x * 2)")).toEqual([2,4,6])
  expect(evaluate("const o = {a: 1, b: [1, 2]}; o")).toEqual({a: 1, b: [1, 2]})
  const r = runJs("console.log('hi', {a: 1}); return await Promise.resolve(5)")
  expect(r.logs).toEqual(["hi { a: 1 }"])
  expect(r.value).toBe(5)
})
