/** Helpers for tests of the built `opencode-drive` command. */
import * as ChildProcess from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"

export const cli = Path.join(import.meta.dirname, "..", "dist", "cli.js")
export const work = Fs.mkdtempSync(Path.join(Os.tmpdir(), "drive-cli-test-"))

/** Run the built CLI; resolves with its exit status and output. */
export const runCli = (args: ReadonlyArray<string>, timeoutMs = 120_000, env: NodeJS.ProcessEnv = process.env) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    ChildProcess.execFile(
      process.execPath,
      [cli, ...args],
      { cwd: work, timeout: timeoutMs, env },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === "number" ? error.code : null) : 0, stdout, stderr })
      },
    )
  })

/** Write a module into the CLI test directory (outside the package, like a user's script). */
export const writeModule = (name: string, source: string) => {
  const file = Path.join(work, name)
  Fs.writeFileSync(file, source)
  return file
}
