/**
 * The TUIs of a run: `opencode attach <server> --dir <project>` processes in pseudo-terminals. The primary TUI is
 * launched by `make`; more can be launched with a generated or a stable name, closed, and relaunched under the
 * same name. A recorded TUI gets its own files at settlement (`.cast` and `.mp4` by default, or the formats asked
 * for; a relaunch of a named TUI gets `-2`, `-3`, ... files). On a failure, every open TUI leaves a PNG and an
 * asciicast of its screen at that moment.
 */
import * as Path from "node:path"
import type { Recorder } from "@codemode/core"
import { trimTimeline } from "@codemode/recorder"
import { Effect } from "effect"
import {
  DriverSettledError,
  InvalidOptionsError,
  type OpenCodeExitedError,
  type RecorderError,
  TuiLaunchError,
} from "../Errors.js"
import type { Command } from "../opencode/OpenCodeBinary.js"
import * as OpenCodeServer from "../opencode/OpenCodeServer.js"
import * as Terminal from "./Terminal.js"
import * as Ui from "./Ui.js"

/** The viewport of a TUI in cells. */
export interface Viewport {
  readonly cols: number
  readonly rows: number
}

/** A recording format: a video (`mp4`, `gif`, `webm`) or an asciicast (`cast`). */
export type RecordingFormat = "mp4" | "gif" | "webm" | "cast"

/** What to record of a TUI. */
export interface RecordingOptions {
  /** Default `["mp4", "cast"]`. */
  readonly formats?: ReadonlyArray<RecordingFormat>
}

/** Options of one TUI. */
export interface TuiOptions {
  /** Default 120×40. */
  readonly viewport?: Viewport
  /**
   * Record this TUI: `true` saves an asciicast and an MP4 at settlement; `{ formats }` chooses the files. Videos
   * start at the first frame with content and end when the TUI is stopped (its exit screen is left out).
   */
  readonly recording?: boolean | RecordingOptions
}

/** The recording formats Drive can write. */
export const recordingFormats: ReadonlyArray<RecordingFormat> = ["mp4", "gif", "webm", "cast"]

const defaultFormats: ReadonlyArray<RecordingFormat> = ["mp4", "cast"]

/** The formats a `recording` option asks for (empty when it asks for none), or why it is invalid. */
export const validateRecording = (
  recording: TuiOptions["recording"],
  label: string,
): Effect.Effect<ReadonlyArray<RecordingFormat>, InvalidOptionsError> => {
  if (recording === undefined || recording === false) return Effect.succeed([])
  if (recording === true) return Effect.succeed(defaultFormats)
  const invalid = (detail: string) =>
    Effect.fail(
      new InvalidOptionsError({
        message: `${label} ${detail}; use true, false or { formats: [${recordingFormats.map((f) => JSON.stringify(f)).join(", ")}] }`,
      }),
    )
  if (typeof recording !== "object" || recording === null || Array.isArray(recording)) return invalid("is invalid")
  const unknownKeys = Object.keys(recording).filter((key) => key !== "formats")
  if (unknownKeys.length > 0)
    return invalid(`has unknown key(s) ${unknownKeys.map((k) => JSON.stringify(k)).join(", ")}`)
  const formats = recording.formats ?? defaultFormats
  if (!Array.isArray(formats) || formats.length === 0) return invalid("formats must be a non-empty list")
  const unknownFormats = formats.filter((format) => !recordingFormats.includes(format))
  if (unknownFormats.length > 0)
    return invalid(`has unknown format(s) ${unknownFormats.map((f) => JSON.stringify(f)).join(", ")}`)
  return Effect.succeed([...new Set(formats)])
}

/** One TUI process and its UI. */
export interface Tui {
  readonly name: string
  readonly ui: Ui.Ui
  /** Whether this TUI is recorded (see {@link TuiOptions.recording}). */
  readonly recording: boolean
  /** Stop this TUI; its name can then be launched again. Idempotent. */
  readonly close: () => Effect.Effect<void>
  /** Everything this TUI printed so far, with timing. */
  readonly timeline: () => Effect.Effect<Recorder.Timeline>
}

/** Why launching a TUI can fail. */
export type TuiLaunchFailure =
  | TuiLaunchError
  | InvalidOptionsError
  | DriverSettledError
  | OpenCodeExitedError
  | RecorderError

/** Launching further TUIs on the shared server. */
export interface Tuis {
  readonly launch: {
    (options?: TuiOptions): Effect.Effect<Tui, TuiLaunchFailure>
    (name: string, options?: TuiOptions): Effect.Effect<Tui, TuiLaunchFailure>
  }
  /** The TUIs currently open, the primary first. */
  readonly list: () => Effect.Effect<ReadonlyArray<Tui>>
}

/** The files a recorded TUI produced. */
export interface Recording {
  readonly tui: string
  /** Every file, in the order of the formats asked for. */
  readonly files: ReadonlyArray<string>
  /** The asciicast, when `cast` was asked for. */
  readonly cast?: string
  /** The first video, when a video format was asked for. */
  readonly video?: string
}

