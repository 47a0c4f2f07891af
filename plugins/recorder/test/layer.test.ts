import { Recorder } from "@codemode/core"
import { Effect, type Layer } from "effect"
import { existsSync, mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { layer, layerWith } from "../src/layer.js"
import { decodePng } from "./support/decodePng.js"
import { FrameBuilder } from "./support/frames.js"
import { blocksTimeline } from "./support/timelines.js"

const directory = mkdtempSync(join(tmpdir(), "recorder-layer-"))
const frame = new FrameBuilder(30, 3).text(0, 0, "screenshot through the layer").frame()

function run<A, E>(
  use: (recorder: Recorder.RecorderShape) => Effect.Effect<A, E>,
  provided: Layer.Layer<Recorder.Recorder> = layer,
): Promise<A> {
  const program = Effect.gen(function* () {
    const recorder = yield* Recorder.Recorder
    return yield* use(recorder)
  })
  return Effect.runPromise(program.pipe(Effect.provide(provided)))
}

/** The error a recorder operation fails with (the test fails if it succeeds). */
function failure(
  use: (recorder: Recorder.RecorderShape) => Effect.Effect<unknown, Recorder.RecorderError>,
  provided: Layer.Layer<Recorder.Recorder> = layer,
): Promise<Recorder.RecorderError> {
  return run((recorder) => Effect.flip(use(recorder)), provided)
}

const savedFfmpegPath = process.env.FFMPEG_PATH
afterEach(() => {
  if (savedFfmpegPath === undefined) delete process.env.FFMPEG_PATH
  else process.env.FFMPEG_PATH = savedFfmpegPath
})

describe("Recorder layer", () => {
  it("writes screenshots, creating the folder", async () => {
    const file = join(directory, "shots", "first.png")
    await run((recorder) => recorder.screenshot(frame, file))
    const png = decodePng(readFileSync(file))
    expect([png.width, png.height]).toEqual([300, 60])
  })

  it("saves asciicast files", async () => {
    const file = join(directory, "casts", "run.cast")
    await run((recorder) => recorder.saveCast(blocksTimeline(), file, "layer test"))
    const [header, ...events] = readFileSync(file, "utf8")
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line))
    expect(header).toMatchObject({ version: 2, width: 40, height: 10, title: "layer test" })
    expect(events).toHaveLength(4)
  })

  it("requires absolute paths", async () => {
    const error = await failure((recorder) => recorder.screenshot(frame, "relative.png"))
    expect(error).toBeInstanceOf(Recorder.RecorderError)
    expect(error.message).toBe("the screenshot path must be absolute, got 'relative.png'")
    expect((await failure((recorder) => recorder.saveCast(blocksTimeline(), "a.cast"))).message).toMatch(
      /cast path must be absolute/,
    )
  })

  it("reports bad frames and timelines as RecorderError", async () => {
    const bad = { ...frame, rows: 5 }
    expect((await failure((recorder) => recorder.screenshot(bad, join(directory, "bad.png")))).message).toMatch(
      /^screenshot failed: a 30×5 frame needs 5 rows of cells, got 3/,
    )
    expect(existsSync(join(directory, "bad.png"))).toBe(false)
  })

  it("without a usable ffmpeg: checkVideo and exportVideo fail saying what to do, screenshots still work", async () => {
    const broken = layerWith({ ffmpegPath: join(directory, "no-such-ffmpeg") })
    const check = await failure((recorder) => recorder.checkVideo, broken)
    expect(check.message).toMatch(
      /^video recording is unavailable: The ffmpegPath option points at .*no-such-ffmpeg, but it does not exist/,
    )
    const file = join(directory, "never.mp4")
    const exported = await failure((recorder) => recorder.exportVideo(blocksTimeline(), file), broken)
    expect(exported.message).toMatch(/^video export failed: The ffmpegPath option/)
    expect(existsSync(file)).toBe(false)
    await run((recorder) => recorder.screenshot(frame, join(directory, "still-works.png")), broken)
    expect(existsSync(join(directory, "still-works.png"))).toBe(true)
  })

  it("reads FFMPEG_PATH when it runs, not when the layer is built", async () => {
    process.env.FFMPEG_PATH = join(directory, "missing", "ffmpeg")
    const check = await failure((recorder) => recorder.checkVideo)
    expect(check.message).toContain(
      `FFMPEG_PATH is set to ${join(directory, "missing", "ffmpeg")}, but it does not exist`,
    )
  })
})
