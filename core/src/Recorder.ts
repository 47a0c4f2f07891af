/**
 * The `Recorder` extension point: the neutral terminal types Drive and the recorder share, and the service that
 * turns terminal frames into PNG screenshots and timelines into asciicast files and videos.
 */
import { Context, Data, type Effect } from "effect"

/** A terminal color: the terminal's default, one of the 256 palette entries, or 24-bit RGB (`0xRRGGBB`). */
export type Color =
  | { readonly mode: "default" }
  | { readonly mode: "palette"; readonly index: number }
  | { readonly mode: "rgb"; readonly rgb: number }

/** One cell of the terminal grid. A wide character occupies its cell (width 2) and the next (width 0, empty glyph). */
export interface Cell {
  readonly glyph: string
  readonly width: 0 | 1 | 2
  readonly fg: Color
  readonly bg: Color
  readonly bold: boolean
  readonly italic: boolean
  readonly dim: boolean
  readonly underline: boolean
  readonly strikethrough: boolean
  readonly inverse: boolean
  readonly invisible: boolean
}

/** The cursor position (0-based cell coordinates) and visibility. */
export interface Cursor {
  readonly x: number
  readonly y: number
  readonly visible: boolean
}

/** A captured terminal screen: `cells[row][col]`, the cursor and the viewport size. */
export interface TerminalFrame {
  readonly cols: number
  readonly rows: number
  readonly cells: ReadonlyArray<ReadonlyArray<Cell>>
  readonly cursor: Cursor
}

/** One timeline event, `t` in milliseconds since the timeline started. */
export type TimelineEvent =
  | { readonly t: number; readonly type: "output"; readonly data: string }
  | { readonly t: number; readonly type: "resize"; readonly cols: number; readonly rows: number }

/** Everything a terminal printed, with timing, from its first byte: enough to replay it exactly. */
export interface Timeline {
  /** Initial viewport. */
  readonly cols: number
  readonly rows: number
  /** Wall-clock start, milliseconds since the epoch. */
  readonly startedAt: number
  readonly events: ReadonlyArray<TimelineEvent>
}

/** Progress of a video export. */
export interface ExportProgress {
  readonly file: string
  readonly framesDone: number
  readonly framesTotal: number
}

/** Options of a video export. The output format follows the file extension (`.mp4`, `.gif`, `.webm`). */
export interface ExportOptions {
  readonly fps?: number
  readonly onProgress?: (progress: ExportProgress) => void
}

/** A screenshot, cast or video could not be produced. */
export class RecorderError extends Data.TaggedError("RecorderError")<{
  readonly message: string
  readonly cause?: unknown
}> {}

/** What a recorder can do. */
export interface RecorderShape {
  /** Render `frame` to a PNG at `file` (absolute path). */
  readonly screenshot: (frame: TerminalFrame, file: string) => Effect.Effect<void, RecorderError>
  /** Save `timeline` as an asciicast v2 file. */
  readonly saveCast: (timeline: Timeline, file: string, title?: string) => Effect.Effect<void, RecorderError>
  /** Replay `timeline` and encode it to a video at `file`. */
  readonly exportVideo: (
    timeline: Timeline,
    file: string,
    options?: ExportOptions,
  ) => Effect.Effect<void, RecorderError>
  /** Fails with a message saying how to get ffmpeg when video export is impossible on this machine. */
  readonly checkVideo: Effect.Effect<void, RecorderError>
}

/** The `Recorder` service tag. `@codemode/recorder` provides the standard implementation. */
export class Recorder extends Context.Service<Recorder, RecorderShape>()("@codemode/core/Recorder") {}
