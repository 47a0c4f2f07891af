/**
 * Core finds an installed language under a strict package layout (pnpm's isolated `node_modules`), where core's own
 * folder cannot see the language package: only the host's project can.
 */
import { execFileSync } from "node:child_process"
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, describe, expect, it } from "vitest"

const root = fileURLToPath(new URL("../..", import.meta.url))
const require = createRequire(import.meta.url)
const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`))
const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

/** Put a copy of a workspace package (its package.json and dist) into an isolated store entry with its own deps. */
const store = (base: string, entry: string, source: string, name: string, deps: Record<string, string>): string => {
  const target = join(base, "store", entry, "node_modules", name)
  mkdirSync(target, { recursive: true })
  cpSync(join(root, source, "package.json"), join(target, "package.json"))
  cpSync(join(root, source, "dist"), join(target, "dist"), { recursive: true })
  for (const [dep, path] of Object.entries(deps)) {
    const link = join(base, "store", entry, "node_modules", dep)
    mkdirSync(dirname(link), { recursive: true })
    symlinkSync(path, link)
  }
  return target
}

describe("strict package layouts", () => {
  it("runs a Lua program when only the host's project can see @codemode/lang-lua", () => {
    const base = mkdtempSync(join(tmpdir(), "codemode-layout-"))
    dirs.push(base)
    const effect = packageDir("effect")
    const core = store(base, "core", "core", "@codemode/core", { effect })
    const lua = store(base, "lua", "plugins/lang-lua", "@codemode/lang-lua", {
      effect,
      luaparse: packageDir("luaparse"),
      "@codemode/core": core,
    })
    const app = join(base, "app")
    mkdirSync(join(app, "node_modules", "@codemode"), { recursive: true })
    symlinkSync(core, join(app, "node_modules", "@codemode", "core"))
    symlinkSync(lua, join(app, "node_modules", "@codemode", "lang-lua"))
    symlinkSync(effect, join(app, "node_modules", "effect"))
    writeFileSync(join(app, "package.json"), JSON.stringify({ name: "app", type: "module", private: true }))
    writeFileSync(
      join(app, "main.mjs"),
      `import { CodeMode } from "@codemode/core"
import { Effect } from "effect"
const result = await Effect.runPromise(CodeMode.make({ language: "lua" }).execute("return 6 * 7"))
console.log(JSON.stringify(result))
process.exit(0)
`,
    )
    // Core, seen from its own folder, cannot find the language: only the project's resolution can.
    expect(() => createRequire(join(core, "package.json")).resolve("@codemode/lang-lua/definition")).toThrow()
    const out = execFileSync(process.execPath, ["main.mjs"], { cwd: app, encoding: "utf8" })
    expect(JSON.parse(out)).toMatchObject({ ok: true, value: 42 })
  })
})
