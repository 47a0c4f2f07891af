import { describe, expect, it } from "vitest"
import { OpenAPI } from "../src/index.js"
import * as Naming from "../src/Naming.js"
import { doc, ok, toolAt } from "./support/spec.js"

const server = { servers: [{ url: "http://127.0.0.1:9" }] }

/** The skip reason of the single operation of `paths`, or undefined when it became a tool. */
const reasonOf = (paths: Record<string, unknown>, extra: Record<string, unknown> = server) => {
  const api = OpenAPI.fromSpec({ spec: doc(paths, extra) })
  expect(api.operations.length + api.skipped.length).toBe(1)
  return api.skipped[0]?.reason
}

const get = (operation: Record<string, unknown>) => ({ "/x": { get: { responses: ok(), ...operation } } })
const post = (operation: Record<string, unknown>) => ({ "/x": { post: { responses: ok(), ...operation } } })

describe("skip reasons", () => {
  it("cookie parameters", () => {
    expect(reasonOf(get({ parameters: [{ name: "session", in: "cookie", schema: { type: "string" } }] }))).toBe(
      'cookie parameter "session" is not supported',
    )
  })

  it("styles a location does not define", () => {
    expect(
      reasonOf(get({ parameters: [{ name: "q", in: "query", style: "matrix", schema: { type: "string" } }] })),
    ).toBe(
      'query parameter "q" uses style "matrix", which is not defined for query parameters (expected form, spaceDelimited, pipeDelimited, deepObject)',
    )
    expect(
      reasonOf(get({ parameters: [{ name: "h", in: "header", style: "form", schema: { type: "string" } }] })),
    ).toContain('header parameter "h" uses style "form"')
    expect(
      reasonOf(
        get({
          parameters: [{ name: "f", in: "query", style: "deepObject", explode: false, schema: { type: "object" } }],
        }),
      ),
    ).toBe('query parameter "f" uses style deepObject with explode: false, which OpenAPI does not define')
    // without explode, deepObject means its only defined (exploded) form
    expect(
      reasonOf(get({ parameters: [{ name: "f", in: "query", style: "deepObject", schema: { type: "object" } }] })),
    ).toBeUndefined()
  })

  it("parameters with non-JSON content", () => {
    expect(
      reasonOf(
        get({ parameters: [{ name: "q", in: "query", content: { "text/plain": { schema: { type: "string" } } } }] }),
      ),
    ).toBe('query parameter "q" is described as text/plain content; only a single JSON media type is supported')
  })

  it("request bodies without JSON content", () => {
    for (const type of ["multipart/form-data", "application/x-www-form-urlencoded", "application/octet-stream"]) {
      expect(reasonOf(post({ requestBody: { content: { [type]: { schema: { type: "object" } } } } }))).toBe(
        `the request body is ${type}; only JSON request bodies are supported`,
      )
    }
    expect(reasonOf(post({ requestBody: { content: {} } }))).toBe("the request body declares no content")
  })

  it("server-sent events", () => {
    expect(
      reasonOf(
        get({
          responses: {
            "200": { description: "events", content: { "text/event-stream": { schema: { type: "string" } } } },
          },
        }),
      ),
    ).toBe("response 200 is a server-sent event stream (text/event-stream); streaming responses are not supported")
  })

  it("binary responses", () => {
    expect(
      reasonOf(get({ responses: { "200": { description: "file", content: { "application/octet-stream": {} } } } })),
    ).toBe("response 200 is application/octet-stream: binary responses are not supported (only JSON and text)")
    expect(
      reasonOf(get({ responses: { "201": { description: "image", content: { "image/png": {}, "image/jpeg": {} } } } })),
    ).toBe("response 201 is image/png, image/jpeg: binary responses are not supported (only JSON and text)")
  })

  it("WebSocket upgrades", () => {
    expect(reasonOf(get({ responses: { "101": { description: "switching" } } }))).toBe(
      "the operation switches protocols (101): WebSocket and other upgrades are not supported",
    )
    expect(reasonOf(get({ parameters: [{ name: "Upgrade", in: "header", schema: { type: "string" } }] }))).toBe(
      'header parameter "Upgrade" asks for a protocol upgrade (WebSocket), which is not supported',
    )
    expect(reasonOf(get({ description: "Establish a WebSocket connection to the terminal." }))).toBe(
      "the operation describes a WebSocket connection, which plain HTTP requests cannot make",
    )
    expect(reasonOf(get({ summary: "Open websocket stream" }))).toBe(
      "the operation describes a WebSocket connection, which plain HTTP requests cannot make",
    )
    // merely mentioning WebSockets is not enough
    expect(
      reasonOf(get({ description: "Create a short-lived ticket for opening a WebSocket connection." })),
    ).toBeUndefined()
  })

  it("unsupported authentication", () => {
    const schemes = (s: Record<string, unknown>) => ({ ...server, components: { securitySchemes: s } })
    expect(
      reasonOf(get({ security: [{ c: [] }] }), schemes({ c: { type: "apiKey", in: "cookie", name: "sid" } })),
    ).toBe('security scheme "c" sends its API key in a cookie; cookie authentication is not supported')
    expect(reasonOf(get({ security: [{ m: [] }] }), schemes({ m: { type: "mutualTLS" } }))).toBe(
      'security scheme "m" uses mutual TLS, which is not supported',
    )
    expect(reasonOf(get({ security: [{ d: [] }] }), schemes({ d: { type: "http", scheme: "digest" } }))).toBe(
      'security scheme "d" uses HTTP "digest" authentication, which is not supported (only bearer and basic)',
    )
    expect(reasonOf(get({ security: [{ nope: [] }] }))).toBe(
      'security scheme "nope" is not defined in components.securitySchemes',
    )
    // one supported alternative is enough
    expect(
      reasonOf(
        get({ security: [{ c: [] }, { b: [] }] }),
        schemes({ c: { type: "apiKey", in: "cookie", name: "sid" }, b: { type: "http", scheme: "bearer" } }),
      ),
    ).toBeUndefined()
  })

  it("missing or unusable servers", () => {
    expect(reasonOf(get({}), {})).toBe("no server URL: the document declares no servers; pass baseUrl")
    expect(reasonOf(get({}), { servers: [{ url: "/api/v3" }] })).toBe(
      'server URL "/api/v3" is not an absolute http(s) URL; pass baseUrl (or load the document from its URL)',
    )
    expect(reasonOf(get({}), { servers: [{ url: "https://{region}.example.test", variables: { region: {} } }] })).toBe(
      'server URL "https://{region}.example.test" uses variable {region} without a default; pass baseUrl',
    )
    const api = OpenAPI.fromSpec({ spec: doc(get({}), {}), baseUrl: "http://127.0.0.1:9" })
    expect(api.skipped).toEqual([])
  })

  it("path templates and input names", () => {
    expect(reasonOf({ "/x/{id}": { get: { responses: ok() } } })).toBe("path parameter {id} is not declared")
    expect(
      reasonOf(
        get({
          parameters: [
            { name: "id", in: "query", schema: { type: "string" } },
            { name: "id", in: "header", schema: { type: "string" } },
          ],
        }),
      ),
    ).toBe('parameters "id" in query and in header share a name; one input object cannot hold both')
    expect(
      reasonOf(
        post({
          parameters: [{ name: "body", in: "query", schema: {} }],
          requestBody: { content: { "application/json": { schema: {} } } },
        }),
      ),
    ).toBe('a query parameter is named "body", the input key reserved for the request body')
  })

  it("references that cannot be followed", () => {
    expect(reasonOf(get({ parameters: [{ $ref: "other.yaml#/components/parameters/P" }] }))).toBe(
      '$ref "other.yaml#/components/parameters/P" points outside the document; resolve external references first (OpenAPI.load does this)',
    )
    expect(reasonOf(get({ parameters: [{ $ref: "#/components/parameters/Missing" }] }))).toBe(
      '$ref "#/components/parameters/Missing" does not point at anything in the document',
    )
  })

  it("lists every reason, with method, path and operationId", () => {
    const api = OpenAPI.fromSpec({
      spec: doc({
        "/files/{id}": {
          put: {
            operationId: "files.upload",
            parameters: [{ name: "sid", in: "cookie" }],
            requestBody: { content: { "multipart/form-data": {} } },
            responses: { "200": { description: "", content: { "application/zip": {} } } },
          },
        },
      }),
    })
    expect(api.skipped).toEqual([
      {
        method: "PUT",
        path: "/files/{id}",
        operationId: "files.upload",
        reason:
          "no server URL: the document declares no servers; pass baseUrl; " +
          'cookie parameter "sid" is not supported; ' +
          "path parameter {id} is not declared; " +
          "the request body is multipart/form-data; only JSON request bodies are supported; " +
          "response 200 is application/zip: binary responses are not supported (only JSON and text)",
      },
    ])
  })
})

