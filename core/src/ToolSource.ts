/**
 * Tool sources: a layer that contributes a tool tree to a runtime built from layers (OpenAPI is one; a host's own
 * tools are another). Several sources can be merged; each is mounted at its name.
 */
import type { Layer } from "effect"
import * as Contributions from "./Contributions.js"
import type { Tree } from "./Namespace.js"

/** A layer contributing `tools`, mounted under `mount` (a dotted path, or `""` for the root). */
export const layer = (mount: string, tools: Tree): Layer.Layer<never, never, Contributions.Contributions> => {
  if (typeof mount !== "string") throw new TypeError('ToolSource.layer: mount must be a string ("" for the root)')
  if (typeof tools !== "object" || tools === null) throw new TypeError("ToolSource.layer: tools must be a tool tree")
  return Contributions.contribute((registry) => registry.addToolSource({ mount, tools }))
}
