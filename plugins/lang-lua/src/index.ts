/**
 * `@codemode/lang-lua`: a fast, metered Lua 5.4 for CodeMode tool programs. This entry point is light: it describes
 * the language for discovery and names the worker module; the interpreter itself lives in `./worker`, which only the
 * sandbox worker loads.
 */
import { instructions } from "./instructions.js"

/** The Lua language as CodeMode's `Language` service needs it. */
export const Lua = {
  /** The language name used in `CodeMode.make({ language: "lua" })`. */
  name: "lua" as const,
  /** A short model-facing guide: the language subset, `search`, `pcall`, `json.null`/`json.array`. */
  instructions,
  /** The file URL of the built worker module, which exports `run(request, host)` for the sandbox worker. */
  workerModule: new URL("./worker.js", import.meta.url).href,
}

export { instructions }
