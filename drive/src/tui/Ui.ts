/**
 * The `Ui` capability of one TUI: typing, keys, submitting, waiting for screen content, capturing frames and
 * text, resizing, coordinate clicks (SGR mouse) and screenshots through the `Recorder` service. OpenCode 1.x has
 * no element tree, so semantic operations fail with `UiCapabilityError`. Every wait has a timeout, and every
 * operation fails fast when the TUI or the OpenCode server has exited.
 */
import * as Fs from "node:fs"
import * as Path from "node:path"
import type { Recorder } from "@codemode/core"
import { Clock, Effect } from "effect"
import { located } from "../CallSite.js"
import {
  InvalidOptionsError,
  type OpenCodeExitedError,
  type RecorderError,
  type ScreenMismatchError,
  TuiExitedError,
  UiCapabilityError,
  UiTimeoutError,
} from "../Errors.js"
import { encodeKey, type KeyModifiers } from "./Keys.js"
import * as ScreenSnapshot from "./ScreenSnapshot.js"
import type { TerminalProcess } from "./Terminal.js"

/** What a screen condition sees. */
export interface Screen {
  /** The visible lines joined with `\n`, trailing spaces trimmed. */
  readonly text: string
  readonly lines: ReadonlyArray<string>
  /** The full frame (cells, colors, cursor). */
  readonly frame: () => Recorder.TerminalFrame
}

/** Text to find, a pattern to match, or a predicate returning a boolean or an Effect of one. */
export type ScreenCondition<E = never> = string | RegExp | ((screen: Screen) => boolean | Effect.Effect<boolean, E>)

/** Options of `waitFor`: `timeout` (ms, default 30 000) and polling `interval` (ms, default 50). */
export interface WaitOptions {
  readonly timeout?: number
  readonly interval?: number
}

/** Options of `waitForIdle`: no output for `quietMs` (default 300) within `timeout` (default 30 000). */
export interface IdleOptions {
  readonly quietMs?: number
  readonly timeout?: number
}

/** Mouse button of a click. */
export interface ClickOptions {
  readonly button?: "left" | "middle" | "right"
}

/** A semantic element query (answered only by OpenCode versions that expose an element tree). */
export interface UiNodeQuery {
  readonly role?: string
  readonly label?: string
  readonly selected?: boolean
  readonly id?: string
}

/** Why a UI operation can fail: the TUI or the server exited. */
export type UiError = TuiExitedError | OpenCodeExitedError

/** Control of one TUI. */
export interface Ui {
  /** Type text (multi-line text is sent as a bracketed paste). */
  readonly type: (text: string) => Effect.Effect<void, UiError>
  /** Press a key: a character or a name (`enter`, `escape`, `up`, `f5`, ...), with modifiers or as `"ctrl+c"`. */
  readonly press: (key: string, modifiers?: KeyModifiers) => Effect.Effect<void, UiError | InvalidOptionsError>
  /** Type `text` (if any) and press Enter. */
  readonly submit: (text?: string) => Effect.Effect<void, UiError>
  /** Wait until the screen shows `condition`; the timeout error contains the screen text. */
  readonly waitFor: <E = never>(
    condition: ScreenCondition<E>,
    options?: WaitOptions,
  ) => Effect.Effect<Screen, UiError | UiTimeoutError | E>
  /** Wait until the TUI printed nothing for `quietMs`. */
  readonly waitForIdle: (options?: IdleOptions) => Effect.Effect<void, UiError | UiTimeoutError>
  /** The current frame: every cell's glyph, colors and attributes, the cursor and the viewport size. */
  readonly capture: () => Effect.Effect<Recorder.TerminalFrame, UiError>
  /** The visible text, lines joined with `\n`. */
  readonly text: () => Effect.Effect<string, UiError>
  /** Resize the terminal (recorded in the timeline). */
  readonly resize: (cols: number, rows: number) => Effect.Effect<void, UiError | InvalidOptionsError>
  /** Click the cell at 0-based `(x, y)` through SGR mouse reporting; semantic nodes need an element tree. */
  readonly click: {
    (x: number, y: number, options?: ClickOptions): Effect.Effect<void, UiError | InvalidOptionsError>
    (node: UiNodeQuery): Effect.Effect<never, UiCapabilityError>
  }
  /** Render the current frame to `<media>/<name>.png` through the Recorder; returns the absolute path. */
  readonly screenshot: (name?: string) => Effect.Effect<string, UiError | InvalidOptionsError | RecorderError>
  /**
   * Assert the screen against the text snapshot `file` after masking what varies (the run directory, durations,
   * spinners; see `ScreenSnapshot`). A missing snapshot is written. Waits for the screen to settle first.
   */
  readonly assertScreen: (
    file: string,
    options?: ScreenSnapshot.SnapshotOptions & IdleOptions,
  ) => Effect.Effect<string, UiError | UiTimeoutError | ScreenMismatchError>
  /** The semantic element tree — not offered by OpenCode 1.x. */
  readonly snapshot: () => Effect.Effect<never, UiCapabilityError>
  /** Find one semantic element — not offered by OpenCode 1.x. */
  readonly getNode: (query: UiNodeQuery) => Effect.Effect<never, UiCapabilityError>
}

