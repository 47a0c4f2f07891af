import type { Recorder } from "@codemode/core"
import { describe, expect, it } from "vitest"
import { CELL_HEIGHT, createImage } from "../src/render/FrameRenderer.js"
import { IncrementalRenderer, type PixelFormat } from "../src/render/IncrementalRenderer.js"
import { i420Size, rgbBandToI420 } from "../src/render/yuv.js"
import { defaultRenderer } from "../src/screenshot.js"
import { cell, palette, rgb } from "./support/frames.js"

/** A deterministic pseudo-random sequence (mulberry32). */
function random(seed: number): () => number {
  let state = seed
  return () => {
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Frames that scroll, get edited, move the cursor and shrink, like a terminal session. */
function* session(cols: number, rows: number, steps: number): Generator<Recorder.TerminalFrame> {
  const next = random(42)
  const glyphs = "abcXYZ019 ─│┼█▀░"
  const randomCell = () =>
    cell(glyphs[Math.floor(next() * glyphs.length)], {
      fg: next() < 0.5 ? palette(Math.floor(next() * 256)) : rgb(Math.floor(next() * 0xffffff)),
      bg: next() < 0.7 ? { mode: "default" } : palette(Math.floor(next() * 16)),
      bold: next() < 0.2,
      underline: next() < 0.1,
    })
  let lines = Array.from({ length: rows }, () => Array.from({ length: cols }, randomCell))
  let cursor = { x: 0, y: 0, visible: true }
  for (let step = 0; step < steps; step++) {
    const action = next()
    if (action < 0.3) lines = [...lines.slice(1), Array.from({ length: cols }, randomCell)]
    else if (action < 0.6) lines[Math.floor(next() * rows)][Math.floor(next() * cols)] = randomCell()
    else if (action < 0.8)
      cursor = { x: Math.floor(next() * cols), y: Math.floor(next() * rows), visible: next() < 0.8 }
    else lines = lines.map((line) => [...line])
    const shrink = step % 7 === 6
    const shownRows = shrink ? rows - 2 : rows
    const shownCols = shrink ? cols - 3 : cols
    yield {
      cols: shownCols,
      rows: shownRows,
      cells: lines.slice(0, shownRows).map((line) => line.slice(0, shownCols)),
      cursor,
    }
  }
}

function fullRender(frame: Recorder.TerminalFrame, width: number, height: number, format: PixelFormat): Buffer {
  const image = defaultRenderer().render(frame, createImage(width, height))
  if (format === "rgb24") return image.data
  const yuv = Buffer.alloc(i420Size(width, height))
  for (let top = 0; top < height; top += CELL_HEIGHT) {
    rgbBandToI420(
      image.data.subarray(top * width * 3, (top + CELL_HEIGHT) * width * 3),
      width,
      CELL_HEIGHT,
      yuv,
      height,
      top,
    )
  }
  return yuv
}

describe("incremental renderer", () => {
  for (const format of ["rgb24", "yuv420p"] as const) {
    it(`paints every frame of a session exactly like a full render (${format})`, () => {
      const cols = 16
      const rows = 6
      const renderer = new IncrementalRenderer(defaultRenderer(), cols * 10, rows * 20, format)
      let previous: Buffer | undefined
      let index = 0
      for (const frame of session(cols, rows, 60)) {
        const target = renderer.createFrame()
        renderer.render(frame, target, previous)
        expect(target.equals(fullRender(frame, cols * 10, rows * 20, format)), `frame ${index}`).toBe(true)
        previous = target
        index++
      }
    })
  }

  it("refuses to paint over the previous frame it copies from", () => {
    const renderer = new IncrementalRenderer(defaultRenderer(), 20, 20, "rgb24")
    const frame = renderer.createFrame()
    const terminalFrame = { cols: 2, rows: 1, cells: [[cell("a"), cell("b")]], cursor: { x: 0, y: 0, visible: false } }
    expect(() => renderer.render(terminalFrame, frame, frame)).toThrow(/separate previous one/)
  })
})

describe("RGB to I420", () => {
  it("maps black, white and primaries to BT.709 limited-range values", () => {
    const cases: Array<[number[], number[]]> = [
      [
        [0, 0, 0],
        [16, 128, 128],
      ],
      [
        [255, 255, 255],
        [235, 128, 128],
      ],
      [
        [255, 0, 0],
        [63, 102, 240],
      ],
      [
        [0, 255, 0],
        [173, 42, 26],
      ],
      [
        [0, 0, 255],
        [32, 240, 118],
      ],
    ]
    for (const [color, [y, u, v]] of cases) {
      const rgbBand = Buffer.alloc(2 * 2 * 3)
      for (let i = 0; i < 4; i++) rgbBand.set(color, i * 3)
      const out = Buffer.alloc(i420Size(2, 2))
      rgbBandToI420(rgbBand, 2, 2, out, 2, 0)
      expect([...out], `rgb(${color})`).toEqual([y, y, y, y, u, v])
    }
  })
})
