/**
 * The JavaScript language as core sees it: its definition (where the sandbox finds the interpreter, limits,
 * built-ins, signature dialect, guide) and a layer for runtimes built from layers.
 */
import { type Contributions, Language } from "@codemode/core"
import type { Layer } from "effect"
import { definition as jsDefinition } from "./definition.js"

/** Core's language definition for JavaScript. */
export const definition: Language.Definition = jsDefinition

/** URL of the module the sandbox imports to run JavaScript programs (it exports `run(request, host)`). */
export const workerModule: string = definition.workerModule

/** The model-facing guide to writing JavaScript programs for CodeMode, for a host to put in a prompt. */
export const instructions: string = definition.instructions

/** A layer that contributes JavaScript to a runtime built from layers (`CodeMode.layer`). */
export const layer: Layer.Layer<never, never, Contributions.Contributions> = Language.layer(definition)
