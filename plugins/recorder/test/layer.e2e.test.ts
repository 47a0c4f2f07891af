import { Recorder } from "@codemode/core"
import { Effect, Exit, Fiber } from "effect"
import { existsSync, mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { layer } from "../src/layer.js"
import { ffprobe } from "./support/media.js"
import { blocksTimeline } from "./support/timelines.js"

const directory = mkdtempSync(join(tmpdir(), "recorder-layer-"))

function run<A, E>(use: (recorder: Recorder.RecorderShape) => Effect.Effect<A, E>): Promise<A> {
  const program = Effect.gen(function* () {
    const recorder = yield* Recorder.Recorder
    return yield* use(recorder)
  })
  return Effect.runPromise(program.pipe(Effect.provide(layer)))
}

describe("Recorder layer with the ffmpeg of this machine", () => {
  it("exports videos and passes progress through", async () => {
    const file = join(directory, "videos", "run.mp4")
    let last: Recorder.ExportProgress | undefined
    await run((recorder) => recorder.exportVideo(blocksTimeline(), file, { onProgress: (p) => (last = p) }))
    expect(ffprobe(file, "stream=codec_name").codec_name).toBe("h264")
    expect(last).toEqual({ file, framesDone: 46, framesTotal: 46 })
  })

  it("stops the export and removes the file when interrupted", async () => {
    const file = join(directory, "videos", "interrupted.mp4")
    let fiber: Fiber.Fiber<void, Recorder.RecorderError> | undefined
    const program = Effect.gen(function* () {
      const recorder = yield* Recorder.Recorder
      yield* recorder.exportVideo(blocksTimeline(), file, {
        onProgress: ({ framesDone }) => {
          if (framesDone === 10 && fiber !== undefined) Effect.runFork(Fiber.interrupt(fiber))
        },
      })
    })
    fiber = Effect.runFork(program.pipe(Effect.provide(layer)))
    const exit = await Effect.runPromise(Fiber.await(fiber))
    expect(Exit.hasInterrupts(exit)).toBe(true)
    expect(existsSync(file)).toBe(false)
  })

  it("passes checkVideo with the ffmpeg of this machine", async () => {
    await run((recorder) => recorder.checkVideo)
  })
})
