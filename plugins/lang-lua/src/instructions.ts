/**
 * The model-facing guide to writing Lua programs for CodeMode, for a host to put in a prompt.
 */

/** A short guide: the language subset, tools and their inputs, `search`, results, `json.null`, `pcall`. */
export const instructions = `Write a Lua 5.4 program. It runs in a sandbox and reaches the outside world only through tools.

- Call tools as \`tools.<namespace>.<name>({ ... })\`, with \`["x-y"]\` for names that are not identifiers:
  \`tools.orders["lookup-by-id"]({ id = "42" })\`. The input is one Lua table. Calls wait for their result and run
  one after another (there is no await or parallel API).
- Tools made from an HTTP API (OpenAPI) take every path, query and header parameter by its name and the request body
  under \`body\`: \`tools.api.issues_create({ owner = "o", repo = "r", body = { title = "Bug" } })\`.
- Find tools inside the program with \`search("order lookup")\` (the same as \`search({ query = "order lookup" })\`):
  it returns \`{ items = { { path, description, signature }, ... }, remaining, next }\`, best match first. Call the
  exact path it returns. A query that is a tool's path (\`search("orders.lookup")\`, or \`tools.orders.lookup\`)
  returns just that tool with its full signature; page signatures summarise large outputs. \`namespace = "orders"\`
  limits the search, an empty query lists tools in path order, \`limit\` (at most 100) and \`offset\` page:
  \`next\` is \`{ offset = n }\` for the next page, or json.null on the last one. Each search counts as a tool call.
- End with an explicit \`return <value>\`. Only the first value is returned; no return (or nil) gives null.
- Results are JSON. Tables with keys 1..n are arrays (Lua arrays start at 1), tables with string keys are objects,
  \`{}\` is an empty object: return \`json.array()\` for an empty array. Arrays and objects from tools keep their
  shape; \`#t\` and \`ipairs(t)\` only see the array part, so use \`pairs(t)\` on objects. Mixed or sparse tables,
  functions, NaN and cycles cannot be returned.
- JSON null arrives as \`json.null\`, which is a value and therefore truthy: test it with \`x == json.null\` (not
  \`x == nil\` or \`x or default\`), e.g. \`local name = (v ~= nil and v ~= json.null) and v or "none"\`. Assigning nil
  removes a field; use \`json.null\` to send or keep a null. Reading a field of \`json.null\` is an error.
- A failed tool call raises an error: \`local ok, result = pcall(tools.ns.lookup, { id = id })\` gives \`false\` and the
  message instead. Timeouts and resource limits cannot be caught.
- \`print(...)\` writes to the logs. \`json.encode\`/\`json.decode\` convert between tables and JSON text.
- Available: all statements and operators (integers and floats as in Lua 5.4, \`//\`, bitwise operators, goto),
  closures, varargs, string (with Lua patterns, string.format and string.pack/unpack), table, math, utf8,
  os.time/os.clock/os.date, warn,
  pcall, error, assert, select, type, tostring, tonumber, ipairs, pairs, next, and the raw* functions.
- Not Lua: \`continue\` (use \`goto continue\` and \`::continue::\`), \`!=\` (use \`~=\`), \`s:split\`/\`s:trim\` (use
  \`string.gmatch(s, "[^,]+")\` and \`s:match("^%s*(.-)%s*$")\`), \`table.join\` (use \`table.concat\`).
- Not available: load, require, dofile, io, os.execute/getenv/exit, debug, coroutines, metatables
  (setmetatable/getmetatable), collectgarbage, and the <const>/<close> attributes.
- Work, call depth (10,000), string size (16 MiB) and table size (1,000,000 entries) are bounded.`
