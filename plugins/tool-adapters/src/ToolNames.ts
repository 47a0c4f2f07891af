/**
 * Canonical tool names. Drive speaks of tools by canonical names; the running OpenCode may call the same tool
 * differently (OpenCode 1.x calls the shell tool `bash`). This module owns that translation.
 */

/** Canonical tool names Drive can intercept, with the name OpenCode 1.x gives each. */
export const opencode1Names: Readonly<Record<string, string>> = {
  shell: "bash",
  bash: "bash",
  webfetch: "webfetch",
  websearch: "websearch",
  write: "write",
}

/** The name OpenCode 1.x uses for a canonical tool name, or the name itself when it has no alias. */
export const opencodeName = (canonical: string): string => opencode1Names[canonical] ?? canonical

/** The canonical name of an OpenCode 1.x tool (`bash` → `shell`); other names are their own canonical name. */
export const canonicalName = (name: string): string => (opencodeName(name) === "bash" ? "shell" : name)

/** Whether Drive can intercept the tool with a static adapter. */
export const isInterceptable = (name: string): boolean => Object.hasOwn(opencode1Names, name)

/**
 * The name to use on the wire for a tool a script calls `name`, given the tool names OpenCode offered in a model
 * request: `name` itself when offered, else another name of the same tool that is offered (`shell` ↔ `bash`),
 * else `name` unchanged (OpenCode then reports the unknown tool to the model, which a script testing that wants).
 */
export const toOffered = (name: string, offered: ReadonlyArray<string>): string => {
  if (offered.includes(name)) return name
  for (const alias of [opencodeName(name), canonicalName(name)]) if (offered.includes(alias)) return alias
  return name
}
