/** The warm-up a sandbox runs before its first program (`warm()`): its programs succeed and leave no trace. */
import { describe, expect, it } from "vitest"
import { warmUp } from "../src/warm.js"
import { run, warm } from "../src/worker.js"
import { runLua } from "./support/host.js"

describe("warm-up", () => {
  it("runs every warm-up program to its end, with each of its endings", () => {
    const outcomes = warmUp(run)
    expect(outcomes.length).toBeGreaterThan(0)
    for (const outcome of outcomes) expect(outcome).toMatchObject({ ok: true })
  })

  it("only compiles the programs in its last rounds when it is given the compiler", () => {
    const compiled: Array<string> = []
    const outcomes = warmUp(run, 7, (code) => compiled.push(code))
    expect(compiled.length).toBeGreaterThan(0)
    expect(outcomes.length).toBe(compiled.length * 6)
    for (const outcome of outcomes) expect(outcome).toMatchObject({ ok: true })
    for (const code of compiled) expect(code).toMatch(/^-- warm-up 6\n/)
  })

  it("leaves nothing a later run can see", () => {
    const probe =
      "local t = {} return { tostring(t), tostring(print), tostring(json.null), math.random(1, 1000000), string.format('%p', 'x') }"
    const before = runLua(probe).outcome
    expect(before.ok).toBe(true)
    warm(1)
    expect(runLua(probe).outcome).toEqual(before)
    warm()
    expect(runLua(probe).outcome).toEqual(before)
  })
})
