/**
 * Languages: what core needs to know about a language to run programs in it and describe tools to a model.
 *
 * The interpreter itself runs inside the sandbox worker (`workerModule`); the host side is only data.
 */
import { createRequire } from "node:module"
import { pathToFileURL } from "node:url"
import { Context, Layer } from "effect"
import * as Limits from "./Limits.js"
import type { SignatureLanguage } from "./Signature.js"

/** A language definition. */
export interface Definition {
  /** The name programs are run under, e.g. `lua`. */
  readonly name: string
  /** URL of the module the sandbox worker imports; it exports `run(request, host)`. */
  readonly workerModule: string
  /** Limits applied when the host sets none. */
  readonly defaults: Limits.Limits
  /** Whether extension calls count toward `maxToolCalls` (Lua: yes; JavaScript: no). */
  readonly extensionsCountTowardLimit: boolean
  /** Global names an extension may not shadow. */
  readonly builtins: ReadonlyArray<string>
  /** How signatures are rendered. */
  readonly signatures: SignatureLanguage
}

/** Globals every Lua program has. */
export const luaBuiltins: ReadonlyArray<string> = (
  "tools search json print pcall error assert select type tostring tonumber ipairs pairs next rawequal rawlen rawget " +
  "rawset string table math utf8 os _G _VERSION load loadstring dofile require io debug setmetatable getmetatable " +
  "coroutine collectgarbage xpcall"
).split(" ")

/** Globals every JavaScript program has. */
export const javascriptBuiltins: ReadonlyArray<string> = (
  "tools search console Object Array String Number Boolean Math JSON Date RegExp Map Set WeakMap WeakSet Promise Symbol " +
  "Error TypeError RangeError SyntaxError ReferenceError EvalError URIError AggregateError URL URLSearchParams " +
  "TextEncoder TextDecoder parseInt parseFloat isNaN isFinite encodeURIComponent decodeURIComponent encodeURI " +
  "decodeURI globalThis undefined NaN Infinity eval Function require import structuredClone BigInt Reflect Proxy"
).split(" ")

const known: Record<string, { readonly packageName: string; readonly base: Omit<Definition, "workerModule"> }> = {
  lua: {
    packageName: "@codemode/lang-lua",
    base: {
      name: "lua",
      defaults: Limits.luaDefaults,
      extensionsCountTowardLimit: true,
      builtins: luaBuiltins,
      signatures: "lua",
    },
  },
  javascript: {
    packageName: "@codemode/lang-js",
    base: {
      name: "javascript",
      defaults: Limits.javascriptDefaults,
      extensionsCountTowardLimit: false,
      builtins: javascriptBuiltins,
      signatures: "javascript",
    },
  },
}

/** The names of the languages core knows by name. */
export const knownNames: ReadonlyArray<string> = Object.keys(known)

/** The package that provides a known language. */
export const packageOf = (name: string): string | undefined => known[name]?.packageName

/** The definition of a known language whose worker module lives at `workerModule`. */
export const define = (name: "lua" | "javascript", workerModule: string): Definition => ({
  ...known[name].base,
  workerModule,
})

const requireFromHere = createRequire(import.meta.url)

/**
 * Find an installed language by name, or `undefined` when its package is not installed.
 * Throws `TypeError` for a name core does not know.
 */
export const find = (name: string): Definition | undefined => {
  const entry = known[name]
  if (!entry) throw new TypeError(`unknown language "${name}"; use "lua" or "javascript"`)
  let path: string
  try {
    path = requireFromHere.resolve(`${entry.packageName}/worker`)
  } catch {
    return undefined
  }
  return { ...entry.base, workerModule: pathToFileURL(path).href }
}

/**
 * Resolve the `language` option: a definition, a known name, or the default (JavaScript when installed, else Lua).
 * Throws an error naming the package to install when the language is not installed.
 */
export const resolve = (language: string | Definition | undefined): Definition => {
  if (typeof language === "object" && language !== null) return language
  if (language !== undefined) {
    const found = find(language)
    if (!found)
      throw new Error(
        `language "${language}" is not installed; install ${known[language].packageName} (npm install ${known[language].packageName})`,
      )
    return found
  }
  const found = find("javascript") ?? find("lua")
  if (!found) throw new Error("no CodeMode language is installed; install @codemode/lang-lua or @codemode/lang-js")
  return found
}

/** The service shape: one language contributed by a layer. */
export interface LanguageService {
  readonly definition: Definition
}

/** The `Language` tag. Lua and JavaScript layers can be merged: each is kept under its own key. */
export class Language extends Context.Service<Language, LanguageService>()("@codemode/core/Language") {}

/** The key prefix under which language layers register. */
export const keyPrefix = "@codemode/core/Language/"

/** A layer contributing `definition`. */
export const layer = (definition: Definition): Layer.Layer<Language> =>
  Layer.succeed(Context.Service<Language, LanguageService>(`${keyPrefix}${definition.name}`), { definition })
