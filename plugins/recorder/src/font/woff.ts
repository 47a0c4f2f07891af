/**
 * WOFF 1.0 → sfnt: a WOFF file is a TrueType font whose tables are each zlib-compressed (or stored) behind a
 * small directory. Unpacking rebuilds the sfnt byte layout `TrueTypeFont` reads. (WOFF2's transformed tables are
 * not supported; the font packages ship WOFF 1.0 files too.)
 */
import { inflateSync } from "node:zlib"

const WOFF_SIGNATURE = 0x774f4646 // "wOFF"

/** Whether `data` is a WOFF 1.0 file. */
export const isWoff = (data: Buffer): boolean => data.length >= 44 && data.readUInt32BE(0) === WOFF_SIGNATURE

/** The sfnt (TrueType) bytes of a WOFF 1.0 file; throws an Error describing a malformed file. */
export const unpackWoff = (data: Buffer): Buffer => {
  if (!isWoff(data)) throw new Error("not a WOFF 1.0 file")
  const flavor = data.readUInt32BE(4)
  const numTables = data.readUInt16BE(12)
  if (44 + numTables * 20 > data.length) throw new Error("WOFF table directory lies outside the file")
  const tables: Array<{ tag: number; checksum: number; bytes: Buffer }> = []
  for (let i = 0; i < numTables; i++) {
    const entry = 44 + i * 20
    const tag = data.readUInt32BE(entry)
    const offset = data.readUInt32BE(entry + 4)
    const compLength = data.readUInt32BE(entry + 8)
    const origLength = data.readUInt32BE(entry + 12)
    const checksum = data.readUInt32BE(entry + 16)
    if (offset + compLength > data.length) throw new Error("a WOFF table lies outside the file")
    const stored = data.subarray(offset, offset + compLength)
    const bytes = compLength < origLength ? inflateSync(stored) : Buffer.from(stored)
    if (bytes.length !== origLength) throw new Error("a WOFF table does not inflate to its recorded length")
    tables.push({ tag, checksum, bytes })
  }
  const headerLength = 12 + numTables * 16
  const padded = (length: number) => (length + 3) & ~3
  const total = tables.reduce((sum, table) => sum + padded(table.bytes.length), headerLength)
  const out = Buffer.alloc(total)
  out.writeUInt32BE(flavor, 0)
  out.writeUInt16BE(numTables, 4)
  let power = 1
  let log = 0
  while (power * 2 <= numTables) {
    power *= 2
    log++
  }
  out.writeUInt16BE(power * 16, 6)
  out.writeUInt16BE(log, 8)
  out.writeUInt16BE(numTables * 16 - power * 16, 10)
  let offset = headerLength
  tables.forEach((table, i) => {
    const record = 12 + i * 16
    out.writeUInt32BE(table.tag, record)
    out.writeUInt32BE(table.checksum, record + 4)
    out.writeUInt32BE(offset, record + 8)
    out.writeUInt32BE(table.bytes.length, record + 12)
    table.bytes.copy(out, offset)
    offset += padded(table.bytes.length)
  })
  return out
}
