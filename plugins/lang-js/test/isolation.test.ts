/**
 * The end of an execution (issue 12 item 1): calls the program did not await that had already failed are reported
 * as unhandled rejections, the ones still running are cancelled, and a worker whose realm cannot be put back is
 * retired so no later program meets its state.
 */
import { describe, expect, it, vi } from "vitest"
import type { Diagnostic } from "@codemode/core/sandbox"
import { meteredMatcher } from "../src/regexp/index.js"
import { afterRun, run } from "../src/worker.js"
import { fakeHost, type FakeOptions, runJs } from "./harness.js"

const tools: FakeOptions = {
  tools: {
    "t.boom": () => ({ fail: "t.boom failed: kaput" }),
    "t.slowBoom": () => ({ fail: "too late", delay: 5 }),
    "t.ok": () => ({ value: "fine" }),
    "t.limited": () => ({ fail: "Tool call limit of 1 exceeded", kind: "ToolCallLimitExceeded", fatal: true }),
  },
}

describe("un-awaited calls at the end of a program", () => {
  it("a call that already failed is an unhandled rejection", () => {
    const r = runJs("tools.t.boom({}); 1", tools)
    expect(r.value).toBe(1)
    expect(r.warnings).toEqual([
      {
        kind: "ToolFailure",
        message: "Unhandled promise rejection: t.boom failed: kaput",
        location: { line: 1, column: 1 },
      },
    ])
  })

  it("a failure the program handles is no warning", () => {
    const r = runJs("tools.t.boom({}).catch(() => {}); 1", tools)
    expect(r.value).toBe(1)
    expect(r.warnings).toEqual([])
  })

  it("a call still running is cancelled, not reported", () => {
    const r = runJs("tools.t.slowBoom({}); 1", tools)
    expect(r.value).toBe(1)
    expect(r.warnings).toEqual([])
    expect(r.cancelled).toEqual([1])
  })

  it("the handlers of calls that already ended still run", () => {
    const r = runJs("tools.t.ok({}).then((v) => console.log('late', v)); 1", tools)
    expect(r.value).toBe(1)
    expect(r.logs).toEqual(["late fine"])
  })

  it("a fatal failure of an un-awaited call becomes a warning and the result stands", () => {
    const r = runJs("tools.t.limited({}); 'done'", tools)
    expect(r.value).toBe("done")
    expect(r.warnings).toEqual([
      { kind: "ToolCallLimitExceeded", message: "Tool call limit of 1 exceeded", location: { line: 1, column: 1 } },
    ])
  })

  it("a failed program also reports its unhandled calls", () => {
    const r = runJs("tools.t.boom({}); throw new Error('own')", tools)
    expect(r.outcome.ok).toBe(false)
    expect(r.warnings.map((w) => w.message)).toEqual(["Unhandled promise rejection: t.boom failed: kaput"])
  })
})

/**
 * Run programs one after another on this worker as the sandbox does (`run`, then `afterRun` once the result is
 * sent), recording why each would retire the worker: asked during the run, or returned by the cleanup after it.
 */
const runInWorker = (code: string): { outcome: ReturnType<typeof run>; retired: string[]; warnings: Diagnostic[] } => {
  const f = fakeHost({})
  const retired: string[] = []
  const host = { ...f.host, retire: (reason: string) => void retired.push(reason) }
  const outcome = run(f.request(code), host)
  const reason = afterRun()
  if (reason !== undefined) retired.push(reason)
  return { outcome, retired, warnings: f.warnings }
}

const prototypes =
  "const AIP = Object.getPrototypeOf([][Symbol.iterator]()); const IP = Object.getPrototypeOf(AIP); const GP = Object.getPrototypeOf(Object.getPrototypeOf((function* () {})()));"

describe("a realm that cannot be put back", () => {
  it("a restore that throws retires the worker, and the next program still runs", () => {
    const poison = runInWorker(
      `${prototypes} Object.setPrototypeOf(AIP, null); Object.setPrototypeOf(GP, AIP); Object.setPrototypeOf(IP, GP); 1`,
    )
    expect(poison.outcome).toEqual({ ok: true, value: 1 })
    expect(poison.retired).toHaveLength(1)
    expect(poison.retired[0]).toMatch(/restoring the built-in objects failed: Cyclic __proto__ value/)
    const next = runInWorker("[1, 2].map((x) => x * 2)")
    expect(next.outcome).toEqual({ ok: true, value: [2, 4] })
    expect(next.retired).toEqual([])
  })

  it("a frozen built-in only costs a new realm", () => {
    const frozen = runInWorker("Object.freeze(Array.prototype); 1")
    expect(frozen.outcome).toEqual({ ok: true, value: 1 })
    expect(frozen.retired).toEqual([])
    const next = runInWorker("const a = [1]; a.push(2); Object.isFrozen(Array.prototype) ? 'frozen' : a.length")
    expect(next.outcome).toEqual({ ok: true, value: 2 })
  })

  it("without the cleanup in between (a caller of run alone), the next run restores the realm itself", () => {
    const f = fakeHost({})
    expect(run(f.request("Array.prototype.extra = 1; Object.freeze(Object.prototype); 1"), f.host)).toEqual({
      ok: true,
      value: 1,
    })
    const next = run(f.request("[typeof Array.prototype.extra, Object.isFrozen(Object.prototype)]"), f.host)
    expect(next).toEqual({ ok: true, value: ["undefined", false] })
    expect(afterRun()).toBeUndefined()
  })

  it("the cleanup after a run that changed nothing, or failed to parse, leaves the realm as it is", () => {
    const first = runInWorker("const o = {}; o.x = 1; o.x")
    expect(first.outcome).toEqual({ ok: true, value: 1 })
    expect(runInWorker("(").outcome.ok).toBe(false)
    expect(afterRun()).toBeUndefined()
    expect(runInWorker("typeof Array.prototype.map").outcome).toEqual({ ok: true, value: "function" })
  })
})

describe("Math.random belongs to the execution", () => {
  it("never draws from the host thread's generator (whose state outlives the execution)", () => {
    const host = vi.spyOn(Math, "random").mockReturnValue(0.25)
    try {
      const draws = runJs("Array.from({ length: 8 }, () => Math.random())").value as number[]
      expect(host).not.toHaveBeenCalled()
      expect(draws).not.toContain(0.25)
    } finally {
      host.mockRestore()
    }
  })

  it("each execution draws a fresh sequence: uniform doubles in [0, 1), none repeated", () => {
    const code = "Array.from({ length: 2000 }, () => Math.random())"
    const first = runJs(code).value as number[]
    const second = runJs(code).value as number[]
    const all = [...first, ...second]
    expect(new Set(all).size).toBe(all.length)
    expect(all.every((x) => x >= 0 && x < 1)).toBe(true)
    const mean = all.reduce((a, b) => a + b, 0) / all.length
    expect(Math.abs(mean - 0.5)).toBeLessThan(0.03)
    // The low bits are random too (the 53 bits are filled).
    expect(all.some((x) => (x * 2 ** 53) % 2 === 1)).toBe(true)
  })
})

describe("nothing a pattern leaves is visible to the next execution", () => {
  it("the metered matcher compiles a pattern again for each execution (no compile to time across executions)", () => {
    expect(runJs(`/(a)\\1/.test("aa")`).value).toBe(true)
    const first = meteredMatcher(/(a)\1/)
    expect(first).not.toBeNull()
    expect(meteredMatcher(/(a)\1/)).toBe(first)
    runJs("1")
    expect(meteredMatcher(/(a)\1/)).not.toBe(first)
  })
})
