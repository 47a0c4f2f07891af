/**
 * Red team: `timeoutMs` holds, and a program cannot run without end when the limits say it must stop.
 *
 * Each case is a short program (or a host hook) that kept an execution running past its limit on the code before
 * the fix. A case still open in an interpreter is marked `it.fails` and flips when its package fixes it.
 */
import { CodeMode, SandboxPool, Tool } from "@codemode/core"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

const tools = {
  t: {
    echo: Tool.make({ description: "Echo", input: { type: "object" }, output: {}, execute: Effect.succeed }),
    never: Tool.make({
      description: "Never answers",
      input: { type: "object" },
      output: {},
      execute: () => Effect.never,
    }),
  },
}

/** The result, or "still running" when `ms` pass first (the execution is left behind, never awaited). */
const within = <A>(ms: number, promise: Promise<A>): Promise<A | "still running"> =>
  Promise.race([promise, new Promise<"still running">((resolve) => setTimeout(() => resolve("still running"), ms))])

const pool = new SandboxPool({ maxWorkers: 4, keepIdle: 2 })
afterAll(() => pool.close())
beforeAll(async () => {
  // Warm sandboxes for both languages, so that a short timeout is spent running the program, not starting one.
  for (const language of ["lua", "javascript"] as const)
    await Effect.runPromise(CodeMode.make({ language, tools, pool }).execute(language === "lua" ? "return 1" : "1"))
})

const waitsForNever = { lua: "return tools.t.never({})", javascript: "await tools.t.never({})" }

describe("red team: hooks cannot hold an execution past timeoutMs", () => {
  for (const language of ["lua", "javascript"] as const) {
    it(`${language}: a tool.after hook that never settles (it runs when the timeout interrupts the call)`, async () => {
      const runtime = CodeMode.make({
        language,
        tools,
        pool,
        // Long enough for the call to start even on a loaded machine; the hook then holds the interruption.
        limits: { timeoutMs: 1500 },
        hooks: { "tool.after": () => new Promise<void>(() => {}) },
      })
      const result = await within(6000, Effect.runPromise(runtime.execute(waitsForNever[language])))
      expect(result).not.toBe("still running")
      if (result === "still running") return
      expect(result.ok).toBe(false)
      if (!result.ok) expect(result.error.kind).toBe("TimeoutExceeded")
      expect(result.toolCalls.map((c) => c.name)).toEqual(["t.never"])
    })

    it(`${language}: a tool.before hook that cannot be interrupted`, async () => {
      const runtime = CodeMode.make({
        language,
        tools,
        pool,
        limits: { timeoutMs: 300 },
        hooks: { "tool.before": () => Effect.uninterruptible(Effect.never) },
      })
      const code = language === "lua" ? "return tools.t.echo({})" : "await tools.t.echo({})"
      const result = await within(4000, Effect.runPromise(runtime.execute(code)))
      expect(result).not.toBe("still running")
      if (result !== "still running" && !result.ok) expect(result.error.kind).toBe("TimeoutExceeded")
    })
  }

  it("javascript: a program that returned is not held by a call whose after hook never settles (no timeout set)", async () => {
    const runtime = CodeMode.make({
      language: "javascript",
      tools,
      pool,
      hooks: { "tool.after": () => new Promise<void>(() => {}) },
    })
    const result = await within(6000, Effect.runPromise(runtime.execute("tools.t.never({}); 42")))
    expect(result).not.toBe("still running")
    if (result === "still running") return
    expect(result.ok && result.value).toBe(42)
    expect(result.ok && result.warnings?.some((w) => w.kind === "TimeoutExceeded")).toBe(true)
  })
})

describe("red team: built-ins cannot run without end", () => {
  it("javascript: a catastrophically backtracking regular expression ends (default limits: no timeout)", async () => {
    const runtime = CodeMode.make({ language: "javascript", tools, pool })
    const cases = [
      `/(a+)+$/.test("a".repeat(40) + "b")`,
      `/(a|a)*b/.test("a".repeat(40))`,
      `/^(\\w+\\s?)*$/.test("a".repeat(45) + "!")`,
      `"a".repeat(40).replace(/(a*)*b/g, "x")`,
    ]
    for (const code of cases) {
      const result = await within(4000, Effect.runPromise(runtime.execute(code)))
      expect(result, code).not.toBe("still running")
    }
  })

  // lang-js: what V8's linear-time engine refuses (backreferences, lookarounds, the i/u/d flags, counted repetitions
  // copied past 16 times, through nesting too) stays on its backtracking engine, which no work budget or clock check reaches;
  // with JavaScript's default limits (no timeout) such a match held its sandbox for good.
  const backtracking = [
    `/^(a+)+\\1$/.test("a".repeat(40) + "b")`,
    `/^(?=(a+)+$)x/.test("a".repeat(40) + "!")`,
    `/(?<=(a+)+)b$/.test("a".repeat(40) + "!")`,
    `/^(a+)+$/i.test("a".repeat(40) + "!")`,
    `/^(a+)+$/u.test("a".repeat(40) + "!")`,
    `/^(a+)+$/d.test("a".repeat(40) + "!")`,
    `/^(a{1,30})+$/.test("a".repeat(40) + "!")`,
  ]
  it("javascript: backtracking regular expressions V8's linear engine refuses end (default limits)", async () => {
    const runtime = CodeMode.make({ language: "javascript", tools, pool })
    for (const code of backtracking) {
      const result = await within(5000, Effect.runPromise(runtime.execute(code)))
      expect(result, code).toMatchObject({ ok: true, value: false })
    }
  })

  // lang-js: built-ins charge their work to the work budget (2e9 steps): a reverse reads and writes every element.
  it("javascript: built-ins charge their work (a.reverse() on a million elements, in a loop)", async () => {
    const runtime = CodeMode.make({ language: "javascript", tools, pool })
    const code = "const a = new Array(1e6).fill(1); for (let i = 0; i < 1e6; i++) a.reverse(); a.length"
    const result = await within(6000, Effect.runPromise(runtime.execute(code)))
    expect(result).not.toBe("still running")
    if (result !== "still running") expect(!result.ok && result.error.message).toMatch(/work budget/)
  })

  // lang-lua: string library work is not charged to the work limit (1e9 steps); with timeoutMs: Infinity nothing
  // ends it (charged one step a character, this program reaches the limit after about a thousand calls).
  it("lua: library functions charge their work (string.upper of a MiB, in a loop; timeoutMs: Infinity)", async () => {
    const runtime = CodeMode.make({ language: "lua", tools, pool, limits: { timeoutMs: Infinity } })
    const code = `local s = string.rep("a", 1e6) local n = 0 for i = 1, 1e6 do n = n + #s:upper() end return n`
    const result = await within(8000, Effect.runPromise(runtime.execute(code)))
    expect(result).not.toBe("still running")
    if (result !== "still running") expect(!result.ok && result.error.message).toMatch(/work limit/)
  })
})
