// Discovery benchmark: how well `search` finds the right tool on two real catalogs, how large its pages are, and how
// fast it answers, with a plain BM25 over path + description + parameter names as the baseline in the same run.
//
// - GitHub REST (`@octokit/openapi`, api.github.com) through `OpenAPI.fromSpec`, mounted at `github` (~1,220 tools).
// - The OpenCode server's own description: `opencode serve` is started with HOME and XDG folders in a temporary
//   folder and its `/doc` is read (~181 tools), mounted at `opencode`. Set CODEMODE_BENCH_OPENCODE_DOC to a saved
//   `/doc` file to skip starting the server.
//
// Queries and their labels are in discovery-queries.mjs. Metrics: recall@1, recall@5, MRR@10 (any labeled path
// counts), tokens (JSON characters / 4) of the default page (10 hits) for every query, search time p50/p95, and the
// time for a 1,000,000-character query (refused) and a 1,000-character one (answered), on the host and from programs.
import { spawn } from "node:child_process"
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { createRequire } from "node:module"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { CodeMode, Tool } from "@codemode/core"
import { Effect } from "effect"
import { TypeModel } from "@codemode/core/plugin"
import { OpenAPI } from "@codemode/openapi"
import * as Queries from "./discovery-queries.mjs"

const require = createRequire(import.meta.url)

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
}

/** The plain baseline: BM25 (k1 1.2, b 0.75) over path + description + parameter names, split on non-alphanumerics. */
const bm25 = (entries) => {
  const tokenize = (text) =>
    text
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter(Boolean)
  const names = (type, depth = 0, out = []) => {
    if (depth > 2) return out
    if (type.kind === "object")
      for (const p of type.properties) {
        out.push(p.name)
        names(p.type, depth + 1, out)
      }
    return out
  }
  const docs = entries.map((e) =>
    tokenize(`${e.path} ${e.description} ${names(TypeModel.fromSchema(e.input)).join(" ")}`),
  )
  const df = new Map()
  for (const doc of docs) for (const t of new Set(doc)) df.set(t, (df.get(t) ?? 0) + 1)
  const avg = docs.reduce((n, d) => n + d.length, 0) / docs.length
  const tfs = docs.map((doc) => {
    const tf = new Map()
    for (const t of doc) tf.set(t, (tf.get(t) ?? 0) + 1)
    return tf
  })
  return (query) => {
    const terms = [...new Set(tokenize(query))]
    const scored = entries.map((e, i) => {
      let score = 0
      for (const t of terms) {
        const f = tfs[i].get(t)
        if (!f) continue
        const n = df.get(t)
        const idf = Math.log(1 + (docs.length - n + 0.5) / (n + 0.5))
        score += (idf * f * 2.2) / (f + 1.2 * (0.25 + (0.75 * docs[i].length) / avg))
      }
      return { path: e.path, score }
    })
    return scored
      .filter((s) => s.score > 0)
      .sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : 1))
      .map((s) => s.path)
  }
}

