import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { resolveFfmpeg } from "../src/video/ffmpeg.js"

const directory = mkdtempSync(join(tmpdir(), "recorder-ffmpeg-"))

/** An executable file named `ffmpeg` in a fresh folder. */
function fakeBinary(folder: string): string {
  mkdirSync(join(directory, folder), { recursive: true })
  const path = join(directory, folder, "ffmpeg")
  writeFileSync(path, "#!/bin/sh\nexit 0\n")
  chmodSync(path, 0o755)
  return path
}

const option = fakeBinary("option")
const fromEnv = fakeBinary("env")
const fromStatic = fakeBinary("static")
const onPath = fakeBinary("path")
const missing = join(directory, "nowhere", "ffmpeg")
const noStatic = () => {
  throw new Error("Cannot find module 'ffmpeg-static'")
}

describe("ffmpeg resolution", () => {
  it("prefers the option, then FFMPEG_PATH, then ffmpeg-static, then PATH", () => {
    const env = { FFMPEG_PATH: fromEnv, PATH: join(directory, "path") }
    const ffmpegStatic = () => fromStatic
    expect(resolveFfmpeg({ ffmpegPath: option, env, ffmpegStatic })).toEqual({ path: option, source: "option" })
    expect(resolveFfmpeg({ env, ffmpegStatic })).toEqual({ path: fromEnv, source: "FFMPEG_PATH" })
    expect(resolveFfmpeg({ env: { PATH: env.PATH }, ffmpegStatic })).toEqual({
      path: fromStatic,
      source: "ffmpeg-static",
    })
    expect(resolveFfmpeg({ env: { PATH: env.PATH }, ffmpegStatic: noStatic })).toEqual({ path: onPath, source: "PATH" })
  })

  it("skips an ffmpeg-static package whose binary download failed, or that has no build for this platform", () => {
    const env = { PATH: `${join(directory, "empty")}:${join(directory, "path")}` }
    expect(resolveFfmpeg({ env, ffmpegStatic: () => join(directory, "static", "missing-binary") }).source).toBe("PATH")
    expect(resolveFfmpeg({ env, ffmpegStatic: () => null }).source).toBe("PATH")
  })

  it("fails clearly when FFMPEG_PATH points at a missing file, without falling back", () => {
    expect(() => resolveFfmpeg({ env: { FFMPEG_PATH: missing, PATH: join(directory, "path") } })).toThrow(
      `FFMPEG_PATH is set to ${missing}, but it does not exist. Set FFMPEG_PATH to an ffmpeg binary or unset it.`,
    )
  })

  it("fails clearly when the ffmpegPath option is not an executable file", () => {
    expect(() => resolveFfmpeg({ ffmpegPath: missing, env: {} })).toThrow(
      /ffmpegPath option points at .*, but it does not exist/,
    )
    expect(() => resolveFfmpeg({ ffmpegPath: directory, env: {} })).toThrow(/but it is not a file/)
    const notExecutable = join(directory, "plain-file")
    writeFileSync(notExecutable, "")
    expect(() => resolveFfmpeg({ ffmpegPath: notExecutable, env: {} })).toThrow(/but it is not executable/)
  })

  it("says how to get ffmpeg when there is none at all", () => {
    expect(() => resolveFfmpeg({ env: { PATH: join(directory, "empty") }, ffmpegStatic: noStatic })).toThrow(
      /No ffmpeg found .*Install ffmpeg with your system package manager .*or set FFMPEG_PATH to an ffmpeg binary/,
    )
  })
})
