/**
 * How a run gets its tool adapters. The seam itself (`ToolAdapters`, `Setup`, `Prepared`, `ServerAccess`) is
 * declared by `@codemode/tool-adapters`; Drive uses a `ToolAdapters` service the program provides, else that
 * package's `layer`, built in the run's scope.
 */
import {
  layer as defaultLayer,
  type Prepared,
  type PrepareError,
  type ServerAccess,
  type Setup,
  ToolAdapters,
  type ToolRegistry,
  ToolsUnavailableError,
} from "@codemode/tool-adapters"
import { Context, Effect, Layer, type Scope } from "effect"
import type { ToolsOption } from "./Tools.js"

export { ToolAdapters }
export type { PrepareError, ServerAccess }

/** What a tool-adapter implementation is told about the run (`ToolAdapters.prepare`'s input). */
export type ToolAdapterSetup = Setup

/** What a tool-adapter implementation contributes to the run. */
export type PreparedToolAdapters = Prepared

/** Normalise `options.tools` into declared names and an optional registration callback. */
export const declaration = (
  option: ToolsOption | undefined,
): { readonly declared: ReadonlyArray<string>; readonly register?: (registry: ToolRegistry) => void } | undefined => {
  if (option === undefined) return undefined
  if (typeof option === "function") return { declared: [], register: option }
  return option.length === 0 ? undefined : { declared: option }
}

/** The `ToolAdapters` service for this run: the one in the context, else the default layer's. */
export const resolve: Effect.Effect<ToolAdapters["Service"], ToolsUnavailableError, Scope.Scope> = Effect.gen(
  function* () {
    const provided = yield* Effect.serviceOption(ToolAdapters)
    if (provided._tag === "Some") return provided.value
    const context = yield* Layer.build(defaultLayer).pipe(
      Effect.catchCause((cause) =>
        Effect.fail(new ToolsUnavailableError({ message: `the tool adapters failed to start: ${String(cause)}` })),
      ),
    )
    return Context.get(context, ToolAdapters)
  },
)
