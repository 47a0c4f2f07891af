import { describe, expect, it } from "vitest"
import { defaultFontFaces } from "../src/font/fontFaces.js"
import { GlyphCache } from "../src/font/GlyphCache.js"
import { CELL_HEIGHT, CELL_WIDTH } from "../src/render/FrameRenderer.js"
import { defaultTheme } from "../src/render/palette.js"
import { renderRgb, validateFrame } from "../src/screenshot.js"
import { cell, FrameBuilder, palette, rgb } from "./support/frames.js"
import { ink, pixel, region } from "./support/image.js"

const FG = defaultTheme.foreground
const BG = defaultTheme.background

/** Renders a 1-row frame and returns the image. */
function renderLine(build: (frame: FrameBuilder) => void, cols = 8) {
  const frame = new FrameBuilder(cols, 1)
  build(frame)
  return renderRgb(frame.frame())
}

/** The set of distinct colors of cell `x` in row 0. */
function cellColors(image: ReturnType<typeof renderRgb>, x: number, y = 0): Set<number> {
  return new Set(region(image, x * CELL_WIDTH, y * CELL_HEIGHT, CELL_WIDTH, CELL_HEIGHT))
}

/** Indices of the pixel rows of cell `x` that are entirely `color`. */
function fullRows(image: ReturnType<typeof renderRgb>, x: number, color: number): number[] {
  const rows: number[] = []
  for (let y = 0; y < CELL_HEIGHT; y++) {
    if (region(image, x * CELL_WIDTH, y, CELL_WIDTH, 1).every((c) => c === color)) rows.push(y)
  }
  return rows
}

