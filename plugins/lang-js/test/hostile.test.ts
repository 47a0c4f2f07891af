/**
 * Hostile programs: escapes through constructors and prototypes, endless loops, memory bombs and deep recursion.
 * Each is contained with the right diagnostic, and the host keeps working afterwards.
 */
import { execFile, execFileSync } from "node:child_process"
import { fileURLToPath } from "node:url"
import { afterEach, describe, expect, it } from "vitest"
import { setWorkBudget } from "../src/runtime/meter.js"
import { evaluate, failure, runJs } from "./harness.js"
import { sameAsNode } from "./node.js"

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
  it("everything reachable by reflection from the built-ins belongs to the program", () => {
    const code = `
      const roots = [globalThis, Object.getPrototypeOf(function* () {}), Object.getPrototypeOf(async () => {}),
        Object.getPrototypeOf(async function* () {}), Object.getPrototypeOf(Uint8Array), new Error("x"), new TypeError("y"),
        (() => {}).bind(), function f() {}, class A { static s() {} }, /a/g[Symbol.matchAll]("aa"), "aXa".matchAll(/a/g),
        Promise.resolve(), Object.getOwnPropertyDescriptor(Function.prototype, "caller"), [].values(), new Map().keys(),
        Array.prototype[Symbol.unscopables], JSON.parse('{"a":[{}]}'), "a-b".split(/(-)/), /(?<g>a)/d.exec("a"), new Uint8Array(2).subarray(1)]
      const seen = new Set()
      const queue = [...roots]
      let bad = 0
      while (queue.length > 0 && seen.size < 20000) {
        const o = queue.pop()
        if ((typeof o !== "object" && typeof o !== "function") || o === null || seen.has(o)) continue
        seen.add(o)
        let p = Object.getPrototypeOf(o), steps = 0, ours = p === null
        while (p !== null && steps < 20) { if (p === Object.prototype) ours = true; p = Object.getPrototypeOf(p); steps++ }
        if (!ours) bad++
        queue.push(Object.getPrototypeOf(o))
        for (const k of Reflect.ownKeys(o)) {
          const d = Reflect.getOwnPropertyDescriptor(o, k)
          for (const v of [d.value, d.get, d.set]) if ((typeof v === "object" || typeof v === "function") && v !== null) queue.push(v)
        }
      }
      ;[bad, seen.size > 500]`
    expect(evaluate(code)).toEqual([0, true])
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
    expect(failure("function f() { return arguments.callee } f()").message).toMatch(
      /'callee', and 'arguments' properties may not be accessed/,
    ))
  it("functions and built-ins expose no internal keys", () => {
    expect(
      evaluate(
        "[Reflect.ownKeys(() => 1), Object.getOwnPropertySymbols(Math.max), Object.getOwnPropertySymbols(new Map()), Reflect.ownKeys(new Date(0)), Reflect.ownKeys(Promise.resolve())]",
      ),
    ).toEqual([["length", "name"], [], [], [], []])
    expect(
      evaluate(
        "[JSON.stringify({ ...Math.max }), JSON.stringify(Object.assign({}, new Map([[1, 2]]))), Object.keys(Object.getOwnPropertyDescriptors(function f() {}))]",
      ),
    ).toEqual(["{}", "{}", ["length", "name", "prototype"]])
    expect(
      evaluate(
        "const f = function () {}; f.x = 1; Object.defineProperty(f, 'y', { value: 2 }); [Reflect.ownKeys(f), Reflect.ownKeys(class { static m() {} }), Object.getOwnPropertySymbols(f)]",
      ),
    ).toEqual([["length", "name", "prototype", "x", "y"], ["length", "name", "prototype", "m"], []])
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
  it("repeat", () => bomb("'abc'.repeat(2 ** 24)", /String length limit exceeded/))
  it("padStart and padEnd", () => {
    bomb("''.padStart(2 ** 26)", /String length limit exceeded/)
    bomb("'x'.padEnd(2 ** 26, 'ab')", /String length limit exceeded/)
  })
  it("join of a huge array", () =>
    bomb("new Array(2 ** 22).fill('xyzxyzxyz').join('')", /String length limit exceeded/))
  it("join of a long sparse array (the separators alone pass the bound)", () =>
    bomb("new Array(1e7).join('abcd')", /String length limit exceeded/))
  it("huge arrays", () => {
    bomb("new Array(2 ** 30).fill(0)", /Array length limit exceeded/)
    bomb("Array.from({ length: 2 ** 30 })", /Array length limit exceeded/)
    bomb("[].concat(new Array(2 ** 23).fill(0), [1])", /Array length limit exceeded/)
    bomb("new Array(2 ** 23).fill(0).push(1)", /Array length limit exceeded/)
    bomb("const a = []; for (let i = 0; ; i++) a[i] = i", /Array length limit exceeded/)
    bomb("new Uint8Array(2 ** 30)", /Array length limit exceeded/)
    bomb("new Uint8Array({ length: 2 ** 24 })", /Array length limit exceeded/)
    bomb("new Array(2 ** 23).fill(0).concat([0])", /Array length limit exceeded/)
    bomb("[...new Array(2 ** 24)]", /Array length limit exceeded/)
  })
  it("doubling an array", () => bomb("let a = [1]; while (true) a = a.concat(a)", /Array length limit exceeded/))
  it("split into more pieces than an array may hold", () => {
    bomb("'x'.repeat(9e6).split('')", /Array length limit exceeded/)
    bomb("','.repeat(9e6).split(',')", /Array length limit exceeded/)
  })
  it("case mapping and normalization that lengthen past the bound", () => {
    bomb("'\u00df'.repeat(17e6).toUpperCase()", /String length limit exceeded/)
    bomb("'\u0130'.repeat(17e6).toLowerCase()", /String length limit exceeded/)
    bomb("'\ufdfa'.repeat(2e6).normalize('NFKD')", /String length limit exceeded/)
  })
  it("JSON.parse of an array longer than the bound", () =>
    bomb("JSON.parse('[' + '0,'.repeat(9e6) + '0]')", /Array length limit exceeded/))
  it("TextEncoder output past the bound", () =>
    bomb("new TextEncoder().encode('\u00e9'.repeat(5e6))", /Array length limit exceeded/))
  it("template replacements that grow quadratically", () => {
    bomb("'x'.repeat(1e5).replace(/x/g, \"$'\")", /String length limit exceeded/)
    bomb("'x'.repeat(1e5).replaceAll('x', \"$`\")", /String length limit exceeded/)
    bomb("'x'.repeat(4e6).replace(/x/g, () => 'y'.repeat(200))", /String length limit exceeded/)
  })
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
  it("JSON.stringify of escapes that lengthen a string past the bound", () => {
    bomb("JSON.stringify('\\u0001'.repeat(6e6))", /String length limit exceeded/)
    bomb("JSON.stringify(['\\u0001'.repeat(6e6)], ['a'])", /String length limit exceeded/)
  })
  it("catching the failure does not help", () =>
    bomb("let s = 'x'; try { while (true) s += s } catch (e) { 'caught' }", /String length limit exceeded/))
  it("a negative or NaN charge never adds work budget", () => {
    setWorkBudget(300_000)
    for (const charge of ["[].indexOf(1, Infinity)", "[].lastIndexOf(1, -Infinity)", "[1].includes(1, Infinity)"]) {
      expect(failure(`${charge}; for (let i = 0; i < 1e6; i++) {} 'done'`).message).toMatch(/work budget/)
    }
  })
})

describe("built-ins charge the work their input makes them do", () => {
  // Each operation below touches about ten thousand elements, characters or keys, three hundred times: charged one
  // unit each (more for the items it creates), that is past a budget of two million steps. Uncharged (or charged a
  // unit per 32 characters), the loop itself costs a few hundred steps and the program finishes.
  const setups = `const s = "a".repeat(1e4), d = "1".repeat(1e4), csv = "a,".repeat(5e3), a = new Array(1e4).fill(1)
    const u = new Uint8Array(1e4), t = JSON.stringify(new Array(5e3).fill(1)), o = {}
    for (let i = 0; i < 1e3; i++) o["k" + i] = i`
  const charged = (op: string) => {
    setWorkBudget(2_000_000)
    const d = failure(`${setups}\nfor (let i = 0; i < 300; i++) ${op}\n"done"`)
    expect(d.message).toMatch(/exceeded its work budget/)
  }
  const cases = [
    "s.trim()",
    "s.trimStart()",
    "s.trimEnd()",
    "s.startsWith(s)",
    "s.endsWith(s)",
    "s.localeCompare(s)",
    "s.isWellFormed()",
    "s.toWellFormed()",
    "s.toUpperCase()",
    "s.toLowerCase()",
    "s.normalize()",
    "s.padEnd(2e4)",
    "s.indexOf('b')",
    "s.replaceAll('a', 'b')",
    "s.split('')",
    "csv.split(',')",
    "s.match(/a/g)",
    "encodeURIComponent(s)",
    "new TextEncoder().encode(s)",
    "JSON.stringify(s)",
    "JSON.parse(t)",
    "Date.parse(d)",
    "parseInt(d)",
    "parseFloat(d)",
    "Number(d)",
    "new Array(1e4)",
    "Object.getOwnPropertyNames(a)",
    "Reflect.ownKeys(a)",
    "Object.isFrozen(a)",
    "Object.entries(o)",
    "u.indexOf(5)",
    "u.includes(5)",
    "console.log(s, s, s, s, s, s, s)",
    "({ ...a })",
    "({ ...s })",
    "{ const { x, ...rest } = a }",
  ]
  for (const op of cases) it(op, () => charged(op))
})

describe("in-place array built-ins move elements as the language does", () => {
  it("holes move as holes, overlapping ranges read before they are overwritten", () => {
    sameAsNode(`const r = []
      const holey = () => { const a = [0, 1, , 3, 4, , 6, 7]; a[10] = 10; return a }
      const show = (a) => [a.length, Object.keys(a).join(","), a.map(String).join(",")]
      let a = holey(); a.reverse(); r.push(show(a))
      a = holey(); a.copyWithin(2, 0); r.push(show(a))
      a = holey(); a.copyWithin(0, 3, 9); r.push(show(a))
      a = holey(); a.copyWithin(-3, 1); r.push(show(a))
      a = holey(); r.push(a.shift(), show(a))
      a = holey(); r.push(a.unshift(-2, -1), show(a))
      a = holey(); r.push(show(a.splice(1, 3)), show(a))
      a = holey(); r.push(show(a.splice(2, 1, "x", "y", "z")), show(a))
      a = holey(); r.push(show(a.splice(0, 0)), show(a))
      a = []; a.reverse(); r.push(show(a), String([].shift()), [].unshift())
      return r`)
  })
  it("an element a prototype holds is read through, as the spec's Get does", () => {
    // Node runs this one in a child process: an element on the host's Array.prototype slows every array of the
    // process that sees it, for good.
    const body = `Array.prototype[1] = "p"
      const a = [0, , 2, , 4]
      a.reverse()
      const b = [0, , 2]
      b.shift()
      return [Object.keys(a), a.map(String), Object.keys(b), b.map(String)]`
    const script = `process.stdout.write(JSON.stringify((() => { "use strict"; ${body} })()))`
    const expected = JSON.parse(execFileSync(process.execPath, ["-e", script]).toString())
    expect(evaluate(body)).toEqual(expected)
  })
  it("results sized before they are filled keep holes as holes", () => {
    sameAsNode(`const a = [0, , 2, , 4]; a[70000] = 5; a[70002] = 6
      const show = (x) => [x.length, Object.keys(x).length, Object.keys(x).slice(0, 4).join(","), String(x[70001])]
      return [show(a.slice()), show(a.slice(1, 70003)), show(a.map((v) => v)), show(a.concat(a)), show([].concat(a, 1)),
        show(Array.from({ length: 70003 })), show(a.slice(3, 2)), show([, 1].map((v) => v))]`)
  })
  it("a frozen array refuses with a TypeError", () => {
    for (const op of ["reverse()", "shift()", "unshift(1)", "copyWithin(0, 1)", "splice(0, 1)"])
      expect(
        evaluate(
          `(() => { try { Object.freeze([1, 2, 3]).${op}; return "no" } catch (e) { return e instanceof TypeError } })()`,
        ),
      ).toBe(true)
  })
})

describe("sparse arrays cost what they store", () => {
  it("a far element is one element", () => {
    sameAsNode("const a = []; a[1e7] = 1; return [a.length, a[1e7], Object.keys(a)]")
    sameAsNode("try { const a = []; a[1e7] = 1 } catch {} return 'ok'")
    sameAsNode("const a = [1, 2]; a[2 ** 31] = 3; a.push(4); return [a.length, a[2 ** 31 + 1], Object.keys(a).length]")
  })
  it("keys past the last index are ordinary properties", () => {
    sameAsNode("const a = []; a[4294967295] = 'x'; a[2 ** 32] = 9; return [a.length, Object.keys(a), a[2 ** 32]]")
  })
  it("long lengths allocate nothing", () => {
    sameAsNode("const a = new Array(2 ** 30); return [a.length, 0 in a]")
    sameAsNode("const a = [1]; a.length = 2 ** 31; a[5] = 2; return [a.length, a[0], a[5], a.indexOf(2, 2 ** 31 - 10)]")
    sameAsNode("const a = new Array(2 ** 30).fill(7, 2, 4); return [a.length, 1 in a, a[2], a[3], 4 in a]")
    sameAsNode("return [new Array(2 ** 30).slice(2 ** 30 - 2).length, Array(5).concat([1]).length]")
  })
  it("writing many elements into sparse arrays meets the bound", () => {
    const d = failure("const a = []; a.length = 2 ** 31; for (let i = 0; ; i++) a[2 ** 24 + i] = i")
    expect(d.message).toMatch(/sparse arrays hold more than 1048576 elements/)
  })
})

describe("the language's own RangeErrors stay catchable", () => {
  const rangeError = (expr: string) =>
    sameAsNode(`try { ${expr}; return 'no error' } catch (e) { return [e.name, e.message] }`)
  it("strings longer than the host allows", () => {
    rangeError("'a'.repeat(2 ** 32)")
    rangeError("''.padStart(Infinity, 'x')")
    rangeError("'ab'.padEnd(2 ** 29)")
    rangeError("new Array(2 ** 31).join()")
  })
  it("invalid lengths", () => {
    rangeError("Array.from({ length: 2 ** 32 })")
    rangeError("new Array(-1)")
    rangeError("const a = []; a.length = 2 ** 32")
    rangeError("new Uint8Array(2 ** 53)")
    rangeError("new Uint8Array(-1)")
  })
  it("empty results need no room", () =>
    sameAsNode("return [''.repeat(2 ** 40), ''.padStart(Infinity, ''), 'abc'.padEnd(2, 'x')]"))
})

describe("logs never pass the line bound", () => {
  const longest = (code: string) => Math.max(...runJs(code).logs.map((l) => l.length))
  it("through placeholders, several arguments, labels and groups", () => {
    const big = "const s = 'x'.repeat(300000);"
    for (const code of [
      "console.log('%s', s)",
      "console.log('%s %s', s, s)",
      "console.log(s, s, s)",
      "console.log('%o', [s, s])",
      "console.log('%j', [s, s])",
      "console.count(s)",
      "console.time(s); console.timeEnd(s)",
      "console.error(s + s)",
      "console.assert(false, s, s)",
      "console.dir([s, s])",
      "for (let i = 0; i < 1e5; i++) console.group(); console.log('x\n'.repeat(1000))",
    ]) {
      expect(longest(big + code)).toBeLessThanOrEqual(100_000 + "... (truncated)".length)
    }
  })
})
/**
 * Run `code` through core in a child process (real sandbox workers with their heap limits, this package's built
 * worker): what the execution gave, or how the child process died.
 */
const inChildProcess = (
  code: string,
  heapMb?: number,
): Promise<{ exit: string; result?: { ok: boolean; value?: unknown; error?: { message: string } } }> =>
  new Promise((resolve) => {
    const pool =
      heapMb === undefined ? "" : `, pool: new SandboxPool({ maxWorkers: 1, maxOldGenerationSizeMb: ${heapMb} })`
    const script = `
      import { CodeMode, SandboxPool } from "@codemode/core"
      import { Effect } from "effect"
      const runtime = CodeMode.make({ language: "javascript"${pool} })
      const r = await Effect.runPromise(runtime.execute(${JSON.stringify(code)}))
      process.stdout.write(JSON.stringify({ ok: r.ok, value: r.value, error: r.error }))
      process.exit(0)`
    const cwd = fileURLToPath(new URL("..", import.meta.url))
    execFile(process.execPath, ["--input-type=module", "-e", script], { cwd, timeout: 120_000 }, (error, stdout) => {
      if (error) resolve({ exit: `${error.signal ?? error.code}` })
      else resolve({ exit: "0", result: JSON.parse(stdout) })
    })
  })

describe("a memory bomb in the sandbox never takes the host process down", () => {
  // A 128 MB heap: the bombs end the same way as on the default heap, four times sooner.
  const contained = async (code: string, message: RegExp) => {
    const { exit, result } = await inChildProcess(code, 128)
    expect(exit).toBe("0")
    expect(result?.ok).toBe(false)
    expect(result?.error?.message).toMatch(message)
  }
  it("a typed array from a huge array-like", () =>
    contained("new Uint8Array({ length: 2 ** 30 })", /Array length limit exceeded/))
  it("filled arrays kept in a loop", () =>
    contained("const k = []; for (let i = 0; i < 100; i++) k.push(new Array(8e6).fill(i))", /out of memory/))
  it("a Map whose table doubles when the heap is nearly full", () =>
    contained("const m = new Map(); for (let i = 0; ; i++) m.set(i, [i])", /out of memory/))
  it("JSON.parse of a text that builds more objects than the heap holds", () =>
    contained("JSON.parse('[' + '[[],[],[],[],[],[],[],[]],'.repeat(1.2e6) + '0]')", /out of memory/))
  it("spreading a long string into an object (a property per character)", () =>
    contained("const o = { ...'x'.repeat(3e7) }; Object.keys(o).length", /the program ran out of memory/))
})

describe("garbage does not count as memory in use", () => {
  // 96 MiB stays live on a 256 MB heap; the 32 MiB arrays dropped on every iteration are garbage, which the check
  // before a large allocation must not count (without its collection, most of the loop's allocations are refused).
  it("32 MiB arrays dropped in a loop next to 96 MiB kept", async () => {
    const code = `const keep = []; for (let i = 0; i < 3; i++) keep.push(new Array(4e6).fill(i + 0.5))
      let n = 0; for (let i = 0; i < 40; i++) { const a = new Array(4e6).fill(i + 0.5); n += a.length } n + keep.length`
    const { exit, result } = await inChildProcess(code, 256)
    expect(exit).toBe("0")
    expect(result).toMatchObject({ ok: true, value: 160_000_003 })
  })
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
