/**
 * Discovery on a real catalog: the GitHub REST description (about 1,220 operations) through `OpenAPI.fromSpec`.
 * Ranking quality on the labeled tasks of the benchmark and on every operation's own summary, page sizes against the
 * default `maxOutputBytes`, exact lookups, and paging through the whole catalog.
 */
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { CodeMode, Search } from "@codemode/core"
import { OpenAPI } from "@codemode/openapi"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import * as Queries from "../bench/discovery-queries.mjs"

const require = createRequire(import.meta.url)
const spec = JSON.parse(
  readFileSync(
    join(dirname(require.resolve("@octokit/openapi/package.json")), "generated", "api.github.com.json"),
    "utf8",
  ),
)
const api = OpenAPI.fromSpec({ spec })
const lua = CodeMode.make({ language: "lua", tools: { github: api.tools } })
const javascript = CodeMode.make({ language: "javascript", tools: { github: api.tools } })
const ranked = (query: string) => lua.search({ query, limit: 10 }).items.map((i) => i.path)
const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value))
const median = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

describe("ranking on GitHub's REST API", () => {
  it("puts the right tool first for the labeled tasks: recall@1 ≥ 0.80, MRR@10 ≥ 0.85", () => {
    let first = 0
    let reciprocal = 0
    for (const { query, expect: wanted } of Queries.github) {
      const paths = new Set(wanted.map((w) => `github.${w}`))
      const position = ranked(query).findIndex((p) => paths.has(p))
      if (position === 0) first++
      if (position >= 0) reciprocal += 1 / (position + 1)
    }
    expect(Queries.github.length).toBeGreaterThanOrEqual(60)
    expect(first / Queries.github.length).toBeGreaterThanOrEqual(0.8)
    expect(reciprocal / Queries.github.length).toBeGreaterThanOrEqual(0.85)
  })

  it("finds the tools the issue names", () => {
    expect(ranked("get a repository")[0]).toBe("github.repos/get")
    expect(ranked("list pull requests")[0]).toBe("github.pulls/list")
    expect(ranked("create an issue")[0]).toBe("github.issues/create")
  })

  it("finds every operation by its own summary: first for nearly all, in the top 5 for all", () => {
    const summaryOf = (description: string) => description.split("\n").find((l) => l !== "Deprecated.") ?? ""
    const counts = new Map<string, number>()
    for (const tool of Object.values(api.tools)) {
      const summary = summaryOf(tool.description).toLowerCase()
      counts.set(summary, (counts.get(summary) ?? 0) + 1)
    }
    let unique = 0
    let first = 0
    const missed: string[] = []
    for (const [path, tool] of Object.entries(api.tools)) {
      const summary = summaryOf(tool.description)
      if (counts.get(summary.toLowerCase())! > 1) continue
      unique++
      const position = ranked(summary).indexOf(`github.${path}`)
      if (position === 0) first++
      if (position < 0 || position >= 5) missed.push(`${summary} → ${path}`)
    }
    expect(unique).toBeGreaterThan(1000)
    expect(missed).toEqual([])
    expect(first / unique).toBeGreaterThanOrEqual(0.95)
  })
})

describe("pages on GitHub's REST API", () => {
  it("a default page fits the default maxOutputBytes and is about 4,000 tokens at the median, in both languages", () => {
    for (const runtime of [lua, javascript]) {
      const sizes = Queries.github.map(({ query }) => bytes(runtime.search(query)))
      expect(Math.max(...sizes)).toBeLessThanOrEqual(Search.maxPageBytes + 200)
      expect(Math.max(...sizes)).toBeLessThan(65_536)
      expect(median(sizes) / 4).toBeLessThanOrEqual(4000)
    }
  })

  it("the page holding the largest signature comes back whole from a Lua program", async () => {
    // The program only searches: no tool runs, so no HTTP client is needed.
    const program = lua.execute('return search("timeline events of an issue")') as Effect.Effect<CodeMode.Result>
    const result = await Effect.runPromise(program)
    if (!result.ok) throw new Error(result.error.message)
    const page = result.value as unknown as Search.Page
    expect(page.items.map((i) => i.path)).toContain("github.issues/list-events-for-timeline")
    const item = page.items.find((i) => i.path === "github.issues/list-events-for-timeline")!
    expect(item.signature).toContain('-- summarised: search("github.issues/list-events-for-timeline")')
  })

  it("an exact path returns that tool alone with its full description and signature, a long one in parts", () => {
    const full = lua.catalog.find((c) => c.path === "github.repos/delete")!
    expect(full.signature.length).toBeLessThanOrEqual(Search.maxExactSignature)
    expect(lua.search("github.repos/delete")).toEqual({ items: [full], remaining: 0, next: null })
    expect(lua.search('tools.github["repos/delete"]')).toEqual({ items: [full], remaining: 0, next: null })
    // GitHub's longest signature (53 KB) comes in parts of at most maxExactSignature characters, `next` continuing;
    // without the note that ends each part but the last, the parts are the whole signature.
    const long = lua.catalog.find((c) => c.path === "github.issues/list-events-for-timeline")!
    expect(long.signature.length).toBeGreaterThan(3 * Search.maxExactSignature)
    const parts: string[] = []
    for (let offset: number | undefined = 0; offset !== undefined; ) {
      const page: Search.Page = lua.search({ query: 'tools.github["issues/list-events-for-timeline"]', offset })
      expect(page.items.map((i) => i.path)).toEqual([long.path])
      expect(page.items[0].description).toBe(offset === 0 ? long.description : "")
      expect(page.items[0].signature.length).toBeLessThanOrEqual(Search.maxExactSignature)
      parts.push(page.items[0].signature)
      offset = page.next?.offset
    }
    const note = /\n-- signature part \d+ of \d+: search for the same path with offset \d+ for part \d+$/
    expect(parts.map((p, i) => (i < parts.length - 1 ? p.replace(note, "\n") : p)).join("")).toBe(long.signature)
  })

  it("pages through the whole catalog with next, each page within its byte bound", () => {
    const seen: string[] = []
    let request: { query: string; limit: number; offset?: number } = { query: "", limit: 100 }
    for (let pages = 0; pages < 100; pages++) {
      const page = lua.search(request)
      expect(bytes(page.items)).toBeLessThanOrEqual(Search.maxPageBytes + 200)
      seen.push(...page.items.map((i) => i.path))
      if (page.next === null) break
      expect(page.remaining).toBe(lua.catalog.length - seen.length)
      request = { ...request, ...page.next }
    }
    expect(seen).toEqual(lua.catalog.map((c) => c.path))
  })
})
