// Times the 8-test suite in bench/suite (each test starts the real OpenCode through `opencode-drive/vitest`)
// run serially (one worker, files one at a time) and with 2 workers. Build first (`npx tsup`).
// Usage: node bench/suite.mjs
import * as ChildProcess from "node:child_process"
import * as Path from "node:path"

const root = Path.join(import.meta.dirname, "..")

const time = (label, args) => {
  const started = performance.now()
  const result = ChildProcess.spawnSync("npx", ["vitest", "run", "--config", "bench/suite/vitest.config.ts", ...args], {
    cwd: root,
    encoding: "utf8",
  })
  const seconds = (performance.now() - started) / 1000
  const summary = /Tests\s+(.*)/.exec(result.stdout.replace(/\x1b\[[0-9;]*m/g, ""))?.[1] ?? "no summary"
  if (result.status !== 0) throw new Error(`${label} failed:\n${result.stdout}\n${result.stderr}`)
  console.log(`  ${label.padEnd(28)} ${seconds.toFixed(1)} s  (${summary.trim()})`)
  return seconds
}

console.log("8 small tests against the real OpenCode, each with its own driver:")
const serial = time("serial (1 worker)", ["--maxWorkers=1", "--no-file-parallelism"])
const parallel = time("2 workers", ["--maxWorkers=2"])
console.log(`  speed-up                     ${(serial / parallel).toFixed(2)}x`)
