/**
 * Terminal colors: the default theme (xterm's 16 ANSI colors on a dark background) and resolution of a cell `Color`
 * to 24-bit RGB.
 */
import type { Recorder } from "@codemode/core"

/** The colors a frame is painted with; every value is `0xRRGGBB`. */
export interface Theme {
  readonly foreground: number
  readonly background: number
  /** The 16 ANSI colors (palette entries 0–15); entries 16–255 are the standard color cube and gray ramp. */
  readonly ansi: ReadonlyArray<number>
}

/** xterm's ANSI colors with its default light-gray-on-black. */
export const defaultTheme: Theme = {
  foreground: 0xe5e5e5,
  background: 0x000000,
  ansi: [
    0x000000, 0xcd0000, 0x00cd00, 0xcdcd00, 0x0000ee, 0xcd00cd, 0x00cdcd, 0xe5e5e5, 0x7f7f7f, 0xff0000, 0x00ff00,
    0xffff00, 0x5c5cff, 0xff00ff, 0x00ffff, 0xffffff,
  ],
}

const CUBE_LEVELS = [0, 95, 135, 175, 215, 255]

/** The 256-entry palette of a theme: its 16 ANSI colors, the 6×6×6 color cube and the 24-step gray ramp. */
export function paletteOf(theme: Theme): Uint32Array {
  if (theme.ansi.length !== 16) throw new Error(`a theme needs exactly 16 ANSI colors, got ${theme.ansi.length}`)
  const palette = new Uint32Array(256)
  for (let i = 0; i < 16; i++) palette[i] = theme.ansi[i]
  for (let i = 0; i < 216; i++) {
    const r = CUBE_LEVELS[Math.floor(i / 36)]
    const g = CUBE_LEVELS[Math.floor(i / 6) % 6]
    const b = CUBE_LEVELS[i % 6]
    palette[16 + i] = (r << 16) | (g << 8) | b
  }
  for (let i = 0; i < 24; i++) {
    const level = 8 + i * 10
    palette[232 + i] = (level << 16) | (level << 8) | level
  }
  return palette
}

/** Resolves a cell color to `0xRRGGBB`; `fallback` stands for the terminal's default color. */
export function resolveColor(color: Recorder.Color, palette: Uint32Array, fallback: number): number {
  switch (color.mode) {
    case "default":
      return fallback
    case "palette":
      return palette[color.index & 0xff]
    case "rgb":
      return color.rgb & 0xffffff
  }
}
