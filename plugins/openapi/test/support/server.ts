/**
 * A loopback HTTP server for tests: records every request and answers with the handler under test.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

export interface Recorded {
  readonly method: string
  readonly url: string
  readonly headers: IncomingMessage["headers"]
  readonly body: string
}

export type Handler = (request: Recorded, response: ServerResponse) => void

export interface TestServer {
  readonly url: string
  readonly requests: Recorded[]
  handler: Handler
  close(): Promise<void>
}

/** Answer JSON with a status. */
export const json = (response: ServerResponse, status: number, value: unknown) => {
  response.writeHead(status, { "content-type": "application/json" })
  response.end(JSON.stringify(value))
}

/** Echo the request back as JSON. */
export const echo: Handler = (request, response) => json(response, 200, request)

/** Start a server on 127.0.0.1 with a free port. */
export const start = async (handler: Handler = echo): Promise<TestServer> => {
  const requests: Recorded[] = []
  const sockets = new Set<import("node:net").Socket>()
  const state: TestServer = {
    url: "",
    requests,
    handler,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      const recorded = {
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      }
      requests.push(recorded)
      state.handler(recorded, res)
    })
  })
  server.on("connection", (socket) => {
    sockets.add(socket)
    socket.on("close", () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  ;(state as { url: string }).url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return state
}
