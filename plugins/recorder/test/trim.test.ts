import type { Recorder } from "@codemode/core"
import { describe, expect, it } from "vitest"
import { firstContentAt, trimTimeline } from "../src/terminal/trimTimeline.js"

const timeline: Recorder.Timeline = {
  cols: 20,
  rows: 3,
  startedAt: 1_000,
  events: [
    { t: 0, type: "output", data: "\x1b[?1049h\x1b[2J" },
    { t: 400, type: "output", data: "\x1b[H   " },
    { t: 900, type: "output", data: "\x1b[HReady" },
    { t: 1_500, type: "output", data: "\r\nmore" },
    { t: 3_000, type: "output", data: "\x1b[2J\x1b[?1049lbye" },
  ],
}

describe("trimTimeline", () => {
  it("starts at the first frame with content and ends at endAt, holding the last frame", async () => {
    expect(await firstContentAt(timeline)).toBe(900)
    const trimmed = await trimTimeline(timeline, { startAtContent: true, endAt: 2_000 })
    expect(trimmed.startedAt).toBe(1_900)
    expect(trimmed.events.map((event) => event.t)).toEqual([0, 0, 0, 600, 1_100])
    expect(trimmed.events.at(-1)).toEqual({ t: 1_100, type: "output", data: "" })
    expect(trimmed.events.some((event) => event.type === "output" && event.data.includes("bye"))).toBe(false)
  })

  it("leaves a timeline without content or options as it is", async () => {
    const blank: Recorder.Timeline = { ...timeline, events: timeline.events.slice(0, 2) }
    expect(await firstContentAt(blank)).toBeUndefined()
    expect((await trimTimeline(blank, { startAtContent: true })).events).toEqual(blank.events)
    expect(await trimTimeline(timeline, {})).toEqual(timeline)
  })
})
