/**
 * asciicast v2 (the asciinema recording format): a JSON header line, then one JSON array per event —
 * `[seconds, "o", output]` for terminal output and `[seconds, "r", "COLSxROWS"]` for a resize.
 */
import type { Recorder } from "@codemode/core"

/** Checks that a timeline is well formed (sizes, ordered non-negative times, event shapes); throws an Error if not. */
export function validateTimeline(timeline: Recorder.Timeline): void {
  const { cols, rows, startedAt, events } = timeline
  if (!isPositiveInteger(cols) || !isPositiveInteger(rows)) {
    throw new Error(`a timeline needs positive integer cols and rows, got ${cols}×${rows}`)
  }
  if (!Number.isFinite(startedAt)) throw new Error(`a timeline needs a numeric startedAt, got ${startedAt}`)
  if (!Array.isArray(events)) throw new Error("a timeline needs an events array")
  let previous = 0
  events.forEach((event, i) => {
    if (!Number.isFinite(event.t) || event.t < 0) throw new Error(`timeline event ${i} has an invalid time ${event.t}`)
    if (event.t < previous)
      throw new Error(`timeline event ${i} at ${event.t} ms comes before the previous one at ${previous} ms`)
    previous = event.t
    if (event.type === "output") {
      if (typeof event.data !== "string") throw new Error(`timeline output event ${i} needs string data`)
    } else if (event.type === "resize") {
      if (!isPositiveInteger(event.cols) || !isPositiveInteger(event.rows)) {
        throw new Error(
          `timeline resize event ${i} needs positive integer cols and rows, got ${event.cols}×${event.rows}`,
        )
      }
    } else {
      throw new Error(`timeline event ${i} has unknown type ${JSON.stringify((event as { type: unknown }).type)}`)
    }
  })
}

/** Renders a timeline as the text of an asciicast v2 file (newline-terminated lines). */
export function castFromTimeline(timeline: Recorder.Timeline, title?: string): string {
  validateTimeline(timeline)
  const header: Record<string, unknown> = {
    version: 2,
    width: timeline.cols,
    height: timeline.rows,
    timestamp: Math.floor(timeline.startedAt / 1000),
  }
  const last = timeline.events.at(-1)
  if (last !== undefined) header.duration = seconds(last.t)
  if (title !== undefined) header.title = title
  header.env = { TERM: "xterm-256color" }
  const lines = [JSON.stringify(header)]
  for (const event of timeline.events) {
    if (event.type === "output") lines.push(JSON.stringify([seconds(event.t), "o", event.data]))
    else lines.push(JSON.stringify([seconds(event.t), "r", `${event.cols}x${event.rows}`]))
  }
  return lines.join("\n") + "\n"
}

/** Milliseconds to seconds, rounded to the microsecond so that the file stays compact. */
function seconds(ms: number): number {
  return Math.round(ms * 1000) / 1e6
}

function isPositiveInteger(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value > 0
}
