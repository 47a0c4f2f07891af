/**
 * `codemode mcp`: the tools of an OpenAPI document as an MCP server with two tools, `search` and `execute`, on
 * stdio (the default) or Streamable HTTP (`--http PORT`).
 *
 * On stdio, stdout carries only MCP: everything else this process would print goes to stderr.
 */
import * as Api from "./Api.js"
import { print } from "./Commands.js"
import * as Credentials from "./Credentials.js"
import {
  credentialHelp,
  credentialOptions,
  documentOptions,
  languageOf,
  limitHelp,
  limitOptions,
  limitsOf,
  namespaceOf,
  parse,
  UsageError,
  wholeNumber,
} from "./Usage.js"

const help = `Usage: codemode mcp --openapi <file|url> [options]

Serve the tools of an OpenAPI document as an MCP server with two tools: search (find tools and their signatures)
and execute (run a program that calls them). stdio by default; Streamable HTTP at /mcp with --http.

Options:
  --openapi <file|url>         OpenAPI 3.0/3.1 document whose operations become tools (required)
  --namespace <name>           where the tools are mounted: tools.<name>.… (default: api)
  --base-url <url>             server URL to call (replaces the document's servers)
  --language <lua|javascript>  the language programs are written in (default: lua)
${limitHelp}
  --http <port>                serve Streamable HTTP on this port instead of stdio (0 picks a free one)
  --host <address>             address to bind with --http (default: 127.0.0.1)
  --token-env <NAME>           with --http, clients must send Authorization: Bearer <the value of NAME>
  --allow-origin <origin>      with --http, also accept browser requests from this origin (repeatable)
  -h, --help                   show this help

${credentialHelp}`

const options = {
  ...documentOptions,
  ...credentialOptions,
  ...limitOptions,
  language: { type: "string" },
  http: { type: "string" },
  host: { type: "string" },
  "token-env": { type: "string" },
  "allow-origin": { type: "string", multiple: true },
} as const

const log = (line: string) => process.stderr.write(`codemode mcp: ${line}\n`)

/** `codemode mcp`; resolves with the exit code once the server stops. */
export const mcp = async (args: ReadonlyArray<string>): Promise<number> => {
  const { values, positionals } = parse("mcp", options, args)
  if (values.help) return print(help)
  if (positionals.length > 0)
    throw new UsageError(`mcp takes no arguments, got "${positionals[0]}" (see codemode mcp --help)`)
  if (values.openapi === undefined) throw new UsageError("mcp needs --openapi <file|url>")
  const port = wholeNumber("http", values.http, 0, 65_535)
  if (port === undefined)
    for (const name of ["host", "token-env", "allow-origin"] as const)
      if (values[name] !== undefined) throw new UsageError(`--${name} needs --http`)
  let token: string | undefined
  if (values["token-env"] !== undefined) {
    const name = values["token-env"]
    token = process.env[name]
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
      throw new UsageError(`--token-env takes the name of an environment variable, got "${name}"`)
    if (!token) throw new UsageError(`environment variable ${name} (from --token-env) is not set`)
  }
  for (const origin of values["allow-origin"] ?? [])
    if (!/^https?:\/\/[^/]+$/.test(origin))
      throw new UsageError(`--allow-origin takes an origin such as http://localhost:5173, got "${origin}"`)
  const language = languageOf(values.language)
  const limits = limitsOf(values)
  const namespace = namespaceOf(values.namespace)

  // Nothing but MCP may reach stdout, whatever a library prints.
  if (port === undefined) console.log = console.info = console.debug = console.error

  const api = await Api.load({ ...values, openapi: values.openapi }, Credentials.fromEnvironment(values))
  const [{ Language }, { McpServer, McpStdio, McpHttp }, { FetchHttpClient }] = await Promise.all([
    import("@codemode/core"),
    import("@codemode/mcp"),
    import("effect/http"),
  ])
  if (!Language.find(language))
    throw new UsageError(`serving ${language} programs needs ${Language.packageOf(language)}; install it`)
  const server = await McpServer.make({
    codemode: {
      language,
      tools: { [namespace]: api.tools },
      ...(Object.keys(limits).length > 0 ? { limits } : {}),
    },
    layer: FetchHttpClient.layer,
  })
  log(
    `${server.runtime.catalog.length} tools under tools.${namespace}, ${api.skipped.length} operations skipped; ${language} programs`,
  )
  if (port === undefined) {
    await McpStdio.serve(server)
    await server.close()
    return 0
  }
  const listening = await McpHttp.listen(server, {
    port,
    ...(values.host !== undefined ? { host: values.host } : {}),
    ...(token !== undefined ? { token } : {}),
    ...(values["allow-origin"] ? { allowedOrigins: values["allow-origin"] } : {}),
  })
  log(`listening on ${listening.url}${token !== undefined ? " (bearer token required)" : ""}`)
  if (token === undefined && values.host !== undefined && !/^(127\.|localhost$|::1$|\[::1\]$)/.test(values.host))
    log("warning: listening beyond loopback without --token-env; anyone who reaches this port can run programs")
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve)
    process.once("SIGTERM", resolve)
  })
  await listening.close()
  await server.close()
  return 0
}
