/**
 * The seam tool adapters plug into. A `ToolAdapters` service prepares, before OpenCode starts, the files to write
 * into the project's `.opencode/` directory (generated tool files, a plugin), configuration to merge and
 * environment to add, and returns the live `tools` capability plus its settlement check. Drive uses the service
 * from the context when a host provides one, else loads `@codemode/tool-adapters` (its `layer` export) at run
 * time, so the two packages do not depend on each other at build time.
 */
import { Context, Effect, Layer, type Scope } from "effect"
import { ToolsUnavailableError } from "../Errors.js"
import type { JsonObject } from "../opencode/OpenCodeConfig.js"
import type { ToolError, ToolRegistry, Tools, ToolsOption } from "./Tools.js"

/** What a tool-adapter implementation is told about the run. */
export interface ToolAdapterSetup {
  /** Canonical names declared in `options.tools` (empty for the callback form). */
  readonly declared: ReadonlyArray<string>
  /** The callback form of `options.tools`, if used. */
  readonly register?: (registry: ToolRegistry) => void
  /** The project directory (OpenCode's working directory). */
  readonly projectDir: string
  /** The run's log directory, for adapter logs. */
  readonly logsDir: string
  /** The environment every process of the run gets. */
  readonly env: Readonly<Record<string, string>>
}

/** How adapters reach the running OpenCode server (its public API). */
export interface ServerAccess {
  /** `http://127.0.0.1:<port>` */
  readonly url: string
  /** The `Authorization` header value (basic auth of `opencode serve`). */
  readonly authorization: string
  /** The project directory (send it as `?directory=`). */
  readonly directory: string
}

/** What a tool-adapter implementation contributes to the run. */
export interface PreparedToolAdapters {
  /** Files to write under `<project>/.opencode/` (relative paths, e.g. `tools/bash.ts`), before OpenCode starts. */
  readonly files: Readonly<Record<string, string>>
  /** Configuration merged into OpenCode's (after Drive's, before the script's `config`). */
  readonly config?: JsonObject
  /** Environment added to the OpenCode server. */
  readonly env?: Readonly<Record<string, string>>
  /** The live capability exposed as `driver.tools`. */
  readonly tools: Tools
  /** Settlement: fails when intercepted invocations were never taken or never settled. */
  readonly settle: Effect.Effect<void, ToolError>
  /** Called once the OpenCode server answers, so adapters can show live progress through its API. */
  readonly showProgressIn?: (server: ServerAccess) => Effect.Effect<void>
}

/** The tool-adapter service. Its resources live in the run's scope. */
export class ToolAdapters extends Context.Service<
  ToolAdapters,
  { readonly prepare: (setup: ToolAdapterSetup) => Effect.Effect<PreparedToolAdapters, ToolError, Scope.Scope> }
>()("opencode-drive/ToolAdapters") {}

/** The package Drive loads when no `ToolAdapters` service is provided. */
export const defaultImplementation = "@codemode/tool-adapters"

/** Normalise `options.tools` into declared names and an optional registration callback. */
export const declaration = (
  option: ToolsOption | undefined,
): { readonly declared: ReadonlyArray<string>; readonly register?: (registry: ToolRegistry) => void } | undefined => {
  if (option === undefined) return undefined
  if (typeof option === "function") return { declared: [], register: option }
  return option.length === 0 ? undefined : { declared: option }
}

/**
 * The `ToolAdapters` service for this run: the one in the context, else the default implementation's `layer`
 * built in the run's scope; fails saying how to provide one.
 */
export const resolve: Effect.Effect<ToolAdapters["Service"], ToolsUnavailableError, Scope.Scope> = Effect.gen(
  function* () {
    const provided = yield* Effect.serviceOption(ToolAdapters)
    if (provided._tag === "Some") return provided.value
    const specifier = defaultImplementation
    const loaded = yield* Effect.tryPromise({
      try: () => import(specifier) as Promise<{ readonly layer?: Layer.Layer<ToolAdapters> }>,
      catch: (cause) => cause,
    }).pipe(Effect.option)
    const exported = loaded._tag === "Some" ? loaded.value.layer : undefined
    if (exported === undefined || !Layer.isLayer(exported)) {
      return yield* new ToolsUnavailableError({
        message: `options.tools needs a tool-adapter implementation: install ${defaultImplementation} (it must export \`layer\`) or provide a ToolAdapters layer`,
      })
    }
    const layer: Layer.Layer<ToolAdapters, unknown> = exported
    const context = yield* Layer.build(layer).pipe(
      Effect.mapError(
        (error) => new ToolsUnavailableError({ message: `${defaultImplementation} failed to start: ${String(error)}` }),
      ),
    )
    return Context.get(context, ToolAdapters)
  },
)
