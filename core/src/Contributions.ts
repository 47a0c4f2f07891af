/**
 * Contributions: the one service that language, tool-source and extension layers add to, and that `CodeMode.layer`
 * reads to build a runtime.
 *
 * ```ts
 * const live = CodeMode.layer().pipe(
 *   Layer.provide(Layer.mergeAll(Lua.layer, ToolSource.layer("billing", tools), Extension.layer(web))),
 *   Layer.provide(Contributions.layer),
 * )
 * ```
 *
 * `Contributions.layer` makes a fresh registry for each build; contribution layers need it, so the type checker says
 * when it is missing.
 */
import { Context, Effect, Layer } from "effect"
import type * as Extension from "./Extension.js"
import type { Definition } from "./Language.js"
import type { Tree } from "./Namespace.js"

/** One contributed tool tree, mounted at a dotted path (`""` mounts it at the root). */
export interface ToolSourceContribution {
  readonly mount: string
  readonly tools: Tree
}

/** What the layers of one build contributed. */
export class Registry {
  readonly languages: Definition[] = []
  readonly toolSources: ToolSourceContribution[] = []
  readonly extensions: Extension.Extension[] = []

  /** Add a language; the same language twice is an error. */
  addLanguage(definition: Definition): void {
    if (this.languages.some((l) => l.name === definition.name))
      throw new TypeError(`language "${definition.name}" is contributed twice`)
    this.languages.push(definition)
  }

  /** Add a tool tree. */
  addToolSource(source: ToolSourceContribution): void {
    this.toolSources.push(source)
  }

  /** Add an extension. */
  addExtension(extension: Extension.Extension): void {
    this.extensions.push(extension)
  }
}

/** The `Contributions` service. */
export class Contributions extends Context.Service<Contributions, Registry>()("@codemode/core/Contributions") {}

/** A fresh registry for one build. */
export const layer: Layer.Layer<Contributions> = Layer.sync(Contributions, () => new Registry())

/** A layer that adds to the registry when it is built. */
export const contribute = (add: (registry: Registry) => void): Layer.Layer<never, never, Contributions> =>
  Layer.effectDiscard(Effect.map(Effect.service(Contributions), add))
