/**
 * Sandbox integrity, tried as an attacker would: no execution sees another's answers, a fatal failure inside the
 * sandbox never reaches the host, host-side buffers stay bounded whatever the limits, and time limits count from
 * the `execute` call.
 */
import { spawn } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { CodeMode, SandboxPool, Tool } from "@codemode/core"
import { Effect, Schema } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { lineLanguage } from "./language.js"

const pools: SandboxPool[] = []
const onePool = () => {
  const pool = new SandboxPool({ maxWorkers: 1, keepIdle: 1, maxOldGenerationSizeMb: 64 })
  pools.push(pool)
  return pool
}
afterAll(() => {
  for (const pool of pools) pool.close()
})

const slow = Tool.make({
  description: "Answer after a delay",
  input: Schema.Struct({ ms: Schema.Number, value: Schema.String }),
  output: Schema.String,
  execute: ({ ms, value }) => Effect.as(Effect.sleep(ms), value),
})
const boom = Tool.make({
  description: "Fail after a delay",
  input: { type: "object" },
  execute: () => Effect.andThen(Effect.sleep(30), Effect.fail(new Error("kaput"))),
})
const fails = Tool.make({
  description: "Fail at once",
  input: { type: "object" },
  execute: () => Effect.fail(new Error("at once")),
})
let running = 0
let most = 0
const counted = Tool.make({
  description: "Count how many run at once",
  input: { type: "object" },
  output: { type: "number" },
  execute: () =>
    Effect.acquireUseRelease(
      Effect.sync(() => {
        running++
        most = Math.max(most, running)
      }),
      () => Effect.as(Effect.sleep(1), running),
      () => Effect.sync(() => void running--),
    ),
})
const echo = Tool.make({
  description: "Echo",
  input: { type: "object" },
  output: { type: "object" },
  execute: Effect.succeed,
})

const tools = { slow, boom, fails, counted, echo }
const run = (pool: SandboxPool, code: string, limits = {}) =>
  Effect.runPromise(CodeMode.make({ language: lineLanguage(), tools, pool, limits }).execute(code))

describe("answers belong to exactly one execution", () => {
  it("an answer that arrives after its program ended never reaches the next program on that sandbox", async () => {
    const pool = onePool()
    for (let i = 0; i < 5; i++) {
      const first = await run(pool, `start boom {}\nstart slow {"ms":20,"value":"stale"}\nreturn 1`)
      expect(first).toMatchObject({ ok: true, value: 1 })
      const second = await run(pool, `call slow {"ms":60,"value":"mine"}\nreturn $`)
      expect(second).toMatchObject({ ok: true, value: "mine" })
    }
  })

  it("settledCalls returns the un-awaited calls that already ended, once", async () => {
    const result = await run(onePool(), `start fails {}\nstart slow {"ms":5000,"value":"later"}\nsettled`)
    expect(result).toMatchObject({ ok: true, value: ["fails failed: at once"] })
  })

  it("a sandbox that asked to retire is never reused; one that did not is", async () => {
    const pool = onePool()
    const a = await run(pool, "pid")
    const b = await run(pool, "pid")
    expect(b).toMatchObject({ ok: true, value: (a as { value: number }).value })
    const c = await run(pool, "retire\npid")
    const d = await run(pool, "pid")
    expect(c).toMatchObject({ ok: true, value: (a as { value: number }).value })
    expect((d as { value: number }).value).not.toBe((c as { value: number }).value)
  })
})

