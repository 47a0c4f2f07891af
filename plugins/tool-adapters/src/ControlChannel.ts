/**
 * The loopback control channel: a `node:http` server on 127.0.0.1 (random port) guarded by a random bearer token.
 * Generated adapters inside the OpenCode server report invocations to it and read NDJSON response streams
 * (see `Protocol.ts`); it feeds them into the invocation hub. Closing the scope closes the hub (failing blocked
 * takes and interrupting unresolved calls), then the server, and waits until its connections are gone.
 */
import * as Http from "node:http"
import { randomBytes, timingSafeEqual } from "node:crypto"
import { Effect, Exit, Schema, type Scope } from "effect"
import { ToolChannelStartError } from "./Errors.js"
import type { Hub, Sink } from "./Invocations.js"
import { AbortRequest, encodeLine, InvokeRequest, tokenVariable, urlVariable } from "./Protocol.js"

/** A running control channel. */
export interface ControlChannel {
  /** `http://127.0.0.1:<port>` */
  readonly url: string
  /** The bearer token adapters must send. */
  readonly token: string
  /** The environment the OpenCode server needs so its adapters find the channel. */
  readonly env: Readonly<Record<string, string>>
}

const maxBodyBytes = 16 * 1024 * 1024
/** How long closing waits for adapters to read their final lines before cutting connections. */
const closeWaitMs = 250

const decodeInvoke = Schema.decodeUnknownExit(InvokeRequest)
const decodeAbort = Schema.decodeUnknownExit(AbortRequest)

const readBody = (request: Http.IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    let size = 0
    request.on("data", (chunk: Buffer) => {
      size += chunk.length
      if (size > maxBodyBytes) {
        reject(new Error(`request body is larger than ${maxBodyBytes} bytes`))
        request.destroy()
        return
      }
      chunks.push(chunk)
    })
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
    request.on("error", reject)
  })

const answer = (response: Http.ServerResponse, status: number, message: string) => {
  response.writeHead(status, { "content-type": "application/json" })
  response.end(JSON.stringify({ error: message }))
}

const authorized = (header: string | undefined, token: string): boolean => {
  const expected = Buffer.from(`Bearer ${token}`)
  const given = Buffer.from(header ?? "")
  return given.length === expected.length && timingSafeEqual(given, expected)
}

const parse = <A>(text: string, decode: (input: unknown) => Exit.Exit<A, Schema.SchemaError>): A | string => {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (cause) {
    return `the body is not JSON: ${String(cause)}`
  }
  const exit = decode(json)
  return Exit.isSuccess(exit) ? exit.value : `the body does not match the protocol: ${String(exit.cause)}`
}

const handle = async (hub: Hub, token: string, request: Http.IncomingMessage, response: Http.ServerResponse) => {
  if (!authorized(request.headers.authorization, token)) {
    return answer(response, 401, "missing or wrong bearer token for Drive's tool channel")
  }
  if (request.method !== "POST" || (request.url !== "/invoke" && request.url !== "/abort")) {
    return answer(response, 404, `unknown endpoint ${request.method} ${request.url}; use POST /invoke or POST /abort`)
  }
  const body = await readBody(request)
  if (request.url === "/abort") {
    const parsed = parse(body, decodeAbort)
    if (typeof parsed === "string") return answer(response, 400, parsed)
    hub.abort(parsed.id)
    response.writeHead(204).end()
    return
  }
  const parsed = parse(body, decodeInvoke)
  if (typeof parsed === "string") return answer(response, 400, parsed)
  const sink: Sink = {
    write: (line) => {
      if (!response.writableEnded) response.write(encodeLine(line))
    },
    end: () => {
      if (!response.writableEnded) response.end()
    },
  }
  response.writeHead(200, { "content-type": "application/x-ndjson", "cache-control": "no-store" })
  response.flushHeaders()
  const arrival = hub.arrive(parsed, sink)
  if (!arrival.accepted) {
    sink.write({ type: "error", message: arrival.message })
    sink.end()
    return
  }
  response.on("close", () => hub.disconnect(parsed.id, sink))
}

/** Start the channel for `hub` in the current scope. */
export const make = (hub: Hub): Effect.Effect<ControlChannel, ToolChannelStartError, Scope.Scope> =>
  Effect.gen(function* () {
    const token = randomBytes(24).toString("base64url")
    const server = yield* Effect.acquireRelease(
      Effect.callback<Http.Server, ToolChannelStartError>((resume) => {
        const server = Http.createServer((request, response) => {
          handle(hub, token, request, response).catch((error: unknown) => {
            if (!response.headersSent) answer(response, 400, error instanceof Error ? error.message : String(error))
            else response.destroy()
          })
        })
        server.on("error", (error) =>
          resume(
            Effect.fail(
              new ToolChannelStartError({ message: `the tool channel cannot listen on 127.0.0.1: ${error.message}` }),
            ),
          ),
        )
        server.listen(0, "127.0.0.1", () => resume(Effect.succeed(server)))
      }),
      (server) =>
        Effect.gen(function* () {
          yield* hub.close
          yield* Effect.callback<void>((resume) => {
            // Streams just ended become idle a moment later: keep closing idle connections, and cut the rest
            // (adapters that stopped reading) after a bounded wait.
            const sweep = setInterval(() => server.closeIdleConnections(), 10)
            const deadline = setTimeout(() => server.closeAllConnections(), closeWaitMs)
            server.close(() => {
              clearInterval(sweep)
              clearTimeout(deadline)
              resume(Effect.void)
            })
          })
        }),
    )
    const address = server.address()
    if (address === null || typeof address === "string") {
      return yield* new ToolChannelStartError({ message: `the tool channel has no TCP address (${String(address)})` })
    }
    const url = `http://127.0.0.1:${address.port}`
    return { url, token, env: { [urlVariable]: url, [tokenVariable]: token } } satisfies ControlChannel
  })
