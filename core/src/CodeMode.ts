/**
 * `CodeMode`: build a runtime over host tools and run programs in it.
 */
import { randomUUID } from "node:crypto"
import { Context, Effect, Layer, Schema } from "effect"
import * as Contributions from "./Contributions.js"
import type { DataValue } from "./Data.js"
import type * as DiagnosticModule from "./Diagnostic.js"
import * as Extension from "./Extension.js"
import * as Execution from "./Execution.js"
import * as HooksModule from "./Hooks.js"
import * as Instructions from "./Instructions.js"
import type { Hooks, Services as HookServices } from "./Hooks.js"
import * as Language from "./Language.js"
import * as Limits from "./Limits.js"
import type { Services as TreeServices, Tree } from "./Namespace.js"
import type * as ResultModule from "./Result.js"
import { type SandboxPool, sharedPool } from "./sandbox/Pool.js"
import * as Search from "./Search.js"
import { checkKeys } from "./Options.js"
import * as Signature from "./Signature.js"
import * as Tool from "./Tool.js"
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
  /** The same search programs get, from the host: a request object, or a query string. */
  readonly search: (
    request: string | { query?: string; namespace?: string; limit?: number; offset?: number },
  ) => Search.Page
  /**
   * What to put in a model's prompt: the language guide and a summary of the catalog within `budgetTokens`
   * (default 2,000; a token is counted as 4 characters). See `Instructions.make`.
   */
  readonly instructions: (options?: Instructions.Options) => string
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

/** The keys `CodeMode.make` accepts. */
const optionKeys = ["language", "tools", "extensions", "hooks", "limits", "pool"]

/** The languages whose host side of executions has been warmed up in this process (see {@link warmHost}). */
const hostWarmed = new Set<string>()

const Echoed = Schema.Struct({ n: Schema.Number, s: Schema.String, list: Schema.Array(Schema.Number) })

/** The tool a warm-up program calls: it returns its input. */
const warmUpTools = {
  warmup: {
    echo: Tool.make({ description: "Return the input", input: Echoed, output: Echoed, execute: Effect.succeed }),
  },
}

/**
 * How many times the host runs its warm-up program. One run compiles the host's side of an execution; V8 optimises
 * it only after some: with one, a process's first tool call (40 records checked and copied) took 1.4-2.6 ms against
 * 0.3 ms later; with twenty, 0.7-1.1 ms. Twenty runs cost the host 20-40 ms of processor time, off the critical path.
 */
const HOST_WARM_UP_RUNS = 20

/**
 * What warms up the host's side of executions once per process and language, off the critical path (the execution
 * pipeline, the checks of a tool's input and output, the sandbox protocol), to run when a sandbox of `pool` has
 * warmed up; `undefined` when that is done. A private runtime over the pool runs the language's `warmUpProgram`
 * there {@link HOST_WARM_UP_RUNS} times, one after the other, each calling a tool of its own; they have no hooks and no
 * timeout, call none of the host's tools, and what they return is dropped. Each takes an idle sandbox or does not run
 * (the warm-up then ends), and a program that finds no idle sandbox meanwhile waits the few milliseconds for the
 * warm-up's instead of starting a process. Without it, a process's first execution took 30-40 ms more than later
 * ones of a new program.
 */
const warmHost = (language: Language.Definition, pool: SandboxPool): (() => void) | undefined => {
  const program = language.warmUpProgram
  if (program === undefined || hostWarmed.has(language.name)) return undefined
  return () => {
    if (hostWarmed.has(language.name)) return
    hostWarmed.add(language.name)
    const runtime = build<never>({ language, pool, tools: warmUpTools, limits: { timeoutMs: Infinity } }, false, true)
    const runs = (left: number): Effect.Effect<void> =>
      Effect.flatMap(runtime.execute(program), (result) => (result.ok && left > 1 ? runs(left - 1) : Effect.void))
    Effect.runFork(runs(HOST_WARM_UP_RUNS))
  }
}

/**
 * The runtime of `options`. A `reused` one (made to run programs again, not one-shot) has its pool start warm
 * sandboxes for its language now, so that its first `execute` does not wait for a sandbox to start and warm up. A
 * `background` one runs the host's warm-up (see `Execution.Plan.background`).
 */
