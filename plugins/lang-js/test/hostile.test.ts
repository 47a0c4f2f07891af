/**
 * Hostile programs: escapes through constructors and prototypes, endless loops, memory bombs and deep recursion.
 * Each is contained with the right diagnostic, and the host keeps working afterwards.
 */
import { afterEach, describe, expect, it } from "vitest"
import { setWorkBudget } from "../src/runtime/meter.js"
import { evaluate, failure, runJs } from "./harness.js"

afterEach(() => setWorkBudget())

const unsupportedFunction = (code: string) => {
  const d = failure(code)
  expect(d.kind).toBe("UnsupportedSyntax")
  expect(d.message).toMatch(/Function constructor is not supported/)
}

describe("no path reaches a host object", () => {
  it("constructor.constructor refuses to build functions from strings", () => {
    unsupportedFunction("({}).constructor.constructor('return process')()")
    unsupportedFunction("[].map.constructor('return this')()")
    unsupportedFunction("(async () => {}).constructor('return 1')")
    unsupportedFunction("(function* () {}).constructor('yield 1')")
    unsupportedFunction("Object.getPrototypeOf(() => {}).constructor('x')")
    unsupportedFunction("''.constructor.constructor('return globalThis')()")
    unsupportedFunction("(1).constructor.constructor('return 1')()")
    unsupportedFunction("Symbol().constructor.constructor('1')")
    unsupportedFunction("Promise.resolve().constructor.constructor('1')")
    unsupportedFunction("new Error().constructor.constructor('1')")
    unsupportedFunction("tools.constructor.constructor('1')")
  })
  it("every prototype chain ends in the program's Object.prototype and null", () => {
    const code = `
      const roots = [{}, [], '', 0, true, Symbol(), () => {}, async () => {}, function* () {}, new Map(), new Set(), new Date(),
        /x/, Promise.resolve(), new Error(), new URL('https://x.y'), new Uint8Array(1), Math, JSON, console, globalThis, tools,
        search, Object, [].values(), new Map().entries(), 'a'[Symbol.iterator](), (function* () {})(), new TextEncoder()]
      const ok = roots.map((r) => {
        let p = Object.getPrototypeOf(r), steps = 0
        while (p !== null && steps < 10) { if (p === Object.prototype) return Object.getPrototypeOf(p) === null; p = Object.getPrototypeOf(p); steps++ }
        return p === null
      })
      ok.every(Boolean)`
    expect(evaluate(code)).toBe(true)
  })
  it("__proto__ walks stay inside the program", () =>
    expect(
      evaluate(
        "[[].__proto__ === Array.prototype, [].__proto__.__proto__ === Object.prototype, [].__proto__.__proto__.__proto__ === null, (() => 1).__proto__ === Function.prototype]",
      ),
    ).toEqual([true, true, true, true]))
  it("Object.prototype cannot be re-parented", () =>
    expect(failure("Object.setPrototypeOf(Object.prototype, {})").message).toMatch(/Immutable prototype/))
  it("arguments.callee is refused", () =>
    expect(failure("function f() { return arguments.callee } f()").message).toMatch(/'callee' may not be accessed/))
  it("functions and built-ins expose no internal keys", () => {
    expect(
      evaluate(
        "[Reflect.ownKeys(() => 1), Object.getOwnPropertySymbols(Math.max), Object.getOwnPropertySymbols(new Map()), Reflect.ownKeys(new Date(0)), Reflect.ownKeys(Promise.resolve())]",
      ),
    ).toEqual([[], [], [], [], []])
    expect(
      evaluate(
        "[JSON.stringify({ ...Math.max }), JSON.stringify(Object.assign({}, new Map([[1, 2]]))), Object.keys(Object.getOwnPropertyDescriptors(function f() {}))]",
      ),
    ).toEqual(["{}", "{}", []])
  })
  it("getters never hand out host functions", () =>
    expect(
      evaluate(
        "const d = Object.getOwnPropertyDescriptor(Object.prototype, '__proto__'); const g = Object.getOwnPropertyDescriptor(globalThis, 'Math'); [typeof d.get, d.get.name, g.get === undefined, typeof Object.getOwnPropertyDescriptor(Map.prototype, 'size').get]",
      ),
    ).toEqual(["function", "get __proto__", true, "function"]))
  it("built-in source is not revealed", () =>
    expect(evaluate("[Math.max.toString(), String(Array.prototype.map)]")).toEqual([
      "function max() { [native code] }",
      "function map() { [native code] }",
    ]))
  it("error stacks show no host frames", () => {
    const stacks = evaluate(
      "const s = []; try { null.x } catch (e) { s.push(e.stack) } try { 'x'.repeat(-1) } catch (e) { s.push(e.stack) } try { JSON.parse('{') } catch (e) { s.push(e.stack) } s.push(new Error('m').stack); s",
    ) as string[]
    for (const s of stacks) {
      expect(s).not.toMatch(/node:|file:|\/work|\.js|\.ts|internal/)
      expect(s).toMatch(/at <program>:\d+:\d+$/)
    }
  })
  it("errors from built-ins are the program's own error objects", () =>
    expect(
      evaluate(
        "try { 'x'.repeat(-1) } catch (e) { return [e instanceof RangeError, e.constructor === RangeError, Object.getPrototypeOf(e) === RangeError.prototype] }",
      ),
    ).toEqual([true, true, true]))
  it("no process, require of host modules, eval, Function, timers or global object of the host", () => {
    expect(
      evaluate(
        "[typeof process, typeof eval, typeof setTimeout, typeof global, typeof window, typeof module, typeof exports, typeof Buffer, typeof WebAssembly]",
      ),
    ).toEqual(Array(9).fill("undefined"))
    expect(failure("require('child_process')").message).toMatch(/Cannot find module 'child_process'/)
    expect(evaluate("Object.getOwnPropertyNames(globalThis).includes('process')")).toBe(false)
  })
  it("globalThis is the program's own object", () =>
    expect(
      evaluate(
        "[globalThis.Array === Array, Object.getPrototypeOf(globalThis) === Object.prototype, globalThis.globalThis === globalThis]",
      ),
    ).toEqual([true, true, true]))
  it("this at top level is undefined", () =>
    expect(failure("this.constructor").message).toMatch(/Cannot read properties of undefined/))
  it("symbols registered with Symbol.for cannot name internal slots", () =>
    expect(evaluate("const o = () => 1; [o[Symbol.for('call')], o[Symbol('call')]].map(String)")).toEqual([
      "undefined",
      "undefined",
    ]))
  it("Function.prototype.call/apply/bind cannot reach host functions", () =>
    expect(evaluate("const f = Function.prototype.call.bind(Function.prototype.toString); f(Math.max)")).toBe(
      "function max() { [native code] }",
    ))
  it("prototype pollution stays inside one execution", () => {
    expect(
      evaluate(
        "Object.prototype.polluted = 'yes'; Object.defineProperty(Array.prototype, 'map', { value: () => 'hijacked' }); [].map()",
      ),
    ).toBe("hijacked")
    expect(evaluate("[({}).polluted === undefined, [1].map((x) => x + 1)]")).toEqual([true, [2]])
  })
  it("a program cannot keep state for the next one", () => {
    expect(evaluate("Math.secret = 42; Symbol.prototype.x = 1; console.stash = [1]; 'set'")).toBe("set")
    expect(evaluate("[Math.secret, Symbol.prototype.x, console.stash].map(String)")).toEqual([
      "undefined",
      "undefined",
      "undefined",
    ])
  })
})

