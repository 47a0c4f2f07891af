/**
 * `codemode mcp` as a client meets it: the official SDK client spawns the command over stdio, or connects to it over
 * Streamable HTTP, with the demo store's document. Listing, search, a program that succeeds (the store report, with
 * the staff token from the environment) and one that fails, progress, cancelling an endless program, and a bad
 * Origin refused. stdout carries nothing but MCP.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

const root = fileURLToPath(new URL("../../../", import.meta.url))
const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url))
const document = `${root}examples/store/openapi.yaml`
const report = readFileSync(`${root}examples/store/report.lua`, "utf8")
const token = "mcp-test-staff-token"
const clientToken = "mcp-client-token-0123456789"

let store: { url: string; close(): Promise<void> }
beforeAll(async () => {
  const { startStore } = await import(`${root}examples/store/server.mjs`)
  store = await startStore({ port: 0, token })
})
afterAll(async () => {
  await store.close()
})

const serverArgs = () => [
  cli,
  "mcp",
  "--openapi",
  document,
  "--base-url",
  store.url,
  "--namespace",
  "store",
  "--bearer-env",
  "STORE_TOKEN",
  "--max-tool-calls",
  "100000",
]

type Text = Array<{ type: string; text: string }>

/** The checks both transports must pass. */
const conversation = (connect: () => Promise<Client>) => {
  let client: Client
  beforeAll(async () => {
    client = await connect()
  })
  afterAll(async () => {
    await client?.close()
  })

  it("lists search and execute; execute's description has the Lua guide and the store's namespaces", async () => {
    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name)).toEqual(["search", "execute"])
    expect(tools[1].description).toContain("Write a Lua 5.4 program")
    expect(tools[1].description).toContain("- tools.store.orders: 3 tools")
    expect(client.getInstructions()).toContain("over 7 tools")
  })

  it("search finds the store's tools", async () => {
    const answer = await client.callTool({ name: "search", arguments: { query: "orders by status", limit: 1 } })
    expect((answer.structuredContent as { items: Array<{ path: string }> }).items[0].path).toBe("store.orders.list")
  })

  it("execute runs the store report with the staff token, reporting each tool call", async () => {
    const progress: Array<{ message?: string }> = []
    const answer = await client.callTool({ name: "execute", arguments: { code: report } }, undefined, {
      onprogress: (p) => progress.push(p),
      timeout: 60_000,
    })
    const result = answer.structuredContent as { ok: boolean; value: { giftOrder: { status: string } } }
    expect(answer.isError).toBeFalsy()
    expect(result.ok).toBe(true)
    expect(result.value.giftOrder.status).toBe("pending")
    expect(progress).toHaveLength(10)
    expect(progress[0].message).toBe("tool call 1: store.products.search")
    expect(JSON.stringify(answer)).not.toContain(token)
  })

  it("a failing program is an isError result whose first text is the diagnostic", async () => {
    const answer = await client.callTool({ name: "execute", arguments: { code: "return tools.store.nope({})" } })
    expect(answer.isError).toBe(true)
    expect((answer.content as Text)[0].text).toMatch(/^UnknownTool: /)
  })

  it("cancelling an endless program ends it, and the server goes on answering", async () => {
    const controller = new AbortController()
    const progress: number[] = []
    const endless = client.callTool(
      { name: "execute", arguments: { code: 'while true do tools.store.products.get({ productId = "prd_001" }) end' } },
      undefined,
      { signal: controller.signal, onprogress: (p) => progress.push(p.progress), timeout: 60_000 },
    )
    await expect.poll(() => progress.length, { timeout: 20_000 }).toBeGreaterThan(2)
    controller.abort("enough")
    await expect(endless).rejects.toThrow()
    const next = await client.callTool({ name: "execute", arguments: { code: "return 6 * 7" } })
    expect((next.structuredContent as { value: unknown }).value).toBe(42)
  })
}

