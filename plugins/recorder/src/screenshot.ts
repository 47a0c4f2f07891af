/**
 * Screenshots: a terminal frame rendered to PNG bytes with the default theme and font.
 */
import type { Recorder } from "@codemode/core"
import { encodePng } from "./png/encodePng.js"
import { FrameRenderer, type RgbImage } from "./render/FrameRenderer.js"

let sharedRenderer: FrameRenderer | undefined

/** The renderer with the default theme and font, created on first use (its glyph cache lives as long as the process). */
export function defaultRenderer(): FrameRenderer {
  sharedRenderer ??= new FrameRenderer()
  return sharedRenderer
}

/** Checks that a frame is well formed; throws an Error saying what is wrong. */
export function validateFrame(frame: Recorder.TerminalFrame): void {
  const { cols, rows, cells, cursor } = frame
  if (!Number.isInteger(cols) || !Number.isInteger(rows) || cols <= 0 || rows <= 0) {
    throw new Error(`a terminal frame needs positive integer cols and rows, got ${cols}×${rows}`)
  }
  if (!Array.isArray(cells) || cells.length !== rows) {
    throw new Error(
      `a ${cols}×${rows} frame needs ${rows} rows of cells, got ${Array.isArray(cells) ? cells.length : typeof cells}`,
    )
  }
  cells.forEach((row, y) => {
    if (!Array.isArray(row) || row.length !== cols) {
      throw new Error(
        `row ${y} of a ${cols}×${rows} frame needs ${cols} cells, got ${Array.isArray(row) ? row.length : typeof row}`,
      )
    }
  })
  if (cursor === undefined || !Number.isInteger(cursor.x) || !Number.isInteger(cursor.y)) {
    throw new Error("a terminal frame needs a cursor with integer x and y")
  }
}

/** Renders a terminal frame to 24-bit RGB pixels (10×20 pixels per cell). */
export function renderRgb(frame: Recorder.TerminalFrame): RgbImage {
  validateFrame(frame)
  return defaultRenderer().render(frame)
}

/** Renders a terminal frame to PNG file bytes (10×20 pixels per cell). */
export function renderPng(frame: Recorder.TerminalFrame): Buffer {
  return encodePng(renderRgb(frame))
}
