import * as Path from "node:path"
import * as Os from "node:os"
import * as Fs from "node:fs"
import type { Recorder } from "@codemode/core"
import { Effect, Fiber } from "effect"
import { TestClock } from "effect/testing"
import { afterEach, describe, expect, it } from "vitest"
import * as Processes from "../src/run/Processes.js"
import * as Terminal from "../src/tui/Terminal.js"
import * as Ui from "../src/tui/Ui.js"

const fixture = Path.join(import.meta.dirname, "fixtures", "echo-keys.mjs")
const media = Fs.mkdtempSync(Path.join(Os.tmpdir(), "drive-ui-test-"))
const frames: Array<{ frame: Recorder.TerminalFrame; file: string }> = []

/** A recorder that records what it was asked to render and writes a marker file. */
const recorder: Recorder.RecorderShape = {
  screenshot: (frame, file) =>
    Effect.sync(() => {
      frames.push({ frame, file })
      Fs.writeFileSync(file, "png")
    }),
  saveCast: () => Effect.void,
  exportVideo: () => Effect.void,
  checkVideo: Effect.void,
}

const open: Array<Terminal.TerminalProcess> = []
afterEach(async () => {
  for (const terminal of open.splice(0)) await Effect.runPromise(terminal.close)
})

const start = (script: string, args: ReadonlyArray<string> = []) =>
  Effect.gen(function* () {
    const terminal = yield* Terminal.spawn({
      file: process.execPath,
      args: [script, ...args],
      cwd: media,
      env: { PATH: process.env.PATH ?? "", HOME: media },
      cols: 60,
      rows: 12,
    })
    open.push(terminal)
    let closed = false
    const ui = Ui.make({
      name: "test",
      terminal,
      isClosed: () => closed,
      isSettled: () => false,
      serverCrashed: () => undefined,
      recorder,
      mediaDir: media,
      screenshotPrefix: "",
      screenshots: [],
    })
    return { terminal, ui, close: () => (closed = true) }
  })

const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromise(effect)

