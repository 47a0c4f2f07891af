#!/usr/bin/env node
/**
 * The `opencode-drive` command line:
 *
 *   opencode-drive run <module>            run a module whose default export is an Effect<_, _, never>
 *   opencode-drive check <script>          type-check a defineScript module
 *   opencode-drive start --script <file>   check and run a defineScript module
 *   opencode-drive clean                   remove run directories of killed runs (and their processes)
 *
 * Modules are type-checked against their contract before they are imported; TypeScript modules are imported
 * through in-memory transpilation hooks. Usage errors and failures print one clear line (details, such as a
 * screen dump, follow indented) and exit non-zero.
 */
import * as Fs from "node:fs"
import { register } from "node:module"
import * as Path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { NodeRuntime } from "@effect/platform-node"
import { Cause, Effect } from "effect"
import * as RunDirectory from "../run/RunDirectory.js"
import { isScript, runScript } from "../Script.js"
import { parse, type Command, UsageError } from "./Arguments.js"
import type * as TypeContract from "./TypeContract.js"

const packageDir = Path.resolve(Path.dirname(fileURLToPath(import.meta.url)), "..")

const usage = `Usage:
  opencode-drive run <module>            Run a module whose default export is an Effect<_, _, never>
  opencode-drive check <script>          Type-check a defineScript module
  opencode-drive start --script <file>   Check and run a defineScript module
  opencode-drive clean                   Remove the run directories of killed runs and stop their processes
  opencode-drive --help | --version

Modules may be TypeScript (.ts, .mts) or JavaScript. Simulation control lives in the module (the driver API);
the commands take no other flags.`

/** A failure with a clear message (exit status 1). */
class CliFailure extends Error {}

// The TypeScript compiler is loaded only when a command type-checks (it takes a while to load).
const typeCheck = (file: string, contract: TypeContract.Contract) =>
  Effect.promise(() => import("./TypeContract.js")).pipe(
    Effect.map((TypeContract) => TypeContract.check(file, contract, packageDir)),
    Effect.flatMap((result) => (result.ok ? Effect.void : Effect.fail(new CliFailure(result.message)))),
  )

let hooksRegistered = false

const importDefault = (file: string) =>
  Effect.tryPromise({
    try: async () => {
      if (!hooksRegistered) {
        register(new URL("./ts-hooks.js", import.meta.url), import.meta.url)
        hooksRegistered = true
      }
      const loaded = (await import(pathToFileURL(Path.resolve(file)).href)) as { default?: unknown }
      return loaded.default
    },
    catch: (cause) =>
      new CliFailure(`cannot import ${file}: ${cause instanceof Error ? cause.message : String(cause)}`),
  })

const requireFile = (file: string) =>
  Fs.existsSync(file) ? Effect.void : Effect.fail(new CliFailure(`${file} does not exist`))

const printValue = (value: unknown) =>
  Effect.sync(() => {
    if (value === undefined) return
    process.stdout.write(`${typeof value === "string" ? value : JSON.stringify(value, null, 2)}\n`)
  })

const runCommand = (command: Command): Effect.Effect<void, unknown> => {
  switch (command.kind) {
    case "help":
      return Effect.sync(() => process.stdout.write(`${usage}\n`))
    case "version":
      return Effect.sync(() => {
        const pkg = JSON.parse(Fs.readFileSync(Path.join(packageDir, "package.json"), "utf8")) as { version: string }
        process.stdout.write(`${pkg.version}\n`)
      })
    case "run":
      return Effect.gen(function* () {
        yield* requireFile(command.module)
        yield* typeCheck(command.module, "effect")
        const program = yield* importDefault(command.module)
        if (!Effect.isEffect(program)) {
          return yield* Effect.fail(new CliFailure(`the default export of ${command.module} is not an Effect`))
        }
        yield* printValue(yield* program as Effect.Effect<unknown, unknown>)
      })
    case "clean":
      return Effect.sync(() => {
        const removed = RunDirectory.removeStale()
        process.stdout.write(
          removed.length === 0
            ? "no stale run directories\n"
            : `${removed.map((dir) => `removed ${dir}`).join("\n")}\n`,
        )
      })
    case "check":
      return Effect.gen(function* () {
        yield* requireFile(command.script)
        yield* typeCheck(command.script, "script")
        const script = yield* importDefault(command.script)
        if (!isScript(script))
          return yield* Effect.fail(
            new CliFailure(`the default export of ${command.script} is not a defineScript script`),
          )
        yield* Effect.sync(() => process.stdout.write(`${command.script}: ok\n`))
      })
    case "start":
      return Effect.gen(function* () {
        yield* requireFile(command.script)
        yield* typeCheck(command.script, "script")
        const script = yield* importDefault(command.script)
        if (!isScript(script))
          return yield* Effect.fail(
            new CliFailure(`the default export of ${command.script} is not a defineScript script`),
          )
        yield* printValue(yield* runScript(script))
      })
  }
}

/** Print an error: its first line after the program name, further lines indented. */
export const formatError = (error: unknown): string => {
  const message =
    error instanceof Error || (typeof error === "object" && error !== null && "message" in error)
      ? String((error as { message: unknown }).message)
      : String(error)
  const tag =
    typeof error === "object" && error !== null && "_tag" in error
      ? `${String((error as { _tag: unknown })._tag)}: `
      : ""
  const [first, ...rest] = message.split("\n")
  return [`opencode-drive: ${tag}${first}`, ...rest.map((line) => `  ${line}`)].join("\n")
}

// Stack traces (and so the call sites in failure messages) point at the script's TypeScript lines.
process.setSourceMapsEnabled(true)

const main = Effect.gen(function* () {
  const command = yield* Effect.try({ try: () => parse(process.argv.slice(2)), catch: (error) => error })
  yield* runCommand(command)
}).pipe(
  Effect.catchCause((cause) =>
    Effect.sync(() => {
      if (Cause.hasInterruptsOnly(cause)) {
        process.exitCode = 130
        return
      }
      const error = Cause.squash(cause)
      process.stderr.write(`${formatError(error)}\n`)
      process.exitCode = error instanceof UsageError ? 2 : 1
    }),
  ),
)

NodeRuntime.runMain(main, { disableErrorReporting: true })
