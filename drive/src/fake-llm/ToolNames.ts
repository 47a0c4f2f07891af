/**
 * Canonical tool names and their names in a running OpenCode. Scripts say `shell`; OpenCode 1.x offers the same
 * tool as `bash`. The table lives in `@codemode/tool-adapters` (which generates the adapters under those names);
 * the fake LLM uses `toOffered` when it emits tool calls, choosing the name the request offers.
 */
import { canonicalName, opencode1Names, opencodeName } from "@codemode/tool-adapters"

export { canonicalName, opencodeName, toOffered } from "@codemode/tool-adapters"

/** Each name → the other names of the same tool (`shell` → `bash`, `bash` → `shell`). */
export const aliases: Readonly<Record<string, ReadonlyArray<string>>> = Object.fromEntries(
  Object.keys(opencode1Names).map((name) => [
    name,
    [...new Set([opencodeName(name), canonicalName(name)])].filter((other) => other !== name),
  ]),
)