describe("Ui over a real pseudo-terminal", () => {
  it("types, presses encoded keys, clicks through SGR mouse and waits for the echo", () =>
    run(
      Effect.gen(function* () {
        const { ui } = yield* start(fixture)
        yield* ui.waitFor("ready", { timeout: 10_000 })
        yield* ui.type("hi")
        yield* ui.waitFor('"hi"', { timeout: 10_000 })
        yield* ui.press("up")
        yield* ui.waitFor('"\\u001b[A"', { timeout: 10_000 })
        yield* ui.press("c", { ctrl: true })
        yield* ui.waitFor('"\\u0003"', { timeout: 10_000 })
        yield* ui.click(4, 2)
        yield* ui.waitFor(/\\u001b\[<0;5;3M\\u001b\[<0;5;3m/, { timeout: 10_000 })
        yield* ui.submit("go")
        const screen = yield* ui.waitFor((s) => s.lines.some((line) => line === '"\\r"'), { timeout: 10_000 })
        expect(screen.text).toContain('"go"')
      }),
    ))

  it("accepts predicates returning Effects and fails a timed-out wait with the screen text", () =>
    run(
      Effect.gen(function* () {
        const { ui } = yield* start(fixture)
        yield* ui.waitFor((s) => Effect.succeed(s.text.includes("ready")), { timeout: 10_000 })
        const error = yield* Effect.flip(ui.waitFor("never shown", { timeout: 300, interval: 20 }))
        if (error._tag !== "UiTimeoutError") throw new Error(`expected a UiTimeoutError, got ${error._tag}`)
        expect(error.message).toContain('waiting for text "never shown"')
        expect(error.screen).toContain("ready")
        expect(error.message).toContain("ready")
      }),
    ))

  it("reads time from the Effect Clock: a test clock moved an hour ahead ends hour-long waits in moments", () =>
    run(
      Effect.gen(function* () {
        const { ui } = yield* start(fixture)
        yield* ui.waitFor("ready", { timeout: 10_000 })
        yield* Effect.gen(function* () {
          const waiting = yield* Effect.forkChild(
            Effect.flip(ui.waitFor("never shown", { timeout: 3_600_000, interval: 60_000 })),
          )
          const idle = yield* Effect.forkChild(ui.waitForIdle({ quietMs: 600_000, timeout: 3_600_000 }))
          // Move test time a minute at a time (letting the terminal's real I/O run in between) until both end.
          for (let minutes = 0; minutes < 120 && !(waiting.pollUnsafe() && idle.pollUnsafe()); minutes++) {
            yield* TestClock.withLive(Effect.sleep(2))
            yield* TestClock.adjust("1 minute")
          }
          const error = yield* Fiber.join(waiting)
          expect(error._tag).toBe("UiTimeoutError")
          expect(error.message).toContain("timed out after 3600000 ms")
          yield* Fiber.join(idle)
        }).pipe(Effect.provide(TestClock.layer()))
      }),
    ))

  it("captures every cell with colors and attributes, the cursor and the viewport", () =>
    run(
      Effect.gen(function* () {
        const printer = Path.join(media, "print.mjs")
        Fs.writeFileSync(
          printer,
          'process.stdout.write("\\x1b[1;31mR\\x1b[0m\\x1b[38;5;200;48;2;1;2;3mP\\x1b[0m\\x1b[3;4;9;7mX\\x1b[0m界z\x1b[?25l"); setTimeout(() => {}, 60000)',
        )
        const { ui } = yield* start(printer)
        yield* ui.waitFor("z", { timeout: 10_000 })
        const frame = yield* ui.capture()
        expect([frame.cols, frame.rows]).toEqual([60, 12])
        const [r, p, x, wide, wideTail, z] = frame.cells[0]
        expect(r).toMatchObject({ glyph: "R", bold: true, fg: { mode: "palette", index: 1 }, bg: { mode: "default" } })
        expect(p).toMatchObject({ glyph: "P", fg: { mode: "palette", index: 200 }, bg: { mode: "rgb", rgb: 0x010203 } })
        expect(x).toMatchObject({
          glyph: "X",
          italic: true,
          underline: true,
          strikethrough: true,
          inverse: true,
          bold: false,
        })
        expect(wide).toMatchObject({ glyph: "界", width: 2 })
        expect(wideTail).toMatchObject({ glyph: "", width: 0 })
        expect(z.glyph).toBe("z")
        expect(frame.cursor).toEqual({ x: 6, y: 0, visible: false })
        expect(yield* ui.text()).toMatch(/^RPX界z/)
      }),
    ))

  it("resizes the terminal and records the resize in the timeline", () =>
    run(
      Effect.gen(function* () {
        const { ui, terminal } = yield* start(fixture)
        yield* ui.waitFor("ready", { timeout: 10_000 })
        yield* ui.resize(80, 20)
        const frame = yield* ui.capture()
        expect([frame.cols, frame.rows]).toEqual([80, 20])
        const timeline = terminal.timeline()
        expect([timeline.cols, timeline.rows]).toEqual([60, 12])
        expect(timeline.events[0]).toMatchObject({ type: "output" })
        expect(timeline.events.some((event) => event.type === "resize" && event.cols === 80 && event.rows === 20)).toBe(
          true,
        )
        expect((yield* Effect.flip(ui.resize(3, 3)))._tag).toBe("InvalidOptionsError")
      }),
    ))

  it("screenshots through the Recorder into the media directory and validates names", () =>
    run(
      Effect.gen(function* () {
        const { ui } = yield* start(fixture)
        yield* ui.waitFor("ready", { timeout: 10_000 })
        const file = yield* ui.screenshot("home")
        expect(file).toBe(Path.join(media, "home.png"))
        expect(frames.at(-1)?.file).toBe(file)
        expect(
          frames
            .at(-1)
            ?.frame.cells[0].map((cell) => cell.glyph)
            .join(""),
        ).toContain("ready")
        expect(yield* ui.screenshot("home")).toBe(Path.join(media, "home-2.png"))
        for (const bad of ["a/b", "shot.png", "..", ""]) {
          const error = yield* Effect.flip(ui.screenshot(bad))
          expect(error._tag).toBe("InvalidOptionsError")
        }
      }),
    ))

  it("fails semantic operations with UiCapabilityError and unknown keys with InvalidOptionsError", () =>
    run(
      Effect.gen(function* () {
        const { ui } = yield* start(fixture)
        expect((yield* Effect.flip(ui.snapshot()))._tag).toBe("UiCapabilityError")
        expect((yield* Effect.flip(ui.getNode({ role: "option", label: "Allow once" })))._tag).toBe("UiCapabilityError")
        expect((yield* Effect.flip(ui.click({ role: "button" })))._tag).toBe("UiCapabilityError")
        expect((yield* Effect.flip(ui.press("hyperspace")))._tag).toBe("InvalidOptionsError")
      }),
    ))

  it("fails fast with the exit status once the program exited, and close leaves no process", () =>
    run(
      Effect.gen(function* () {
        const { ui, terminal } = yield* start(fixture)
        yield* ui.waitFor("ready", { timeout: 10_000 })
        yield* ui.type("q")
        yield* terminal.awaitExit
        const error = yield* Effect.flip(ui.waitFor("anything", { timeout: 10_000 }))
        expect(error._tag).toBe("TuiExitedError")
        expect(error.message).toContain("exited with status 7")
        const other = yield* start(fixture)
        yield* other.ui.waitFor("ready", { timeout: 10_000 })
        yield* other.terminal.close
        expect(Processes.isAlive(other.terminal.pid)).toBe(false)
      }),
    ))
})
