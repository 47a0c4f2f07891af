/**
 * The `codemode` command, as a user runs it: the built `dist/cli.js` in a child process.
 */
import { spawn } from "node:child_process"
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

const root = fileURLToPath(new URL("../../../", import.meta.url))
const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url))
const document = `${root}examples/store/openapi.yaml`
const report = `${root}examples/store/report.lua`
const token = "cli-test-token-abcdef"

interface Outcome {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

const codemode = (args: string[], env: Record<string, string> = {}): Promise<Outcome> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd: root, env: { ...process.env, ...env } })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (d) => (stdout += d))
    child.stderr.on("data", (d) => (stderr += d))
    child.on("error", reject)
    child.on("close", (code) => resolve({ code, stdout, stderr }))
  })

/** One line on stderr, no stack trace, a non-zero exit. */
const expectOneLineError = (outcome: Outcome, text: string | RegExp) => {
  expect(outcome.code).not.toBe(0)
  expect(outcome.stdout).toBe("")
  const lines = outcome.stderr.trimEnd().split("\n")
  expect(lines).toHaveLength(1)
  expect(lines[0]).toMatch(text)
  expect(outcome.stderr).not.toMatch(/\n\s+at /)
}

let store: { url: string; close(): Promise<void> }
let scratch: string
beforeAll(async () => {
  if (!existsSync(cli)) throw new Error("dist/cli.js is missing: run `npm run build -w plugins/cli` first")
  const { startStore } = await import(`${root}examples/store/server.mjs`)
  store = await startStore({ port: 0, token })
  scratch = mkdtempSync(join(tmpdir(), "codemode-cli-"))
})
afterAll(async () => {
  await store.close()
  rmSync(scratch, { recursive: true, force: true })
})

describe("codemode run", () => {
  it("runs the store report with a bearer token from the environment and prints the Result as JSON", async () => {
    const outcome = await codemode(
      [
        "run",
        report,
        "--openapi",
        document,
        "--base-url",
        store.url,
        "--namespace",
        "store",
        "--bearer-env",
        "STORE_TOKEN",
        "--json",
      ],
      { STORE_TOKEN: token },
    )
    expect(outcome.stderr).toBe("")
    expect(outcome.code).toBe(0)
    const result = JSON.parse(outcome.stdout)
    expect(result.ok).toBe(true)
    expect(result.value.missingOrder).toBe("not found (handled with pcall)")
    expect(result.value.giftOrder.status).toBe("pending")
    expect(result.toolCalls).toHaveLength(11)
    expect(typeof result.durationMs).toBe("number")
    expect(outcome.stdout).not.toContain(token)
  })

  it("prints a readable Result and exits 1 when the program fails", async () => {
    const program = join(scratch, "fail.lua")
    writeFileSync(
      program,
      'local p = tools.store.products.get({ productId = "prd_001" })\nprint(p.name)\nerror("stop here")\n',
    )
    const outcome = await codemode([
      "run",
      program,
      "--openapi",
      document,
      "--base-url",
      store.url,
      "--namespace",
      "store",
    ])
    expect(outcome.code).toBe(1)
    expect(outcome.stdout).toMatch(/^failed in \d+ ms, 1 tool call\nerror: ExecutionFailure: .*stop here/)
    expect(outcome.stdout).toContain("store.products.get")
    expect(outcome.stdout).toContain("logs:\n  Arc floor lamp")
  })

  it("applies --timeout", async () => {
    const program = join(scratch, "loop.lua")
    writeFileSync(program, "while true do end\n")
    const outcome = await codemode(["run", program, "--timeout", "300"])
    expect(outcome.code).toBe(1)
    expect(outcome.stdout).toContain("error: TimeoutExceeded")
  })

  it("without a secured operation's token, the call fails inside the program, not the command", async () => {
    const program = join(scratch, "order.lua")
    writeFileSync(
      program,
      'return tools.api.orders.create({ body = { customerId = "cus_001", items = { { productId = "prd_001", quantity = 1 } } } })\n',
    )
    const outcome = await codemode(["run", program, "--openapi", document, "--base-url", store.url])
    expect(outcome.code).toBe(1)
    expect(outcome.stdout).toContain(
      "POST /orders needs credentials for staffToken (bearer); the host configured no auth.resolve",
    )
  })

  it("notes on stderr when the document gives no tools", async () => {
    const bare = join(scratch, "bare.json")
    writeFileSync(
      bare,
      JSON.stringify({
        openapi: "3.1.0",
        info: { title: "x", version: "1" },
        paths: { "/a": { get: { responses: {} } } },
      }),
    )
    const program = join(scratch, "one.lua")
    writeFileSync(program, "return 1\n")
    const outcome = await codemode(["run", program, "--openapi", bare])
    expect(outcome.code).toBe(0)
    expect(outcome.stderr).toBe(
      "codemode run: note: the document gave no tools; the first operation was skipped because no server URL: the document declares no servers; pass baseUrl\n",
    )
  })

  it("rejects bad input with one line and a non-zero exit", async () => {
    expectOneLineError(await codemode(["run", "missing.lua"]), "codemode run: cannot read missing.lua: no such file")
    expectOneLineError(
      await codemode(["run", report, "--bogus"]),
      /^codemode run: unknown option '--bogus' \(see codemode run --help\)$/,
    )
    expectOneLineError(
      await codemode(["run", "program.py"]),
      'codemode run: cannot tell the language of "program.py": use a .lua or .js file',
    )
    expectOneLineError(
      await codemode(["run", report, "--openapi", "nope.yaml"]),
      "codemode run: OpenAPI document not found: nope.yaml",
    )
    expectOneLineError(
      await codemode(["run", report, "--timeout", "soon"]),
      'codemode run: --timeout must be a whole number from 1 to 2147483647, got "soon"',
    )
    expectOneLineError(
      await codemode(["run", report, "--openapi", document, "--bearer-env", "NO_SUCH_VAR_X"]),
      "codemode run: environment variable NO_SUCH_VAR_X (from --bearer-env) is not set",
    )
    const invalid = join(scratch, "invalid.yaml")
    writeFileSync(invalid, "openapi: 3.1.0\npaths: [\n")
    expectOneLineError(
      await codemode(["run", report, "--openapi", invalid]),
      /^codemode run: .*invalid\.yaml: the document is not valid YAML: /,
    )
    const swagger = join(scratch, "swagger.json")
    writeFileSync(swagger, JSON.stringify({ swagger: "2.0", info: { title: "x", version: "1" }, paths: {} }))
    expectOneLineError(
      await codemode(["catalog", "--openapi", swagger]),
      /this is a Swagger 2\.0 document; only OpenAPI 3\.0 and 3\.1 are supported/,
    )
    expectOneLineError(
      await codemode(["frobnicate"]),
      'codemode: unknown command "frobnicate"; use run, search, catalog or mcp (see codemode --help)',
    )
  })
})

