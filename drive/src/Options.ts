/**
 * The options of `OpenCodeDriver.make`/`use` and `defineScript`, and their validation before anything starts:
 * unknown keys and malformed values are rejected with a message naming the option.
 */
import * as Path from "node:path"
import { Effect } from "effect"
import { InvalidOptionsError } from "./Errors.js"
import type { Command } from "./opencode/OpenCodeBinary.js"
import type { JsonObject } from "./opencode/OpenCodeConfig.js"
import type { ProjectFiles } from "./run/Project.js"
import type { ToolsOption } from "./tools/Tools.js"
import { resolveInside } from "./run/Project.js"
import { validateRecording, validateViewport } from "./tui/Tuis.js"
import type { TuiOptions } from "./tui/Tuis.js"

/** The project OpenCode works in. */
export interface ProjectOptions {
  /** Make one deterministic initial commit of the files. Default false. */
  readonly git?: boolean
  /** Relative path → content, written before OpenCode starts. */
  readonly files?: ProjectFiles
  /**
   * A stable absolute path for the project (default: `files/` inside the run directory, a new path every run), so
   * screens that show the directory are the same in every run. It must not exist or be empty; it is removed with
   * the run. Runs at the same time need different directories.
   */
  readonly directory?: string
}

/** Which OpenCode to run and how to talk to it. */
export interface OpenCodeOptions {
  /**
   * `"preferred"` (default) drives any OpenCode through its public seams and reports the profile it used;
   * `"required"` fails unless the running OpenCode offers the negotiated Drive simulation endpoint.
   */
  readonly compatibility?: "required" | "preferred"
  /** The OpenCode executable (and leading arguments); default: the `opencode-ai` package's binary. */
  readonly command?: string | Command
  /** Milliseconds to wait for the server and each TUI to become ready. Default 90 000. */
  readonly startTimeout?: number
}

/** Options of a driver. */
export interface DriverOptions {
  readonly project?: ProjectOptions
  /** Merged into OpenCode's configuration (after Drive's provider settings). */
  readonly config?: JsonObject
  /** The primary TUI (`tuis.launch` takes its own options). */
  readonly tui?: TuiOptions
  readonly opencode?: OpenCodeOptions
  /** Keep the whole run directory after a successful run. Default false (a failed run always keeps it). */
  readonly keepArtifacts?: boolean
  /** Built-in tools to intercept, declared before OpenCode starts (needs a tool-adapter implementation). */
  readonly tools?: ToolsOption
  /** The ffmpeg used for videos when the default recorder is composed. */
  readonly ffmpegPath?: string
  /** Milliseconds settlement waits for responses still streaming. Default 10 000. */
  readonly settleTimeout?: number
}

const allowed: Record<string, ReadonlyArray<string>> = {
  "": ["project", "config", "tui", "opencode", "keepArtifacts", "tools", "ffmpegPath", "settleTimeout"],
  project: ["git", "files", "directory"],
  tui: ["viewport", "recording"],
  "tui.viewport": ["cols", "rows"],
  opencode: ["compatibility", "command", "startTimeout"],
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const fail = (message: string) => Effect.fail(new InvalidOptionsError({ message }))

const checkKeys = (value: unknown, path: string): Effect.Effect<void, InvalidOptionsError> => {
  if (value === undefined) return Effect.void
  const label = path === "" ? "options" : `options.${path}`
  if (!isObject(value)) return fail(`${label} must be an object`)
  const known = allowed[path]
  const unknown = Object.keys(value).filter((key) => !known.includes(key))
  if (unknown.length > 0) {
    return fail(
      `${label} has unknown key(s) ${unknown.map((key) => JSON.stringify(key)).join(", ")}; known keys: ${known.join(", ")}`,
    )
  }
  return Effect.void
}

const positive = (value: unknown, label: string) =>
  value === undefined || (typeof value === "number" && Number.isFinite(value) && value > 0)
    ? Effect.void
    : fail(`${label} must be a positive number of milliseconds`)

/** Validate options; returns them unchanged when valid. */
export const validate = (options: DriverOptions | undefined): Effect.Effect<DriverOptions, InvalidOptionsError> =>
  Effect.gen(function* () {
    const value = (options ?? {}) as DriverOptions
    yield* checkKeys(value, "")
    yield* checkKeys(value.project, "project")
    yield* checkKeys(value.tui, "tui")
    yield* checkKeys(value.tui?.viewport, "tui.viewport")
    yield* checkKeys(value.opencode, "opencode")
    if (value.project?.files !== undefined) {
      if (!isObject(value.project.files))
        return yield* fail("options.project.files must map relative paths to file contents")
      for (const [path, content] of Object.entries(value.project.files)) {
        if (typeof content !== "string" && !(content instanceof Uint8Array)) {
          return yield* fail(`options.project.files[${JSON.stringify(path)}] must be a string or a Uint8Array`)
        }
        yield* resolveInside("/project", path)
      }
    }
    const directory = value.project?.directory
    if (
      directory !== undefined &&
      (typeof directory !== "string" ||
        !Path.isAbsolute(directory) ||
        Path.resolve(directory) === Path.parse(directory).root)
    ) {
      return yield* fail(
        "options.project.directory must be an absolute path of an empty or missing directory (not the file system root)",
      )
    }
    if (value.tui?.viewport !== undefined) yield* validateViewport(value.tui.viewport)
    yield* validateRecording(value.tui?.recording, "options.tui.recording")
    if (value.config !== undefined && !isObject(value.config))
      return yield* fail("options.config must be an object (OpenCode configuration)")
    const compatibility = value.opencode?.compatibility
    if (compatibility !== undefined && compatibility !== "required" && compatibility !== "preferred") {
      return yield* fail(
        `options.opencode.compatibility must be "required" or "preferred", got ${JSON.stringify(compatibility)}`,
      )
    }
    const command = value.opencode?.command
    if (
      command !== undefined &&
      !(typeof command === "string" && command !== "") &&
      !(Array.isArray(command) && command.length > 0 && command.every((part) => typeof part === "string"))
    ) {
      return yield* fail("options.opencode.command must be a path or a non-empty array [executable, ...arguments]")
    }
    yield* positive(value.opencode?.startTimeout, "options.opencode.startTimeout")
    yield* positive(value.settleTimeout, "options.settleTimeout")
    if (value.tools !== undefined && typeof value.tools !== "function") {
      if (!Array.isArray(value.tools) || !value.tools.every((name) => typeof name === "string" && name !== "")) {
        return yield* fail('options.tools must be a list of tool names (e.g. ["shell"]) or a registration callback')
      }
    }
    if (value.ffmpegPath !== undefined && (typeof value.ffmpegPath !== "string" || value.ffmpegPath === "")) {
      return yield* fail("options.ffmpegPath must be the path of an ffmpeg executable")
    }
    return value
  })
