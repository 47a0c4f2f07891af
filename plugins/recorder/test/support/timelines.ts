/** Timelines for export tests. */
import type { Recorder } from "@codemode/core"

/** 40×10 cells: text at 0 ms, a red block at 500 ms, more text at 1000 ms, a green block at 1500 ms. */
export function blocksTimeline(): Recorder.Timeline {
  const block = (row: number, color: string) =>
    Array.from({ length: 4 }, (_, i) => `\x1b[${row + i};6H\x1b[48;2;${color}m${" ".repeat(10)}\x1b[0m`).join("")
  return {
    cols: 40,
    rows: 10,
    startedAt: Date.now(),
    events: [
      { t: 0, type: "output", data: "\x1b[2J\x1b[H$ recording test\r\n" },
      { t: 500, type: "output", data: block(3, "255;0;0") },
      { t: 1000, type: "output", data: "\x1b[9;1Hmore text" },
      { t: 1500, type: "output", data: block(3, "0;200;0") },
    ],
  }
}

/** The RGB color at pixel (x, y) of a decoded rgb24 frame `width` pixels wide. */
export function rgbAt(frame: Buffer, width: number, x: number, y: number): [number, number, number] {
  const offset = (y * width + x) * 3
  return [frame[offset], frame[offset + 1], frame[offset + 2]]
}
