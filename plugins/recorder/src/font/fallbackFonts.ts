/**
 * Fonts for what DejaVu Sans Mono lacks, tried in order for each character:
 *
 * 1. DejaVu Sans (same package): more symbols and arrows.
 * 2. Noto Sans Symbols 2 (`@fontsource/noto-sans-symbols-2`): geometric shapes such as OpenCode's spinner `⬝`.
 * 3. Noto Emoji (`@fontsource/noto-emoji`, the monochrome outline emoji): emoji, drawn in the cell's color.
 * 4. A CJK font of the system, when one is installed (Droid Sans Fallback, WenQuanYi, Noto Sans CJK as TrueType):
 *    no npm package ships CJK outlines at a reasonable size, so this one is looked up like ffmpeg on PATH
 *    (`OPENCODE_DRIVE_CJK_FONT` names a file; on Debian `apt-get install fonts-droid-fallback`).
 *
 * The npm fonts come as fontsource subsets (one WOFF file per Unicode range, listed in the package's CSS); a
 * subset is loaded the first time one of its characters is drawn. Fonts that are missing are skipped.
 */
import * as Fs from "node:fs"
import { createRequire } from "node:module"
import * as Path from "node:path"
import { TrueTypeFont } from "./TrueTypeFont.js"
import { isWoff, unpackWoff } from "./woff.js"

/** A font that may cover a code point. */
export interface FallbackFont {
  /** The font for `codePoint`, loading it if needed, or `undefined` when this font has no glyph for it. */
  readonly fontFor: (codePoint: number) => TrueTypeFont | undefined
}

const require = createRequire(import.meta.url)

const parse = (file: string): TrueTypeFont | undefined => {
  try {
    const data = Fs.readFileSync(file)
    return TrueTypeFont.parse(isWoff(data) ? unpackWoff(data) : data)
  } catch {
    return undefined
  }
}

/** A single font file, loaded on first use. */
const single = (file: string | undefined): FallbackFont => {
  let font: TrueTypeFont | undefined | null = null
  return {
    fontFor: (codePoint) => {
      if (font === null) font = file === undefined ? undefined : parse(file)
      return font !== undefined && font.glyphIndex(codePoint) !== 0 ? font : undefined
    },
  }
}

interface Subset {
  readonly file: string
  readonly ranges: ReadonlyArray<readonly [number, number]>
  font: TrueTypeFont | undefined | null
}

/** The regular-weight WOFF subsets of a fontsource package, with their Unicode ranges (from its CSS). */
const fontsourceSubsets = (pkg: string, css: string): ReadonlyArray<Subset> => {
  let dir: string
  try {
    dir = Path.dirname(require.resolve(`${pkg}/package.json`))
  } catch {
    return []
  }
  let text: string
  try {
    text = Fs.readFileSync(Path.join(dir, css), "utf8")
  } catch {
    return []
  }
  const subsets: Array<Subset> = []
  for (const block of text.split("@font-face").slice(1)) {
    const woff = /url\(\.\/(files\/[^)]+?\.woff)\)\s*format\('woff'\)/.exec(block)
    const range = /unicode-range:\s*([^;]+);/.exec(block)
    if (woff === null || range === null) continue
    const ranges = range[1].split(",").map((part): readonly [number, number] => {
      const [from, to] = part.trim().replace(/^U\+/i, "").split("-")
      return [Number.parseInt(from, 16), Number.parseInt(to ?? from, 16)]
    })
    subsets.push({ file: Path.join(dir, woff[1]), ranges, font: null })
  }
  return subsets
}

const subsetted = (pkg: string, css: string): FallbackFont => {
  let subsets: ReadonlyArray<Subset> | undefined
  return {
    fontFor: (codePoint) => {
      subsets ??= fontsourceSubsets(pkg, css)
      for (const subset of subsets) {
        if (!subset.ranges.some(([from, to]) => codePoint >= from && codePoint <= to)) continue
        if (subset.font === null) subset.font = parse(subset.file)
        if (subset.font !== undefined && subset.font.glyphIndex(codePoint) !== 0) return subset.font
      }
      return undefined
    },
  }
}

const systemCjkCandidates = [
  "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
  "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
  "/usr/share/fonts/truetype/noto/NotoSansCJK-Regular.ttf",
  "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
  "/System/Library/Fonts/Supplemental/Arial Unicode.ttf",
]

/** The CJK font: `OPENCODE_DRIVE_CJK_FONT`, else the first installed candidate (TrueType outlines only). */
export const systemCjkFont = (): string | undefined =>
  process.env.OPENCODE_DRIVE_CJK_FONT ?? systemCjkCandidates.find((file) => Fs.existsSync(file))

let chain: ReadonlyArray<FallbackFont> | undefined

/** The fallback fonts, in the order they are tried. */
export const fallbackFonts = (dejavuDirectory: string): ReadonlyArray<FallbackFont> => {
  chain ??= [
    single(Path.join(dejavuDirectory, "DejaVuSans.ttf")),
    subsetted("@fontsource/noto-sans-symbols-2", "400.css"),
    subsetted("@fontsource/noto-emoji", "400.css"),
    single(systemCjkFont()),
  ]
  return chain
}

/** The first fallback font with a glyph for `codePoint`. */
export const fallbackFor = (fonts: ReadonlyArray<FallbackFont>, codePoint: number): TrueTypeFont | undefined => {
  for (const fallback of fonts) {
    const font = fallback.fontFor(codePoint)
    if (font !== undefined) return font
  }
  return undefined
}
