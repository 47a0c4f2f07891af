/**
 * Compiled programs kept between executions (`programCache.ts`): a program run again reuses its compiled form, and
 * every run must still see only its own execution: its tools and extension globals, its host, a restored or new
 * realm, objects made per execution.
 */
import { describe, expect, it } from "vitest"
import type { DataValue } from "@codemode/core/sandbox"
import { releaseRealm } from "../src/builtins/index.js"
import { run } from "../src/worker.js"
import { evaluate, failure, fakeHost, type FakeOptions, runJs } from "./harness.js"

const twice = (code: string, first: FakeOptions, second: FakeOptions): [DataValue, DataValue] => [
  evaluate(code, first),
  evaluate(code, second),
]

describe("a program run again", () => {
  it("calls the tools of its own execution", () => {
    const code = "const r = await tools.shop.get({ id: 1 }); [r.name, typeof tools.shop.get, typeof search]"
    const tool = (name: string): FakeOptions => ({ tools: { "shop.get": () => ({ value: { name } }) } })
    expect(twice(code, tool("first"), tool("second"))).toEqual([
      ["first", "function", "function"],
      ["second", "function", "function"],
    ])
  })

  it("reaches the host of its own execution, also through a function kept from the compiled code", () => {
    const code = "const f = async (x) => (await tools.t.echo({ x })).x\nawait f(1) + (await f(2))"
    const calls: DataValue[][] = [[], []]
    const options = (i: number): FakeOptions => ({
      tools: {
        "t.echo": (input) => {
          calls[i].push(input)
          return { value: { x: (input as { x: number }).x * (i + 10) } }
        },
      },
    })
    expect(twice(code, options(0), options(1))).toEqual([30, 33])
    expect(calls).toEqual([
      [{ x: 1 }, { x: 2 }],
      [{ x: 1 }, { x: 2 }],
    ])
  })

  it("sees the extension globals of its own execution, and not those of an earlier one", () => {
    const code = "typeof fmt === 'undefined' ? 'none' : fmt(2)"
    const withFmt = (k: number): FakeOptions => ({
      extensions: { fmt: { kind: "sync", fn: (x) => ({ value: `${k}:${x}` }) } },
    })
    expect(evaluate(code, withFmt(1))).toBe("1:2")
    expect(evaluate(code)).toBe("none")
    expect(evaluate(code, withFmt(3))).toBe("3:2")
    expect(failure("fmt(2)").message).toBe("Uncaught ReferenceError: fmt is not defined")
    expect(evaluate("fmt(2)", withFmt(4))).toBe("4:2")
    expect(failure("fmt(2)").message).toBe("Uncaught ReferenceError: fmt is not defined")
  })

  it("imports the modules of its own execution", () => {
    const code = "import { readFile } from 'node:fs'\nconst m = await import('fs')\n;[readFile('/a'), m.readFile('/b')]"
    const fs = (tag: string): FakeOptions => ({
      extensions: { fs: { members: { readFile: { kind: "sync", fn: (p) => ({ value: `${tag}${p}` }) } } } },
    })
    expect(twice(code, fs("x"), fs("y"))).toEqual([
      ["x/a", "x/b"],
      ["y/a", "y/b"],
    ])
  })

  it("finds the built-ins restored after an execution that changed them", () => {
    const code =
      "const before = [typeof Array.prototype.extra, typeof globalThis.leaked, Math.max(1, 2)]\n" +
      "Array.prototype.extra = 1; globalThis.leaked = 2; Math.max = () => 0\nbefore"
    expect(twice(code, {}, {})).toEqual([
      ["undefined", "undefined", 2],
      ["undefined", "undefined", 2],
    ])
  })

  it("runs against a new realm when the last one could not be restored", () => {
    const code =
      "const fresh = [Object.isFrozen(Array.prototype), typeof Array.prototype.extra, [1, 2].map((x) => x * 2)]\n" +
      "Array.prototype.extra = 1; Object.freeze(Array.prototype)\nfresh"
    for (let i = 0; i < 3; i++) {
      expect(evaluate(code)).toEqual([false, "undefined", [2, 4]])
      expect(releaseRealm()).toBeUndefined()
    }
  })

  it("makes a tagged template's strings once per execution", () => {
    const code =
      "const seen = []\nconst tag = (s) => { seen.push(s); return s.raw[0] }\n" +
      "for (let i = 0; i < 3; i++) tag`a${i}b`\n;[seen[0] === seen[2], Object.isFrozen(seen[0]), tag`x\\n`]"
    expect(twice(code, {}, {})).toEqual([
      [true, true, "x\\n"],
      [true, true, "x\\n"],
    ])
  })

  it("gives its diagnostics again when it does not parse or compile", () => {
    for (const code of ["const = 1", "class A { static { eval('1') } }\nnew A()", "with (x) {}"]) {
      const first = runJs(code).outcome
      expect(first.ok).toBe(false)
      expect(runJs(code).outcome).toEqual(first)
    }
  })

  it("keeps no state in its compiled functions and classes between executions", () => {
    const code =
      "class C { static count = 0; #v; constructor(v) { this.#v = v; C.count++ } get v() { return this.#v } }\n" +
      "let n = 0\nconst inc = () => ++n\ninc(); inc()\n;[new C(1).v, new C(2).v, C.count, n, typeof globalThis.C]"
    expect(twice(code, {}, {})).toEqual([
      [1, 2, 2, 2, "undefined"],
      [1, 2, 2, 2, "undefined"],
    ])
  })

  it("makes a new regular expression object at each evaluation, in every execution", () => {
    const code =
      "const seen = []\nfor (let i = 0; i < 2; i++) { const r = /a/g; r.exec('aaa'); seen.push(r.lastIndex) }\nseen"
    expect(twice(code, {}, {})).toEqual([
      [1, 1],
      [1, 1],
    ])
  })

  it("is kept apart for each runtime's scope and still behaves the same in each", () => {
    const f = fakeHost({})
    const code = "let s = 0\nfor (let i = 0; i < 10; i++) s += i\ns"
    for (const scope of ["a", "b", "a", "b"]) {
      const outcome = run({ ...f.request(code), scope }, f.host)
      expect(outcome).toEqual({ ok: true, value: 45 })
    }
  })
})
