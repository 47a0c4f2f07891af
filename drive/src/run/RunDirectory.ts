/**
 * One directory per run, `<tmp>/opencode-drive/run-<id>/`, with `files/` (the project), `home/` (HOME and every
 * XDG directory), `logs/` and `media/`. It is removed when the run's scope closes, except: everything is kept
 * with `keepArtifacts: true` or when the run failed (the path is printed), and `media/` is kept when the run
 * produced screenshots or recordings. While the run is live, `owner.json` names its owner process: a directory
 * whose owner died (the run was killed) is removed by the run's reaper, or else by the next run (`removeStale`).
 */
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { randomBytes } from "node:crypto"
import { Cause, Effect, Exit, type Scope } from "effect"
import { ProjectSetupError } from "../Errors.js"
import * as Owner from "./Owner.js"

/** The paths of one run. */
export interface RunPaths {
  readonly root: string
  readonly files: string
  readonly home: string
  readonly logs: string
  readonly media: string
}

/** What stays on disk after a successful run: everything, only `media/`, or nothing. */
export type Retention = "all" | "media" | "none"

/** A run directory and its retention policy. */
export interface RunDirectory {
  readonly id: string
  readonly paths: RunPaths
  /** What will be kept if the run succeeds (a failed run keeps everything). */
  readonly plannedRetention: Effect.Effect<Retention>
}

/** The parent of every run directory. */
export const runsRoot = (): string => Path.join(Os.tmpdir(), "opencode-drive")

const xdg = (home: string) => ({
  XDG_CONFIG_HOME: Path.join(home, ".config"),
  XDG_DATA_HOME: Path.join(home, ".local", "share"),
  XDG_CACHE_HOME: Path.join(home, ".cache"),
  XDG_STATE_HOME: Path.join(home, ".local", "state"),
  XDG_RUNTIME_DIR: Path.join(home, ".run"),
  XDG_CONFIG_DIRS: Path.join(home, ".xdg", "config"),
  XDG_DATA_DIRS: Path.join(home, ".xdg", "data"),
})

const passThrough = [
  "PATH",
  "LANG",
  "LC_ALL",
  "LC_CTYPE",
  "TZ",
  "SHELL",
  "TMPDIR",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "http_proxy",
  "https_proxy",
  "no_proxy",
  "npm_config_registry",
  "NPM_CONFIG_REGISTRY",
]

/**
 * The environment of every process Drive starts for this run: a minimal set passed through from the host
 * (PATH, locale, proxies, the npm registry setting) and HOME, every XDG directory and git's global config inside
 * the run. Nothing else from the host leaks in (no API keys, no OPENCODE_* settings).
 */
export const environment = (paths: RunPaths): Record<string, string> => {
  const env: Record<string, string> = {}
  for (const name of passThrough) {
    const value = process.env[name]
    if (value !== undefined) env[name] = value
  }
  if (env.LANG === undefined) env.LANG = "C.UTF-8"
  return {
    ...env,
    HOME: paths.home,
    USERPROFILE: paths.home,
    ...xdg(paths.home),
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: Path.join(paths.home, ".gitconfig"),
  }
}

const isEmptyDir = (dir: string) => {
  try {
    return Fs.readdirSync(dir).length === 0
  } catch {
    return true
  }
}

const removeQuietly = (path: string) => {
  try {
    Fs.rmSync(path, { recursive: true, force: true, maxRetries: 3 })
  } catch {
    // best effort: a file still held open by a dying process is left for the OS temp cleaner
  }
}

/**
 * Remove the run directories of runs whose owner process is gone (killed before it could clean up), after killing
 * whatever still carries their HOME; returns the removed paths. Every run does this before it starts.
 */
export const removeStale = (): ReadonlyArray<string> => Owner.removeStale(runsRoot())

/**
 * Create the run directory; its removal is tied to the current scope (see the module doc for what is kept).
 * Stale directories of killed runs are removed first.
 */
export const make = (options: {
  readonly keepArtifacts: boolean
  /**
   * A stable absolute path for the project instead of `<run>/files` (so OpenCode shows the same directory in every
   * run). It must not exist or be empty; it is removed with the run's files.
   */
  readonly projectDirectory?: string
}): Effect.Effect<RunDirectory, ProjectSetupError, Scope.Scope> =>
  Effect.gen(function* () {
    yield* Effect.sync(removeStale)
    const id = `${Date.now().toString(36)}-${randomBytes(4).toString("hex")}`
    const root = Path.join(runsRoot(), `run-${id}`)
    const paths: RunPaths = {
      root,
      files: options.projectDirectory ?? Path.join(root, "files"),
      home: Path.join(root, "home"),
      logs: Path.join(root, "logs"),
      media: Path.join(root, "media"),
    }
    yield* Effect.try({
      try: () => {
        if (options.projectDirectory !== undefined && !isEmptyDir(options.projectDirectory)) {
          throw new Error(
            `project.directory ${options.projectDirectory} is not empty (another run may be using it); give an empty or missing directory`,
          )
        }
        Fs.mkdirSync(root, { recursive: true })
        Owner.write(root, paths.home)
        for (const dir of [paths.files, paths.logs, paths.media, ...Object.values(xdg(paths.home))]) {
          Fs.mkdirSync(dir, { recursive: true })
        }
        Fs.chmodSync(xdg(paths.home).XDG_RUNTIME_DIR, 0o700)
      },
      catch: (cause) =>
        new ProjectSetupError({
          message: `cannot create the run directory ${root}: ${cause instanceof Error ? cause.message : String(cause)}; check that the temp directory is writable`,
          cause,
        }),
    })
    const plannedRetention = Effect.sync(
      (): Retention => (options.keepArtifacts ? "all" : isEmptyDir(paths.media) ? "none" : "media"),
    )
    yield* Effect.addFinalizer((exit) =>
      Effect.sync(() => {
        Owner.release(root)
        if (options.keepArtifacts) return
        if (Exit.isFailure(exit) && !Cause.hasInterruptsOnly(exit.cause)) {
          process.stderr.write(
            `opencode-drive: the run failed; its artifacts are kept in ${root}${options.projectDirectory === undefined ? "" : ` and ${options.projectDirectory}`}\n`,
          )
          return
        }
        if (options.projectDirectory !== undefined) removeQuietly(options.projectDirectory)
        if (isEmptyDir(paths.media)) {
          removeQuietly(root)
          return
        }
        for (const dir of [paths.files, paths.home, paths.logs]) removeQuietly(dir)
        if (Exit.isFailure(exit))
          process.stderr.write(`opencode-drive: the run was interrupted; its media is kept in ${paths.media}\n`)
      }),
    )
    return { id, paths, plannedRetention }
  })
