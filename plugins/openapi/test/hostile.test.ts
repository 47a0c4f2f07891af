/**
 * Hostile programs against generated tools: each test is a way a program (or a server it talks to) could turn a tool
 * against its host, run against a real loopback server.
 */
import { NodeHttpClient } from "@effect/platform-node"
import { Cause, Effect, Exit, type Layer } from "effect"
import { FetchHttpClient, type HttpClient } from "effect/http"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { CodeMode, type Tool } from "@codemode/core"
import { OpenAPI } from "../src/index.js"
import { echo, json, start, type TestServer } from "./support/server.js"
import { doc, ok } from "./support/spec.js"

let server: TestServer
let other: TestServer
beforeAll(async () => {
  server = await start()
  other = await start()
})
afterAll(async () => {
  await server.close()
  await other.close()
})
beforeEach(() => {
  server.handler = echo
  other.handler = echo
  server.requests.length = 0
  other.requests.length = 0
})

const clients: ReadonlyArray<readonly [string, Layer.Layer<HttpClient.HttpClient>]> = [
  ["node", NodeHttpClient.layerNodeHttp],
  ["fetch", FetchHttpClient.layer],
]

type Outcome = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly message: string }

const attempt = async (
  tool: Tool.Any,
  input: unknown,
  client: Layer.Layer<HttpClient.HttpClient> = NodeHttpClient.layerNodeHttp,
): Promise<Outcome> => {
  const exit = await Effect.runPromiseExit(
    tool.execute(input).pipe(Effect.provide(client)) as Effect.Effect<unknown, unknown, never>,
  )
  if (Exit.isSuccess(exit)) return { ok: true, value: exit.value }
  const error = Cause.squash(exit.cause)
  return { ok: false, message: error instanceof Error ? error.message : String(error) }
}

const refused = async (tool: Tool.Any, input: unknown, client?: Layer.Layer<HttpClient.HttpClient>) => {
  const outcome = await attempt(tool, input, client)
  if (outcome.ok) throw new Error(`expected a refusal, got ${JSON.stringify(outcome.value)}`)
  return outcome.message
}

const schemes = {
  bearer: { type: "http", scheme: "bearer" },
  basic: { type: "http", scheme: "basic" },
  headerKey: { type: "apiKey", in: "header", name: "X-API-Key" },
  queryKey: { type: "apiKey", in: "query", name: "api_key" },
}

describe("a path value cannot leave its segment", () => {
  const api = (style = "simple", explode = false) =>
    OpenAPI.fromSpec({
      spec: doc({
        "/files/{name}": {
          get: {
            operationId: "files.get",
            parameters: [{ name: "name", in: "path", required: true, style, explode, schema: { type: "string" } }],
            responses: ok(),
          },
        },
      }),
      baseUrl: `${server.url}/api/v1`,
    }).tools["files.get"]

  it("refuses dot segments and empty values before anything is sent", async () => {
    for (const value of ["..", ".", "", ["..", "x"].slice(0, 1), []]) {
      const message = await refused(api(), { name: value })
      expect(message).toMatch(/^GET \/files\/\{name\}: path parameter "name" /)
    }
    // Label style prefixes a dot: "." becomes "..", "" becomes "."; exploded arrays join with dots.
    for (const value of [".", "", ["", ""]]) await refused(api("label", true), { name: value })
    expect(server.requests).toEqual([])
  })

  it("encodes everything else that could move the request: slashes, backslashes, ?, #, encoded dots, URLs", async () => {
    const cases: Array<readonly [string, string]> = [
      ["../admin", "..%2Fadmin"],
      ["..\\admin", "..%5Cadmin"],
      ["%2e%2e", "%252e%252e"],
      [".%2e", ".%252e"],
      ["x?admin=1", "x%3Fadmin%3D1"],
      ["x#y", "x%23y"],
      ["http://evil.example/", "http%3A%2F%2Fevil.example%2F"],
      ["...", "..."],
    ]
    for (const [value, sent] of cases) {
      const result = (await attempt(api(), { name: value })) as { ok: true; value: { url: string } }
      expect(result.value.url).toBe(`/api/v1/files/${sent}`)
    }
  })

  it("a style-made `;` cannot hide a dot segment from a servlet container (`..;b=x` is read as `..`)", async () => {
    const tool = OpenAPI.fromSpec({
      spec: doc({
        "/files/{a}{b}": {
          get: {
            operationId: "files",
            parameters: [
              { name: "a", in: "path", required: true },
              { name: "b", in: "path", required: true, style: "matrix" },
            ],
            responses: ok(),
          },
        },
      }),
      baseUrl: server.url,
    }).tools.files
    expect(await refused(tool, { a: "..", b: "x" })).toContain('gives the path segment "..;b=x"')
    expect(((await attempt(tool, { a: "x", b: ".." })) as { value: { url: string } }).value.url).toBe("/files/x;b=..")
    expect(server.requests.length).toBe(1)
  })

  it("program-made text in a message stays small", async () => {
    const huge = "a".repeat(1_000_000)
    const message = await refused(api(), { name: huge })
    expect(message.length).toBeLessThan(700)
    expect(message).toMatch(/^GET \/files\/a{400,}…: /)
    const keys = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`${"k".repeat(5000)}${i}`, 1]))
    const unknown = await refused(api(), { name: "x", ...keys })
    expect(unknown.length).toBeLessThan(1500)
    expect(unknown).toMatch(/ and 990 more; expected "name"$/)
  })

  it("skips operations whose path does not start with a slash (a value could extend the host name)", () => {
    const generated = OpenAPI.fromSpec({
      spec: doc({
        "{tenant}/items": {
          get: {
            operationId: "items",
            parameters: [{ name: "tenant", in: "path", required: true }],
            responses: ok(),
          },
        },
      }),
      baseUrl: server.url,
    })
    expect(Object.keys(generated.tools)).toEqual([])
    expect(generated.skipped[0].reason).toMatch(/path "\{tenant\}\/items" does not start with "\/"/)
  })
})

