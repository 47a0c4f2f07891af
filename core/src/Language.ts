/**
 * Languages: what core needs to know about a language to run programs in it and describe tools to a model.
 *
 * A language describes itself: its package exports a {@link Definition} (the module the sandbox loads, its default
 * limits, its built-in names, its signature dialect and its model-facing guide). Core knows languages only by the
 * package names it looks for, and finds an installed one from the host's project as well as from its own folder, so
 * strict layouts (pnpm, Yarn PnP) work.
 */
import { createRequire } from "node:module"
import { Data, type Layer } from "effect"
import * as Contributions from "./Contributions.js"
import type { Limits } from "./Limits.js"
import type { Dialect } from "./Signature.js"

/** A language definition. */
export interface Definition {
  /** The name programs are run under, e.g. `lua`. */
  readonly name: string
  /** URL of the module the sandbox imports; it exports `run(request, host)`. */
  readonly workerModule: string
  /** Limits applied when the host sets none. */
  readonly defaults: Limits
  /** Whether extension calls count toward `maxToolCalls` (Lua: yes; JavaScript: no). */
  readonly extensionsCountTowardLimit: boolean
  /** Global names an extension may not shadow. */
  readonly builtins: ReadonlyArray<string>
  /** How signatures and tool expressions are written in this language. */
  readonly dialect: Dialect
  /** The model-facing guide to writing programs in this language. */
  readonly instructions: string
  /**
   * A short program that calls `tools.warmup.echo` with `{ n: 1, s: "a", list: [1, 2] }` and returns what it got
   * back: the host runs it once per process, off the critical path, so that a runtime's first execution does not pay
   * for warming up the host's side of executions (see `CodeMode.make`).
   */
  readonly warmUpProgram?: string
}

/** The packages core looks for, by language name. */
export const packages: Readonly<Record<string, string>> = {
  lua: "@codemode/lang-lua",
  javascript: "@codemode/lang-js",
}

/** The names of the languages core looks for. */
export const knownNames: ReadonlyArray<string> = Object.keys(packages)

/** The package that provides a language core looks for. */
export const packageOf = (name: string): string | undefined => packages[name]

/** Where to resolve language packages from: the host's project first, then the running script, then core itself. */
const resolvers = (): ReadonlyArray<NodeJS.Require> => {
  const bases = [`${process.cwd()}/package.json`, process.argv[1], import.meta.url].filter(
    (b): b is string => typeof b === "string" && b !== "",
  )
  const out: NodeJS.Require[] = []
  for (const base of bases) {
    try {
      out.push(createRequire(base))
    } catch {
      // Not a usable base (for example a script name that is not a path).
    }
  }
  return out
}

const found = new Map<string, Definition | undefined>()

/**
 * The definition of an installed language, or `undefined` when its package is not installed.
 * Throws `TypeError` for a name core does not know.
 */
export const find = (name: string): Definition | undefined => {
  const packageName = packages[name]
  if (!packageName) throw new TypeError(`unknown language "${name}"; use "lua" or "javascript"`)
  if (found.has(name)) return found.get(name)
  let definition: Definition | undefined
  for (const require of resolvers()) {
    let path: string
    try {
      path = require.resolve(`${packageName}/definition`)
    } catch {
      continue
    }
    definition = (require(path) as { definition: Definition }).definition
    break
  }
  found.set(name, definition)
  return definition
}

/**
 * Resolve the `language` option: a definition, a known name, or the default (JavaScript when installed, else Lua).
 * Throws an error naming the package to install when the language is not installed.
 */
export const resolve = (language: string | Definition | undefined): Definition => {
  if (typeof language === "object" && language !== null) return check(language)
  if (language !== undefined) {
    if (typeof language !== "string") throw new TypeError(`language must be "lua", "javascript" or a definition`)
    const definition = find(language)
    if (!definition)
      throw new Error(
        `language "${language}" is not installed; install ${packages[language]} (npm install ${packages[language]})`,
      )
    return definition
  }
  const definition = find("javascript") ?? find("lua")
  if (!definition) throw new Error("no CodeMode language is installed; install @codemode/lang-lua or @codemode/lang-js")
  return definition
}

const check = (definition: Definition): Definition => {
  for (const key of ["name", "workerModule", "instructions"] as const)
    if (typeof definition[key] !== "string") throw new TypeError(`a language definition needs a string ${key}`)
  if (typeof definition.dialect !== "object" || definition.dialect === null)
    throw new TypeError(`language "${definition.name}": the definition needs a signature dialect`)
  return definition
}

/** No language was provided to a runtime built from layers. */
export class LanguageNotProvided extends Data.TaggedError("LanguageNotProvided")<{
  readonly language: string | undefined
  readonly message: string
}> {}

/** A layer contributing `definition` to a runtime built from layers (`CodeMode.layer`). */
export const layer = (definition: Definition): Layer.Layer<never, never, Contributions.Contributions> =>
  Contributions.contribute((registry) => registry.addLanguage(check(definition)))
