/**
 * The model-facing guide to writing Lua programs for CodeMode, for a host to put in a prompt.
 */

/** A short guide: the language subset, `search`, `pcall`, `json.null`/`json.array`. */
export const instructions = `Write a Lua 5.4 program. It runs in a sandbox and reaches the outside world only through tools.

- Call tools as \`tools.<namespace>.<name>({ ... })\`, with \`["x-y"]\` for names that are not identifiers:
  \`tools.orders["lookup-by-id"]({ id = "42" })\`. The input is a Lua table. Calls wait for their result; they run
  one after another.
- Find tools with \`search({ query = "order lookup" })\`. It returns a page \`{ items = { { path, description,
  signature }, ... }, remaining, next }\`; use the exact path it returns. An exact path as the query looks that tool
  up, \`namespace = "orders"\` limits the search to a namespace, an empty query browses, and \`limit\`/\`offset\`
  page through the results. Each search counts as a tool call.
- End with an explicit \`return <value>\`. Only the first value is returned; no return (or nil) gives null.
- Results are JSON: tables with keys 1..n are arrays, tables with string keys are objects, \`{}\` is an empty object.
  Use \`json.array()\` for an empty array and \`json.null\` to keep a null (assigning nil removes a field). Arrays and
  objects from tools keep their shape. Mixed or sparse tables, functions, NaN and cycles cannot be returned.
- A failed tool call raises an error: \`local ok, result = pcall(tools.ns.lookup, { id = id })\` gives \`false\` and the
  message instead. Timeouts and resource limits cannot be caught.
- \`print(...)\` writes to the logs. \`json.encode\`/\`json.decode\` convert between tables and JSON text.
- Available: all statements and operators (integers and floats as in Lua 5.4, \`//\`, bitwise operators, goto),
  closures, varargs, string (with Lua patterns and string.format), table, math, utf8, os.time/os.clock/os.date,
  pcall, error, assert, select, type, tostring, tonumber, ipairs, pairs, next, and the raw* functions.
- Not available: load, require, dofile, io, os.execute/getenv/exit, debug, coroutines, metatables
  (setmetatable/getmetatable), collectgarbage, and the <const>/<close> attributes.
- Work, call depth (200), string size (16 MiB) and table size (1,000,000 entries) are bounded.`
