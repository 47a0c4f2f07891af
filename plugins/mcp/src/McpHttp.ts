/**
 * MCP over Streamable HTTP, at `/mcp`: one session per client (`Mcp-Session-Id`), loopback only by default.
 *
 * Every request is checked before it reaches the SDK: the `Host` header must name a loopback host when the server
 * listens on one, and an `Origin` header must be an allowed origin (both against DNS rebinding: a web page must not
 * reach a local server through a name it controls); with a token, `Authorization: Bearer <token>` is required. The
 * SDK's transport honours `MCP-Protocol-Version` (an unsupported version is refused with 400).
 */
import { randomUUID, timingSafeEqual } from "node:crypto"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js"
import type { Server } from "@modelcontextprotocol/sdk/server/index.js"
import type { CodeModeServer } from "./McpServer.js"

/** Options of `listen`. */
export interface Options {
  /** The port (0 picks a free one). */
  readonly port: number
  /** The address to bind (default `127.0.0.1`). */
  readonly host?: string
  /** A bearer token clients must send; none by default. */
  readonly token?: string
  /**
   * Origins a browser-based client may call from, exactly as browsers send them (`http://localhost:5173`). Loopback
   * origins (`localhost`, `127.0.0.1`, `[::1]`, any port) are always allowed; clients that send no `Origin` are too.
   */
  readonly allowedOrigins?: ReadonlyArray<string>
  /** The most sessions open at once (default 64); the least recently used idle one is closed to make room. */
  readonly maxSessions?: number
}

/** A listening server. */
export interface Listening {
  /** The endpoint, e.g. `http://127.0.0.1:8080/mcp`. */
  readonly url: string
  readonly port: number
  /** Stop listening and close every session. */
  readonly close: () => Promise<void>
}

const loopbackHosts = new Set(["localhost", "127.0.0.1", "[::1]", "::1"])

const isLoopbackName = (hostname: string) =>
  loopbackHosts.has(hostname.toLowerCase()) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)

/** The host name of a `Host` header (`[::1]:8080` → `[::1]`). */
const hostnameOf = (host: string) => (host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : host.split(":")[0])

const refuse = (res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}) => {
  res.writeHead(status, { "content-type": "application/json", ...headers })
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }))
}

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

interface Session {
  readonly transport: StreamableHTTPServerTransport
  server?: Server
  /** Requests being answered (POSTs; a tool call in flight keeps its session from being closed for room). */
  active: number
  lastUsed: number
}

/** Serve `server` over Streamable HTTP. Resolves once listening. */
export const listen = async (server: CodeModeServer, options: Options): Promise<Listening> => {
  const host = options.host ?? "127.0.0.1"
  const loopbackOnly = isLoopbackName(host.startsWith("[") || !host.includes(":") ? host : `[${host}]`)
  const allowed = new Set(options.allowedOrigins ?? [])
  const maxSessions = options.maxSessions ?? 64
  const sessions = new Map<string, Session>()

  const originAllowed = (origin: string) => {
    if (allowed.has(origin)) return true
    try {
      const url = new URL(origin)
      return (url.protocol === "http:" || url.protocol === "https:") && isLoopbackName(url.hostname)
    } catch {
      return false
    }
  }

  const closeSession = async (id: string) => {
    const session = sessions.get(id)
    if (!session) return
    sessions.delete(id)
    await session.transport.close().catch(() => undefined)
    await session.server?.close().catch(() => undefined)
  }

  /** Make room for a new session: close the least recently used idle one; false when every session is busy. */
  const makeRoom = async () => {
    if (sessions.size < maxSessions) return true
    let oldest: [string, Session] | undefined
    for (const entry of sessions)
      if (entry[1].active === 0 && (!oldest || entry[1].lastUsed < oldest[1].lastUsed)) oldest = entry
    if (!oldest) return false
    await closeSession(oldest[0])
    return true
  }

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "/").split("?")[0]
    if (path !== "/mcp") return refuse(res, 404, "not found: the MCP endpoint is /mcp")
    const hostHeader = req.headers.host ?? ""
    if (loopbackOnly && !isLoopbackName(hostnameOf(hostHeader)))
      return refuse(res, 403, `forbidden: Host "${hostHeader}" is not a loopback host`)
    const origin = req.headers.origin
    if (origin !== undefined && !originAllowed(origin))
      return refuse(res, 403, `forbidden: Origin "${origin}" is not allowed`)
    if (options.token !== undefined) {
      const auth = req.headers.authorization ?? ""
      const match = /^Bearer (.+)$/i.exec(auth)
      if (!match || !sameSecret(match[1], options.token))
        return refuse(res, 401, "unauthorized: send Authorization: Bearer <token>", {
          "www-authenticate": 'Bearer realm="codemode"',
        })
    }
    const id = req.headers["mcp-session-id"]
    if (typeof id === "string") {
      const session = sessions.get(id)
      if (!session) return refuse(res, 404, "session not found: initialize a new one")
      // A GET is the client's standing stream for server messages: it stays open and does not make a session busy.
      const busy = req.method === "POST" ? 1 : 0
      session.active += busy
      session.lastUsed = Date.now()
      try {
        await session.transport.handleRequest(req, res)
      } finally {
        session.active -= busy
        session.lastUsed = Date.now()
      }
      return
    }
    if (req.method !== "POST") return refuse(res, 400, "bad request: no Mcp-Session-Id; initialize with a POST first")
    if (!(await makeRoom())) return refuse(res, 503, `too many sessions (${maxSessions}) busy; retry later`)
    const session: Session = {
      transport: new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId) => {
          sessions.set(sessionId, session)
        },
      }),
      active: 1,
      lastUsed: Date.now(),
    }
    session.transport.onclose = () => {
      const sessionId = session.transport.sessionId
      if (sessionId !== undefined && sessions.get(sessionId) === session) sessions.delete(sessionId)
    }
    session.server = await server.connect(session.transport)
    try {
      await session.transport.handleRequest(req, res)
    } finally {
      session.active--
    }
    // A first request that did not initialize a session leaves nothing behind.
    if (session.transport.sessionId === undefined || !sessions.has(session.transport.sessionId)) {
      await session.transport.close().catch(() => undefined)
      await session.server.close().catch(() => undefined)
    }
  }

  const http = createServer((req, res) => {
    handle(req, res).catch((error) => {
      if (!res.headersSent)
        refuse(res, 500, `internal error: ${error instanceof Error ? error.message : String(error)}`)
      else res.end()
    })
  })
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject)
    http.listen(options.port, host, () => {
      http.off("error", reject)
      resolve()
    })
  })
  const port = (http.address() as AddressInfo).port
  const shown = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host
  return {
    url: `http://${shown}:${port}/mcp`,
    port,
    close: async () => {
      await Promise.all([...sessions.keys()].map(closeSession))
      http.closeAllConnections()
      await new Promise<void>((resolve) => http.close(() => resolve()))
    },
  }
}
