/** The warm-up a sandbox runs before its first program (`warm()`): its programs succeed and leave no trace. */
import { describe, expect, it } from "vitest"
import { compileOnly } from "../src/execute.js"
import { warmUp } from "../src/warm.js"
import { run, warm } from "../src/worker.js"
import { runJs } from "./harness.js"

describe("warm-up", () => {
  it("runs every warm-up program to its end, then compiles each copy", () => {
    const steps = warmUp(run, compileOnly)
    const runs = steps.filter((s) => typeof s === "object")
    const compiles = steps.filter((s) => typeof s === "boolean")
    expect(runs.length).toBeGreaterThan(0)
    expect(compiles.length).toBeGreaterThan(0)
    for (const outcome of runs) expect(outcome).toMatchObject({ ok: true })
    for (const compiled of compiles) expect(compiled).toBe(true)
  })

  it("leaves nothing a later run can see", () => {
    const probe = `[typeof fib, typeof Counter, typeof groups, Object.getOwnPropertyNames(globalThis).sort().join(),
      Symbol.keyFor(Symbol.for("warm")), Object.getOwnPropertyNames(Array.prototype).length,
      Object.getOwnPropertyNames(Object.prototype).length, console.count.length, new Error("e").stack]`
    const before = runJs(probe)
    expect(before.outcome.ok).toBe(true)
    // Three rounds: two that run the programs, one that only compiles them.
    warm(3)
    const after = runJs(probe)
    expect(after.outcome).toEqual(before.outcome)
    expect(after.logs).toEqual(before.logs)
  })
})
