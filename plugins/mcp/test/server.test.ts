/**
 * The MCP server through the official SDK client, over Streamable HTTP (and in memory where the transport does not
 * matter): the tool list, search, execute that succeeds and fails, malformed calls, progress per tool call,
 * cancellation that stops the execution, and the HTTP guards (Origin, Host, bearer token, protocol version).
 */
import { request as httpRequest } from "node:http"
import { Namespace, SandboxPool, Tool } from "@codemode/core"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js"
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js"
import { Effect, Schema } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { McpHttp, McpServer } from "../src/index.js"

const orders = [
  { id: "o1", status: "open", total: 30 },
  { id: "o2", status: "shipped", total: 12 },
  { id: "o3", status: "open", total: 5 },
]
let blockedCallInterrupted = false
let ticks = 0
let blockedCallStarted: () => void = () => undefined

const tools = {
  orders: Namespace.make({
    description: "Purchases and their status",
    tools: {
      list: Tool.make({
        description: "List every order",
        input: Schema.Struct({}),
        output: Schema.Array(Schema.Struct({ id: Schema.String, status: Schema.String, total: Schema.Number })),
        execute: () => Effect.succeed(orders),
      }),
      lookup: Tool.make({
        description: "Look up an order by ID",
        input: Schema.Struct({ id: Schema.String }),
        execute: ({ id }) => {
          const order = orders.find((o) => o.id === id)
          return order ? Effect.succeed(order) : Effect.fail(new Error(`no order ${id}`))
        },
      }),
    },
  }),
  tick: Tool.make({
    description: "Counts its calls",
    input: Schema.Struct({}),
    execute: () => Effect.sync(() => void ticks++),
  }),
  slow: {
    wait: Tool.make({
      description: "Never answers",
      input: Schema.Struct({}),
      execute: () =>
        Effect.sync(() => blockedCallStarted()).pipe(
          Effect.andThen(Effect.never),
          Effect.onInterrupt(() => Effect.sync(() => (blockedCallInterrupted = true))),
        ),
    }),
  },
}

// One sandbox worker: an execution that was not stopped would keep the next one waiting.
const pool = new SandboxPool({ maxWorkers: 1, keepIdle: 1 })
let server: McpServer.CodeModeServer
let http: McpHttp.Listening
const token = "test-token-0123456789"

const connectHttp = async (headers: Record<string, string> = { authorization: `Bearer ${token}` }) => {
  const client = new Client({ name: "test", version: "1.0.0" })
  await client.connect(new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers } }))
  return client
}

const connectMemory = async () => {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  const client = new Client({ name: "test", version: "1.0.0" })
  await client.connect(clientSide)
  return client
}

beforeAll(async () => {
  server = await McpServer.make({
    codemode: { language: "lua", tools, pool, limits: { timeoutMs: 120_000, maxToolCalls: 1_000_000_000 } },
  })
  http = await McpHttp.listen(server, { port: 0, token })
})

afterAll(async () => {
  await http?.close()
  await server?.close()
  pool.close()
})

describe("tools/list", () => {
  it("lists search and execute with their exact schemas, the guide and the namespaces", async () => {
    const client = await connectHttp()
    const { tools: listed } = await client.listTools()
    expect(listed.map((t) => t.name)).toEqual(["search", "execute"])
    const execute = listed[1]
    expect(execute.inputSchema).toEqual({
      type: "object",
      properties: { code: { type: "string", description: "the whole program" } },
      required: ["code"],
      additionalProperties: false,
    })
    expect(execute.outputSchema?.required).toEqual(["ok", "toolCalls"])
    expect(execute.description).toContain("Write a Lua 5.4 program")
    expect(execute.description).toContain("- tools.orders: 2 tools")
    expect(execute.description).toContain("- tools.slow: 1 tool")
    const search = listed[0]
    expect(Object.keys(search.inputSchema.properties ?? {})).toEqual(["query", "namespace", "limit", "offset"])
    expect(search.inputSchema.additionalProperties).toBe(false)
    expect(client.getInstructions()).toMatch(/runs Lua programs over 4 tools/)
    await client.close()
  })

  it("execute's guide and catalog are core's runtime.instructions, within the budget given or core's default", async () => {
    const execute = server.tools[1].description
    expect(execute.endsWith(`\n\n${server.runtime.instructions()}`)).toBe(true)
    const small = await McpServer.make({ codemode: { language: "lua", tools }, budgetTokens: 150 })
    const brief = small.tools[1].description
    expect(brief.endsWith(`\n\n${small.runtime.instructions({ budgetTokens: 150 })}`)).toBe(true)
    expect(brief.length).toBeLessThan(execute.length)
    await small.close()
  })
})

