/**
 * Child-process helpers: running a short command to completion, stopping a whole process group, and sweeping up
 * any process that still carries a run's HOME in its environment (descendants that escaped the group with
 * `setsid`). The sweep reads `/proc` and is a no-op where there is none.
 */
import * as ChildProcess from "node:child_process"
import { Effect } from "effect"
import * as ProcessScan from "./ProcessScan.js"
import { isAlive } from "./ProcessScan.js"

/** The result of a finished command. */
export interface CommandResult {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** Run `file args` to completion (no shell); never fails, the exit code says how it went. */
export const run = (
  file: string,
  args: ReadonlyArray<string>,
  options: { readonly cwd: string; readonly env: Record<string, string>; readonly timeoutMs?: number },
): Effect.Effect<CommandResult> =>
  Effect.callback<CommandResult>((resume) => {
    const child = ChildProcess.execFile(
      file,
      args as Array<string>,
      { cwd: options.cwd, env: options.env, timeout: options.timeoutMs ?? 30_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : null) : 0
        resume(
          Effect.succeed({
            code,
            stdout: String(stdout),
            stderr: String(stderr) || (error && code === null ? error.message : ""),
          }),
        )
      },
    )
    return Effect.sync(() => child.kill("SIGKILL"))
  })

export { isAlive, processesWithHome } from "./ProcessScan.js"

const signalGroup = (pgid: number, signal: NodeJS.Signals) => {
  try {
    process.kill(-pgid, signal)
  } catch {
    // the group is gone
  }
}

/**
 * Stop the process group led by `pgid`: SIGTERM, then SIGKILL after `graceMs` if its leader still lives, then a
 * final SIGKILL to the group to take down stragglers.
 */
export const stopGroup = (pgid: number, graceMs = 2_000): Effect.Effect<void> =>
  Effect.gen(function* () {
    signalGroup(pgid, "SIGTERM")
    const deadline = Date.now() + graceMs
    while (isAlive(pgid) && Date.now() < deadline) yield* Effect.sleep(25)
    signalGroup(pgid, "SIGKILL")
  })

/** SIGKILL every process still carrying the run's HOME; returns how many were found. */
export const sweep = (home: string): Effect.Effect<number> =>
  Effect.gen(function* () {
    const count = ProcessScan.killWithHome(home)
    if (count > 0) yield* Effect.sleep(50)
    return count
  })