/** What a `Ui` is built from. */
export interface UiContext {
  readonly name: string
  readonly terminal: TerminalProcess
  /** Whether the TUI was closed on purpose. */
  readonly isClosed: () => boolean
  /** Whether the driver is settled (its TUIs were stopped and no TUI can be launched). */
  readonly isSettled: () => boolean
  readonly serverCrashed: () => OpenCodeExitedError | undefined
  readonly recorder: Recorder.RecorderShape
  readonly mediaDir: string
  /** Prefix of generated screenshot names (`""` for the primary TUI, `"<name>-"` for others). */
  readonly screenshotPrefix: string
  /** Screenshots taken, in order (shared with the run report). */
  readonly screenshots: Array<string>
}

const defaultTimeout = 30_000

const capability = (operation: string) =>
  new UiCapabilityError({
    message: `ui.${operation} needs a semantic element tree, which OpenCode 1.x does not expose; use screen text (ui.waitFor, ui.text) and coordinate clicks (ui.click(x, y)) instead`,
    operation,
  })

const describeCondition = (condition: ScreenCondition<unknown>) =>
  typeof condition === "string"
    ? `text ${JSON.stringify(condition)}`
    : condition instanceof RegExp
      ? `pattern ${condition}`
      : "a predicate"

const validateScreenshotName = (name: string): Effect.Effect<string, InvalidOptionsError> => {
  if (name === "" || /[\\/]/.test(name) || Path.extname(name) !== "" || name === "." || name === "..") {
    return Effect.fail(
      new InvalidOptionsError({
        message: `screenshot name ${JSON.stringify(name)} must be a plain name without a path separator or an extension (e.g. "home"); Drive saves <media>/<name>.png`,
      }),
    )
  }
  return Effect.succeed(name)
}

