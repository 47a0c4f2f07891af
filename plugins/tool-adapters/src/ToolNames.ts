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