/** What the TUI manager needs from the run. */
export interface TuisContext {
  readonly command: Command
  /** The URL TUIs attach to (a relay that accepts connections before the server listens). */
  readonly serverUrl: string
  readonly serverUsername: string
  readonly serverPassword: string
  readonly projectDir: string
  readonly mediaDir: string
  readonly env: Record<string, string>
  readonly recorder: Recorder.RecorderShape
  readonly serverCrashed: () => OpenCodeExitedError | undefined
  readonly launchTimeoutMs: number
  readonly screenshots: Array<string>
}

/** The internal side of the TUI manager: launching, closing everything and exporting recordings. */
export interface TuiManager {
  readonly tuis: Tuis
  readonly launchNamed: (
    name: string,
    options: TuiOptions | undefined,
    primary: boolean,
  ) => Effect.Effect<Tui, TuiLaunchFailure>
  /** Reject further launches. */
  readonly seal: () => void
  readonly closeAll: Effect.Effect<void>
  /** Save the asked-for files of every recorded launch (call after `closeAll`). */
  readonly exportRecordings: Effect.Effect<ReadonlyArray<Recording>, RecorderError>
  /**
   * Evidence of a failure: a PNG and an asciicast of every open TUI as it is now (`failure-<name>.png`,
   * `failure-<name>.cast` in the media directory); returns the files written. Never fails.
   */
  readonly captureEvidence: Effect.Effect<ReadonlyArray<string>>
}

/** OpenCode 1.x shows this placeholder in its prompt once the home screen accepts input. */
export const promptReadyText = "Ask anything"

const namePattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/

/** The viewport of a TUI (default 120×40), or why it is invalid. */
export const validateViewport = (viewport: Viewport | undefined): Effect.Effect<Viewport, InvalidOptionsError> => {
  const value = viewport ?? { cols: 120, rows: 40 }
  if (
    !Number.isInteger(value.cols) ||
    !Number.isInteger(value.rows) ||
    value.cols < 40 ||
    value.rows < 10 ||
    value.cols > 1000 ||
    value.rows > 500
  ) {
    return Effect.fail(
      new InvalidOptionsError({
        message: `tui viewport ${value.cols}×${value.rows} is invalid: use whole numbers, from 40 to 1000 columns and from 10 to 500 rows (e.g. { cols: 120, rows: 40 })`,
      }),
    )
  }
  return Effect.succeed(value)
}

interface Launch {
  readonly tui: Tui
  readonly fileBase: string
  readonly formats: ReadonlyArray<RecordingFormat>
  readonly terminal: Terminal.TerminalProcess
}

