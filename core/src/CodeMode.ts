/**
 * `CodeMode`: build a runtime over host tools and run programs in it.
 */
import { Context, Effect, Layer } from "effect"
import type { DataValue } from "./Data.js"
import type * as DiagnosticModule from "./Diagnostic.js"
import * as Extension from "./Extension.js"
import * as Execution from "./Execution.js"
import type { Hooks, Services as HookServices } from "./Hooks.js"
import * as Language from "./Language.js"
import * as Limits from "./Limits.js"
import type { Services as TreeServices, Tree } from "./Namespace.js"
import type * as ResultModule from "./Result.js"
import { type SandboxPool, sharedPool } from "./sandbox/Pool.js"
import * as Search from "./Search.js"
import * as Signature from "./Signature.js"
import * as ToolSource from "./ToolSource.js"
import * as ToolTree from "./ToolTree.js"

export type { DataValue }
/** A diagnostic of a `Result`. */
export type Diagnostic = DiagnosticModule.Diagnostic
/** The outcome of an execution. */
export type Result = ResultModule.Result
/** One admitted host call. */
export type ToolCall = ResultModule.ToolCall

/** One catalog entry: a tool's path, description and signature in the runtime's language. */
export interface CatalogEntry {
  readonly path: string
  readonly description: string
  readonly signature: string
}

/** Options of `CodeMode.make`. */
export interface Options<T extends Tree = Tree, H extends Hooks<any> = Hooks<never>> {
  /** `"lua"`, `"javascript"` or a language definition; defaults to JavaScript when installed, else Lua. */
  readonly language?: "lua" | "javascript" | Language.Definition
  readonly tools?: T
  readonly extensions?: ReadonlyArray<Extension.Extension>
  readonly hooks?: H
  readonly limits?: Partial<Limits.Limits>
  /** The sandbox pool to run in; defaults to a process-wide pool whose workers never keep the process alive. */
  readonly pool?: SandboxPool
}

/** A reusable runtime. */
export interface Runtime<R = never> {
  readonly language: string
  readonly limits: Limits.Limits
  /** Every visible tool, sorted by path. */
  readonly catalog: ReadonlyArray<CatalogEntry>
  /** Run a program. Never fails: problems are diagnostics in the `Result`. */
  readonly execute: (code: string) => Effect.Effect<Result, never, R>
  /** The same search programs get, from the host. */
  readonly search: (request: { query?: string; namespace?: string; limit?: number; offset?: number }) => Search.Page
}

const mergeTrees = (sources: ReadonlyArray<{ mount: string; tools: Tree }>): Tree => {
  const root: Record<string, unknown> = {}
  for (const { mount, tools } of sources) {
    if (mount === "") {
      for (const key of Object.keys(tools)) {
        if (key in root) throw new TypeError(`tool "${key}" is contributed by two tool sources`)
        root[key] = tools[key]
      }
    } else {
      if (mount in root) throw new TypeError(`tool source "${mount}" is contributed twice`)
      root[mount] = tools
    }
  }
  return root as Tree
}

const build = <R>(options: Options<any, any>): Runtime<R> => {
  if (typeof options !== "object" || options === null) throw new TypeError("CodeMode.make expects an options object")
  const language = Language.resolve(options.language)
  const limits = Limits.resolve(options.limits, language.defaults)
  const entries = ToolTree.flatten(options.tools ?? {})
  const extensions = new Map<string, Extension.Extension>()
  const globals = new Map<string, string>()
  const builtins = new Set(language.builtins)
  for (const extension of options.extensions ?? []) {
    if (extension?._tag !== "Extension")
      throw new TypeError("extensions must be made with Extension.make or Extension.lua")
    if (extension.language === "lua" && language.name !== "lua")
      throw new TypeError(
        `extension "${extension.name}" was made with Extension.lua and cannot be used with ${language.name}`,
      )
    if (extensions.has(extension.name)) throw new TypeError(`two extensions are named "${extension.name}"`)
    for (const name of Object.keys(extension.globals)) {
      if (builtins.has(name))
        throw new TypeError(
          `extension "${extension.name}": global "${name}" would shadow the ${language.name} built-in "${name}"`,
        )
      const owner = globals.get(name)
      if (owner)
        throw new TypeError(
          `extension "${extension.name}": global "${name}" is already provided by extension "${owner}"`,
        )
      globals.set(name, extension.name)
    }
    extensions.set(extension.name, extension)
  }
  // Signatures, the catalog and the search index are built on first use, so that a runtime over a large API
  // (thousands of operations) is cheap to make.
  const signatures = new Map<string, string>()
  const render = (entry: ToolTree.Entry) => {
    let signature = signatures.get(entry.path)
    if (signature === undefined) {
      signature = Signature.renderSignature(entry.path, entry.inputType, entry.outputType, language.signatures)
      signatures.set(entry.path, signature)
    }
    return signature
  }
  let catalog: ReadonlyArray<CatalogEntry> | undefined
  let index: Search.Index | undefined
  const getIndex = () => (index ??= Search.index(entries))
  const plan: Execution.Plan = {
    language,
    entries: new Map(entries.map((e) => [e.path, e])),
    index: getIndex,
    tools: ToolTree.shape(entries),
    extensions,
    extensionShapes: [...extensions.values()].map(Extension.shape),
    hooks: options.hooks ?? {},
    limits,
    pool: options.pool ? () => options.pool! : sharedPool,
    render,
  }
  return {
    language: language.name,
    limits,
    get catalog() {
      return (catalog ??= entries.map((entry) => ({
        path: entry.path,
        description: entry.tool.description,
        signature: render(entry),
      })))
    },
    execute: (code) => Execution.execute(plan, code) as Effect.Effect<Result, never, R>,
    search: (request) => {
      const parsed = Search.parseRequest(request as DataValue)
      if (typeof parsed === "string") throw new TypeError(parsed)
      return Search.run(getIndex(), parsed, render)
    },
  }
}

