/**
 * Trimming a timeline before it becomes a video: the blank start (a TUI prints nothing visible while it starts)
 * is cut, so the video starts at the first frame with content, and an end time drops what came later (a TUI's
 * exit screen). The frames kept are exactly those of the original timeline.
 */
import type { Recorder } from "@codemode/core"
import { TimelineReplay } from "./TimelineReplay.js"

/** How to trim. */
export interface TrimOptions {
  /** Start at the first event after which the screen shows anything (a glyph, or a non-default background). */
  readonly startAtContent?: boolean
  /** Drop events after this time (ms from the timeline's start), holding the last frame until then. */
  readonly endAt?: number
}

const hasContent = (frame: Recorder.TerminalFrame): boolean =>
  frame.cells.some((row) =>
    row.some((cell) => (cell.glyph !== "" && cell.glyph !== " ") || cell.bg.mode !== "default" || cell.inverse),
  )

/** The time of the first event after which the screen has content, or `undefined` if it never has. */
export const firstContentAt = async (timeline: Recorder.Timeline): Promise<number | undefined> => {
  const replay = new TimelineReplay(timeline)
  try {
    for (const event of timeline.events) {
      await replay.advanceTo(event.t)
      if (hasContent(replay.frame())) return event.t
    }
    return undefined
  } finally {
    replay.dispose()
  }
}

/** A trimmed copy of `timeline` (times shifted so it starts at 0). */
export const trimTimeline = async (timeline: Recorder.Timeline, options: TrimOptions): Promise<Recorder.Timeline> => {
  const end = options.endAt
  let events = end === undefined ? timeline.events : timeline.events.filter((event) => event.t <= end)
  if (end !== undefined && (events.at(-1)?.t ?? 0) < end) events = [...events, { t: end, type: "output", data: "" }]
  const start = options.startAtContent ? ((await firstContentAt({ ...timeline, events })) ?? 0) : 0
  if (start === 0) return { ...timeline, events }
  return {
    ...timeline,
    startedAt: timeline.startedAt + start,
    // Everything up to the first content is the first frame; later events keep their spacing.
    events: events.map((event) => ({ ...event, t: Math.max(0, event.t - start) })),
  }
}
