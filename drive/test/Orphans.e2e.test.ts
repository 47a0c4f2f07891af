/**
 * Nothing of a run outlives the process that runs the driver, whatever kills it. A child process runs a driver
 * against the real OpenCode and reports its run directory; the test SIGKILLs it (as a test runner kills a worker)
 * and scans /proc for anything carrying the run's HOME. With the reaper killed too, the next run removes what is
 * left.
 */
import * as Fs from "node:fs"
import { describe, expect, it } from "vitest"
import { processesWithHome } from "../src/run/ProcessScan.js"
import * as RunDirectory from "../src/run/RunDirectory.js"
import { startDriverProcess, writeDriverModule } from "./support/driverProcess.js"
import { eventually } from "./support/latch.js"

const testTimeout = 300_000

/** A child process that runs a driver and waits forever once its TUI is ready. */
const startDriver = async () => {
  const module = writeDriverModule(
    [
      "await Effect.runPromise(OpenCodeDriver.use({ tools: ['shell'] }, ({ paths }) => Effect.gen(function* () {",
      "  report({ root: paths.root, home: paths.home })",
      "  yield* Effect.never",
      "})))",
    ].join("\n"),
  )
  const { child, value } = await startDriverProcess<{ root: string; home: string }>(module)
  return { child, ...value }
}

const serverAndTuis = (home: string) =>
  processesWithHome(home).map((pid) => {
    try {
      return Fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ")
    } catch {
      return ""
    }
  })

/** The reaper of a run: the process whose command line names the run directory. */
const reaperOf = (root: string): number | undefined => {
  for (const entry of Fs.readdirSync("/proc")) {
    const pid = Number(entry)
    if (!Number.isInteger(pid)) continue
    try {
      const args = Fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")
      if (args.some((arg) => arg.endsWith("reaper.js")) && args.includes(root)) return pid
    } catch {
      // gone
    }
  }
  return undefined
}

describe("no orphans", () => {
  it(
    "SIGKILL of the process running a driver takes the OpenCode server, the TUIs and the run directory with it",
    async () => {
      const { child, root, home } = await startDriver()
      const running = serverAndTuis(home)
      expect(running.some((command) => command.includes(" serve "))).toBe(true)
      expect(running.some((command) => command.includes(" attach "))).toBe(true)
      child.kill("SIGKILL")
      await eventually("no process carries the run's HOME and the run directory is gone", () => {
        return processesWithHome(home).length === 0 && !Fs.existsSync(root)
      })
    },
    testTimeout,
  )

  it(
    "when the reaper is killed too, the next run kills what is left and removes the stale run directory",
    async () => {
      const { child, root, home } = await startDriver()
      const reaper = reaperOf(root)
      expect(reaper).toBeDefined()
      process.kill(reaper!, "SIGKILL")
      child.kill("SIGKILL")
      await eventually("the driver process is gone", () => child.exitCode !== null || child.signalCode !== null)
      expect(processesWithHome(home).length).toBeGreaterThan(0)
      expect(Fs.existsSync(root)).toBe(true)
      // What every run does before it starts (and `opencode-drive clean` does on demand):
      // (another run on this machine may get there first; either way the directory goes)
      RunDirectory.removeStale()
      await eventually("no process carries the run's HOME", () => processesWithHome(home).length === 0)
      expect(Fs.existsSync(root)).toBe(false)
    },
    testTimeout,
  )
})
