/**
 * Replaying a recorded timeline through an @xterm/headless terminal, forward in time: after `advanceTo(t)` the
 * terminal shows everything the program printed up to and including time `t`.
 */
import type { Recorder } from "@codemode/core"
import xterm from "@xterm/headless"
import { frameFromTerminal } from "./frameFromTerminal.js"
import { useUnicode11 } from "./unicodeWidths.js"

/**
 * The synchronous parser entry of @xterm/headless 5 (not public API). Nothing here registers asynchronous parser
 * handlers, so parsing synchronously gives the same screen while saving a timer tick per frame.
 */
type SyncWriter = { writeSync?: (data: string) => void }

/** A forward-only replay of one timeline. */
export class TimelineReplay {
  private readonly terminal: xterm.Terminal
  private readonly syncWriter: SyncWriter | undefined
  private next = 0

  constructor(private readonly timeline: Recorder.Timeline) {
    this.terminal = new xterm.Terminal({
      cols: timeline.cols,
      rows: timeline.rows,
      scrollback: 0,
      allowProposedApi: true,
      logLevel: "off",
    })
    useUnicode11(this.terminal)
    const core = (this.terminal as unknown as { _core?: SyncWriter })._core
    this.syncWriter = typeof core?.writeSync === "function" ? core : undefined
  }

  /** The time of the last event in milliseconds (0 for an empty timeline). */
  get duration(): number {
    return this.timeline.events.at(-1)?.t ?? 0
  }

  /** The largest viewport the timeline ever has (its initial size and every resize). */
  get maxSize(): { readonly cols: number; readonly rows: number } {
    let cols = this.timeline.cols
    let rows = this.timeline.rows
    for (const event of this.timeline.events) {
      if (event.type === "resize") {
        cols = Math.max(cols, event.cols)
        rows = Math.max(rows, event.rows)
      }
    }
    return { cols, rows }
  }

  /** Feeds every event up to and including time `t` (ms); resolves to whether any event was fed. */
  async advanceTo(t: number): Promise<boolean> {
    const events = this.timeline.events
    const first = this.next
    let written = false
    while (this.next < events.length && events[this.next].t <= t) {
      const event = events[this.next++]
      if (event.type === "output") {
        if (event.data.length > 0) {
          if (this.syncWriter !== undefined) {
            this.syncWriter.writeSync!(event.data)
          } else {
            this.terminal.write(event.data)
            written = true
          }
        }
      } else {
        // A resize applies to the screen as the output before it left it.
        if (written) await this.flush()
        written = false
        this.terminal.resize(event.cols, event.rows)
      }
    }
    if (written) await this.flush()
    return this.next > first
  }

  /** The screen as it is now. */
  frame(): Recorder.TerminalFrame {
    return frameFromTerminal(this.terminal)
  }

  /** Releases the terminal. */
  dispose(): void {
    this.terminal.dispose()
  }

  private flush(): Promise<void> {
    return new Promise((resolve) => this.terminal.write("", resolve))
  }
}
