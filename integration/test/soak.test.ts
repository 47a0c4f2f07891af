/**
 * The short variant of the chaos soak (`npm run soak` runs the long one): both languages, 16 in flight, ordinary
 * programs checked against their expected values among un-awaited calls, timeouts, interruptions, memory bombs and
 * poisoning attempts. Zero wrong results, and the host's memory back near where it started. Its sandboxes have 64 MB
 * heaps: a memory bomb is stopped and its sandbox replaced as with the machine's default heap (up to 512 MB), after
 * filling an eighth of it (with the default, the bombs took most of the soak's time: 56 s against 16 s).
 */
import { describe, expect, it } from "vitest"
import { soak } from "../soak.mjs"

describe("chaos soak (short)", () => {
  it("gives every ordinary program its own right answer while hostile ones run beside it", {
    timeout: 600_000,
  }, async () => {
    const report = await soak({ executions: 240, concurrency: 16, seed: 7, heapMb: 64 })
    expect(report.wrong).toEqual([])
    expect(Object.keys(report.counts).length).toBeGreaterThanOrEqual(10)
    expect(report.rssAfterMb).toBeLessThan(report.rssBeforeMb + 200)
  })
})
