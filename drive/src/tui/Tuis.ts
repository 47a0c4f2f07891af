/**
 * The TUIs of a run: `opencode attach <server> --dir <project>` processes in pseudo-terminals. The primary TUI is
 * launched by `make`; more can be launched with a generated or a stable name, closed, and relaunched under the
 * same name. A TUI launched with `recording: true` gets its own `.cast` and `.mp4` at settlement (a relaunch of a
 * named TUI gets `-2`, `-3`, ... files).
 */
import * as Path from "node:path"
import type { Recorder } from "@codemode/core"
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

/** Options of one TUI. */
export interface TuiOptions {
  /** Default 120×40. */
  readonly viewport?: Viewport
  /** Save an asciicast and export a video of this TUI at settlement. */
  readonly recording?: boolean
}

/** One TUI process and its UI. */
export interface Tui {
  readonly name: string
  readonly ui: Ui.Ui
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
  readonly cast: string
  readonly video: string
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
  /** Save `.cast` and export `.mp4` for every recorded launch (call after `closeAll`). */
  readonly exportRecordings: Effect.Effect<ReadonlyArray<Recording>, RecorderError>
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
        message: `tui viewport ${value.cols}×${value.rows} is invalid: use whole numbers, at least 40 columns and 10 rows (e.g. { cols: 120, rows: 40 })`,
      }),
    )
  }
  return Effect.succeed(value)
}

interface Launch {
  readonly tui: Tui
  readonly fileBase: string
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
      const recording = options?.recording ?? false
      if (recording) yield* context.recorder.checkVideo
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
      const launch: Launch = { tui, terminal: started, fileBase: count === 1 ? name : `${name}-${count}` }
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
      launches.filter((entry) => entry.tui.recording),
      (entry) =>
        Effect.gen(function* () {
          const timeline = entry.terminal.timeline()
          const cast = Path.join(context.mediaDir, `${entry.fileBase}.cast`)
          const video = Path.join(context.mediaDir, `${entry.fileBase}.mp4`)
          yield* context.recorder.saveCast(timeline, cast, `OpenCode TUI ${entry.tui.name}`)
          yield* context.recorder.exportVideo(timeline, video)
          return { tui: entry.tui.name, cast, video }
        }),
    ),
  )

  return {
    tuis: { launch, list: () => Effect.sync(() => [...open.values()].map((entry) => entry.tui)) },
    launchNamed,
    seal: () => {
      sealed = true
    },
    closeAll,
    exportRecordings,
  }
}
