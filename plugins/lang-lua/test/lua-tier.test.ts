/**
 * Loops of the main function run compact, then tier up: after some passes the rest of the loop runs in a hot
 * function compiled with inline paths (see src/codegen/tiering.ts). The switch must change nothing a program or its
 * host can observe: values, errors and their locations, the work charged, the calls and logs. Here every loop tiers
 * up after its first or second pass, so that the hot functions run the loops of the whole conformance suite and of
 * random programs checked against lua5.4.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { generatedSource, setTierUpAfter } from "../src/compile.js"
import { TIER_AFTER } from "../src/codegen/emit.js"
import { run } from "../src/worker.js"
import { allCases } from "./cases/index.js"
import type { Case } from "./support/case.js"
import { differences } from "./support/differential.mjs"
import { generateProgram } from "./support/generate.mjs"
import { runLua } from "./support/host.js"

/** Run `code` with loops tiering up after `passes` passes. */
const tieredAfter = <T>(passes: number, f: () => T): T => {
  setTierUpAfter(passes)
  try {
    return f()
  } finally {
    setTierUpAfter(TIER_AFTER)
  }
}

const check = (c: Case) => {
  const { outcome, host } = runLua(c.code)
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

for (const passes of [1, 2])
  describe(`the conformance cases with loops tiering up after ${passes} pass${passes === 1 ? "" : "es"}`, () => {
    beforeAll(() => setTierUpAfter(passes))
    afterAll(() => setTierUpAfter(TIER_AFTER))
    for (const [group, cases] of Object.entries(allCases))
      describe(group, () => {
        for (const c of cases) it(c.name, () => check(c))
      })
  })

describe("random programs with loops tiering up at once, against lua5.4", () => {
  it("programs 1 to 1000 print what lua5.4 prints", { timeout: 60_000 }, () => {
    const found = tieredAfter(1, () => differences(run, generateProgram, 1, 1000))
    expect(
      found.map((d) => `seed ${d.seed}\n${d.program}\n--- lua5.4\n${d.expected}\n--- ours\n${d.ours}`).slice(0, 3),
    ).toEqual([])
  })
})

/** Programs whose loops tier up, and what they cover. */
const programs: Array<[string, string]> = [
  [
    "locals set in the loop are seen after it; a nested loop tiers up on its own",
    `local sum, count, last = 0, 0, nil
for i = 1, 50 do
  sum = sum + i
  for j = 1, i % 4 do count = count + j end
  last = i
end
return { sum = sum, count = count, last = last }`,
  ],
  [
    "a return from inside the loop ends the program with its values",
    `local t = {}
for i = 1, 100 do
  t[#t + 1] = i
  if i == 37 then return #t, t[37] end
end
return "not reached"`,
  ],
  [
    "break, while and repeat",
    `local i, n = 0, 0
while true do
  i = i + 1
  if i > 30 then break end
  n = n + i
end
repeat local k = n n = n - 7 until k < 100
return { i = i, n = n }`,
  ],
  [
    "pairs over a table, varargs and upvalues of closures made in the loop",
    `local t = { a = 1, b = 2, c = 3, d = 4, e = 5 }
local keys, fns = {}, {}
for k, v in pairs(t) do
  keys[#keys + 1] = k
  fns[#fns + 1] = function() return v * 2 end
  keys[#keys] = keys[#keys] .. select("#", ...)
end
table.sort(keys)
local s = 0
for _, f in ipairs(fns) do s = s + f() end
return table.concat(keys, ","), s`,
  ],
  [
    "a recursive local function called in the loop (captured, never set again)",
    `local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
local out = {}
for i = 1, 15 do out[i] = fib(i) end
return out[15]`,
  ],
  [
    "outer locals used only in table constructors, as keys, values and items",
    `local t, key, extra = { 5, 6, 7 }, "k", 100
local u = {}
for i = 1, 30 do u[i] = { k = t[i % 3 + 1], [key] = i, extra } end
local s = 0
for i = 1, #u do s = s + u[i].k + u[i][1] end
return s`,
  ],
  [
    "an error in the hot function has its location",
    `local t = { 1, 2, 3 }
local s = 0
for i = 1, 5 do
  s = s + t[i]
end
return s`,
  ],
  [
    "a float loop and a tool call in the loop",
    `local acc = {}
for x = 0.5, 3, 0.5 do
  local r = tools.ns.echo({ v = x })
  acc[#acc + 1] = r.v * 2
end
print(#acc, acc[1], acc[6])
return acc`,
  ],
]

describe("loops that tier up", () => {
  for (const [name, code] of programs)
    it(`${name}: the same outcome, calls and logs as compact and as tiered at once`, () => {
      const late = tieredAfter(1_000_000, () => runLua(code))
      expect(late.outcome.ok).toBe(!name.startsWith("an error"))
      for (const passes of [1, 2, 3])
        tieredAfter(passes, () => {
          // Runs again of a program that has tiered up tier up at their loops' first pass.
          for (let run = 0; run < 3; run++) {
            const early = runLua(code)
            expect(early.outcome).toEqual(late.outcome)
            expect(early.host.calls).toEqual(late.host.calls)
            expect(early.host.logs).toEqual(late.host.logs)
          }
        })
    })

  it("a loop using a captured local that is set elsewhere is compiled inline from the start", () => {
    const code = `local n = 0
local function bump() n = n + 1 end
for i = 1, 10 do bump() n = n + i end
return n`
    expect(generatedSource(code)).not.toContain("H(")
    expect(tieredAfter(1, () => runLua(code).outcome)).toEqual({ ok: true, value: 65 })
    expect(generatedSource("local s = 0 for i = 1, 10 do s = s + i end return s")).toContain("H(")
  })

  it("charges the same work, step for step", () => {
    // As in lua-split.test.ts: the fewest iterations of an empty loop after the program that take it over a bound
    // tell the program's exact count of steps.
    const fewest = (passes: number, template: string) =>
      tieredAfter(passes, () => {
        let lo = 0
        let hi = 100_000
        while (lo < hi) {
          const mid = (lo + hi) >> 1
          if (runLua(template.replace("N", String(mid)), { maxSteps: 16_384 }).outcome.ok) lo = mid + 1
          else hi = mid
        }
        return lo
      })
    // (not the program that returns from inside its loop: it never reaches the empty loop)
    for (const [, code] of [0, 2, 3, 4].map((i) => programs[i])) {
      const template = `${code.replace(/\nreturn [^\n]*$/, "")}\nfor _ = 1, N do end\nreturn 0`
      const compact = fewest(1_000_000, template)
      expect(compact).toBeGreaterThan(0)
      expect(compact).toBeLessThan(100_000)
      expect(fewest(1, template)).toBe(compact)
      expect(fewest(2, template)).toBe(compact)
    }
  })
})
