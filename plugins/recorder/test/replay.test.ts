import { describe, expect, it } from "vitest"
import { TimelineReplay } from "../src/terminal/TimelineReplay.js"

describe("timeline replay through @xterm/headless", () => {
  it("shows exactly the output up to the requested time", async () => {
    const replay = new TimelineReplay({
      cols: 20,
      rows: 3,
      startedAt: 0,
      events: [
        { t: 0, type: "output", data: "one" },
        { t: 100, type: "output", data: "\r\ntwo" },
        { t: 200, type: "output", data: "\r\nthree" },
      ],
    })
    const text = (row: number) =>
      replay
        .frame()
        .cells[row].map((c) => c.glyph || " ")
        .join("")
        .trimEnd()
    expect(await replay.advanceTo(0)).toBe(true)
    expect([text(0), text(1)]).toEqual(["one", ""])
    expect(await replay.advanceTo(99.9)).toBe(false)
    expect(await replay.advanceTo(100)).toBe(true)
    expect([text(0), text(1), text(2)]).toEqual(["one", "two", ""])
    await replay.advanceTo(1000)
    expect(text(2)).toBe("three")
    expect(replay.frame().cursor).toEqual({ x: 5, y: 2, visible: true })
    replay.dispose()
  })

  it("reads colors, attributes, wide characters and cursor visibility", async () => {
    const replay = new TimelineReplay({
      cols: 10,
      rows: 2,
      startedAt: 0,
      events: [
        { t: 0, type: "output", data: "\x1b[1;3;4;9;2;7;8;31;48;5;200mA\x1b[0m\x1b[38;2;1;2;3mB\x1b[0m日\x1b[?25l" },
      ],
    })
    await replay.advanceTo(0)
    const frame = replay.frame()
    const [a, b, wide, rest] = frame.cells[0]
    expect(a).toEqual({
      glyph: "A",
      width: 1,
      fg: { mode: "palette", index: 1 },
      bg: { mode: "palette", index: 200 },
      bold: true,
      italic: true,
      dim: true,
      underline: true,
      strikethrough: true,
      inverse: true,
      invisible: true,
    })
    expect(b.fg).toEqual({ mode: "rgb", rgb: 0x010203 })
    expect(b.bold).toBe(false)
    expect(b.bg).toEqual({ mode: "default" })
    expect([wide.glyph, wide.width, rest.glyph, rest.width]).toEqual(["日", 2, "", 0])
    expect(frame.cursor.visible).toBe(false)
    replay.dispose()
  })

  it("applies resizes in order with the output around them and reports the largest size", async () => {
    const replay = new TimelineReplay({
      cols: 10,
      rows: 2,
      startedAt: 0,
      events: [
        { t: 0, type: "output", data: "before" },
        { t: 10, type: "resize", cols: 30, rows: 4 },
        { t: 10, type: "output", data: " after resize, longer than ten" },
        { t: 20, type: "resize", cols: 12, rows: 6 },
      ],
    })
    expect(replay.maxSize).toEqual({ cols: 30, rows: 6 })
    expect(replay.duration).toBe(20)
    await replay.advanceTo(10)
    const frame = replay.frame()
    expect([frame.cols, frame.rows]).toEqual([30, 4])
    expect(
      frame.cells[0]
        .map((c) => c.glyph || " ")
        .join("")
        .trimEnd(),
    ).toBe("before after resize, longer th")
    await replay.advanceTo(20)
    expect([replay.frame().cols, replay.frame().rows]).toEqual([12, 6])
    replay.dispose()
  })
})
