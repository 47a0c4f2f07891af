/**
 * The built-in `search`: exact-path lookup, namespace scope, empty-query browsing and a deterministic ranking.
 *
 * Ranking is BM25F over five fields of each tool (its path, its summary — the first line of its description —,
 * the rest of the description, the descriptions of enclosing namespaces, and its input's property names and docs),
 * with term rarity (IDF) as the weight of each query word, stopwords ignored and words stemmed (see `Words`). On top
 * of that, a tool scores more when its summary has the query's words in the query's order, and the more of its
 * summary and of its name the query covers. Equal scores go to the shorter path. A query word also matches related
 * verbs (`remove` for `delete`) and, from four letters, the longer words it begins (`deploy` → `deployments`), each
 * at a lower weight and never more than its own rarity; no word matches inside another.
 *
 * Everything a program sends is bounded before any work: the query and namespace lengths and the number of query
 * words; tokenizing is one linear pass. Pages are compact and bounded in bytes: each hit shows its path, its
 * description (shortened) and its signature with the input complete and a large output summarised; an exact-path
 * query returns that one tool with its full description and signature, a signature longer than
 * {@link maxExactSignature} in parts (one a page, `next` continuing).
 */
import type { DataValue } from "./Data.js"
import type { Entry } from "./ToolTree.js"
import * as TypeModel from "./TypeModel.js"
import { maxLimit, maxQueryWords, tooLong } from "./SearchBounds.js"
import * as Words from "./Words.js"

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

/** A page of hits: `remaining` counts the hits after this page; `next` is the request for the next page, or null. */
export interface Page {
  readonly items: ReadonlyArray<Item>
  readonly remaining: number
  readonly next: { readonly offset: number } | null
}

export { maxLimit, maxQueryLength, maxQueryWords } from "./SearchBounds.js"

/** The longest description a ranked page shows per hit, in characters; an exact-path lookup shows all of it. */
export const maxPageDescription = 400

/** The longest signature a ranked page shows per hit, in characters (plus a one-line note when it is summarised). */
export const maxPageSignature = 1_600

/**
 * The most bytes (UTF-8 JSON) of a page's hits: a page ends early rather than exceed it, so that `return search(...)`
 * fits the default `maxOutputBytes` (64 KiB) of Lua. `next` then continues after the last hit shown.
 */
export const maxPageBytes = 48 * 1024

/**
 * The longest part of a signature an exact-path lookup shows on one page, in characters: a longer signature is cut
 * at line ends into parts of at most this many, one a page (`offset` 0, 1, …), each but the last ending with a
 * comment that says how to read on. 16,000 characters are about 4,000 tokens.
 */
export const maxExactSignature = 16_000

/**
 * How a page renders a hit: `full` for an exact-path lookup, `summary` for ranked and browsed pages, and `comment`
 * for a line of explanation inside a signature.
 */
export interface Renderer {
  readonly full: (entry: Entry) => string
  readonly summary: (entry: Entry) => string
  readonly comment: (text: string) => string
}

// ---------------------------------------------------------------------------------------------------------------
// The index

/** The fields of a tool that ranking reads: path, summary, the rest of the description, context, input. */
const fieldCount = 5

/** The ranking's constants. */
const tuning = {
  /** How much a match in each field counts, by field. */
  weight: [3, 3, 1, 0.6, 0.4],
  /** How much a field's length dampens its matches (BM25's b), by field. */
  lengthNorm: [0.6, 0.5, 0.75, 0.5, 0.75],
  /** BM25's k1: how soon repeated matches stop adding. */
  k1: 1.2,
  /** A prefix match (`deploy` → `deployments`) counts this much of a whole-word match. */
  prefix: 0.5,
  /** A related word (`remove` for `delete`, see `Words.related`) counts this much of a whole-word match. */
  related: 0.4,
  /** Bonus per query bigram found in the summary, times the bigram's mean IDF. */
  phrase: 0.6,
  /** Bonus times the IDF of the summary words the query has, times the share of the summary they make. */
  summary: 1,
  /** Bonus times the IDF of the name words the query has, times the share of the name they make. */
  name: 0.8,
  /** Factor for a tool whose description starts with "Deprecated". */
  deprecated: 0.7,
} as const

interface Doc {
  readonly entry: Entry
  /** Number of terms, by field. */
  readonly length: ReadonlyArray<number>
  /** The summary's terms in order, as adjacent pairs `a b`. */
  readonly bigrams: ReadonlySet<string>
  /** How many distinct terms the summary has. */
  readonly summaryTerms: number
  /** How many distinct terms the tool's name has (its path without words most tools share, such as a mount). */
  readonly nameTerms: number
  readonly deprecated: boolean
}

