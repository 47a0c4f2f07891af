import { NodeHttpClient } from "@effect/platform-node"
import { Effect, Exit, Fiber, Redacted } from "effect"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { CodeMode } from "@codemode/core"
import { OpenAPI } from "../src/index.js"
import { echo, json, start, type TestServer } from "./support/server.js"
import { doc, failure, ok, run, toolAt } from "./support/spec.js"

let server: TestServer
beforeAll(async () => {
  server = await start()
})
afterAll(() => server.close())
beforeEach(() => {
  server.handler = echo
  server.requests.length = 0
})

const schemes = {
  bearer: { type: "http", scheme: "bearer" },
  basic: { type: "http", scheme: "basic" },
  headerKey: { type: "apiKey", in: "header", name: "X-API-Key" },
  queryKey: { type: "apiKey", in: "query", name: "api_key" },
  oauth: {
    type: "oauth2",
    flows: { clientCredentials: { tokenUrl: "http://127.0.0.1:9/token", scopes: { read: "" } } },
  },
}

const secured = (security: unknown[]) =>
  doc(
    { "/me": { get: { operationId: "me", security, responses: ok() } } },
    { servers: [{ url: server.url }], components: { securitySchemes: schemes } },
  )

type Echoed = { url: string; headers: Record<string, string>; body: string; method: string }

/** Run the tool and return the request the server received (the echo itself has its credentials redacted). */
const sent = async (tool: Parameters<typeof run>[0], input: unknown): Promise<Echoed> => {
  await run(tool, input)
  return server.requests[server.requests.length - 1] as unknown as Echoed
}

