import { type Language, Limits } from "@codemode/core"

/** The test-only line language, run in the real sandbox worker. */
export const lineLanguage = (overrides: Partial<Language.Definition> = {}): Language.Definition => ({
  name: "line",
  workerModule: new URL("./fixtures/line-language.mjs", import.meta.url).href,
  defaults: Limits.luaDefaults,
  extensionsCountTowardLimit: true,
  builtins: ["tools", "search", "print"],
  signatures: "lua",
  ...overrides,
})
