/**
 * The monospace font the renderer draws with: DejaVu Sans Mono (regular, bold, oblique, bold oblique) from the
 * `dejavu-fonts-ttf` package, whose license allows redistribution, and the fallback fonts for what it lacks.
 */
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { type FallbackFont, fallbackFonts } from "./fallbackFonts.js"
import { TrueTypeFont } from "./TrueTypeFont.js"

/** The four styles of one monospace family. */
export interface FontFaces {
  readonly regular: TrueTypeFont
  readonly bold: TrueTypeFont
  readonly italic: TrueTypeFont
  readonly boldItalic: TrueTypeFont
  /** Fonts tried, in order, for characters the family lacks (see `fallbackFonts.ts`). */
  readonly fallbacks: ReadonlyArray<FallbackFont>
}

const FONT_PACKAGE = "dejavu-fonts-ttf"
const FILES = {
  regular: "DejaVuSansMono.ttf",
  bold: "DejaVuSansMono-Bold.ttf",
  italic: "DejaVuSansMono-Oblique.ttf",
  boldItalic: "DejaVuSansMono-BoldOblique.ttf",
} as const

let loaded: FontFaces | undefined

/** Loads (once) DejaVu Sans Mono in its four styles; throws an Error saying how to fix a missing font package. */
export function defaultFontFaces(): FontFaces {
  if (loaded !== undefined) return loaded
  let directory: string
  try {
    directory = join(dirname(createRequire(import.meta.url).resolve(`${FONT_PACKAGE}/package.json`)), "ttf")
  } catch (cause) {
    throw new Error(
      `the font package '${FONT_PACKAGE}' is not installed; reinstall @codemode/recorder's dependencies`,
      {
        cause,
      },
    )
  }
  const load = (file: string) => {
    const path = join(directory, file)
    try {
      return TrueTypeFont.parse(readFileSync(path))
    } catch (cause) {
      throw new Error(`cannot load the font ${path}: ${cause instanceof Error ? cause.message : String(cause)}`, {
        cause,
      })
    }
  }
  loaded = {
    regular: load(FILES.regular),
    bold: load(FILES.bold),
    italic: load(FILES.italic),
    boldItalic: load(FILES.boldItalic),
    fallbacks: fallbackFonts(directory),
  }
  return loaded
}
