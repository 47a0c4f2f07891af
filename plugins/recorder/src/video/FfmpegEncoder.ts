/**
 * A running ffmpeg that reads timestamped RGB frames (as a Matroska stream on stdin) and writes one video file.
 */
import { spawn, type ChildProcess } from "node:child_process"
import type { PixelFormat } from "../render/IncrementalRenderer.js"
import { matroskaFrame, matroskaHeader } from "./matroska.js"

/** How many frames may wait in the pipe before the producer pauses (bounded memory, some overlap with ffmpeg). */
const QUEUED_FRAMES = 3
/** How much of ffmpeg's error output is kept for error messages. */
const STDERR_LIMIT = 8192

/** Feeds frames of one size to an ffmpeg process writing `file`. */
export class FfmpegEncoder {
  private readonly child: ChildProcess
  private readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  private stderr = ""
  private pipeError: Error | undefined
  private readonly frameBytes: number

  constructor(
    ffmpegPath: string,
    outputArguments: ReadonlyArray<string>,
    private readonly file: string,
    width: number,
    height: number,
    format: PixelFormat,
    frameBytes: number,
    frameUs: number,
    durationUs: number,
  ) {
    this.frameBytes = frameBytes
    this.child = spawn(
      ffmpegPath,
      [
        "-hide_banner",
        "-loglevel",
        "error",
        "-nostdin",
        "-y",
        "-f",
        "matroska",
        "-i",
        "pipe:0",
        ...outputArguments,
        file,
      ],
      { stdio: ["pipe", "ignore", "pipe"] },
    )
    this.child.stderr!.setEncoding("utf8")
    this.child.stderr!.on("data", (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-STDERR_LIMIT)
    })
    // ffmpeg closing its input early (it failed) surfaces as EPIPE here; the exit status explains why.
    this.child.stdin!.on("error", (error) => {
      this.pipeError ??= error
    })
    this.exited = new Promise((resolve, reject) => {
      this.child.once("error", reject)
      this.child.once("close", (code, signal) => resolve({ code, signal }))
    })
    // Observed by finish() or writeFrame(); this keeps a spawn failure from also being an unhandled rejection.
    this.exited.catch(() => undefined)
    this.child.stdin!.write(matroskaHeader(width, height, format, frameUs, durationUs))
  }

  /**
   * Queues one frame shown from `timestampUs` for `durationUs`. The encoder keeps `pixels` until written: the caller
   * must not modify the buffer afterwards.
   */
  async writeFrame(pixels: Buffer, timestampUs: number, durationUs: number): Promise<void> {
    if (pixels.length !== this.frameBytes) {
      throw new Error(`a frame has ${pixels.length} bytes, the video needs ${this.frameBytes}`)
    }
    if (this.pipeError !== undefined) await this.failure()
    const stdin = this.child.stdin!
    for (const part of matroskaFrame(timestampUs, durationUs, pixels)) stdin.write(part)
    if (stdin.writableLength > QUEUED_FRAMES * this.frameBytes) {
      await new Promise<void>((resolve) => {
        const done = () => {
          stdin.off("drain", done)
          this.child.off("close", done)
          resolve()
        }
        stdin.on("drain", done)
        this.child.once("close", done)
      })
      if (this.pipeError !== undefined) await this.failure()
    }
  }

  /** Ends the input and waits for ffmpeg; rejects with ffmpeg's own error text if it failed. */
  async finish(): Promise<void> {
    this.child.stdin!.end()
    const { code, signal } = await this.exited
    if (code !== 0) throw this.error(code, signal)
  }

  /** Stops ffmpeg at once (the output file is left incomplete). */
  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill("SIGKILL")
  }

  /** Stops ffmpeg and waits until it has exited. */
  async stop(): Promise<void> {
    this.kill()
    await this.exited.then(
      () => undefined,
      () => undefined,
    )
  }

  private async failure(): Promise<never> {
    const { code, signal } = await this.exited
    throw this.error(code, signal)
  }

  private error(code: number | null, signal: NodeJS.Signals | null): Error {
    const status = signal !== null ? `was killed by ${signal}` : `exited with status ${code}`
    const detail = this.stderr.trim()
    return new Error(`ffmpeg ${status} while writing ${this.file}${detail === "" ? "" : `: ${detail}`}`)
  }
}
