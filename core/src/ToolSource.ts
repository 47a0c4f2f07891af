/**
 * The `ToolSource` extension point: a layer that contributes a tool tree (OpenAPI is one; a host's own tools are
 * another). Several sources can be merged; each is kept under its own key and mounted at its name.
 */
import { Context, Layer } from "effect"
import type { Tree } from "./Namespace.js"

/** One contributed tool tree. */
export interface ToolSourceService {
  /** Where the tree is mounted (`""` mounts it at the root). */
  readonly mount: string
  readonly tools: Tree
}

/** The `ToolSource` tag. */
export class ToolSource extends Context.Service<ToolSource, ToolSourceService>()("@codemode/core/ToolSource") {}

/** The key prefix under which tool source layers register. */
export const keyPrefix = "@codemode/core/ToolSource/"

/** A layer contributing `tools`, mounted under `mount` (a dotted path, or `""` for the root). */
export const layer = (mount: string, tools: Tree): Layer.Layer<ToolSource> =>
  Layer.succeed(Context.Service<ToolSource, ToolSourceService>(`${keyPrefix}${mount}`), { mount, tools })