/** Build the TUI manager of a run. */
export const make = (context: TuisContext): TuiManager => {
  const open = new Map<string, Launch>()
  const launches: Array<Launch> = []
  const launchCounts = new Map<string, number>()
  let generated = 0
  let sealed = false

  const launchNamed = (
    name: string,
    options: TuiOptions | undefined,
    primary: boolean,
  ): Effect.Effect<Tui, TuiLaunchFailure> =>
    Effect.gen(function* () {
      if (sealed) {
        return yield* new DriverSettledError({
          message: `tuis.launch(${JSON.stringify(name)}) after settle(): the driver is settled and launches no more TUIs`,
          operation: "tuis.launch",
        })
      }
      if (!namePattern.test(name)) {
        return yield* new InvalidOptionsError({
          message: `TUI name ${JSON.stringify(name)} is invalid: use letters, digits, ".", "_" or "-" (it names log and media files)`,
        })
      }
      if (open.has(name)) {
        return yield* new InvalidOptionsError({
          message: `a TUI named ${JSON.stringify(name)} is already open; close it first or choose another name`,
        })
      }
      const viewport = yield* validateViewport(options?.viewport)
      const formats = yield* validateRecording(options?.recording, `the recording option of TUI ${name}`)
      const recording = formats.length > 0
      if (formats.some((format) => format !== "cast")) yield* context.recorder.checkVideo
      const crash = context.serverCrashed()
      if (crash) return yield* crash

      const [file, ...leading] = context.command
      const spawnTerminal = Terminal.spawn({
        file,
        args: [...leading, "attach", context.serverUrl, "--dir", context.projectDir],
        cwd: context.projectDir,
        env: {
          ...context.env,
          OPENCODE_SERVER_USERNAME: context.serverUsername,
          OPENCODE_SERVER_PASSWORD: context.serverPassword,
          ...OpenCodeServer.quietEnvironment,
        },
        cols: viewport.cols,
        rows: viewport.rows,
      }).pipe(Effect.mapError((message) => new TuiLaunchError({ message, tui: name, screen: "" })))

      const uiOf = (terminal: Terminal.TerminalProcess, isClosed: () => boolean) =>
        Ui.make({
          name,
          terminal,
          isClosed,
          isSettled: () => sealed,
          serverCrashed: context.serverCrashed,
          recorder: context.recorder,
          mediaDir: context.mediaDir,
          screenshotPrefix: primary ? "" : `${name}-`,
          screenshots: context.screenshots,
        })

      /** Wait for the prompt; an exit while starting is returned, other failures fail the launch. */
      const awaitPrompt = (terminal: Terminal.TerminalProcess) =>
        uiOf(terminal, () => false)
          .waitFor(promptReadyText, { timeout: context.launchTimeoutMs, interval: 50 })
          .pipe(
            Effect.flatMap(() => uiOf(terminal, () => false).waitForIdle({ quietMs: 100, timeout: 2_000 })),
            Effect.as(undefined),
            Effect.catchTag("UiTimeoutError", (error) =>
              error.condition.startsWith("idle")
                ? Effect.succeed(undefined)
                : Effect.fail(
                    new TuiLaunchError({
                      message: `TUI ${name} did not show its prompt within ${context.launchTimeoutMs} ms. Screen:\n${error.screen}`,
                      tui: name,
                      screen: error.screen,
                    }),
                  ),
            ),
            Effect.catchTag("TuiExitedError", (error) => Effect.succeed(error)),
            Effect.tapError(() => terminal.close),
          )

      const terminal = yield* spawnTerminal
      const exited = yield* awaitPrompt(terminal).pipe(Effect.onInterrupt(() => terminal.close))
      if (exited) {
        yield* terminal.close
        return yield* new TuiLaunchError({
          message: `TUI ${name} exited while starting: ${exited.message}`,
          tui: name,
          screen: exited.screen,
        })
      }

      let closed = false
      const count = (launchCounts.get(name) ?? 0) + 1
      launchCounts.set(name, count)
      const started = terminal
      const tui: Tui = {
        name,
        ui: uiOf(started, () => closed),
        recording,
        close: () =>
          Effect.gen(function* () {
            if (closed) return
            closed = true
            if (open.get(name)?.tui === tui) open.delete(name)
            yield* started.close
          }),
        timeline: () => Effect.sync(() => started.timeline()),
      }
      const launch: Launch = { tui, formats, terminal: started, fileBase: count === 1 ? name : `${name}-${count}` }
      open.set(name, launch)
      launches.push(launch)
      return tui
    })

  const launch = ((nameOrOptions?: string | TuiOptions, options?: TuiOptions) => {
    if (typeof nameOrOptions === "string") return launchNamed(nameOrOptions, options, false)
    let name: string
    do name = `tui-${++generated}`
    while (open.has(name) || launchCounts.has(name))
    return launchNamed(name, nameOrOptions, false)
  }) as Tuis["launch"]

  const closeAll = Effect.suspend(() =>
    Effect.forEach([...open.values()], (entry) => entry.tui.close(), { discard: true, concurrency: "unbounded" }),
  )

  const exportRecordings = Effect.suspend(() =>
    Effect.forEach(
      launches.filter((entry) => entry.formats.length > 0),
      (entry) =>
        Effect.gen(function* () {
          // The exit screen comes after the TUI was asked to stop; the blank start is cut.
          const timeline = yield* Effect.promise(() =>
            trimTimeline(entry.terminal.timeline(), { startAtContent: true, endAt: entry.terminal.stoppedAt() }),
          )
          const files: Array<string> = []
          for (const format of entry.formats) {
            const file = Path.join(context.mediaDir, `${entry.fileBase}.${format}`)
            if (format === "cast") yield* context.recorder.saveCast(timeline, file, `OpenCode TUI ${entry.tui.name}`)
            else yield* context.recorder.exportVideo(timeline, file)
            files.push(file)
          }
          const cast = files.find((file) => file.endsWith(".cast"))
          const video = files.find((file) => !file.endsWith(".cast"))
          return {
            tui: entry.tui.name,
            files,
            ...(cast === undefined ? {} : { cast }),
            ...(video === undefined ? {} : { video }),
          } satisfies Recording
        }),
    ),
  )

  const captureEvidence = Effect.suspend(() =>
    Effect.forEach([...open.values()], (entry) =>
      Effect.gen(function* () {
        yield* entry.terminal.flush
        const png = Path.join(context.mediaDir, `failure-${entry.fileBase}.png`)
        const cast = Path.join(context.mediaDir, `failure-${entry.fileBase}.cast`)
        yield* context.recorder.screenshot(entry.terminal.capture(), png)
        yield* context.recorder.saveCast(
          entry.terminal.timeline(),
          cast,
          `OpenCode TUI ${entry.tui.name} at the failure`,
        )
        return [png, cast]
      }).pipe(Effect.orElseSucceed((): ReadonlyArray<string> => [])),
    ).pipe(Effect.map((files) => files.flat())),
  )

  return {
    tuis: { launch, list: () => Effect.sync(() => [...open.values()].map((entry) => entry.tui)) },
    launchNamed,
    seal: () => {
      sealed = true
    },
    closeAll,
    exportRecordings,
    captureEvidence,
  }
}
