/**
 * Coverage masks of terminal glyphs at a fixed cell size, rasterised once per (glyph, bold, italic, width) and
 * cached. Box-drawing and block characters are drawn geometrically; characters the font lacks come from the
 * fallback fonts (symbols, emoji, CJK), and only what none has becomes a visible replacement box.
 */
import { drawBoxGlyph, isBoxGlyph } from "../render/boxDrawing.js"
import { fallbackFor } from "./fallbackFonts.js"
import type { FontFaces } from "./fontFaces.js"
import { Rasterizer } from "./rasterize.js"
import type { TrueTypeFont } from "./TrueTypeFont.js"

/** A glyph's coverage over its cells: `alpha` has `width × height` bytes; `top..bottom` bound its non-empty rows. */
export interface GlyphMask {
  readonly width: number
  readonly alpha: Uint8Array
  readonly top: number
  readonly bottom: number
}

/** Code points that only shape their neighbours and draw nothing themselves. */
function isInvisibleJoiner(codePoint: number): boolean {
  return codePoint === 0x200d || (codePoint >= 0xfe00 && codePoint <= 0xfe0f)
}

/** Rasterises and caches glyph masks for one cell size. */
export class GlyphCache {
  private readonly cache = new Map<string, GlyphMask | null>()
  private readonly scale: number
  private readonly baseline: number

  constructor(
    private readonly fonts: FontFaces,
    readonly cellWidth: number,
    readonly cellHeight: number,
  ) {
    const font = fonts.regular
    this.scale = cellWidth / font.advanceWidth(font.glyphIndex(0x4d))
    const lineHeight = (font.ascender - font.descender) * this.scale
    this.baseline = Math.round((cellHeight - lineHeight) / 2 + font.ascender * this.scale)
  }

  /** The row of the text baseline within a cell. */
  get baselineRow(): number {
    return this.baseline
  }

  /** The mask of `glyph` spanning `cells` cells, or `null` when it draws nothing (blank or whitespace). */
  mask(glyph: string, bold: boolean, italic: boolean, cells: number): GlyphMask | null {
    const key = `${glyph}\u0000${bold ? 1 : 0}${italic ? 1 : 0}${cells}`
    let mask = this.cache.get(key)
    if (mask === undefined) {
      mask = this.rasterise(glyph, bold, italic, cells)
      this.cache.set(key, mask)
    }
    return mask
  }

  private rasterise(glyph: string, bold: boolean, italic: boolean, cells: number): GlyphMask | null {
    const width = this.cellWidth * cells
    const height = this.cellHeight
    const codePoints = [...glyph].map((c) => c.codePointAt(0)!).filter((c) => !isInvisibleJoiner(c))
    if (codePoints.length === 0 || codePoints.every((c) => c === 0x20 || c === 0xa0 || c === 0x3000)) return null
    if (isBoxGlyph(codePoints[0])) return finish(drawBoxGlyph(codePoints[0], width, height)!, width)
    const font = this.fontFor(bold, italic)
    if (font.glyphIndex(codePoints[0]) === 0) return this.rasteriseFallback(codePoints[0], width, height)
    const rasterizer = new Rasterizer(width, height)
    for (const codePoint of codePoints) {
      const index = font.glyphIndex(codePoint)
      if (index === 0) continue
      // Centre the glyph's advance in its cells (wide glyphs of a monospace font are rare but do exist).
      const originX = (width - font.advanceWidth(index) * this.scale) / 2
      rasterizer.addContours(font.outline(index), { scale: this.scale, originX, originY: this.baseline })
    }
    return finish(rasterizer.coverage(), width)
  }

  /**
   * A character the monospace family lacks, from the first fallback font that has it (only its first code point:
   * no shaping of sequences), scaled to the family's em and shrunk to fit its cells; else a replacement box.
   */
  private rasteriseFallback(codePoint: number, width: number, height: number): GlyphMask | null {
    const fallback = fallbackFor(this.fonts.fallbacks, codePoint)
    if (fallback === undefined) return finish(replacementBox(width, height), width)
    const index = fallback.glyphIndex(codePoint)
    const pixelsPerEm = this.scale * this.fonts.regular.unitsPerEm
    const advance = fallback.advanceWidth(index)
    let scale = pixelsPerEm / fallback.unitsPerEm
    if (advance * scale > width) scale = width / advance
    const rasterizer = new Rasterizer(width, height)
    const originX = (width - advance * scale) / 2
    rasterizer.addContours(fallback.outline(index), { scale, originX, originY: this.baseline })
    return finish(rasterizer.coverage(), width)
  }

  private fontFor(bold: boolean, italic: boolean): TrueTypeFont {
    if (bold) return italic ? this.fonts.boldItalic : this.fonts.bold
    return italic ? this.fonts.italic : this.fonts.regular
  }
}

/** A hollow rectangle standing for a character the font cannot draw. */
function replacementBox(width: number, height: number): Uint8Array {
  const alpha = new Uint8Array(width * height)
  const left = 1
  const right = width - 2
  const top = Math.round(height * 0.15)
  const bottom = height - 1 - Math.round(height * 0.15)
  for (let x = left; x <= right; x++) {
    alpha[top * width + x] = 255
    alpha[bottom * width + x] = 255
  }
  for (let y = top; y <= bottom; y++) {
    alpha[y * width + left] = 255
    alpha[y * width + right] = 255
  }
  return alpha
}

function finish(alpha: Uint8Array, width: number): GlyphMask | null {
  const height = alpha.length / width
  let top = height
  let bottom = -1
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (alpha[y * width + x] !== 0) {
        if (top === height) top = y
        bottom = y
        break
      }
    }
  }
  return bottom < 0 ? null : { width, alpha, top, bottom: bottom + 1 }
}
