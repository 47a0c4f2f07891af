/**
 * Video export: replay a timeline through a headless terminal at a fixed frame rate (the frame at time t shows all
 * output up to t), render each frame, collapse identical consecutive frames into one longer frame, and encode with
 * ffmpeg to MP4, GIF or WebM by the file extension.
 */
import type { Recorder } from "@codemode/core"
import { mkdir, rm } from "node:fs/promises"
import { dirname, resolve } from "node:path"
import { validateTimeline } from "../cast/asciicast.js"
import { imageSizeOf } from "../render/FrameRenderer.js"
import { IncrementalRenderer } from "../render/IncrementalRenderer.js"
import { defaultRenderer } from "../screenshot.js"
import { TimelineReplay } from "../terminal/TimelineReplay.js"
import { FfmpegEncoder } from "./FfmpegEncoder.js"
import { probeFfmpeg, resolveFfmpeg, type FfmpegLookup } from "./ffmpeg.js"
import { ENCODER_OF, outputArguments, PIXEL_FORMAT_OF, videoFormatOf } from "./videoFormats.js"

/** The default frame rate of exported videos. */
export const DEFAULT_FPS = 30
const MAX_FPS = 120

/** Options of {@link exportVideoFile}: the core export options, where to find ffmpeg, and cancellation. */
export interface VideoExportOptions extends Recorder.ExportOptions, FfmpegLookup {
  /** Aborting stops ffmpeg and removes the incomplete file. */
  readonly signal?: AbortSignal
}

/** The number of frames a timeline exports to: one per frame period, up to the first frame at or after its end. */
export function frameCountOf(durationMs: number, fps: number): number {
  return Math.ceil((durationMs * fps) / 1000 - 1e-9) + 1
}

/** Exports `timeline` as a video at `file` (format by extension). Rejects with an Error saying what went wrong. */
export async function exportVideoFile(
  timeline: Recorder.Timeline,
  file: string,
  options: VideoExportOptions = {},
): Promise<void> {
  validateTimeline(timeline)
  const fps = options.fps ?? DEFAULT_FPS
  if (!Number.isFinite(fps) || fps <= 0 || fps > MAX_FPS) {
    throw new Error(`fps must be a number above 0 and at most ${MAX_FPS}, got ${fps}`)
  }
  const output = resolve(file)
  const format = videoFormatOf(output)
  const ffmpeg = await probeFfmpeg(resolveFfmpeg(options).path)
  const encoderName = ENCODER_OF[format]
  if (!ffmpeg.encoders.has(encoderName)) {
    throw new Error(
      `the ffmpeg at ${ffmpeg.path} (version ${ffmpeg.version}) lacks the ${encoderName} encoder needed for .${format}; ` +
        `install a full ffmpeg build or set FFMPEG_PATH to one`,
    )
  }
  options.signal?.throwIfAborted()
  await mkdir(dirname(output), { recursive: true })

  const replay = new TimelineReplay(timeline)
  const framesTotal = frameCountOf(replay.duration, fps)
  const frameUs = (index: number) => Math.round((index * 1e6) / fps)
  const { cols, rows } = replay.maxSize
  const { width, height } = imageSizeOf(cols, rows)
  const renderer = new IncrementalRenderer(defaultRenderer(), width, height, PIXEL_FORMAT_OF[format])
  const encoder = new FfmpegEncoder(
    ffmpeg.path,
    outputArguments(format, ffmpeg, 1 / fps),
    output,
    width,
    height,
    renderer.format,
    renderer.frameBytes,
    1e6 / fps,
    frameUs(framesTotal),
  )
  const abort = () => encoder.kill()
  options.signal?.addEventListener("abort", abort)
  const report = (framesDone: number) => options.onProgress?.({ file: output, framesDone, framesTotal })
  const progressStep = Math.max(1, Math.floor(framesTotal / 100))
  try {
    // The last distinct frame, not yet sent: it grows while the following frames are identical.
    let pending: Buffer | undefined
    let pendingStart = 0
    let scratch = renderer.createFrame()
    for (let index = 0; index < framesTotal; index++) {
      options.signal?.throwIfAborted()
      const changed = await replay.advanceTo((index * 1000) / fps)
      // The last frame always travels alone, so that every format knows the final frame's exact duration.
      const last = index === framesTotal - 1
      if (pending === undefined || changed || last) {
        renderer.render(replay.frame(), scratch, pending)
        if (pending === undefined || last || !scratch.equals(pending)) {
          if (pending !== undefined)
            await encoder.writeFrame(pending, frameUs(pendingStart), frameUs(index) - frameUs(pendingStart))
          pending = scratch
          pendingStart = index
          // The encoder owns the sent pixels until written; render the next frame into a fresh buffer.
          scratch = renderer.createFrame()
        }
      }
      if (index % progressStep === 0) report(index)
    }
    await encoder.writeFrame(pending!, frameUs(pendingStart), frameUs(framesTotal) - frameUs(pendingStart))
    await encoder.finish()
    report(framesTotal)
  } catch (error) {
    await encoder.stop()
    await rm(output, { force: true })
    options.signal?.throwIfAborted()
    throw error
  } finally {
    options.signal?.removeEventListener("abort", abort)
    replay.dispose()
  }
}
