import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import { createOpencodeClient } from "@opencode-ai/sdk/v2/client"
import { Effect, Fiber } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Client from "../src/opencode/Client.js"

let server: Http.Server
let baseUrl = ""
let hung = 0
let aborted = 0

beforeAll(async () => {
  server = Http.createServer((req, res) => {
    if (req.url?.startsWith("/global/health")) {
      res.writeHead(200, { "content-type": "application/json" })
      res.end(JSON.stringify({ healthy: true, version: "9.9.9" }))
    } else if (req.url?.startsWith("/session/ses_hang")) {
      hung++
      req.on("close", () => aborted++)
    } else {
      res.writeHead(404, { "content-type": "application/json" })
      res.end(JSON.stringify({ name: "NotFoundError", data: { message: "Session not found" } }))
    }
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => {
  server.closeAllConnections()
  server.close()
})

describe("the Effect OpenCode client", () => {
  it("answers with data, in the spec's form and the SDK's, and keeps the raw client", async () => {
    const opencode = Client.fromSdk(createOpencodeClient({ baseUrl }))
    const health = await Effect.runPromise(opencode.health.get())
    expect(health).toEqual({ healthy: true, version: "9.9.9" })
    expect(await Effect.runPromise(opencode.global.health())).toEqual(health)
    expect((await opencode.raw.global.health()).data).toEqual(health)
  })

  it("fails with OpenCodeApiError carrying the status, the body and the operation", async () => {
    const opencode = Client.fromSdk(createOpencodeClient({ baseUrl }))
    const error = await Effect.runPromise(Effect.flip(opencode.session.get({ sessionID: "ses_nope" })))
    expect(error._tag).toBe("OpenCodeApiError")
    expect(error.status).toBe(404)
    expect(error.operation).toBe("session.get")
    expect(error.body).toMatchObject({ name: "NotFoundError" })
    expect(error.message).toContain("HTTP 404")
    const unreachable = Client.fromSdk(createOpencodeClient({ baseUrl: "http://127.0.0.1:1" }))
    const down = await Effect.runPromise(Effect.flip(unreachable.global.health()))
    expect(down.status).toBeUndefined()
    expect(down.message).toContain("could not reach the OpenCode server")
  })

  it("aborts the request when the call is interrupted", async () => {
    const opencode = Client.fromSdk(createOpencodeClient({ baseUrl }))
    await Effect.runPromise(
      Effect.gen(function* () {
        const fiber = yield* Effect.forkChild(opencode.session.get({ sessionID: "ses_hang" }))
        while (hung === 0) yield* Effect.sleep(5)
        yield* Fiber.interrupt(fiber)
        while (aborted === 0) yield* Effect.sleep(5)
      }),
    )
    expect(aborted).toBe(1)
  })
})
