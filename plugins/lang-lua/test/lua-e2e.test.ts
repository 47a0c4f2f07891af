/**
 * End to end: `CodeMode.make({ language: "lua", tools })` with a real sandbox worker running the built worker
 * module (`npx tsup` must have run; the repo's `npm test` builds first).
 */
import { CodeMode, Extension, SandboxPool, Tool } from "@codemode/core"
import { Effect, Schema } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { Lua } from "../src/index.js"

const pool = new SandboxPool({ keepIdle: 1 })
afterAll(() => pool.close())

const lookup = Tool.make({
  description: "Look up an order by ID",
  input: Schema.Struct({ id: Schema.String }),
  output: Schema.Struct({ id: Schema.String, status: Schema.String, items: Schema.Array(Schema.String) }),
  execute: ({ id }) =>
    id === "missing"
      ? Effect.fail(new Error(`order ${id} not found`))
      : Effect.succeed({ id, status: id === "o2" ? "complete" : "open", items: id === "o3" ? [] : ["a", "b"] }),
})
const list = Tool.make({
  description: "List order IDs",
  input: { type: "object" },
  output: { type: "array", items: { type: "string" } },
  execute: () => Effect.succeed(["o1", "o2", "o3"]),
})

const web = Extension.make({
  name: "web",
  globals: { fetch: (url: string) => ({ status: 200, body: `fetched ${url}` }) },
})

const execute = (code: string) =>
  Effect.runPromise(
    CodeMode.make({
      language: "lua",
      pool,
      tools: { orders: { "lookup-by-id": lookup, list } },
      extensions: [web],
    }).execute(code) as Effect.Effect<CodeMode.Result>,
  )