describe("search and execute", () => {
  it("search returns hits with Lua signatures as structured content", async () => {
    const client = await connectHttp()
    const answer = await client.callTool({ name: "search", arguments: { query: "order lookup", limit: 1 } })
    const page = answer.structuredContent as { items: Array<{ path: string; signature: string }>; remaining: number }
    expect(page.items).toHaveLength(1)
    expect(page.items[0].path).toBe("orders.lookup")
    expect(page.items[0].signature).toContain("tools.orders.lookup")
    expect(JSON.parse((answer.content as Array<{ text: string }>)[0].text)).toEqual(page)
    await client.close()
  })

  it("execute returns the Result as structured content and JSON text", async () => {
    const client = await connectHttp()
    const code = `
      local open = 0
      for _, order in ipairs(tools.orders.list({})) do
        if order.status == "open" then open = open + order.total end
      end
      print("summed")
      return { open = open }`
    const answer = await client.callTool({ name: "execute", arguments: { code } })
    expect(answer.isError).toBeFalsy()
    const result = answer.structuredContent as { ok: boolean; value: unknown; logs: string[]; toolCalls: unknown[] }
    expect(result).toMatchObject({ ok: true, value: { open: 35 }, logs: ["summed"] })
    expect(result.toolCalls).toHaveLength(1)
    expect(JSON.parse((answer.content as Array<{ text: string }>)[0].text)).toEqual(result)
    await client.close()
  })

  it("a failing program is isError with the diagnostic's message first", async () => {
    const client = await connectHttp()
    const answer = await client.callTool({
      name: "execute",
      arguments: { code: 'local o = tools.orders.lookup({ id = "o9" })\nreturn o' },
    })
    expect(answer.isError).toBe(true)
    const [first, second] = answer.content as Array<{ text: string }>
    expect(first.text).toMatch(/^ToolFailure: .*no order o9/)
    const result = JSON.parse(second.text)
    expect(result.ok).toBe(false)
    expect(result.error.kind).toBe("ToolFailure")
    expect(answer.structuredContent).toEqual(result)
    const parse = await client.callTool({ name: "execute", arguments: { code: "return (" } })
    expect((parse.content as Array<{ text: string }>)[0].text).toMatch(/^ParseError: .*\(line 1, column \d+\)$/)
    await client.close()
  })

  it("a malformed call is a JSON-RPC error naming the problem", async () => {
    const client = await connectHttp()
    const refused = async (name: string, args: Record<string, unknown>, text: string | RegExp) => {
      const error = await client.callTool({ name, arguments: args }).then(
        () => undefined,
        (e: unknown) => e,
      )
      expect(error).toBeInstanceOf(McpError)
      expect((error as McpError).code).toBe(ErrorCode.InvalidParams)
      expect((error as McpError).message).toMatch(text)
    }
    await refused("execute", {}, "code must be a string")
    await refused("execute", { code: 1 }, "code must be a string")
    await refused("execute", { code: "return 1", language: "lua" }, 'execute does not take "language"')
    await refused("search", { query: "x", limit: 0 }, "limit must be a whole number from 1 to 100")
    await refused("search", { q: "x" }, 'search does not take "q"')
    await refused("lookup", {}, 'unknown tool "lookup"')
    await client.close()
  })
})

describe("progress and cancellation", () => {
  it("sends one progress notification per tool call when the request has a progress token", async () => {
    const client = await connectMemory()
    const seen: Array<{ progress: number; message?: string }> = []
    const answer = await client.callTool(
      {
        name: "execute",
        arguments: {
          code: `
            local a = tools.orders.lookup({ id = "o1" })
            local b = tools.orders.lookup({ id = "o2" })
            local all = tools.orders.list({})
            return #all`,
        },
      },
      undefined,
      { onprogress: (p) => seen.push(p) },
    )
    expect((answer.structuredContent as { value: unknown }).value).toBe(3)
    expect(seen.map((p) => p.progress)).toEqual([1, 2, 3])
    expect(seen.map((p) => p.message)).toEqual([
      "tool call 1: orders.lookup",
      "tool call 2: orders.lookup",
      "tool call 3: orders.list",
    ])
    const quiet: unknown[] = []
    client.setNotificationHandler(
      (await import("@modelcontextprotocol/sdk/types.js")).ProgressNotificationSchema,
      (n) => {
        quiet.push(n)
      },
    )
    await client.callTool({ name: "execute", arguments: { code: 'return tools.orders.lookup({ id = "o1" }).id' } })
    expect(quiet).toEqual([])
    await client.close()
  })

  it("cancelling an endless program stops it: nothing runs after, and the one worker runs the next program", async () => {
    const client = await connectHttp()
    const controller = new AbortController()
    const endless = client.callTool(
      { name: "execute", arguments: { code: "while true do tools.tick({}) end" } },
      undefined,
      { signal: controller.signal, timeout: 60_000 },
    )
    await expect.poll(() => ticks, { timeout: 20_000 }).toBeGreaterThan(3)
    controller.abort("enough")
    await expect(endless).rejects.toThrow()
    const next = await client.callTool({ name: "execute", arguments: { code: "return 41 + 1" } })
    expect((next.structuredContent as { value: unknown }).value).toBe(42)
    const stopped = ticks
    await client.callTool({ name: "execute", arguments: { code: "return 0" } })
    expect(ticks).toBe(stopped)
    await client.close()
  })

  it("cancelling a program blocked in a tool call interrupts the call", async () => {
    const client = await connectMemory()
    const started = new Promise<void>((resolve) => (blockedCallStarted = resolve))
    const controller = new AbortController()
    const blocked = client.callTool({ name: "execute", arguments: { code: "return tools.slow.wait({})" } }, undefined, {
      signal: controller.signal,
    })
    await started
    expect(blockedCallInterrupted).toBe(false)
    controller.abort("enough")
    await expect(blocked).rejects.toThrow()
    await expect.poll(() => blockedCallInterrupted, { timeout: 10_000 }).toBe(true)
    await client.close()
  })
})

