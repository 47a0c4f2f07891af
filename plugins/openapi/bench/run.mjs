#!/usr/bin/env node
/**
 * OpenAPI benchmark (run on built code: `npx tsup` first).
 *
 *   node plugins/openapi/bench/run.mjs [--json]
 *
 * - fromSpec on the GitHub REST description (≈1,200 operations, 13 MB of JSON): time, and the peak RSS of a fresh
 *   child process that parses the document and generates the tools. Targets: ≤ 2 s, ≤ 300 MB.
 * - search over the generated catalog: p50 and p95 of `runtime.search` for a fixed set of queries. Target: ≤ 2 ms p50.
 * - redaction: a tool call that reads a 4 MB JSON response from a loopback server, with a bearer credential (so the
 *   whole value is searched for it) against the same call without credentials (nothing to redact), interleaved in
 *   one process; the ratio of their medians. Target: ≤ 2.
 */
import { spawnSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const require = createRequire(import.meta.url)
const githubPath = join(dirname(require.resolve("@octokit/openapi/package.json")), "generated", "api.github.com.json")
const self = fileURLToPath(import.meta.url)
const runs = 5

/** In a child: parse the document, run fromSpec once, report time and peak RSS. */
const childFromSpec = async () => {
  const { OpenAPI } = await import("@codemode/openapi")
  const baseline = process.memoryUsage().rss
  let t = performance.now()
  const spec = JSON.parse(readFileSync(githubPath, "utf8"))
  const parseMs = performance.now() - t
  t = performance.now()
  const api = OpenAPI.fromSpec({ spec })
  const fromSpecMs = performance.now() - t
  const peakRssMb = process.resourceUsage().maxRSS / 1024
  process.stdout.write(
    JSON.stringify({
      parseMs,
      fromSpecMs,
      peakRssMb,
      baselineRssMb: baseline / 2 ** 20,
      tools: api.operations.length,
      skipped: api.skipped.length,
    }),
  )
}

/** In a child: build the catalog and time search. */
const childSearch = async () => {
  const { OpenAPI } = await import("@codemode/openapi")
  const { CodeMode } = await import("@codemode/core")
  const spec = JSON.parse(readFileSync(githubPath, "utf8"))
  const api = OpenAPI.fromSpec({ spec })
  let t = performance.now()
  const runtime = CodeMode.make({
    language: "lua",
    tools: { github: api.tools },
  })
  const makeMs = performance.now() - t
  const queries = [
    "list pull requests",
    "create an issue comment",
    "repository contents",
    "delete a branch protection rule",
    "workflow runs for a repository",
    "get the authenticated user",
    "search code",
    "list organization members",
    "release assets",
    "gist",
    "check runs",
    "secret scanning alerts",
    "github.repos/get",
    "",
    "merge",
    "webhook deliveries",
    "codespaces machines",
    "dependabot",
    "star a repository",
    "list commits on a branch",
  ]
  for (const query of queries) runtime.search({ query }) // warm up
  const samples = []
  for (let round = 0; round < 25; round++) {
    for (const query of queries) {
      t = performance.now()
      runtime.search({ query, limit: 10 })
      samples.push(performance.now() - t)
    }
  }
  samples.sort((a, b) => a - b)
  const at = (q) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]
  process.stdout.write(
    JSON.stringify({
      makeMs,
      catalog: runtime.catalog.length,
      searches: samples.length,
      p50Ms: at(0.5),
      p95Ms: at(0.95),
      maxMs: samples[samples.length - 1],
    }),
  )
}