const build = <R>(options: Options<any, any>, reused = false, background = false): Runtime<R> => {
  if (typeof options !== "object" || options === null) throw new TypeError("CodeMode.make expects an options object")
  checkKeys("CodeMode options", options, optionKeys)
  const language = Language.resolve(options.language)
  const limits = Limits.resolve(options.limits, language.defaults)
  const hooks = HooksModule.validate(options.hooks)
  const entries = ToolTree.flatten(options.tools ?? {})
  const extensions = new Map<string, Extension.Extension>()
  const globals = new Map<string, string>()
  const builtins = new Set(language.builtins)
  if (options.extensions !== undefined && !Array.isArray(options.extensions))
    throw new TypeError("extensions must be an array of extensions made with Extension.make or Extension.lua")
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
  const summaries = new Map<string, string>()
  const render: Search.Renderer = {
    full: (entry) => {
      let signature = signatures.get(entry.path)
      if (signature === undefined) {
        signature = Signature.renderSignature(entry.path, entry.inputType, entry.outputType, language.dialect)
        signatures.set(entry.path, signature)
      }
      return signature
    },
    summary: (entry) => {
      let signature = summaries.get(entry.path)
      if (signature === undefined) {
        signature = Signature.renderSummary(
          entry.path,
          entry.inputType,
          entry.outputType,
          language.dialect,
          Search.maxPageSignature,
        )
        summaries.set(entry.path, signature)
      }
      return signature
    },
    comment: (text) => Signature.lineComment(text, language.dialect),
  }
  let catalog: ReadonlyArray<CatalogEntry> | undefined
  let index: Search.Index | undefined
  const getIndex = () => (index ??= Search.index(entries))
  const shape = ToolTree.shape(entries)
  const plan: Execution.Plan = {
    scope: randomUUID(),
    language,
    entries: new Map(entries.map((e) => [e.path, e])),
    index: getIndex,
    // `tools.search(...)` is `search(...)` when no tool or namespace owns the root name `search`.
    tools: "search" in shape ? shape : { ...shape, search: true },
    extensions,
    extensionShapes: [...extensions.values()].map(Extension.shape),
    hooks,
    limits,
    pool: options.pool ? () => options.pool! : sharedPool,
    render,
    ...(background ? { background } : {}),
  }
  if (reused) plan.pool().prepare(language.workerModule, warmHost(language, plan.pool()))
  return {
    language: language.name,
    limits,
    get catalog() {
      return (catalog ??= entries.map((entry) => ({
        path: entry.path,
        description: entry.tool.description,
        signature: render.full(entry),
      })))
    },
    execute: (code) => Execution.execute(plan, code) as Effect.Effect<Result, never, R>,
    search: (request) => {
      const parsed = Search.parseRequest(request as DataValue)
      if (typeof parsed === "string") throw new TypeError(parsed)
      return Search.run(getIndex(), parsed, render)
    },
    instructions: (options) => Instructions.make(language, entries, render, options),
  }
}

/**
 * Create a reusable runtime. Throws at `make` for invalid tools, names, extensions, limits (`RangeError`) or a
 * language that is not installed.
 */
export const make = <const T extends Tree = {}, const H extends Hooks<any> = Hooks<never>>(
  options: Options<T, H> = {},
): Runtime<TreeServices<T> | HookServices<H>> => build(options, true)

/** Run one program once: `CodeMode.execute({ ...options, code })`. */
export const execute = <const T extends Tree = {}, const H extends Hooks<any> = Hooks<never>>(
  options: Options<T, H> & { readonly code: string },
): Effect.Effect<Result, never, TreeServices<T> | HookServices<H>> =>
  Effect.suspend(() => {
    if (typeof options !== "object" || options === null)
      throw new TypeError("CodeMode.execute expects { ...options, code }")
    const { code, ...rest } = options
    return build<TreeServices<T> | HookServices<H>>(rest).execute(code)
  })

/** The dialect of an installed language, or a `TypeError` naming the package to install. */
const dialectOf = (language: "javascript" | "lua"): Signature.Dialect => {
  const definition = Language.find(language)
  if (!definition) throw new TypeError(`${language} is not installed; install ${Language.packageOf(language)}`)
  return definition.dialect
}

/** The expression that calls a tool by path: `tools.orders["lookup-by-id"]` (JavaScript) or Lua's equivalent. */
export const toolExpression = (path: string, language: "javascript" | "lua" = "javascript"): string =>
  Signature.toolExpression(path, dialectOf(language))

/** The JavaScript signature of `search` (empty when `@codemode/lang-js` is not installed). */
export const searchSignature: string = Language.find("javascript")?.dialect.searchSignature ?? ""

/** The Lua signature of `search` (empty when `@codemode/lang-lua` is not installed). */
export const luaSearchSignature: string = Language.find("lua")?.dialect.searchSignature ?? ""

/**
 * The `CodeMode` service: a runtime assembled from layers. Its tools run with the services present when the layer
 * was built, plus whatever the caller of `execute` provides.
 */
export class CodeMode extends Context.Service<CodeMode, Runtime<never>>()("@codemode/core/CodeMode") {}

/** Options of {@link layer}: those of `CodeMode.make` that layers do not contribute. */
export type LayerOptions = Omit<Options, "tools" | "extensions" | "language"> & {
  readonly language?: "lua" | "javascript"
}

/**
 * Build the `CodeMode` service from what layers contributed (see `Contributions`): languages (JavaScript preferred
 * when both are present, unless `language` names one), tool sources and extensions. Fails with
 * `LanguageNotProvided` when the wanted language was not contributed.
 */
export const layer = (
  options: LayerOptions = {},
): Layer.Layer<CodeMode, Language.LanguageNotProvided, Contributions.Contributions> => {
  checkKeys("CodeMode.layer options", options, ["language", "hooks", "limits", "pool"])
  return Layer.effect(
    CodeMode,
    Effect.gen(function* () {
      const registry = yield* Effect.service(Contributions.Contributions)
      const context = (yield* Effect.context<never>()) as Context.Context<never>
      const wanted = options.language
      const definition = wanted
        ? registry.languages.find((l) => l.name === wanted)
        : (registry.languages.find((l) => l.name === "javascript") ?? registry.languages[0])
      if (!definition) {
        const hint = wanted ? Language.packageOf(wanted) : "@codemode/lang-lua or @codemode/lang-js"
        return yield* new Language.LanguageNotProvided({
          language: wanted,
          message: `CodeMode.layer: ${wanted ?? "no language"} is not provided; provide the layer from ${hint}`,
        })
      }
      const runtime = build<any>(
        {
          ...options,
          language: definition,
          tools: mergeTrees(registry.toolSources),
          extensions: registry.extensions,
        },
        true,
      )
      const execute = (code: string): Effect.Effect<Result> =>
        Effect.flatMap(Effect.context<never>(), (current) =>
          Effect.provideContext(runtime.execute(code), Context.merge(context, current) as Context.Context<any>),
        )
      return { ...runtime, execute } satisfies Runtime<never>
    }),
  )
}
