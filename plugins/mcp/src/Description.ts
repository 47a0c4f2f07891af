/**
 * What the model reads: the descriptions of `search` and `execute`, and the server's `instructions`.
 *
 * `execute` carries the language guide and a summary of the catalog, so a model can write a program at once or
 * search first: core's `runtime.instructions({ budgetTokens })` (the guide plus the catalog's groups and brief
 * signatures within a token budget), the one source of both.
 */
import type { CodeMode } from "@codemode/core"

/** The runtime as far as descriptions need it. */
export type Described = Pick<CodeMode.Runtime<any>, "language" | "catalog" | "instructions">

const languageName = (language: string) =>
  language === "lua" ? "Lua" : language === "javascript" ? "JavaScript" : language

/**
 * The description of `execute`: what it answers, then core's guide and catalog summary within `budgetTokens` (core's
 * default when undefined).
 */
export const execute = (runtime: Described, budgetTokens?: number): string =>
  `Run a ${languageName(runtime.language)} program that calls the tools below and returns one JSON result. ` +
  "Do the whole task in one program: loop, filter and combine tool results inside it, and return only what you need. " +
  "The answer is the program's Result: { ok, value } or { ok = false, error: { kind, message, location } }, with its " +
  "logs and every tool call.\n\n" +
  runtime.instructions({ budgetTokens })

/** The description of `search`. */
export const search = (runtime: Described): string =>
  `Find tools for an execute program: returns { items: [{ path, description, signature }], remaining, next }, ` +
  `signatures in ${languageName(runtime.language)}. An exact path looks one tool up; namespace limits the search; ` +
  "an empty query browses; limit and offset page. Programs can call search(...) themselves too."

/** The server's `instructions` at initialization: the same, briefly. */
export const instructions = (runtime: Described): string =>
  `This server runs ${languageName(runtime.language)} programs over ${runtime.catalog.length} tools. ` +
  "Use search to find tools and their signatures, then execute one program that calls them and returns the answer; " +
  "the execute description has the language guide and a summary of the tools."
