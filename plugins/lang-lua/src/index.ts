/**
 * `@codemode/lang-lua`: a fast, metered Lua 5.4 for CodeMode tool programs. This entry point is light: it describes
 * the language to core; the interpreter itself lives in `./worker`, which only the sandbox loads.
 */
export * as Lua from "./Lua.js"
