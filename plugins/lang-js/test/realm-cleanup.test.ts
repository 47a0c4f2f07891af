/**
 * The realm is put back after the result is sent (the worker's `afterRun`), through real sandboxes: whatever a
 * program did to the built-ins, including making them impossible to restore, the next execution on the pool sees
 * pristine built-ins and runs normally (`npm run build` first: the sandbox loads the built worker module).
 */
import { CodeMode, SandboxPool } from "@codemode/core"
import { Effect } from "effect"
import { afterAll, describe, expect, it } from "vitest"

const pools: SandboxPool[] = []
afterAll(() => {
  for (const pool of pools) pool.close()
})

/** A pool of one sandbox: every execution runs on it, or on its replacement. */
const runner = () => {
  const pool = new SandboxPool({ maxWorkers: 1, keepIdle: 1 })
  pools.push(pool)
  const runtime = CodeMode.make({ language: "javascript", pool })
  return (code: string) => Effect.runPromise(runtime.execute(code))
}

/** What a program sees of the built-ins the programs below change. */
const PRISTINE_CHECK = `[
  Object.isFrozen(Array.prototype), Object.isExtensible(Object.prototype), typeof Array.prototype.extra,
  Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]())) === Object.getPrototypeOf(Object.getPrototypeOf((function* () {})())).__proto__,
  [3, 1, 2].map((x) => x * 2).sort().join(), typeof globalThis.leaked, JSON.stringify({ a: [1] }),
]`
const PRISTINE = [false, true, "undefined", true, "2,4,6", "undefined", '{"a":[1]}']

const poisons: ReadonlyArray<readonly [string, string]> = [
  [
    "a frozen prototype (the realm cannot be restored: a new one is built)",
    "Array.prototype.extra = 1; Object.freeze(Array.prototype); globalThis.leaked = 1; 1",
  ],
  ["a prototype made non-extensible", "Object.preventExtensions(Object.prototype); 1"],
  [
    "prototypes made cyclic when restored (the restore throws: the sandbox retires)",
    "const AIP = Object.getPrototypeOf([][Symbol.iterator]()); const IP = Object.getPrototypeOf(AIP); const GP = Object.getPrototypeOf(Object.getPrototypeOf((function* () {})())); Object.setPrototypeOf(AIP, null); Object.setPrototypeOf(GP, AIP); Object.setPrototypeOf(IP, GP); 1",
  ],
  [
    "added and replaced built-ins",
    "Array.prototype.extra = 1; Array.prototype.map = () => 'mine'; globalThis.leaked = 2; 1",
  ],
]

describe("the realm after a run, through the sandbox", () => {
  const run = runner()

  it("sees pristine built-ins first", async () => {
    expect(await run(PRISTINE_CHECK)).toMatchObject({ ok: true, value: PRISTINE })
  })

  for (const [name, poison] of poisons)
    it(`the next execution sees pristine built-ins after ${name}`, async () => {
      expect(await run(poison)).toMatchObject({ ok: true, value: 1 })
      expect(await run(PRISTINE_CHECK)).toMatchObject({ ok: true, value: PRISTINE })
      expect(await run(PRISTINE_CHECK)).toMatchObject({ ok: true, value: PRISTINE })
    })

  it("back-to-back executions that each poison the realm never see each other's changes", async () => {
    for (let i = 0; i < 6; i++) {
      const [, poison] = poisons[i % poisons.length]
      expect(await run(poison)).toMatchObject({ ok: true, value: 1 })
      expect(await run(PRISTINE_CHECK)).toMatchObject({ ok: true, value: PRISTINE })
    }
  })
})
