import * as Fs from "node:fs"
import * as Path from "node:path"
import * as Os from "node:os"
import { Recorder } from "@codemode/core"
import { Cause, Effect, Exit } from "effect"
import { describe, expect, it } from "vitest"
import { OpenCodeDriver } from "../src/index.js"

const runsRoot = Path.join(Os.tmpdir(), "opencode-drive")
const runDirectories = () => (Fs.existsSync(runsRoot) ? Fs.readdirSync(runsRoot) : [])

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
        return Effect.fail(new Recorder.RecorderError({ message: "video recording is unavailable: no ffmpeg; set FFMPEG_PATH" }))
      }),
    }
    const before = runDirectories()
    const error = await failure(
      OpenCodeDriver.use({ tui: { recording: true } }, () => Effect.void).pipe(Effect.provideService(Recorder.Recorder, noVideo)),
    )
    expect(checked).toBe(1)
    expect(error._tag).toBe("RecorderError")
    expect(error.message).toContain("no ffmpeg")
    expect(runDirectories()).toEqual(before)
  })

  it("rejects invalid options with a message naming the option", async () => {
    const error = await failure(OpenCodeDriver.use({ tui: { viewport: { cols: 10, rows: 2 } } }, () => Effect.void))
    expect(error._tag).toBe("InvalidOptionsError")
    expect(error.message).toContain("tui viewport 10×2 is invalid")
  })
})

describe("compatibility", () => {
  it('fails with CompatibilityError when the simulation endpoint is "required", before any TUI starts', async () => {
    const before = runDirectories()
    const error = await failure(OpenCodeDriver.use({ opencode: { compatibility: "required" } }, () => Effect.void))
    const kept = runDirectories().filter((name) => !before.includes(name))
    expect(kept).toHaveLength(1)
    expect(Fs.readdirSync(Path.join(runsRoot, kept[0], "media"))).toEqual([])
    Fs.rmSync(Path.join(runsRoot, kept[0]), { recursive: true, force: true })
    expect(error._tag).toBe("CompatibilityError")
    expect(error.message).toContain("OpenCode 1.18.33 offers no Drive simulation endpoint")
    expect(error.message).toContain('use opencode.compatibility: "preferred"')
  }, 120_000)
})
