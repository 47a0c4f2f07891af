/**
 * End to end against the real OpenCode server: its own `/doc` description becomes tools, and a Lua program creates a
 * session, lists sessions and reads the config through them, with HTTP basic authentication.
 */
import { CodeMode } from "@codemode/core"
import { type ChildProcess, spawn } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { Effect } from "effect"
import { FetchHttpClient } from "effect/http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { OpenAPI } from "../src/index.js"

const root = fileURLToPath(new URL("../../../", import.meta.url))
const binary = join(root, "node_modules", ".bin", "opencode")
const username = "codemode"
const password = `pw-${process.pid}-${Date.now()}`
const basic = `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.on("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as { port: number }).port
      server.close(() => resolve(port))
    })
  })

let child: ChildProcess | undefined
let home: string
let project: string
let baseUrl: string
let output = ""

const stop = async () => {
  if (!child || child.exitCode !== null || child.pid === undefined) return
  const exited = new Promise<void>((resolve) => child!.once("exit", () => resolve()))
  process.kill(-child.pid, "SIGTERM")
  const timer = setTimeout(() => {
    if (child?.exitCode === null && child.pid !== undefined) process.kill(-child.pid, "SIGKILL")
  }, 5000)
  await exited
  clearTimeout(timer)
}

beforeAll(async () => {
  if (!existsSync(binary))
    throw new Error(`the OpenCode binary is missing at node_modules/.bin/opencode; run npm install`)
  home = mkdtempSync(join(tmpdir(), "codemode-opencode-"))
  project = join(home, "project")
  mkdirSync(project)
  const port = await freePort()
  baseUrl = `http://127.0.0.1:${port}`
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    XDG_CONFIG_HOME: join(home, "config"),
    XDG_DATA_HOME: join(home, "data"),
    XDG_CACHE_HOME: join(home, "cache"),
    XDG_STATE_HOME: join(home, "state"),
    OPENCODE_SERVER_USERNAME: username,
    OPENCODE_SERVER_PASSWORD: password,
    OPENCODE_DISABLE_AUTOUPDATE: "1",
    OPENCODE_DISABLE_MODELS_FETCH: "1",
    OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
    OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
    OPENCODE_DISABLE_SHARE: "1",
    OPENCODE_DISABLE_CLAUDE_CODE: "1",
    OPENCODE_DISABLE_EXTERNAL_SKILLS: "1",
  }
  child = spawn(binary, ["serve", "--hostname", "127.0.0.1", "--port", String(port)], {
    cwd: project,
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  })
  child.stdout!.on("data", (d) => (output += d))
  child.stderr!.on("data", (d) => (output += d))
  const deadline = Date.now() + 60_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`opencode serve exited with ${child.exitCode}: ${output.slice(-2000)}`)
    try {
      const response = await fetch(`${baseUrl}/global/health`, {
        headers: { authorization: basic },
        signal: AbortSignal.timeout(2000),
      })
      if (response.ok) break
    } catch {}
    if (Date.now() > deadline) throw new Error(`opencode serve did not answer within 60 s: ${output.slice(-2000)}`)
    await new Promise((r) => setTimeout(r, 250))
  }
}, 90_000)

afterAll(async () => {
  await stop()
  if (home) rmSync(home, { recursive: true, force: true })
}, 30_000)

describe("the real OpenCode server", () => {
  it("refuses its description without credentials, and serves it with them", async () => {
    await expect(OpenAPI.load(`${baseUrl}/doc`)).rejects.toThrow(`cannot load ${baseUrl}/doc: HTTP 401`)
    const spec = await OpenAPI.load(`${baseUrl}/doc`, { headers: { authorization: basic } })
    expect(spec.openapi).toMatch(/^3\.1/)
  })

  it("creates a session, lists sessions and reads the config from a Lua program", async () => {
    const spec = await OpenAPI.load(`${baseUrl}/doc`, { headers: { authorization: basic } })
    const withoutServer = OpenAPI.fromSpec({ spec })
    expect(withoutServer.operations).toEqual([])
    expect(withoutServer.skipped.every((s) => s.reason.includes("no server URL"))).toBe(true)

    const api = OpenAPI.fromSpec({
      spec,
      baseUrl,
      auth: { schemes: { server: { type: "http", scheme: "basic" } }, resolve: () => ({ username, password }) },
    })
    expect(api.operations.length).toBeGreaterThan(100)
    expect(api.skipped.some((s) => s.reason.includes("text/event-stream"))).toBe(true)

    const runtime = CodeMode.make({ language: "lua", tools: { opencode: api.tools }, limits: { timeoutMs: 60_000 } })
    const program = `
      local created = tools.opencode.session.create({ body = { title = "codemode e2e" } })
      local sessions = tools.opencode.session.list({})
      local listed = false
      for _, s in ipairs(sessions) do
        if s.id == created.id then listed = true end
      end
      local config = tools.opencode.config.get({})
      local ok, err = pcall(tools.opencode.session.get, { sessionID = "ses_does_not_exist" })
      return {
        id = created.id,
        title = created.title,
        listed = listed,
        sessions = #sessions,
        configIsObject = type(config) == "table",
        missing = ok and "found" or tostring(err),
      }
    `
    const result = await Effect.runPromise(
      runtime.execute(program).pipe(Effect.provide(FetchHttpClient.layer)) as Effect.Effect<CodeMode.Result>,
    )
    if (!result.ok) throw new Error(`${result.error.kind}: ${result.error.message}\n${output.slice(-2000)}`)
    const value = result.value as {
      id: string
      title: string
      listed: boolean
      sessions: number
      configIsObject: boolean
      missing: string
    }
    expect(value.id).toMatch(/^ses/)
    expect(value.title).toBe("codemode e2e")
    expect(value.listed).toBe(true)
    expect(value.sessions).toBeGreaterThanOrEqual(1)
    expect(value.configIsObject).toBe(true)
    expect(value.missing).toMatch(/GET \/session\/ses_does_not_exist: HTTP 4\d\d/)
    expect(result.toolCalls.map((c) => c.name)).toEqual([
      "opencode.session.create",
      "opencode.session.list",
      "opencode.config.get",
      "opencode.session.get",
    ])
    expect(JSON.stringify(result)).not.toContain(password)

    // the session really exists, checked without the generated tools
    const direct = await fetch(`${baseUrl}/session/${value.id}`, { headers: { authorization: basic } })
    expect(direct.status).toBe(200)
    expect(((await direct.json()) as { title: string }).title).toBe("codemode e2e")
  }, 90_000)
})