/**
 * Create a reusable runtime. Throws at `make` for invalid tools, names, extensions, limits (`RangeError`) or a
 * language that is not installed.
 */
export const make = <const T extends Tree = {}, const H extends Hooks<any> = Hooks<never>>(
  options: Options<T, H> = {},
): Runtime<TreeServices<T> | HookServices<H>> => build(options)

/** Run one program once: `CodeMode.execute({ ...options, code })`. */
export const execute = <const T extends Tree = {}, const H extends Hooks<any> = Hooks<never>>(
  options: Options<T, H> & { readonly code: string },
): Effect.Effect<Result, never, TreeServices<T> | HookServices<H>> =>
  Effect.suspend(() => make(options).execute(options.code))

/** The expression that calls a tool by path: `tools.orders["lookup-by-id"]` (JavaScript) or Lua's equivalent. */
export const toolExpression = (path: string, language: "javascript" | "lua" = "javascript"): string =>
  Signature.toolExpression(path, language)

/** The JavaScript signature of `search`. */
export const searchSignature: string = Signature.searchSignature

/** The Lua signature of `search`. */
export const luaSearchSignature: string = Signature.luaSearchSignature

/**
 * The `CodeMode` service: a runtime assembled from layers. Its tools run with the services present when the layer
 * was built, plus whatever the caller of `execute` provides.
 */
export class CodeMode extends Context.Service<CodeMode, Runtime<never>>()("@codemode/core/CodeMode") {}

const collect = <S>(context: Context.Context<never>, prefix: string): ReadonlyArray<S> => {
  const out: S[] = []
  for (const [key, value] of context.mapUnsafe) if (key.startsWith(prefix)) out.push(value as S)
  return out
}

/**
 * Build the `CodeMode` service from the layers in the environment: `Language` layers (JavaScript preferred when both
 * are present, unless `language` names one), `ToolSource` layers and `Extension` layers.
 */
export const layer = (
  options: Omit<Options, "tools" | "extensions" | "language"> & { readonly language?: "lua" | "javascript" } = {},
): Layer.Layer<CodeMode, never, Language.Language> =>
  Layer.effect(
    CodeMode,
    Effect.gen(function* () {
      const context = (yield* Effect.context<never>()) as Context.Context<never>
      const languages = collect<Language.LanguageService>(context, Language.keyPrefix).map((l) => l.definition)
      const wanted = options.language
      const definition = wanted
        ? languages.find((l) => l.name === wanted)
        : (languages.find((l) => l.name === "javascript") ?? languages[0])
      if (!definition) {
        const name = wanted ?? "a language"
        const hint = wanted ? Language.packageOf(wanted) : "@codemode/lang-lua or @codemode/lang-js"
        return yield* Effect.die(new Error(`CodeMode.layer: ${name} is not provided; provide the layer from ${hint}`))
      }
      const sources = collect<ToolSource.ToolSourceService>(context, ToolSource.keyPrefix)
      const extensions = collect<Extension.ExtensionService>(context, Extension.keyPrefix).map((e) => e.extension)
      const runtime = build<any>({ ...options, language: definition, tools: mergeTrees(sources), extensions })
      const execute = (code: string): Effect.Effect<Result> =>
        Effect.flatMap(Effect.context<never>(), (current) =>
          Effect.provideContext(runtime.execute(code), Context.merge(context, current) as Context.Context<any>),
        )
      return { ...runtime, execute } satisfies Runtime<never>
    }),
  )
