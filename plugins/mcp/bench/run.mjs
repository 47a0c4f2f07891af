#!/usr/bin/env node
/**
 * MCP benchmark (run on built code: `npm run build -w plugins/mcp` first).
 *
 *   node plugins/mcp/bench/run.mjs [--json]
 *
 * - `execute` round trip of a trivial Lua program (`return 1`) through the official SDK client: over stdio (the
 *   server in a child process, as MCP clients run it) and over Streamable HTTP (loopback), p50 and p99, each as a
 *   ratio to the same program run directly with `runtime.execute` in this process (the peer: CodeMode without MCP).
 *   The three are timed round-robin, one call of each per round.
 * - The size of `tools/list` for the GitHub REST description (its ~1,000 operations as tools): our two tools against
 *   one tool per operation (each operation's input schema with its local `$ref`s inlined, as a server that lists
 *   every operation must send). Tokens are estimated as bytes / 4.
 */
import { createRequire } from "node:module"
import { readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const require = createRequire(import.meta.url)
const self = fileURLToPath(import.meta.url)
const rounds = 300
const warmup = 30

/** The runtime both sides use: one trivial tool, Lua. */
const makeServer = async () => {
  const { Tool } = await import("@codemode/core")
  const { McpServer } = await import("@codemode/mcp")
  const { Effect, Schema } = await import("effect")
  const echo = Tool.make({
    description: "Echo",
    input: Schema.Struct({ x: Schema.Number }),
    execute: ({ x }) => Effect.succeed(x),
  })
  return McpServer.make({ codemode: { language: "lua", tools: { bench: { echo } } } })
}

if (process.argv[2] === "--serve-stdio") {
  const { McpStdio } = await import("@codemode/mcp")
  const server = await makeServer()
  await McpStdio.serve(server)
  await server.close()
  process.exit(0)
}

const percentile = (samples, q) => {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]
}

/** Time the calls round-robin (one of each per round), so load that comes and goes weighs on all of them alike. */
const timeTogether = async (calls) => {
  for (let i = 0; i < warmup; i++) for (const call of Object.values(calls)) await call()
  const samples = Object.fromEntries(Object.keys(calls).map((name) => [name, []]))
  for (let i = 0; i < rounds; i++)
    for (const [name, call] of Object.entries(calls)) {
      const started = performance.now()
      await call()
      samples[name].push(performance.now() - started)
    }
  return Object.fromEntries(
    Object.entries(samples).map(([name, list]) => [name, { p50: percentile(list, 0.5), p99: percentile(list, 0.99) }]),
  )
}

const roundTrips = async () => {
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js")
  const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js")
  const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js")
  const { McpHttp } = await import("@codemode/mcp")
  const { Effect } = await import("effect")
  const code = "return 1"
  const check = (answer) => {
    if (answer.structuredContent?.value !== 1) throw new Error(`unexpected answer ${JSON.stringify(answer)}`)
  }
  const server = await makeServer()
  const stdioClient = new Client({ name: "bench", version: "1" })
  await stdioClient.connect(
    new StdioClientTransport({ command: process.execPath, args: [self, "--serve-stdio"], stderr: "inherit" }),
  )
  const listening = await McpHttp.listen(server, { port: 0 })
  const httpClient = new Client({ name: "bench", version: "1" })
  await httpClient.connect(new StreamableHTTPClientTransport(new URL(listening.url)))
  const times = await timeTogether({
    direct: async () => {
      const result = await Effect.runPromise(server.runtime.execute(code))
      if (result.value !== 1) throw new Error("unexpected result")
    },
    stdio: async () => check(await stdioClient.callTool({ name: "execute", arguments: { code } })),
    http: async () => check(await httpClient.callTool({ name: "execute", arguments: { code } })),
  })
  await stdioClient.close()
  await httpClient.close()
  await listening.close()
  await server.close()
  return times
}

/** Inline the local `$ref`s of `schema` against `root` (a reference back into itself stays a `$ref`). */
const inline = (schema, root, active = new Set()) => {
  if (Array.isArray(schema)) return schema.map((item) => inline(item, root, active))
  if (typeof schema !== "object" || schema === null) return schema
  if (typeof schema.$ref === "string" && schema.$ref.startsWith("#/")) {
    if (active.has(schema.$ref)) return { $ref: schema.$ref }
    const target = schema.$ref
      .slice(2)
      .split("/")
      .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
      .reduce((node, part) => node?.[part], root)
    active.add(schema.$ref)
    const out = inline(target ?? {}, root, active)
    active.delete(schema.$ref)
    return out
  }
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, inline(value, root, active)]))
}

const listSizes = async () => {
  const { OpenAPI } = await import("@codemode/openapi")
  const { McpServer } = await import("@codemode/mcp")
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js")
  const { InMemoryTransport } = await import("@modelcontextprotocol/sdk/inMemory.js")
  const githubPath = join(dirname(require.resolve("@octokit/openapi/package.json")), "generated", "api.github.com.json")
  const spec = JSON.parse(readFileSync(githubPath, "utf8"))
  const api = OpenAPI.fromSpec({ spec })
  const server = await McpServer.make({ codemode: { language: "lua", tools: { github: api.tools } } })
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  const client = new Client({ name: "bench", version: "1" })
  await client.connect(clientSide)
  const ours = Buffer.byteLength(JSON.stringify(await client.listTools()))
  await client.close()
  await server.close()
  const perOperation = Object.entries(api.tools).map(([path, tool]) => ({
    name: path.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64),
    description: tool.description,
    inputSchema: inline(JSON.parse(JSON.stringify(tool.input)), { components: tool.input.components }),
  }))
  const theirs = Buffer.byteLength(JSON.stringify({ tools: perOperation }))
  return { operations: perOperation.length, ours, theirs }
}

const main = async () => {
  const trips = await roundTrips()
  const sizes = await listSizes()
  if (process.argv.includes("--json")) {
    process.stdout.write(`${JSON.stringify({ roundTrips: trips, toolsList: sizes }, null, 2)}\n`)
    return
  }
  const ms = (value) => `${value.toFixed(2)} ms`
  const row = (name, r) =>
    `| ${name.padEnd(38)} | ${ms(r.p50).padStart(9)} | ${ms(r.p99).padStart(9)} | ${(r.p50 / trips.direct.p50).toFixed(2).padStart(14)}x |`
  console.log(`execute round trip of \`return 1\` (${rounds} calls after ${warmup} warm-up)\n`)
  console.log("| path                                   |       p50 |       p99 | p50 vs direct |")
  console.log("| -------------------------------------- | --------- | --------- | -------------- |")
  console.log(row("runtime.execute in process (peer)", trips.direct))
  console.log(row("MCP over stdio (server in a child)", trips.stdio))
  console.log(row("MCP over Streamable HTTP (loopback)", trips.http))
  const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`
  const tokens = (bytes) => `~${Math.round(bytes / 4).toLocaleString("en-US")} tokens`
  console.log(`\ntools/list for the GitHub REST description (${sizes.operations} operations)\n`)
  console.log("| listing                          |        size |             tokens |")
  console.log("| -------------------------------- | ----------- | ------------------ |")
  console.log(
    `| search + execute (this server)   | ${kb(sizes.ours).padStart(11)} | ${tokens(sizes.ours).padStart(18)} |`,
  )
  console.log(
    `| one tool per operation           | ${kb(sizes.theirs).padStart(11)} | ${tokens(sizes.theirs).padStart(18)} |`,
  )
  console.log(`\none tool per operation is ${(sizes.theirs / sizes.ours).toFixed(0)}x larger`)
}

await main()
