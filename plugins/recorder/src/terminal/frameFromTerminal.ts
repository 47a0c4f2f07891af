/**
 * Reading the visible screen of an @xterm/headless terminal as a `TerminalFrame`: glyphs, widths, colors,
 * attributes and the cursor.
 */
import type { Recorder } from "@codemode/core"
import type { IBufferCell, Terminal } from "@xterm/headless"

const DEFAULT_COLOR: Recorder.Color = { mode: "default" }
const PALETTE_COLORS: ReadonlyArray<Recorder.Color> = Array.from({ length: 256 }, (_, index) => ({
  mode: "palette",
  index,
}))

const BLANK_CELL: Recorder.Cell = {
  glyph: "",
  width: 1,
  fg: DEFAULT_COLOR,
  bg: DEFAULT_COLOR,
  bold: false,
  italic: false,
  dim: false,
  underline: false,
  strikethrough: false,
  inverse: false,
  invisible: false,
}

function foreground(cell: IBufferCell): Recorder.Color {
  if (cell.isFgDefault()) return DEFAULT_COLOR
  if (cell.isFgRGB()) return { mode: "rgb", rgb: cell.getFgColor() }
  return PALETTE_COLORS[cell.getFgColor() & 0xff]
}

function background(cell: IBufferCell): Recorder.Color {
  if (cell.isBgDefault()) return DEFAULT_COLOR
  if (cell.isBgRGB()) return { mode: "rgb", rgb: cell.getBgColor() }
  return PALETTE_COLORS[cell.getBgColor() & 0xff]
}

/**
 * Whether the application hid the cursor (DECTCEM). The public API of @xterm/headless 5 does not expose it, so this
 * reads the core service and falls back to "visible" if a later version moves it.
 */
function cursorHidden(terminal: Terminal): boolean {
  const core = (terminal as unknown as { _core?: { coreService?: { isCursorHidden?: unknown } } })._core
  return core?.coreService?.isCursorHidden === true
}

/**
 * The visible screen of `terminal` (its active buffer at the current viewport) as a frame. The terminal must be
 * created with `allowProposedApi: true`, which @xterm/headless requires for reading its buffer.
 */
export function frameFromTerminal(terminal: Terminal): Recorder.TerminalFrame {
  const buffer = terminal.buffer.active
  const cols = terminal.cols
  const rows = terminal.rows
  const cell = buffer.getNullCell()
  const cells: Recorder.Cell[][] = []
  for (let y = 0; y < rows; y++) {
    const line = buffer.getLine(buffer.viewportY + y)
    const row: Recorder.Cell[] = []
    for (let x = 0; x < cols; x++) {
      if (line === undefined || line.getCell(x, cell) === undefined) {
        row.push(BLANK_CELL)
        continue
      }
      const width = cell.getWidth()
      row.push({
        glyph: cell.getChars(),
        width: width === 0 || width === 2 ? width : 1,
        fg: foreground(cell),
        bg: background(cell),
        bold: cell.isBold() !== 0,
        italic: cell.isItalic() !== 0,
        dim: cell.isDim() !== 0,
        underline: cell.isUnderline() !== 0,
        strikethrough: cell.isStrikethrough() !== 0,
        inverse: cell.isInverse() !== 0,
        invisible: cell.isInvisible() !== 0,
      })
    }
    cells.push(row)
  }
  return {
    cols,
    rows,
    cells,
    cursor: {
      x: buffer.cursorX,
      y: buffer.cursorY,
      visible: !cursorHidden(terminal) && buffer.viewportY === buffer.baseY,
    },
  }
}
