/**
 * What a program is told when its input object is wrong: an `InvalidToolInput` that says where each key belongs.
 */
import { NodeHttpClient } from "@effect/platform-node"
import { Effect } from "effect"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { CodeMode } from "@codemode/core"
import { OpenAPI } from "../src/index.js"
import { echo, start, type TestServer } from "./support/server.js"
import { doc, failure, ok, run } from "./support/spec.js"

let server: TestServer
beforeAll(async () => {
  server = await start()
})
afterAll(() => server.close())
beforeEach(() => {
  server.handler = echo
  server.requests.length = 0
})

/** OpenCode's `POST /session`: two query parameters and a body whose schema is a `$ref`. */
const api = () =>
  OpenAPI.fromSpec({
    spec: doc(
      {
        "/session": {
          post: {
            operationId: "session.create",
            parameters: [
              { name: "directory", in: "query", schema: { type: "string" } },
              { name: "workspace", in: "query", schema: { type: "string" } },
            ],
            requestBody: { content: { "application/json": { schema: { $ref: "#/components/schemas/New" } } } },
            responses: ok(),
          },
        },
        "/session/{sessionID}/message": {
          get: {
            operationId: "session.messages",
            parameters: [
              { name: "sessionID", in: "path", required: true, schema: { type: "string" } },
              {
                name: "filter",
                in: "query",
                style: "deepObject",
                schema: { type: "object", properties: { role: { type: "string" } } },
              },
            ],
            responses: ok(),
          },
        },
      },
      {
        components: {
          schemas: {
            New: {
              allOf: [
                { type: "object", properties: { title: { type: "string" } } },
                { type: "object", properties: { parentID: { type: "string" } } },
              ],
            },
          },
        },
      },
    ),
    baseUrl: server.url,
  }).tools

