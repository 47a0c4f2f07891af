#!/usr/bin/env node
/**
 * `npm start`: CodeMode end to end, offline.
 *
 * 1. Starts the demo store (examples/store/server.mjs) on a free loopback port.
 * 2. Turns its OpenAPI 3.1 document (examples/store/openapi.yaml) into tools.
 * 3. Shows the catalog size, the skipped operations, and what `search` finds for a question.
 * 4. Runs the Lua program examples/store/report.lua and prints its Result.
 *
 * It imports the built packages; missing builds are made first.
 */
import { randomBytes } from "node:crypto"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { ensureBuilt } from "./ensure-built.mjs"

if (!ensureBuilt(["plugins/lang-lua", "plugins/openapi", "plugins/cli"], "npm start")) process.exit(1)

const { CodeMode } = await import("@codemode/core")
const { OpenAPI } = await import("@codemode/openapi")
const { Printer } = await import("@codemode/cli")
const { Effect } = await import("effect")
const { FetchHttpClient } = await import("effect/http")
const { startStore } = await import("../examples/store/server.mjs")

const documentPath = fileURLToPath(new URL("../examples/store/openapi.yaml", import.meta.url))
const programPath = fileURLToPath(new URL("../examples/store/report.lua", import.meta.url))
const rule = (title) => console.log(`\n── ${title} ${"─".repeat(Math.max(0, 72 - title.length))}`)

// The staff token exists only here and in the store: programs, signatures and results never see it.
const token = randomBytes(24).toString("base64url")
const store = await startStore({ port: 0, token })

try {
  rule("the demo store")
  console.log(`serving on ${store.url}; its document is examples/store/openapi.yaml`)

  const spec = await OpenAPI.load(documentPath)
  const api = OpenAPI.fromSpec({
    spec,
    baseUrl: store.url,
    auth: { resolve: (request) => (request.scheme === "staffToken" ? token : undefined) },
  })
  const runtime = CodeMode.make({ language: "lua", tools: { store: api.tools }, limits: { timeoutMs: 20_000 } })

  rule("tools generated from the document")
  console.log(`${runtime.catalog.length} tools in the catalog:`)
  for (const entry of runtime.catalog) console.log(`  ${entry.path}: ${Printer.firstLine(entry.description)}`)
  console.log(`${api.skipped.length} operations skipped:`)
  for (const skipped of api.skipped) console.log(`  ${skipped.method} ${skipped.path}: ${skipped.reason}`)

  const question = "Which customers spend the most on lamps?"
  rule("search")
  console.log(`question: ${question}`)
  const page = runtime.search({ query: question, limit: 4 })
  console.log(`search({ query = ${JSON.stringify(question)}, limit = 4 }) finds:`)
  for (const item of page.items) console.log(`  ${item.path}: ${Printer.firstLine(item.description)}`)
  console.log(`signature of the first hit:\n${page.items[0]?.signature.replace(/^/gm, "  ")}`)

  rule("examples/store/report.lua")
  const code = readFileSync(programPath, "utf8")
  const started = performance.now()
  const result = await Effect.runPromise(runtime.execute(code).pipe(Effect.provide(FetchHttpClient.layer)))
  const durationMs = performance.now() - started

  rule("result")
  console.log(Printer.formatResult(result, durationMs))
  process.exitCode = result.ok ? 0 : 1
} finally {
  await store.close()
}