describe("Lua through CodeMode.make", () => {
  it("names its worker module and a guide", () => {
    expect(Lua.workerModule).toMatch(/^file:.*worker\.js$/)
    expect(Lua.instructions).toContain("json.array()")
    expect(Lua.definition.name).toBe("lua")
  })

  it("runs the seed's example program", async () => {
    const result = await execute(`
      local order = tools.orders["lookup-by-id"]({ id = "o2" })
      return { id = order.id, needsAttention = order.status ~= "complete" }
    `)
    expect(result).toMatchObject({ ok: true, value: { id: "o2", needsAttention: false } })
  })

  it("keeps empty arrays from tools and records tool calls", async () => {
    const result = await execute(`
      local ids = tools.orders.list({})
      local out = {}
      for _, id in ipairs(ids) do out[#out + 1] = tools.orders["lookup-by-id"]({ id = id }).items end
      return out
    `)
    expect(result).toMatchObject({ ok: true, value: [["a", "b"], ["a", "b"], []] })
    expect(result.toolCalls.length).toBe(4)
  })

  it("recovers from a failed call with pcall", async () => {
    const result = await execute(`
      local ok, err = pcall(tools.orders["lookup-by-id"], { id = "missing" })
      return { ok = ok, message = tostring(err) }
    `)
    expect(result.ok).toBe(true)
    if (result.ok) {
      expect(result.value).toMatchObject({ ok: false })
      expect(JSON.stringify(result.value)).toContain("not found")
    }
  })

  it("reports an uncaught tool failure with its kind and location", async () => {
    const result = await execute(`local x = 1\nreturn tools.orders["lookup-by-id"]({ id = "missing" })`)
    expect(result).toMatchObject({ ok: false, error: { kind: "ToolFailure", location: { line: 2 } } })
  })

  it("reports invalid tool input", async () => {
    const result = await execute(`return tools.orders["lookup-by-id"]({ id = 7 })`)
    expect(result).toMatchObject({ ok: false, error: { kind: "InvalidToolInput" } })
  })

  it("reports an unknown tool", async () => {
    const result = await execute(`return tools.orders.nope({})`)
    expect(result).toMatchObject({ ok: false, error: { kind: "UnknownTool", location: { line: 1 } } })
  })

  it("searches and calls extension globals", async () => {
    const result = await execute(`
      local found = search({ query = "lookup" })
      local page = fetch("https://example.test")
      return { first = found.items[1].path, body = page.body }
    `)
    expect(result).toMatchObject({
      ok: true,
      value: { first: "orders.lookup-by-id", body: "fetched https://example.test" },
    })
  })

  it("calls functions an extension returned inside its result", async () => {
    let cursor = 0
    const calls: Array<string> = []
    const db = Extension.make({
      name: "db",
      globals: {
        open: (table: string) => ({
          table,
          n: 10,
          rows: [{ id: 1, remove: () => `removed 1 from ${table}` }],
          next: () => ++cursor,
          size(this: { n: number }) {
            return this.n
          },
        }),
        counter: () => {
          let n = 0
          return () => Effect.succeed(++n)
        },
      },
    })
    const legacy = Extension.lua({ name: "legacy", globals: { handle: () => ({ close: () => 1 }) } })
    const runtime = CodeMode.make({
      language: "lua",
      pool,
      tools: {},
      extensions: [db, legacy],
      hooks: { "extension.before": (call: { name: string }) => void calls.push(call.name) },
    })
    const run = (code: string) => Effect.runPromise(runtime.execute(code) as Effect.Effect<CodeMode.Result>)
    const result = await run(`
      local h = open("orders")
      local a, b = h.next(), h.next()
      local count = counter()
      count() count()
      return { table = h.table, a = a, b = b, removed = h.rows[1].remove(), size = h.size(), n = count() }
    `)
    expect(result).toMatchObject({
      ok: true,
      value: { table: "orders", a: 1, b: 2, removed: "removed 1 from orders", size: 10, n: 3 },
    })
    expect(calls).toEqual([
      "open",
      "open().next",
      "open().next",
      "counter",
      "counter()",
      "counter()",
      "open().rows[0].remove",
      "open().size",
      "counter()",
    ])
    // A function cannot leave as data, and Extension.lua globals return plain data only.
    expect(await run(`return open("t")`)).toMatchObject({ ok: false, error: { kind: "InvalidDataValue" } })
    expect(await run(`return handle()`)).toMatchObject({
      ok: false,
      error: {
        kind: "InvalidDataValue",
        message: expect.stringContaining("handle returned something that is not plain data"),
      },
    })
  })

  it("returns logs, parse errors and runtime errors", async () => {
    const logged = await execute(`print("hello", 1, 2.0) return nil`)
    expect(logged).toMatchObject({ ok: true, value: null, logs: ["hello\t1\t2.0"] })
    const parse = await execute(`local x = = 1`)
    expect(parse).toMatchObject({ ok: false, error: { kind: "ParseError", location: { line: 1 } } })
    const runtime = await execute(`local t = nil\nreturn t.x`)
    expect(runtime).toMatchObject({
      ok: false,
      error: {
        kind: "ExecutionFailure",
        message: "input:2: attempt to index a nil value (local 't')",
        location: { line: 2 },
      },
    })
  })

  it("stops a runaway loop at the timeout and keeps working", async () => {
    const runtime = CodeMode.make({ language: "lua", pool, tools: {}, limits: { timeoutMs: 300 } })
    const looped = (await Effect.runPromise(
      runtime.execute("while true do end") as Effect.Effect<CodeMode.Result>,
    )) as CodeMode.Result
    expect(looped).toMatchObject({ ok: false, error: { kind: "TimeoutExceeded" } })
    // The sandbox that looped was killed; the next execution runs in a fresh one (whose start counts toward its own
    // timeoutMs, so give it room on a loaded machine).
    const next = (await Effect.runPromise(
      CodeMode.make({ language: "lua", pool, tools: {} }).execute("return 1 + 1") as Effect.Effect<CodeMode.Result>,
    )) as CodeMode.Result
    expect(next).toMatchObject({ ok: true, value: 2 })
  })
})