describe("what is supported", () => {
  it("substitutes server variables, prefers operation servers, and lets baseUrl replace them", () => {
    const spec = doc(
      {
        "/a": { get: { operationId: "a", responses: ok() } },
        "/b": { servers: [{ url: "http://127.0.0.2:8/b-root" }], get: { operationId: "b", responses: ok() } },
      },
      {
        servers: [
          { url: "http://{host}:{port}/api", variables: { host: { default: "127.0.0.1" }, port: { default: "8080" } } },
        ],
      },
    )
    expect(OpenAPI.fromSpec({ spec }).skipped).toEqual([])
    expect(() => OpenAPI.fromSpec({ spec, baseUrl: "ftp://x" })).toThrow(
      'baseUrl "ftp://x" must be an http or https URL',
    )
    expect(() => OpenAPI.fromSpec({ spec, baseUrl: "nope" })).toThrow('baseUrl "nope" is not a URL')
  })

  it("ignores Accept, Content-Type and Authorization header parameters, as the specification says", () => {
    const api = OpenAPI.fromSpec({
      spec: doc(
        get({
          operationId: "x",
          parameters: ["Accept", "Content-Type", "Authorization"].map((name) => ({
            name,
            in: "header",
            schema: { type: "string" },
          })),
        }),
        server,
      ),
    })
    expect(Object.keys((toolAt(api.tools, "x").input as { properties: object }).properties)).toEqual([])
  })

  it("builds one input object: parameters by name, the JSON body under `body`", () => {
    const api = OpenAPI.fromSpec({
      spec: doc(
        {
          "/orders/{id}": {
            parameters: [
              { name: "id", in: "path", required: true, description: "Order id", schema: { type: "string" } },
            ],
            patch: {
              operationId: "orders.update",
              summary: "Update an order",
              description: "Changes the status.",
              deprecated: true,
              parameters: [{ name: "notify", in: "query", schema: { type: "boolean" }, deprecated: true }],
              requestBody: {
                required: true,
                description: "The changes",
                content: { "application/merge-patch+json": { schema: { $ref: "#/components/schemas/Patch" } } },
              },
              responses: {
                "200": {
                  description: "",
                  content: { "application/json": { schema: { $ref: "#/components/schemas/Order" } } },
                },
                "204": { description: "" },
              },
            },
          },
        },
        { ...server, components: { schemas: { Patch: { type: "object" }, Order: { type: "object" } } } },
      ),
    })
    const tool = toolAt(api.tools, "orders.update")
    expect(tool.description).toBe("Deprecated.\nUpdate an order\nChanges the status.\nPATCH /orders/{id}")
    expect(JSON.parse(JSON.stringify(tool.input))).toEqual({
      type: "object",
      properties: {
        id: { type: "string", description: "Order id" },
        notify: { type: "boolean", deprecated: true },
        body: { $ref: "#/components/schemas/Patch", description: "The changes" },
      },
      required: ["id", "body"],
      additionalProperties: false,
    })
    expect(JSON.parse(JSON.stringify(tool.output))).toEqual({
      anyOf: [{ $ref: "#/components/schemas/Order" }, { type: "null" }],
    })
    // local references still resolve: the document's components ride along, out of sight
    expect((tool.input as { components?: unknown }).components).toBeDefined()
  })

  it("text responses become strings; JSON wins over other media types", () => {
    const api = OpenAPI.fromSpec({
      spec: doc(
        {
          "/readme": {
            get: {
              operationId: "readme",
              responses: {
                "200": { description: "", content: { "text/markdown": {}, "application/octet-stream": {} } },
              },
            },
          },
          "/diff": {
            get: {
              operationId: "diff",
              responses: {
                "200": {
                  description: "",
                  content: { "application/vnd.x.diff": {}, "application/json": { schema: { type: "array" } } },
                },
              },
            },
          },
        },
        server,
      ),
    })
    expect(api.skipped).toEqual([])
    expect(JSON.parse(JSON.stringify(toolAt(api.tools, "readme").output))).toEqual({ type: "string" })
    expect(JSON.parse(JSON.stringify(toolAt(api.tools, "diff").output))).toEqual({ type: "array" })
  })

  it("follows $refs to path items, parameters, request bodies and responses", () => {
    const api = OpenAPI.fromSpec({
      spec: doc(
        { "/a/{id}": { $ref: "#/components/pathItems/A" } },
        {
          ...server,
          components: {
            pathItems: {
              A: {
                get: {
                  operationId: "a",
                  parameters: [{ $ref: "#/components/parameters/Id" }],
                  responses: { "200": { $ref: "#/components/responses/R" } },
                },
              },
            },
            parameters: { Id: { name: "id", in: "path", required: true, schema: { type: "integer" } } },
            responses: { R: { description: "", content: { "application/json": { schema: { type: "string" } } } } },
          },
        },
      ),
    })
    expect(api.skipped).toEqual([])
    expect(JSON.parse(JSON.stringify(toolAt(api.tools, "a").input)).properties.id).toEqual({ type: "integer" })
  })
})

