import { chmodSync, mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { probeFfmpeg } from "../src/video/ffmpeg.js"
import { ffmpegPath } from "./support/media.js"

const directory = mkdtempSync(join(tmpdir(), "recorder-ffmpeg-"))

describe("the ffmpeg of this machine", () => {
  it("probes the real ffmpeg's version and encoders", async () => {
    const capabilities = await probeFfmpeg(ffmpegPath())
    expect(capabilities.version).toMatch(/\d/)
    expect(capabilities.encoders.has("libx264")).toBe(true)
    expect(capabilities.encoders.has("gif")).toBe(true)
  })

  it("rejects a binary that is not a working ffmpeg", async () => {
    const broken = join(directory, "broken-ffmpeg")
    writeFileSync(broken, "#!/bin/sh\necho 'cannot start' >&2\nexit 3\n")
    chmodSync(broken, 0o755)
    await expect(probeFfmpeg(broken)).rejects.toThrow(/ffmpeg at .*broken-ffmpeg does not run \(cannot start\)/)
  })
})