describe("host credentials always win", () => {
  const spec = (security: unknown[]) =>
    doc(
      {
        "/search": {
          get: {
            operationId: "search",
            security,
            parameters: [
              { name: "filter", in: "query", style: "form", explode: true, schema: { type: "object" } },
              { name: "q", in: "query", allowReserved: true, schema: { type: "string" } },
              { name: "api_key", in: "query", schema: { type: "string" } },
              { name: "X-API-Key", in: "header", schema: { type: "string" } },
              { name: "X-Tenant", in: "header", schema: { type: "string" } },
            ],
            responses: ok(),
          },
        },
      },
      { components: { securitySchemes: schemes } },
    )
  const tool = (security: unknown[] = [{ queryKey: [], headerKey: [] }]) =>
    OpenAPI.fromSpec({
      spec: spec(security),
      baseUrl: server.url,
      headers: { "X-Tenant": "host-tenant" },
      auth: { resolve: (r) => (r.scheme === "queryKey" ? "HOSTQUERYKEY" : "HOSTHEADERKEY") },
    }).tools.search

  it("a form/explode object or an allowReserved value cannot write a credential's query key", async () => {
    const attempts = [
      { filter: { api_key: "mine" } },
      { filter: { API_KEY: "mine" } },
      { q: "x&api_key=mine" },
      { q: "x;api_key=mine" },
      { q: "x&api_key[]=mine" },
    ]
    for (const input of attempts) {
      const message = await refused(tool(), input)
      expect(message).toContain('the query key "api_key", which the credential of scheme "queryKey" uses')
    }
    expect(server.requests).toEqual([])
  })

  it("a parameter that a credential or a host header fills is not part of the input", async () => {
    expect(Object.keys((tool().input as { properties: object }).properties)).toEqual(["filter", "q"])
    expect(await refused(tool(), { api_key: "mine" })).toContain('unknown input "api_key"')
    expect(await refused(tool(), { "X-API-Key": "mine" })).toContain('unknown input "X-API-Key"')
    expect(await refused(tool(), { "X-Tenant": "other" })).toContain('unknown input "X-Tenant"')
    expect(server.requests).toEqual([])
    const sent = (await attempt(tool(), { filter: { page: 2 }, q: "a/b" })) as {
      value: { url: string; headers: Record<string, string> }
    }
    expect(sent.value.url).toBe("/search?page=2&q=a/b&api_key=[redacted]")
    expect(sent.value.headers["x-tenant"]).toBe("host-tenant")
    expect(sent.value.headers["x-api-key"]).toBe("[redacted]")
    expect(server.requests[0].url).toBe("/search?page=2&q=a/b&api_key=HOSTQUERYKEY")
  })

  it("also when the credential belongs to an alternative the host did not answer", async () => {
    // Either scheme works; the host answers only the header one, and the program still cannot write api_key.
    const either = OpenAPI.fromSpec({
      spec: spec([{ queryKey: [] }, { headerKey: [] }]),
      baseUrl: server.url,
      auth: { resolve: (r) => (r.scheme === "headerKey" ? "HOSTHEADERKEY" : undefined) },
    }).tools.search
    expect(await refused(either, { q: "&api_key=mine" })).toContain(
      'the query key "api_key", which the credential of scheme "queryKey" uses',
    )
  })
})