describe("HTTP guards", () => {
  const initialize = {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
  }
  const post = (headers: Record<string, string>, body: unknown = initialize) =>
    fetch(http.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${token}`,
        ...headers,
      },
      body: JSON.stringify(body),
    })

  it("refuses a foreign Origin and a foreign Host, accepts loopback origins", async () => {
    const evil = await post({ origin: "http://evil.example" })
    expect(evil.status).toBe(403)
    expect(((await evil.json()) as { error: { message: string } }).error.message).toBe(
      'forbidden: Origin "http://evil.example" is not allowed',
    )
    // fetch cannot set Host; a plain request can, as a rebinding page's browser would.
    const rebound = await new Promise<number | undefined>((resolve, reject) => {
      const request = httpRequest(
        http.url,
        { method: "POST", headers: { host: `evil.example:${http.port}`, authorization: `Bearer ${token}` } },
        (response) => {
          response.resume()
          resolve(response.statusCode)
        },
      )
      request.on("error", reject)
      request.end(JSON.stringify(initialize))
    })
    expect(rebound).toBe(403)
    const local = await post({ origin: "http://localhost:5173" })
    expect(local.status).toBe(200)
    await local.body?.cancel()
  })

  it("requires the bearer token when one is set", async () => {
    const none = await post({ authorization: "" })
    expect(none.status).toBe(401)
    expect(none.headers.get("www-authenticate")).toMatch(/^Bearer/)
    expect((await post({ authorization: "Bearer wrong-token-0123456789" })).status).toBe(401)
    await expect(connectHttp({})).rejects.toThrow()
  })

  it("honours MCP-Protocol-Version: an unsupported version is refused", async () => {
    const client = await connectHttp()
    const transport = (client as unknown as { transport: StreamableHTTPClientTransport }).transport
    const sessionId = transport.sessionId!
    const bad = await post(
      { "mcp-session-id": sessionId, "mcp-protocol-version": "1999-01-01" },
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
    )
    expect(bad.status).toBe(400)
    expect(await bad.text()).toContain("Unsupported protocol version: 1999-01-01")
    const good = await post(
      { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-06-18" },
      { jsonrpc: "2.0", id: 3, method: "tools/list" },
    )
    expect(good.status).toBe(200)
    await good.body?.cancel()
    await client.close()
  })

  it("an unknown session is 404 and a non-initializing first request leaves no session", async () => {
    expect((await post({ "mcp-session-id": "nope" }, { jsonrpc: "2.0", id: 2, method: "tools/list" })).status).toBe(404)
    const stray = await post({}, { jsonrpc: "2.0", id: 2, method: "tools/list" })
    expect(stray.status).toBe(400)
  })
})

describe("other runtimes and limits", () => {
  it("serves a JavaScript runtime the same way", async () => {
    const js = await McpServer.make({ codemode: { language: "javascript", tools }, name: "js" })
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
    await js.connect(serverSide)
    const client = new Client({ name: "test", version: "1.0.0" })
    await client.connect(clientSide)
    const { tools: listed } = await client.listTools()
    expect(listed[1].description).toMatch(/^Run a JavaScript program/)
    const search = await client.callTool({ name: "search", arguments: { query: "orders.lookup" } })
    expect((search.structuredContent as { items: Array<{ signature: string }> }).items[0].signature).toContain(
      "Promise<",
    )
    const answer = await client.callTool({
      name: "execute",
      arguments: { code: "const all = await tools.orders.list({}); all[1].status" },
    })
    expect(answer.structuredContent).toMatchObject({ ok: true, value: "shipped" })
    await client.close()
    await js.close()
  })

  it("at most maxSessions sessions: the least recently used idle one is closed for a new client", async () => {
    const small = await McpHttp.listen(server, { port: 0, maxSessions: 1 })
    const connect = async () => {
      const client = new Client({ name: "test", version: "1.0.0" })
      await client.connect(new StreamableHTTPClientTransport(new URL(small.url)))
      return client
    }
    const first = await connect()
    await first.listTools()
    const second = await connect()
    await second.listTools()
    await expect(first.listTools()).rejects.toThrow(/404|session/i)
    await second.close()
    await first.close().catch(() => undefined)
    await small.close()
  })

  it("refuses unknown options", async () => {
    await expect(McpServer.make({ codemode: {}, limts: {} } as never)).rejects.toThrow(
      'McpServer.make: unknown option "limts"; the options are codemode, layer, budgetTokens, name, version',
    )
  })
})
