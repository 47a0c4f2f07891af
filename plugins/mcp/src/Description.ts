/**
 * What the model reads: the descriptions of `search` and `execute`, and the server's `instructions`.
 *
 * `execute` carries the language guide and a summary of the catalog, so a model can write a program at once or
 * search first: core's `runtime.instructions({ budgetTokens })` (the guide plus the catalog's groups and brief
 * signatures within a token budget) where the runtime offers it, else the guide and the catalog's namespaces with
 * their tool counts.
 */
import { CodeMode } from "@codemode/core"

/** The runtime as far as descriptions need it. */
export interface Described {
  readonly language: string
  readonly catalog: ReadonlyArray<CodeMode.CatalogEntry>
  /** The guide and a catalog summary within a token budget, where core offers it. */
  readonly instructions?: (options?: { readonly budgetTokens?: number }) => string
}

/** The budget of the guide and catalog in `execute`'s description, in tokens of 4 characters. */
export const defaultBudgetTokens = 2_000

/** The most namespace lines `execute`'s description lists; deeper namespaces fold into their parents past it. */
export const maxNamespaceLines = 40

const languageName = (language: string) =>
  language === "lua" ? "Lua" : language === "javascript" ? "JavaScript" : language

/**
 * The namespaces of the catalog with their tool counts, as deep as fits in `maxNamespaceLines` lines. Tools at the
 * top level count under "(top level)".
 */
export const namespaces = (paths: ReadonlyArray<string>, maxLines = maxNamespaceLines) => {
  const split = paths.map((path) => path.split("."))
  const deepest = Math.max(1, ...split.map((s) => s.length - 1))
  let best = new Map<string, number>()
  for (let depth = deepest; depth >= 1; depth--) {
    const groups = new Map<string, number>()
    for (const segments of split) {
      const key = segments.length === 1 ? "" : segments.slice(0, Math.min(depth, segments.length - 1)).join(".")
      groups.set(key, (groups.get(key) ?? 0) + 1)
    }
    best = groups
    if (groups.size <= maxLines) break
  }
  return [...best].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
}

const namespaceLines = (runtime: Described): string => {
  const language = runtime.language === "lua" ? "lua" : "javascript"
  const groups = namespaces(runtime.catalog.map((entry) => entry.path))
  const lines = groups
    .slice(0, maxNamespaceLines)
    .map(
      ([name, count]) =>
        `- ${name === "" ? "(top level)" : CodeMode.toolExpression(name, language)}: ${count} tool${count === 1 ? "" : "s"}`,
    )
  if (groups.length > maxNamespaceLines) lines.push(`- … ${groups.length - maxNamespaceLines} more namespaces`)
  return lines.join("\n")
}

/** The language guide and the catalog: core's budgeted instructions, or the guide and the namespaces. */
export const guideAndCatalog = (runtime: Described, guide: string | undefined, budgetTokens: number): string => {
  if (runtime.instructions) return runtime.instructions({ budgetTokens })
  const catalog =
    runtime.catalog.length === 0
      ? "There are no tools."
      : `${runtime.catalog.length} tools, in these namespaces (find exact paths and signatures with search):\n${namespaceLines(runtime)}`
  return [guide?.trim(), catalog].filter((part) => part !== undefined && part !== "").join("\n\n")
}

/** The description of `execute`. */
export const execute = (runtime: Described, guide: string | undefined, budgetTokens = defaultBudgetTokens): string =>
  `Run a ${languageName(runtime.language)} program that calls the tools below and returns one JSON result. ` +
  "Do the whole task in one program: loop, filter and combine tool results inside it, and return only what you need. " +
  "The answer is the program's Result: { ok, value } or { ok = false, error: { kind, message, location } }, with its " +
  "logs and every tool call.\n\n" +
  guideAndCatalog(runtime, guide, budgetTokens)

/** The description of `search`. */
export const search = (runtime: Described): string =>
  `Find tools for an execute program: returns { items: [{ path, description, signature }], remaining, next }, ` +
  `signatures in ${languageName(runtime.language)}. An exact path looks one tool up; namespace limits the search; ` +
  "an empty query browses; limit and offset page. Programs can call search(...) themselves too."

/** The server's `instructions` at initialization: the same, briefly. */
export const instructions = (runtime: Described): string =>
  `This server runs ${languageName(runtime.language)} programs over ${runtime.catalog.length} tools. ` +
  "Use search to find tools and their signatures, then execute one program that calls them and returns the answer; " +
  "the execute description has the language guide and the namespaces."