describe("redirects", () => {
  const api = (target: () => string) => {
    server.handler = (req, res) => {
      if (req.url.startsWith("/start")) {
        res.writeHead(302, { location: target() })
        res.end()
      } else json(res, 200, { at: req.url, key: req.headers["x-api-key"] ?? null })
    }
    return OpenAPI.fromSpec({
      spec: doc(
        {
          "/start": { get: { operationId: "start", security: [{ headerKey: [] }], responses: ok() } },
          "/loop": { post: { operationId: "loop", responses: ok() } },
        },
        { components: { securitySchemes: schemes } },
      ),
      baseUrl: server.url,
      auth: { resolve: () => "REDIRECTSECRET" },
    }).tools
  }

  for (const [name, client] of clients)
    it(`never follows a redirect to another origin, and never sends credentials there (${name})`, async () => {
      const tools = api(() => `${other.url}/steal`)
      const message = await refused(tools.start, {}, client)
      expect(message).toBe(
        `GET /start: the server redirected to another origin (${other.url}); redirects are followed only within ${server.url}`,
      )
      // A protocol-relative location is another origin too.
      const relative = api(() => `//${other.url.replace("http://", "")}/steal`)
      expect(await refused(relative.start, {}, client)).toContain("the server redirected to another origin")
      expect(other.requests).toEqual([])
    })

  for (const [name, client] of clients)
    it(`follows a same-origin redirect with the credentials (${name})`, async () => {
      const tools = api(() => "/final?x=1")
      const outcome = await attempt(tools.start, {}, client)
      expect(outcome).toEqual({ ok: true, value: { at: "/final?x=1", key: "[redacted]" } })
      expect(server.requests.map((r) => [r.url, r.headers["x-api-key"]])).toEqual([
        ["/start", "REDIRECTSECRET"],
        ["/final?x=1", "REDIRECTSECRET"],
      ])
    })

  it("gives up after 5 redirects", async () => {
    const tools = api(() => "/start")
    expect(await refused(tools.start, {}, FetchHttpClient.layer)).toBe(
      "GET /start: the server redirected more than 5 times",
    )
    expect(server.requests.length).toBe(6)
  })
})