describe("over stdio", () => {
  let stderr = ""
  const errors: unknown[] = []
  conversation(async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: serverArgs(),
      env: { ...(process.env as Record<string, string>), STORE_TOKEN: token },
      stderr: "pipe",
    })
    transport.stderr?.on("data", (d) => (stderr += d))
    const client = new Client({ name: "test", version: "1.0.0" })
    client.onerror = (error) => errors.push(error)
    await client.connect(transport)
    return client
  })
  it("stdout carried only MCP; the log line went to stderr", () => {
    // A progress notification the server sent before a cancellation reached it arrives after the client dropped the
    // request's handler (MCP allows the race); any other error, a non-MCP line on stdout among them, fails the test.
    const unexpected = errors.filter((e) => !/progress notification for an unknown token/.test(String(e)))
    expect(unexpected).toEqual([])
    expect(stderr).toContain("codemode mcp: 7 tools under tools.store, 2 operations skipped; lua programs")
  })
})

describe("over Streamable HTTP", () => {
  let child: ChildProcess
  let url: string
  beforeAll(async () => {
    child = spawn(process.execPath, [...serverArgs(), "--http", "0", "--token-env", "CLIENT_TOKEN"], {
      env: { ...process.env, STORE_TOKEN: token, CLIENT_TOKEN: clientToken },
      stdio: ["ignore", "pipe", "pipe"],
    })
    url = await new Promise<string>((resolve, reject) => {
      let stderr = ""
      child.stderr!.on("data", (d) => {
        stderr += d
        const match = /listening on (\S+)/.exec(stderr)
        if (match) resolve(match[1])
      })
      child.once("exit", (code) => reject(new Error(`codemode mcp exited with ${code}: ${stderr}`)))
    })
  })
  afterAll(() => {
    child?.kill("SIGTERM")
  })
  conversation(async () => {
    const client = new Client({ name: "test", version: "1.0.0" })
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { authorization: `Bearer ${clientToken}` } },
      }),
    )
    return client
  })
  it("binds loopback and refuses a foreign Origin and a missing token", async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/)
    const post = (headers: Record<string, string>) =>
      fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      })
    expect((await post({ origin: "http://attacker.example", authorization: `Bearer ${clientToken}` })).status).toBe(403)
    expect((await post({})).status).toBe(401)
  })
})

describe("codemode mcp options", () => {
  const run = (args: string[]) =>
    new Promise<{ code: number | null; stderr: string; stdout: string }>((resolve) => {
      const child = spawn(process.execPath, [cli, "mcp", ...args], { stdio: ["ignore", "pipe", "pipe"] })
      let stdout = ""
      let stderr = ""
      child.stdout.on("data", (d) => (stdout += d))
      child.stderr.on("data", (d) => (stderr += d))
      child.on("close", (code) => resolve({ code, stdout, stderr }))
    })
  it("refuses bad options with one line and exit 2", async () => {
    const cases: Array<[string[], string]> = [
      [[], "codemode mcp: mcp needs --openapi <file|url>"],
      [["--openapi", document, "--token-env", "X"], "codemode mcp: --token-env needs --http"],
      [
        ["--openapi", document, "--http", "70000"],
        'codemode mcp: --http must be a whole number from 0 to 65535, got "70000"',
      ],
      [
        ["--openapi", document, "--http", "0", "--token-env", "UNSET_TOKEN_X"],
        "codemode mcp: environment variable UNSET_TOKEN_X (from --token-env) is not set",
      ],
      [
        ["--openapi", document, "--language", "python"],
        'codemode mcp: --language must be lua or javascript, got "python"',
      ],
      [
        ["--openapi", document, "--http", "0", "--allow-origin", "evil"],
        'codemode mcp: --allow-origin takes an origin such as http://localhost:5173, got "evil"',
      ],
    ]
    for (const [args, line] of cases) {
      const outcome = await run(args)
      expect(outcome.code).toBe(2)
      expect(outcome.stdout).toBe("")
      expect(outcome.stderr.trimEnd()).toBe(line)
    }
  })
})
