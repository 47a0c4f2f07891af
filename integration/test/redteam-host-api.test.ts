/**
 * Red team: the host API keeps its promises against hostile input and a dying sandbox. `execute` never fails (every
 * problem is a diagnostic), and a sandbox that dies during a call costs that execution only.
 */
import { readdirSync, readFileSync } from "node:fs"
import { CodeMode, SandboxPool, Tool } from "@codemode/core"
import { Effect } from "effect"
import { afterAll, describe, expect, it } from "vitest"

/** The sandbox processes this process started (Linux: read from /proc). */
const sandboxChildren = (): number[] =>
  readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
        const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1])
        return parent === process.pid && readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("sandbox-process")
      } catch {
        return false
      }
    })

const tools = {
  t: {
    echo: Tool.make({ description: "Echo", input: { type: "object" }, output: {}, execute: Effect.succeed }),
    // A host whose tool takes the sandbox down while the program waits for it (as the OOM killer would).
    killSandbox: Tool.make({
      description: "Kill the sandbox processes",
      input: { type: "object" },
      output: {},
      execute: () =>
        Effect.andThen(
          Effect.sync(() => {
            for (const pid of sandboxChildren()) process.kill(pid, "SIGKILL")
          }),
          Effect.as(Effect.sleep(200), "too late"),
        ),
    }),
  },
}

/** Failures whose causes are hostile to whoever describes them. */
const causes = {
  cycle: () => {
    const error = new Error("outer")
    ;(error as { cause?: unknown }).cause = error
    return error
  },
  getter: () => {
    const error = new Error("g")
    Object.defineProperty(error, "cause", {
      get() {
        throw new Error("the getter threw")
      },
    })
    return error
  },
}
const failing = {
  f: Object.fromEntries(
    Object.entries(causes).map(([name, make]) => [
      name,
      Tool.make({ description: name, input: { type: "object" }, execute: () => Effect.fail(make()) }),
    ]),
  ),
}

const pool = new SandboxPool({ maxWorkers: 1, keepIdle: 1 })
afterAll(() => pool.close())

describe("red team: execute never fails", () => {
  for (const language of ["lua", "javascript"] as const) {
    it(`${language}: a 300 MB program is a diagnostic, not a defect`, async () => {
      const runtime = CodeMode.make({ language, tools, pool })
      const result = await Effect.runPromise(runtime.execute("x".repeat(3e8)))
      expect(result.ok).toBe(false)
      if (!result.ok) expect(result.error.kind).toBe("ParseError")
      expect(await Effect.runPromise(runtime.execute(language === "lua" ? "return 2" : "2"))).toMatchObject({
        ok: true,
        value: 2,
      })
    })
  }

  it("a program that is not a string says so", async () => {
    const runtime = CodeMode.make({ language: "javascript", tools, pool })
    const result = await Effect.runPromise(runtime.execute(42 as unknown as string))
    expect(!result.ok && result.error.message).toMatch(/must be a string/)
  })
})

describe("red team: a sandbox that dies during a call", () => {
  for (const language of ["lua", "javascript"] as const) {
    it(`${language}: the execution fails with ExecutionFailure and the next one runs`, async () => {
      const runtime = CodeMode.make({ language, tools, pool, limits: { timeoutMs: 20_000 } })
      const code = language === "lua" ? "return tools.t.killSandbox({})" : "await tools.t.killSandbox({})"
      const result = await Effect.runPromise(runtime.execute(code))
      expect(result.ok).toBe(false)
      if (!result.ok) expect(result.error.kind).toBe("ExecutionFailure")
      const next = await Effect.runPromise(
        runtime.execute(language === "lua" ? "return tools.t.echo({ n = 1 }).n" : "(await tools.t.echo({ n: 1 })).n"),
      )
      expect(next).toMatchObject({ ok: true, value: 1 })
    })
  }
})

describe("red team: describing a failure cannot fail", () => {
  it("a tool failing with an error that is its own cause, or whose cause getter throws", async () => {
    const runtime = CodeMode.make({ language: "javascript", tools: failing, pool })
    const messages = await Effect.runPromise(
      runtime.execute(
        `const out = []; for (const f of [tools.f.cycle, tools.f.getter]) { try { await f({}) } catch (e) { out.push(e.message) } } out`,
      ),
    )
    expect(messages.ok && messages.value).toEqual([
      "f.cycle failed: outer",
      "f.getter failed: (a failure whose message could not be read: the getter threw)",
    ])
  })
})
