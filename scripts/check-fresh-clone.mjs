#!/usr/bin/env node
/**
 * The installed commands as a new user meets them: a fresh `git clone` of this repository's committed HEAD into a
 * temporary folder, `npm install` (from the npm cache when it can), then `npx codemode --help` and
 * `npx opencode-drive --help`, each of which must exit 0 and print its usage. A second `codemode --help` must not
 * build again.
 *
 *   npm run check:fresh-clone
 *
 * It takes minutes (an install and the first builds), so it is not part of `npm test`.
 */
import { spawnSync } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("..", import.meta.url))
const scratch = mkdtempSync(join(tmpdir(), "codemode-fresh-clone-"))
const clone = join(scratch, "repo")
let failures = 0
let passes = 0

const step = (title, command, args, cwd, check = () => undefined) => {
  const started = performance.now()
  const run = spawnSync(command, args, { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 })
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  const problem = run.status !== 0 ? `exit status ${run.status ?? run.signal}` : check(run)
  console.log(`${problem ? "FAIL" : "ok  "} ${title} (${seconds} s)${problem ? `: ${problem}` : ""}`)
  if (!problem) passes++
  else {
    failures++
    process.stdout.write(`${run.stdout.slice(-3000)}\n${run.stderr.slice(-3000)}\n`)
  }
  return run
}

const usage = (name) => (run) =>
  run.stdout.includes("Usage") ? undefined : `${name} --help printed no usage on stdout`

try {
  step("git clone", "git", ["clone", "--quiet", root, clone], scratch)
  if (failures === 0) {
    step("npm install", "npm", ["install", "--prefer-offline", "--no-audit", "--no-fund"], clone)
    step("the bins are linked", "ls", ["node_modules/.bin/codemode", "node_modules/.bin/opencode-drive"], clone)
    step("npx codemode --help", "npx", ["--no-install", "codemode", "--help"], clone, usage("codemode"))
    step("npx codemode --help again, without building", "npx", ["--no-install", "codemode", "--help"], clone, (run) =>
      run.stderr.includes("building") ? "it built again" : usage("codemode")(run),
    )
    step(
      "npx opencode-drive --help",
      "npx",
      ["--no-install", "opencode-drive", "--help"],
      clone,
      usage("opencode-drive"),
    )
  }
} finally {
  rmSync(scratch, { recursive: true, force: true })
}
console.log(`${passes} passed, ${failures} failed`)
process.exit(failures === 0 ? 0 : 1)
