import { describe, expect, it } from "vitest"
import { castFromTimeline, validateTimeline } from "../src/cast/asciicast.js"

const timeline = {
  cols: 100,
  rows: 30,
  startedAt: Date.UTC(2025, 0, 2, 3, 4, 5, 678),
  events: [
    { t: 0, type: "output" as const, data: "\x1b[1mhello\x1b[0m\r\n" },
    { t: 1234.5678, type: "resize" as const, cols: 120, rows: 40 },
    { t: 2500, type: "output" as const, data: 'quote " backslash \\ unicode ─ 日' },
  ],
}

describe("asciicast v2", () => {
  it("writes a header line and one line per event", () => {
    const text = castFromTimeline(timeline, "demo run")
    expect(text.endsWith("\n")).toBe(true)
    const lines = text
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line))
    expect(lines[0]).toEqual({
      version: 2,
      width: 100,
      height: 30,
      timestamp: Math.floor(Date.UTC(2025, 0, 2, 3, 4, 5) / 1000),
      duration: 2.5,
      title: "demo run",
      env: { TERM: "xterm-256color" },
    })
    expect(lines.slice(1)).toEqual([
      [0, "o", "\x1b[1mhello\x1b[0m\r\n"],
      [1.234568, "r", "120x40"],
      [2.5, "o", 'quote " backslash \\ unicode ─ 日'],
    ])
  })

  it("omits the title when none is given and writes an empty recording as a header alone", () => {
    const text = castFromTimeline({ cols: 80, rows: 24, startedAt: 0, events: [] })
    const lines = text.trimEnd().split("\n")
    expect(lines).toHaveLength(1)
    expect(JSON.parse(lines[0])).toEqual({
      version: 2,
      width: 80,
      height: 24,
      timestamp: 0,
      env: { TERM: "xterm-256color" },
    })
  })

  it("rejects malformed timelines with a message naming the problem", () => {
    expect(() => validateTimeline({ ...timeline, cols: 0 })).toThrow(/positive integer cols and rows/)
    expect(() =>
      validateTimeline({
        ...timeline,
        events: [
          { t: 5, type: "output", data: "" },
          { t: 4, type: "output", data: "" },
        ],
      }),
    ).toThrow(/event 1 at 4 ms comes before the previous one at 5 ms/)
    expect(() => validateTimeline({ ...timeline, events: [{ t: -1, type: "output", data: "" }] })).toThrow(
      /invalid time -1/,
    )
    expect(() => validateTimeline({ ...timeline, events: [{ t: 1, type: "resize", cols: 10, rows: 0 }] })).toThrow(
      /resize event 0 needs positive integer/,
    )
    expect(() => validateTimeline({ ...timeline, events: [{ t: 1, type: "input", data: "x" } as never] })).toThrow(
      /unknown type "input"/,
    )
  })
})