/** Where a term occurs: `(doc, field, frequency)` triples, docs ascending, and the number of distinct docs. */
interface Postings {
  readonly triples: number[]
  docs: number
  last: number
}

/** A search index over a catalog. */
export interface Index {
  readonly docs: ReadonlyArray<Doc>
  readonly byPath: ReadonlyMap<string, Doc>
  /** Namespace paths (every proper prefix of a tool path). */
  readonly namespaces: ReadonlySet<string>
  /** Term → where it occurs. */
  readonly postings: ReadonlyMap<string, Postings>
  /** Every term, sorted, for prefix matches. */
  readonly vocabulary: ReadonlyArray<string>
  /** Mean field lengths. */
  readonly meanLength: ReadonlyArray<number>
  /** Path terms of more than half the tools (a mount such as `github`): they name no tool in particular. */
  readonly common: ReadonlySet<string>
}

const count = (terms: ReadonlyArray<string>): Map<string, number> => {
  const tf = new Map<string, number>()
  for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1)
  return tf
}

/** The summary line of a description: its first line, after a leading "Deprecated." line. */
const summaryOf = (description: string): { summary: string; rest: string; deprecated: boolean } => {
  const lines = description.split("\n")
  let first = 0
  while (first < lines.length && lines[first].trim() === "") first++
  const deprecated = /^deprecated\b/i.test(lines[first]?.trim() ?? "")
  if (deprecated && /^deprecated[.:!]?$/i.test(lines[first].trim()) && first + 1 < lines.length) first++
  return { summary: lines[first] ?? "", rest: lines.slice(first + 1).join("\n"), deprecated }
}

