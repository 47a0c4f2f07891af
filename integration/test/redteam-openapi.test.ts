/**
 * Red team: an OpenAPI tool's credentials never reach a program, whatever form a server echoes them in. Each case is
 * a server reflecting what it received in a form real servers use; the program then rebuilds the credential from
 * its result. Cases still open in the OpenAPI plugin are marked `it.fails`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { CodeMode } from "@codemode/core"
import { OpenAPI } from "@codemode/openapi"
import { Effect } from "effect"
import { FetchHttpClient } from "effect/http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

const TOKEN = "Qz9-XKWV+tqjx/vbzp=hkcf_7Y3mW8rL"
/** An API key made of digits only, as some services issue. */
const NUMERIC_KEY = "83920174"

let respond: (request: IncomingMessage, response: ServerResponse) => void = (_, response) => response.end()
let server: Server
let base = ""
beforeAll(async () => {
  server = createServer((request, response) => respond(request, response))
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const anyBody = { "application/json": { schema: {} }, "text/plain": { schema: {} } }
const runtime = () => {
  const api = OpenAPI.fromSpec({
    spec: {
      openapi: "3.1.0",
      info: { title: "echo", version: "1" },
      paths: {
        "/bearer": {
          get: {
            operationId: "bearer",
            security: [{ bearer: [] }],
            responses: { 200: { description: "", content: anyBody } },
          },
        },
        "/key": {
          get: {
            operationId: "key",
            security: [{ key: [] }],
            responses: { 200: { description: "", content: anyBody } },
          },
        },
      },
      components: {
        securitySchemes: {
          bearer: { type: "http", scheme: "bearer" },
          key: { type: "apiKey", in: "header", name: "X-API-Key" },
        },
      },
    },
    baseUrl: base,
    auth: { resolve: (request) => (request.scheme === "key" ? NUMERIC_KEY : TOKEN) },
  })
  return CodeMode.make({ language: "javascript", tools: { api: api.tools } })
}

/** What the program gets back from `tools.api[operation]({})`, as text. */
const seen = async (operation: "bearer" | "key"): Promise<string> => {
  const result = await Effect.runPromise(
    runtime()
      .execute(
        `let r; try { const v = await tools.api.${operation}({}); r = typeof v === "string" ? v : JSON.stringify(v) } catch (e) { r = e.message } r`,
      )
      .pipe(Effect.provide(FetchHttpClient.layer)),
  )
  return JSON.stringify(result)
}

const credentialOf = (request: IncomingMessage): string =>
  String(request.headers["x-api-key"] ?? (request.headers.authorization ?? "").replace(/^Bearer /, ""))

describe("red team: OpenAPI credentials in echoed results", () => {
  it("a raw, percent-encoded or base64 echo is redacted (held)", async () => {
    respond = (request, response) => {
      const secret = credentialOf(request)
      response.setHeader("content-type", "application/json")
      response.end(
        JSON.stringify({ raw: secret, url: encodeURIComponent(secret), b64: Buffer.from(secret).toString("base64") }),
      )
    }
    expect(await seen("bearer")).not.toContain(TOKEN.slice(0, 8))
  })

  // openapi: `redact.value` redacts strings and keys of a decoded JSON body, not numbers; a server that parsed a numeric
  // key echoes it as a JSON number, and the program reads the key's digits.
  it("a numeric API key echoed as a JSON number is redacted", async () => {
    respond = (request, response) => {
      response.setHeader("content-type", "application/json")
      response.end(`{"client": ${credentialOf(request)}}`)
    }
    expect(await seen("key")).not.toContain(NUMERIC_KEY)
  })

  // openapi: the redactor matches letters in their case only; a server that folds the case of what it echoes
  // ("INVALID TOKEN QZ9-XKWV+…") gives the token away up to its case.
  it("a bearer token echoed in upper or lower case is redacted", async () => {
    respond = (request, response) => {
      const secret = credentialOf(request)
      response.setHeader("content-type", "text/plain")
      response.end(`INVALID TOKEN ${secret.toUpperCase()} (${secret.toLowerCase()})`)
    }
    const text = await seen("bearer")
    expect(text).not.toContain(TOKEN.toUpperCase().slice(0, 8))
    expect(text).not.toContain(TOKEN.toLowerCase().slice(0, 8))
  })
})
