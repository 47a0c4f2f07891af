/**
 * The built-in `search`: exact-path lookup, namespace scope, empty-query browsing and a deterministic additive
 * ranking over paths, descriptions, namespace descriptions and input properties.
 */
import type { DataValue } from "./Data.js"
import type { Entry } from "./ToolTree.js"
import * as TypeModel from "./TypeModel.js"

/** The search request a program sends. */
export interface Request {
  readonly query: string
  readonly namespace?: string
  readonly limit: number
  readonly offset: number
}

/** One search hit. */
export interface Item {
  readonly path: string
  readonly description: string
  readonly signature: string
}

/** A page of hits: `remaining` counts the hits after this page; `next` is the offset of the next page or null. */
export interface Page {
  readonly items: ReadonlyArray<Item>
  readonly remaining: number
  readonly next: number | null
}

/** The largest page a program may ask for. */
export const maxLimit = 100

/** Scores of the ranking, highest first. */
export const weights = {
  pathOrName: 100,
  pathWord: 40,
  pathSubstring: 20,
  description: 10,
  context: 4,
} as const

/** Naive plural folding: `orders` → `order`, `categories` → `category`, `boxes` → `box`. */
export const fold = (word: string): string => {
  if (word.length > 4 && word.endsWith("ies")) return word.slice(0, -3) + "y"
  if (word.length > 4 && /(ss|sh|ch|x|z)es$/.test(word)) return word.slice(0, -2)
  if (word.length > 3 && word.endsWith("s") && !word.endsWith("ss")) return word.slice(0, -1)
  return word
}

/** Split text into lower-case words: separators, camelCase and digits. */
export const words = (text: string): ReadonlyArray<string> =>
  text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== "")

interface Indexed {
  readonly entry: Entry
  readonly path: string
  readonly name: string
  readonly pathWords: ReadonlySet<string>
  readonly description: string
  readonly context: string
}

/** A search index over a catalog. */
export interface Index {
  readonly items: ReadonlyArray<Indexed>
  readonly byPath: ReadonlyMap<string, Indexed>
}

/** Build the index of `entries` (already sorted by path). */
export const index = (entries: ReadonlyArray<Entry>): Index => {
  const items = entries.map((entry): Indexed => {
    const path = entry.path.toLowerCase()
    const last = entry.segments[entry.segments.length - 1].toLowerCase()
    return {
      entry,
      path,
      name: last,
      pathWords: new Set(words(entry.path).map(fold)),
      description: entry.tool.description.toLowerCase(),
      context: [...entry.namespaceDescriptions, ...TypeModel.propertyText(entry.inputType)].join("\n").toLowerCase(),
    }
  })
  return { items, byPath: new Map(items.map((item) => [item.entry.path, item])) }
}

const scoreTerm = (item: Indexed, term: string, folded: string): number => {
  if (term === item.path || term === item.name || folded === fold(item.name)) return weights.pathOrName
  if (item.pathWords.has(folded)) return weights.pathWord
  if (item.path.includes(term) || item.path.includes(folded)) return weights.pathSubstring
  if (item.description.includes(term) || item.description.includes(folded)) return weights.description
  if (item.context.includes(term) || item.context.includes(folded)) return weights.context
  return 0
}

/** Rank the index for a request and return one page; `render` gives each hit's signature. */
export const run = (idx: Index, request: Request, render: (entry: Entry) => string): Page => {
  const query = request.query.trim()
  const scope = request.namespace?.trim().replace(/\.$/, "")
  const inScope = (item: Indexed) => !scope || item.entry.path === scope || item.entry.path.startsWith(scope + ".")
  let ranked: ReadonlyArray<Indexed>
  const exact = idx.byPath.get(query)
  if (query === "") {
    ranked = idx.items.filter(inScope)
  } else {
    const terms = words(query).map((term) => [term, fold(term)] as const)
    const whole = query.toLowerCase()
    const scored: Array<{ item: Indexed; score: number }> = []
    for (const item of idx.items) {
      if (!inScope(item)) continue
      let score = 0
      if (terms.length > 1 && item.path === whole) score += weights.pathOrName
      for (const [term, folded] of terms) score += scoreTerm(item, term, folded)
      if (score > 0) scored.push({ item, score })
    }
    scored.sort((a, b) => b.score - a.score || (a.item.entry.path < b.item.entry.path ? -1 : 1))
    ranked = scored.map((s) => s.item)
    if (exact && inScope(exact)) ranked = [exact, ...ranked.filter((item) => item !== exact)]
  }
  const page = ranked.slice(request.offset, request.offset + request.limit)
  const end = request.offset + page.length
  const remaining = Math.max(0, ranked.length - end)
  return {
    items: page.map((item) => ({ path: item.entry.path, description: item.entry.tool.description, signature: render(item.entry) })),
    remaining,
    next: remaining > 0 ? end : null,
  }
}

/** Read a program's search input, or return an error message explaining what is wrong. */
export const parseRequest = (input: DataValue): Request | string => {
  if (input === null) return { query: "", limit: 10, offset: 0 }
  if (typeof input === "string") return { query: input, limit: 10, offset: 0 }
  if (typeof input !== "object" || Array.isArray(input))
    return "search expects { query?, namespace?, limit?, offset? }"
  const { query = "", namespace, limit = 10, offset = 0, ...rest } = input as Record<string, DataValue>
  const unknown = Object.keys(rest)
  if (unknown.length) return `search does not accept ${unknown.map((k) => `"${k}"`).join(", ")}; use query, namespace, limit and offset`
  if (typeof query !== "string") return "search: query must be a string"
  if (namespace !== undefined && namespace !== null && typeof namespace !== "string") return "search: namespace must be a string"
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > maxLimit)
    return `search: limit must be a whole number from 1 to ${maxLimit}`
  if (typeof offset !== "number" || !Number.isInteger(offset) || offset < 0) return "search: offset must be a whole number, 0 or more"
  return typeof namespace === "string" ? { query, namespace, limit, offset } : { query, limit, offset }
}
