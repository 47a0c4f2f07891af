/**
 * Diagnostics: parse errors, unsupported syntax and runtime failures, each with its kind and source location.
 */
import { describe, expect, it } from "vitest"
import { failure, runJs } from "./harness.js"

describe("parse errors", () => {
  it("an empty program", () =>
    expect(failure("  \n ")).toEqual({
      kind: "ParseError",
      message: "The program is empty: write at least one statement",
    }))
  it("a syntax error with its location", () =>
    expect(failure("const a = 1\nconst b = ;")).toEqual({
      kind: "ParseError",
      message: "SyntaxError: Unexpected token",
      location: { line: 2, column: 11 },
    }))
  it("strict-mode errors are parse errors", () => {
    expect(failure("with (Math) { max(1) }")).toMatchObject({ kind: "ParseError", location: { line: 1, column: 1 } })
    expect(failure("let yield = 1")).toMatchObject({ kind: "ParseError" })
    expect(failure("delete x")).toMatchObject({ kind: "ParseError" })
    expect(failure("010")).toMatchObject({ kind: "ParseError" })
  })
  it("a source that is too long", () =>
    expect(failure(`// ${"x".repeat(1_000_001)}\n1`).message).toMatch(/characters long; the limit is 1000000/))
  it("syntax nested too deeply", () => {
    const d = failure(`${"[".repeat(500)}${"]".repeat(500)}`)
    expect(d.kind).toBe("ParseError")
    expect(d.message).toMatch(/deeper than 400 levels/)
    expect(d.location).toBeDefined()
  })
  it("an unterminated string", () =>
    expect(failure("'abc")).toMatchObject({ kind: "ParseError", location: { line: 1, column: 1 } }))
})

describe("unsupported syntax", () => {
  const unsupported = (code: string, location: { line: number; column: number }, hint: RegExp) => {
    const d = failure(code)
    expect(d.kind).toBe("UnsupportedSyntax")
    expect(d.location).toEqual(location)
    expect(d.message).toMatch(hint)
  }
  it("BigInt literals", () =>
    unsupported(
      "const x = 1\nconst big = 10n",
      { line: 2, column: 13 },
      /BigInt literals are not supported\. Use ordinary numbers/,
    ))
  it("export", () =>
    unsupported("export const x = 1", { line: 1, column: 1 }, /`export` is not supported\. .*return the value instead/))
  it("import.meta", () =>
    unsupported("const u = import.meta.url", { line: 1, column: 11 }, /`import\.meta` is not supported/))
  it("eval, Function and timers at run time carry a hint", () => {
    expect(failure("eval('1 + 1')")).toEqual({
      kind: "UnsupportedSyntax",
      message: "eval is not available: code cannot be evaluated at run time",
      location: { line: 1, column: 1 },
    })
    expect(failure("const f = new Function('return 1')")).toMatchObject({
      kind: "UnsupportedSyntax",
      message: expect.stringContaining("functions cannot be created from strings"),
    })
    expect(failure("setTimeout(() => {}, 10)")).toMatchObject({
      kind: "UnsupportedSyntax",
      message: "setTimeout is not available: there are no timers; await tool calls instead",
    })
    expect(failure("\n  process.exit(1)")).toEqual({
      kind: "UnsupportedSyntax",
      message: "process is not available: programs have no process; use the tools and globals the host provides",
      location: { line: 2, column: 3 },
    })
  })
  it("typeof on an unavailable global is just undefined", () =>
    expect(runJs("[typeof setTimeout, typeof process, typeof eval, typeof window]").value).toEqual([
      "undefined",
      "undefined",
      "undefined",
      "undefined",
    ]))
  it("an unsupported-feature error can be caught like any TypeError", () =>
    expect(runJs("try { Function('x') } catch (e) { return e instanceof TypeError }").value).toBe(true))
})

describe("runtime failures", () => {
  it("calling a non-function names the callee and the call site", () =>
    expect(failure("const o = {}\n  o.missing(1)")).toEqual({
      kind: "ExecutionFailure",
      message: "Uncaught TypeError: o.missing is not a function",
      location: { line: 2, column: 3 },
    }))
  it("reading a property of undefined", () =>
    expect(failure("let u\nu.x")).toEqual({
      kind: "ExecutionFailure",
      message: "Uncaught TypeError: Cannot read properties of undefined (reading 'x')",
      location: { line: 2, column: 1 },
    }))
  it("an undefined variable", () =>
    expect(failure("1 + nope")).toEqual({
      kind: "ExecutionFailure",
      message: "Uncaught ReferenceError: nope is not defined",
      location: { line: 1, column: 5 },
    }))
  it("a throw statement's location", () =>
    expect(failure("function f() {\n  throw new Error('bad input')\n}\nf()")).toEqual({
      kind: "ExecutionFailure",
      message: "Uncaught Error: bad input",
      location: { line: 2, column: 3 },
    }))
  it("a thrown primitive", () =>
    expect(failure("throw 42")).toEqual({
      kind: "ExecutionFailure",
      message: "Uncaught 42",
      location: { line: 1, column: 1 },
    }))
  it("a thrown plain object", () => expect(failure("throw { code: 7 }").message).toBe("Uncaught { code: 7 }"))
  it("a rethrown error keeps where it was first thrown", () =>
    expect(failure("try {\n  throw new RangeError('first')\n} catch (e) {\n  throw e\n}").location).toEqual({
      line: 2,
      column: 3,
    }))
  it("an error from a built-in is located at the call", () =>
    expect(failure("const s = 'x'\nconst r = s.repeat(-1)")).toEqual({
      kind: "ExecutionFailure",
      message: "Uncaught RangeError: Invalid count value: -1",
      location: { line: 2, column: 11 },
    }))
  it("an error inside an async function surfaces from the await", () =>
    expect(failure("async function f() {\n  await null\n  null.boom\n}\nawait f()")).toEqual({
      kind: "ExecutionFailure",
      message: "Uncaught TypeError: Cannot read properties of null (reading 'boom')",
      location: { line: 3, column: 3 },
    }))
  it("TDZ and const assignment", () => {
    expect(failure("x = 1; let x")).toMatchObject({
      message: "Uncaught ReferenceError: Cannot access 'x' before initialization",
      location: { line: 1, column: 1 },
    })
    expect(failure("const c = 1\nc++")).toMatchObject({
      message: "Uncaught TypeError: Assignment to constant variable.",
      location: { line: 2, column: 1 },
    })
  })
  it("constructing a non-constructor", () =>
    expect(failure("new (() => 1)()").message).toBe("Uncaught TypeError: (intermediate value) is not a constructor"))
  it("destructuring null", () =>
    expect(failure("const { a } = null").message).toBe(
      "Uncaught TypeError: Cannot destructure property 'a' of 'null' as it is null.",
    ))
  it("iterating a non-iterable", () =>
    expect(failure("for (const x of 5) {}").message).toBe("Uncaught TypeError: 5 is not iterable"))
  it("an error's stack shows only program locations", () =>
    expect(runJs("function f() { return new Error('s') }\nconst e = f()\ne.stack").value).toBe(
      "Error: s\n    at <program>:1:23",
    ))
})
