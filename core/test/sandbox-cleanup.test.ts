/**
 * Cleaning up after a run (`LanguageRuntime.afterRun`): the sandbox sends a run's result first and puts its state
 * back afterwards, and reads no other run before it is clean. A sandbox whose cleanup fails, takes too long or kills
 * it is replaced, a run already sent to it starts over in the replacement, and the next execution neither fails nor
 * sees what the last one left.
 */
import { spawn } from "node:child_process"
import { CodeMode, SandboxPool } from "@codemode/core"
import { Effect } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { lineLanguage } from "./language.js"

const pools: SandboxPool[] = []
/** One sandbox kept (so that every run lands on it while it lives), room to start others. */
const pool = () => {
  const p = new SandboxPool({ maxWorkers: 4, keepIdle: 1, maxOldGenerationSizeMb: 64 })
  pools.push(p)
  return p
}
afterAll(() => {
  for (const p of pools) p.close()
})

const withCleanup = lineLanguage({
  workerModule: new URL("./fixtures/line-language-cleanup.mjs", import.meta.url).href,
})
const run = async (p: SandboxPool, code: string, language = withCleanup) => {
  const result = await Effect.runPromise(CodeMode.make({ language, pool: p }).execute(code))
  if (!result.ok) throw new Error(`${code}: ${JSON.stringify(result.error)}`)
  return result.value as never
}

describe("cleaning up after a run", () => {
  it("the result arrives before the cleanup ends; the next run waits for it on the same sandbox and sees it done", async () => {
    const p = pool()
    const first = await run(p, "dirty 41\ncleanup slow 300\npid")
    const delivered = Date.now()
    const next: { count: number; lastEnd: number } = await run(p, "cleaned")
    expect(delivered).toBeLessThan(next.lastEnd)
    expect(await run(p, "seen")).toBeNull()
    // The run waited for the sandbox that was cleaning up instead of starting another.
    expect(await run(p, "pid")).toBe(first)
  })

  it("every run on a sandbox follows the cleanup of the one before", async () => {
    const p = pool()
    const pid = await run(p, "pid")
    const before: { count: number } = await run(p, "cleaned")
    for (let i = 0; i < 20; i++) {
      expect(await run(p, "seen")).toBeNull()
      await run(p, `dirty ${i}\nreturn 1`)
    }
    const after: { count: number } = await run(p, "cleaned")
    expect(after.count - before.count).toBe(41)
    expect(await run(p, "pid")).toBe(pid)
  })

  it("a language without a cleanup gets its next run at once, on the same sandbox", async () => {
    const p = pool()
    const plain = lineLanguage()
    const pid = await run(p, "dirty 7\npid", plain)
    for (let i = 0; i < 10; i++) expect(await run(p, "seen", plain)).toBe(7)
    expect(await run(p, "cleaned", plain)).toEqual({ count: 0, lastEnd: 0 })
    expect(await run(p, "pid", plain)).toBe(pid)
  })

  it("a sandbox whose cleanup asks to retire is never reused, and the next execution runs in a new one", async () => {
    const p = pool()
    const first = await run(p, "dirty 1\ncleanup fail the state could not be put back\npid")
    expect(await run(p, "pid")).not.toBe(first)
    expect(await run(p, "seen")).toBeNull()
  })

  it("so is one whose cleanup throws", async () => {
    const p = pool()
    const first = await run(p, "cleanup throw kaput\npid")
    const second = await run(p, "pid")
    expect(second).not.toBe(first)
    expect(await run(p, "pid")).toBe(second)
  })

  it("a run sent while the cleanup that then fails is still going starts in a new sandbox, unharmed", async () => {
    const p = pool()
    for (const how of ["slowfail 200", "die 200"]) {
      const first = await run(p, `dirty 1\ncleanup ${how}\npid`)
      const second = await run(p, "log hello\nseen")
      expect(second).toBeNull()
      expect(await run(p, "pid")).not.toBe(first)
    }
  })

  it("a run of the same runtime started over in a new sandbox brings its shapes along", async () => {
    const p = pool()
    const rt = CodeMode.make({ language: withCleanup, pool: p })
    const exec = async (code: string) => {
      const result = await Effect.runPromise(rt.execute(code))
      if (!result.ok) throw new Error(`${code}: ${JSON.stringify(result.error)}`)
      return result.value as never
    }
    for (const how of ["slowfail 200", "die 200", "slow 20000"]) {
      const first = await exec(`shapes\ncleanup ${how}\npid`)
      // Sent to the sandbox that had this runtime's shapes, read by the one that replaced it.
      expect(await exec("shapes\nreturn $")).toEqual({ tools: { search: true }, extensions: [] })
      expect(await exec("pid")).not.toBe(first)
    }
  })

  it("a cleanup that takes longer than the limit ends that sandbox; the next execution runs in a new one", async () => {
    const p = pool()
    const first = await run(p, "cleanup slow 20000\npid")
    const started = Date.now()
    expect(await run(p, "pid")).not.toBe(first)
    expect(Date.now() - started).toBeLessThan(15_000)
  })

  it("a host whose next run waits for a sandbox cleaning up stays alive until that run ends", async () => {
    const script = `
      import { CodeMode, SandboxPool } from "@codemode/core"
      import { Effect } from "effect"
      const language = {
        ...${JSON.stringify({ ...withCleanup, dialect: undefined })},
        dialect: (await import("@codemode/core")).Language.find("lua").dialect,
      }
      const pool = new SandboxPool({ maxWorkers: 1, keepIdle: 1 })
      const rt = CodeMode.make({ language, pool })
      await Effect.runPromise(rt.execute("cleanup slow 300\\nreturn 1"))
      console.log(JSON.stringify((await Effect.runPromise(rt.execute("return 2"))).value))
    `
    const host = spawn(process.execPath, ["--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "inherit"],
      cwd: new URL("..", import.meta.url).pathname,
    })
    let out = ""
    host.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString("utf8")
    })
    const code = await new Promise<number | null>((resolve) => host.on("close", resolve))
    expect({ code, out: out.trim() }).toEqual({ code: 0, out: "2" })
  })
})
