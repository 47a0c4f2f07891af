/**
 * Credentials for the API come from environment variables named on the command line: bearer, basic and apiKey, for
 * documents that declare their security schemes and for documents that declare none. The secrets never show in
 * what the command prints, and are sent with the document only to the origin of --base-url.
 */
import { spawn } from "node:child_process"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url))
const password = "pw-correct-horse-battery"
const apiKey = "key-0123456789abcdef"

interface Outcome {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

const codemode = (args: string[], env: Record<string, string> = {}): Promise<Outcome> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { env: { ...process.env, ...env } })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (d) => (stdout += d))
    child.stderr.on("data", (d) => (stderr += d))
    child.on("error", reject)
    child.on("close", (code) => resolve({ code, stdout, stderr }))
  })

/** A document with one operation, `whoami`, and the given security schemes (none by default). */
const documentWith = (components: object = {}, security?: object[]) => ({
  openapi: "3.1.0",
  info: { title: "who", version: "1" },
  paths: {
    "/whoami": {
      get: {
        operationId: "whoami",
        ...(security ? { security } : {}),
        responses: { "200": { description: "who", content: { "application/json": { schema: { type: "object" } } } } },
      },
    },
  },
  components,
})

/**
 * The API: `/whoami` says which credential it accepted (basic as alice, the API key in `X-Api-Key` or `?key=`), 401
 * otherwise; `/openapi.json` (no schemes declared) needs basic auth too, like OpenCode's `/doc`.
 */
const basicHeader = `Basic ${Buffer.from(`alice:${password}`).toString("base64")}`
let api: Server
let url: string
let scratch: string
beforeAll(async () => {
  api = createServer((req, res) => {
    const { pathname, searchParams } = new URL(req.url ?? "/", "http://x")
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" })
      res.end(JSON.stringify(body))
    }
    const scheme =
      req.headers.authorization === basicHeader
        ? "basic"
        : req.headers["x-api-key"] === apiKey
          ? "apiKey header"
          : searchParams.get("key") === apiKey
            ? "apiKey query"
            : undefined
    if (pathname === "/openapi.json")
      return scheme === "basic" ? send(200, documentWith()) : send(401, { error: "log in first" })
    if (pathname === "/whoami") return scheme ? send(200, { scheme }) : send(401, { error: "who are you?" })
    send(404, { error: "no such path" })
  })
  await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve))
  url = `http://127.0.0.1:${(api.address() as AddressInfo).port}`
  scratch = mkdtempSync(join(tmpdir(), "codemode-credentials-"))
  writeFileSync(join(scratch, "who.lua"), "return tools.api.whoami({}).scheme\n")
  writeFileSync(join(scratch, "plain.json"), JSON.stringify(documentWith()))
  writeFileSync(
    join(scratch, "query-key.json"),
    JSON.stringify(
      documentWith({ securitySchemes: { key: { type: "apiKey", in: "query", name: "key" } } }, [{ key: [] }]),
    ),
  )
})
afterAll(async () => {
  await new Promise((resolve) => api.close(resolve))
  rmSync(scratch, { recursive: true, force: true })
})

const run = (document: string, options: string[], env: Record<string, string>) =>
  codemode(["run", join(scratch, "who.lua"), "--openapi", document, "--base-url", url, "--json", ...options], env)

const value = (outcome: Outcome) => {
  expect(outcome.stderr).toBe("")
  expect(outcome.code).toBe(0)
  return JSON.parse(outcome.stdout).value
}

describe("credentials from the environment", () => {
  it("basic: the document comes from the API's origin with the credentials, and every operation gets them", async () => {
    const outcome = await run(`${url}/openapi.json`, ["--basic-user", "alice", "--basic-password-env", "PW"], {
      PW: password,
    })
    expect(value(outcome)).toBe("basic")
    expect(outcome.stdout).not.toContain(password)
  })

  it("the credentials go with the document only to the origin of --base-url, and the failure says so", async () => {
    const outcome = await codemode(
      ["catalog", "--openapi", `${url}/openapi.json`, "--basic-user", "alice", "--basic-password-env", "PW"],
      { PW: password },
    )
    expect(outcome.code).toBe(1)
    expect(outcome.stderr).toMatch(/HTTP 401/)
    expect(outcome.stderr).toContain("credentials are sent with the document only to the origin of --base-url")
    expect(outcome.stderr).not.toContain(password)
  })

  it("apiKey: answers a declared query scheme, or goes in the named header when the document declares none", async () => {
    expect(value(await run(join(scratch, "query-key.json"), ["--api-key-env", "KEY"], { KEY: apiKey }))).toBe(
      "apiKey query",
    )
    const header = await run(join(scratch, "plain.json"), ["--api-key-env", "KEY", "--api-key-header", "X-Api-Key"], {
      KEY: apiKey,
    })
    expect(value(header)).toBe("apiKey header")
  })

  it("without a credential the call fails inside the program with the API's answer", async () => {
    const outcome = await run(join(scratch, "plain.json"), [], {})
    expect(outcome.code).toBe(1)
    expect(JSON.parse(outcome.stdout).error.message).toContain("HTTP 401")
  })

  it("refuses incomplete or contradictory credential options with one line", async () => {
    const refused = async (options: string[], env: Record<string, string>, text: string) => {
      const outcome = await run(join(scratch, "plain.json"), options, env)
      expect(outcome.code).toBe(2)
      expect(outcome.stdout).toBe("")
      expect(outcome.stderr.trimEnd()).toBe(`codemode run: ${text}`)
    }
    await refused(["--basic-user", "alice"], {}, "--basic-user and --basic-password-env go together")
    await refused(
      ["--basic-user", "alice", "--basic-password-env", "UNSET_PW_X"],
      {},
      "environment variable UNSET_PW_X (from --basic-password-env) is not set",
    )
    await refused(
      ["--api-key-env", "KEY"],
      { KEY: apiKey },
      "the document declares no apiKey scheme, so the API key has no place to go; name its header with --api-key-header",
    )
    await refused(
      ["--bearer-env", "T", "--basic-user", "alice", "--basic-password-env", "PW"],
      { T: "tok-0123456789", PW: password },
      "the document declares no security schemes, so both --bearer-env and --basic-user would set the Authorization header; give one",
    )
    await refused(
      ["--bearer-env", "not a name"],
      {},
      '--bearer-env takes the name of an environment variable, got "not a name"',
    )
  })

  it("secrets cannot be given as arguments", async () => {
    for (const option of ["--password", "--token", "--bearer", "--api-key"]) {
      const outcome = await run(join(scratch, "plain.json"), [option, "secret-value"], {})
      expect(outcome.code).toBe(2)
      expect(outcome.stderr).toContain(`unknown option '${option}'`)
    }
  })
})