describe("authentication", () => {
  it("bearer, basic, apiKey in a header and in the query, OAuth 2 as bearer", async () => {
    const answers: Record<string, OpenAPI.Credential> = {
      bearer: "tok-123",
      basic: { username: "ann", password: "s3cret!" },
      headerKey: Redacted.make("key-456"),
      queryKey: "key-789",
      oauth: "oauth-abc",
    }
    const asked: OpenAPI.AuthRequest[] = []
    const resolve = (request: OpenAPI.AuthRequest) => {
      asked.push(request)
      return answers[request.scheme]
    }
    const call = (scheme: string) =>
      sent(
        toolAt(
          OpenAPI.fromSpec({ spec: secured([{ [scheme]: scheme === "oauth" ? ["read"] : [] }]), auth: { resolve } })
            .tools,
          "me",
        ),
        {},
      )
    expect((await call("bearer")).headers.authorization).toBe("Bearer tok-123")
    expect((await call("basic")).headers.authorization).toBe(`Basic ${Buffer.from("ann:s3cret!").toString("base64")}`)
    expect((await call("headerKey")).headers["x-api-key"]).toBe("key-456")
    expect((await call("queryKey")).url).toBe("/me?api_key=key-789")
    expect((await call("oauth")).headers.authorization).toBe("Bearer oauth-abc")
    expect(asked.map((a) => [a.scheme, a.kind])).toEqual([
      ["bearer", "bearer"],
      ["basic", "basic"],
      ["headerKey", "apiKey"],
      ["queryKey", "apiKey"],
      ["oauth", "bearer"],
    ])
    expect(asked[4]).toEqual({
      scheme: "oauth",
      kind: "bearer",
      scopes: ["read"],
      operation: { method: "GET", path: "/me", tool: "me" },
    })
  })

  it("tries alternatives in order; an empty alternative allows anonymous calls; AND-ed schemes all apply", async () => {
    const resolve = (r: OpenAPI.AuthRequest) =>
      r.scheme === "headerKey" ? "k" : r.scheme === "queryKey" ? "q" : undefined
    const either = toolAt(
      OpenAPI.fromSpec({ spec: secured([{ bearer: [] }, { headerKey: [] }]), auth: { resolve } }).tools,
      "me",
    )
    expect((await sent(either, {})).headers["x-api-key"]).toBe("k")
    const both = toolAt(
      OpenAPI.fromSpec({ spec: secured([{ headerKey: [], queryKey: [] }]), auth: { resolve } }).tools,
      "me",
    )
    const r = await sent(both, {})
    expect([r.headers["x-api-key"], r.url]).toEqual(["k", "/me?api_key=q"])
    const optional = toolAt(OpenAPI.fromSpec({ spec: secured([{ bearer: [] }, {}]), auth: { resolve } }).tools, "me")
    expect((await sent(optional, {})).headers.authorization).toBeUndefined()
  })

  it("resolve may return a Promise or an Effect", async () => {
    const viaPromise = toolAt(
      OpenAPI.fromSpec({ spec: secured([{ bearer: [] }]), auth: { resolve: async () => "p" } }).tools,
      "me",
    )
    expect((await sent(viaPromise, {})).headers.authorization).toBe("Bearer p")
    const viaEffect = toolAt(
      OpenAPI.fromSpec({ spec: secured([{ bearer: [] }]), auth: { resolve: () => Effect.succeed("e") } }).tools,
      "me",
    )
    expect((await sent(viaEffect, {})).headers.authorization).toBe("Bearer e")
  })

  it("fails clearly when credentials are missing or wrong-shaped, without sending the request", async () => {
    const none = toolAt(OpenAPI.fromSpec({ spec: secured([{ bearer: [] }]) }).tools, "me")
    expect(await failure(none, {})).toBe(
      "GET /me needs credentials for bearer (bearer); the host configured no auth.resolve",
    )
    const empty = toolAt(
      OpenAPI.fromSpec({ spec: secured([{ bearer: [] }, { basic: [] }]), auth: { resolve: () => undefined } }).tools,
      "me",
    )
    expect(await failure(empty, {})).toBe(
      "GET /me needs credentials for bearer (bearer) or basic (basic), and auth.resolve returned none",
    )
    const wrong = toolAt(
      OpenAPI.fromSpec({ spec: secured([{ basic: [] }]), auth: { resolve: () => "just-a-string" } }).tools,
      "me",
    )
    expect(await failure(wrong, {})).toBe(
      'auth.resolve returned a string for the basic scheme "basic"; return { username, password }',
    )
    const broken = toolAt(
      OpenAPI.fromSpec({
        spec: secured([{ bearer: [] }]),
        auth: { resolve: () => Effect.fail(new Error("vault is sealed")) },
      }).tools,
      "me",
    )
    expect(await failure(broken, {})).toBe('GET /me: auth.resolve failed for scheme "bearer": vault is sealed')
    expect(server.requests).toEqual([])
  })

  it("auth.schemes describes authentication a document leaves out", async () => {
    const spec = doc({ "/me": { get: { operationId: "me", responses: ok() } } }, { servers: [{ url: server.url }] })
    const api = OpenAPI.fromSpec({
      spec,
      auth: {
        schemes: { server: { type: "http", scheme: "basic" } },
        resolve: () => ({ username: "opencode", password: "pw" }),
      },
    })
    expect((await sent(toolAt(api.tools, "me"), {})).headers.authorization).toBe(
      `Basic ${Buffer.from("opencode:pw").toString("base64")}`,
    )
    // an empty security list (as OpenCode's own description has) also leaves authentication to auth.schemes
    const emptyList = OpenAPI.fromSpec({
      spec: { ...spec, security: [] },
      auth: { schemes: { token: { type: "http", scheme: "bearer" } }, resolve: () => "t" },
    })
    expect((await sent(toolAt(emptyList.tools, "me"), {})).headers.authorization).toBe("Bearer t")
    // a declared requirement wins over auth.schemes
    const declared = OpenAPI.fromSpec({
      spec: secured([{ headerKey: [] }]),
      auth: {
        schemes: { token: { type: "http", scheme: "bearer" } },
        resolve: (r) => (r.scheme === "headerKey" ? "k" : "t"),
      },
    })
    const echoed = await sent(toolAt(declared.tools, "me"), {})
    expect([echoed.headers["x-api-key"], echoed.headers.authorization]).toEqual(["k", undefined])
  })

  it("never shows credentials in failures, signatures or descriptions", async () => {
    server.handler = (req, res) =>
      json(res, 401, { error: "bad token", echoed: req.headers.authorization, url: req.url })
    const api = OpenAPI.fromSpec({
      spec: secured([{ bearer: [], queryKey: [] }]),
      auth: { resolve: (r) => (r.scheme === "bearer" ? "TOPSECRET-1" : "TOPSECRET-2") },
    })
    const tool = toolAt(api.tools, "me")
    const message = await failure(tool, {})
    expect(message).toBe(
      'GET /me: HTTP 401: {"error":"bad token","echoed":"Bearer [redacted]","url":"/me?api_key=[redacted]"}',
    )
    expect(JSON.stringify([tool.input, tool.output, tool.description])).not.toContain("TOPSECRET")
  })
})

