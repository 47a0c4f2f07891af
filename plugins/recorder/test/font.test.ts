import { describe, expect, it } from "vitest"
import { defaultFontFaces } from "../src/font/fontFaces.js"
import { Rasterizer } from "../src/font/rasterize.js"
import { TrueTypeFont } from "../src/font/TrueTypeFont.js"

describe("TrueType font", () => {
  const { regular, bold } = defaultFontFaces()

  it("reads metrics of a monospace font", () => {
    expect(regular.unitsPerEm).toBe(2048)
    expect(regular.ascender).toBeGreaterThan(0)
    expect(regular.descender).toBeLessThan(0)
    const advance = regular.advanceWidth(regular.glyphIndex(0x4d))
    for (const c of "iW0─λ") expect(regular.advanceWidth(regular.glyphIndex(c.codePointAt(0)!))).toBe(advance)
  })

  it("maps code points to glyphs and reports missing ones as glyph 0", () => {
    expect(regular.glyphIndex(0x41)).toBeGreaterThan(0)
    expect(regular.glyphIndex(0x3bb)).toBeGreaterThan(0)
    expect(regular.glyphIndex(0x65e5)).toBe(0)
    expect(regular.glyphIndex(0x1f600)).toBe(0)
  })

  it("reads simple and composite outlines", () => {
    const o = regular.outline(regular.glyphIndex(0x6f))
    expect(o).toHaveLength(2)
    expect(o.every((contour) => contour.some((p) => !p.onCurve))).toBe(true)
    // "é" is a composite of "e" and an accent: more contours than "e" alone.
    const e = regular.outline(regular.glyphIndex(0x65))
    const eAcute = regular.outline(regular.glyphIndex(0xe9))
    expect(eAcute.length).toBeGreaterThan(e.length)
    expect(regular.outline(regular.glyphIndex(0x20))).toEqual([])
    expect(bold.outline(bold.glyphIndex(0x6f))).not.toEqual(o)
  })

  it("rejects files that are not TrueType fonts", () => {
    expect(() => TrueTypeFont.parse(Buffer.from("not a font at all"))).toThrow(/unsupported sfnt version/)
    expect(() => TrueTypeFont.parse(Buffer.alloc(4))).toThrow(/too short/)
  })
})

describe("rasteriser", () => {
  it("covers a pixel-aligned square exactly and a half-pixel edge by half", () => {
    const square = [
      { x: 1, y: 1, onCurve: true },
      { x: 3, y: 1, onCurve: true },
      { x: 3, y: 3, onCurve: true },
      { x: 1, y: 3, onCurve: true },
    ]
    const rasterizer = new Rasterizer(5, 5)
    rasterizer.addContours([square], { scale: 1, originX: 0.5, originY: 4 })
    const alpha = rasterizer.coverage()
    // In pixel space the square spans x 1.5–3.5 and y 1–3.
    const row = (y: number) => [...alpha.subarray(y * 5, y * 5 + 5)]
    expect(row(0)).toEqual([0, 0, 0, 0, 0])
    expect(row(1)).toEqual([0, 128, 255, 128, 0])
    expect(row(2)).toEqual([0, 128, 255, 128, 0])
    expect(row(3)).toEqual([0, 0, 0, 0, 0])
  })

  it("clips outlines that leave the mask without smearing coverage", () => {
    const wide = [
      { x: -10, y: 0, onCurve: true },
      { x: 20, y: 0, onCurve: true },
      { x: 20, y: 2, onCurve: true },
      { x: -10, y: 2, onCurve: true },
    ]
    const rasterizer = new Rasterizer(4, 4)
    rasterizer.addContours([wide], { scale: 1, originX: 0, originY: 3 })
    const alpha = rasterizer.coverage()
    expect([...alpha]).toEqual([0, 0, 0, 0, 255, 255, 255, 255, 255, 255, 255, 255, 0, 0, 0, 0])
  })
})
