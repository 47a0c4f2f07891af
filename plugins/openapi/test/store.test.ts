/**
 * The demo store end to end: the committed document, the loopback server and the committed Lua report, through the
 * real Lua runtime; plus `npm start` itself.
 */
import { CodeMode } from "@codemode/core"
import { Effect } from "effect"
import { FetchHttpClient } from "effect/http"
import { spawnSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { OpenAPI } from "../src/index.js"

const root = fileURLToPath(new URL("../../../", import.meta.url))
const storeModule = `${root}examples/store/server.mjs`
const documentPath = `${root}examples/store/openapi.yaml`
const reportPath = `${root}examples/store/report.lua`

interface Store {
  readonly url: string
  close(): Promise<void>
}
type StoreModule = {
  startStore(options: { port: number; token: string }): Promise<Store>
  seedData(): {
    products: Array<{ id: string; name: string; description: string; tags: string[] }>
    customers: Array<{ id: string; name: string; city: string }>
    orders: Array<{
      id: string
      customerId: string
      status: string
      items: Array<{ productId: string; quantity: number; unitPriceCents: number }>
    }>
  }
}

let store: Store
let module: StoreModule
const token = "test-staff-token-0123456789"

beforeAll(async () => {
  module = (await import(storeModule)) as StoreModule
  store = await module.startStore({ port: 0, token })
})
afterAll(() => store.close())

/** The report's answer computed directly from the seed data, independently of tools and Lua. */
const expectedTopCustomers = () => {
  const data = module.seedData()
  const lamps = new Set(
    data.products.filter((p) => /lamp/i.test([p.name, p.description, ...p.tags].join(" "))).map((p) => p.id),
  )
  const spend = new Map<string, number>()
  let scanned = 0
  for (const order of data.orders) {
    if (order.status !== "paid" && order.status !== "shipped") continue
    scanned++
    for (const line of order.items)
      if (lamps.has(line.productId))
        spend.set(order.customerId, (spend.get(order.customerId) ?? 0) + line.quantity * line.unitPriceCents)
  }
  const top = [...spend.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 3)
  return {
    scanned,
    top: top.map(([id, cents]) => {
      const customer = data.customers.find((c) => c.id === id)!
      return { name: customer.name, city: customer.city, lampSpend: `$${(cents / 100).toFixed(2)}` }
    }),
  }
}

describe("the demo store", () => {
  it("runs the committed Lua report through generated tools", async () => {
    const api = OpenAPI.fromSpec({
      spec: await OpenAPI.load(documentPath),
      baseUrl: store.url,
      auth: { resolve: (request) => (request.scheme === "staffToken" ? token : undefined) },
    })
    expect(api.skipped.map((s) => s.operationId)).toEqual(["products.image", "events.stream"])
    const runtime = CodeMode.make({ language: "lua", tools: { store: api.tools }, limits: { timeoutMs: 30_000 } })
    const result = await Effect.runPromise(
      runtime
        .execute(readFileSync(reportPath, "utf8"))
        .pipe(Effect.provide(FetchHttpClient.layer)) as Effect.Effect<CodeMode.Result>,
    )
    if (!result.ok) throw new Error(`${result.error.kind}: ${result.error.message}`)
    const expected = expectedTopCustomers()
    const value = result.value as {
      ordersScanned: number
      topLampCustomers: unknown
      missingOrder: string
      giftOrder: Record<string, string>
    }
    expect(value.ordersScanned).toBe(expected.scanned)
    expect(value.topLampCustomers).toEqual(expected.top)
    expect(value.missingOrder).toBe("not found (handled with pcall)")
    expect(value.giftOrder).toMatchObject({ status: "pending", total: "$12.00", for: expected.top[0].name })
    const failed = result.toolCalls.filter((c) => c.status === "failure")
    expect(failed.map((c) => [c.name, c.error])).toEqual([
      [
        "store.orders.get",
        expect.stringContaining('GET /orders/ord_9999: HTTP 404: {"error":"no order with id ord_9999"}'),
      ],
    ])
    expect(JSON.stringify(result)).not.toContain(token)
    // the order really exists in the store now
    const created = (await (await fetch(`${store.url}/orders/${value.giftOrder.id}`)).json()) as { status: string }
    expect(created.status).toBe("pending")
  })

  it("refuses to place an order without the staff token", async () => {
    const api = OpenAPI.fromSpec({
      spec: await OpenAPI.load(documentPath),
      baseUrl: store.url,
      auth: { resolve: () => "wrong-token" },
    })
    const runtime = CodeMode.make({ language: "lua", tools: { store: api.tools } })
    const result = await Effect.runPromise(
      runtime
        .execute(
          `return tools.store.orders.create({ body = { customerId = "cus_001", items = { { productId = "prd_001", quantity = 1 } } } })`,
        )
        .pipe(Effect.provide(FetchHttpClient.layer)) as Effect.Effect<CodeMode.Result>,
    )
    expect(result.ok).toBe(false)
    if (!result.ok) {
      expect(result.error.kind).toBe("ToolFailure")
      expect(result.error.message).toContain("POST /orders: HTTP 401")
      expect(result.error.message).not.toContain("wrong-token")
    }
  })
})

describe("npm start", () => {
  it("prints the catalog, the search hits and the report's Result, and exits 0", () => {
    const run = spawnSync(process.execPath, [`${root}scripts/start.mjs`], {
      cwd: root,
      encoding: "utf8",
      timeout: 120_000,
    })
    expect(run.stderr).toBe("")
    expect(run.status).toBe(0)
    expect(run.stdout).toContain("7 tools in the catalog")
    expect(run.stdout).toContain("GET /events: response 200 is a server-sent event stream")
    expect(run.stdout).toContain("store.customers.list: List customers")
    expect(run.stdout).toMatch(/ok in \d+ ms, 11 tool calls/)
    expect(run.stdout).toContain('"missingOrder": "not found (handled with pcall)"')
    expect(run.stdout).toContain("handled failure: store.orders.get failed: GET /orders/ord_9999: HTTP 404")
  })
})
