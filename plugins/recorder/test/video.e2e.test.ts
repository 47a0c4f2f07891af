import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { exportVideoFile, frameCountOf } from "../src/video/exportVideo.js"
import { ffprobe, frameAt } from "./support/media.js"
import { blocksTimeline, rgbAt } from "./support/timelines.js"

const directory = mkdtempSync(join(tmpdir(), "recorder-video-"))
const FPS = 30
/** 1500 ms of events at 30 fps: frames 0..45. */
const FRAMES = 46
const DURATION = FRAMES / FPS

function expectClose(actual: [number, number, number], expected: [number, number, number], tolerance: number) {
  actual.forEach((value, i) =>
    expect(Math.abs(value - expected[i]), `channel ${i} of ${actual}`).toBeLessThanOrEqual(tolerance),
  )
}

/** The top-level MP4 boxes in file order. */
function mp4Boxes(file: string): string[] {
  const data = readFileSync(file)
  const boxes: string[] = []
  for (let offset = 0; offset + 8 <= data.length; ) {
    let size = data.readUInt32BE(offset)
    boxes.push(data.toString("latin1", offset + 4, offset + 8))
    if (size === 1) size = Number(data.readBigUInt64BE(offset + 8))
    if (size < 8) break
    offset += size
  }
  return boxes
}

