/**
 * The JavaScript language as core sees it: where the sandbox worker finds the interpreter, core's definition, and
 * a layer for runtimes built from layers.
 */
import { Language } from "@codemode/core"
import type { Layer } from "effect"

/** URL of the module the sandbox worker imports to run JavaScript programs (it exports `run(request, host)`). */
export const workerModule: string = new URL("./worker.js", import.meta.url).href

/** Core's language definition for JavaScript (limits, built-in names, signature style, worker module). */
export const definition: Language.Definition = Language.define("javascript", workerModule)

/** A layer that contributes JavaScript to a runtime built from layers (`CodeMode.layer`). */
export const layer: Layer.Layer<Language.Language> = Language.layer(definition)