describe("credentials never reach a result or a message", () => {
  const TOKEN = "Qz9-XKWV+tqjx/vbzp=hkcf_7Y3mW8rL"
  const basic = { username: "ann", password: "pa55:wQrd!Zxq" }
  const tools = (options: { maxErrorBodyChars?: number } = {}) =>
    OpenAPI.fromSpec({
      spec: doc(
        {
          "/bearer": { get: { operationId: "bearer", security: [{ bearer: [] }], responses: ok() } },
          "/basic": { get: { operationId: "basic", security: [{ basic: [] }], responses: ok() } },
          "/query": { get: { operationId: "query", security: [{ queryKey: [] }], responses: ok() } },
          "/text": {
            get: {
              operationId: "text",
              security: [{ bearer: [] }],
              responses: { "200": { description: "", content: { "text/plain": {} } } },
            },
          },
        },
        { components: { securitySchemes: schemes } },
      ),
      baseUrl: server.url,
      auth: { resolve: (r) => (r.kind === "basic" ? basic : TOKEN) },
      ...options,
    }).tools
  const fragments = (secret: string, size = 4) =>
    Array.from({ length: secret.length - size + 1 }, (_, i) => secret.slice(i, i + size))
  const clean = (text: string) => {
    for (const secret of [TOKEN, basic.password])
      for (const fragment of fragments(secret)) expect(text, `leaks "${fragment}"`).not.toContain(fragment)
  }

  it("echoed success bodies: headers, keys, nested values", async () => {
    server.handler = (req, res) =>
      json(res, 200, {
        headers: req.headers,
        url: req.url,
        [req.headers.authorization ?? req.url]: [{ deep: req.headers.authorization ?? req.url }],
      })
    for (const name of ["bearer", "basic", "query"]) {
      const outcome = await attempt(tools()[name], {})
      expect(outcome.ok).toBe(true)
      clean(JSON.stringify(outcome))
    }
    expect(JSON.stringify((await attempt(tools().bearer, {})) as object)).toContain("Bearer [redacted]")
  })

  it("the encodings a server echoes: percent (either case, double), form, JSON and HTML escapes, base64, hex", async () => {
    const encodings = (secret: string) => {
      const bytes = Buffer.from(secret)
      return [
        encodeURIComponent(secret),
        encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
        encodeURIComponent(encodeURIComponent(secret)),
        new URLSearchParams({ k: secret }).toString(),
        JSON.stringify(secret).slice(1, -1).replace(/\//g, "\\/"),
        [...secret].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join(""),
        [...secret].map((c) => `&#${c.charCodeAt(0)};`).join(""),
        secret.replace(/&/g, "&amp;").replace(/</g, "&lt;"),
        bytes.toString("base64"),
        bytes.toString("base64url"),
        Buffer.from(`Authorization: Bearer ${secret}`).toString("base64"),
        Buffer.from(`x${secret}`).toString("base64"),
        Buffer.from(`xy${secret}`).toString("base64"),
        Buffer.from(`/query?api_key=${encodeURIComponent(secret)}`).toString("base64url"),
        bytes.toString("hex"),
        bytes.toString("hex").toUpperCase(),
      ]
    }
    for (const name of ["bearer", "text", "basic"]) {
      const secret = name === "basic" ? basic.password : TOKEN
      const echoed = encodings(secret).join("\n")
      server.handler = (_req, res) => {
        res.writeHead(200, { "content-type": "text/plain" })
        res.end(echoed)
      }
      const outcome = await attempt(tools()[name], {})
      clean(JSON.stringify(outcome))
      server.handler = (_req, res) => json(res, 400, { echoed })
      clean(await refused(tools()[name], {}))
    }
  })

  it("moving the cut point of an error body never reveals part of a credential", async () => {
    const pad = 40
    server.handler = (req, res) => {
      res.writeHead(401, { "content-type": "text/plain" })
      res.end(`${"-".repeat(pad)}${req.headers.authorization}`)
    }
    const seen = new Set<string>()
    for (let cut = pad; cut <= pad + 8 + TOKEN.length; cut++) {
      const message = await refused(tools({ maxErrorBodyChars: cut }).bearer, {})
      clean(message)
      seen.add(message)
    }
    expect(seen.size).toBeGreaterThan(1)
  })

  it("an error body cut by the read cap, and a malformed JSON excerpt, are scrubbed before they are cut", async () => {
    const cap = 64 * 1024
    for (let tail = 1; tail < 12; tail += 3) {
      server.handler = (_req, res) => {
        res.writeHead(500, { "content-type": "text/plain" })
        res.end(`${"-".repeat(cap - tail)}${TOKEN}`)
      }
      clean(await refused(tools({ maxErrorBodyChars: cap }).bearer, {}))
    }
    for (let at = 190; at < 200; at += 3) {
      server.handler = (_req, res) => {
        res.writeHead(200, { "content-type": "application/json" })
        res.end(`{"x":"${"-".repeat(at)}${TOKEN}`)
      }
      clean(await refused(tools().bearer, {}))
    }
  })

  it("a redirect's location and a content type are scrubbed too", async () => {
    server.handler = (_req, res) => {
      res.writeHead(302, { location: `${other.url}/?t=${encodeURIComponent(TOKEN)}` })
      res.end()
    }
    clean(JSON.stringify(await attempt(tools().bearer, {}, FetchHttpClient.layer)))
    const secret = OpenAPI.fromSpec({
      spec: doc(
        { "/b": { get: { operationId: "b", security: [{ bearer: [] }], responses: ok() } } },
        { components: { securitySchemes: schemes } },
      ),
      baseUrl: server.url,
      auth: { resolve: () => "CONTENTTYPESECRET" },
    }).tools.b
    server.handler = (_req, res) => {
      res.writeHead(200, { "content-type": "application/x-CONTENTTYPESECRET" })
      res.end("x")
    }
    expect(await refused(secret, {})).not.toContain("CONTENTTYPESECRET")
  })

  it("a numeric key echoed as a JSON number, a case-folded token and a split echo are redacted", async () => {
    const numeric = OpenAPI.fromSpec({
      spec: doc(
        { "/n": { get: { operationId: "n", security: [{ headerKey: [] }], responses: ok() } } },
        { components: { securitySchemes: schemes } },
      ),
      baseUrl: server.url,
      auth: { resolve: () => "0083920174" },
    }).tools.n
    server.handler = (req, res) => {
      res.writeHead(200, { "content-type": "application/json" })
      res.end(`{"client": ${Number(req.headers["x-api-key"])}, "text": "key ${Number(req.headers["x-api-key"])}"}`)
    }
    expect(await attempt(numeric, {})).toEqual({ ok: true, value: { client: "[redacted]", text: "key [redacted]" } })
    server.handler = (req, res) => {
      res.writeHead(403, { "content-type": "application/json" })
      res.end(`{"client": ${Number(req.headers["x-api-key"])}}`)
    }
    expect(await refused(numeric, {})).toBe('GET /n: HTTP 403: {"client":"[redacted]"}')

    server.handler = (req, res) => {
      const token = (req.headers.authorization ?? "").slice("Bearer ".length)
      json(res, 401, { error: `INVALID TOKEN ${token.toUpperCase()}`, [token.slice(0, 9)]: token.slice(9) })
    }
    const message = await refused(tools().bearer, {})
    expect(message).toBe('GET /bearer: HTTP 401: {"error":"INVALID TOKEN [redacted]","[redacted]":"[redacted]"}')
  })

  it("credentials among the host's headers are redacted too; other host headers are not", async () => {
    const basicPair = "svc:HOSTBASICPASS"
    const withHeaders = (headers: Record<string, string>) =>
      OpenAPI.fromSpec({
        spec: doc({ "/h": { get: { operationId: "h", responses: ok() } } }),
        baseUrl: server.url,
        headers,
      }).tools.h
    const outcome = await attempt(
      withHeaders({
        "X-Tenant": "host-tenant",
        "X-Service-Token": "SERVICETOKEN123",
        Cookie: "sid=COOKIESESSION99; theme=dark",
        "X-Forwarded-Authorization": `Basic ${Buffer.from(basicPair).toString("base64")}`,
      }),
      {},
    )
    const headers = (outcome as { value: { headers: Record<string, string> } }).value.headers
    expect(headers["x-tenant"]).toBe("host-tenant")
    expect(headers["x-service-token"]).toBe("[redacted]")
    expect(headers.cookie).toBe("[redacted]")
    expect(headers["x-forwarded-authorization"]).toBe("[redacted]")
    server.handler = (req, res) =>
      json(res, 401, { sid: String(req.headers.cookie).split(";")[0], who: basicPair.toUpperCase() })
    const message = await refused(
      withHeaders({
        Cookie: "sid=COOKIESESSION99; theme=dark",
        Authorization: `Basic ${Buffer.from(basicPair).toString("base64")}`,
      }),
      {},
    )
    expect(message).toBe('GET /h: HTTP 401: {"sid":"sid=[redacted]","who":"[redacted]"}')
  })

  it("a redirect to another origin whose host holds the credential never shows the host", async () => {
    const secret = OpenAPI.fromSpec({
      spec: doc(
        { "/r": { get: { operationId: "r", security: [{ headerKey: [] }], responses: ok() } } },
        { components: { securitySchemes: schemes } },
      ),
      baseUrl: server.url,
      auth: { resolve: () => "HostSecret42" },
    }).tools.r
    for (const location of [
      "http://%48ostSecret42.example/",
      "http://hostsecret42.example/",
      "http://HOSTSECRET42:x/",
    ]) {
      server.handler = (_req, res) => {
        res.writeHead(302, { location })
        res.end()
      }
      const message = await refused(secret, {}, FetchHttpClient.layer)
      expect(message).not.toMatch(/hostsecret|ostsecret42/i)
      expect(message).toContain("redirected")
    }
    expect(other.requests).toEqual([])
  })

  it("a credential of fewer than four characters is redacted too (as a whole word)", async () => {
    server.handler = (req, res) => json(res, 200, { key: req.headers["x-api-key"], url: req.url })
    const short = OpenAPI.fromSpec({
      spec: doc(
        { "/k": { get: { operationId: "k", security: [{ headerKey: [] }], responses: ok() } } },
        { components: { securitySchemes: schemes } },
      ),
      baseUrl: server.url,
      auth: { resolve: () => "k9Z" },
    }).tools.k
    expect(await attempt(short, {})).toEqual({ ok: true, value: { key: "[redacted]", url: "/k" } })
  })

  it("a program that echoes the credential through CodeMode gets it redacted in the Result", async () => {
    server.handler = (req, res) => json(res, 200, { echoed: req.headers.authorization })
    const runtime = CodeMode.make({ language: "lua", tools: { api: tools() } })
    const result = await Effect.runPromise(
      runtime.execute("return tools.api.bearer({}).echoed").pipe(Effect.provide(NodeHttpClient.layerNodeHttp)),
    )
    expect(result).toMatchObject({ ok: true, value: "Bearer [redacted]" })
  })
})

describe("loading a document", () => {
  const document = JSON.stringify(doc({ "/x": { get: { operationId: "x", responses: ok() } } }))

  it("never follows a redirect to another origin with the host's headers; follows one within it", async () => {
    server.handler = (req, res) => {
      if (req.url === "/moved") {
        res.writeHead(302, { location: `${other.url}/openapi.json` })
        res.end()
      } else if (req.url === "/here") {
        res.writeHead(301, { location: "/openapi.json" })
        res.end()
      } else {
        res.writeHead(200, { "content-type": "application/json" })
        res.end(document)
      }
    }
    const headers = { "x-api-key": "DOCUMENTKEY" }
    await expect(OpenAPI.load(`${server.url}/moved`, { headers })).rejects.toThrow(
      `cannot load ${server.url}/moved: it redirects to another origin (${other.url}); load the document from there directly`,
    )
    expect(other.requests).toEqual([])
    expect((await OpenAPI.load(`${server.url}/here`, { headers })).openapi).toBe("3.1.0")
    expect(server.requests.map((r) => [r.url, r.headers["x-api-key"]])).toEqual([
      ["/moved", "DOCUMENTKEY"],
      ["/here", "DOCUMENTKEY"],
      ["/openapi.json", "DOCUMENTKEY"],
    ])
  })

  it("external references get the host's headers on the document's origin only, and are capped too", async () => {
    const schema = JSON.stringify({ type: "object", properties: { id: { type: "string" } } })
    const withRefs = (ref: string) =>
      JSON.stringify(
        doc({
          "/x": {
            get: {
              operationId: "x",
              responses: ok({ $ref: `${server.url}/schemas/item.json` }),
            },
            post: { operationId: "y", responses: ok({ $ref: ref }) },
          },
        }),
      )
    let document = withRefs(`${other.url}/schemas/other.json`)
    const answer: typeof server.handler = (req, res) => {
      res.writeHead(200, { "content-type": "application/json" })
      res.end(req.url === "/openapi.json" ? document : schema)
    }
    server.handler = answer
    other.handler = answer
    const headers = { "x-doc-key": "DOCUMENTKEY" }
    const loaded = await OpenAPI.load(`${server.url}/openapi.json`, { headers })
    expect(Object.keys(OpenAPI.fromSpec({ spec: loaded, baseUrl: server.url }).tools)).toEqual(["x", "y"])
    expect(server.requests.map((r) => [r.url, r.headers["x-doc-key"]])).toEqual([
      ["/openapi.json", "DOCUMENTKEY"],
      ["/schemas/item.json", "DOCUMENTKEY"],
    ])
    expect(other.requests.map((r) => [r.url, r.headers["x-doc-key"]])).toEqual([["/schemas/other.json", undefined]])
    document = withRefs(`${other.url}/schemas/huge.json`)
    other.handler = (_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": String(2 ** 30) })
      res.write("{")
    }
    await expect(OpenAPI.load(`${server.url}/openapi.json`, { headers })).rejects.toThrow(
      /the document is 1073741824 bytes, over the 67108864-byte limit/,
    )
  })

  it("reads at most 64 MiB of a document, declared or streamed", async () => {
    server.handler = (_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": String(2 ** 30) })
      res.write("{")
    }
    await expect(OpenAPI.load(`${server.url}/big`)).rejects.toThrow(
      `cannot load ${server.url}/big: the document is 1073741824 bytes, over the 67108864-byte limit`,
    )
    const chunk = Buffer.alloc(1024 * 1024, 0x20)
    server.handler = (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" })
      let sent = 0
      const more = () => {
        while (sent < 80) {
          sent++
          if (!res.write(chunk)) return void res.once("drain", more)
        }
        res.end("{}")
      }
      res.on("error", () => {})
      more()
    }
    await expect(OpenAPI.load(`${server.url}/streamed`)).rejects.toThrow(
      `cannot load ${server.url}/streamed: the document is over the 67108864-byte limit`,
    )
  })
})