/** Build the index of `entries` (already sorted by path). */
export const index = (entries: ReadonlyArray<Entry>): Index => {
  const postings = new Map<string, Postings>()
  const namespaces = new Set<string>()
  const stems = new Map<string, string>()
  const pathTerms = entries.map((entry) => Words.terms(entry.path, stems))
  const pathFrequency = count(pathTerms.flatMap((terms) => [...new Set(terms)]))
  const common = new Set(
    entries.length > 2 ? [...pathFrequency].filter(([, n]) => n > entries.length / 2).map(([t]) => t) : [],
  )
  const docs = entries.map((entry, i): Doc => {
    for (let k = 1; k < entry.segments.length; k++) namespaces.add(entry.segments.slice(0, k).join("."))
    const { summary, rest, deprecated } = summaryOf(entry.tool.description)
    const summaryTerms = Words.terms(summary, stems)
    const fields = [
      pathTerms[i],
      summaryTerms,
      Words.terms(rest, stems),
      Words.terms(entry.namespaceDescriptions.join("\n"), stems),
      Words.terms(TypeModel.propertyText(entry.inputType).join("\n"), stems),
    ]
    for (let f = 0; f < fieldCount; f++)
      for (const [term, frequency] of count(fields[f])) {
        let list = postings.get(term)
        if (!list) {
          list = { triples: [], docs: 0, last: -1 }
          postings.set(term, list)
        }
        list.triples.push(i, f, frequency)
        if (list.last !== i) {
          list.docs++
          list.last = i
        }
      }
    const bigrams = new Set<string>()
    for (let k = 1; k < summaryTerms.length; k++) bigrams.add(`${summaryTerms[k - 1]} ${summaryTerms[k]}`)
    return {
      entry,
      length: fields.map((f) => f.length),
      bigrams,
      summaryTerms: new Set(summaryTerms).size,
      nameTerms: new Set(pathTerms[i].filter((t) => !common.has(t))).size,
      deprecated,
    }
  })
  const meanLength = Array.from({ length: fieldCount }, (_, f) =>
    docs.length === 0 ? 1 : Math.max(1, docs.reduce((n, d) => n + d.length[f], 0) / docs.length),
  )
  return {
    docs,
    byPath: new Map(docs.map((d) => [d.entry.path, d])),
    namespaces,
    postings,
    vocabulary: [...postings.keys()].sort(),
    meanLength,
    common,
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Exact paths

/**
 * Read a query written as a tool path or the expression that calls it: `orders.lookup`, `tools.orders.lookup`,
 * `tools.orders["lookup-by-id"]`, `tools['orders']['lookup']`. Returns the dotted path, or undefined when the query
 * is not written that way. One linear pass.
 */
export const pathOf = (query: string): { path: string; expression: boolean } | undefined => {
  const text = query.trim()
  const segments: string[] = []
  let i = 0
  let expression = false
  const name = () => {
    const start = i
    while (i < text.length && !/[.[\]\s"'()]/.test(text[i])) i++
    return text.slice(start, i)
  }
  const first = name()
  if (first === "") {
    if (text[i] !== "[") return undefined
  } else segments.push(first)
  while (i < text.length) {
    const c = text[i]
    if (c === ".") {
      i++
      const segment = name()
      if (segment === "") return undefined
      segments.push(segment)
    } else if (c === "[") {
      i++
      while (text[i] === " ") i++
      const quote = text[i]
      if (quote !== '"' && quote !== "'") return undefined
      i++
      let segment = ""
      while (i < text.length && text[i] !== quote) {
        if (text[i] === "\\" && i + 1 < text.length) i++
        segment += text[i]
        i++
      }
      i++
      while (text[i] === " ") i++
      if (text[i] !== "]") return undefined
      i++
      segments.push(segment)
      expression = true
    } else if (c === "(" && text.slice(i) === "()") {
      i = text.length
    } else return undefined
  }
  if (segments[0] === "tools" && segments.length > 1) {
    segments.shift()
    expression = true
  }
  if (segments.length === 0 || segments.some((s) => s === "")) return undefined
  return { path: segments.join("."), expression }
}

// ---------------------------------------------------------------------------------------------------------------
// Ranking

const idf = (idx: Index, docFrequency: number) =>
  Math.log(1 + (idx.docs.length - docFrequency + 0.5) / (docFrequency + 0.5))

/** The first position in the sorted vocabulary not before `prefix`. */
const lowerBound = (vocabulary: ReadonlyArray<string>, prefix: string) => {
  let lo = 0
  let hi = vocabulary.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (vocabulary[mid] < prefix) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** The most longer words one query word matches by prefix. */
const maxPrefixMatches = 64

/** A query word: the index terms it matches, with how much each counts, and its IDF. */
interface QueryTerm {
  readonly term: string
  readonly idf: number
  readonly matches: ReadonlyArray<{ readonly term: string; readonly weight: number }>
}

const queryTerm = (idx: Index, term: string): QueryTerm => {
  const found: Array<{ term: string; weight: number }> = []
  const exact = idx.postings.get(term)
  if (exact) found.push({ term, weight: 1 })
  for (const other of Words.related(term))
    if (other !== term && idx.postings.has(other)) found.push({ term: other, weight: tuning.related })
  if (term.length >= 4) {
    for (let k = lowerBound(idx.vocabulary, term); k < idx.vocabulary.length; k++) {
      const candidate = idx.vocabulary[k]
      if (!candidate.startsWith(term)) break
      if (found.some((m) => m.term === candidate)) continue
      found.push({ term: candidate, weight: tuning.prefix })
      if (found.length > maxPrefixMatches) break
    }
  }
  // A word the catalog only has in other forms is as rare as the most common of them.
  const frequency = (t: string) => idx.postings.get(t)!.docs
  const own = idf(idx, exact?.docs ?? Math.max(0, ...found.map((m) => frequency(m.term))))
  // Another form more common than the word itself says less: it counts in proportion to its own rarity.
  const matches = found.map((m) => ({
    term: m.term,
    weight: m.weight * Math.min(1, idf(idx, frequency(m.term)) / own),
  }))
  return { term, idf: own, matches }
}

/**
 * The ranked docs for a query's terms (in query order), best first. Each query word walks the postings of the terms
 * it matches once, so the work is proportional to those postings, not to the catalog.
 */
const rank = (idx: Index, terms: ReadonlyArray<string>, inScope: (doc: Doc) => boolean): ReadonlyArray<Doc> => {
  const byTerm = new Map<string, QueryTerm>()
  for (const t of terms) if (!byTerm.has(t)) byTerm.set(t, queryTerm(idx, t))
  const n = idx.docs.length
  const scores = new Float64Array(n)
  // Per doc: 0 not seen yet, 1 a candidate, 2 a candidate the current query word matched, 3 out of scope.
  const state = new Uint8Array(n)
  const candidates: number[] = []
  // Per doc, for the current query word: term frequency by field, and the best weight it has in the summary and in
  // the name. Summed over the query words: how much of the summary and of the name the query covers.
  const frequency = new Float64Array(n * fieldCount)
  const inSummary = new Float64Array(n)
  const inName = new Float64Array(n)
  const summaryShare = new Float64Array(n)
  const summaryIdf = new Float64Array(n)
  const nameShare = new Float64Array(n)
  const nameIdf = new Float64Array(n)
  const touched: number[] = []
  for (const q of byTerm.values()) {
    for (const m of q.matches) {
      const triples = idx.postings.get(m.term)!.triples
      const common = idx.common.has(m.term)
      for (let k = 0; k < triples.length; k += 3) {
        const d = triples[k]
        if (state[d] === 0) {
          if (!inScope(idx.docs[d])) {
            state[d] = 3
            continue
          }
          state[d] = 1
          candidates.push(d)
        }
        if (state[d] === 3) continue
        if (state[d] === 1) {
          state[d] = 2
          touched.push(d)
        }
        const field = triples[k + 1]
        frequency[d * fieldCount + field] += triples[k + 2] * m.weight
        if (field === 1 && m.weight > inSummary[d]) inSummary[d] = m.weight
        if (field === 0 && !common && m.weight > inName[d]) inName[d] = m.weight
      }
    }
    for (const d of touched) {
      const doc = idx.docs[d]
      let weighted = 0
      for (let f = 0; f < fieldCount; f++) {
        const tf = frequency[d * fieldCount + f]
        if (tf === 0) continue
        frequency[d * fieldCount + f] = 0
        const b = tuning.lengthNorm[f]
        weighted += (tuning.weight[f] * tf) / (1 - b + (b * doc.length[f]) / idx.meanLength[f])
      }
      scores[d] += (q.idf * weighted) / (tuning.k1 + weighted)
      summaryShare[d] += inSummary[d]
      summaryIdf[d] += inSummary[d] * q.idf
      nameShare[d] += inName[d]
      nameIdf[d] += inName[d] * q.idf
      inSummary[d] = 0
      inName[d] = 0
      state[d] = 1
    }
    touched.length = 0
  }
  const bigrams = new Map<string, number>()
  for (let k = 1; k < terms.length; k++)
    bigrams.set(`${terms[k - 1]} ${terms[k]}`, (byTerm.get(terms[k - 1])!.idf + byTerm.get(terms[k])!.idf) / 2)
  const scored: Array<{ doc: Doc; score: number }> = []
  for (const d of candidates) {
    const doc = idx.docs[d]
    let score = scores[d]
    // A summary has a few bigrams; a query can have hundreds.
    for (const bigram of doc.bigrams) {
      const weight = bigrams.get(bigram)
      if (weight !== undefined) score += tuning.phrase * weight
    }
    if (doc.summaryTerms > 0) score += tuning.summary * summaryIdf[d] * Math.min(1, summaryShare[d] / doc.summaryTerms)
    if (doc.nameTerms > 0) score += tuning.name * nameIdf[d] * Math.min(1, nameShare[d] / doc.nameTerms)
    if (doc.deprecated) score *= tuning.deprecated
    scored.push({ doc, score })
  }
  return scored
    .sort(
      (a, b) =>
        b.score - a.score ||
        a.doc.entry.path.length - b.doc.entry.path.length ||
        (a.doc.entry.path < b.doc.entry.path ? -1 : a.doc.entry.path > b.doc.entry.path ? 1 : 0),
    )
    .map((s) => s.doc)
}

// ---------------------------------------------------------------------------------------------------------------
// Pages

const shorten = (text: string, max: number): string => {
  if (text.length <= max) return text
  const space = text.lastIndexOf(" ", max - 1)
  return `${text.slice(0, space > max / 2 ? space : max - 1).trimEnd()}…`
}

const utf8Length = (text: string): number => {
  let bytes = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xd800 && c < 0xdc00 ? 2 : 3
  }
  return bytes
}

/** A page of `ranked` from `offset`: at most `limit` hits and {@link maxPageBytes} bytes, at least one hit. */
const page = (ranked: ReadonlyArray<Doc>, request: Request, renderer: Renderer): Page => {
  const items: Item[] = []
  let bytes = 0
  for (let k = request.offset; k < ranked.length && items.length < request.limit; k++) {
    const entry = ranked[k].entry
    const item = {
      path: entry.path,
      description: shorten(entry.tool.description, maxPageDescription),
      signature: renderer.summary(entry),
    }
    bytes += utf8Length(JSON.stringify(item)) + 1
    if (items.length > 0 && bytes > maxPageBytes) break
    items.push(item)
  }
  const end = Math.min(ranked.length, request.offset + items.length)
  const remaining = Math.max(0, ranked.length - end)
  return { items, remaining, next: remaining > 0 ? { offset: end } : null }
}

/**
 * `signature` cut at line ends into parts of at most `max` characters (a line longer than that is cut inside it).
 * Every part but the last leaves room for the continuation comment.
 */
export const signatureParts = (signature: string, max: number): ReadonlyArray<string> => {
  if (signature.length <= max) return [signature]
  const room = max - 200
  const parts: string[] = []
  let start = 0
  while (signature.length - start > max) {
    const cut = signature.lastIndexOf("\n", start + room)
    const end = cut > start ? cut + 1 : start + room
    parts.push(signature.slice(start, end))
    start = end
  }
  parts.push(signature.slice(start))
  return parts
}

/** The page of an exact-path lookup: the tool alone, its signature in parts when it is long. */
const exactPage = (entry: Entry, offset: number, renderer: Renderer): Page => {
  const parts = signatureParts(renderer.full(entry), maxExactSignature)
  if (offset >= parts.length) return { items: [], remaining: 0, next: null }
  const last = offset === parts.length - 1
  const more = `signature part ${offset + 1} of ${parts.length}: search for the same path with offset ${offset + 1} for part ${offset + 2}`
  const signature = last
    ? parts[offset]
    : `${parts[offset]}${parts[offset].endsWith("\n") ? "" : "\n"}${renderer.comment(more)}`
  const item = { path: entry.path, description: offset === 0 ? entry.tool.description : "", signature }
  return { items: [item], remaining: parts.length - 1 - offset, next: last ? null : { offset: offset + 1 } }
}

/** True when `path` is `scope` or inside it (every path is inside an absent scope). */
const within = (path: string, scope: string | undefined) =>
  !scope || path === scope || (path.startsWith(scope) && path[scope.length] === ".")

/** Rank the index for a request and return one page. */
export const run = (idx: Index, request: Request, renderer: Renderer): Page => {
  const namespace = request.namespace?.trim().replace(/\.$/, "")
  const scope = namespace ? (pathOf(namespace)?.path ?? namespace) : undefined
  const inScope = (doc: Doc) => within(doc.entry.path, scope)
  const query = request.query.trim()
  const written = pathOf(query)
  if (written) {
    const exact = idx.byPath.get(written.path) ?? (scope ? idx.byPath.get(`${scope}.${written.path}`) : undefined)
    if (exact && inScope(exact)) return exactPage(exact.entry, request.offset, renderer)
    // `tools.orders` browses the namespace.
    if (written.expression && idx.namespaces.has(written.path) && within(written.path, scope))
      return page(
        idx.docs.filter((doc) => within(doc.entry.path, written.path)),
        request,
        renderer,
      )
  }
  if (query === "") return page(idx.docs.filter(inScope), request, renderer)
  return page(rank(idx, Words.terms(query), inScope), request, renderer)
}

// ---------------------------------------------------------------------------------------------------------------
// Requests

const usage = "search expects a query string or { query?, namespace?, limit?, offset? }"

const checkQuery = (query: string): string | undefined => {
  const long = tooLong("query", query.length)
  if (long) return long
  const distinct = new Set(Words.terms(query)).size
  if (distinct > maxQueryWords)
    return `search: the query has ${distinct} different words; at most ${maxQueryWords} are accepted. Use a few keywords`
  return undefined
}

/** Read a program's search input, or return an error message explaining what is wrong. */
export const parseRequest = (input: DataValue): Request | string => {
  if (input === null) return { query: "", limit: 10, offset: 0 }
  if (typeof input === "string") return checkQuery(input) ?? { query: input, limit: 10, offset: 0 }
  if (typeof input !== "object" || Array.isArray(input)) return usage
  const { query = "", namespace, limit = 10, offset = 0, ...rest } = input as Record<string, DataValue>
  const unknown = Object.keys(rest)
  if (unknown.length)
    return `search does not accept ${unknown
      .slice(0, 5)
      .map((k) => `"${shorten(k, 40)}"`)
      .join(", ")}; use query, namespace, limit and offset`
  if (typeof query !== "string") return "search: query must be a string"
  const badQuery = checkQuery(query)
  if (badQuery) return badQuery
  if (namespace !== undefined && namespace !== null && typeof namespace !== "string")
    return "search: namespace must be a string"
  if (typeof namespace === "string") {
    const badNamespace = tooLong("namespace", namespace.length)
    if (badNamespace) return badNamespace
  }
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > maxLimit)
    return `search: limit must be a whole number from 1 to ${maxLimit}`
  if (typeof offset !== "number" || !Number.isInteger(offset) || offset < 0)
    return "search: offset must be a whole number, 0 or more"
  return typeof namespace === "string" ? { query, namespace, limit, offset } : { query, limit, offset }
}
