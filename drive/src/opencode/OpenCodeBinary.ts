/**
 * Where the OpenCode binary is: `opencode.command` when given, else the `opencode-ai` package Drive depends on
 * (its postinstall links the platform binary to `bin/opencode.exe`), else the platform package directly.
 */
import * as Fs from "node:fs"
import * as Path from "node:path"
import { createRequire } from "node:module"
import { Effect } from "effect"
import { OpenCodeStartError } from "../Errors.js"

const require = createRequire(import.meta.url)

/** A command: the executable and leading arguments. */
export type Command = readonly [string, ...Array<string>]

const packageDir = (name: string): string | undefined => {
  try {
    return Path.dirname(require.resolve(`${name}/package.json`))
  } catch {
    return undefined
  }
}

const platformPackages = (): ReadonlyArray<string> => {
  const os = process.platform === "win32" ? "windows" : process.platform
  const base = `opencode-${os}-${process.arch}`
  return [base, `${base}-baseline`, `${base}-musl`, `${base}-baseline-musl`]
}

/** Resolve the OpenCode command, or fail saying how to provide one. */
export const resolve = (command: string | Command | undefined): Effect.Effect<Command, OpenCodeStartError> =>
  Effect.suspend(() => {
    if (typeof command === "string") return Effect.succeed([command] as Command)
    if (command !== undefined) return Effect.succeed(command)
    const candidates: Array<string> = []
    const main = packageDir("opencode-ai")
    if (main) candidates.push(Path.join(main, "bin", "opencode.exe"))
    for (const name of platformPackages()) {
      const dir = packageDir(name)
      if (dir) candidates.push(Path.join(dir, "bin", process.platform === "win32" ? "opencode.exe" : "opencode"))
    }
    const found = candidates.find((file) => {
      try {
        Fs.accessSync(file, Fs.constants.X_OK)
        return Fs.statSync(file).size > 1024 * 1024
      } catch {
        return false
      }
    })
    if (found) return Effect.succeed([found] as Command)
    return Effect.fail(
      new OpenCodeStartError({
        message: `cannot find the OpenCode binary (looked at: ${candidates.join(", ") || "no opencode-ai package"}); install opencode-ai with its install scripts enabled, or pass opencode.command`,
        logTail: "",
      }),
    )
  })
