/**
 * The conformance suite: every case in `test/cases/` runs through the worker's `run` with a fake host and must
 * produce exactly its expected value, failure or logs.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Case } from "./support/case.js"
import { runLua } from "./support/host.js"
import { allCases } from "./cases/index.js"
import { COMPACT_FROM } from "../src/codegen/emit.js"
import { setRunOnceCompact } from "../src/compile.js"

const check = (c: Case, padding = "") => {
  const { outcome, host } = runLua(c.code + padding)
  if (c.error !== undefined) {
    if (outcome.ok) throw new Error(`expected ${c.error.kind}, got value ${JSON.stringify(outcome.value)}`)
    expect(outcome.error.kind).toBe(c.error.kind)
    if (typeof c.error.message === "string") expect(outcome.error.message).toContain(c.error.message)
    else if (c.error.message instanceof RegExp) expect(outcome.error.message).toMatch(c.error.message)
    if (c.error.line !== undefined) expect(outcome.error.location?.line).toBe(c.error.line)
    if (c.error.column !== undefined) expect(outcome.error.location?.column).toBe(c.error.column)
  } else {
    if (!outcome.ok) throw new Error(`expected a value, got ${outcome.error.kind}: ${outcome.error.message}`)
    if ("value" in c) expect(outcome.value).toEqual(c.value)
  }
  if (c.logs !== undefined) expect(host.logs).toEqual(c.logs)
}

for (const [group, cases] of Object.entries(allCases))
  describe(group, () => {
    for (const c of cases) it(c.name, () => check(c))
  })

// The same cases compiled compact (operations as intrinsic calls): a trailing comment makes each program large
// enough. Parse errors are left out: the padding moves the end of the program they may point at.
describe("compiled compact", () => {
  const padding = `\n--${"x".repeat(COMPACT_FROM)}`
  for (const [group, cases] of Object.entries(allCases))
    describe(group, () => {
      for (const c of cases) if (c.error?.kind !== "ParseError") it(c.name, () => check(c, padding))
    })
})

// The same cases with the main chunk's run-once code compiled with inline paths too (by default it is compiled
// compact, so the inline paths are otherwise covered only inside loops and functions).
describe("compiled inline everywhere", () => {
  beforeAll(() => setRunOnceCompact(false))
  afterAll(() => setRunOnceCompact(true))
  for (const [group, cases] of Object.entries(allCases))
    describe(group, () => {
      for (const c of cases) it(c.name, () => check(c))
    })
})

it("has at least 300 conformance programs", () => {
  expect(Object.values(allCases).flat().length).toBeGreaterThanOrEqual(300)
})
