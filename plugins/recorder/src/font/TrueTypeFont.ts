/**
 * A small TrueType (`glyf` outlines) parser: the character map, horizontal metrics and glyph outlines as quadratic
 * contours in font units. It reads exactly what the screenshot renderer needs and nothing else.
 */

/** One outline point in font units (y grows upwards); off-curve points are quadratic control points. */
export interface OutlinePoint {
  readonly x: number
  readonly y: number
  readonly onCurve: boolean
}

/** A closed contour of a glyph outline. */
export type Contour = ReadonlyArray<OutlinePoint>

interface TableRecord {
  readonly offset: number
  readonly length: number
}

/** Composite glyph flags of the `glyf` table. */
const ARG_1_AND_2_ARE_WORDS = 0x0001
const ARGS_ARE_XY_VALUES = 0x0002
const WE_HAVE_A_SCALE = 0x0008
const MORE_COMPONENTS = 0x0020
const WE_HAVE_AN_X_AND_Y_SCALE = 0x0040
const WE_HAVE_A_TWO_BY_TWO = 0x0080

/** Composite glyphs nest; a font that nests deeper than this is malformed. */
const MAX_COMPOSITE_DEPTH = 8

/** A parsed TrueType font. */
export class TrueTypeFont {
  readonly unitsPerEm: number
  readonly ascender: number
  readonly descender: number
  private readonly data: Buffer
  private readonly tables: ReadonlyMap<string, TableRecord>
  private readonly longLocaOffsets: boolean
  private readonly glyphCount: number
  private readonly metricCount: number
  private readonly cmapLookup: (codePoint: number) => number
  private readonly glyphIndexCache = new Map<number, number>()

  private constructor(data: Buffer) {
    this.data = data
    if (data.length < 12) throw new Error("font file is too short to be a TrueType font")
    const version = data.readUInt32BE(0)
    if (version !== 0x00010000 && version !== 0x74727565) {
      throw new Error("not a TrueType font with glyf outlines (unsupported sfnt version)")
    }
    const numTables = data.readUInt16BE(4)
    const tables = new Map<string, TableRecord>()
    for (let i = 0; i < numTables; i++) {
      const record = 12 + i * 16
      const tag = data.toString("latin1", record, record + 4)
      tables.set(tag, { offset: data.readUInt32BE(record + 8), length: data.readUInt32BE(record + 12) })
    }
    this.tables = tables
    for (const tag of ["head", "hhea", "maxp", "hmtx", "cmap", "loca", "glyf"]) {
      const table = tables.get(tag)
      if (table === undefined) throw new Error(`font lacks the required '${tag}' table`)
      if (table.offset + table.length > data.length) throw new Error(`font table '${tag}' lies outside the file`)
    }
    const head = this.table("head")
    this.unitsPerEm = data.readUInt16BE(head + 18)
    this.longLocaOffsets = data.readInt16BE(head + 50) === 1
    const hhea = this.table("hhea")
    this.ascender = data.readInt16BE(hhea + 4)
    this.descender = data.readInt16BE(hhea + 6)
    this.metricCount = data.readUInt16BE(hhea + 34)
    this.glyphCount = data.readUInt16BE(this.table("maxp") + 4)
    this.cmapLookup = this.parseCmap()
  }

  /** Parses a TrueType font file; throws an Error describing what is wrong with a malformed file. */
  static parse(data: Buffer): TrueTypeFont {
    return new TrueTypeFont(data)
  }

  /** The glyph index of a Unicode code point, or 0 (the `.notdef` glyph) when the font lacks it. */
  glyphIndex(codePoint: number): number {
    let index = this.glyphIndexCache.get(codePoint)
    if (index === undefined) {
      index = this.cmapLookup(codePoint)
      if (index >= this.glyphCount) index = 0
      this.glyphIndexCache.set(codePoint, index)
    }
    return index
  }

  /** The advance width of a glyph in font units. */
  advanceWidth(glyphIndex: number): number {
    const hmtx = this.table("hmtx")
    const metric = Math.min(glyphIndex, this.metricCount - 1)
    return this.data.readUInt16BE(hmtx + metric * 4)
  }

