/**
 * Differential testing: seeded random programs (test/support/generate.mjs) run under ours and under the reference
 * `lua5.4`, and print the same, outside the documented differences (see test/support/differential.mjs). A larger
 * run is `node bench/differential.mjs`.
 */
import { describe, expect, it } from "vitest"
import { COMPACT_FROM } from "../src/codegen/emit.js"
import { setRunOnceCompact } from "../src/compile.js"
import { run } from "../src/worker.js"
import { differences } from "./support/differential.mjs"
import { generateProgram } from "./support/generate.mjs"

const show = (d: { seed: number; program: string; expected: string; ours: string }) =>
  `seed ${d.seed}\n${d.program}\n--- lua5.4\n${d.expected}\n--- ours\n${d.ours}`

describe("random programs against lua5.4", () => {
  for (const from of [1, 1001])
    it(`programs ${from} to ${from + 999} print what lua5.4 prints`, { timeout: 60_000 }, () => {
      const found = differences(run, generateProgram, from, 1000)
      expect(found.map(show).slice(0, 3)).toEqual([])
    })
})

describe("random programs compiled compact against lua5.4", () => {
  // A trailing comment makes each program large enough to be compiled compact (operations as intrinsic calls).
  const padding = `\n--${"x".repeat(COMPACT_FROM)}`
  it("programs 1 to 1000 print what lua5.4 prints", { timeout: 60_000 }, () => {
    const found = differences(run, (seed: number) => generateProgram(seed) + padding, 1, 1000)
    expect(found.map((d) => show({ ...d, program: d.program.slice(0, -padding.length) })).slice(0, 3)).toEqual([])
  })
})

describe("random programs compiled inline everywhere against lua5.4", () => {
  // The main chunk's run-once code with inline paths too (by default it is compiled compact).
  it("programs 1 to 1000 print what lua5.4 prints", { timeout: 60_000 }, () => {
    setRunOnceCompact(false)
    try {
      const found = differences(run, generateProgram, 1, 1000)
      expect(found.map(show).slice(0, 3)).toEqual([])
    } finally {
      setRunOnceCompact(true)
    }
  })
})
