import { Language } from "@codemode/core"
import type { Signature } from "@codemode/core/plugin"

/** The dialect of an installed language (the workspace has both). */
export const dialect = (name: "lua" | "javascript"): Signature.Dialect => Language.find(name)!.dialect

/** The test-only line language, run in the real sandbox. */
export const lineLanguage = (overrides: Partial<Language.Definition> = {}): Language.Definition => ({
  name: "line",
  workerModule: new URL("./fixtures/line-language.mjs", import.meta.url).href,
  defaults: { timeoutMs: 120_000, maxToolCalls: 128, maxOutputBytes: 65_536 },
  extensionsCountTowardLimit: true,
  builtins: ["tools", "search", "print"],
  dialect: dialect("lua"),
  instructions: "One command per line.",
  ...overrides,
})
