/**
 * Who owns a run directory. While a run is live, `<run>/owner.json` names the process that started it (its pid and
 * start time, so a reused pid does not count) and the run's HOME. A directory whose owner is gone belongs to a run
 * that was killed before it could clean up: {@link removeStale} kills whatever still carries its HOME and removes
 * it. Directories without an owner file (kept on purpose: a failed run, `keepArtifacts`, media) are left alone.
 * Effect-free, so the reaper can use it.
 */
import * as Fs from "node:fs"
import * as Path from "node:path"
import { isAlive, killWithHome, startTime } from "./ProcessScan.js"

/** The owner file's name inside a run directory. */
export const fileName = "owner.json"

/** The content of an owner file. */
export interface Owner {
  readonly pid: number
  /** `/proc/<pid>/stat` start time of the owner, when readable. */
  readonly startTime: number | undefined
  /** The run's HOME: every process of the run carries it. */
  readonly home: string
}

/** Record this process as the owner of the run directory `root`. */
export const write = (root: string, home: string): void => {
  const owner: Owner = { pid: process.pid, startTime: startTime(process.pid), home }
  Fs.writeFileSync(Path.join(root, fileName), `${JSON.stringify(owner)}\n`)
}

/** The owner of `root`, if it has an owner file. */
export const read = (root: string): Owner | undefined => {
  try {
    const parsed = JSON.parse(Fs.readFileSync(Path.join(root, fileName), "utf8")) as Owner
    return typeof parsed.pid === "number" && typeof parsed.home === "string" ? parsed : undefined
  } catch {
    return undefined
  }
}

/** The run in `root` ended: it has no owner any more (its directory is kept or about to be removed). */
export const release = (root: string): void => {
  Fs.rmSync(Path.join(root, fileName), { force: true })
}

/** Whether the owner recorded for a run is gone (dead, or its pid now belongs to another process). */
export const isGone = (owner: Owner): boolean => {
  if (!isAlive(owner.pid)) return true
  const now = startTime(owner.pid)
  return owner.startTime !== undefined && now !== undefined && now !== owner.startTime
}

/**
 * Remove every run directory under `runsRoot` whose owner is gone, after killing the processes still carrying its
 * HOME. Returns the removed directories.
 */
export const removeStale = (runsRoot: string): ReadonlyArray<string> => {
  let entries: Array<string>
  try {
    entries = Fs.readdirSync(runsRoot)
  } catch {
    return []
  }
  const removed: Array<string> = []
  for (const entry of entries) {
    if (!entry.startsWith("run-")) continue
    const root = Path.join(runsRoot, entry)
    const owner = read(root)
    if (owner === undefined || !isGone(owner)) continue
    killWithHome(owner.home)
    try {
      Fs.rmSync(root, { recursive: true, force: true, maxRetries: 3 })
      removed.push(root)
    } catch {
      // still held by a dying process: the next run tries again
    }
  }
  return removed
}
