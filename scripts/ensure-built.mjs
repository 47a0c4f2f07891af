/**
 * Builds the workspace packages a command needs when their `dist/` is missing, as in a fresh clone right after
 * `npm install` (which links the committed bin files but builds nothing).
 *
 *   node scripts/ensure-built.mjs plugins/cli [drive …]
 *
 * Each folder's workspace dependencies (its `dependencies` that are packages of this repository) are built first,
 * in dependency order; a package whose `main` file exists is left alone. Only one line (or a failed build's last
 * lines) goes to stderr, and nothing to stdout, so a command whose stdout is a protocol (`codemode mcp`) stays clean.
 */
import { spawnSync } from "node:child_process"
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("..", import.meta.url))
const readJson = (path) => JSON.parse(readFileSync(path, "utf8"))

/** Every workspace package of the repository by name: its folder and its manifest. */
const workspaces = () => {
  const byName = new Map()
  for (const folder of readJson(join(root, "package.json")).workspaces ?? []) {
    const manifest = join(root, folder, "package.json")
    if (existsSync(manifest)) {
      const pkg = readJson(manifest)
      byName.set(pkg.name, { folder, pkg })
    }
  }
  return byName
}

/** The folders to build for `folders`, dependencies first, keeping only those whose `main` file is missing. */
export const missingBuilds = (folders) => {
  const byName = workspaces()
  const byFolder = new Map([...byName.values()].map((w) => [w.folder, w]))
  const order = []
  const seen = new Set()
  const visit = (workspace) => {
    if (seen.has(workspace.folder)) return
    seen.add(workspace.folder)
    for (const dependency of Object.keys(workspace.pkg.dependencies ?? {})) {
      const inner = byName.get(dependency)
      if (inner) visit(inner)
    }
    order.push(workspace)
  }
  for (const folder of folders) {
    const workspace = byFolder.get(folder)
    if (!workspace) throw new Error(`${folder} is not a workspace of this repository`)
    visit(workspace)
  }
  return order
    .filter(({ folder, pkg }) => pkg.scripts?.build && !existsSync(join(root, folder, pkg.main ?? "dist/index.js")))
    .map(({ folder }) => folder)
}

const lockDir = join(root, "node_modules", ".codemode-build.lock")

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)

/** Whether the process that holds the lock is gone (a build interrupted with Ctrl-C leaves its lock behind). */
const lockIsStale = () => {
  let pid
  try {
    pid = Number(readFileSync(join(lockDir, "pid"), "utf8"))
  } catch {
    // Just created, its pid not written yet; or just released.
    return false
  }
  try {
    process.kill(pid, 0)
    return false
  } catch (error) {
    return error.code === "ESRCH"
  }
}

/**
 * Hold the build lock while `run` runs, so commands started together (an MCP client launching several servers
 * after a fresh install) build once instead of deleting each other's `dist/`.
 */
const withBuildLock = (run) => {
  for (;;) {
    try {
      mkdirSync(lockDir)
      writeFileSync(join(lockDir, "pid"), String(process.pid))
      break
    } catch (error) {
      if (error.code !== "EEXIST") throw error
      if (lockIsStale()) rmSync(lockDir, { recursive: true, force: true })
      else sleep(250)
    }
  }
  try {
    return run()
  } finally {
    rmSync(lockDir, { recursive: true, force: true })
  }
}

/** Build what `folders` need; returns false (after saying why on stderr) when a build fails. */
export const ensureBuilt = (folders, who = "codemode") => {
  if (missingBuilds(folders).length === 0) return true
  return withBuildLock(() => build(missingBuilds(folders), who))
}

const build = (missing, who) => {
  if (missing.length === 0) return true
  process.stderr.write(`${who}: building ${missing.join(", ")} first (once, after a fresh install)…\n`)
  for (const folder of missing) {
    const result = spawnSync("npm", ["run", "build", "--workspace", folder], {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      maxBuffer: 16 * 1024 * 1024,
    })
    if (result.status !== 0) {
      const output = `${result.stdout ?? ""}${result.stderr ?? ""}`.trimEnd().split("\n").slice(-20).join("\n")
      process.stderr.write(`${output}\n${who}: the build of ${folder} failed (its last lines are above)\n`)
      return false
    }
  }
  return true
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exit(ensureBuilt(process.argv.slice(2)) ? 0 : 1)
