/**
 * The seed README's host examples, verbatim but for their imports (the seed's `@opencode/codemode` is this
 * project's `@codemode/core` and `@codemode/openapi`): a host written against the seed must work unchanged.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { fileURLToPath } from "node:url"
import { CodeMode, Extension, Namespace, Tool } from "@codemode/core"
import { OpenAPI } from "@codemode/openapi"
import { Context, Effect, Schema } from "effect"
import { FetchHttpClient } from "effect/http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

const lookupOrder = Tool.make({
  description: "Look up an order by ID",
  input: Schema.Struct({ id: Schema.String }),
  output: Schema.Struct({ id: Schema.String, status: Schema.String }),
  execute: ({ id }) => Effect.succeed({ id, status: "open" }),
})

let server: Server
let base: string
beforeAll(async () => {
  server = createServer((request, response) => {
    response.setHeader("content-type", "text/plain")
    response.end(`you asked for ${request.url}`)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

describe("the seed README's host examples", () => {
  it("Quick Start", async () => {
    const runtime = CodeMode.make({
      language: "lua",
      tools: { orders: { lookup: lookupOrder } },
    })

    const result = await Effect.runPromise(
      runtime.execute(`
local order = tools.orders.lookup({ id = "order_42" })
return { id = order.id, needsAttention = order.status ~= "complete" }
`),
    )
    expect(result).toMatchObject({ ok: true, value: { id: "order_42", needsAttention: true } })
    expect(result.toolCalls).toMatchObject([{ name: "orders.lookup", status: "success" }])
  })

  it("Namespace.make, in the default language (JavaScript)", async () => {
    const runtime = CodeMode.make({
      tools: {
        orders: Namespace.make({
          description: "Purchases, fulfillment, and shipment tracking",
          tools: { lookup: lookupOrder },
        }),
      },
    })
    expect(runtime.language).toBe("javascript")
    expect(runtime.catalog.map((c) => c.path)).toEqual(["orders.lookup"])
    const hits = runtime.search({ query: "shipment tracking" })
    expect(hits.items.map((i) => i.path)).toEqual(["orders.lookup"])
    const result = await Effect.runPromise(runtime.execute(`(await tools.orders.lookup({ id: "o1" })).status`))
    expect(result).toMatchObject({ ok: true, value: "open" })
  })

  it("CodeMode.make with limits, runtime.catalog and runtime.execute(source)", async () => {
    const tools = { orders: { lookup: lookupOrder } }
    const runtime = CodeMode.make({ tools, limits: { timeoutMs: 30_000 } })
    expect(runtime.catalog).toEqual([
      {
        path: "orders.lookup",
        description: "Look up an order by ID",
        signature: expect.stringContaining("tools.orders.lookup("),
      },
    ])
    expect(runtime.limits.timeoutMs).toBe(30_000)
    expect(await Effect.runPromise(runtime.execute("1 + 1"))).toMatchObject({ ok: true, value: 2 })
  })

  it("CodeMode.execute runs once", async () => {
    const result = await Effect.runPromise(
      CodeMode.execute({ language: "lua", tools: { orders: { lookup: lookupOrder } }, code: "return 40 + 2" }),
    )
    expect(result).toMatchObject({ ok: true, value: 42 })
  })

  it("Extension.make and Extension.async globals, with the seed's fetch", async () => {
    const tools = { orders: { lookup: lookupOrder } }
    const web = Extension.make({ name: "web", globals: { fetch: async (url: string) => globalThis.fetch(url) } })
    const runtime = CodeMode.make({ tools, extensions: [web] })
    expect(await Effect.runPromise(runtime.execute("typeof fetch"))).toMatchObject({ ok: true, value: "function" })
    const marked = Extension.make({
      name: "web",
      globals: { fetch: Extension.async((url: string) => globalThis.fetch(url).then((r) => r.text())) },
    })
    const result = await Effect.runPromise(
      CodeMode.make({ tools, extensions: [marked] }).execute(`await fetch(${JSON.stringify(`${base}/hello`)})`),
    )
    expect(result).toMatchObject({ ok: true, value: "you asked for /hello" })
  })

  it("an Effect global whose requirements join the runtime's environment (the calling session)", async () => {
    class Session extends Context.Service<
      Session,
      { readonly authorize: (url: string) => Effect.Effect<void, Error> }
    >()("Session") {}
    const seen: string[] = []
    const session = { authorize: (url: string) => Effect.sync(() => void seen.push(url)) }
    const web = Extension.make({
      name: "web",
      globals: {
        fetch: Extension.async((url: string) =>
          Effect.gen(function* () {
            const session = yield* Session
            yield* session.authorize(url)
            return yield* Effect.promise(() => globalThis.fetch(url).then((r) => r.text()))
          }),
        ),
      },
    })
    const code = `await fetch(${JSON.stringify(`${base}/session`)})`
    const result = await Effect.runPromise(
      Effect.gen(function* () {
        return yield* CodeMode.make({ extensions: [web] })
          .execute(code)
          .pipe(Effect.provideService(Session, session))
      }),
    )
    expect(result).toMatchObject({ ok: true, value: "you asked for /session" })
    expect(seen).toEqual([`${base}/session`])
  })

  it("hooks under the seed's names: a failing before hook denies the call", async () => {
    let ran = false
    const guarded = Tool.make({
      description: "Must be denied",
      input: Schema.Struct({}),
      execute: () => Effect.sync(() => void (ran = true)),
    })
    const outcomes: unknown[] = []
    const runtime = CodeMode.make({
      language: "lua",
      tools: { guarded },
      hooks: {
        "tool.before": () => Effect.fail(new Error("denied by policy")),
        "tool.after": (_call, outcome) => void outcomes.push(outcome),
      },
    })
    const result = await Effect.runPromise(
      runtime.execute(`local ok, e = pcall(tools.guarded, {})\nreturn { ok = ok, e = e }`),
    )
    expect(ran).toBe(false)
    expect(result).toMatchObject({ ok: true, value: { ok: false, e: expect.stringContaining("denied by policy") } })
    expect(outcomes).toEqual([])
  })

  it("OpenAPI.fromSpec: { tools, skipped }, auth resolved by the host", async () => {
    const spec = await OpenAPI.load(fileURLToPath(new URL("../../examples/store/openapi.yaml", import.meta.url)))
    const resolve = () => undefined
    const api = OpenAPI.fromSpec({ spec, auth: { resolve } })
    const runtime = CodeMode.make({ language: "lua", tools: { opencode: api.tools } })
    expect(runtime.catalog.length).toBeGreaterThan(0)
    expect(Array.isArray(api.skipped)).toBe(true)
    expect(runtime.catalog.every((c) => c.path.startsWith("opencode."))).toBe(true)
    expect(FetchHttpClient.layer).toBeDefined()
  })
})