describe("video export", () => {
  it("counts one frame per period up to the first frame at or after the end", () => {
    expect(frameCountOf(1500, 30)).toBe(46)
    expect(frameCountOf(1510, 30)).toBe(47)
    expect(frameCountOf(0, 30)).toBe(1)
    expect(frameCountOf(20_000, 30)).toBe(601)
  })

  it("exports MP4 (H.264, yuv420p, faststart) with exact duration and collapsed frames", async () => {
    const file = join(directory, "blocks.mp4")
    const progress: Array<{ framesDone: number; framesTotal: number; file: string }> = []
    await exportVideoFile(blocksTimeline(), file, { onProgress: (p) => progress.push(p) })
    const info = ffprobe(file, "stream=codec_name,pix_fmt,width,height,nb_frames,duration,color_space")
    expect(info.codec_name).toBe("h264")
    expect(info.pix_fmt).toBe("yuv420p")
    expect(info.color_space).toBe("bt709")
    expect([Number(info.width), Number(info.height)]).toEqual([400, 200])
    expect(Math.abs(Number(info.duration) - DURATION)).toBeLessThan(1 / FPS)
    // Four distinct screens: at 0, 500, 1000 and 1500 ms (the last frame always stands alone).
    expect(Number(info.nb_frames)).toBe(4)
    const boxes = mp4Boxes(file)
    expect(boxes.indexOf("moov")).toBeGreaterThan(-1)
    expect(boxes.indexOf("moov")).toBeLessThan(boxes.indexOf("mdat"))
    // The frame at time t shows the output up to t.
    const block = (seconds: number) => rgbAt(frameAt(file, seconds, 400, 200), 400, 100, 60)
    expectClose(block(0.4), [0, 0, 0], 8)
    expectClose(block(0.6), [255, 0, 0], 12)
    expectClose(block(1.2), [255, 0, 0], 12)
    expectClose(block(1.51), [0, 200, 0], 12)
    // Progress: monotonic, complete, about the absolute output file.
    expect(progress.length).toBeGreaterThan(2)
    expect(progress.every((p) => p.framesTotal === FRAMES && p.file === file)).toBe(true)
    expect(progress.map((p) => p.framesDone)).toEqual([...progress.map((p) => p.framesDone)].sort((a, b) => a - b))
    expect(progress.at(-1)!.framesDone).toBe(FRAMES)
  })

  it("exports GIF with per-frame palettes keeping the colors", async () => {
    const file = join(directory, "blocks.gif")
    await exportVideoFile(blocksTimeline(), file)
    const info = ffprobe(file, "stream=codec_name,width,height,nb_frames,duration")
    expect(info.codec_name).toBe("gif")
    expect([Number(info.width), Number(info.height)]).toEqual([400, 200])
    expect(Number(info.nb_frames)).toBe(4)
    // GIF delays are whole centiseconds.
    expect(Math.abs(Number(info.duration) - DURATION)).toBeLessThan(1 / FPS + 0.01)
    expect(rgbAt(frameAt(file, 0.6, 400, 200), 400, 100, 60)).toEqual([255, 0, 0])
  })

  it("exports WebM (VP9)", async () => {
    const file = join(directory, "blocks.webm")
    await exportVideoFile(blocksTimeline(), file, { fps: 15 })
    const info = ffprobe(file, "stream=codec_name,width,height,pix_fmt:format=duration")
    expect(info.codec_name).toBe("vp9")
    expect(info.pix_fmt).toBe("yuv420p")
    expect([Number(info.width), Number(info.height)]).toEqual([400, 200])
    expect(Math.abs(Number(info.duration) - frameCountOf(1500, 15) / 15)).toBeLessThan(1 / 15)
    // At 15 fps the event at 1500 ms first shows in the frame at 1533 ms.
    expectClose(rgbAt(frameAt(file, 1.52, 400, 200), 400, 100, 60), [255, 0, 0], 16)
    expectClose(rgbAt(frameAt(file, 1.55, 400, 200), 400, 100, 60), [0, 200, 0], 16)
  })

  it("sizes the video for the largest viewport of a resizing timeline", async () => {
    const file = join(directory, "resize.mp4")
    await exportVideoFile(
      {
        cols: 20,
        rows: 5,
        startedAt: 0,
        events: [
          { t: 0, type: "output", data: "small" },
          { t: 100, type: "resize", cols: 31, rows: 8 },
          { t: 200, type: "output", data: "\r\nlarger now" },
          { t: 300, type: "resize", cols: 10, rows: 3 },
        ],
      },
      file,
    )
    const info = ffprobe(file, "stream=width,height")
    // 31 columns are 310 pixels; H.264 in yuv420p takes them as they are (always even: 10 pixels per cell).
    expect([Number(info.width), Number(info.height)]).toEqual([310, 160])
  })

  it("exports an empty timeline as a single frame", async () => {
    const file = join(directory, "empty.mp4")
    await exportVideoFile({ cols: 10, rows: 2, startedAt: 0, events: [] }, file)
    const info = ffprobe(file, "stream=nb_frames,duration")
    expect(Number(info.nb_frames)).toBe(1)
    expect(Math.abs(Number(info.duration) - 1 / FPS)).toBeLessThan(0.01)
  })

  it("rejects unsupported extensions and frame rates before starting ffmpeg", async () => {
    await expect(exportVideoFile(blocksTimeline(), join(directory, "x.avi"))).rejects.toThrow(
      /extension '.avi' is not supported; use .mp4, .gif or .webm/,
    )
    await expect(exportVideoFile(blocksTimeline(), join(directory, "x"))).rejects.toThrow(/extension is missing/)
    await expect(exportVideoFile(blocksTimeline(), join(directory, "x.mp4"), { fps: 0 })).rejects.toThrow(/fps must be/)
    await expect(
      exportVideoFile({ cols: 0, rows: 1, startedAt: 0, events: [] }, join(directory, "x.mp4")),
    ).rejects.toThrow(/positive integer cols and rows/)
  })

  it("reports ffmpeg's own error and removes the incomplete file", async () => {
    // An "ffmpeg" that answers the probe, then writes a partial output and fails.
    const fake = join(directory, "failing-ffmpeg")
    writeFileSync(
      fake,
      [
        "#!/bin/sh",
        'case "$*" in *-version*) echo "ffmpeg version 6.1"; exit 0;; *-encoders*) echo " V....D libx264 H.264"; exit 0;; esac',
        'for last in "$@"; do :; done',
        'echo partial > "$last"',
        "echo 'Conversion failed: something specific' >&2",
        "exit 1",
      ].join("\n"),
    )
    chmodSync(fake, 0o755)
    const file = join(directory, "failing.mp4")
    await expect(exportVideoFile(blocksTimeline(), file, { ffmpegPath: fake })).rejects.toThrow(
      /ffmpeg exited with status 1 while writing .*failing\.mp4: Conversion failed: something specific/,
    )
    expect(existsSync(file)).toBe(false)
  })

  it("stops on abort and leaves no file", async () => {
    const file = join(directory, "aborted.mp4")
    const controller = new AbortController()
    const exporting = exportVideoFile(blocksTimeline(), file, {
      signal: controller.signal,
      onProgress: ({ framesDone }) => {
        if (framesDone > 10) controller.abort()
      },
    })
    await expect(exporting).rejects.toThrow(/abort/i)
    expect(existsSync(file)).toBe(false)
  })
})