describe("endless computation is stopped", () => {
  const budget = (code: string) => {
    setWorkBudget(300_000)
    const d = failure(code)
    expect(d.kind).toBe("ExecutionFailure")
    expect(d.message).toMatch(/exceeded its work budget of 300000 steps/)
    return d
  }
  it("while (true)", () => expect(budget("let i = 0\nwhile (true) { i++ }").location).toEqual({ line: 2, column: 1 }))
  it("for (;;) and do-while", () => {
    budget("for (;;) {}")
    budget("do {} while (true)")
  })
  it("a loop whose finally keeps continuing", () => budget("while (true) { try { for (;;) {} } finally { continue } }"))
  it("catching the failure does not help", () => budget("for (;;) { try { while (true) {} } catch (e) { } }"))
  it("endless iteration of a generator", () => budget("function* g() { while (true) yield 1 } for (const x of g()) {}"))
  it("endless iteration of a growing array", () => budget("const a = [1]; for (const x of a) a.push(x)"))
  it("endless callbacks", () => budget("const a = [1]; while (true) a.forEach(() => {})"))
  it("mutual recursion that never deepens", () => budget("let n = 0; const a = () => n++; while (true) a()"))
  it("an endless async loop", () => budget("while (true) { await null }"))
  it("an endless promise chain", () => budget("function loop() { return Promise.resolve().then(loop) } await loop()"))
  it("endless async recursion", () => budget("async function f() { await null; return f() } await f()"))
  it("a deadline stops a busy loop with TimeoutExceeded", () => {
    const r = runJs("while (true) {}", { deadline: Date.now() + 50 })
    expect(r.outcome.ok).toBe(false)
    if (!r.outcome.ok)
      expect(r.outcome.error).toEqual({
        kind: "TimeoutExceeded",
        message: "The execution timed out",
        location: { line: 1, column: 1 },
      })
  })
})

