/**
 * `@codemode/lang-lua`: a fast, metered Lua 5.4 for CodeMode tool programs. This entry point is light: it describes
 * the language to core; the interpreter itself lives in `./worker`, which only the sandbox loads.
 */
import { type Contributions, Language } from "@codemode/core"
import type { Layer } from "effect"
import { definition } from "./definition.js"

/** The Lua language as CodeMode needs it. */
export const Lua: {
  readonly name: "lua"
  readonly instructions: string
  readonly workerModule: string
  readonly definition: Language.Definition
  readonly layer: Layer.Layer<never, never, Contributions.Contributions>
} = {
  /** The language name used in `CodeMode.make({ language: "lua" })`. */
  name: "lua" as const,
  /** A short model-facing guide: the language subset, `search`, `pcall`, `json.null`/`json.array`. */
  instructions: definition.instructions,
  /** The file URL of the built worker module, which exports `run(request, host)` for the sandbox. */
  workerModule: definition.workerModule,
  /** Core's language definition for Lua (limits, built-in names, signature dialect, guide, worker module). */
  definition,
  /** A layer that contributes Lua to a runtime built from layers (`CodeMode.layer`). */
  layer: Language.layer(definition),
}

export { definition }
export const instructions: string = definition.instructions
