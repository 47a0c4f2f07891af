/**
 * Compilation is linear in the source and bounded by the deadline: every shape of nesting at the syntax-depth bound
 * compiles and runs with Node's result (compiling a node more than once made these exponential), parsing does not
 * slow down with the number of declarations in a scope, and a large program that never runs is still stopped at the
 * deadline while it compiles.
 */
import { afterEach, describe, expect, it } from "vitest"
import { parse } from "../src/parse.js"
import { setWorkBudget } from "../src/runtime/meter.js"
import { failure, runJs } from "./harness.js"
import { sameAsNode, sameAsNodeAsync } from "./node.js"

/** The deepest nesting `build(n)` the parser accepts (the syntax-depth bound), found by bisection. */
const deepest = (build: (n: number) => string): number => {
  let lo = 1
  let hi = 2000
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2)
    if (parse(build(mid)).ok) lo = mid
    else hi = mid - 1
  }
  return lo
}

/** `build` at the deepest nesting the parser accepts. */
const atBound = (build: (n: number) => string): string => build(deepest(build))

const nest = (open: string, inner: string, close: string, n: number) => open.repeat(n) + inner + close.repeat(n)

const shapes: Record<string, (n: number) => string> = {
  "nested calls": (n) => `function f(x) { return x + 1 } return ${nest("f(", "0", ")", n)}`,
  "nested calls that never run": (n) => `function f(x) { return x } if (false) { ${nest("f(", "1", ")", n)} } return 1`,
  "nested calls with two arguments": (n) => `function f(a, b) { return a + b } return ${nest("f(1, ", "0", ")", n)}`,
  "method chains": (n) => `return " a "${".trim()".repeat(n)}`,
  "method chains with arguments": (n) =>
    `const o = { m(x) { this.n = (this.n ?? 0) + x; return this } }; return o${".m(1)".repeat(n)}.n`,
  "member chains": (n) => `const o = {}; o.a = o; return o${".a".repeat(n)} === o`,
  "computed member chains": (n) => `const o = { k: "k" }; return ${nest("o[", '"k"', "]", n)}`,
  "optional chains": (n) => `const o = { a: null }; o.a = o; return o${"?.a".repeat(n)} === o`,
  "nested arrays": (n) => `return JSON.stringify(${nest("[", "1", "]", n)}).length`,
  "nested objects": (n) => `return JSON.stringify(${nest("{ a: ", "1", " }", n)}).length`,
  "nested parentheses and sums": (n) => `return ${nest("(1 + ", "1", ")", n)}`,
  "left-deep sums": (n) => `let x = 1; return x${" + x".repeat(n)}`,
  "nested conditionals": (n) => `const t = true; return ${"t ? ".repeat(n)}1${" : 0".repeat(n)}`,
  "nested arrow functions": (n) => `const f = ${"() => ".repeat(n)}7; return f${"()".repeat(n)}`,
  "nested function expressions": (n) =>
    `return (${"function () { return ".repeat(n)}5${" }".repeat(n)})${"()".repeat(n)}`,
  "nested templates": (n) => `return ${nest("`a${", "1", "}`", n)}`,
  "nested blocks": (n) => `let x = 0; ${nest("{ ", "x++", " }", n)} return x`,
  "nested ifs": (n) => `let x = 0; const t = true; ${"if (t) ".repeat(n)}x = 9; return x`,
  "nested loops": (n) => `let x = 0; ${"for (let i = 0; i < 1; i++) ".repeat(n)}x++; return x`,
  "assignment chains": (n) => `let a; ${"a = ".repeat(n)}3; return a`,
  "nested destructuring": (n) => `const ${nest("[", "a", "]", n)} = ${nest("[", "4", "]", n)}; return a`,
  "nested unary operators": (n) => `return ${"!".repeat(n)}0`,
}

const asyncShapes: Record<string, (n: number) => string> = {
  "nested awaits": (n) => `return ${"await ".repeat(n)}1`,
  "awaits inside nested calls": (n) => `const f = async (x) => x + 1; return ${nest("await f(", "0", ")", n)}`,
  "awaits inside member chains": (n) =>
    `const o = {}; o.a = Promise.resolve(o); return (${nest("(await ", "o", ").a", n)}) === o.a`,
}

