/**
 * The video formats an export can write, chosen by the output file's extension, and the ffmpeg output arguments of
 * each: MP4 (H.264, yuv420p, faststart), GIF (a palette per frame) and WebM (VP9).
 */
import { extname } from "node:path"
import type { PixelFormat } from "../render/IncrementalRenderer.js"
import type { FfmpegCapabilities } from "./ffmpeg.js"

/** A supported output format. */
export type VideoFormat = "mp4" | "gif" | "webm"

const FORMATS: Record<string, VideoFormat> = { ".mp4": "mp4", ".gif": "gif", ".webm": "webm" }

/** The format of an output file by its extension; throws an Error naming the supported extensions otherwise. */
export function videoFormatOf(file: string): VideoFormat {
  const extension = extname(file).toLowerCase()
  const format = FORMATS[extension]
  if (format === undefined) {
    throw new Error(
      `cannot export a video to ${file}: the extension ${extension === "" ? "is missing" : `'${extension}' is not supported`}; use .mp4, .gif or .webm`,
    )
  }
  return format
}

/** The pixel format frames travel to ffmpeg in: what the encoder takes, so ffmpeg converts nothing. */
export const PIXEL_FORMAT_OF: Record<VideoFormat, PixelFormat> = { mp4: "yuv420p", gif: "rgb24", webm: "yuv420p" }

/** Color metadata of the BT.709 limited-range YUV that the renderer produces. */
const BT709 = ["-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv"]

/** The ffmpeg encoder each format needs. */
export const ENCODER_OF: Record<VideoFormat, string> = { mp4: "libx264", gif: "gif", webm: "libvpx-vp9" }

/**
 * ffmpeg output arguments (before the output file) for a format. Frames carry their own timestamps, so the output
 * runs in variable-frame-rate mode: a long still frame stays one frame. `lastFrameSeconds` is how long the final
 * frame shows, which GIF stores separately.
 */
export function outputArguments(format: VideoFormat, ffmpeg: FfmpegCapabilities, lastFrameSeconds: number): string[] {
  const variableFrameRate = ffmpeg.hasFpsMode ? ["-fps_mode", "vfr"] : ["-vsync", "vfr"]
  switch (format) {
    case "mp4":
      // ultrafast: about half the CPU of veryfast on terminal video at the same quality (crf), files ~1.6× larger.
      return [
        ...variableFrameRate,
        "-c:v",
        "libx264",
        "-preset",
        "ultrafast",
        "-crf",
        "23",
        "-pix_fmt",
        "yuv420p",
        ...BT709,
        "-movflags",
        "+faststart",
        "-f",
        "mp4",
      ]
    case "gif":
      return [
        ...variableFrameRate,
        // One palette per frame streams (no frame is held back for a global palette) and keeps text colors exact.
        "-filter_complex",
        "[0:v]split[frames][statistics];[statistics]palettegen=stats_mode=single[palette];[frames][palette]paletteuse=new=1:dither=none",
        "-loop",
        "0",
        "-final_delay",
        String(Math.max(1, Math.round(lastFrameSeconds * 100))),
        "-f",
        "gif",
      ]
    case "webm":
      return [
        ...variableFrameRate,
        "-c:v",
        "libvpx-vp9",
        "-deadline",
        "realtime",
        "-cpu-used",
        "8",
        "-row-mt",
        "1",
        "-crf",
        "32",
        "-b:v",
        "0",
        "-pix_fmt",
        "yuv420p",
        ...BT709,
        "-f",
        "webm",
      ]
  }
}
