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
}

/** Where each alphanumeric run of a text field occurs: run → indices of the tools whose field contains it. */
type Postings = Map<string, number[]>

/** A search index over a catalog. */
export interface Index {
  readonly items: ReadonlyArray<Indexed>
  readonly byPath: ReadonlyMap<string, Indexed>
  readonly path: Postings
  readonly description: Postings
  readonly context: Postings
}

const runs = (text: string): ReadonlyArray<string> =>
  text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== "")

const post = (postings: Postings, text: string, item: number) => {
  for (const run of new Set(runs(text))) {
    const list = postings.get(run)
    if (list) list.push(item)
    else postings.set(run, [item])
  }
}

/** Build the index of `entries` (already sorted by path). */
export const index = (entries: ReadonlyArray<Entry>): Index => {
  const path: Postings = new Map()
  const description: Postings = new Map()
  const context: Postings = new Map()
  const items = entries.map((entry, i): Indexed => {
    post(path, entry.path, i)
    post(description, entry.tool.description, i)
    post(context, [...entry.namespaceDescriptions, ...TypeModel.propertyText(entry.inputType)].join("\n"), i)
    return {
      entry,
      path: entry.path.toLowerCase(),
      name: entry.segments[entry.segments.length - 1].toLowerCase(),
      pathWords: new Set(words(entry.path).map(fold)),
    }
  })
  return { items, byPath: new Map(items.map((item) => [item.entry.path, item])), path, description, context }
}

/**
 * The tools whose field contains `term` or `folded` as a substring. A term has no separators, so it can only occur
 * inside one alphanumeric run: matching the distinct runs is the same as scanning the whole text, and much faster.
 */
const containing = (postings: Postings, term: string, folded: string): ReadonlySet<number> => {
  const out = new Set<number>()
  for (const [run, list] of postings) {
    if (run.includes(term) || (folded !== term && run.includes(folded))) for (const i of list) out.add(i)
  }
  return out
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
    const whole = query.toLowerCase()
    const scores = new Map<number, number>()
    const add = (i: number, score: number) => scores.set(i, (scores.get(i) ?? 0) + score)
    const terms = words(query)
    for (const term of terms) {
      const folded = fold(term)
      const inPath = containing(idx.path, term, folded)
      const inDescription = containing(idx.description, term, folded)
      const inContext = containing(idx.context, term, folded)
      for (const i of new Set([...inPath, ...inDescription, ...inContext])) {
        const item = idx.items[i]
        if (term === item.path || term === item.name || folded === fold(item.name)) add(i, weights.pathOrName)
        else if (item.pathWords.has(folded)) add(i, weights.pathWord)
        else if (inPath.has(i)) add(i, weights.pathSubstring)
        else if (inDescription.has(i)) add(i, weights.description)
        else add(i, weights.context)
      }
    }
    if (terms.length > 1) {
      const wholePath = idx.items.findIndex((item) => item.path === whole)
      if (wholePath >= 0) add(wholePath, weights.pathOrName)
    }
    ranked = [...scores]
      .filter(([i]) => inScope(idx.items[i]))
      .sort(([a, sa], [b, sb]) => sb - sa || a - b)
      .map(([i]) => idx.items[i])
    if (exact && inScope(exact)) ranked = [exact, ...ranked.filter((item) => item !== exact)]
  }
  const page = ranked.slice(request.offset, request.offset + request.limit)
  const end = request.offset + page.length
  const remaining = Math.max(0, ranked.length - end)
  return {
    items: page.map((item) => ({
      path: item.entry.path,
      description: item.entry.tool.description,
      signature: render(item.entry),
    })),
    remaining,
    next: remaining > 0 ? end : null,
  }
}

/** Read a program's search input, or return an error message explaining what is wrong. */
export const parseRequest = (input: DataValue): Request | string => {
  if (input === null) return { query: "", limit: 10, offset: 0 }
  if (typeof input === "string") return { query: input, limit: 10, offset: 0 }
  if (typeof input !== "object" || Array.isArray(input)) return "search expects { query?, namespace?, limit?, offset? }"
  const { query = "", namespace, limit = 10, offset = 0, ...rest } = input as Record<string, DataValue>
  const unknown = Object.keys(rest)
  if (unknown.length)
    return `search does not accept ${unknown.map((k) => `"${k}"`).join(", ")}; use query, namespace, limit and offset`
  if (typeof query !== "string") return "search: query must be a string"
  if (namespace !== undefined && namespace !== null && typeof namespace !== "string")
    return "search: namespace must be a string"
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > maxLimit)
    return `search: limit must be a whole number from 1 to ${maxLimit}`
  if (typeof offset !== "number" || !Number.isInteger(offset) || offset < 0)
    return "search: offset must be a whole number, 0 or more"
  return typeof namespace === "string" ? { query, namespace, limit, offset } : { query, limit, offset }
}
