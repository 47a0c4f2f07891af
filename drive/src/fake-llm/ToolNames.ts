/**
 * Canonical tool names and their names in a running OpenCode. Scripts say `shell`; OpenCode 1.x offers the same
 * tool as `bash`. The fake LLM uses this table when it emits tool calls, choosing the name the request offers.
 */

/** Canonical name → the names OpenCode versions have used for that tool, most recent first. */
export const aliases: Readonly<Record<string, ReadonlyArray<string>>> = {
  shell: ["bash"],
  bash: ["shell"],
}

/**
 * The name to use on the wire for a tool the script calls `name`, given the tool names OpenCode offered in the
 * request: `name` itself when offered, else the first offered alias, else `name` unchanged (OpenCode then
 * reports the unknown tool to the model, which is what a script testing that case wants).
 */
export const toOffered = (name: string, offered: ReadonlyArray<string>): string => {
  if (offered.includes(name)) return name
  for (const alias of aliases[name] ?? []) if (offered.includes(alias)) return alias
  return name
}
