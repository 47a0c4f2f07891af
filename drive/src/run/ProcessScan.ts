/**
 * Finding a run's processes without Effect (the reaper imports this, and starts in milliseconds): every process
 * Drive starts for a run carries the run's `HOME` in its environment, and so do their descendants, including the
 * ones that left the process group. Linux `/proc` only; elsewhere nothing is found.
 */
import * as Fs from "node:fs"

/** Whether a process id is alive. */
export const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

/** The start time of a process in clock ticks since boot (`/proc/<pid>/stat` field 22), if it can be read. */
export const startTime = (pid: number): number | undefined => {
  try {
    const stat = Fs.readFileSync(`/proc/${pid}/stat`, "utf8")
    // The command name (field 2) is parenthesised and may contain spaces: count fields after its closing paren.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    const ticks = Number(fields[19])
    return Number.isFinite(ticks) ? ticks : undefined
  } catch {
    return undefined
  }
}

/** Ids of live processes (other than this one) whose environment contains `HOME=<home>`. */
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

/** SIGKILL every process carrying `HOME=<home>`; returns how many were signalled. */
export const killWithHome = (home: string): number => {
  const pids = processesWithHome(home)
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL")
    } catch {
      // already gone
    }
  }
  return pids.length
}
