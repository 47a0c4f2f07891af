/**
 * The data boundary: what a program's result (and a tool's input) may be, and how values are converted.
 */
import { describe, expect, it } from "vitest"
import { evaluate, failure, runJs } from "./harness.js"

const notData = (code: string, message: string) => {
  const d = failure(code)
  expect(d.kind).toBe("InvalidDataValue")
  expect(d.message).toBe(`The result is not data: ${message}`)
}

describe("results cross as data", () => {
  it("primitives", () => {
    expect(evaluate("'s'")).toBe("s")
    expect(evaluate("1.5")).toBe(1.5)
    expect(evaluate("true")).toBe(true)
    expect(evaluate("null")).toBe(null)
  })
  it("undefined becomes null", () => {
    expect(evaluate("undefined")).toBe(null)
    expect(evaluate("return")).toBe(null)
    expect(evaluate("void 0")).toBe(null)
  })
  it("empty arrays and empty objects keep their shape", () => {
    expect(evaluate("({ a: [], b: {}, c: [[]], d: [{}] })")).toEqual({ a: [], b: {}, c: [[]], d: [{}] })
    expect(Array.isArray(evaluate("[]"))).toBe(true)
    expect(Array.isArray(evaluate("({})"))).toBe(false)
  })
  it("toJSON applies (Dates become ISO strings)", () => {
    expect(evaluate("({ at: new Date(0), custom: { toJSON(key) { return 'key ' + key } } })")).toEqual({
      at: "1970-01-01T00:00:00.000Z",
      custom: "key custom",
    })
    expect(evaluate("[{ toJSON(k) { return k } }]")).toEqual(["0"])
    expect(evaluate("new URL('https://a.b/c')")).toBe("https://a.b/c")
  })
  it("undefined properties are dropped", () =>
    expect(evaluate("({ a: 1, b: undefined, c: { d: undefined } })")).toEqual({ a: 1, c: {} }))
  it("getters run; symbol keys and non-enumerable properties are skipped", () =>
    expect(
      evaluate(
        "const o = { get g() { return 'got' }, [Symbol('s')]: 1 }; Object.defineProperty(o, 'hidden', { value: 1 }); o",
      ),
    ).toEqual({ g: "got" }))
  it("null-prototype objects are data", () =>
    expect(evaluate("const o = Object.create(null); o.k = 1; o")).toEqual({ k: 1 }))
  it("shared (non-cyclic) references are copied", () =>
    expect(evaluate("const x = { v: 1 }; ({ a: x, b: [x, x] })")).toEqual({ a: { v: 1 }, b: [{ v: 1 }, { v: 1 }] }))
  it("parsed JSON with odd keys survives", () =>
    expect(evaluate('JSON.parse(\'{"__proto__": 1, "a-b": [true]}\')')).toEqual(
      JSON.parse('{"__proto__": 1, "a-b": [true]}'),
    ))
  it("NaN and infinities are refused with their path", () => {
    notData("({ a: { b: NaN } })", "NaN is not a finite number at $.a.b")
    notData("[1, Infinity]", "Infinity is not a finite number at $[1]")
    notData("({ 'odd key': -Infinity })", '-Infinity is not a finite number at $["odd key"]')
  })
  it("cycles are refused", () =>
    notData("const o = { list: [] }; o.list.push(o); o", "a cycle (the value contains itself) at $.list[0]"))
  it("functions and symbols are refused", () => {
    notData("({ handler() {} })", "a function (handler) is not data at $.handler")
    notData("[Symbol('x')]", "a symbol is not data at $[0]")
    notData("() => 1", "a function (anonymous) is not data at $")
  })
  it("undefined in an array is refused", () => notData("[1, undefined]", "undefined is not data (use null) at $[1]"))
  it("Maps, Sets, promises, class instances and errors are refused", () => {
    notData("({ m: new Map() })", "a Map is not data at $.m")
    notData("new Set([1])", "a Set is not data at $")
    notData("({ p: new Promise(() => {}) })", "a Promise is not data at $.p")
    notData("class Point { constructor() { this.x = 1 } } new Point()", "a Point instance is not data at $")
    notData("({ e: new Error('x') })", "an Error is not data at $.e")
    notData("new Uint8Array(2)", "a Uint8Array instance is not data at $")
  })
  it("spreading a class instance makes it data", () =>
    expect(evaluate("class P { constructor() { this.x = 1 } } ({ ...new P() })")).toEqual({ x: 1 }))
  it("deeply nested values are refused", () => {
    const d = failure("let v = 0; for (let i = 0; i < 100; i++) v = [v]; v")
    expect(d.kind).toBe("InvalidDataValue")
    expect(d.message).toContain("data is nested deeper than 64 levels")
  })
  it("very large values are refused", () => {
    const d = failure("'x'.repeat(17 * 1024 * 1024)")
    expect(d.kind).toBe("InvalidDataValue")
    expect(d.message).toContain("data exceeds the copy limit")
  })
  it("a result that is a promise is awaited first", () =>
    expect(evaluate("Promise.resolve({ ok: [1] })")).toEqual({ ok: [1] }))
  it("a rejected final promise fails the execution", () =>
    expect(failure("Promise.reject(new TypeError('final'))").message).toBe("Uncaught TypeError: final"))
})

describe("tool inputs cross as data", () => {
  const echo = { tools: { "t.echo": (input: unknown) => ({ value: input as never }) } }
  it("applies toJSON and drops undefined", () =>
    expect(evaluate("await tools.t.echo({ d: new Date(0), u: undefined, n: [null] })", echo)).toEqual({
      d: "1970-01-01T00:00:00.000Z",
      n: [null],
    }))
  it("refuses non-data with the input path", () =>
    expect(evaluate("await tools.t.echo({ deep: [new Map()] }).catch((e) => e.message)", echo)).toBe(
      "Invalid input for tools.t.echo: a Map is not data at input.deep[0]",
    ))
  it("tool outputs become fresh program values each time", () =>
    expect(
      evaluate(
        "const a = await tools.t.echo({ x: 1 }); a.x = 2; const b = await tools.t.echo({ x: 1 }); [a.x, b.x]",
        echo,
      ),
    ).toEqual([2, 1]))
  it("output objects have the program's prototypes", () =>
    expect(
      evaluate(
        "const o = await tools.t.echo({ list: [1] }); [o instanceof Object, Array.isArray(o.list), typeof o.hasOwnProperty, o.list.map((x) => x + 1)]",
        echo,
      ),
    ).toEqual([true, true, "function", [2]]))
  it("values are copies in both directions", () => {
    const r = runJs("const input = { n: 1 }; const out = await tools.t.echo(input); input.n = 5; out.n", echo)
    expect(r.value).toBe(1)
  })
})
