/**
 * The Lua language as core needs it: its name, the module the sandbox loads, its default limits, its built-in
 * names, how it writes signatures and its model-facing guide. This module is self-contained (it imports nothing of
 * core at run time) and is also built as CommonJS, so core can find it synchronously in any package layout.
 */
import type { Language } from "@codemode/core"
import { instructions } from "./instructions.js"
import { dialect } from "./signature.js"

/** Globals every Lua program has; an extension may not shadow them. */
const builtins: ReadonlyArray<string> = (
  "tools search json print pcall error assert select type tostring tonumber ipairs pairs next rawequal rawlen rawget " +
  "rawset string table math utf8 os _G _VERSION load loadstring dofile require io debug setmetatable getmetatable " +
  "coroutine collectgarbage xpcall"
).split(" ")

/** Core's definition of Lua. */
export const definition: Language.Definition = {
  name: "lua",
  workerModule: new URL("./worker.js", import.meta.url).href,
  defaults: { timeoutMs: 120_000, maxToolCalls: 128, maxOutputBytes: 65_536 },
  extensionsCountTowardLimit: true,
  builtins,
  dialect,
  instructions,
  warmUpProgram:
    'local r = tools.warmup.echo({ n = 1, s = "a", list = { 1, 2 } })\nreturn { n = r.n, s = r.s, size = #r.list }',
}
