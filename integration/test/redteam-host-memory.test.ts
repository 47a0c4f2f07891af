/**
 * Red team: whatever a program does, the host keeps a bounded amount for its execution and returns a bounded
 * `Result`, whatever the limits (these run with JavaScript's defaults: no output or call limits).
 *
 * Each case made the host hold (and return) memory in proportion to what the program chose on the code before the
 * fix: huge failure messages kept in every call record, huge errors thrown by the program, the inputs of calls
 * waiting their turn, functions of extension results.
 */
import { CodeMode, Extension, SandboxPool, Tool } from "@codemode/core"
import { Effect } from "effect"
import { afterAll, describe, expect, it } from "vitest"

/** A tool failing with a whole (1 MiB) response body in its message, as a failing HTTP call would. */
const hugeBody = "<html>".repeat(180_000)
const tools = {
  t: {
    fails: Tool.make({
      description: "Fails with a huge message",
      input: { type: "object" },
      execute: () => Effect.fail(new Error(`HTTP 500: ${hugeBody}`)),
    }),
    never: Tool.make({
      description: "Never answers",
      input: { type: "object" },
      output: {},
      execute: () => Effect.never,
    }),
  },
}

const pool = new SandboxPool({ maxWorkers: 2, keepIdle: 1 })
afterAll(() => pool.close())
const js = CodeMode.make({ language: "javascript", tools, pool })
const lua = CodeMode.make({ language: "lua", tools, pool, limits: { maxOutputBytes: Infinity, maxToolCalls: 1000 } })
const run = (runtime: typeof js, code: string) => Effect.runPromise(runtime.execute(code))

describe("red team: messages are bounded", () => {
  it("javascript: twenty calls failing with a 1 MiB message do not make a 20 MiB result", async () => {
    const result = await run(
      js,
      `let longest = 0
       for (let i = 0; i < 20; i++) { try { await tools.t.fails({}) } catch (e) { longest = Math.max(longest, e.message.length) } }
       longest`,
    )
    expect(result.ok).toBe(true)
    expect(result.toolCalls).toHaveLength(20)
    // The program still sees a long (but bounded) message; each call record keeps a short one.
    expect(result.ok && (result.value as number)).toBeLessThanOrEqual(100_100)
    expect(JSON.stringify(result).length).toBeLessThan(100_000)
  })

  it("lua: the same through pcall", async () => {
    const result = await run(
      lua,
      `local longest = 0
       for i = 1, 20 do local ok, e = pcall(tools.t.fails, {}) longest = math.max(longest, #tostring(e)) end
       return longest`,
    )
    expect(result.ok).toBe(true)
    expect(result.ok && (result.value as number)).toBeLessThanOrEqual(100_200)
    expect(JSON.stringify(result).length).toBeLessThan(100_000)
  })

  it("javascript: a program throwing a 30 MB message gets a bounded error", async () => {
    const result = await run(js, `throw new Error("x".repeat(3e7))`)
    expect(result.ok).toBe(false)
    expect(!result.ok && result.error.message.length).toBeLessThanOrEqual(100_100)
    expect(!result.ok && result.error.message).toMatch(/truncated/)
  })

  it("lua: a program raising a 16 MB error gets a bounded error (also with maxOutputBytes: Infinity)", async () => {
    for (const code of [`error(string.rep("x", 1.6e7))`, `error({ msg = string.rep("x", 1.6e7) })`]) {
      const result = await run(lua, code)
      expect(result.ok).toBe(false)
      expect(!result.ok && result.error.message.length, code).toBeLessThanOrEqual(100_100)
    }
  })

  it("javascript: an unhandled rejection with a huge message is a bounded warning", async () => {
    const result = await run(js, `Promise.reject(new Error("x".repeat(3e6))); 1`)
    expect(result.ok).toBe(true)
    expect(JSON.stringify(result).length).toBeLessThan(200_000)
  })
})

describe("red team: calls waiting their turn are bounded in bytes", () => {
  it("javascript: forty un-awaited calls with 4 MB inputs each end the program instead of filling the host", async () => {
    const result = await run(js, `const s = "x".repeat(4e6); for (let i = 0; i < 40; i++) tools.t.never({ s, i }); 1`)
    // The limit ends the run on the host (no further call is read); a finished JavaScript program reports a fatal
    // failure of a call it never awaited as a warning.
    const diagnostics = result.ok ? (result.warnings ?? []) : [result.error]
    expect(diagnostics.find((d) => d.kind === "ToolCallLimitExceeded")?.message).toMatch(/64 MiB/)
    expect(result.toolCalls.length).toBeLessThan(30)
  })

  it("javascript: a few large calls in flight at once still run", async () => {
    const echo = CodeMode.make({
      language: "javascript",
      pool,
      tools: {
        t: { echo: Tool.make({ description: "Echo", input: { type: "object" }, output: {}, execute: Effect.succeed }) },
      },
    })
    const result = await run(
      echo,
      `const s = "x".repeat(1e6); (await Promise.all(Array.from({ length: 12 }, (_, i) => tools.t.echo({ s, i })))).map((r) => r.i)`,
    )
    expect(result.ok && result.value).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])
  })
})

describe("red team: functions of extension results are bounded", () => {
  const db = Extension.make({
    name: "db",
    globals: {
      db: {
        page: () => ({ rows: [1, 2, 3], next: () => null }),
        many: () => Array.from({ length: 20_000 }, () => () => 1),
      },
    },
  })
  const runtime = CodeMode.make({ language: "javascript", tools, pool, extensions: [db] })

  it("javascript: a result with 20,000 functions is refused", async () => {
    const result = await run(runtime, `let r; try { db.many(); r = "held" } catch (e) { r = e.message } r`)
    expect(result.ok && result.value).toMatch(/at most 10000 functions/)
  })

  it("javascript: calling db.page() 10,001 times fails the last call instead of holding every result", async () => {
    const result = await run(
      runtime,
      `let n = 0, message = "none"; try { for (let i = 0; i < 10001; i++) { db.page(); n++ } } catch (e) { message = e.message } [n, message]`,
    )
    expect(result.ok).toBe(true)
    const [n, message] = (result.ok ? result.value : []) as [number, string]
    expect(n).toBe(10_000)
    expect(message).toMatch(/at most 10000 functions/)
  })
})