describe("codemode search and catalog", () => {
  it("search prints hits with signatures", async () => {
    const outcome = await codemode([
      "search",
      "orders",
      "by",
      "status",
      "--openapi",
      document,
      "--namespace",
      "store",
      "--limit",
      "1",
    ])
    expect(outcome.code).toBe(0)
    expect(outcome.stdout).toMatch(
      /^1\. store\.orders\.list: List orders by status or customer\n {3}tools\.store\.orders\.list\(\{/,
    )
    expect(outcome.stdout).toContain("more)")
    const json = await codemode(["search", "product", "--openapi", document, "--json", "--language", "javascript"])
    expect(JSON.parse(json.stdout).items[0].signature).toContain("Promise<")
    expectOneLineError(await codemode(["search", "x"]), "codemode search: search needs --openapi <file|url>")
    expectOneLineError(
      await codemode(["search", "x", "--openapi", document, "--limit", "0"]),
      'codemode search: --limit must be a whole number from 1 to 100, got "0"',
    )
  })

  it("catalog lists tools and skipped operations, also from a loopback URL", async () => {
    const outcome = await codemode(["catalog", "--openapi", `${store.url}/openapi.yaml`])
    expect(outcome.code).toBe(0)
    expect(outcome.stdout.split("\n")[0]).toBe("7 tools, 2 operations skipped")
    expect(outcome.stdout).toContain("api.orders.create: Place an order")
    expect(outcome.stdout).toContain("GET /events (events.stream): response 200 is a server-sent event stream")
    const json = JSON.parse((await codemode(["catalog", "--openapi", document, "--json"])).stdout)
    expect(json.tools).toHaveLength(7)
    expect(json.skipped).toHaveLength(2)
  })

  it("--help on each command", async () => {
    for (const command of ["run", "search", "catalog"]) {
      const outcome = await codemode([command, "--help"])
      expect(outcome.code).toBe(0)
      expect(outcome.stdout).toContain(`Usage: codemode ${command}`)
    }
    const main = await codemode(["--help"])
    expect(main.code).toBe(0)
    expect(main.stdout).toContain("codemode run <program.lua|program.js>")
    expect((await codemode([])).code).toBe(2)
  })
})