describe("nesting at the syntax-depth bound compiles and runs like Node", () => {
  it.each(Object.keys(shapes))("%s", (name) => sameAsNode(atBound(shapes[name])))
  it.each(Object.keys(asyncShapes))("%s", async (name) => {
    await sameAsNodeAsync(atBound(asyncShapes[name]))
  })
  it("generators delegating inside nested expressions", () =>
    sameAsNode(atBound((n) => `function* g() { return ${nest("[yield ", "1", "]", n)} } return [...g()].length`)))
})

describe("nesting far past the bound is refused before the parser's recursion nears the stack", () => {
  // Acorn recursed until the stack overflowed; when that struck while V8 compiled a regular expression, the whole
  // process aborted ("RegExpCompiler Allocation failed") instead of throwing a RangeError.
  const far: Record<string, string> = {
    "computed members": `const o = { k: "k" }; return ${nest("o[", '"k"', "]", 300_000)}`,
    "function expressions": `return ${"function () { return ".repeat(40_000)}5${" }".repeat(40_000)}`,
    "parenthesised sums": `return ${nest("(1 + ", "1", ")", 150_000)}`,
    arrays: `return ${nest("[", "1", "]", 400_000)}`,
    "unary operators": `return ${"!".repeat(900_000)}0`,
  }
  it.each(Object.keys(far))("%s", (name) => {
    expect(failure(far[name])).toMatchObject({
      kind: "ParseError",
      message: expect.stringContaining("nests syntax deeper than 400 levels"),
      location: { line: 1 },
    })
  })
})

describe("parsing is linear in the source", () => {
  it("tens of thousands of declarations in one scope", () => {
    const n = 50_000
    const code = `${Array.from({ length: n }, (_, i) => `let a${i} = ${i};`).join("")} a0 + a${n - 1}`
    expect(runJs(code).value).toBe(n - 1)
  })

  it("a redeclaration among them is still a syntax error", () => {
    const code = `${Array.from({ length: 1000 }, (_, i) => `let a${i} = ${i};`).join("")} let a500 = 1`
    expect(failure(code)).toMatchObject({ kind: "ParseError", location: { line: 1 } })
  })
})

describe("compilation is bounded by the deadline", () => {
  // About 130,000 compiled nodes: the meter checks the deadline every 100,000 units of work.
  const large = `if (false) { ${"f(a.b.c, [1, 2], { x: 1 }); ".repeat(12_000)} } 1`

  it("a large program that never runs still compiles within the deadline", () => {
    expect(runJs(large).value).toBe(1)
  })

  it("a program whose deadline passes while it compiles times out", () => {
    const d = failure(large, { deadline: Date.now() - 1 })
    expect(d.kind).toBe("TimeoutExceeded")
  })
})

describe("the work meter keeps pace with large loop bodies and functions", () => {
  afterEach(() => setWorkBudget())
  const body = "s = (s * 31 + i) % 1000003; ".repeat(100)

  /** How many times `code` logged before the work budget ended it. */
  const runsBeforeTheBudget = (code: string): number => {
    setWorkBudget(20_000)
    const r = runJs(code)
    expect(r.outcome).toMatchObject({ ok: false, error: { kind: "ExecutionFailure" } })
    if (!r.outcome.ok) expect(r.outcome.error.message).toMatch(/work budget/)
    return r.logs.length
  }

  it("an endless loop with a large body spends the budget in proportion to its size", () => {
    const small = runsBeforeTheBudget("let s = 0, i = 0; while (true) { i++; console.log(i) }")
    const large = runsBeforeTheBudget(`let s = 0, i = 0; while (true) { i++; ${body} console.log(i) }`)
    expect(large * 50).toBeLessThan(small)
  })

  it("so does a large function called in an endless loop", () => {
    const large = runsBeforeTheBudget(
      `let s = 0, i = 0; function f() { ${body} } while (true) { i++; f(); console.log(i) }`,
    )
    expect(large).toBeLessThan(400)
  })
})
