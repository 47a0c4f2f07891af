// Runs every package's benchmark (`<package>/bench/run.mjs`) one after another and prints their tables.
import { spawnSync } from "node:child_process"
import { existsSync } from "node:fs"
import { resolve } from "node:path"

const packages = [
  "core",
  "plugins/lang-lua",
  "plugins/lang-js",
  "plugins/openapi",
  "plugins/mcp",
  "plugins/recorder",
  "plugins/tool-adapters",
  "drive",
  "integration",
]
const only = process.argv.slice(2)
let failed = false
for (const pkg of packages) {
  if (only.length && !only.some((o) => pkg.endsWith(o))) continue
  const script = `${pkg}/bench/run.mjs`
  if (!existsSync(script)) continue
  console.log(`\n# ${pkg}\n`)
  const result = spawnSync(process.execPath, [resolve(script)], { stdio: "inherit", cwd: pkg })
  if (result.status !== 0) {
    console.error(`benchmark ${script} failed with exit code ${result.status}`)
    failed = true
  }
}
process.exit(failed ? 1 : 0)
