/**
 * `opencode-drive/vitest`: a vitest fixture that gives each test a driver.
 *
 * ```ts
 * import { test } from "opencode-drive/vitest"
 *
 * test("answers", ({ drive }) =>
 *   drive({ tui: { viewport: { cols: 100, rows: 30 } } }, ({ ui, llm }) =>
 *     Effect.gen(function* () {
 *       yield* llm.queue(Llm.text("Hello."))
 *       yield* ui.submit("Hi")
 *       yield* ui.waitFor("Hello.")
 *     }),
 *   ))
 * ```
 *
 * `drive(options?, program)` runs the program with `OpenCodeDriver.useReport` (its own run directory, so test
 * files can run in parallel workers), settles it, and resolves with the program's value. On failure it rejects
 * with the run's error (its message names the test's line) and attaches the evidence to the test: the PNG and
 * asciicast of every TUI at the failure, and the recordings. `driveConfig` (also exported by `opencode-drive`,
 * which a vitest config can import) holds timeouts that suit OpenCode: `defineConfig({ test: { ...driveConfig } })`.
 */
import * as Fs from "node:fs"
import * as Path from "node:path"
import { Cause, Effect, Exit } from "effect"
import { test as base, type TestContext } from "vitest"
import * as Driver from "./Driver.js"
import type { DriverError } from "./Errors.js"
import type { DriverOptions } from "./Options.js"

/** Runs one program against a fresh driver (see the module doc). */
export interface Drive {
  <A, E>(program: Driver.Program<A, E>): Promise<A>
  <A, E>(options: DriverOptions, program: Driver.Program<A, E>): Promise<A>
}

export { driveConfig } from "./VitestConfig.js"

const contentTypes: Readonly<Record<string, string>> = {
  ".png": "image/png",
  ".cast": "application/x-asciicast",
  ".mp4": "video/mp4",
  ".gif": "image/gif",
  ".webm": "video/webm",
}

/** Attach every file in a failed run's media directory to the test. */
const attachEvidence = async (annotate: TestContext["annotate"], root: string) => {
  const media = Path.join(root, "media")
  const files = Fs.existsSync(media) ? Fs.readdirSync(media).sort() : []
  for (const file of files) {
    const path = Path.join(media, file)
    await annotate(`opencode-drive: ${path}`, "evidence", {
      path,
      contentType: contentTypes[Path.extname(file)] ?? "application/octet-stream",
    })
  }
  await annotate(`opencode-drive: the failed run is kept in ${root}`, "evidence")
}

const makeDrive =
  (annotate: TestContext["annotate"]): Drive =>
  <A, E>(optionsOrProgram: DriverOptions | Driver.Program<A, E>, maybeProgram?: Driver.Program<A, E>) => {
    const [options, program] =
      typeof optionsOrProgram === "function" ? [{}, optionsOrProgram] : [optionsOrProgram, maybeProgram!]
    let root: string | undefined
    const observed: Driver.Program<A, E> = (driver) => {
      root = driver.paths.root
      return program(driver)
    }
    return Effect.runPromiseExit(
      Driver.useReport(options, observed) as Effect.Effect<{ value: A }, E | DriverError>,
    ).then(async (exit) => {
      if (Exit.isSuccess(exit)) return exit.value.value
      if (root !== undefined && !Cause.hasInterruptsOnly(exit.cause)) await attachEvidence(annotate, root)
      throw Cause.squash(exit.cause)
    })
  }

/** `test` with a `drive` fixture. */
export const test = base.extend<{ drive: Drive }>({
  drive: async ({ annotate }, use) => {
    await use(makeDrive(annotate))
  },
})

export { expect } from "vitest"