/** In a child: the cost of redacting a large JSON response, as a ratio against the same call with nothing to redact. */
const childRedaction = async () => {
  const { createServer } = await import("node:http")
  const { OpenAPI } = await import("@codemode/openapi")
  const { Effect } = await import("effect")
  const { NodeHttpClient } = await import("@effect/platform-node")
  const items = Array.from({ length: 40_000 }, (_, i) => ({
    id: i,
    name: `item number ${i}`,
    tags: ["alpha", "beta", `t${i % 97}`],
    price: i * 1.25,
    owner: { login: `user-${i % 1000}`, url: `https://example.test/users/${i % 1000}` },
  }))
  const body = JSON.stringify(items)
  const server = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "application/json" })
    response.end(body)
  })
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve))
  const spec = {
    openapi: "3.1.0",
    info: { title: "bench", version: "1" },
    paths: {
      "/items": {
        get: {
          operationId: "items",
          security: [{ bearer: [] }, {}],
          responses: { 200: { description: "", content: { "application/json": {} } } },
        },
      },
    },
    components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
  }
  const tool = (credential) =>
    OpenAPI.fromSpec({
      spec,
      baseUrl: `http://127.0.0.1:${server.address().port}`,
      auth: { resolve: () => credential },
      maxResponseBytes: 32 * 1024 * 1024,
    }).tools.items
  const redacted = tool("Qz9-XKWV+tqjx/vbzp=hkcf_7Y3mW8rL")
  const plain = tool(undefined)
  const time = async (t) => {
    const start = performance.now()
    await Effect.runPromise(t.execute({}).pipe(Effect.provide(NodeHttpClient.layerNodeHttp)))
    return performance.now() - start
  }
  await time(redacted)
  await time(plain)
  const withSecret = []
  const without = []
  for (let round = 0; round < 15; round++) {
    withSecret.push(await time(redacted))
    without.push(await time(plain))
  }
  server.close()
  const redactedMs = median(withSecret)
  const plainMs = median(without)
  process.stdout.write(
    JSON.stringify({ bodyMb: body.length / 2 ** 20, redactedMs, plainMs, ratio: redactedMs / plainMs }),
  )
}

const child = (mode) => {
  const run = spawnSync(process.execPath, [self, "--child", mode], { encoding: "utf8", maxBuffer: 1 << 20 })
  if (run.status !== 0)
    throw new Error(`benchmark child "${mode}" failed: ${run.stderr.trim().split("\n").slice(-3).join(" ")}`)
  return JSON.parse(run.stdout)
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

const main = () => {
  const fromSpecRuns = Array.from({ length: runs }, () => child("fromSpec"))
  const search = child("search")
  const redaction = child("redaction")
  const result = {
    document: "api.github.com.json",
    tools: fromSpecRuns[0].tools,
    skipped: fromSpecRuns[0].skipped,
    parseMs: median(fromSpecRuns.map((r) => r.parseMs)),
    fromSpecMs: median(fromSpecRuns.map((r) => r.fromSpecMs)),
    fromSpecMaxMs: Math.max(...fromSpecRuns.map((r) => r.fromSpecMs)),
    peakRssMb: Math.max(...fromSpecRuns.map((r) => r.peakRssMb)),
    catalogMakeMs: search.makeMs,
    searchP50Ms: search.p50Ms,
    searchP95Ms: search.p95Ms,
    searches: search.searches,
    redactionBodyMb: redaction.bodyMb,
    redactedCallMs: redaction.redactedMs,
    plainCallMs: redaction.plainMs,
    redactionRatio: redaction.ratio,
  }
  const targets = [
    ["fromSpec time (median of 5)", result.fromSpecMs, 2000, "ms"],
    ["peak RSS (parse + fromSpec)", result.peakRssMb, 300, "MB"],
    ["search p50", result.searchP50Ms, 2, "ms"],
    ["redacted / plain JSON call", result.redactionRatio, 2, "×"],
  ]
  if (process.argv.includes("--json")) {
    process.stdout.write(JSON.stringify(result) + "\n")
  } else {
    console.log(`OpenAPI benchmark: ${result.document}, ${result.tools} tools, ${result.skipped} skipped`)
    console.log(`  JSON.parse of the document   ${result.parseMs.toFixed(0)} ms (median)`)
    for (const [name, value, limit, unit] of targets)
      console.log(
        `  ${name.padEnd(28)} ${value.toFixed(unit === "ms" && value < 10 ? 3 : 0)} ${unit}  (target ≤ ${limit} ${unit}: ${value <= limit ? "met" : "MISSED"})`,
      )
    console.log(`  fromSpec slowest of 5        ${result.fromSpecMaxMs.toFixed(0)} ms`)
    console.log(`  CodeMode.make (catalog)      ${result.catalogMakeMs.toFixed(0)} ms`)
    console.log(`  search p95                   ${result.searchP95Ms.toFixed(3)} ms over ${result.searches} searches`)
    console.log(
      `  ${result.redactionBodyMb.toFixed(1)} MB JSON call            ${result.redactedCallMs.toFixed(0)} ms redacted, ${result.plainCallMs.toFixed(0)} ms with nothing to redact`,
    )
  }
  process.exitCode = targets.every(([, value, limit]) => value <= limit) ? 0 : 1
}

const modeIndex = process.argv.indexOf("--child")
const children = { fromSpec: childFromSpec, search: childSearch, redaction: childRedaction }
if (modeIndex >= 0) await children[process.argv[modeIndex + 1]]()
else main()
