/**
 * Child-process helpers: running a short command to completion, stopping a whole process group, and sweeping up
 * any process that still carries a run's HOME in its environment (descendants that escaped the group with
 * `setsid`). The sweep reads `/proc` and is a no-op where there is none.
 */
import * as ChildProcess from "node:child_process"
import * as Fs from "node:fs"
import { Effect } from "effect"

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

/** Whether a process id is alive. */
export const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

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

/** Ids of live processes whose environment contains `HOME=<home>` (Linux `/proc`; empty elsewhere). */
export const processesWithHome = (home: string): ReadonlyArray<number> => {
  let entries: Array<string>
  try {
    entries = Fs.readdirSync("/proc")
  } catch {
    return []
  }
  const marker = Buffer.from(`\0HOME=${home}\0`)
  const markerAtStart = Buffer.from(`HOME=${home}\0`)
  const found: Array<number> = []
  for (const entry of entries) {
    const pid = Number(entry)
    if (!Number.isInteger(pid) || pid === process.pid) continue
    try {
      const environ = Fs.readFileSync(`/proc/${pid}/environ`)
      if (environ.includes(marker) || environ.subarray(0, markerAtStart.length).equals(markerAtStart)) found.push(pid)
    } catch {
      // gone or not ours
    }
  }
  return found
}

/** SIGKILL every process still carrying the run's HOME; returns how many were found. */
export const sweep = (home: string): Effect.Effect<number> =>
  Effect.gen(function* () {
    const pids = processesWithHome(home)
    for (const pid of pids) {
      try {
        process.kill(pid, "SIGKILL")
      } catch {
        // already gone
      }
    }
    if (pids.length > 0) yield* Effect.sleep(50)
    return pids.length
  })
