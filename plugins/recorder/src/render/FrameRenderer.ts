/**
 * Paints a `TerminalFrame` into a 24-bit RGB image: 10×20 pixel cells, theme colors, font glyphs with bold, italic,
 * dim, underline, strikethrough, inverse and invisible attributes, wide characters, and a block cursor.
 */
import type { Recorder } from "@codemode/core"
import { defaultFontFaces } from "../font/fontFaces.js"
import { GlyphCache, type GlyphMask } from "../font/GlyphCache.js"
import { defaultTheme, paletteOf, resolveColor, type Theme } from "./palette.js"

/** Width of one terminal cell in pixels. */
export const CELL_WIDTH = 10
/** Height of one terminal cell in pixels. */
export const CELL_HEIGHT = 20
/** The largest image the renderer paints (in pixels), so that an absurd frame size fails instead of exhausting memory. */
const MAX_IMAGE_PIXELS = 64 * 1024 * 1024

/** A 24-bit RGB image, rows top to bottom, 3 bytes per pixel. */
export interface RgbImage {
  readonly width: number
  readonly height: number
  readonly data: Buffer
}

/** Allocates an RGB image of `width × height` pixels. */
export function createImage(width: number, height: number): RgbImage {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width <= 0 || height <= 0) {
    throw new Error(`an image needs a positive integer size, got ${width}×${height}`)
  }
  if (width * height > MAX_IMAGE_PIXELS) {
    throw new Error(`an image of ${width}×${height} pixels is larger than the limit of ${MAX_IMAGE_PIXELS} pixels`)
  }
  return { width, height, data: Buffer.alloc(width * height * 3) }
}

/** The pixel size of a frame of `cols × rows` cells. */
export function imageSizeOf(cols: number, rows: number): { readonly width: number; readonly height: number } {
  return { width: cols * CELL_WIDTH, height: rows * CELL_HEIGHT }
}

/** Paints terminal frames with one theme and one glyph cache. */
export class FrameRenderer {
  private readonly palette: Uint32Array
  private readonly underlineRow: number
  private readonly strikeRow: number

  constructor(
    private readonly theme: Theme = defaultTheme,
    private readonly glyphs: GlyphCache = new GlyphCache(defaultFontFaces(), CELL_WIDTH, CELL_HEIGHT),
  ) {
    this.palette = paletteOf(theme)
    this.underlineRow = Math.min(CELL_HEIGHT - 1, glyphs.baselineRow + 2)
    this.strikeRow = glyphs.baselineRow - Math.round(CELL_HEIGHT * 0.27)
  }

  /**
   * Paints `frame` into `target` (top-left aligned; the rest of a larger target is painted with the default
   * background), or into a new image of the frame's size.
   */
  render(frame: Recorder.TerminalFrame, target?: RgbImage): RgbImage {
    const size = imageSizeOf(frame.cols, frame.rows)
    const image = target ?? createImage(size.width, size.height)
    if (image.width < size.width || image.height < size.height) {
      throw new Error(
        `a ${frame.cols}×${frame.rows} frame needs ${size.width}×${size.height} pixels, the image has ${image.width}×${image.height}`,
      )
    }
    for (let y = 0; y < frame.rows; y++) this.paintRow(frame, y, image)
    this.paintBelow(frame.rows * CELL_HEIGHT, image)
    return image
  }