  /** The outline of a glyph as closed quadratic contours in font units (empty for blank glyphs). */
  outline(glyphIndex: number): Contour[] {
    return this.readGlyph(glyphIndex, 0)
  }

  private table(tag: string): number {
    return this.tables.get(tag)!.offset
  }

  private readGlyph(glyphIndex: number, depth: number): Contour[] {
    if (glyphIndex < 0 || glyphIndex >= this.glyphCount) return []
    const loca = this.table("loca")
    const start = this.longLocaOffsets
      ? this.data.readUInt32BE(loca + glyphIndex * 4)
      : this.data.readUInt16BE(loca + glyphIndex * 2) * 2
    const end = this.longLocaOffsets
      ? this.data.readUInt32BE(loca + glyphIndex * 4 + 4)
      : this.data.readUInt16BE(loca + glyphIndex * 2 + 2) * 2
    if (end <= start) return []
    const offset = this.table("glyf") + start
    const contourCount = this.data.readInt16BE(offset)
    if (contourCount >= 0) return this.readSimpleGlyph(offset, contourCount)
    if (depth >= MAX_COMPOSITE_DEPTH) throw new Error(`composite glyph ${glyphIndex} nests too deeply`)
    return this.readCompositeGlyph(offset, depth)
  }

  private readSimpleGlyph(offset: number, contourCount: number): Contour[] {
    const data = this.data
    let p = offset + 10
    const endPoints: number[] = []
    for (let i = 0; i < contourCount; i++, p += 2) endPoints.push(data.readUInt16BE(p))
    const pointCount = contourCount === 0 ? 0 : endPoints[contourCount - 1] + 1
    p += 2 + data.readUInt16BE(p)
    const flags = new Uint8Array(pointCount)
    for (let i = 0; i < pointCount; ) {
      const flag = data[p++]
      flags[i++] = flag
      if (flag & 8) {
        let repeat = data[p++]
        while (repeat-- > 0 && i < pointCount) flags[i++] = flag
      }
    }
    const xs = new Int32Array(pointCount)
    const ys = new Int32Array(pointCount)
    let value = 0
    for (let i = 0; i < pointCount; i++) {
      const flag = flags[i]
      if (flag & 2) {
        const delta = data[p++]
        value += flag & 16 ? delta : -delta
      } else if (!(flag & 16)) {
        value += data.readInt16BE(p)
        p += 2
      }
      xs[i] = value
    }
    value = 0
    for (let i = 0; i < pointCount; i++) {
      const flag = flags[i]
      if (flag & 4) {
        const delta = data[p++]
        value += flag & 32 ? delta : -delta
      } else if (!(flag & 32)) {
        value += data.readInt16BE(p)
        p += 2
      }
      ys[i] = value
    }
    const contours: Contour[] = []
    let first = 0
    for (const last of endPoints) {
      const contour: OutlinePoint[] = []
      for (let i = first; i <= last; i++) contour.push({ x: xs[i], y: ys[i], onCurve: (flags[i] & 1) !== 0 })
      if (contour.length > 0) contours.push(contour)
      first = last + 1
    }
    return contours
  }

