/**
 * A main chunk that starts with calls is compiled in two parts: its first statements up to the first call, then the
 * rest, which V8 compiles while the program's first host call is in flight. The split must change nothing a program
 * or its host can observe: values, errors and their locations, the work charged, the calls made.
 */
import { describe, expect, it } from "vitest"
import { compile, generatedSource, setRunOnceCompact } from "../src/compile.js"
import { FakeHost, runLua } from "./support/host.js"
import { run } from "../src/worker.js"

/** Programs that split (their first statements declare, assign or call) and what they cover in the rest. */
const programs: Array<[string, string]> = [
  [
    "the rest changes the first part's locals and closures capture them",
    `local r = tools.ns.echo({ n = 2 })
local a, b = r.n, 10
local function add() a = a + 1 return a end
add() add()
return { a = a, b = b, c = add() }`,
  ],
  [
    "varargs reach the rest",
    `local x = tools.ns.echo({ v = 1 })
local n = select("#", ...)
return n + x.v`,
  ],
  [
    "the first part's locals shadow each other",
    `local x = 1
local x = tools.ns.echo({ v = x + 1 })
x.v = x.v * 10
return x.v`,
  ],
  [
    "an error in the rest has its location",
    `local r = tools.ns.echo({ n = 1 })
local t = nil
return t.x + r.n`,
  ],
  [
    "an error in the first call stops before the rest",
    `local r = tools.ns.fail({})
return r`,
  ],
  [
    "the first part runs other calls before the first tool call",
    `local s = string.format("%d", 42)
local r = tools.ns.echo({ s = s })
return r.s .. "!"`,
  ],
  [
    "the rest loops and returns nothing",
    `local list = tools.ns.records({ count = 5 })
total = 0
for _, r in ipairs(list) do total = total + 1 end`,
  ],
]

/** Run `code` without splitting (and without compact run-once code), for comparison. */
const unsplit = (code: string, maxSteps?: number) => {
  setRunOnceCompact(false)
  try {
    return runLua(code, { maxSteps })
  } finally {
    setRunOnceCompact(true)
  }
}