describe("requests and responses", () => {
  const spec = () =>
    doc(
      {
        "/items": {
          post: {
            operationId: "items.create",
            requestBody: { required: true, content: { "application/json": { schema: { type: "object" } } } },
            responses: ok(),
          },
        },
        "/items/{id}": {
          get: {
            operationId: "items.get",
            parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
            responses: ok(),
          },
          delete: {
            operationId: "items.delete",
            parameters: [{ name: "id", in: "path", required: true }],
            responses: { "204": { description: "gone" } },
          },
        },
        "/notes": {
          get: { operationId: "notes", responses: { "200": { description: "", content: { "text/plain": {} } } } },
        },
      },
      { servers: [{ url: server.url }] },
    )

  it("sends the JSON body with its content type and returns decoded JSON", async () => {
    const api = OpenAPI.fromSpec({ spec: spec(), headers: { "X-Client": "codemode" } })
    const echoed = (await run(toolAt(api.tools, "items.create"), {
      body: { name: "lamp", tags: [], price: 1.5 },
    })) as Echoed
    expect(echoed.method).toBe("POST")
    expect(JSON.parse(echoed.body)).toEqual({ name: "lamp", tags: [], price: 1.5 })
    expect(echoed.headers["content-type"]).toBe("application/json")
    expect(echoed.headers["x-client"]).toBe("codemode")
    expect(await failure(toolAt(api.tools, "items.create"), {})).toBe(
      'POST /items: missing required input "body" (the request body)',
    )
  })

  it("passes values through unchanged: readOnly properties in requests, writeOnly ones in responses", async () => {
    const spec = doc(
      {
        "/pets": {
          post: {
            operationId: "pets.create",
            requestBody: { content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" } } } },
            responses: {
              "201": {
                description: "",
                content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" } } },
              },
            },
          },
        },
      },
      {
        servers: [{ url: server.url }],
        components: {
          schemas: {
            Pet: {
              type: "object",
              properties: {
                id: { type: "integer", readOnly: true },
                name: { type: "string" },
                secret: { type: "string", writeOnly: true },
              },
            },
          },
        },
      },
    )
    server.handler = (req, res) => json(res, 201, { ...JSON.parse(req.body), secret: "kept" })
    const result = await run(toolAt(OpenAPI.fromSpec({ spec }).tools, "pets.create"), {
      body: { id: 7, name: "Rex", nested: { deep: [1] } },
    })
    expect(result).toEqual({ id: 7, name: "Rex", nested: { deep: [1] }, secret: "kept" })
  })

  it("returns null for empty responses and text for text responses", async () => {
    server.handler = (req, res) => {
      if (req.method === "DELETE") {
        res.writeHead(204)
        res.end()
      } else {
        res.writeHead(200, { "content-type": "text/plain; charset=utf-8" })
        res.end("hello\nworld")
      }
    }
    const api = OpenAPI.fromSpec({ spec: spec() })
    expect(await run(toolAt(api.tools, "items.delete"), { id: "1" })).toBeNull()
    expect(await run(toolAt(api.tools, "notes"), undefined)).toBe("hello\nworld")
  })

  it("rejects unknown and malformed input", async () => {
    const api = OpenAPI.fromSpec({ spec: spec() })
    expect(await failure(toolAt(api.tools, "items.get"), { id: "1", idd: 2 })).toBe(
      'GET /items/{id}: unknown input "idd" (did you mean id?); expected "id"',
    )
    expect(await failure(toolAt(api.tools, "notes"), { x: 1 })).toBe(
      'GET /notes: unknown input "x"; this operation takes no input',
    )
    expect(await failure(toolAt(api.tools, "items.get"), [1])).toBe(
      "GET /items/{id}: expected an input object (a table), got an array",
    )
  })

  it("non-2xx responses fail with method, path, status and a size-capped body", async () => {
    server.handler = (_req, res) => json(res, 404, { error: "no such item", detail: "x".repeat(5000) })
    const api = OpenAPI.fromSpec({ spec: spec(), maxErrorBodyChars: 60 })
    const message = await failure(toolAt(api.tools, "items.get"), { id: "a/b" })
    expect(message).toBe(
      `GET /items/a%2Fb: HTTP 404: {"error":"no such item","detail":"${"x".repeat(26)}… (4976 more characters)`,
    )
    server.handler = (_req, res) => {
      res.writeHead(500)
      res.end()
    }
    expect(await failure(toolAt(api.tools, "items.get"), { id: "1" })).toBe("GET /items/1: HTTP 500 (empty body)")
  })

  it("malformed JSON and unexpected content types fail clearly", async () => {
    const api = OpenAPI.fromSpec({ spec: spec() })
    server.handler = (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" })
      res.end('{"name": "lamp",')
    }
    expect(await failure(toolAt(api.tools, "items.get"), { id: "1" })).toMatch(
      /^GET \/items\/1: the response is not valid JSON \(.+\); it starts with: \{"name": "lamp",$/,
    )
    server.handler = (_req, res) => {
      res.writeHead(200, { "content-type": "image/png" })
      res.end(Buffer.from([137, 80, 78, 71]))
    }
    expect(await failure(toolAt(api.tools, "items.get"), { id: "1" })).toBe(
      "GET /items/1: the response has content type image/png, which is neither JSON nor text",
    )
  })

  it("caps the response size, by Content-Length and while streaming", async () => {
    const api = OpenAPI.fromSpec({ spec: spec(), maxResponseBytes: 1000 })
    server.handler = (_req, res) => {
      const text = JSON.stringify({ data: "y".repeat(5000) })
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text) })
      res.end(text)
    }
    expect(await failure(toolAt(api.tools, "items.get"), { id: "1" })).toMatch(
      /^GET \/items\/1: the response is 50\d\d bytes, over the 1000-byte limit$/,
    )
    server.handler = (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" })
      res.write('["' + "z".repeat(800))
      setTimeout(() => res.end("z".repeat(800) + '"]'), 20)
    }
    expect(await failure(toolAt(api.tools, "items.get"), { id: "1" })).toBe(
      "GET /items/1: the response is over the 1000-byte limit",
    )
  })

  it("reports connection failures with method and path", async () => {
    const api = OpenAPI.fromSpec({ spec: spec(), baseUrl: "http://127.0.0.1:9" })
    expect(await failure(toolAt(api.tools, "items.get"), { id: "1" })).toMatch(
      /^GET \/items\/1: request failed: .*ECONNREFUSED/,
    )
  })

  it("interruption aborts the request in flight", async () => {
    let closed!: () => void
    const aborted = new Promise<void>((resolve) => (closed = resolve))
    server.handler = (_req, res) => {
      res.on("close", () => closed())
    }
    const api = OpenAPI.fromSpec({ spec: spec() })
    const effect = toolAt(api.tools, "items.get")
      .execute({ id: "slow" })
      .pipe(Effect.provide(NodeHttpClient.layerNodeHttp)) as Effect.Effect<unknown>
    const exit = await Effect.runPromise(
      Effect.gen(function* () {
        const fiber = yield* Effect.forkChild(effect)
        yield* Effect.promise(async () => {
          while (server.requests.length === 0) await new Promise((r) => setTimeout(r, 5))
        })
        yield* Fiber.interrupt(fiber)
        return yield* Fiber.await(fiber)
      }),
    )
    expect(Exit.hasInterrupts(exit)).toBe(true)
    await aborted
  })

  it("the execution's timeout aborts a request in flight (through CodeMode and Lua)", async () => {
    let closed!: () => void
    const aborted = new Promise<void>((resolve) => (closed = resolve))
    server.handler = (_req, res) => res.on("close", () => closed())
    const runtime = CodeMode.make({
      language: "lua",
      tools: { shop: OpenAPI.fromSpec({ spec: spec() }).tools },
      limits: { timeoutMs: 1500 },
    })
    const execute = (code: string) =>
      Effect.runPromise(runtime.execute(code).pipe(Effect.provide(NodeHttpClient.layerNodeHttp)))
    // Warm the shared sandbox pool without the short limit: starting a sandbox counts toward an execution's timeout.
    const warm = CodeMode.make({ language: "lua", tools: {}, limits: { timeoutMs: 30_000 } })
    expect(await Effect.runPromise(warm.execute("return 1"))).toMatchObject({ ok: true, value: 1 })
    const result = await execute(`return tools.shop.items.get({ id = "slow" })`)
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.error.kind).toBe("TimeoutExceeded")
    expect(server.requests.map((r) => r.url)).toEqual(["/items/slow"])
    await Promise.race([
      aborted,
      new Promise((_, reject) => setTimeout(() => reject(new Error("the request was not aborted")), 10_000)),
    ])
  })

  it("times out with Effect.timeout without leaving the request open", async () => {
    let closed!: () => void
    const aborted = new Promise<void>((resolve) => (closed = resolve))
    server.handler = (_req, res) => res.on("close", () => closed())
    const api = OpenAPI.fromSpec({ spec: spec() })
    const exit = await Effect.runPromiseExit(
      (toolAt(api.tools, "items.get").execute({ id: "slow" }) as Effect.Effect<unknown, unknown, never>).pipe(
        Effect.timeout(100),
        Effect.provide(NodeHttpClient.layerNodeHttp),
      ),
    )
    expect(Exit.isFailure(exit)).toBe(true)
    await aborted
  })
})
