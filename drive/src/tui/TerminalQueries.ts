/**
 * Answers to the terminal queries @xterm/headless leaves unanswered but OpenCode's TUI asks at start-up: the
 * default foreground/background/cursor colors (OSC 10–19), palette entries (OSC 4) and window/cell sizes in
 * pixels (CSI 14/16/18 t). Without answers the TUI waits for its query timeouts before drawing. Sizes assume the
 * recorder's 10×20 px cells; colors are a fixed dark theme so runs are reproducible.
 */
import type { Terminal } from "@xterm/headless"

/** The theme reported to the TUI (24-bit RGB). */
export const theme = {
  foreground: 0xd0d0d0,
  background: 0x000000,
  cursor: 0xd0d0d0,
  selection: 0x444444,
} as const

/** Cell size in pixels, matching the recorder's renderer. */
export const cellPixels = { width: 10, height: 20 } as const

const base16 = [
  0x000000, 0xcd0000, 0x00cd00, 0xcdcd00, 0x0000ee, 0xcd00cd, 0x00cdcd, 0xe5e5e5, 0x7f7f7f, 0xff0000, 0x00ff00,
  0xffff00, 0x5c5cff, 0xff00ff, 0x00ffff, 0xffffff,
]

/** The xterm 256-color palette entry `index` as 0xRRGGBB. */
export const paletteColor = (index: number): number => {
  if (index < 16) return base16[index]
  if (index < 232) {
    const i = index - 16
    const level = (v: number) => (v === 0 ? 0 : 55 + v * 40)
    return (level(Math.floor(i / 36)) << 16) | (level(Math.floor(i / 6) % 6) << 8) | level(i % 6)
  }
  const gray = 8 + (index - 232) * 10
  return (gray << 16) | (gray << 8) | gray
}

/** `rgb:RRRR/GGGG/BBBB`, the X11 color syntax terminals answer with. */
export const x11Color = (rgb: number): string => {
  const hex = (v: number) => v.toString(16).padStart(2, "0").repeat(2)
  return `rgb:${hex((rgb >> 16) & 0xff)}/${hex((rgb >> 8) & 0xff)}/${hex(rgb & 0xff)}`
}

const dynamicColors: Record<number, number> = {
  10: theme.foreground,
  11: theme.background,
  12: theme.cursor,
  13: theme.foreground,
  14: theme.background,
  15: theme.foreground,
  16: theme.background,
  17: theme.selection,
  19: theme.foreground,
}

const ST = "\x1b\\"

/** Install query answers on `terminal`; `reply` writes bytes back to the program. */
export const install = (terminal: Terminal, reply: (bytes: string) => void): void => {
  terminal.parser.registerOscHandler(4, (data) => {
    const parts = data.split(";")
    const answers: Array<string> = []
    for (let i = 0; i + 1 < parts.length; i += 2) {
      const index = Number(parts[i])
      if (parts[i + 1] === "?" && Number.isInteger(index) && index >= 0 && index < 256) {
        answers.push(`\x1b]4;${index};${x11Color(paletteColor(index))}${ST}`)
      }
    }
    if (answers.length === 0) return false
    reply(answers.join(""))
    return true
  })
  for (const [code, color] of Object.entries(dynamicColors)) {
    terminal.parser.registerOscHandler(Number(code), (data) => {
      if (data !== "?") return false
      reply(`\x1b]${code};${x11Color(color)}${ST}`)
      return true
    })
  }
  terminal.parser.registerCsiHandler({ final: "t" }, (params) => {
    const op = params[0]
    if (op === 14) reply(`\x1b[4;${terminal.rows * cellPixels.height};${terminal.cols * cellPixels.width}t`)
    else if (op === 16) reply(`\x1b[6;${cellPixels.height};${cellPixels.width}t`)
    else if (op === 18) reply(`\x1b[8;${terminal.rows};${terminal.cols}t`)
    else return false
    return true
  })
}
