/**
 * Frames: how messages travel between the host and a sandbox process.
 *
 * A frame is a 4-byte little-endian length followed by that many bytes of UTF-8 JSON. Only data crosses, so JSON is
 * lossless here (lone surrogates are escaped by `JSON.stringify` and restored by `JSON.parse`). Both readers refuse a
 * frame longer than {@link MAX_FRAME_BYTES}: no side of the boundary buffers without bound.
 */
import { readSync, writeSync } from "node:fs"

/** The longest frame either side accepts: the largest data copy (16 MiB of JSON text) with room for escaping. */
export const MAX_FRAME_BYTES = 192 * 1024 * 1024

/** A frame longer than {@link MAX_FRAME_BYTES}, or one that is not JSON. */
export class FrameError extends Error {
  override readonly name = "FrameError"
}

/** Encode one message as a frame. */
export const encodeFrame = (message: unknown): Buffer => frameOf(JSON.stringify(message))

const frameOf = (json: string): Buffer => {
  const length = Buffer.byteLength(json)
  if (length > MAX_FRAME_BYTES) throw new FrameError(`a message of ${length} bytes exceeds the frame limit`)
  const frame = Buffer.allocUnsafe(4 + length)
  frame.writeUInt32LE(length, 0)
  frame.write(json, 4, "utf8")
  return frame
}

const decode = (bytes: Buffer): unknown => {
  try {
    return JSON.parse(bytes.toString("utf8"))
  } catch (error) {
    throw new FrameError(`a frame is not JSON: ${(error as Error).message}`)
  }
}

/** Decodes frames from stream chunks (the host side reads a socket). */
export class FrameReader {
  private chunks: Buffer[] = []
  private buffered = 0

  /**
   * Add a chunk; returns the messages it completes, in order, each with the size of its frame in bytes. Throws
   * {@link FrameError} on a bad frame.
   */
  push(chunk: Buffer): Array<{ readonly message: unknown; readonly bytes: number }> {
    this.chunks.push(chunk)
    this.buffered += chunk.length
    const out: Array<{ readonly message: unknown; readonly bytes: number }> = []
    for (;;) {
      if (this.buffered < 4) return out
      const head = this.peek(4)
      const length = head.readUInt32LE(0)
      if (length > MAX_FRAME_BYTES) throw new FrameError(`a frame of ${length} bytes exceeds the frame limit`)
      if (this.buffered < 4 + length) return out
      const frame = this.take(4 + length)
      out.push({ message: decode(frame.subarray(4)), bytes: frame.length })
    }
  }

  private peek(n: number): Buffer {
    if (this.chunks[0].length >= n) return this.chunks[0]
    const joined = Buffer.concat(this.chunks)
    this.chunks = [joined]
    return joined
  }

  private take(n: number): Buffer {
    let first = this.chunks[0]
    if (first.length < n) {
      first = Buffer.concat(this.chunks)
      this.chunks = [first]
    }
    const frame = first.subarray(0, n)
    if (first.length === n) this.chunks.shift()
    else this.chunks[0] = first.subarray(n)
    this.buffered -= n
    return frame
  }
}

/** Reads frames from a file descriptor with blocking reads (the sandbox side, which has no event loop to spare). */
export class BlockingFrameReader {
  private buffer = Buffer.allocUnsafe(64 * 1024)
  private start = 0
  private end = 0

  constructor(private readonly fd: number) {}

  /** Block until the next message arrives. Throws {@link FrameError} on a bad frame or when the host is gone. */
  next(): unknown {
    this.fill(4)
    const length = this.buffer.readUInt32LE(this.start)
    if (length > MAX_FRAME_BYTES) throw new FrameError(`a frame of ${length} bytes exceeds the frame limit`)
    this.fill(4 + length)
    const body = this.buffer.subarray(this.start + 4, this.start + 4 + length)
    this.start += 4 + length
    return decode(body)
  }

  /** Make sure `n` bytes are buffered, reading as much as is available each time. */
  private fill(n: number): void {
    if (this.end - this.start >= n) return
    if (this.start === this.end && this.buffer.length > 1024 * 1024 && n <= 64 * 1024) {
      // A large frame has been consumed: give its buffer back.
      this.buffer = Buffer.allocUnsafe(64 * 1024)
      this.start = this.end = 0
    }
    if (this.buffer.length - this.start < n) {
      const target = n <= this.buffer.length ? this.buffer : Buffer.allocUnsafe(n)
      this.buffer.copy(target, 0, this.start, this.end)
      this.end -= this.start
      this.start = 0
      this.buffer = target
    }
    while (this.end - this.start < n) {
      let read: number
      try {
        read = readSync(this.fd, this.buffer, this.end, this.buffer.length - this.end, null)
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "EAGAIN") continue
        throw error
      }
      if (read === 0) throw new FrameError("the host closed the channel")
      this.end += read
    }
  }
}

/** Where {@link writeFrame} encodes messages that fit, so that the common small frame allocates nothing. */
const scratch = Buffer.allocUnsafe(64 * 1024)

/** Write one frame to a file descriptor, blocking until all of it is written. */
export const writeFrame = (fd: number, message: unknown): void => {
  const json = JSON.stringify(message)
  let frame: Buffer
  // At most 3 bytes of UTF-8 per UTF-16 code unit: a message this short always fits.
  if (json.length * 3 <= scratch.length - 4) {
    const length = scratch.write(json, 4, "utf8")
    scratch.writeUInt32LE(length, 0)
    frame = scratch.subarray(0, 4 + length)
  } else frame = frameOf(json)
  let offset = 0
  while (offset < frame.length) {
    try {
      offset += writeSync(fd, frame, offset, frame.length - offset)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EAGAIN") continue
      throw error
    }
  }
}
