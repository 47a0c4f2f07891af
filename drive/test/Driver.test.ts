import * as Fs from "node:fs"
import * as Path from "node:path"
import { Recorder } from "@codemode/core"
import { Cause, Effect, Exit } from "effect"
import { describe, expect, it } from "vitest"
import * as Driver from "../src/Driver.js"

/** Start a run and run `program`, noting the run directory as soon as it exists. */
const runWith = (options: Parameters<typeof Driver.start>[0], seen: { root?: string }) =>
  Effect.scoped(
    Effect.gen(function* () {
      const { driver } = yield* Driver.start(options, ({ fs }) =>
        Effect.sync(() => {
          seen.root = Path.dirname(fs.root)
        }),
      )
      yield* driver.settle()
    }),
  )

const failure = async (effect: Effect.Effect<unknown, unknown>) => {
  const exit = await Effect.runPromiseExit(effect)
  if (Exit.isSuccess(exit)) throw new Error("expected a failure")
  const error = Cause.findErrorOption(exit.cause)
  if (error._tag === "None") throw new Error(Cause.pretty(exit.cause))
  return error.value as { readonly _tag: string; readonly message: string }
}

describe("OpenCodeDriver.make before OpenCode starts", () => {
  it("uses a Recorder the host provides and fails at make when it cannot record video", async () => {
    let checked = 0
    const noVideo: Recorder.RecorderShape = {
      screenshot: () => Effect.void,
      saveCast: () => Effect.void,
      exportVideo: () => Effect.void,
      checkVideo: Effect.suspend(() => {
        checked++
        return Effect.fail(
          new Recorder.RecorderError({ message: "video recording is unavailable: no ffmpeg; set FFMPEG_PATH" }),
        )
      }),
    }
    const seen: { root?: string } = {}
    const error = await failure(
      runWith({ tui: { recording: true } }, seen).pipe(Effect.provideService(Recorder.Recorder, noVideo)),
    )
    expect(checked).toBe(1)
    expect(error._tag).toBe("RecorderError")
    expect(error.message).toContain("no ffmpeg")
    expect(seen.root).toBeUndefined()
  })

  it("rejects invalid options with a message naming the option", async () => {
    const seen: { root?: string } = {}
    const error = await failure(runWith({ tui: { viewport: { cols: 10, rows: 2 } } }, seen))
    expect(error._tag).toBe("InvalidOptionsError")
    expect(error.message).toContain("tui viewport 10×2 is invalid")
    const escaping = await failure(runWith({ project: { files: { "../outside.txt": "x" } } }, seen))
    expect(escaping.message).toContain('project file path "../outside.txt" must be relative')
    expect(seen.root).toBeUndefined()
  })
})

describe("compatibility", () => {
  it('fails with CompatibilityError when the simulation endpoint is "required", before any TUI starts', async () => {
    const seen: { root?: string } = {}
    const error = await failure(runWith({ opencode: { compatibility: "required" } }, seen))
    expect(Fs.readdirSync(seen.root!).sort()).toEqual(["files", "home", "logs", "media"])
    Fs.rmSync(seen.root!, { recursive: true, force: true })
    expect(error._tag).toBe("CompatibilityError")
    expect(error.message).toContain("OpenCode 1.18.33 offers no Drive simulation endpoint")
    expect(error.message).toContain('use opencode.compatibility: "preferred"')
  }, 120_000)
})
