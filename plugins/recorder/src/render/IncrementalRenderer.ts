/**
 * Rendering a sequence of frames of one image size, reusing pixels: a cell row identical to some row of the previous
 * frame (same cells, same cursor) is copied from the previous frame instead of painted again. Scrolling output and
 * small updates of a full-screen UI then cost a few rows per frame.
 */
import type { Recorder } from "@codemode/core"
import { CELL_HEIGHT, CELL_WIDTH, createImage, type FrameRenderer, type RgbImage } from "./FrameRenderer.js"
import { i420Size, rgbBandToI420 } from "./yuv.js"

/** One rendered row: its cells and the cursor column on it (-1 when the cursor is elsewhere or hidden). */
interface RowState {
  readonly cells: ReadonlyArray<Recorder.Cell>
  readonly cursorX: number
}

/** The pixel layout of rendered frames: packed RGB, or planar YUV 4:2:0 for H.264 and VP9. */
export type PixelFormat = "rgb24" | "yuv420p"

/** Paints successive frames of one size and pixel format, copying unchanged rows from the previous frame. */
export class IncrementalRenderer {
  /** The byte size of one frame. */
  readonly frameBytes: number
  private readonly rows: number
  /** Where a YUV frame's rows are painted in RGB before conversion. */
  private readonly band: RgbImage
  private previousRows: RowState[] = []
  private previousIndex = new Map<number, number[]>()

  constructor(
    private readonly renderer: FrameRenderer,
    readonly width: number,
    readonly height: number,
    readonly format: PixelFormat,
  ) {
    if (height % CELL_HEIGHT !== 0 || width % 2 !== 0) {
      throw new Error(`frames must be whole cell rows and an even width, got ${width}×${height}`)
    }
    this.rows = height / CELL_HEIGHT
    this.frameBytes = format === "rgb24" ? width * height * 3 : i420Size(width, height)
    this.band = createImage(width, CELL_HEIGHT)
  }

  /** A new frame buffer of this renderer's size and format. */
  createFrame(): Buffer {
    return Buffer.alloc(this.frameBytes)
  }

  /**
   * Paints `frame` into `target`. `previous` must hold the previous call's result (or be `undefined` to paint
   * everything) in a different buffer.
   */
  render(frame: Recorder.TerminalFrame, target: Buffer, previous: Buffer | undefined): void {
    if (
      target.length !== this.frameBytes ||
      (previous !== undefined && (previous === target || previous.length !== this.frameBytes))
    ) {
      throw new Error("render needs a target frame buffer and a separate previous one, both from createFrame()")
    }
    if (frame.rows > this.rows || frame.cols * CELL_WIDTH > this.width) {
      throw new Error(`a ${frame.cols}×${frame.rows} frame does not fit ${this.width}×${this.height} pixels`)
    }
    const rows: RowState[] = []
    const index = new Map<number, number[]>()
    for (let y = 0; y < this.rows; y++) {
      const row: RowState =
        y < frame.rows
          ? { cells: frame.cells[y] ?? [], cursorX: frame.cursor.visible && frame.cursor.y === y ? frame.cursor.x : -1 }
          : EMPTY_ROW
      rows.push(row)
      const hash = rowHash(row)
      const sameHash = index.get(hash)
      if (sameHash === undefined) index.set(hash, [y])
      else sameHash.push(y)
      const source = previous === undefined ? undefined : this.findPreviousRow(row, hash)
      if (source !== undefined) this.copyRow(previous!, source, target, y)
      else this.paintRow(frame, y, target)
    }
    this.previousRows = rows
    this.previousIndex = index
  }

  private paintRow(frame: Recorder.TerminalFrame, y: number, target: Buffer): void {
    const top = y * CELL_HEIGHT
    if (this.format === "rgb24") {
      const image = { width: this.width, height: this.height, data: target }
      if (y < frame.rows) this.renderer.paintRow(frame, y, image)
      else this.renderer.paintBelow(top, { width: this.width, height: top + CELL_HEIGHT, data: target })
      return
    }
    if (y < frame.rows) this.renderer.paintRow(frame, y, this.band, 0)
    else this.renderer.paintBelow(0, this.band)
    rgbBandToI420(this.band.data, this.width, CELL_HEIGHT, target, this.height, top)
  }

  private copyRow(from: Buffer, source: number, to: Buffer, y: number): void {
    if (this.format === "rgb24") {
      const bandBytes = this.width * 3 * CELL_HEIGHT
      from.copy(to, y * bandBytes, source * bandBytes, (source + 1) * bandBytes)
      return
    }
    const lumaBand = this.width * CELL_HEIGHT
    const chromaBand = lumaBand / 4
    const uPlane = this.width * this.height
    const vPlane = uPlane + uPlane / 4
    from.copy(to, y * lumaBand, source * lumaBand, (source + 1) * lumaBand)
    from.copy(to, uPlane + y * chromaBand, uPlane + source * chromaBand, uPlane + (source + 1) * chromaBand)
    from.copy(to, vPlane + y * chromaBand, vPlane + source * chromaBand, vPlane + (source + 1) * chromaBand)
  }

  private findPreviousRow(row: RowState, hash: number): number | undefined {
    for (const candidate of this.previousIndex.get(hash) ?? []) {
      if (sameRow(this.previousRows[candidate], row)) return candidate
    }
    return undefined
  }
}

/** A row below the frame (the video is taller than the terminal after a resize): background only. */
const EMPTY_ROW: RowState = { cells: [], cursorX: -1 }

function colorHash(color: Recorder.Color): number {
  return color.mode === "default" ? 0x1000000 : color.mode === "palette" ? 0x2000000 | color.index : color.rgb
}

function rowHash(row: RowState): number {
  let hash = Math.imul(row.cursorX + 2, 0x9e3779b1) ^ row.cells.length
  for (const cell of row.cells) {
    const glyph = cell.glyph
    for (let i = 0; i < glyph.length; i++) hash = Math.imul(hash ^ glyph.charCodeAt(i), 0x01000193)
    const flags =
      cell.width |
      (cell.bold ? 4 : 0) |
      (cell.italic ? 8 : 0) |
      (cell.dim ? 16 : 0) |
      (cell.underline ? 32 : 0) |
      (cell.strikethrough ? 64 : 0) |
      (cell.inverse ? 128 : 0) |
      (cell.invisible ? 256 : 0)
    hash = Math.imul(hash ^ flags, 0x01000193)
    hash = Math.imul(hash ^ colorHash(cell.fg), 0x01000193)
    hash = Math.imul(hash ^ colorHash(cell.bg), 0x01000193)
  }
  return hash
}

function sameColor(a: Recorder.Color, b: Recorder.Color): boolean {
  if (a.mode !== b.mode) return false
  if (a.mode === "palette") return a.index === (b as typeof a).index
  if (a.mode === "rgb") return a.rgb === (b as typeof a).rgb
  return true
}

function sameRow(a: RowState, b: RowState): boolean {
  if (a.cursorX !== b.cursorX || a.cells.length !== b.cells.length) return false
  for (let i = 0; i < a.cells.length; i++) {
    const x = a.cells[i]
    const y = b.cells[i]
    if (
      x.glyph !== y.glyph ||
      x.width !== y.width ||
      x.bold !== y.bold ||
      x.italic !== y.italic ||
      x.dim !== y.dim ||
      x.underline !== y.underline ||
      x.strikethrough !== y.strikethrough ||
      x.inverse !== y.inverse ||
      x.invisible !== y.invisible ||
      !sameColor(x.fg, y.fg) ||
      !sameColor(x.bg, y.bg)
    ) {
      return false
    }
  }
  return true
}