describe("misplaced and mistyped input keys", () => {
  it("a body field at the top level: did you mean body.title?", async () => {
    expect(await failure(api()["session.create"], { title: "x" })).toBe(
      'POST /session: unknown input "title" (did you mean body.title?); expected "directory", "workspace", "body"',
    )
    expect(await failure(api()["session.create"], { parentID: "p", titel: "x" })).toBe(
      'POST /session: unknown input "parentID" (did you mean body.parentID?), "titel" (did you mean body.title?); expected "directory", "workspace", "body"',
    )
  })

  it("near-miss names, fields of object parameters, parameters wrapped or put inside body", async () => {
    const messages = api()["session.messages"]
    expect(await failure(messages, { sessionId: "s" })).toBe(
      'GET /session/{sessionID}/message: unknown input "sessionId" (did you mean sessionID?); expected "sessionID", "filter"',
    )
    expect(await failure(messages, { sessionID: "s", role: "user" })).toBe(
      'GET /session/{sessionID}/message: unknown input "role" (did you mean filter.role?); expected "sessionID", "filter"',
    )
    expect(await failure(messages, { path: { sessionID: "s" } })).toBe(
      'GET /session/{sessionID}/message: unknown input "path" ("sessionID" is a parameter: put it at the top level of the input); expected "sessionID", "filter"',
    )
    expect(await failure(messages, { sessionID: "s", body: {} })).toBe(
      'GET /session/{sessionID}/message: unknown input "body" (this operation has no request body); expected "sessionID", "filter"',
    )
    const create = OpenAPI.fromSpec({
      spec: doc({
        "/s/{id}": {
          put: {
            operationId: "put",
            parameters: [{ name: "id", in: "path", required: true }],
            requestBody: { content: { "application/json": { schema: { type: "object" } } } },
            responses: ok(),
          },
        },
      }),
      baseUrl: server.url,
    }).tools.put
    expect(await failure(create, { body: { id: "1" } })).toBe(
      'PUT /s/{id}: missing required path parameter "id" (it is inside body; parameters go at the top level of the input, beside body)',
    )
    expect(server.requests).toEqual([])
  })

  it("a list or an object where the schema declares another shape, and a body given as JSON text", async () => {
    const messages = api()["session.messages"]
    expect(await failure(messages, { sessionID: { id: "s" } })).toBe(
      'GET /session/{sessionID}/message: path parameter "sessionID" takes a single value (a string, number or boolean), got an object',
    )
    expect(await failure(messages, { sessionID: "s", filter: ["user"] })).toBe(
      'GET /session/{sessionID}/message: query parameter "filter" takes an object, got an array',
    )
    expect(await failure(api()["session.create"], { body: '{"title":"x"}' })).toBe(
      'POST /session: "body" is JSON text; pass the value itself (body = { … }), which is sent as JSON',
    )
    expect(server.requests).toEqual([])
  })

  it("an input key that names an inherited property is still just a key", async () => {
    const tool = OpenAPI.fromSpec({
      spec: doc({
        "/x": {
          get: {
            operationId: "x",
            parameters: [
              { name: "constructor", in: "query", required: true, schema: { type: "string" } },
              { name: "toString", in: "query", schema: { type: "string" } },
            ],
            responses: ok(),
          },
        },
      }),
      baseUrl: server.url,
    }).tools.x
    expect(await failure(tool, {})).toBe('GET /x: missing required query parameter "constructor"')
    await run(tool, { constructor: "c" })
    expect(server.requests.map((r) => r.url)).toEqual(["/x?constructor=c"])
  })

  for (const [language, program] of [
    ["lua", `return tools.api.session.create({ title = "x" })`],
    ["javascript", `await tools.api.session.create({ title: "x" })`],
  ] as const)
    it(`the program gets InvalidToolInput, not ToolFailure (${language})`, async () => {
      const runtime = CodeMode.make({ language, tools: { api: api() } })
      const result = await Effect.runPromise(
        runtime.execute(program).pipe(Effect.provide(NodeHttpClient.layerNodeHttp)),
      )
      expect(result.ok).toBe(false)
      if (!result.ok) {
        expect(result.error.kind).toBe("InvalidToolInput")
        expect(result.error.message).toContain('unknown input "title" (did you mean body.title?)')
      }
      expect(server.requests).toEqual([])
    })

  it("values that cannot be sent are InvalidToolInput too, naming the parameter", async () => {
    const tools = OpenAPI.fromSpec({
      spec: doc({
        "/p/{id}": {
          get: {
            operationId: "p",
            parameters: [
              { name: "id", in: "path", required: true },
              { name: "X-Note", in: "header" },
            ],
            responses: ok(),
          },
        },
      }),
      baseUrl: server.url,
    }).tools
    const runtime = CodeMode.make({ language: "javascript", tools: { api: tools } })
    const execute = (code: string) =>
      Effect.runPromise(runtime.execute(code).pipe(Effect.provide(NodeHttpClient.layerNodeHttp)))
    const cases: Array<readonly [string, string]> = [
      [`await tools.api.p({ id: ".." })`, 'path parameter "id" gives the path segment ".."'],
      [`await tools.api.p({ id: "\\ud800" })`, 'parameter "id" contains an unpaired UTF-16 surrogate'],
      [`await tools.api.p({ id: "1", "X-Note": "a\\u0007b" })`, 'header parameter "X-Note" cannot contain U+0007'],
      [
        `await tools.api.p({ id: "1", "X-Note": "caf\\u00e9 \\u2603" })`,
        'header parameter "X-Note" cannot contain U+2603',
      ],
      [`await tools.api.p({ id: "1", "X-Note": "a\\r\\nX-Injected: 1" })`, "cannot contain line breaks"],
    ]
    for (const [code, message] of cases) {
      const result = await execute(code)
      expect(result.ok ? result : result.error.kind, code).toBe("InvalidToolInput")
      if (!result.ok) expect(result.error.message).toContain(message)
    }
    expect(server.requests).toEqual([])
  })
})

describe("header parameters that frame or route the request", () => {
  it("are not part of the input, and the HTTP client's own values are sent", async () => {
    const tool = OpenAPI.fromSpec({
      spec: doc({
        "/h": {
          post: {
            operationId: "h",
            parameters: ["Host", "Content-Length", "Transfer-Encoding", "Expect", "Proxy-Authorization", "X-Ok"].map(
              (name) => ({ name, in: "header", schema: { type: "string" } }),
            ),
            requestBody: { content: { "application/json": { schema: { type: "object" } } } },
            responses: ok(),
          },
        },
      }),
      baseUrl: server.url,
    }).tools.h
    expect(Object.keys((tool.input as { properties: object }).properties)).toEqual(["X-Ok", "body"])
    expect(await failure(tool, { Host: "evil.example", body: {} })).toContain('unknown input "Host"')
    await run(tool, { "X-Ok": "1", body: { a: 1 } })
    const request = server.requests[0]
    expect([request.headers.host, request.headers["content-length"], request.headers["x-ok"]]).toEqual([
      server.url.replace("http://", ""),
      "7",
      "1",
    ])
  })
})
