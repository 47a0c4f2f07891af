import { execFileSync } from "node:child_process"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { renderPng, renderRgb } from "../src/screenshot.js"
import { FrameBuilder, palette, rgb } from "./support/frames.js"
import { ffmpegPath } from "./support/media.js"

function sampleFrame() {
  const frame = new FrameBuilder(24, 4)
    .text(0, 0, "PNG round trip ─┼─ ▀▄", { fg: palette(11), bold: true })
    .text(0, 1, "colors", { fg: rgb(0x102030), bg: rgb(0xf0e0d0) })
    .wide(8, 1, "日")
    .text(0, 3, "underlined", { underline: true, italic: true })
  frame.cursor = { x: 12, y: 3, visible: true }
  return frame.frame()
}

describe("PNG files and ffmpeg", () => {
  it("is read by ffmpeg's PNG decoder as the same image", () => {
    const frame = sampleFrame()
    const directory = mkdtempSync(join(tmpdir(), "recorder-png-"))
    const file = join(directory, "shot.png")
    writeFileSync(file, renderPng(frame))
    const pixels = execFileSync(ffmpegPath(), [
      "-v",
      "error",
      "-i",
      file,
      "-f",
      "rawvideo",
      "-pix_fmt",
      "rgb24",
      "pipe:1",
    ])
    expect(pixels.equals(renderRgb(frame).data)).toBe(true)
  })
})
