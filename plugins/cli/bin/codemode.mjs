#!/usr/bin/env node
// The installed `codemode` command: runs the built CLI. In a checkout of the repository, where `npm install` links
// this file before anything is built, the packages the command needs are built first.
import { existsSync, readFileSync } from "node:fs"

const cli = new URL("../dist/cli.js", import.meta.url)
if (!existsSync(cli)) {
  const root = new URL("../../../", import.meta.url)
  const manifest = new URL("package.json", root)
  const checkout = existsSync(manifest) && JSON.parse(readFileSync(manifest, "utf8")).name === "codemode-monorepo"
  if (!checkout) {
    process.stderr.write("codemode: this copy of @codemode/cli has no dist/cli.js; reinstall the package\n")
    process.exit(1)
  }
  const { ensureBuilt } = await import(new URL("scripts/ensure-built.mjs", root).href)
  if (!ensureBuilt(["plugins/cli"], "codemode")) process.exit(1)
}
await import(cli.href)