  private readCompositeGlyph(offset: number, depth: number): Contour[] {
    const data = this.data
    let p = offset + 10
    const contours: Contour[] = []
    for (;;) {
      const flags = data.readUInt16BE(p)
      const component = data.readUInt16BE(p + 2)
      p += 4
      let dx = 0
      let dy = 0
      if (flags & ARG_1_AND_2_ARE_WORDS) {
        dx = data.readInt16BE(p)
        dy = data.readInt16BE(p + 2)
        p += 4
      } else {
        dx = data.readInt8(p)
        dy = data.readInt8(p + 1)
        p += 2
      }
      // Point-matched placement (ARGS_ARE_XY_VALUES unset) is rare in text fonts; the component stays unshifted.
      if (!(flags & ARGS_ARE_XY_VALUES)) dx = dy = 0
      let a = 1
      let b = 0
      let c = 0
      let d = 1
      if (flags & WE_HAVE_A_SCALE) {
        a = d = data.readInt16BE(p) / 16384
        p += 2
      } else if (flags & WE_HAVE_AN_X_AND_Y_SCALE) {
        a = data.readInt16BE(p) / 16384
        d = data.readInt16BE(p + 2) / 16384
        p += 4
      } else if (flags & WE_HAVE_A_TWO_BY_TWO) {
        a = data.readInt16BE(p) / 16384
        b = data.readInt16BE(p + 2) / 16384
        c = data.readInt16BE(p + 4) / 16384
        d = data.readInt16BE(p + 6) / 16384
        p += 8
      }
      for (const contour of this.readGlyph(component, depth + 1)) {
        contours.push(
          contour.map((point) => ({
            x: a * point.x + c * point.y + dx,
            y: b * point.x + d * point.y + dy,
            onCurve: point.onCurve,
          })),
        )
      }
      if (!(flags & MORE_COMPONENTS)) return contours
    }
  }

  private parseCmap(): (codePoint: number) => number {
    const data = this.data
    const cmap = this.table("cmap")
    const count = data.readUInt16BE(cmap + 2)
    let format4: number | undefined
    let format12: number | undefined
    for (let i = 0; i < count; i++) {
      const record = cmap + 4 + i * 8
      const platform = data.readUInt16BE(record)
      const encoding = data.readUInt16BE(record + 2)
      const subtable = cmap + data.readUInt32BE(record + 4)
      const format = data.readUInt16BE(subtable)
      const unicode = platform === 0 || (platform === 3 && (encoding === 1 || encoding === 10))
      if (!unicode) continue
      if (format === 12 && format12 === undefined) format12 = subtable
      if (format === 4 && format4 === undefined) format4 = subtable
    }
    if (format12 !== undefined) return this.format12Lookup(format12)
    if (format4 !== undefined) return this.format4Lookup(format4)
    throw new Error("font has no Unicode character map (cmap format 4 or 12)")
  }

  private format4Lookup(subtable: number): (codePoint: number) => number {
    const data = this.data
    const segCount = data.readUInt16BE(subtable + 6) / 2
    const endCodes = subtable + 14
    const startCodes = endCodes + segCount * 2 + 2
    const idDeltas = startCodes + segCount * 2
    const idRangeOffsets = idDeltas + segCount * 2
    return (codePoint) => {
      if (codePoint > 0xffff) return 0
      let low = 0
      let high = segCount - 1
      while (low <= high) {
        const mid = (low + high) >> 1
        const endCode = data.readUInt16BE(endCodes + mid * 2)
        if (endCode < codePoint) {
          low = mid + 1
          continue
        }
        const startCode = data.readUInt16BE(startCodes + mid * 2)
        if (startCode > codePoint) {
          high = mid - 1
          continue
        }
        const delta = data.readUInt16BE(idDeltas + mid * 2)
        const rangeOffsetAt = idRangeOffsets + mid * 2
        const rangeOffset = data.readUInt16BE(rangeOffsetAt)
        if (rangeOffset === 0) return (codePoint + delta) & 0xffff
        const glyph = data.readUInt16BE(rangeOffsetAt + rangeOffset + (codePoint - startCode) * 2)
        return glyph === 0 ? 0 : (glyph + delta) & 0xffff
      }
      return 0
    }
  }

  private format12Lookup(subtable: number): (codePoint: number) => number {
    const data = this.data
    const groupCount = data.readUInt32BE(subtable + 12)
    const groups = subtable + 16
    return (codePoint) => {
      let low = 0
      let high = groupCount - 1
      while (low <= high) {
        const mid = (low + high) >> 1
        const group = groups + mid * 12
        const startCode = data.readUInt32BE(group)
        const endCode = data.readUInt32BE(group + 4)
        if (codePoint < startCode) high = mid - 1
        else if (codePoint > endCode) low = mid + 1
        else return data.readUInt32BE(group + 8) + (codePoint - startCode)
      }
      return 0
    }
  }
}
