/**
 * Call depth in the sandbox's own conditions: programs run by the built worker module (`npx tsup` must have run) in
 * a worker thread with the sandbox worker's stack (8 MB), where at least 10,000 nested Lua calls must fit and
 * exhausting the bound stays uncatchable.
 */
import { Worker } from "node:worker_threads"
import { describe, expect, it } from "vitest"
import { COMPACT_FROM } from "../src/codegen/emit.js"

const workerModule = new URL("../dist/worker.js", import.meta.url).href
const runner = `
import { workerData, parentPort } from "node:worker_threads"
const { run } = await import(${JSON.stringify(workerModule)})
const host = { call() { throw new Error("no host calls here") }, log() {}, warn() {}, deadline: Date.now() + 60000 }
parentPort.postMessage(run({ code: workerData, tools: {}, extensions: [], limits: {} }, host))`

/** Run `code` in a worker thread with an 8 MB stack, as the sandbox does. */
const runPadded = (code: string): Promise<unknown> =>
  new Promise((resolve, reject) => {
    const w = new Worker(runner, { eval: true, workerData: code, resourceLimits: { stackSizeMb: 8 } })
    w.once("message", (m) => {
      resolve(m)
      void w.terminate()
    })
    w.once("error", reject)
  })

// Large programs are compiled compact (operations and calls through intrinsics): the same depth must fit.
const modes: Array<[string, string]> = [
  ["", ""],
  [" (compiled compact)", `\n--${"x".repeat(COMPACT_FROM)}`],
]

for (const [mode, padding] of modes)
  describe(`10,000 nested Lua calls${mode}`, () => {
    const runInWorker = (code: string) => runPadded(code + padding)
    it("plain recursion 9,990 deep", async () => {
      const code = "local function f(n) if n == 0 then return 0 end return 1 + f(n - 1) end return f(9990)"
      expect(await runInWorker(code)).toEqual({ ok: true, value: 9990 })
    })
    it("a tree walk over nested tables 9,990 deep", async () => {
      const code = `local t = {} local c = t for i = 1, 9990 do c.next = {} c = c.next end
      local function depth(t) local d = 0 for k, v in pairs(t) do d = depth(v) + 1 end return d end
      return depth(t)`
      expect(await runInWorker(code)).toEqual({ ok: true, value: 9990 })
    })
    it("recursion through pcall 9,990 deep", async () => {
      const code =
        "local function f(n) if n == 0 then return 0 end local ok, v = pcall(f, n - 1) return v + 1 end return f(9990)"
      expect(await runInWorker(code)).toEqual({ ok: true, value: 9990 })
    })
    it("mutual recursion 9,990 deep", async () => {
      const code =
        "local g local function f(n) if n == 0 then return 0 end return g(n - 1) + 1 end g = function(n) return f(n) end return f(4990)"
      expect(await runInWorker(code)).toEqual({ ok: true, value: 4990 })
    })
    it("a tail call of a function to itself does not grow the depth", async () => {
      const code =
        'local function loop(n) if n == 0 then return "done" end return loop(n - 1) end function count(n, acc) if n == 0 then return acc end return count(n - 1, acc + 1) end return { loop(1000000), count(200000, 0) }'
      expect(await runInWorker(code)).toEqual({ ok: true, value: ["done", 200000] })
    })
    it("exhausting the bound is uncatchable", async () => {
      const code = "local function f(n) return 1 + f(n + 1) end local ok = pcall(f, 1) return ok"
      expect(await runInWorker(code)).toMatchObject({
        ok: false,
        error: { kind: "ExecutionFailure", message: expect.stringMatching(/call depth exceeded the limit of 10,000/) },
      })
    })
  })

for (const [mode, padding] of modes)
  describe(`runaway recursion stops at the bound, uncatchable${mode}`, () => {
    const runInWorker = (code: string) => runPadded(code + padding)
    const stops = async (code: string, line?: number) => {
      const outcome = (await runInWorker(code)) as {
        ok: boolean
        error?: { kind: string; message: string; location?: { line: number } }
      }
      expect(outcome.ok).toBe(false)
      expect(outcome.error?.kind).toBe("ExecutionFailure")
      expect(outcome.error?.message).toMatch(
        /call depth exceeded the limit of 10,000 nested calls|nests calls too deeply/,
      )
      if (line !== undefined) expect(outcome.error?.location?.line).toBe(line)
    }
    it("plain recursion", () => stops("local function f(n) return 1 + f(n + 1) end\nreturn f(1)", 1))
    it("mutual recursion", () =>
      stops("local g\nlocal function f() return g() end\ng = function() return f() end\nreturn f()"))
    it("recursion through pcall", () => stops("local function f() local ok, e = pcall(f) return ok end\nreturn f()"))
    it("recursion through a sort comparator", () =>
      stops("local function f(a, b) table.sort({3, 2, 1}, f) return a < b end\ntable.sort({2, 1}, f)"))
    it("recursion through gsub callbacks", () =>
      stops("local function f(s) return (s:gsub('.', f)) end\nreturn f('ab')"))
    it("recursion through xpcall handlers", () => stops("local function f() return xpcall(f, f) end\nreturn f()"))
  })