describe("naming", () => {
  it("dotted operationIds become namespaces; other characters stay", () => {
    const api = OpenAPI.fromSpec({
      spec: doc(
        {
          "/s": {
            get: { operationId: "session.list", responses: ok() },
            post: { operationId: "session.create", responses: ok() },
          },
          "/r": { get: { operationId: "repos/get-content", responses: ok() } },
          "/d": { get: { operationId: "a..b.", responses: ok() } },
        },
        server,
      ),
    })
    expect(api.operations.map((o) => o.tool)).toEqual(["session.list", "session.create", "repos/get-content", "a.b"])
    expect(toolAt(api.tools, "session.list")._tag).toBe("Tool")
    expect(toolAt(api.tools, "repos/get-content")._tag).toBe("Tool")
  })

  it("names operations without operationId from method and path", () => {
    expect(Naming.fromPath("get", "/products/{product-id}/reviews")).toBe("getProductsByProductIdReviews")
    expect(Naming.fromPath("delete", "/")).toBe("deleteRoot")
    expect(Naming.fromPath("post", "/v2/user_accounts.json")).toBe("postV2UserAccountsJson")
  })

  it("resolves collisions deterministically in document order", () => {
    const ops: Naming.Operation[] = [
      { method: "get", path: "/a", operationId: "dup" },
      { method: "get", path: "/b", operationId: "dup" },
      { method: "get", path: "/c", operationId: "dup" },
      { method: "get", path: "/session", operationId: "session" },
      { method: "get", path: "/session/list", operationId: "session.list" },
      { method: "post", path: "/x-y" },
      { method: "post", path: "/x_y" },
      { method: "get", path: "/z", operationId: "session_get" },
    ]
    const names = Naming.assign(ops).map((s) => s.join("."))
    expect(names).toEqual([
      "dup",
      "dup_2",
      "dup_3",
      "session_get",
      "session.list",
      "postXY",
      "postXY_2",
      "session_get_2",
    ])
    expect(Naming.assign(ops)).toEqual(Naming.assign(ops))
    const tree = OpenAPI.fromSpec({
      spec: doc(
        {
          "/session": { get: { operationId: "session", responses: ok() } },
          "/session/list": { get: { operationId: "session.list", responses: ok() } },
        },
        server,
      ),
    }).tools
    expect(Object.keys(tree)).toEqual(["session_get", "session.list"])
  })
})