/** recall@1, recall@5 and MRR@10 of `rank` (query → ranked paths) over the labeled queries. */
const quality = (queries, mount, rank) => {
  let at1 = 0
  let at5 = 0
  let mrr = 0
  const misses = []
  for (const { query, expect } of queries) {
    const wanted = new Set(expect.map((p) => `${mount}.${p}`))
    const ranked = rank(query).slice(0, 10)
    const position = ranked.findIndex((p) => wanted.has(p))
    if (position === 0) at1++
    if (position >= 0 && position < 5) at5++
    if (position >= 0) mrr += 1 / (position + 1)
    if (position !== 0) misses.push(`${query} → ${position < 0 ? "not in 10" : `#${position + 1}`} (${ranked[0]})`)
  }
  const n = queries.length
  return { at1: at1 / n, at5: at5 / n, mrr: mrr / n, misses }
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.on("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })

/** Start the installed `opencode serve` in a throwaway home and read its `/doc`. */
const openCodeDoc = async () => {
  if (process.env.CODEMODE_BENCH_OPENCODE_DOC)
    return JSON.parse(readFileSync(process.env.CODEMODE_BENCH_OPENCODE_DOC, "utf8"))
  const binary = join(dirname(require.resolve("opencode-ai/package.json")), "..", ".bin", "opencode")
  const home = mkdtempSync(join(tmpdir(), "codemode-bench-opencode-"))
  mkdirSync(join(home, "project"))
  const port = await freePort()
  const password = `bench-${process.pid}-${Date.now()}`
  const authorization = `Basic ${Buffer.from(`bench:${password}`).toString("base64")}`
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    XDG_CONFIG_HOME: join(home, "config"),
    XDG_DATA_HOME: join(home, "data"),
    XDG_CACHE_HOME: join(home, "cache"),
    XDG_STATE_HOME: join(home, "state"),
    OPENCODE_SERVER_USERNAME: "bench",
    OPENCODE_SERVER_PASSWORD: password,
    OPENCODE_DISABLE_AUTOUPDATE: "1",
    OPENCODE_DISABLE_MODELS_FETCH: "1",
    OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
    OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
    OPENCODE_DISABLE_SHARE: "1",
    OPENCODE_DISABLE_CLAUDE_CODE: "1",
    OPENCODE_DISABLE_EXTERNAL_SKILLS: "1",
  }
  const child = spawn(binary, ["serve", "--hostname", "127.0.0.1", "--port", String(port)], {
    cwd: join(home, "project"),
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  })
  let output = ""
  child.stdout.on("data", (d) => (output += d))
  child.stderr.on("data", (d) => (output += d))
  try {
    const deadline = Date.now() + 120_000
    for (;;) {
      if (child.exitCode !== null) throw new Error(`opencode serve exited: ${output.slice(-2000)}`)
      try {
        const response = await fetch(`http://127.0.0.1:${port}/doc`, {
          headers: { authorization },
          signal: AbortSignal.timeout(60_000),
        })
        if (response.ok) return await response.json()
      } catch {}
      if (Date.now() > deadline) throw new Error(`opencode serve did not answer /doc: ${output.slice(-2000)}`)
      await new Promise((r) => setTimeout(r, 250))
    }
  } finally {
    if (child.exitCode === null) process.kill(-child.pid, "SIGTERM")
    rmSync(home, { recursive: true, force: true })
  }
}

const githubSpec = JSON.parse(
  readFileSync(
    join(dirname(require.resolve("@octokit/openapi/package.json")), "generated", "api.github.com.json"),
    "utf8",
  ),
)
const catalogs = [
  {
    name: "GitHub",
    mount: "github",
    api: OpenAPI.fromSpec({ spec: githubSpec }),
    sets: [
      ["labeled", Queries.github],
      ["second set", Queries.githubLater],
    ],
  },
  {
    name: "OpenCode",
    mount: "opencode",
    api: OpenAPI.fromSpec({ spec: await openCodeDoc(), baseUrl: "http://127.0.0.1:4096" }),
    sets: [
      ["labeled", Queries.opencode],
      ["second set", Queries.opencodeLater],
    ],
  },
]

const rows = []
const pages = []
const times = []
const runtimes = []
for (const { name, mount, api, sets } of catalogs) {
  const queries = sets.flatMap(([, q]) => q)
  const runtime = CodeMode.make({ language: "lua", tools: { [mount]: api.tools } })
  runtimes.push(runtime)
  let t0 = performance.now()
  runtime.search({ query: queries[0].query })
  const firstMs = performance.now() - t0
  const entries = Object.entries(api.tools).map(([path, tool]) => ({
    path: `${mount}.${path}`,
    description: tool.description,
    input: tool.input,
  }))
  t0 = performance.now()
  const baseline = bm25(entries)
  const baselineMs = performance.now() - t0
  const ours = (query) => runtime.search({ query, limit: 10 }).items.map((i) => i.path)
  for (const [set, labeled] of sets) {
    const q = quality(labeled, mount, ours)
    const b = quality(labeled, mount, baseline)
    rows.push({ name: `${name} (${entries.length} tools), ${set}`, n: labeled.length, q, b })
    if (process.env.CODEMODE_BENCH_MISSES) console.log(`${name} ${set} misses:\n  ${q.misses.join("\n  ")}`)
  }
  for (const language of ["lua", "javascript"]) {
    const rt = language === "lua" ? runtime : CodeMode.make({ language, tools: { [mount]: api.tools } })
    const sizes = queries.map(({ query }) => Buffer.byteLength(JSON.stringify(rt.search({ query }))))
    pages.push({
      name: `${name}, ${language === "lua" ? "Lua" : "JavaScript"}`,
      p50: percentile(sizes, 50) / 4,
      max: Math.max(...sizes) / 4,
      maxBytes: Math.max(...sizes),
      over: sizes.filter((b) => b > 65_536).length,
    })
  }
  const elapsed = []
  const baselineElapsed = []
  for (let round = 0; round < 5; round++)
    for (const { query } of queries) {
      let t = performance.now()
      runtime.search({ query })
      elapsed.push(performance.now() - t)
      t = performance.now()
      baseline(query)
      baselineElapsed.push(performance.now() - t)
    }
  times.push({
    name,
    tools: entries.length,
    firstMs,
    baselineMs,
    p50: percentile(elapsed, 50),
    p95: percentile(elapsed, 95),
    baseline50: percentile(baselineElapsed, 50),
  })
}

// The host answers a 1,000,000-character query (refused) and a 1,000-character one (answered) at once, and so does
// a program that sends one.
const github = runtimes[0]
const huge = "A".repeat(1_000_000)
const long = "ListPullRequestsForARepository ".repeat(40).slice(0, 1000)
// 32 different common words in every order, up to the 1,000-character bound: the most work one query can ask for.
const common = (
  "list get create update delete repository issue pull request user organization team commit branch " +
  "release workflow run secret comment label milestone review file content tag hook key token event alert check status"
).split(" ")
let adversarial = ""
for (let i = 0; adversarial.length < 990; i++) adversarial += `${common[(i * 7) % common.length]} `
adversarial = adversarial.slice(0, 1000)
const adversarialTimes = []
const hugeTimes = []
const longTimes = []
for (let i = -3; i < 30; i++) {
  let t0 = performance.now()
  try {
    github.search({ query: huge })
  } catch {}
  if (i >= 0) hugeTimes.push(performance.now() - t0)
  t0 = performance.now()
  github.search({ query: long })
  if (i >= 0) longTimes.push(performance.now() - t0)
  t0 = performance.now()
  github.search({ query: adversarial })
  if (i >= 0) adversarialTimes.push(performance.now() - t0)
}
// From a program, the time also covers making the string and sending it to the host; a tool call with the same
// string as its input is the reference for that part.
const echo = Tool.make({
  description: "Take a text and answer null",
  input: { type: "object" },
  execute: () => Effect.succeed(null),
})
const programTimes = { lua: [], javascript: [], luaTool: [], javascriptTool: [] }
for (const language of ["lua", "javascript"]) {
  const rt = CodeMode.make({ language, tools: { github: catalogs[0].api.tools, echo } })
  const lua = language === "lua"
  const search = lua
    ? 'local ok, e = pcall(search, { query = string.rep("A", 1000000) }) return e'
    : 'let m = null; try { search({ query: "A".repeat(1000000) }) } catch (e) { m = e.message } m'
  const tool = lua
    ? 'tools.echo({ query = string.rep("A", 1000000) }) return 1'
    : 'await tools.echo({ query: "A".repeat(1000000) }); 1'
  const run = async (code) => {
    const t0 = performance.now()
    const result = await Effect.runPromise(rt.execute(code))
    return { result, ms: performance.now() - t0 }
  }
  for (let i = -2; i < 10; i++) {
    const refused = await run(search)
    if (!refused.result.ok || !String(refused.result.value).includes("at most 1000"))
      throw new Error(JSON.stringify(refused.result))
    const called = await run(tool)
    if (!called.result.ok) throw new Error(JSON.stringify(called.result))
    const empty = await run(lua ? "return 1" : "1")
    if (i < 0) continue
    programTimes[language].push(refused.ms - empty.ms)
    programTimes[`${language}Tool`].push(called.ms - empty.ms)
  }
}

const f = (x) => x.toFixed(2)
console.log("## discovery")
console.log(
  "| catalog, query set | queries | recall@1 | recall@5 | MRR@10 | BM25 recall@1 | BM25 recall@5 | BM25 MRR@10 |",
)
console.log("|---|---|---|---|---|---|---|---|")
for (const { name, n, q, b } of rows)
  console.log(`| ${name} | ${n} | ${f(q.at1)} | ${f(q.at5)} | ${f(q.mrr)} | ${f(b.at1)} | ${f(b.at5)} | ${f(b.mrr)} |`)
console.log("")
console.log("| default page (10 hits) | tokens p50 | tokens max | bytes max | pages over 65,536 bytes |")
console.log("|---|---|---|---|---|")
for (const p of pages)
  console.log(`| ${p.name} | ${p.p50.toFixed(0)} | ${p.max.toFixed(0)} | ${p.maxBytes} | ${p.over} |`)
console.log("")
console.log("| search time | p50 | p95 | BM25 p50 | target |")
console.log("|---|---|---|---|---|")
for (const t of times)
  console.log(
    `| ${t.name} (${t.tools} tools) | ${f(t.p50)} ms | ${f(t.p95)} ms | ${f(t.baseline50)} ms | ≤ 2 ms p50 over ~1,220 tools |`,
  )
for (const t of times)
  console.log(
    `| ${t.name}: first search (builds the index) | ${t.firstMs.toFixed(0)} ms | – | ${t.baselineMs.toFixed(0)} ms | – |`,
  )
console.log(
  `| 1,000,000-character query, host (refused) | ${f(percentile(hugeTimes, 50))} ms | ${f(percentile(hugeTimes, 95))} ms | – | ≤ 10 ms |`,
)
for (const language of ["lua", "javascript"]) {
  const name = language === "lua" ? "Lua" : "JavaScript"
  const times = programTimes[language]
  const tool = programTimes[`${language}Tool`]
  console.log(
    `| 1,000,000-character query from a ${name} program (refused; minus an empty run) | ${f(percentile(times, 50))} ms | ${f(percentile(times, 95))} ms | – | ≤ 10 ms |`,
  )
  console.log(
    `| reference: a ${name} tool call with the same 1,000,000-character input (minus an empty run) | ${f(percentile(tool, 50))} ms | ${f(percentile(tool, 95))} ms | – | – |`,
  )
}
console.log(
  `| 1,000-character query, host (answered) | ${f(percentile(longTimes, 50))} ms | ${f(percentile(longTimes, 95))} ms | – | – |`,
)
console.log(
  `| 1,000 characters of 32 different common words, host (answered) | ${f(percentile(adversarialTimes, 50))} ms | ${f(percentile(adversarialTimes, 95))} ms | – | – |`,
)
