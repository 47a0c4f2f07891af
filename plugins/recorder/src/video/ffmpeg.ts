/**
 * Finding ffmpeg: `ffmpegPath` option → `FFMPEG_PATH` → the optional `ffmpeg-static` package → `ffmpeg` on PATH,
 * and probing the one found (version and encoders) before a video export relies on it.
 */
import { execFile } from "node:child_process"
import { accessSync, constants, statSync } from "node:fs"
import { createRequire } from "node:module"
import { delimiter, join } from "node:path"

/** Where the ffmpeg in use came from. */
export type FfmpegSource = "option" | "FFMPEG_PATH" | "ffmpeg-static" | "PATH"

/** An ffmpeg binary and where it was found. */
export interface ResolvedFfmpeg {
  readonly path: string
  readonly source: FfmpegSource
}

/** What resolution looks at; tests replace the environment and the `ffmpeg-static` lookup. */
export interface FfmpegLookup {
  /** An explicit binary (the recorder's `ffmpegPath` option); wins over everything else. */
  readonly ffmpegPath?: string
  /** Environment with `FFMPEG_PATH` and `PATH`; defaults to `process.env`. */
  readonly env?: NodeJS.ProcessEnv
  /** The path `ffmpeg-static` exports (a string, or null without a build for this platform); throws when absent. */
  readonly ffmpegStatic?: () => string | null
}

/** What to tell someone who has no ffmpeg. */
export const HOW_TO_GET_FFMPEG =
  "Install ffmpeg with your system package manager (for example `apt-get install ffmpeg`, `dnf install ffmpeg` or " +
  "`brew install ffmpeg`) or set FFMPEG_PATH to an ffmpeg binary. Screenshots and .cast files work without ffmpeg."

const requireFromHere = createRequire(import.meta.url)

function defaultFfmpegStatic(): string | null {
  return requireFromHere("ffmpeg-static") as string | null
}

/** Why `path` is not an executable file, or `undefined` when it is one. */
function notExecutable(path: string): string | undefined {
  try {
    if (!statSync(path).isFile()) return "it is not a file"
    accessSync(path, constants.X_OK)
    return undefined
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === "ENOENT") return "it does not exist"
    if (code === "EACCES") return "it is not executable"
    return error instanceof Error ? error.message : String(error)
  }
}

/**
 * Finds the ffmpeg binary to use. Throws an Error saying what to do when an explicit choice (the option or
 * `FFMPEG_PATH`) is unusable, or when no ffmpeg exists at all.
 */
export function resolveFfmpeg(lookup: FfmpegLookup = {}): ResolvedFfmpeg {
  const env = lookup.env ?? process.env
  if (lookup.ffmpegPath !== undefined) {
    const problem = notExecutable(lookup.ffmpegPath)
    if (problem !== undefined) {
      throw new Error(
        `The ffmpegPath option points at ${lookup.ffmpegPath}, but ${problem}. Point it at an ffmpeg binary, or leave it ` +
          `unset to use FFMPEG_PATH, the ffmpeg-static package or the ffmpeg on PATH.`,
      )
    }
    return { path: lookup.ffmpegPath, source: "option" }
  }
  const fromEnv = env.FFMPEG_PATH
  if (fromEnv !== undefined && fromEnv !== "") {
    const problem = notExecutable(fromEnv)
    if (problem !== undefined) {
      throw new Error(
        `FFMPEG_PATH is set to ${fromEnv}, but ${problem}. Set FFMPEG_PATH to an ffmpeg binary or unset it.`,
      )
    }
    return { path: fromEnv, source: "FFMPEG_PATH" }
  }
  let fromPackage: string | null = null
  try {
    fromPackage = (lookup.ffmpegStatic ?? defaultFfmpegStatic)()
  } catch {
    // ffmpeg-static is optional: not installed is a normal case.
  }
  // The package installs even when its binary download failed; only a binary that exists counts.
  if (typeof fromPackage === "string" && notExecutable(fromPackage) === undefined) {
    return { path: fromPackage, source: "ffmpeg-static" }
  }
  const names = process.platform === "win32" ? ["ffmpeg.exe", "ffmpeg"] : ["ffmpeg"]
  for (const directory of (env.PATH ?? "").split(delimiter)) {
    if (directory === "") continue
    for (const name of names) {
      const candidate = join(directory, name)
      if (notExecutable(candidate) === undefined) return { path: candidate, source: "PATH" }
    }
  }
  throw new Error(
    `No ffmpeg found (looked at FFMPEG_PATH, the optional ffmpeg-static package and PATH). ${HOW_TO_GET_FFMPEG}`,
  )
}

/** What a probed ffmpeg can do. */
export interface FfmpegCapabilities {
  readonly path: string
  /** The version string, e.g. `5.1.6-0+deb12u1` or `6.0-static`. */
  readonly version: string
  /** Whether it takes `-fps_mode` (5.1 and later); older builds take `-vsync`. */
  readonly hasFpsMode: boolean
  readonly encoders: ReadonlySet<string>
}

const probes = new Map<string, Promise<FfmpegCapabilities>>()

/** Runs ffmpeg once to learn its version and encoders (cached per path); rejects if it does not run. */
export function probeFfmpeg(path: string): Promise<FfmpegCapabilities> {
  let probe = probes.get(path)
  if (probe === undefined) {
    probe = runProbe(path)
    probes.set(path, probe)
    probe.catch(() => probes.delete(path))
  }
  return probe
}

async function runProbe(path: string): Promise<FfmpegCapabilities> {
  const versionText = await run(path, ["-hide_banner", "-version"])
  const encodersText = await run(path, ["-hide_banner", "-encoders"])
  const version = /ffmpeg version (\S+)/.exec(versionText)?.[1] ?? "unknown"
  const numeric = /^n?(\d+)\.(\d+)/.exec(version)
  // Builds from git ("N-12345-g…") are recent; only a numbered release older than 5.1 lacks -fps_mode.
  const hasFpsMode = numeric === null || Number(numeric[1]) > 5 || (Number(numeric[1]) === 5 && Number(numeric[2]) >= 1)
  const encoders = new Set<string>()
  for (const line of encodersText.split("\n")) {
    const match = /^\s*[VAS][.A-Z]{5}\s+(\S+)/.exec(line)
    if (match) encoders.add(match[1])
  }
  return { path, version, hasFpsMode, encoders }
}

function run(path: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(path, args, { timeout: 15_000, maxBuffer: 4 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) {
        const detail = (stderr || error.message).trim().split("\n").slice(-3).join(" ")
        reject(new Error(`ffmpeg at ${path} does not run (${detail}). ${HOW_TO_GET_FFMPEG}`))
      } else {
        resolve(stdout)
      }
    })
  })
}
