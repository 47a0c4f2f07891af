/**
 * Running a driver in a child process, as a test runner's worker would: the test writes a small ES module that
 * imports the built package, and reads one JSON line the module prints.
 */
import * as ChildProcess from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { pathToFileURL } from "node:url"

const dist = pathToFileURL(Path.join(import.meta.dirname, "..", "..", "dist", "index.js")).href

/**
 * Write a module whose body runs with `Effect`, `Llm`, `OpenCodeDriver`, `Fs` and `Path` in scope and may call
 * `report(value)` to print one JSON line.
 */
export const writeDriverModule = (body: string): string => {
  const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "drive-process-"))
  const file = Path.join(dir, "driver.mjs")
  Fs.writeFileSync(
    file,
    [
      `import { Effect } from ${JSON.stringify(import.meta.resolve("effect"))}`,
      `import { Llm, OpenCodeDriver } from ${JSON.stringify(dist)}`,
      'import * as Fs from "node:fs"',
      'import * as Path from "node:path"',
      "const report = (value) => process.stdout.write(JSON.stringify(value) + '\\n')",
      body,
      "",
    ].join("\n"),
  )
  return file
}

/** Start `node <module>` (optionally behind a wrapper command such as `unshare`) and wait for its first JSON line. */
export const startDriverProcess = async <A>(module: string, wrapper: ReadonlyArray<string> = []) => {
  const [file, ...args] = [...wrapper, process.execPath, module]
  const child = ChildProcess.spawn(file, args, { stdio: ["ignore", "pipe", "pipe"] })
  let stderr = ""
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  const value = await new Promise<A>((resolve, reject) => {
    let stdout = ""
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString()
      if (stdout.includes("\n")) resolve(JSON.parse(stdout.split("\n")[0]) as A)
    })
    child.on("exit", (code) => reject(new Error(`the driver process exited with ${code}: ${stderr}`)))
  })
  return { child, value, stderr: () => stderr }
}
