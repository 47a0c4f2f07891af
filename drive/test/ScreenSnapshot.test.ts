import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { Effect, Scope, Exit } from "effect"
import { describe, expect, it } from "vitest"
import * as RunDirectory from "../src/run/RunDirectory.js"
import * as ScreenSnapshot from "../src/tui/ScreenSnapshot.js"

const temp = () => Fs.mkdtempSync(Path.join(Os.tmpdir(), "drive-screens-"))

describe("screen snapshots", () => {
  it("mask the run directory, durations and spinners", () => {
    const screen = [
      "⬝⬝■ Build  · 3.2s   ",
      "  /tmp/opencode-drive/run-mx4knbvn-65ad01ff/files:main   took 12ms, then 1m 3s",
      "~/opencode-drive/run-abc123-0011aabb",
      "",
      "",
    ].join("\n")
    expect(ScreenSnapshot.normalize(screen)).toBe(
      ["*** Build  · <duration>", "  <run>:main   took <duration>, then <duration>", "<run>", ""].join("\n"),
    )
    expect(ScreenSnapshot.normalize("12ms", [])).toBe("12ms\n")
  })

  it("write a missing snapshot, pass on the same screen, fail with the differing lines, and update on request", async () => {
    const file = Path.join(temp(), "screens", "home.txt")
    const first = "Ask anything\n  run took 2.5s\n"
    await Effect.runPromise(ScreenSnapshot.assertText(first, file))
    expect(Fs.readFileSync(file, "utf8")).toBe("Ask anything\n  run took <duration>\n")
    await Effect.runPromise(ScreenSnapshot.assertText("Ask anything\n  run took 9.1s", file))
    const error = await Effect.runPromise(Effect.flip(ScreenSnapshot.assertText("Ask nothing\n  run took 1s", file)))
    expect(error._tag).toBe("ScreenMismatchError")
    expect(error.message).toContain("    1 - Ask anything\n    1 + Ask nothing")
    expect(error.message).not.toContain("run took")
    await Effect.runPromise(ScreenSnapshot.assertText("Ask nothing", file, { update: true }))
    expect(Fs.readFileSync(file, "utf8")).toBe("Ask nothing\n")
  })
})

describe("project.directory", () => {
  it("puts the project at the stable path, refuses a directory in use, and removes it with the run", async () => {
    const directory = Path.join(temp(), "project")
    const scope = await Effect.runPromise(Scope.make())
    const run = await Effect.runPromise(
      Scope.provide(scope)(RunDirectory.make({ keepArtifacts: false, projectDirectory: directory })),
    )
    expect(run.paths.files).toBe(directory)
    Fs.writeFileSync(Path.join(directory, "a.txt"), "a")
    const busy = await Effect.runPromise(
      Effect.flip(Effect.scoped(RunDirectory.make({ keepArtifacts: false, projectDirectory: directory }))),
    )
    expect(busy.message).toContain("is not empty")
    await Effect.runPromise(Scope.close(scope, Exit.void))
    expect(Fs.existsSync(directory)).toBe(false)
    expect(Fs.existsSync(run.paths.root)).toBe(false)
  })
})
