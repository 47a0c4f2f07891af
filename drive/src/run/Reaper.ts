/**
 * Starts a run's reaper (`reaper-main.ts`, built to `dist/reaper.js`) and releases it when the scope closes. The reaper
 * watches a pipe from this process; if this process dies without releasing it, the reaper kills the run's
 * processes and removes its directory.
 */
import * as ChildProcess from "node:child_process"
import * as Fs from "node:fs"
import type * as Net from "node:net"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import { Effect, type Scope } from "effect"
import { ProjectSetupError } from "../Errors.js"

/** `dist/reaper.js` of this package (found from this module, whether it runs from `src/` or `dist/`). */
export const scriptPath = (): string => {
  for (let dir = Path.dirname(fileURLToPath(import.meta.url)); dir !== Path.dirname(dir); dir = Path.dirname(dir)) {
    const manifest = Path.join(dir, "package.json")
    if (
      Fs.existsSync(manifest) &&
      (JSON.parse(Fs.readFileSync(manifest, "utf8")) as { name?: string }).name === "opencode-drive"
    ) {
      return Path.join(dir, "dist", "reaper.js")
    }
  }
  return Path.join(Path.dirname(fileURLToPath(import.meta.url)), "reaper.js")
}

/** Start the reaper for a run; it is released (and exits) when the scope closes. */
export const start = (options: {
  readonly root: string
  readonly home: string
  readonly keepArtifacts: boolean
  /** A project directory outside the run directory (`project.directory`), removed with it. */
  readonly projectDirectory?: string
}): Effect.Effect<{ readonly pid: number }, ProjectSetupError, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.try({
      try: () => {
        const script = scriptPath()
        if (!Fs.existsSync(script)) throw new Error(`${script} is missing; build opencode-drive (npm run build)`)
        const child = ChildProcess.spawn(
          process.execPath,
          [script, options.root, options.home, options.keepArtifacts ? "1" : "0", options.projectDirectory ?? ""],
          { detached: true, stdio: ["pipe", "ignore", "ignore"] },
        )
        child.unref()
        // The pipe must not keep this process alive: it only has to exist for as long as this process does.
        const stdin = child.stdin as Net.Socket | null
        stdin?.on("error", () => undefined)
        stdin?.unref()
        return { pid: child.pid ?? -1, stdin }
      },
      catch: (cause) =>
        new ProjectSetupError({
          message: `cannot start the run's reaper: ${cause instanceof Error ? cause.message : String(cause)}`,
          cause,
        }),
    }),
    ({ stdin }) =>
      Effect.sync(() => {
        stdin?.write("release\n")
        stdin?.end()
      }),
  ).pipe(Effect.map(({ pid }) => ({ pid })))
