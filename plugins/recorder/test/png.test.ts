import { describe, expect, it } from "vitest"
import { encodePng } from "../src/png/encodePng.js"
import { createImage } from "../src/render/FrameRenderer.js"
import { renderPng, renderRgb } from "../src/screenshot.js"
import { decodePng } from "./support/decodePng.js"
import { FrameBuilder, palette, rgb } from "./support/frames.js"

function sampleFrame() {
  const frame = new FrameBuilder(24, 4)
    .text(0, 0, "PNG round trip ─┼─ ▀▄", { fg: palette(11), bold: true })
    .text(0, 1, "colors", { fg: rgb(0x102030), bg: rgb(0xf0e0d0) })
    .wide(8, 1, "日")
    .text(0, 3, "underlined", { underline: true, italic: true })
  frame.cursor = { x: 12, y: 3, visible: true }
  return frame.frame()
}

describe("PNG encoding", () => {
  it("decodes back to exactly the rendered pixels", () => {
    const frame = sampleFrame()
    const png = renderPng(frame)
    const decoded = decodePng(png)
    const expected = renderRgb(frame)
    expect(decoded.width).toBe(240)
    expect(decoded.height).toBe(80)
    expect(decoded.data.equals(expected.data)).toBe(true)
  })

  it("encodes odd widths (no 32-bit row alignment) and arbitrary pixels", () => {
    const image = createImage(7, 5)
    for (let i = 0; i < image.data.length; i++) image.data[i] = (i * 37 + (i >> 3)) & 0xff
    const decoded = decodePng(encodePng(image))
    expect(decoded.width).toBe(7)
    expect(decoded.data.equals(image.data)).toBe(true)
  })

  it("rejects image data of the wrong size", () => {
    expect(() => encodePng({ width: 2, height: 2, data: Buffer.alloc(5) })).toThrow(/5 bytes, expected 12/)
  })
})
