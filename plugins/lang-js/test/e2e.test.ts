/**
 * End to end through core: `CodeMode.make({ language: "javascript" })` runs programs in real sandbox workers that
 * load this package's built worker module (`npm run build` first; the repository's test script does).
 */
import { CodeMode, Extension, SandboxPool, Tool } from "@codemode/core"
import { Effect, Schema } from "effect"
import { afterAll, describe, expect, it } from "vitest"

const pool = new SandboxPool({ keepIdle: 2 })
afterAll(() => pool.close())

const lookup = Tool.make({
  description: "Look up an order by ID",
  input: Schema.Struct({ id: Schema.String }),
  output: Schema.Struct({ id: Schema.String, status: Schema.String }),
  execute: ({ id }) => Effect.succeed({ id, status: id === "done" ? "complete" : "open" }),
})
const slow = Tool.make({
  description: "Answers after a delay",
  input: Schema.Struct({ ms: Schema.Number, tag: Schema.String }),
  output: Schema.String,
  execute: ({ ms, tag }) => Effect.as(Effect.sleep(`${ms} millis`), tag),
})
const failing = Tool.make({
  description: "Always fails",
  input: { type: "object" },
  output: { type: "object" },
  execute: () => Effect.fail(new Error("backend down")),
})

const web = Extension.make({
  name: "web",
  globals: {
    shout: (s: string) => s.toUpperCase(),
    fetchText: Extension.async(async (url: string) => `body of ${url}`),
    fs: { readFile: (p: string) => `file ${p}`, promises: { readFile: async (p: string) => `async file ${p}` } },
  },
})

const run = (code: string, options: Partial<CodeMode.Options<any, any>> = {}) =>
  Effect.runPromise(
    CodeMode.make({
      language: "javascript",
      pool,
      tools: { orders: { lookup, slow, failing } },
      extensions: [web],
      ...options,
    }).execute(code) as Effect.Effect<CodeMode.Result>,
  )

describe("JavaScript through CodeMode.make", () => {
  it("calls tools and returns data", async () => {
    const r = await run(
      "const o = await tools.orders.lookup({ id: 'order_42' })\nreturn { id: o.id, needsAttention: o.status !== 'complete' }",
    )
    expect(r).toMatchObject({ ok: true, value: { id: "order_42", needsAttention: true } })
    expect(r.toolCalls.map((c) => c.name)).toEqual(["orders.lookup"])
  })

  it("runs tool calls concurrently", async () => {
    const r = await run(
      "const a = tools.orders.slow({ ms: 200, tag: 'slow' }).then((v) => console.log(v)); const b = tools.orders.slow({ ms: 10, tag: 'fast' }).then((v) => console.log(v)); await Promise.all([a, b]); 'both'",
    )
    expect(r).toMatchObject({ ok: true, value: "both", logs: ["fast", "slow"] })
  })

  it("reports a failed tool call as a catchable error", async () => {
    const r = await run("try { await tools.orders.failing({}) } catch (e) { return e.kind }")
    expect(r).toMatchObject({ ok: true, value: "ToolFailure" })
  })

  it("an uncaught failure is the execution's error, with its location", async () => {
    const r = await run("const x = 1\nawait tools.orders.failing({})")
    expect(r).toMatchObject({ ok: false, error: { kind: "ToolFailure", location: { line: 2, column: 7 } } })
  })

  it("search returns directly and can be awaited", async () => {
    const r = await run(
      "const direct = search({ query: 'order' }); const awaited = await search({ query: 'order' }); [direct.items.map((i) => i.path), awaited.items.length > 0]",
    )
    expect(r.ok).toBe(true)
    if (r.ok) expect((r.value as unknown[])[1]).toBe(true)
  })

  it("extension globals: sync, async, objects of functions and imports", async () => {
    const r = await run(
      "import { readFile } from 'node:fs'\nimport fsp from 'fs/promises'\n[shout('hi'), await fetchText('u'), readFile('/a'), await fsp.readFile('/b'), require('fs') === fs]",
    )
    expect(r).toMatchObject({ ok: true, value: ["HI", "body of u", "file /a", "async file /b", true] })
  })

  it("unsupported syntax is reported with its location", async () => {
    expect(await run("const big = 1n")).toMatchObject({
      ok: false,
      error: { kind: "UnsupportedSyntax", location: { line: 1, column: 13 } },
    })
  })

  it("a busy loop ends at the timeout and the pool keeps working", async () => {
    const r = await run("while (true) {}", { limits: { timeoutMs: 300 } })
    expect(r).toMatchObject({ ok: false, error: { kind: "TimeoutExceeded" } })
    expect(await run("1 + 1")).toMatchObject({ ok: true, value: 2 })
  })

  it("catastrophic regex backtracking ends with the right answer (the sandbox reruns it on V8's linear engine)", async () => {
    const r = await run("/^(a+)+$/.test('a'.repeat(40) + '!')", { limits: { timeoutMs: 5000 } })
    expect(r).toMatchObject({ ok: true, value: false })
    expect(await run("[1, 2, 3].map((x) => x * 2)")).toMatchObject({ ok: true, value: [2, 4, 6] })
  })

  it("a memory bomb ends with a diagnostic", async () => {
    const r = await run("let s = 'x'; while (true) s += s")
    expect(r).toMatchObject({
      ok: false,
      error: { kind: "ExecutionFailure", message: expect.stringContaining("String length limit") },
    })
  })

  it("executions are isolated from each other", async () => {
    await run("Array.prototype.leak = 1; globalThis.leaked = true")
    expect(await run("[typeof [].leak, typeof leaked]")).toMatchObject({ ok: true, value: ["undefined", "undefined"] })
  })

  it("calls functions an extension returned inside its result, sync and async", async () => {
    const calls: Array<string> = []
    const api = Extension.make({
      name: "api",
      globals: {
        open: (name: string) => ({
          name,
          n: 2,
          next(this: { n: number }) {
            return ++this.n
          },
          items: [{ label: () => `item of ${name}` }],
        }),
        request: Extension.async(async (url: string) => ({ status: 200, json: async () => ({ url, ok: true }) })),
      },
    })
    const r = await run(
      `const h = open("orders")
      const first = h.next(), second = h.next()
      const res = await request("https://example.test/a")
      const body = await res.json()
      return { name: h.name, first, second, label: h.items[0].label(), status: res.status, body, kind: typeof res.json }`,
      { extensions: [api], hooks: { "extension.before": (call: { name: string }) => void calls.push(call.name) } },
    )
    expect(r).toMatchObject({
      ok: true,
      value: {
        name: "orders",
        first: 3,
        second: 4,
        label: "item of orders",
        status: 200,
        body: { url: "https://example.test/a", ok: true },
        kind: "function",
      },
    })
    expect(calls).toEqual(["open", "open().next", "open().next", "request", "request().json", "open().items[0].label"])
  })

  it("logs console output", async () => {
    expect(await run("console.log('a', { b: 1 }); console.error('e'); 0")).toMatchObject({
      ok: true,
      logs: ["a { b: 1 }", "e"],
    })
  })
})