describe("memory bombs are refused", () => {
  const bomb = (code: string, message: RegExp) => {
    const d = failure(code)
    expect(d.kind).toBe("ExecutionFailure")
    expect(d.message).toMatch(message)
  }
  it("doubling a string", () => bomb("let s = 'x'; while (true) s += s", /String length limit exceeded/))
  it("repeat", () => bomb("'abc'.repeat(2 ** 28)", /String length limit exceeded/))
  it("padStart", () => bomb("''.padStart(2 ** 30)", /String length limit exceeded/))
  it("join of a huge array", () =>
    bomb("new Array(2 ** 22).fill('xyzxyzxyz').join('')", /String length limit exceeded/))
  it("huge arrays", () => {
    bomb("new Array(2 ** 30)", /Array length limit exceeded/)
    bomb("Array.from({ length: 2 ** 30 })", /Array length limit exceeded/)
    bomb("[].concat(new Array(2 ** 23), [1])", /Array length limit exceeded/)
    bomb("new Array(2 ** 23).push(1)", /Array length limit exceeded/)
    bomb("const a = []; a[2 ** 30] = 1", /Array length limit exceeded/)
    bomb("new Uint8Array(2 ** 30)", /Array length limit exceeded/)
    bomb("new Array(2 ** 23).fill(0).concat([0])", /Array length limit exceeded/)
  })
  it("doubling an array", () => bomb("let a = [1]; while (true) a = a.concat(a)", /Array length limit exceeded/))
  it("exponential JSON", () =>
    bomb(
      "let o = {}; for (let i = 0; i < 40; i++) o = { a: o, b: o }; JSON.stringify(o)",
      /String length limit exceeded/,
    ))
  it("exponential JSON through toJSON", () =>
    bomb(
      "let o = { toJSON() { return 1 } }; for (let i = 0; i < 40; i++) o = { a: o, b: o }; JSON.stringify(o)",
      /String length limit exceeded/,
    ))
  it("catching the failure does not help", () =>
    bomb("let s = 'x'; try { while (true) s += s } catch (e) { 'caught' }", /String length limit exceeded/))
})

describe("deep recursion is stopped", () => {
  const deep = (code: string) => {
    const d = failure(code)
    expect(d.kind).toBe("ExecutionFailure")
    expect(d.message).toMatch(/Maximum call depth/)
  }
  it("plain recursion", () => deep("function f(n) { return f(n + 1) + 1 } f(0)"))
  it("mutual recursion", () => deep("const a = () => b(); const b = () => a(); a()"))
  it("recursion through a getter", () => deep("const o = { get x() { return this.x } }; o.x"))
  it("recursion through toString", () => deep("const o = { toString() { return `${this}` } }; String(o)"))
  it("recursion through callbacks", () => deep("[1].map(function f() { return [1].map(f) })"))
  it("recursion through constructors", () => deep("class A { constructor() { new A() } } new A()"))
  it("recursion that catches its own failure", () => deep("function f() { try { f() } catch (e) { f() } } f()"))
  it("nested data that recurses inside built-ins", () =>
    deep("let a = []; for (let i = 0; i < 200000; i++) a = [a]; String(a)"))
  it("nested data is refused by JSON and structuredClone", () => {
    expect(
      evaluate(
        "let a = []; for (let i = 0; i < 5000; i++) a = [a]; try { JSON.stringify(a) } catch (e) { return e.name }",
      ),
    ).toBe("RangeError")
    expect(
      evaluate(
        "let a = []; for (let i = 0; i < 5000; i++) a = [a]; try { structuredClone(a) } catch (e) { return e.name }",
      ),
    ).toBe("RangeError")
  })
  it("logging deeply nested data is bounded", () =>
    expect(runJs("let a = []; for (let i = 0; i < 5000; i++) a = [a]; console.log(a)").logs).toEqual([
      "[ [ [ [Array] ] ] ]",
    ]))
})

describe("the host stays healthy", () => {
  it("runs ordinary programs after every hostile one", () => {
    expect(
      evaluate(
        "const fib = (n) => (n < 2 ? n : fib(n - 1) + fib(n - 2)); [fib(20), [3, 1, 2].sort(), JSON.stringify({ ok: true })]",
      ),
    ).toEqual([6765, [1, 2, 3], '{"ok":true}'])
  })
})