  /**
   * Paints cell row `y` of `frame` (and the default background right of it) into `image`, at pixel row `top`
   * (by default the row's own place).
   */
  paintRow(frame: Recorder.TerminalFrame, y: number, image: RgbImage, top = y * CELL_HEIGHT): void {
    const row = frame.cells[y] ?? []
    const cols = frame.cols
    const stride = image.width * 3
    const data = image.data
    const { foreground, background } = this.theme
    const cursor = frame.cursor
    // Pass 1: the background of every cell along the band's first pixel row, then copied to the other rows.
    const fgs = new Int32Array(cols)
    const spans = new Uint8Array(cols)
    for (let x = 0; x < cols; x++) {
      const cell = row[x]
      let span = 1
      if (cell !== undefined && cell.width === 0 && x > 0 && spans[x - 1] === 2) continue
      if (cell !== undefined && cell.width === 2 && x + 1 < cols) span = 2
      spans[x] = span
      let fg = cell === undefined ? foreground : resolveColor(cell.fg, this.palette, foreground)
      let bg = cell === undefined ? background : resolveColor(cell.bg, this.palette, background)
      if (cell?.inverse) [fg, bg] = [bg, fg]
      if (cursor.visible && cursor.y === y && (cursor.x === x || (span === 2 && cursor.x === x + 1)))
        [fg, bg] = [bg, fg]
      if (cell?.dim) fg = mix(fg, bg)
      fgs[x] = fg
      const r = bg >> 16
      const g = (bg >> 8) & 0xff
      const b = bg & 0xff
      let offset = top * stride + x * CELL_WIDTH * 3
      for (let i = 0; i < span * CELL_WIDTH; i++, offset += 3) {
        data[offset] = r
        data[offset + 1] = g
        data[offset + 2] = b
      }
    }
    const bandStart = top * stride
    const paintedWidth = cols * CELL_WIDTH * 3
    for (let line = 1; line < CELL_HEIGHT; line++) {
      data.copyWithin(bandStart + line * stride, bandStart, bandStart + paintedWidth)
    }
    if (image.width > cols * CELL_WIDTH) this.fillBackground(image, cols * CELL_WIDTH, top, top + CELL_HEIGHT)
    // Pass 2: glyphs and lines over the background.
    for (let x = 0; x < cols; x++) {
      const span = spans[x]
      const cell = row[x]
      if (span === 0 || cell === undefined || cell.invisible) continue
      const left = x * CELL_WIDTH
      const fg = fgs[x]
      const mask = this.glyphs.mask(cell.glyph, cell.bold, cell.italic, span)
      if (mask !== null) blend(image, mask, left, top, fg)
      if (cell.underline) fillRect(image, left, top + this.underlineRow, span * CELL_WIDTH, 1, fg)
      if (cell.strikethrough) fillRect(image, left, top + this.strikeRow, span * CELL_WIDTH, 1, fg)
    }
  }

  /** Paints the default background below pixel row `top` (the part of a larger image that a frame leaves empty). */
  paintBelow(top: number, image: RgbImage): void {
    this.fillBackground(image, 0, top, image.height)
  }

  /** Paints the default background over columns from `left` to the image's right edge, rows `top..bottom`. */
  private fillBackground(image: RgbImage, left: number, top: number, bottom: number): void {
    if (bottom <= top || left >= image.width) return
    fillRect(image, left, top, image.width - left, bottom - top, this.theme.background)
  }
}

/** Halfway between two colors: how dim text is drawn. */
function mix(a: number, b: number): number {
  const r = ((a >> 16) + (b >> 16)) >> 1
  const g = (((a >> 8) & 0xff) + ((b >> 8) & 0xff)) >> 1
  const bl = ((a & 0xff) + (b & 0xff)) >> 1
  return (r << 16) | (g << 8) | bl
}

function fillRect(image: RgbImage, left: number, top: number, width: number, height: number, color: number): void {
  const data = image.data
  const stride = image.width * 3
  const r = color >> 16
  const g = (color >> 8) & 0xff
  const b = color & 0xff
  let offset = top * stride + left * 3
  for (let i = 0; i < width; i++, offset += 3) {
    data[offset] = r
    data[offset + 1] = g
    data[offset + 2] = b
  }
  const first = top * stride + left * 3
  for (let line = 1; line < height; line++) data.copyWithin(first + line * stride, first, first + width * 3)
}

/** Draws `color` through a glyph's coverage over the background already painted at (`left`, `top`). */
function blend(image: RgbImage, mask: GlyphMask, left: number, top: number, color: number): void {
  const data = image.data
  const stride = image.width * 3
  const alpha = mask.alpha
  const width = mask.width
  const r = color >> 16
  const g = (color >> 8) & 0xff
  const b = color & 0xff
  for (let y = mask.top; y < mask.bottom; y++) {
    let offset = (top + y) * stride + left * 3
    let index = y * width
    for (let x = 0; x < width; x++, offset += 3, index++) {
      const a = alpha[index]
      if (a === 0) continue
      if (a === 255) {
        data[offset] = r
        data[offset + 1] = g
        data[offset + 2] = b
      } else {
        const keep = 255 - a
        data[offset] = (data[offset] * keep + r * a + 127) / 255
        data[offset + 1] = (data[offset + 1] * keep + g * a + 127) / 255
        data[offset + 2] = (data[offset + 2] * keep + b * a + 127) / 255
      }
    }
  }
}
