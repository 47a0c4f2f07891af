/**
 * The reaper: a tiny process each run starts first, detached in its own session, so that nothing of the run
 * outlives the process that started it, however that process ends (SIGKILL included). It reads a pipe from its
 * parent: the line `release` means the run cleaned up after itself and the reaper exits. End of the pipe without
 * it, or a new parent, means the parent died: the reaper kills every process carrying the run's HOME (repeating
 * until none is left), removes the run directory (unless the run keeps its artifacts, then only the owner file),
 * and exits. Arguments: `<run directory> <home> <keep: 0|1> [<stable project directory>]`.
 */
import * as Fs from "node:fs"
import { release } from "./Owner.js"
import { killWithHome } from "./ProcessScan.js"

const [root, home, keep, project] = process.argv.slice(2)
const parent = process.ppid
let released = false
let input = ""

const reap = () => {
  if (released) process.exit(0)
  // Processes may still be forking while we kill: sweep until two rounds in a row find nothing (at most ~3 s).
  let quiet = 0
  for (let round = 0; round < 60 && quiet < 2; round++) {
    quiet = killWithHome(home) === 0 ? quiet + 1 : 0
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50)
  }
  try {
    if (keep === "1") release(root)
    else {
      if (project) Fs.rmSync(project, { recursive: true, force: true, maxRetries: 5 })
      Fs.rmSync(root, { recursive: true, force: true, maxRetries: 5 })
    }
  } catch {
    // the next run's stale-directory sweep removes it
  }
  process.exit(0)
}

process.stdin.setEncoding("utf8")
process.stdin.on("data", (chunk: string) => {
  input += chunk
  if (input.includes("release\n")) released = true
})
process.stdin.on("end", reap)
process.stdin.on("error", reap)
// A parent killed while the pipe is somehow still open elsewhere: notice the re-parenting too.
setInterval(() => {
  if (process.ppid !== parent) reap()
}, 500)
