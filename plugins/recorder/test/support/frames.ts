/** Builders of terminal frames for tests. */
import type { Recorder } from "@codemode/core"

export const DEFAULT: Recorder.Color = { mode: "default" }
export const palette = (index: number): Recorder.Color => ({ mode: "palette", index })
export const rgb = (value: number): Recorder.Color => ({ mode: "rgb", rgb: value })

/** A cell with default colors and no attributes, overridden by `attributes`. */
export function cell(glyph: string, attributes: Partial<Recorder.Cell> = {}): Recorder.Cell {
  return {
    glyph,
    width: 1,
    fg: DEFAULT,
    bg: DEFAULT,
    bold: false,
    italic: false,
    dim: false,
    underline: false,
    strikethrough: false,
    inverse: false,
    invisible: false,
    ...attributes,
  }
}

/** A mutable frame of blank cells with a hidden cursor. */
export class FrameBuilder {
  readonly cells: Recorder.Cell[][]
  cursor: Recorder.Cursor = { x: 0, y: 0, visible: false }

  constructor(
    readonly cols: number,
    readonly rows: number,
  ) {
    this.cells = Array.from({ length: rows }, () => Array.from({ length: cols }, () => cell("")))
  }

  /** Writes `text` from (x, y), one cell per code point, all with `attributes`. */
  text(x: number, y: number, text: string, attributes: Partial<Recorder.Cell> = {}): this {
    for (const glyph of text) this.cells[y][x++] = cell(glyph, attributes)
    return this
  }

  /** Writes a wide (two-cell) character at (x, y). */
  wide(x: number, y: number, glyph: string, attributes: Partial<Recorder.Cell> = {}): this {
    this.cells[y][x] = cell(glyph, { ...attributes, width: 2 })
    this.cells[y][x + 1] = cell("", { width: 0 })
    return this
  }

  frame(): Recorder.TerminalFrame {
    return { cols: this.cols, rows: this.rows, cells: this.cells, cursor: this.cursor }
  }
}
