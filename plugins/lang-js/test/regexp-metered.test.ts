/**
 * Regular expressions with backreferences and lookarounds run on the metered matcher: through every RegExp and
 * String method they give Node's results, and a pattern that backtracks without end stops with the work budget's
 * or the deadline's diagnostic at the program's line.
 */
import { afterEach, describe, expect, it } from "vitest"
import { meteredMatcher } from "../src/regexp/index.js"
import { setWorkBudget } from "../src/runtime/meter.js"
import { evaluate, failure } from "./harness.js"
import { sameAsNode } from "./node.js"

afterEach(() => setWorkBudget())

describe("patterns the metered matcher runs give Node's results", () => {
  const bodies = [
    `return [/(a+)\\1/.exec("xaaaay"), /(?<q>['"]).*?\\k<q>/.exec("say 'hi' \\"x\\"")]`,
    `const r = /(\\w)\\1/g; const out = []; let m; while ((m = r.exec("aabbcdde")) !== null) out.push([m[0], m.index, r.lastIndex]); return out`,
    `return "aabbccd".match(/(\\w)\\1/g)`,
    `return [..."aXbXXc".matchAll(/(?<=X)(\\w)/g)].map((m) => [m[0], m[1], m.index])`,
    `return "2024-01-02".replace(/(?<y>\\d+)-(?<m>\\d+)-(?<d>\\d+)(?=$)/, "$<d>/$<m>/$<y> $1 $$ $& $' $\`")`,
    `return "a1b22c333".replace(/(\\d)\\1*/g, (m, d, i) => "[" + m + ":" + d + ":" + i + "]")`,
    `return ["a, b,,c".split(/(?<=,)\\s*/), "abcabc".split(/(?=b)/, 2), "xaay".split(/(a)\\1/)]`,
    `return ["foo bar".search(/(?<!f)o/), /(?!a)\\w/y.test("ab"), /(?<a>.)\\k<a>/i.test("aA")]`,
    `const r = /(?=(\\d))/g; return "12".replaceAll(r, "-")`,
    `return JSON.stringify(/(?<a>x)|(?<b>y)\\k<b>/d.exec("zyy").indices)`,
    `return /(?<a>x)|(?<b>y)\\k<b>/d.exec("zyy").groups`,
    `return [/^(?:(a)|b)\\1$/.test("aa"), /^(?:(a)|b)\\1$/.test("b"), /(?<=\\$)\\d+(?:\\.\\d\\d)?(?!\\d)/.exec("cost $12.50!")]`,
    `return /\\u{1F600}(?=\\u{1F601})/u.exec("x\\u{1F600}\\u{1F601}").index`,
    `return [/(ſ)\\1/iu.test("sS"), /(?<=\\W)K/iu.test("-\\u212A"), /(é)\\1/i.test("éÉ")]`,
    `const r = /(a)(?=\\1)/y; r.lastIndex = 1; return [r.test("aaa"), r.lastIndex, r.test("aaa"), r.lastIndex]`,
  ]
  for (const body of bodies) it(body, () => sameAsNode(body))

  it("a subclass and a changed exec still go through the protocol", () =>
    sameAsNode(`class R extends RegExp { exec(s) { const m = super.exec(s); if (m) m[0] = m[0].toUpperCase(); return m } }
      return "abab".replace(new R("(b)(?=a|$)", "g"), "<$&>")`))
})

describe("which patterns the metered matcher takes", () => {
  it("those the host's linear-time engine refuses, when they can backtrack", () => {
    const metered = (re: RegExp) => meteredMatcher(re) !== null
    // Patterns TypeScript refuses as literals (an octal escape, the v flag); a class of strings stays on the host.
    const make = (source: string, flags: string) => new RegExp(source, flags)
    for (const re of [
      /(a)\1/,
      /\k<n>(?<n>a)/,
      /a(?=b)/,
      /(?<!a)b/,
      /a+b/i,
      /a|b/u,
      /a*/d,
      /(a{1,30})+/,
      /(?:a{1,4}){1,5}/,
      /(?:a|b){17}/,
      make("(?<n>[\\w--a])\\k<n>", "v"),
    ])
      expect(metered(re), String(re)).toBe(true)
    for (const re of [
      /a+b/,
      /(a+)+$/gmsy,
      /abc/i,
      /\u{1F600}x/u,
      /a{1,16}/,
      /(?:a{1,4}){1,4}/,
      /(a)|b/,
      make("a{2}\\2", ""),
      make("([\\q{ab}])+\\1", "v"),
      /a{17}/,
    ])
      expect(metered(re), String(re)).toBe(false)
  })
})

describe("a backtracking pattern cannot run without end", () => {
  it("the work budget ends a backreference pattern that backtracks exponentially", () => {
    setWorkBudget(300_000)
    const d = failure(`const s = "a".repeat(300) + "b"\nconst r = /^(a+)+\\1$/\nr.test(s)`)
    expect(d.kind).toBe("ExecutionFailure")
    expect(d.message).toMatch(/work budget of 300000 steps/)
    expect(d.location?.line).toBe(3)
  })

  it("the work budget ends a lookahead pattern that backtracks exponentially", () => {
    setWorkBudget(300_000)
    const d = failure(`"x".repeat(5) + ("a".repeat(200) + "!").replace(/(?=(a|aa)+$)a/g, "")`)
    expect(d.message).toMatch(/work budget/)
  })

  it("the deadline ends one", () => {
    const d = failure(`/^(?:(a+)+\\1)+$/.test("a".repeat(3000) + "b")`, { deadline: Date.now() + 300 })
    expect(d.kind).toBe("TimeoutExceeded")
  })

  it("so do patterns the host's linear-time engine refuses for their flags or counted repetitions", () => {
    for (const re of ["/(a+)+$/i", "/(a+)+$/u", "/(a+)+$/d", "/(a{1,30})+$/", "/(?:a|a)*b/iu", "/^(\\w+\\s?)*$/i"]) {
      expect(evaluate(`${re}.test("a".repeat(40) + "!")`), re).toBe(false)
      setWorkBudget(300_000)
      expect(failure(`${re}.test("a".repeat(3000) + "!")`).message, re).toMatch(/work budget/)
      setWorkBudget()
    }
  })

  it("a match that needs more than the backtrack stack's bound throws the language's RangeError", () => {
    const code = `let r; try { r = /^(?:(a)|b)*\\1$/.test("ab".repeat(1e6)) } catch (e) { r = e.name + ": " + e.message } r`
    expect(evaluate(code)).toBe("RangeError: Maximum call stack size exceeded")
  })

  it("the classic hostile case answers at once (failed states are remembered)", () => {
    expect(evaluate(`/^(a+)+\\1$/.test("a".repeat(40) + "b")`)).toBe(false)
    expect(evaluate(`/^(a|aa)+\\1$/.test("a".repeat(40) + "b")`)).toBe(false)
    expect(evaluate(`/^(?=(a+)+$)\\1/.test("a".repeat(40) + "b")`)).toBe(false)
  })
})