describe("frame renderer", () => {
  it("paints 10×20 pixel cells in the default background", () => {
    const image = renderRgb(new FrameBuilder(12, 3).frame())
    expect(image.width).toBe(120)
    expect(image.height).toBe(60)
    expect(new Set(region(image, 0, 0, 120, 60))).toEqual(new Set([BG]))
  })

  it("resolves 16-color, 256-color and true-color backgrounds and foregrounds", () => {
    const image = renderLine((f) => {
      f.text(0, 0, " ", { bg: palette(1) })
      f.text(1, 0, " ", { bg: palette(196) })
      f.text(2, 0, " ", { bg: palette(21) })
      f.text(3, 0, " ", { bg: palette(244) })
      f.text(4, 0, " ", { bg: rgb(0x123456) })
      f.text(5, 0, "█", { fg: palette(12) })
      f.text(6, 0, "█", { fg: palette(160) })
      f.text(7, 0, "█", { fg: rgb(0xfedcba) })
    })
    expect(cellColors(image, 0)).toEqual(new Set([0xcd0000]))
    expect(cellColors(image, 1)).toEqual(new Set([0xff0000]))
    expect(cellColors(image, 2)).toEqual(new Set([0x0000ff]))
    expect(cellColors(image, 3)).toEqual(new Set([0x808080]))
    expect(cellColors(image, 4)).toEqual(new Set([0x123456]))
    expect(cellColors(image, 5)).toEqual(new Set([0x5c5cff]))
    expect(cellColors(image, 6)).toEqual(new Set([0xd70000]))
    expect(cellColors(image, 7)).toEqual(new Set([0xfedcba]))
  })

  it("draws font glyphs anti-aliased inside their cell", () => {
    const image = renderLine((f) => f.text(1, 0, "o"), 3)
    const colors = cellColors(image, 1)
    expect(colors.has(BG)).toBe(true)
    // Anti-aliased edges: gray levels strictly between background and foreground.
    expect([...colors].some((c) => c !== BG && c !== FG)).toBe(true)
    expect(ink(image, 10, 0, 10, 20, BG, FG)).toBeGreaterThan(15)
    // Neighbouring cells stay untouched.
    expect(cellColors(image, 0)).toEqual(new Set([BG]))
    expect(cellColors(image, 2)).toEqual(new Set([BG]))
  })

  it("draws different glyphs differently and the same glyph identically", () => {
    const image = renderLine((f) => f.text(0, 0, "AVA"), 3)
    const a1 = region(image, 0, 0, 10, 20)
    const v = region(image, 10, 0, 10, 20)
    const a2 = region(image, 20, 0, 10, 20)
    expect(a1).toEqual(a2)
    expect(a1).not.toEqual(v)
    // "A" is wide at the bottom and narrow at the top; "V" the other way round.
    const extent = (left: number, y: number) => {
      const inked = region(image, left, y, 10, 1).flatMap((c, x) => (c === BG ? [] : [x]))
      return inked.length === 0 ? 0 : Math.max(...inked) - Math.min(...inked)
    }
    expect(extent(0, 14)).toBeGreaterThanOrEqual(extent(0, 5) + 4)
    expect(extent(10, 5)).toBeGreaterThanOrEqual(extent(10, 14) + 4)
  })

  it("uses the bold face for bold and the oblique face for italic", () => {
    const image = renderLine((f) => {
      f.text(0, 0, "l")
      f.text(1, 0, "l", { bold: true })
      f.text(2, 0, "l", { italic: true })
    }, 3)
    expect(ink(image, 10, 0, 10, 20, BG, FG)).toBeGreaterThan(ink(image, 0, 0, 10, 20, BG, FG) * 1.2)
    // The oblique "l" leans right: its stem sits further right above the middle than below it.
    const centre = (left: number, top: number) => {
      let weighted = 0
      let total = 0
      for (let x = 0; x < 10; x++) {
        const amount = ink(image, left + x, top, 1, 3, BG, FG)
        weighted += x * amount
        total += amount
      }
      return weighted / total
    }
    expect(centre(20, 6) - centre(20, 11)).toBeGreaterThan(0.6)
    expect(Math.abs(centre(0, 6) - centre(0, 11))).toBeLessThan(0.2)
  })

  it("draws dim text halfway between foreground and background", () => {
    const image = renderLine((f) => f.text(0, 0, "█", { dim: true, fg: rgb(0xc8c8c8), bg: rgb(0x000064) }), 1)
    expect(cellColors(image, 0)).toEqual(new Set([0x646496]))
  })

  it("draws underline and strikethrough as one full pixel row each", () => {
    const image = renderLine((f) => {
      f.text(0, 0, " ", { underline: true })
      f.text(1, 0, " ", { strikethrough: true })
      f.text(2, 0, " ", { underline: true, strikethrough: true })
    }, 3)
    const underline = fullRows(image, 0, FG)
    const strike = fullRows(image, 1, FG)
    expect(underline).toHaveLength(1)
    expect(strike).toHaveLength(1)
    expect(underline[0]).toBeGreaterThanOrEqual(16)
    expect(strike[0]).toBeGreaterThanOrEqual(8)
    expect(strike[0]).toBeLessThanOrEqual(13)
    expect(fullRows(image, 2, FG)).toEqual([...strike, ...underline])
  })

  it("swaps colors for inverse and hides invisible text", () => {
    const image = renderLine((f) => {
      f.text(0, 0, " ", { inverse: true })
      f.text(1, 0, "█", { inverse: true, fg: rgb(0x112233), bg: rgb(0x445566) })
      f.text(2, 0, "X", { invisible: true, underline: true, bg: rgb(0x203040) })
    }, 3)
    expect(cellColors(image, 0)).toEqual(new Set([FG]))
    expect(cellColors(image, 1)).toEqual(new Set([0x445566]))
    expect(cellColors(image, 2)).toEqual(new Set([0x203040]))
  })

  it("draws a visible cursor as a block in swapped colors, and nothing for a hidden one", () => {
    const frame = new FrameBuilder(4, 2).text(0, 1, "ab", { fg: rgb(0x00ff00), bg: rgb(0x000080) })
    frame.cursor = { x: 2, y: 1, visible: true }
    expect(cellColors(renderRgb(frame.frame()), 2, 1)).toEqual(new Set([FG]))
    // Over "b" the block takes the cell's text color and the glyph its background color.
    frame.cursor = { x: 1, y: 1, visible: true }
    const overText = renderRgb(frame.frame())
    expect(pixel(overText, 10, 20)).toBe(0x00ff00)
    expect(cellColors(overText, 1, 1).has(0x000080)).toBe(true)
    expect(pixel(overText, 0, 20)).toBe(0x000080)
    frame.cursor = { x: 2, y: 1, visible: false }
    expect(cellColors(renderRgb(frame.frame()), 2, 1)).toEqual(new Set([BG]))
  })

  it("draws a wide character across two cells, with a replacement box when no font has it", () => {
    const frame = new FrameBuilder(4, 1).wide(0, 0, "\u{10FFFD}", { bg: rgb(0x303030), fg: rgb(0xffff00) })
    frame.cursor = { x: 1, y: 0, visible: false }
    const image = renderRgb(frame.frame())
    // One box spanning 20 pixels: vertical edges at x = 1 and x = 18, a horizontal edge across.
    const column = (x: number) => region(image, x, 0, 1, 20).filter((c) => c === 0xffff00).length
    expect(column(1)).toBeGreaterThan(10)
    expect(column(18)).toBeGreaterThan(10)
    expect(column(10)).toBe(2)
    expect(pixel(image, 19, 0)).toBe(0x303030)
    // The box sits over both cells' background, which is the wide character's.
    expect(cellColors(image, 1)).toEqual(new Set([0x303030, 0xffff00]))
    expect(cellColors(image, 2)).toEqual(new Set([BG]))
  })

  it("draws a visible cursor over both cells of a wide character", () => {
    const frame = new FrameBuilder(3, 1).wide(0, 0, "日")
    frame.cursor = { x: 1, y: 0, visible: true }
    const image = renderRgb(frame.frame())
    expect(pixel(image, 0, 0)).toBe(FG)
    expect(pixel(image, 19, 0)).toBe(FG)
    expect(pixel(image, 20, 0)).toBe(BG)
  })

  it("draws glyphs no font has as a visible box", () => {
    const image = renderLine((f) => f.text(0, 0, "\u{10FFFD}"), 1)
    expect(ink(image, 0, 0, 10, 20, BG, FG)).toBeGreaterThan(20)
  })

  describe("box drawing and block elements", () => {
    it("draws light lines crisply on the cell's centre lines and joins neighbours", () => {
      const image = renderLine((f) => f.text(0, 0, "──│┼"), 4)
      for (const x of [0, 1]) {
        expect(fullRows(image, x, FG)).toEqual([9])
        expect(cellColors(image, x)).toEqual(new Set([FG, BG]))
      }
      // Continuous across the cell border.
      expect(pixel(image, 9, 9)).toBe(FG)
      expect(pixel(image, 10, 9)).toBe(FG)
      expect(region(image, 24, 0, 1, 20).every((c) => c === FG)).toBe(true)
      expect(region(image, 23, 0, 1, 20).every((c) => c === BG)).toBe(true)
      expect(fullRows(image, 3, FG)).toEqual([9])
      expect(region(image, 34, 0, 1, 20).every((c) => c === FG)).toBe(true)
    })

    it("draws heavy lines three pixels and double lines as two lines", () => {
      const image = renderLine((f) => f.text(0, 0, "━═║"), 3)
      expect(fullRows(image, 0, FG)).toEqual([8, 9, 10])
      expect(fullRows(image, 1, FG)).toEqual([8, 10])
      const columns = (x: number) =>
        [...Array(10).keys()].filter((i) => region(image, x * 10 + i, 0, 1, 20).every((c) => c === FG))
      expect(columns(2)).toEqual([3, 5])
    })

    it("never anti-aliases straight box lines", () => {
      const straight = Array.from({ length: 0x50 }, (_, i) => String.fromCodePoint(0x2500 + i))
        .concat(Array.from({ length: 0x1d }, (_, i) => String.fromCodePoint(0x2550 + i)))
        .concat(Array.from({ length: 0x0c }, (_, i) => String.fromCodePoint(0x2574 + i)))
      const frame = new FrameBuilder(straight.length, 1).text(0, 0, straight.join(""))
      const image = renderRgb(frame.frame())
      expect(new Set(region(image, 0, 0, image.width, 20))).toEqual(new Set([FG, BG]))
    })

    it("draws a double corner with nested lines", () => {
      const image = renderLine((f) => f.text(0, 0, "╔"), 1)
      // Outer line: row 8 from column 3 rightwards and column 3 from row 8 down; inner from (5, 10).
      expect(region(image, 3, 8, 7, 1).every((c) => c === FG)).toBe(true)
      expect(region(image, 3, 8, 1, 12).every((c) => c === FG)).toBe(true)
      expect(region(image, 5, 10, 5, 1).every((c) => c === FG)).toBe(true)
      expect(region(image, 5, 10, 1, 10).every((c) => c === FG)).toBe(true)
      expect(pixel(image, 4, 9)).toBe(BG)
      expect(pixel(image, 2, 8)).toBe(BG)
      expect(pixel(image, 5, 9)).toBe(BG)
    })

    it("draws rounded corners and diagonals anti-aliased", () => {
      const image = renderLine((f) => f.text(0, 0, "╭╱"), 2)
      // ╭ leaves the cell at the bottom (column 4) and the right edge (row 9).
      expect(pixel(image, 4, 19)).toBe(FG)
      expect(pixel(image, 9, 9)).toBe(FG)
      expect(pixel(image, 0, 9)).toBe(BG)
      expect(pixel(image, 4, 0)).toBe(BG)
      // ╱ runs from the top right to the bottom left corner.
      expect(ink(image, 18, 0, 2, 2, BG, FG)).toBeGreaterThan(0.5)
      expect(ink(image, 10, 18, 2, 2, BG, FG)).toBeGreaterThan(0.5)
      expect(pixel(image, 10, 0)).toBe(BG)
    })

    it("draws block elements as exact fractions of the cell", () => {
      const image = renderLine((f) => f.text(0, 0, "▀▌▄▐█▗░▁"), 8)
      const filled = (x: number) => region(image, x * 10, 0, 10, 20).map((c) => (c === FG ? 1 : 0))
      const expected = (covered: (px: number, py: number) => boolean) =>
        Array.from({ length: 200 }, (_, i) => (covered(i % 10, Math.floor(i / 10)) ? 1 : 0))
      expect(filled(0)).toEqual(expected((_, y) => y < 10))
      expect(filled(1)).toEqual(expected((x) => x < 5))
      expect(filled(2)).toEqual(expected((_, y) => y >= 10))
      expect(filled(3)).toEqual(expected((x) => x >= 5))
      expect(filled(4)).toEqual(expected(() => true))
      expect(filled(5)).toEqual(expected((x, y) => x >= 5 && y >= 10))
      // Light shade: a uniform quarter of the foreground.
      expect(cellColors(image, 6)).toEqual(new Set([0x393939]))
      // Lower one eighth of 20 rows: two full rows and half of the third.
      expect(fullRows(image, 7, FG)).toEqual([18, 19])
      expect(pixel(image, 70, 17)).not.toBe(BG)
      expect(pixel(image, 70, 16)).toBe(BG)
    })
  })

  it("rejects malformed frames with a message saying what is wrong", () => {
    expect(() => validateFrame({ cols: 0, rows: 1, cells: [[]], cursor: { x: 0, y: 0, visible: false } })).toThrow(
      /positive integer cols and rows/,
    )
    expect(() =>
      validateFrame({ cols: 2, rows: 1, cells: [[cell("a")]], cursor: { x: 0, y: 0, visible: false } }),
    ).toThrow(/row 0 .* needs 2 cells, got 1/)
    expect(() =>
      renderRgb({ cols: 2, rows: 2, cells: [[cell("a"), cell("b")]], cursor: { x: 0, y: 0, visible: false } }),
    ).toThrow(/needs 2 rows/)
    expect(() =>
      renderRgb({ cols: 100_000, rows: 10_000, cells: [], cursor: { x: 0, y: 0, visible: false } }),
    ).toThrow()
  })
})

describe("glyph cache", () => {
  it("rasterises each (glyph, bold, italic, width) once", () => {
    const cache = new GlyphCache(defaultFontFaces(), CELL_WIDTH, CELL_HEIGHT)
    const regular = cache.mask("g", false, false, 1)
    expect(cache.mask("g", false, false, 1)).toBe(regular)
    expect(cache.mask("g", true, false, 1)).not.toBe(regular)
    expect(cache.mask("g", false, true, 1)).not.toBe(regular)
    expect(cache.mask(" ", false, false, 1)).toBeNull()
    expect(cache.mask("", false, false, 1)).toBeNull()
    // Descender below the baseline, ink above it.
    expect(regular!.bottom).toBeGreaterThan(cache.baselineRow)
    expect(regular!.top).toBeLessThan(cache.baselineRow)
  })
})
