/**
 * The Lua language as core sees it: its definition (where the sandbox finds the interpreter, limits, built-ins,
 * signature dialect, guide) and a layer for runtimes built from layers. Exported as the `Lua` namespace, as
 * `@codemode/lang-js` exports `JavaScript`.
 */
import { type Contributions, Language } from "@codemode/core"
import type { Layer } from "effect"
import { definition as luaDefinition } from "./definition.js"

/** The language name used in `CodeMode.make({ language: "lua" })`. */
export const name = "lua" as const

/** Core's language definition for Lua. */
export const definition: Language.Definition = luaDefinition

/** URL of the module the sandbox imports to run Lua programs (it exports `run(request, host)`). */
export const workerModule: string = definition.workerModule

/** The model-facing guide to writing Lua programs for CodeMode, for a host to put in a prompt. */
export const instructions: string = definition.instructions

/** A layer that contributes Lua to a runtime built from layers (`CodeMode.layer`). */
export const layer: Layer.Layer<never, never, Contributions.Contributions> = Language.layer(definition)
