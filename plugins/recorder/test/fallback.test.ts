import * as Fs from "node:fs"
import { createRequire } from "node:module"
import * as Path from "node:path"
import xterm from "@xterm/headless"
import { describe, expect, it } from "vitest"
import { defaultFontFaces } from "../src/font/fontFaces.js"
import { systemCjkFont } from "../src/font/fallbackFonts.js"
import { GlyphCache } from "../src/font/GlyphCache.js"
import { isWoff, unpackWoff } from "../src/font/woff.js"
import { TrueTypeFont } from "../src/font/TrueTypeFont.js"
import { CELL_HEIGHT, CELL_WIDTH } from "../src/render/FrameRenderer.js"
import { frameFromTerminal } from "../src/terminal/frameFromTerminal.js"
import { useUnicode11 } from "../src/terminal/unicodeWidths.js"

/** Every glyph OpenCode 1.18.33 drew on busy screens (streaming, running tools, todos, dialogs), sampled live. */
const openCodeGlyphs = "▄█▀┃…·╹▣■⬝→•✓●⠋⠹⠸⠼⠴⠦⠇⠏⠙⠧"
const emoji = ["🚀", "🎉", "🔥", "✅", "❌", "⚠"]
const cjk = ["世", "界", "日", "本", "中"]

const require = createRequire(import.meta.url)
const faces = defaultFontFaces()
const withFallbacks = new GlyphCache(faces, CELL_WIDTH, CELL_HEIGHT)
const withoutFallbacks = new GlyphCache({ ...faces, fallbacks: [] }, CELL_WIDTH, CELL_HEIGHT)
const box = (cells: number) => withoutFallbacks.mask("\u{10FFFD}", false, false, cells)

const isBox = (cache: GlyphCache, glyph: string, cells: number) => {
  const mask = cache.mask(glyph, false, false, cells)
  const replacement = box(cells)!
  return mask !== null && Buffer.from(mask.alpha).equals(Buffer.from(replacement.alpha))
}

describe("fallback glyphs", () => {
  it("draw every glyph of OpenCode's busy screens, emoji (two cells) and, with a system CJK font, CJK", () => {
    for (const glyph of openCodeGlyphs) expect(isBox(withFallbacks, glyph, 1), glyph).toBe(false)
    for (const glyph of emoji) expect(isBox(withFallbacks, glyph, 2), glyph).toBe(false)
    // What DejaVu Sans Mono alone lacks of these (so the fallbacks are what draws them):
    const missing = [...openCodeGlyphs].filter((glyph) => isBox(withoutFallbacks, glyph, 1))
    expect(missing).toContain("⬝")
    expect(["🚀", "🎉", "🔥"].every((glyph) => isBox(withoutFallbacks, glyph, 2))).toBe(true)
    if (systemCjkFont() !== undefined) {
      for (const glyph of cjk) expect(isBox(withFallbacks, glyph, 2), glyph).toBe(false)
    }
  })

  it("keep a glyph the fonts lack visible as a box", () => {
    expect(isBox(withFallbacks, "\u{10FFFD}", 1)).toBe(true)
  })

  it("unpack WOFF files to TrueType fonts", () => {
    const dir = Path.join(Path.dirname(require.resolve("@fontsource/noto-emoji/package.json")), "files")
    const file = Fs.readdirSync(dir).find((name) => name.endsWith("-400-normal.woff"))!
    const data = Fs.readFileSync(Path.join(dir, file))
    expect(isWoff(data)).toBe(true)
    const font = TrueTypeFont.parse(unpackWoff(data))
    expect(font.unitsPerEm).toBeGreaterThan(0)
    expect(() => unpackWoff(Buffer.from("not a font at all, certainly not WOFF....."))).toThrow("not a WOFF")
  })

  it("emoji take two cells with Unicode 11 widths, as OpenCode lays them out", async () => {
    const terminal = new xterm.Terminal({ cols: 30, rows: 2, allowProposedApi: true })
    useUnicode11(terminal)
    await new Promise<void>((resolve) => terminal.write("Hello 🚀🎉 done", resolve))
    const row = frameFromTerminal(terminal).cells[0]
    expect(row.slice(6, 11).map((cell) => [cell.glyph, cell.width])).toEqual([
      ["🚀", 2],
      ["", 0],
      ["🎉", 2],
      ["", 0],
      [" ", 1],
    ])
    expect(terminal.buffer.active.getLine(0)?.translateToString(true)).toBe("Hello 🚀🎉 done")
  })
})
