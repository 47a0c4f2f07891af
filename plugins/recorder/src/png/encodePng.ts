/**
 * PNG encoding of 24-bit RGB images (color type 2, bit depth 8) with node:zlib. Every row but the first uses the
 * "Up" filter, which turns the many repeated pixel rows of a terminal screen into runs of zeros, and deflate runs
 * with its run-length strategy: about twice as fast as the default strategy on terminal screens, for files a few
 * percent larger.
 */
import { constants, deflateSync } from "node:zlib"
import type { RgbImage } from "../render/FrameRenderer.js"

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
const FILTER_NONE = 0
const FILTER_UP = 2

/** The CRC-32 table of PNG chunk checksums (polynomial 0xEDB88320). */
const CRC_TABLE = (() => {
  const table = new Int32Array(256)
  for (let n = 0; n < 256; n++) {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    table[n] = c
  }
  return table
})()

function crc32(bytes: Uint8Array): number {
  let c = -1
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8)
  return (c ^ -1) >>> 0
}

/** Encodes an RGB image as a PNG file. */
export function encodePng(image: RgbImage): Buffer {
  const { width, height, data } = image
  if (data.length !== width * height * 3) {
    throw new Error(`image data has ${data.length} bytes, expected ${width * height * 3} for ${width}×${height} RGB`)
  }
  const rowBytes = width * 3
  const filtered = Buffer.alloc(height * (rowBytes + 1))
  filtered[0] = FILTER_NONE
  data.copy(filtered, 1, 0, rowBytes)
  const wordsPerRow = rowBytes / 4
  const aligned = Number.isInteger(wordsPerRow) && data.byteOffset % 4 === 0
  const words = aligned ? new Uint32Array(data.buffer, data.byteOffset, data.length / 4) : undefined
  const difference = aligned ? new Uint32Array(wordsPerRow) : undefined
  for (let y = 1; y < height; y++) {
    const out = y * (rowBytes + 1)
    filtered[out] = FILTER_UP
    if (words !== undefined && difference !== undefined) {
      // Four byte-wise subtractions (mod 256) per 32-bit word, without borrows crossing byte boundaries.
      const row = y * wordsPerRow
      for (let i = 0; i < wordsPerRow; i++) {
        const current = words[row + i]
        const above = words[row - wordsPerRow + i]
        difference[i] = ((current | 0x80808080) - (above & 0x7f7f7f7f)) ^ ((current ^ ~above) & 0x80808080)
      }
      filtered.set(new Uint8Array(difference.buffer), out + 1)
    } else {
      const row = y * rowBytes
      for (let i = 0; i < rowBytes; i++) filtered[out + 1 + i] = data[row + i] - data[row - rowBytes + i]
    }
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header[8] = 8 // bit depth
  header[9] = 2 // color type: truecolor
  header[10] = 0 // compression: deflate
  header[11] = 0 // filter method: adaptive
  header[12] = 0 // interlace: none
  return Buffer.concat([
    SIGNATURE,
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(filtered, { strategy: constants.Z_RLE })),
    chunk("IEND", Buffer.alloc(0)),
  ])
}

function chunk(type: string, payload: Buffer): Buffer {
  const out = Buffer.alloc(12 + payload.length)
  out.writeUInt32BE(payload.length, 0)
  out.write(type, 4, "latin1")
  payload.copy(out, 8)
  out.writeUInt32BE(crc32(out.subarray(4, 8 + payload.length)), 8 + payload.length)
  return out
}
