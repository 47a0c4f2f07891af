/** A small PNG decoder for 8-bit truecolor images (all five filter types), checking every chunk's CRC. */
import { inflateSync } from "node:zlib"

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

export interface DecodedPng {
  readonly width: number
  readonly height: number
  readonly data: Buffer
}

export function decodePng(file: Buffer): DecodedPng {
  if (!file.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    throw new Error("not a PNG signature")
  }
  let offset = 8
  let width = 0
  let height = 0
  const idat: Buffer[] = []
  let ended = false
  while (offset < file.length) {
    const length = file.readUInt32BE(offset)
    const type = file.toString("latin1", offset + 4, offset + 8)
    const body = file.subarray(offset + 8, offset + 8 + length)
    const crc = file.readUInt32BE(offset + 8 + length)
    if (crc32(file.subarray(offset + 4, offset + 8 + length)) !== crc) throw new Error(`bad CRC in ${type}`)
    if (type === "IHDR") {
      width = body.readUInt32BE(0)
      height = body.readUInt32BE(4)
      if (body[8] !== 8 || body[9] !== 2 || body[12] !== 0) throw new Error("only 8-bit RGB, non-interlaced")
    } else if (type === "IDAT") {
      idat.push(body)
    } else if (type === "IEND") {
      ended = true
    }
    offset += 12 + length
  }
  if (!ended) throw new Error("missing IEND")
  const raw = inflateSync(Buffer.concat(idat))
  const rowBytes = width * 3
  if (raw.length !== height * (rowBytes + 1))
    throw new Error(`inflated ${raw.length} bytes, expected ${height * (rowBytes + 1)}`)
  const data = Buffer.alloc(height * rowBytes)
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (rowBytes + 1)]
    for (let i = 0; i < rowBytes; i++) {
      const x = raw[y * (rowBytes + 1) + 1 + i]
      const a = i >= 3 ? data[y * rowBytes + i - 3] : 0
      const b = y > 0 ? data[(y - 1) * rowBytes + i] : 0
      const c = i >= 3 && y > 0 ? data[(y - 1) * rowBytes + i - 3] : 0
      let predictor: number
      if (filter === 0) predictor = 0
      else if (filter === 1) predictor = a
      else if (filter === 2) predictor = b
      else if (filter === 3) predictor = (a + b) >> 1
      else if (filter === 4) {
        const p = a + b - c
        const pa = Math.abs(p - a)
        const pb = Math.abs(p - b)
        const pc = Math.abs(p - c)
        predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
      } else throw new Error(`unknown filter ${filter}`)
      data[y * rowBytes + i] = (x + predictor) & 0xff
    }
  }
  return { width, height, data }
}
