/**
 * `opencode-drive/vitest` in a real vitest run: a suite whose test fails (a wait times out) is run in a child
 * vitest; its reporter records the test's annotations. The failure must carry the evidence (the PNG and cast of
 * the TUI at the failure, the recording) as attachments, and the error must name the suite's line.
 */
import * as ChildProcess from "node:child_process"
import * as Fs from "node:fs"
import { createRequire } from "node:module"
import * as Os from "node:os"
import * as Path from "node:path"
import { describe, expect, it } from "vitest"

/** The vitest command of this installation, run with node directly (npx would first spend a second resolving it). */
const vitestCli = Path.join(Path.dirname(createRequire(import.meta.url).resolve("vitest/package.json")), "vitest.mjs")

interface Annotation {
  readonly message: string
  readonly type: string
  readonly attachment?: { readonly path?: string; readonly contentType?: string }
}

describe("opencode-drive/vitest", () => {
  it("attaches the evidence of a failed test and reports the error at the test's line", () => {
    const out = Path.join(Fs.mkdtempSync(Path.join(Os.tmpdir(), "drive-vitest-")), "annotations.json")
    const run = ChildProcess.spawnSync(
      process.execPath,
      [vitestCli, "run", "--config", "test/fixtures/vitest-fixture/vitest.config.ts"],
      { cwd: Path.join(import.meta.dirname, ".."), env: { ...process.env, ANNOTATIONS_OUT: out }, encoding: "utf8" },
    )
    expect(run.status).toBe(1)
    const [result] = JSON.parse(Fs.readFileSync(out, "utf8")) as Array<{
      state: string
      errors: ReadonlyArray<string>
      annotations: ReadonlyArray<Annotation>
    }>
    expect(result.state).toBe("failed")
    expect(result.errors[0]).toContain('waiting for text "this never appears"')
    expect(result.errors[0]).toMatch(/\(at test\/fixtures\/vitest-fixture\/failing\.suite\.ts:11:\d+\)/)
    // Each file is attached (vitest copies it into its attachments directory) and named in the message.
    const attached = result.annotations
      .filter((annotation) => annotation.attachment?.path !== undefined)
      .map((annotation) => Path.basename(annotation.message))
    expect(attached).toEqual(expect.arrayContaining(["failure-primary.png", "failure-primary.cast", "primary.cast"]))
    const png = result.annotations.find((annotation) => annotation.message.endsWith("failure-primary.png"))
    expect(png?.attachment?.contentType).toBe("image/png")
    expect(Fs.existsSync(png!.attachment!.path!)).toBe(true)
    const kept = result.annotations.find((annotation) => annotation.message.includes("the failed run is kept in"))
    const root = kept!.message.split("kept in ")[1]
    Fs.rmSync(root, { recursive: true, force: true })
  }, 420_000)
})
