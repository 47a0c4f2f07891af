/**
 * A minimal streaming Matroska writer for uncompressed video: the container that carries each frame's own
 * timestamp and duration to ffmpeg, so that identical consecutive frames travel once as one longer frame.
 *
 * Layout: EBML header, a Segment of unknown size (streamable), Info (microsecond timestamps), one video track
 * (`V_UNCOMPRESSED` with a color space fourcc: `I420` for planar YUV 4:2:0, `RGB` + 24 bits for packed RGB), then
 * one Cluster per frame holding a BlockGroup with the frame and its BlockDuration.
 */
import type { PixelFormat } from "../render/IncrementalRenderer.js"

/** Matroska timestamps are in TimestampScale nanoseconds; 1000 makes them microseconds. */
const TIMESTAMP_SCALE_NS = 1000

/** Element IDs (their leading length bits included, as written). */
const EBML = 0x1a45dfa3
const EBML_VERSION = 0x4286
const EBML_READ_VERSION = 0x42f7
const EBML_MAX_ID_LENGTH = 0x42f2
const EBML_MAX_SIZE_LENGTH = 0x42f3
const DOC_TYPE = 0x4282
const DOC_TYPE_VERSION = 0x4287
const DOC_TYPE_READ_VERSION = 0x4285
const SEGMENT = 0x18538067
const INFO = 0x1549a966
const TIMESTAMP_SCALE = 0x2ad7b1
const MUXING_APP = 0x4d80
const WRITING_APP = 0x5741
const DURATION = 0x4489
const TRACKS = 0x1654ae6b
const TRACK_ENTRY = 0xae
const TRACK_NUMBER = 0xd7
const TRACK_UID = 0x73c5
const TRACK_TYPE = 0x83
const FLAG_LACING = 0x9c
const DEFAULT_DURATION = 0x23e383
const CODEC_ID = 0x86
const VIDEO = 0xe0
const PIXEL_WIDTH = 0xb0
const PIXEL_HEIGHT = 0xba
const COLOUR_SPACE = 0x2eb524
const CLUSTER = 0x1f43b675
const TIMESTAMP = 0xe7
const BLOCK_GROUP = 0xa0
const BLOCK = 0xa1
const BLOCK_DURATION = 0x9b

const TRACK_TYPE_VIDEO = 1
/** "Unknown size" for the streamed Segment: an 8-byte size field with all value bits set. */
const UNKNOWN_SIZE = Buffer.from([0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff])

function id(value: number): Buffer {
  const bytes: number[] = []
  for (let v = value; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff)
  return Buffer.from(bytes)
}

/** An element size as an 8-byte variable-length integer (simple, and wide enough for any frame). */
function size(value: number): Buffer {
  const out = Buffer.alloc(8)
  out.writeBigUInt64BE(BigInt(value))
  out[0] = 0x01
  return out
}

function element(elementId: number, payload: Buffer): Buffer {
  return Buffer.concat([id(elementId), size(payload.length), payload])
}

function uint(elementId: number, value: number): Buffer {
  const payload = Buffer.alloc(8)
  payload.writeBigUInt64BE(BigInt(value))
  return element(elementId, payload)
}

function float(elementId: number, value: number): Buffer {
  const payload = Buffer.alloc(8)
  payload.writeDoubleBE(value)
  return element(elementId, payload)
}

function text(elementId: number, value: string): Buffer {
  return element(elementId, Buffer.from(value, "utf8"))
}

const FOURCC: Record<PixelFormat, Buffer> = {
  rgb24: Buffer.from([0x52, 0x47, 0x42, 24]),
  yuv420p: Buffer.from("I420", "latin1"),
}

/**
 * The stream start: EBML header, Segment start, Info and the raw video track of `width × height`. The track's
 * default frame duration (`frameUs`) tells ffmpeg the nominal frame rate, which ffmpeg releases that drop block
 * durations use as the duration of the final frame.
 */
export function matroskaHeader(
  width: number,
  height: number,
  format: PixelFormat,
  frameUs: number,
  durationUs: number,
): Buffer {
  const header = element(
    EBML,
    Buffer.concat([
      uint(EBML_VERSION, 1),
      uint(EBML_READ_VERSION, 1),
      uint(EBML_MAX_ID_LENGTH, 4),
      uint(EBML_MAX_SIZE_LENGTH, 8),
      text(DOC_TYPE, "matroska"),
      uint(DOC_TYPE_VERSION, 4),
      uint(DOC_TYPE_READ_VERSION, 2),
    ]),
  )
  const info = element(
    INFO,
    Buffer.concat([
      uint(TIMESTAMP_SCALE, TIMESTAMP_SCALE_NS),
      text(MUXING_APP, "@codemode/recorder"),
      text(WRITING_APP, "@codemode/recorder"),
      float(DURATION, durationUs),
    ]),
  )
  const track = element(
    TRACK_ENTRY,
    Buffer.concat([
      uint(TRACK_NUMBER, 1),
      uint(TRACK_UID, 1),
      uint(TRACK_TYPE, TRACK_TYPE_VIDEO),
      uint(FLAG_LACING, 0),
      uint(DEFAULT_DURATION, Math.round(frameUs * 1000)),
      text(CODEC_ID, "V_UNCOMPRESSED"),
      element(
        VIDEO,
        Buffer.concat([uint(PIXEL_WIDTH, width), uint(PIXEL_HEIGHT, height), element(COLOUR_SPACE, FOURCC[format])]),
      ),
    ]),
  )
  return Buffer.concat([header, id(SEGMENT), UNKNOWN_SIZE, info, element(TRACKS, track)])
}

/**
 * One frame as a Cluster, split into the bytes before the pixels, the pixels themselves (passed through, not
 * copied) and the bytes after them.
 */
export function matroskaFrame(timestampUs: number, durationUs: number, pixels: Buffer): [Buffer, Buffer, Buffer] {
  // Block payload: track number 1 as a 1-byte vint, a 16-bit timestamp relative to the cluster, flags.
  const blockHead = Buffer.from([0x81, 0x00, 0x00, 0x00])
  const blockSize = blockHead.length + pixels.length
  const duration = uint(BLOCK_DURATION, durationUs)
  const blockElementSize = id(BLOCK).length + 8 + blockSize
  const groupSize = blockElementSize + duration.length
  const timestamp = uint(TIMESTAMP, timestampUs)
  const clusterSize = timestamp.length + id(BLOCK_GROUP).length + 8 + groupSize
  const before = Buffer.concat([
    id(CLUSTER),
    size(clusterSize),
    timestamp,
    id(BLOCK_GROUP),
    size(groupSize),
    id(BLOCK),
    size(blockSize),
    blockHead,
  ])
  return [before, pixels, duration]
}
