/**
 * `McpServer`: a CodeMode runtime as an MCP server with two tools, `search` and `execute`.
 *
 * ```ts
 * const server = await McpServer.make({ codemode: { language: "lua", tools }, layer: FetchHttpClient.layer })
 * await McpStdio.serve(server) // or McpHttp.listen(server, { port: 8080 })
 * ```
 *
 * `execute` answers with the program's `Result` as `structuredContent` and as JSON text, `isError` when it failed
 * (the diagnostic's message first). A request with a `progressToken` gets one progress notification per tool call
 * the program makes; `notifications/cancelled` interrupts the execution, which stops its sandbox worker. A malformed
 * call is a JSON-RPC error (`InvalidParams`).
 */
import { CodeMode } from "@codemode/core"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js"
import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js"
import { Effect, Layer, ManagedRuntime } from "effect"
import * as Description from "./Description.js"
import { CallReporter, reportingTree } from "./Progress.js"
import * as Schemas from "./Schemas.js"

/** Options of `make`. */
export interface Options {
  /** The runtime to serve, as `CodeMode.make` takes it: language, tools, extensions, hooks, limits, pool. */
  readonly codemode: CodeMode.Options<any, any>
  /** The services the tools and hooks need (for OpenAPI tools, an `HttpClient` layer); built once. */
  readonly layer?: Layer.Layer<any, unknown, never>
  /** The budget of the guide and catalog summary in `execute`'s description, in tokens of 4 characters (2,000). */
  readonly budgetTokens?: number
  /** The server's name and version in `initialize` (default `codemode`, `0.1.0`). */
  readonly name?: string
  readonly version?: string
}

/** A served runtime: connect it to as many transports as there are clients. */
export interface CodeModeServer {
  /** The runtime the tools run in. */
  readonly runtime: CodeMode.Runtime<any>
  /** The two tool definitions as `tools/list` shows them. */
  readonly tools: ReadonlyArray<{
    readonly name: string
    readonly description: string
    readonly inputSchema: object
    readonly outputSchema: object
  }>
  /** The `instructions` sent at initialization. */
  readonly instructions: string
  /** A new MCP session on `transport` (one SDK server per client). */
  readonly connect: (transport: Transport) => Promise<Server>
  /** Close every session and release the services of `layer`. */
  readonly close: () => Promise<void>
}

const knownOptions = ["codemode", "layer", "budgetTokens", "name", "version"]

const invalid = (message: string) => new McpError(ErrorCode.InvalidParams, message)

const diagnosticLine = (error: CodeMode.Diagnostic): string =>
  `${error.kind}: ${error.message}${error.location ? ` (line ${error.location.line}, column ${error.location.column})` : ""}`

/** The `tools/call` answer for a `Result`. */
export const toolResult = (result: CodeMode.Result): CallToolResult => {
  const json = JSON.stringify(result)
  return result.ok
    ? { content: [{ type: "text", text: json }], structuredContent: result as unknown as Record<string, unknown> }
    : {
        content: [
          { type: "text", text: diagnosticLine(result.error) },
          { type: "text", text: json },
        ],
        structuredContent: result as unknown as Record<string, unknown>,
        isError: true,
      }
}

/**
 * Build the server for a runtime. Throws what `CodeMode.make` throws for invalid options, and `TypeError` for an
 * unknown option.
 */
export const make = async (options: Options): Promise<CodeModeServer> => {
  if (typeof options !== "object" || options === null) throw new TypeError("McpServer.make expects an options object")
  for (const key of Object.keys(options))
    if (!knownOptions.includes(key))
      throw new TypeError(`McpServer.make: unknown option "${key}"; the options are ${knownOptions.join(", ")}`)
  if (typeof options.codemode !== "object" || options.codemode === null)
    throw new TypeError("McpServer.make: codemode must be the options of CodeMode.make")
  const budgetTokens = options.budgetTokens
  if (budgetTokens !== undefined && (!Number.isInteger(budgetTokens) || budgetTokens < 100))
    throw new RangeError(`McpServer.make: budgetTokens must be a whole number of at least 100, got ${budgetTokens}`)
  const runtime = CodeMode.make({
    ...options.codemode,
    tools: reportingTree(options.codemode.tools ?? {}),
  } as CodeMode.Options<any, any>)
  const services = ManagedRuntime.make((options.layer ?? Layer.empty) as Layer.Layer<any, unknown, never>)
  const tools = [
    {
      name: "search",
      description: Description.search(runtime),
      inputSchema: Schemas.searchInput,
      outputSchema: Schemas.searchOutput,
    },
    {
      name: "execute",
      description: Description.execute(runtime, budgetTokens),
      inputSchema: Schemas.executeInput,
      outputSchema: Schemas.executeOutput,
    },
  ]
  const instructions = Description.instructions(runtime)
  const sessions = new Set<Server>()

  const search = (args: unknown): CallToolResult => {
    const request = Schemas.checkSearch(args)
    if (typeof request === "string") throw invalid(request)
    let page: unknown
    try {
      page = runtime.search(request)
    } catch (error) {
      throw invalid(error instanceof Error ? error.message : String(error))
    }
    return {
      content: [{ type: "text", text: JSON.stringify(page) }],
      structuredContent: page as Record<string, unknown>,
    }
  }

  const execute = async (
    args: unknown,
    extra: {
      signal: AbortSignal
      _meta?: { progressToken?: string | number }
      sendNotification: Server["notification"]
    },
  ): Promise<CallToolResult> => {
    const checked = Schemas.checkExecute(args)
    if (typeof checked === "string") throw invalid(checked)
    const token = extra._meta?.progressToken
    let calls = 0
    const program = runtime.execute(checked.code) as Effect.Effect<CodeMode.Result, never, any>
    const reported =
      token === undefined
        ? program
        : Effect.provideService(program, CallReporter, {
            report: (path) => {
              calls++
              return extra.sendNotification({
                method: "notifications/progress",
                params: { progressToken: token, progress: calls, message: `tool call ${calls}: ${path}` },
              })
            },
          })
    const result = await services.runPromise(reported, { signal: extra.signal })
    return toolResult(result)
  }

  const connect = async (transport: Transport): Promise<Server> => {
    const server = new Server(
      { name: options.name ?? "codemode", version: options.version ?? "0.1.0" },
      { capabilities: { tools: {} }, instructions },
    )
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools as never }))
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const { name, arguments: args } = request.params
      if (name === "search") return search(args)
      if (name === "execute") return execute(args, extra as never)
      throw invalid(`unknown tool "${name}"; this server has search and execute`)
    })
    sessions.add(server)
    server.onclose = () => sessions.delete(server)
    await server.connect(transport)
    return server
  }

  return {
    runtime,
    tools,
    instructions,
    connect,
    close: async () => {
      await Promise.all([...sessions].map((server) => server.close().catch(() => undefined)))
      await services.dispose()
    },
  }
}
