/**
 * The real case for basic auth: `codemode` against OpenCode's own server (`opencode serve` with
 * `OPENCODE_SERVER_PASSWORD`), whose `/doc` needs the credentials and declares no security scheme. The password only
 * ever travels in the environment.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

const root = fileURLToPath(new URL("../../../", import.meta.url))
const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url))
const binary = join(root, "node_modules", ".bin", "opencode")
const password = `pw-${process.pid}-${Date.now()}`

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
let baseUrl: string
let output = ""

const codemode = (args: string[], env: Record<string, string>) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const run = spawn(process.execPath, [cli, ...args], { env: { PATH: process.env.PATH ?? "", ...env } })
    let stdout = ""
    let stderr = ""
    run.stdout.on("data", (d) => (stdout += d))
    run.stderr.on("data", (d) => (stderr += d))
    run.on("error", reject)
    run.on("close", (code) => resolve({ code, stdout, stderr }))
  })

beforeAll(async () => {
  if (!existsSync(binary))
    throw new Error("the OpenCode binary is missing at node_modules/.bin/opencode; run npm install")
  home = mkdtempSync(join(tmpdir(), "codemode-cli-opencode-"))
  const project = join(home, "project")
  mkdirSync(project)
  const port = await freePort()
  baseUrl = `http://127.0.0.1:${port}`
  child = spawn(binary, ["serve", "--hostname", "127.0.0.1", "--port", String(port)], {
    cwd: project,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: home,
      XDG_CONFIG_HOME: join(home, "config"),
      XDG_DATA_HOME: join(home, "data"),
      XDG_CACHE_HOME: join(home, "cache"),
      XDG_STATE_HOME: join(home, "state"),
      OPENCODE_SERVER_PASSWORD: password,
      OPENCODE_DISABLE_AUTOUPDATE: "1",
      OPENCODE_DISABLE_MODELS_FETCH: "1",
      OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
      OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
      OPENCODE_DISABLE_SHARE: "1",
      OPENCODE_DISABLE_CLAUDE_CODE: "1",
    },
  })
  child.stdout!.on("data", (d) => (output += d))
  child.stderr!.on("data", (d) => (output += d))
  const basic = `Basic ${Buffer.from(`opencode:${password}`).toString("base64")}`
  const deadline = Date.now() + 60_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`opencode serve exited with ${child.exitCode}: ${output.slice(-2000)}`)
    try {
      const response = await fetch(`${baseUrl}/global/health`, {
        headers: { authorization: basic },
        signal: AbortSignal.timeout(1000),
      })
      if (response.ok) break
    } catch {}
    if (Date.now() > deadline) throw new Error(`opencode serve did not answer within 60 s: ${output.slice(-2000)}`)
    await new Promise((r) => setTimeout(r, 250))
  }
}, 90_000)

afterAll(async () => {
  if (child?.pid !== undefined && child.exitCode === null) {
    const exited = new Promise<void>((resolve) => child!.once("exit", () => resolve()))
    process.kill(-child.pid, "SIGTERM")
    const timer = setTimeout(() => child?.exitCode === null && process.kill(-child.pid!, "SIGKILL"), 5000)
    await exited
    clearTimeout(timer)
  }
  if (home) rmSync(home, { recursive: true, force: true })
}, 30_000)

describe("codemode against OpenCode's server with basic auth", () => {
  const credentials = ["--base-url", "", "--basic-user", "opencode", "--basic-password-env", "OPENCODE_SERVER_PASSWORD"]
  const withBase = () => credentials.map((arg) => (arg === "" ? baseUrl : arg))

  it("lists OpenCode's tools from its /doc, which needs the password", async () => {
    const refused = await codemode(["catalog", "--openapi", `${baseUrl}/doc`], {})
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain("HTTP 401")
    const outcome = await codemode(["catalog", "--openapi", `${baseUrl}/doc`, "--json", ...withBase()], {
      OPENCODE_SERVER_PASSWORD: password,
    })
    expect(outcome.stderr).toBe("")
    const catalog = JSON.parse(outcome.stdout) as { tools: Array<{ path: string }> }
    expect(catalog.tools.length).toBeGreaterThan(50)
    expect(catalog.tools.map((t) => t.path)).toContain("api.session.list")
  }, 60_000)

  it("runs a Lua program that creates and lists sessions through OpenCode's API", async () => {
    const program = join(home, "sessions.lua")
    writeFileSync(
      program,
      `local created = tools.opencode.session.create({ body = { title = "from the codemode command" } })
local listed = false
for _, s in ipairs(tools.opencode.session.list({})) do
  if s.id == created.id then listed = true end
end
return { title = created.title, listed = listed }
`,
    )
    const outcome = await codemode(
      ["run", program, "--openapi", `${baseUrl}/doc`, "--namespace", "opencode", "--json", ...withBase()],
      { OPENCODE_SERVER_PASSWORD: password },
    )
    expect(outcome.stderr).toBe("")
    expect(outcome.code).toBe(0)
    const result = JSON.parse(outcome.stdout)
    expect(result.value).toEqual({ title: "from the codemode command", listed: true })
    expect(outcome.stdout).not.toContain(password)
  }, 60_000)
})
