/**
 * The model-facing guide to writing JavaScript programs for CodeMode, for a host to put in a prompt.
 */

/** A short guide: the result rule, `await` on tools, inputs, `search`, data at the boundary, what is absent. */
export const instructions = `Write a JavaScript program (a strict-mode module subset). It runs in a sandbox and reaches the outside world only through tools.

- The result is the value of a top-level \`return\`, or else of the last top-level expression (as in a REPL):
  \`const o = await tools.orders.lookup({ id: "42" }); ({ id: o.id, done: o.status === "complete" })\`. A promise
  result is awaited; \`undefined\` becomes null. Top-level \`await\` works.
- Call tools as \`await tools.<namespace>.<name>({ ... })\`, with \`["x-y"]\` for names that are not identifiers:
  \`await tools.orders["lookup-by-id"]({ id: "42" })\`. A tool call returns a promise and starts at once: always
  \`await\` it (an un-awaited call is cut off when the program ends). Run independent calls together with
  \`const [a, b] = await Promise.all([tools.x.get({ id: 1 }), tools.x.get({ id: 2 })])\`.
- Tools made from an HTTP API (OpenAPI) take every path, query and header parameter by its name and the request body
  under \`body\`: \`await tools.api.issues_create({ owner: "o", repo: "r", body: { title: "Bug" } })\`.
- Find tools inside the program with \`search("order lookup")\` (the same as \`search({ query: "order lookup" })\`);
  it is a function of the program, not a tool, and answers at once (awaiting it also works). It returns
  \`{ items: [{ path, description, signature }], remaining, next }\`, best match first; call the exact path it
  returns. A query that is a tool's path (\`search("orders.lookup")\` or \`search("tools.orders.lookup")\`) returns just
  that tool with its full signature; page signatures summarise large outputs. \`namespace: "orders"\` limits the
  search, an empty query lists tools in path order, \`limit\` (at most 100) and \`offset\` page: \`next\` is
  \`{ offset }\` for the next page, or null on the last one.
- Only JSON data crosses to and from tools: plain objects, arrays, strings, finite numbers, booleans and null.
  \`undefined\` properties are dropped; Dates become ISO strings; functions, Maps, Sets, class instances, NaN,
  Infinity and cycles are refused with the path where they were found (spread a Map into an object first). JSON null
  arrives as \`null\`.
- A failed tool call rejects: \`try { await tools.x.get({ id }) } catch (e) { e.message }\` (\`e.kind\` says why).
  Timeouts and resource limits cannot be caught. Calls still running when the program ends are interrupted; failures
  nobody awaited become warnings.
- \`console.log\` writes to the logs. Available: modern syntax (classes, async functions, generators, destructuring,
  optional chaining, regular expressions) and the standard built-ins (Object, Array, String, Math, JSON, Date in UTC,
  Map, Set, Promise, RegExp, URL, TextEncoder).
- Absent: timers (setTimeout and the like), \`process\`, filesystem, network, \`fetch\` and packages unless the host
  adds them as globals, \`eval\`/\`Function\`, \`export\`, BigInt, Intl, Proxy, typed arrays other than Uint8Array.`