describe("invalid documents and options", () => {
  it("rejects what is not OpenAPI 3.0/3.1", () => {
    expect(() => OpenAPI.fromSpec({ spec: "openapi: 3.1.0" })).toThrow("the OpenAPI document must be a JSON object")
    expect(() => OpenAPI.fromSpec({ spec: { swagger: "2.0", paths: {} } })).toThrow(
      "this is a Swagger 2.0 document; only OpenAPI 3.0 and 3.1 are supported: convert it to OpenAPI 3 first",
    )
    expect(() => OpenAPI.fromSpec({ spec: { openapi: "4.0.0", paths: {} } })).toThrow(
      "OpenAPI version 4.0.0 is not supported; expected 3.0.x or 3.1.x",
    )
    expect(() => OpenAPI.fromSpec({ spec: { openapi: "3.0.3" } })).toThrow('the document has no "paths"')
    expect(() => OpenAPI.fromSpec({ spec: { paths: {} } })).toThrow('the document has no "openapi" version string')
    expect(() => OpenAPI.fromSpec({ spec: doc({}), auth: {} as never })).toThrow(
      "auth must be { resolve(request), schemes? }",
    )
    expect(() => OpenAPI.fromSpec({ spec: doc({}), headers: { "bad name": "x" } })).toThrow(
      '"bad name" is not a valid header name',
    )
    expect(() => OpenAPI.fromSpec({ spec: doc({}), maxResponseBytes: 0 })).toThrow(RangeError)
  })
  it("accepts 3.0 and 3.1 documents with webhooks only", () => {
    expect(OpenAPI.fromSpec({ spec: { openapi: "3.1.0", webhooks: {} } }).operations).toEqual([])
    expect(OpenAPI.fromSpec({ spec: { openapi: "3.0.3", paths: {} } }).operations).toEqual([])
  })
})