describe("a main chunk split after its first call", () => {
  for (const [name, code] of programs)
    it(`${name}: the same outcome, calls and logs as unsplit`, () => {
      expect(generatedSource(code)).toContain("R()(")
      const split = runLua(code)
      const whole = unsplit(code)
      expect(split.outcome).toEqual(whole.outcome)
      expect(split.host.calls).toEqual(whole.host.calls)
      expect(split.host.logs).toEqual(whole.host.logs)
    })

  it("charges the same work, step for step", () => {
    // The meter looks at the work bound once every chunk of steps, so a bound stops the program only when it crosses
    // a chunk's end: the fewest iterations of an empty loop (one step each) that take a program over the bound tell
    // its exact count of steps before the loop.
    const fewest = (runOf: (code: string) => { outcome: { ok: boolean } }, template: string) => {
      let lo = 0
      let hi = 100_000
      while (lo < hi) {
        const mid = (lo + hi) >> 1
        if (runOf(template.replace("N", String(mid))).outcome.ok) lo = mid + 1
        else hi = mid
      }
      return lo
    }
    const bound = 16_384
    for (const [, code] of programs.slice(0, 3)) {
      const template = code.replace(/\nreturn /, "\nfor _ = 1, N do end\nreturn ")
      const split = fewest((c) => runLua(c, { maxSteps: bound }), template)
      expect(split).toBeGreaterThan(0)
      expect(split).toBeLessThan(100_000)
      expect(split).toBe(fewest((c) => unsplit(c, bound), template))
    }
  })

  it("compiles the rest while the first host call is in flight", () => {
    const code = `local r = tools.ns.echo({ n = 3 })
local sum = 0
for i = 1, r.n do sum = sum + i end
return sum`
    const compiledWhileWaiting: Array<boolean> = []
    class WatchingHost extends FakeHost {
      override waitAny() {
        compiledWhileWaiting.push(compile(code).rest?.factory !== undefined)
        return super.waitAny()
      }
    }
    const host = new WatchingHost(Date.now() + 60_000)
    const request = {
      code,
      tools: { ns: { echo: true } },
      extensions: [],
      limits: { timeoutMs: 60_000, maxToolCalls: 8, maxOutputBytes: 65_536 },
    }
    expect(run(request as never, host)).toEqual({ ok: true, value: 6 })
    expect(compiledWhileWaiting).toEqual([true])
    // Run again: the rest is compiled already, and the call is an ordinary one.
    expect(run(request as never, host)).toEqual({ ok: true, value: 6 })
    expect(compiledWhileWaiting).toEqual([true])
  })

  it("starts no call once the main function has reached the rest (it compiled the rest there)", () => {
    class BlockingOnlyHost extends FakeHost {
      override start(): number {
        throw new Error("this host only blocks")
      }
    }
    // The first part's tool call does not run: the rest is compiled where the main function reaches it.
    const code = `local r = false and tools.ns.echo({ v = 0 })
local t = {}
t.v = tools.ns.echo({ v = tostring(1) }).v
return t.v`
    const host = new BlockingOnlyHost(Date.now() + 60_000)
    const request = {
      code,
      tools: { ns: { echo: true } },
      extensions: [],
      limits: { timeoutMs: 60_000, maxToolCalls: 8, maxOutputBytes: 65_536 },
    }
    expect(run(request as never, host)).toEqual({ ok: true, value: "1" })
  })

  it("generates the rest while the first host call is in flight, not before", () => {
    const code = `local r = tools.ns.echo({ n = 4 })
local t = {}
for i = 1, r.n do t[#t + 1] = i * 2 end
return table.concat(t, ",")`
    const generatedBefore: Array<boolean> = []
    class WatchingHost extends FakeHost {
      override start(call: Parameters<FakeHost["start"]>[0]) {
        generatedBefore.push(compile(code).rest?.generate === undefined)
        return super.start(call)
      }
    }
    const request = {
      code,
      tools: { ns: { echo: true } },
      extensions: [],
      limits: { timeoutMs: 60_000, maxToolCalls: 8, maxOutputBytes: 65_536 },
    }
    expect(run(request as never, new WatchingHost(Date.now() + 60_000))).toEqual({ ok: true, value: "2,4,6,8" })
    expect(generatedBefore).toEqual([false])
  })

  it("a run that ends before its rest leaves no half-compiled program in the cache", () => {
    // The rest's generator holds the syntax tree: a program whose first part fails before its first call is
    // compiled again next time, its rest still to generate.
    const code = `local r = tools.ns.echo({ n = #missing })
local t = {}
for i = 1, 3 do t[i] = r end
return t`
    const request = {
      code,
      tools: { ns: { echo: true } },
      extensions: [],
      limits: { timeoutMs: 60_000, maxToolCalls: 8, maxOutputBytes: 65_536 },
    }
    const host = new FakeHost(Date.now() + 60_000)
    const first = run(request as never, host)
    expect(first).toMatchObject({ ok: false, error: { message: expect.stringContaining("global 'missing'") } })
    expect(host.calls).toEqual([])
    const again = compile(code)
    expect(again.rest?.generate).toBeDefined()
    expect(run(request as never, host)).toEqual(first)
  })

  it("does not split a chunk whose first statements define functions, loop, or jump", () => {
    for (const code of [
      "local f = function() return 1 end\nlocal x = tools.ns.echo({})\nreturn f()",
      "for i = 1, 2 do end\nlocal x = tools.ns.echo({})\nreturn 1",
      "::top:: local x = tools.ns.echo({})\nreturn 1",
      "return tools.ns.echo({})",
      "local s = string.format('%d', 1)\nreturn s",
      "local tools = { f = print }\ntools.f(1)\nreturn 1",
    ])
      expect(generatedSource(code)).not.toContain("R()(")
  })
})