describe("a fatal failure inside the sandbox ends that sandbox only", () => {
  it("one allocation past the heap limit (V8 aborts its process) gives ExecutionFailure, and the host runs on", async () => {
    const pool = onePool()
    const result = await run(pool, "hugealloc")
    expect(result).toMatchObject({ ok: false, error: { kind: "ExecutionFailure" } })
    expect(result.ok === false && result.error.message).toMatch(/the sandbox ran out of memory/)
    expect(await run(pool, `return "alive"`)).toMatchObject({ ok: true, value: "alive" })
  })

  it("sandboxes do not outlive a host that is killed", async () => {
    const script = `
      import { CodeMode, SandboxPool } from "@codemode/core"
      import { Effect } from "effect"
      const language = {
        ...${JSON.stringify({ ...lineLanguage(), dialect: undefined })},
        dialect: (await import("@codemode/core")).Language.find("lua").dialect,
      }
      const pool = new SandboxPool({ maxWorkers: 1, keepIdle: 1 })
      const rt = CodeMode.make({ language, pool, limits: { timeoutMs: 600000 } })
      console.log(JSON.stringify((await Effect.runPromise(rt.execute("pid"))).value))
      await Effect.runPromise(rt.execute("spin"))
    `
    const host = spawn(process.execPath, ["--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "inherit"],
      cwd: new URL("..", import.meta.url).pathname,
    })
    const sandboxPid = await new Promise<number>((resolve, reject) => {
      host.stdout.once("data", (chunk) => resolve(Number(String(chunk).trim())))
      host.once("exit", (code) => reject(new Error(`the host exited early (${code})`)))
    })
    expect(existsSync(`/proc/${sandboxPid}`)).toBe(true)
    host.kill("SIGKILL")
    let alive = true
    for (let i = 0; i < 100 && alive; i++) {
      await new Promise((r) => setTimeout(r, 50))
      alive = existsSync(`/proc/${sandboxPid}`) && !isZombie(sandboxPid)
    }
    expect(alive).toBe(false)
  })
})

const isZombie = (pid: number): boolean => {
  try {
    return /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"))
  } catch {
    return true
  }
}

describe("host-side buffers are bounded whatever the limits", () => {
  it("log lines are cut to 100,000 characters and logs to 16 MiB even with maxOutputBytes unlimited", async () => {
    const result = await run(onePool(), "flood 200 2000000\nreturn 1", { maxOutputBytes: Infinity })
    expect(result.ok).toBe(true)
    const logs = result.logs ?? []
    expect(logs[0].length).toBeLessThan(100_100)
    expect(logs[0].slice(100_000)).toBe("…[truncated: the line was 2000000 characters]")
    const total = logs.reduce((n, line) => n + line.length, 0)
    expect(total).toBeLessThanOrEqual(16 * 1024 * 1024)
    expect(logs.at(-1)).toMatch(/more log lines omitted/)
  })

  it("at most 8 calls of one execution run at once, the rest wait; 10,000 are listed", async () => {
    most = 0
    const result = await run(onePool(), "startmany 12000 counted\nwaitall\nreturn 1", {
      maxToolCalls: Infinity,
      timeoutMs: 120_000,
    })
    expect(result).toMatchObject({ ok: true, value: 1 })
    expect(most).toBe(8)
    expect(result.toolCalls).toHaveLength(10_000)
    expect(result.ok && result.warnings).toContainEqual(
      expect.objectContaining({ kind: "Truncated", message: expect.stringMatching(/2000 more were made/) }),
    )
  })
})

describe("a program that never waits cannot make the host hold its calls", () => {
  it("past maxToolCalls the host ends the program once and reads no more of its calls", async () => {
    const result = await run(onePool(), "startmany 5000 counted\nwaitall\nreturn 1", { maxToolCalls: 10 })
    expect(result).toMatchObject({ ok: false, error: { kind: "ToolCallLimitExceeded" } })
    expect(result.toolCalls).toHaveLength(10)
  })

  it("100,000 calls waiting their turn is the most; the next ends the program", async () => {
    const result = await run(onePool(), "startmany 120000 boom\ntry waitall\nreturn 1", {
      maxToolCalls: Infinity,
      timeoutMs: 120_000,
    })
    expect(result).toMatchObject({ ok: false, error: { kind: "ToolCallLimitExceeded" } })
    expect(result.ok === false && result.error.message).toMatch(/more than 100000 calls that have not finished/)
  })
})

describe("time limits count from the execute call", () => {
  it("waiting for a busy sandbox counts toward timeoutMs", async () => {
    const pool = onePool()
    const [first, second] = await Promise.all([
      run(pool, "spin", { timeoutMs: 800 }),
      run(pool, "return 1", { timeoutMs: 300 }),
    ])
    expect(first).toMatchObject({ ok: false, error: { kind: "TimeoutExceeded" } })
    expect(second).toMatchObject({ ok: false, error: { kind: "TimeoutExceeded" } })
    expect(second.ok === false && second.error.message).toMatch(/could not start within timeoutMs/)
  })
})
