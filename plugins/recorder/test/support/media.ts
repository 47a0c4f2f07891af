/** ffmpeg and ffprobe for tests that check real video files. */
import { execFileSync } from "node:child_process"
import { resolveFfmpeg } from "../../src/video/ffmpeg.js"

/** The ffmpeg the recorder resolves; fails the test with the recorder's own message when there is none. */
export function ffmpegPath(): string {
  return resolveFfmpeg().path
}

/** ffprobe from PATH. */
export function ffprobe(file: string, entries: string): Record<string, string> {
  const out = execFileSync(
    "ffprobe",
    ["-v", "error", "-show_entries", entries, "-of", "default=noprint_wrappers=1", file],
    {
      encoding: "utf8",
    },
  )
  const fields: Record<string, string> = {}
  for (const line of out.split("\n")) {
    const at = line.indexOf("=")
    if (at > 0 && !(line.slice(0, at) in fields)) fields[line.slice(0, at)] = line.slice(at + 1)
  }
  return fields
}

/**
 * The decoded RGB pixels of the video frame on screen at `seconds` (to 1/100 s). Seeking with `-ss` would skip a
 * long frame that started before that time, so the video is resampled to 100 fps and the frame picked by number.
 */
export function frameAt(file: string, seconds: number, width: number, height: number): Buffer {
  const filter = `fps=100,trim=start_frame=${Math.round(seconds * 100)}`
  const out = execFileSync(
    ffmpegPath(),
    ["-v", "error", "-i", file, "-vf", filter, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1"],
    { maxBuffer: 64 * 1024 * 1024 },
  )
  if (out.length !== width * height * 3)
    throw new Error(`decoded ${out.length} bytes, expected a ${width}×${height} frame`)
  return out
}
