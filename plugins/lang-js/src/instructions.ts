/**
 * The model-facing guide to writing JavaScript programs for CodeMode, for a host to put in a prompt.
 */

/** A short guide: the subset, `await` on tools, `search`, results, what is absent. */
export const instructions = `Write a JavaScript program (a strict, module-like subset). It runs in a sandbox and reaches the outside world only through tools.

- Call tools as \`await tools.<namespace>.<name>({ ... })\`, with \`["x-y"]\` for names that are not identifiers:
  \`await tools.orders["lookup-by-id"]({ id: "42" })\`. Every tool call returns a promise and starts at once; run
  independent calls together with \`await Promise.all([...])\`.
- Find tools inside the program with \`search({ query: "order lookup" })\`: it returns \`{ items: [{ path, description,
  signature }], remaining, next }\` (awaiting it also works). Use the exact path it returns. \`namespace\` limits the
  search, an empty query browses, \`limit\`/\`offset\` page through results.
- The result is the value of an explicit \`return\`, or else of the last top-level expression; \`undefined\` becomes null.
- Only JSON data crosses: tool inputs and the result must be plain objects, arrays, strings, finite numbers, booleans
  and null. Functions, Maps, Sets, class instances, NaN and cycles are refused with the path where they were found.
- A failed tool call rejects: catch it with \`try { ... } catch (e) { e.message }\`. Timeouts and resource limits
  cannot be caught. Calls still running when the program ends are interrupted; un-awaited failures become warnings.
- There are no timers, \`process\`, filesystem, network or packages: only the tools, \`search\` and the globals the
  host adds. \`console.log\` output is returned as logs.`