/** Build the `Ui` of one TUI. */
export const make = (context: UiContext): Ui => {
  const { terminal, name } = context
  let screenshotCount = 0

  const alive = Effect.suspend((): Effect.Effect<void, UiError> => {
    const crash = context.serverCrashed()
    if (crash) return Effect.fail(crash)
    const exit = terminal.exit()
    if (context.isClosed() || exit !== undefined) {
      return Effect.fail(
        new TuiExitedError({
          message: context.isSettled()
            ? `TUI ${name} was stopped when the driver settled (settle() or the end of use); a settled driver launches no more TUIs, so use the UI inside the program`
            : context.isClosed()
              ? `TUI ${name} was closed; launch it again with tuis.launch(${JSON.stringify(name)})`
              : `TUI ${name} exited with status ${exit!.exitCode}${exit!.signal ? ` (signal ${exit!.signal})` : ""}. Screen:\n${terminal.lines().join("\n")}`,
          tui: name,
          exitCode: exit?.exitCode ?? 0,
          signal: exit?.signal ?? null,
          screen: context.isClosed() ? "" : terminal.lines().join("\n"),
        }),
      )
    }
    return Effect.void
  })

  const screen: Effect.Effect<Screen, UiError> = Effect.gen(function* () {
    yield* alive
    yield* terminal.flush
    const lines = terminal.lines()
    return { text: lines.join("\n"), lines, frame: () => terminal.capture() }
  })

  const write = (bytes: string) =>
    Effect.gen(function* () {
      yield* alive
      terminal.write(bytes)
    })

  const type = (text: string) => (text.includes("\n") ? write(`\x1b[200~${text}\x1b[201~`) : write(text))

  // Waits read time from the Effect Clock (deadlines, polling and quiet periods), so tests can drive it.
  const waitForIdle = (options?: IdleOptions) =>
    Effect.gen(function* () {
      const quietMs = options?.quietMs ?? 300
      const timeout = options?.timeout ?? defaultTimeout
      const deadline = (yield* Clock.currentTimeMillis) + timeout
      let seen = terminal.outputCount()
      let quietSince = yield* Clock.currentTimeMillis
      while (true) {
        yield* alive
        const now = yield* Clock.currentTimeMillis
        if (terminal.outputCount() !== seen) {
          seen = terminal.outputCount()
          quietSince = now
        }
        if (now - quietSince >= quietMs) return
        if (now >= deadline) {
          return yield* new UiTimeoutError({
            message: `ui.waitForIdle timed out after ${timeout} ms: TUI ${name} kept printing (wanted ${quietMs} ms of quiet). Screen:\n${terminal.lines().join("\n")}`,
            tui: name,
            condition: `idle for ${quietMs} ms`,
            timeoutMs: timeout,
            screen: terminal.lines().join("\n"),
          })
        }
        yield* Effect.sleep(Math.max(1, Math.min(quietMs - (now - quietSince), deadline - now)))
      }
    })

  const waitFor = <E>(condition: ScreenCondition<E>, options?: WaitOptions) =>
    Effect.gen(function* () {
      const timeout = options?.timeout ?? defaultTimeout
      const interval = options?.interval ?? 50
      const deadline = (yield* Clock.currentTimeMillis) + timeout
      while (true) {
        const current = yield* screen
        const matched =
          typeof condition === "string"
            ? current.text.includes(condition)
            : condition instanceof RegExp
              ? condition.test(current.text)
              : yield* Effect.suspend(() => {
                  const result = condition(current)
                  return Effect.isEffect(result) ? result : Effect.succeed(result)
                })
        if (matched) return current
        const now = yield* Clock.currentTimeMillis
        if (now >= deadline) {
          return yield* new UiTimeoutError({
            message: `ui.waitFor timed out after ${timeout} ms waiting for ${describeCondition(condition)} in TUI ${name}. Screen:\n${current.text}`,
            tui: name,
            condition: describeCondition(condition),
            timeoutMs: timeout,
            screen: current.text,
          })
        }
        yield* Effect.sleep(Math.min(interval, Math.max(1, deadline - now)))
      }
    })

  const press = (key: string, modifiers?: KeyModifiers) =>
    Effect.gen(function* () {
      const encoded = encodeKey(key, modifiers, { applicationCursorKeys: terminal.modes().applicationCursorKeys })
      if (!encoded.ok) return yield* new InvalidOptionsError({ message: `ui.press: ${encoded.error}` })
      yield* write(encoded.bytes)
    })

  const submit = (text?: string) =>
    Effect.gen(function* () {
      if (text !== undefined && text !== "") {
        yield* type(text)
        yield* waitForIdle({ quietMs: 80, timeout: 2_000 }).pipe(Effect.catchTag("UiTimeoutError", () => Effect.void))
      }
      yield* write("\r")
    })

  const click = ((xOrNode: number | UiNodeQuery, y?: number, options?: ClickOptions) => {
    if (typeof xOrNode !== "number") return Effect.fail(capability("click(node)"))
    return Effect.gen(function* () {
      yield* alive
      const frame = terminal.capture()
      const x = xOrNode
      if (!Number.isInteger(x) || !Number.isInteger(y) || x < 0 || y! < 0 || x >= frame.cols || y! >= frame.rows) {
        return yield* new InvalidOptionsError({
          message: `ui.click(${x}, ${y}) is outside the ${frame.cols}×${frame.rows} viewport; use 0-based cell coordinates`,
        })
      }
      const button = { left: 0, middle: 1, right: 2 }[options?.button ?? "left"]
      yield* write(`\x1b[<${button};${x + 1};${y! + 1}M\x1b[<${button};${x + 1};${y! + 1}m`)
    })
  }) as Ui["click"]

  const resize = (cols: number, rows: number) =>
    Effect.gen(function* () {
      if (!Number.isInteger(cols) || !Number.isInteger(rows) || cols < 20 || rows < 5 || cols > 1000 || rows > 500) {
        return yield* new InvalidOptionsError({
          message: `ui.resize(${cols}, ${rows}): the viewport needs whole numbers, at least 20 columns and 5 rows`,
        })
      }
      yield* alive
      terminal.resize(cols, rows)
    })

  const screenshot = (requested?: string) =>
    Effect.gen(function* () {
      // A name is used as given (a TUI's screenshot named "alice-view" is alice-view.png); unnamed screenshots
      // are numbered, prefixed with the TUI's name except for the primary. Taken names get -2, -3, ...
      const base =
        requested === undefined
          ? `${context.screenshotPrefix}screenshot-${++screenshotCount}`
          : yield* validateScreenshotName(requested)
      yield* alive
      yield* terminal.flush
      const frame = terminal.capture()
      let file = Path.join(context.mediaDir, `${base}.png`)
      for (let n = 2; Fs.existsSync(file) || context.screenshots.includes(file); n++) {
        file = Path.join(context.mediaDir, `${base}-${n}.png`)
      }
      yield* context.recorder.screenshot(frame, file)
      context.screenshots.push(file)
      return file
    })

  // Every operation's failure names the line of the user's program that called it.
  return {
    type: (text) => located(type(text)),
    press: (key, modifiers) => located(press(key, modifiers)),
    submit: (text) => located(submit(text)),
    waitFor: (condition, options) => located(waitFor(condition, options)),
    waitForIdle: (options) => located(waitForIdle(options)),
    capture: () => located(Effect.map(screen, (current) => current.frame())),
    text: () => located(Effect.map(screen, (current) => current.text)),
    resize: (cols, rows) => located(resize(cols, rows)),
    click: ((xOrNode: number | UiNodeQuery, y?: number, options?: ClickOptions) =>
      located(
        (click as (x: number | UiNodeQuery, y?: number, o?: ClickOptions) => Effect.Effect<void, unknown>)(
          xOrNode,
          y,
          options,
        ),
      )) as Ui["click"],
    screenshot: (requested) => located(screenshot(requested)),
    assertScreen: (file, options) =>
      located(
        Effect.gen(function* () {
          yield* waitForIdle({ quietMs: options?.quietMs ?? 300, timeout: options?.timeout })
          const current = yield* screen
          return yield* ScreenSnapshot.assertText(current.text, file, options)
        }),
      ),
    snapshot: () => located(Effect.fail(capability("snapshot"))),
    getNode: () => located(Effect.fail(capability("getNode"))),
  }
}
