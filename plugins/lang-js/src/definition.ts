/**
 * The JavaScript subset as core needs it: its name, the module the sandbox loads, its default limits, its built-in
 * names, how it writes signatures and its model-facing guide. This module is self-contained (it imports nothing of
 * core at run time) and is also built as CommonJS, so core can find it synchronously in any package layout.
 */
import type { Language } from "@codemode/core"
import { instructions } from "./instructions.js"
import { dialect } from "./signature.js"

/** Globals every JavaScript program has; an extension may not shadow them. */
const builtins: ReadonlyArray<string> = (
  "tools search console Object Array String Number Boolean Math JSON Date RegExp Map Set WeakMap WeakSet Promise Symbol " +
  "Error TypeError RangeError SyntaxError ReferenceError EvalError URIError AggregateError URL URLSearchParams " +
  "TextEncoder TextDecoder parseInt parseFloat isNaN isFinite encodeURIComponent decodeURIComponent encodeURI " +
  "decodeURI globalThis undefined NaN Infinity eval Function require import structuredClone BigInt Reflect Proxy"
).split(" ")

/** Core's definition of JavaScript: unlimited by default, as the seed says. */
export const definition: Language.Definition = {
  name: "javascript",
  workerModule: new URL("./worker.js", import.meta.url).href,
  defaults: { timeoutMs: Infinity, maxToolCalls: Infinity, maxOutputBytes: Infinity },
  extensionsCountTowardLimit: false,
  builtins,
  dialect,
  instructions,
  warmUpProgram:
    'const r = await tools.warmup.echo({ n: 1, s: "a", list: [1, 2] });\n({ n: r.n, s: r.s, size: r.list.length })',
}
