/**
 * Red team: every allocation made for a program is checked before it happens. A bomb must end with the
 * interpreter's located diagnostic: a sandbox process killed by its heap limit ("the sandbox ran out of memory")
 * means an allocation went unchecked. And a check must count live data only: garbage is not a reason to stop a
 * program. Cases still open in an interpreter are marked `it.fails`.
 */
import { CodeMode, SandboxPool } from "@codemode/core"
import { Effect } from "effect"
import { afterAll, describe, expect, it } from "vitest"

const pool = new SandboxPool({ maxWorkers: 2, keepIdle: 2 })
afterAll(() => pool.close())
const lua = CodeMode.make({ language: "lua", pool, limits: { timeoutMs: 30_000 } })
const js = CodeMode.make({ language: "javascript", pool, limits: { timeoutMs: 30_000 } })
/** A pool whose heap is known, so that what is live fits whatever the machine's defaults. */
const bigPool = new SandboxPool({ maxWorkers: 1, keepIdle: 1, maxOldGenerationSizeMb: 256 })
afterAll(() => bigPool.close())
const big = CodeMode.make({ language: "javascript", pool: bigPool, limits: { timeoutMs: 30_000 } })

const bombs = {
  lua: [
    `return #string.rep("x", 2^31)`,
    `local s = string.rep("x", 2^24 - 8) local t = {} for i = 1, 200 do t[i] = s:upper() .. i end return #t`,
    `local t = {} for i = 1, 2e7 do t[i] = { i } end return #t`,
    `return json.decode("[" .. string.rep("1,", 5e6) .. "1]")`,
    `return #json.encode((function() local t = {} for i = 1, 9e5 do t[i] = string.rep("y", 30) end return t end)())`,
    `local t = {} for i = 1, 1e6 do t[i] = "x" end return #table.concat(t, string.rep("y", 1000))`,
    `local s = string.rep("a", 1e6) return #s:gsub("a", string.rep("b", 1000))`,
  ],
  javascript: [
    `new Uint8Array({ length: 2 ** 30 }).length`,
    `const a = []; for (let i = 0; i < 100; i++) a.push(new Array(8e6).fill(i)); a.length`,
    `"x".repeat(1e7).split("").length`,
    `"ab".repeat(2**24).padEnd(2**28).length`,
    `const a = []; a.length = 1e9; a.fill(1); 1`,
    `JSON.parse("[" + "1,".repeat(1e7) + "1]").length`,
    `[].concat(...new Array(1e6).fill(new Array(100).fill(1))).length`,
    `"ﬃ".repeat(2e7).toUpperCase().length`,
  ],
}

describe("red team: allocation bombs end with a located diagnostic, never a dead sandbox", () => {
  for (const language of ["lua", "javascript"] as const)
    for (const code of bombs[language])
      it(`${language}: ${code.slice(0, 90)}`, async () => {
        const result = await Effect.runPromise((language === "lua" ? lua : js).execute(code))
        expect(result.ok).toBe(false)
        if (result.ok) return
        expect(result.error.message).not.toMatch(/sandbox ran out of memory|sandbox stopped unexpectedly/)
        expect(result.error.location, result.error.message).toBeDefined()
      })
})

describe("red team: garbage does not count as memory in use", () => {
  // The check before a large allocation counts live data only (core's `heapHasRoom` collects before it refuses): a
  // program whose live data never passes 128 MiB (half of this heap) runs however much garbage it leaves. (The same
  // proportions as 192 MiB kept and 64 MiB dropped in a 512 MB heap, at half the work: the garbage still passes the
  // heap's limit more than seven times.)
  it("javascript: 96 MiB kept and a 32 MiB array dropped sixty times runs (256 MB heap)", async () => {
    const code = `const keep = []; for (let i = 0; i < 3; i++) keep.push(new Array(4e6).fill(i + 0.5))
      let n = 0; for (let i = 0; i < 60; i++) { const a = new Array(4e6).fill(i + 0.5); n += a.length } n + keep.length`
    const result = await Effect.runPromise(big.execute(code))
    expect(result).toMatchObject({ ok: true, value: 240_000_003 })
  })
})
