/**
 * One terminal program in a pseudo-terminal (node-pty), parsed by @xterm/headless. Keeps the timeline — every
 * output chunk with its time and every resize — from the first byte, answers the terminal queries the emulator
 * leaves open, and captures frames with the recorder's `frameFromTerminal` with Unicode 11 widths (so live
 * screenshots and replayed recordings read the screen the same way, and as OpenCode lays it out).
 */
import type { Recorder } from "@codemode/core"
import { frameFromTerminal, useUnicode11 } from "@codemode/recorder"
import xterm from "@xterm/headless"
import type { Terminal as XtermTerminal } from "@xterm/headless"
import pty from "node-pty"
import { Deferred, Effect } from "effect"
import * as Processes from "../run/Processes.js"
import * as TerminalQueries from "./TerminalQueries.js"

/** How the program ended. */
export interface TerminalExit {
  readonly exitCode: number
  readonly signal: number | null
}

/** What to run and how big the terminal is. */
export interface SpawnOptions {
  readonly file: string
  readonly args: ReadonlyArray<string>
  readonly cwd: string
  readonly env: Record<string, string>
  readonly cols: number
  readonly rows: number
}

/** A running terminal program. */
export interface TerminalProcess {
  readonly pid: number
  /** Send input bytes to the program. */
  readonly write: (data: string) => void
  /** Resize both the pseudo-terminal and the emulator, recording the resize. */
  readonly resize: (cols: number, rows: number) => void
  /** Wait until the emulator has parsed everything received so far. */
  readonly flush: Effect.Effect<void>
  readonly capture: () => Recorder.TerminalFrame
  /** The visible lines, trailing spaces trimmed. */
  readonly lines: () => ReadonlyArray<string>
  readonly timeline: () => Recorder.Timeline
  /** Milliseconds from the start to when the program was asked to stop (`undefined` while it runs). */
  readonly stoppedAt: () => number | undefined
  /** How many output chunks arrived so far (a change means the program printed). */
  readonly outputCount: () => number
  readonly exit: () => TerminalExit | undefined
  readonly awaitExit: Effect.Effect<TerminalExit>
  readonly modes: () => { readonly applicationCursorKeys: boolean }
  /** Stop the program and its process group; idempotent. */
  readonly close: Effect.Effect<void>
}

/** The visible lines of an emulator, trailing spaces trimmed. */
export const screenLines = (terminal: XtermTerminal): ReadonlyArray<string> => {
  const buffer = terminal.buffer.active
  const lines: Array<string> = []
  for (let y = 0; y < terminal.rows; y++)
    lines.push(buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? "")
  return lines
}

/** Start `file args` in a pseudo-terminal. The caller owns it and must `close` it. */
export const spawn = (options: SpawnOptions): Effect.Effect<TerminalProcess, string> =>
  Effect.gen(function* () {
    const startedAt = Date.now()
    const events: Array<Recorder.TimelineEvent> = []
    const terminal = new xterm.Terminal({
      cols: options.cols,
      rows: options.rows,
      allowProposedApi: true,
      scrollback: 1000,
    })
    // OpenCode lays out emoji and other wide characters by Unicode 11 widths; so must the emulator.
    useUnicode11(terminal)
    const child = yield* Effect.try({
      try: () =>
        pty.spawn(options.file, options.args as Array<string>, {
          name: "xterm-256color",
          cols: options.cols,
          rows: options.rows,
          cwd: options.cwd,
          env: { ...options.env, TERM: "xterm-256color", COLORTERM: "truecolor" },
        }),
      catch: (cause) => `cannot start ${options.file} in a pseudo-terminal: ${String(cause)}`,
    })
    let exitInfo: TerminalExit | undefined
    const exited = yield* Deferred.make<TerminalExit>()
    let outputs = 0
    const reply = (bytes: string) => {
      if (exitInfo === undefined) child.write(bytes)
    }
    TerminalQueries.install(terminal, reply)
    terminal.onData(reply)
    child.onData((data) => {
      outputs++
      events.push({ t: Date.now() - startedAt, type: "output", data })
      terminal.write(data)
    })
    child.onExit(({ exitCode, signal }) => {
      exitInfo = { exitCode, signal: signal ?? null }
      Deferred.doneUnsafe(exited, Effect.succeed(exitInfo))
    })

    let closed = false
    let stopped: number | undefined
    const close = Effect.gen(function* () {
      if (closed) return
      closed = true
      stopped = Date.now() - startedAt
      if (exitInfo === undefined) {
        yield* Processes.stopGroup(child.pid)
        yield* Deferred.await(exited).pipe(Effect.timeoutOption(2_000))
        if (exitInfo === undefined) {
          try {
            child.kill("SIGKILL")
          } catch {
            // already gone
          }
        }
      }
      terminal.dispose()
    })

    return {
      pid: child.pid,
      write: (data) => {
        if (exitInfo === undefined && !closed) child.write(data)
      },
      resize: (cols, rows) => {
        if (closed) return
        if (exitInfo === undefined) child.resize(cols, rows)
        terminal.resize(cols, rows)
        events.push({ t: Date.now() - startedAt, type: "resize", cols, rows })
      },
      flush: Effect.callback<void>((resume) => {
        if (closed) resume(Effect.void)
        else terminal.write("", () => resume(Effect.void))
      }),
      capture: () => frameFromTerminal(terminal),
      lines: () => screenLines(terminal),
      timeline: () => ({ cols: options.cols, rows: options.rows, startedAt, events: events.slice() }),
      stoppedAt: () => stopped,
      outputCount: () => outputs,
      exit: () => exitInfo,
      awaitExit: Deferred.await(exited),
      modes: () => ({
        applicationCursorKeys: terminal.modes.applicationCursorKeysMode,
      }),
      close,
    } satisfies TerminalProcess
  })
