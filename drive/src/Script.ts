/**
 * `defineScript`: a Drive run described as data — driver options plus Effect-only `setup` and `run` callbacks.
 * `setup` runs before OpenCode starts (write files, queue responses); `run` drives the TUIs. Promise-returning
 * callbacks are rejected with a message showing the Effect shape. `runScript` executes a script with the same
 * lifecycle as `OpenCodeDriver.use`.
 */
import { Effect } from "effect"
import * as Driver from "./Driver.js"
import { type DriverError, ScriptDefinitionError } from "./Errors.js"
import type { DriverOptions } from "./Options.js"
import * as ProjectFs from "./run/ProjectFs.js"

/** The shared server of a script. */
export interface ScriptServer extends Driver.ServerInfo {
  /** Ensure the shared server is running and return its endpoint (it is started with the script, so this is immediate). */
  readonly launch: () => Effect.Effect<Driver.ServerInfo>
}

/** What `setup` gets: the project files and the LLM queue, before OpenCode starts. */
export type SetupContext = Driver.SetupContext

/** What `run` gets: the driver's capabilities, the project files and the server. */
export interface ScriptContext extends Omit<Driver.Driver, "settle" | "server"> {
  readonly fs: ProjectFs.ProjectFs
  readonly server: ScriptServer
}

/** A script definition: driver options and Effect-only callbacks. */
export interface ScriptDefinition<A, E, ES> extends DriverOptions {
  readonly setup?: (context: SetupContext) => Effect.Effect<void, ES>
  readonly run: (context: ScriptContext) => Effect.Effect<A, E>
}

/** A defined script. */
export interface Script<A, E> {
  readonly _tag: "OpenCodeDriveScript"
  readonly options: DriverOptions
  readonly setup?: (context: SetupContext) => Effect.Effect<void, unknown>
  readonly run: (context: ScriptContext) => Effect.Effect<A, E>
}

const effectShape = (name: "setup" | "run") =>
  name === "run"
    ? 'run: ({ ui, llm }) => Effect.gen(function* () { yield* llm.queue(Llm.text("...")); yield* ui.submit("...") })'
    : 'setup: ({ fs, llm }) => Effect.gen(function* () { yield* fs.write("notes.md", "...") })'

const notEffect = (name: "setup" | "run", got: string) =>
  new ScriptDefinitionError({
    message: `defineScript: ${name} must return an Effect, ${got}; there is no Promise adapter. Write it as ${effectShape(name)}`,
  })

const isAsyncFunction = (value: unknown) =>
  typeof value === "function" &&
  (value.constructor?.name === "AsyncFunction" || value.constructor?.name === "AsyncGeneratorFunction")

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  value !== null && typeof value === "object" && typeof (value as { then?: unknown }).then === "function"

/** Call a script callback and insist on an Effect result. */
const callEffect = <A, E>(name: "setup" | "run", callback: (context: never) => Effect.Effect<A, E>, context: unknown) =>
  Effect.suspend((): Effect.Effect<A, E | ScriptDefinitionError> => {
    const result: unknown = (callback as (context: unknown) => unknown)(context)
    if (Effect.isEffect(result)) return result as Effect.Effect<A, E>
    if (isThenable(result)) {
      // the Promise's outcome is irrelevant now; keep a rejection from becoming an unhandled one
      result.then(undefined, () => undefined)
      return Effect.fail(notEffect(name, "got a Promise"))
    }
    return Effect.fail(notEffect(name, `got ${result === null ? "null" : typeof result}`))
  })

/**
 * Define a script. Throws `ScriptDefinitionError` at definition time when `run` is missing or a callback is an
 * `async` function (both are programming errors); a callback that returns a non-Effect fails the run.
 */
export const defineScript = <A, E = never, ES = never>(definition: ScriptDefinition<A, E, ES>): Script<A, E | ES> => {
  const { setup, run, ...options } = definition
  if (typeof run !== "function") {
    throw new ScriptDefinitionError({
      message: `defineScript: run is required and must be a function; write it as ${effectShape("run")}`,
    })
  }
  if (setup !== undefined && typeof setup !== "function") {
    throw new ScriptDefinitionError({
      message: `defineScript: setup must be a function; write it as ${effectShape("setup")}`,
    })
  }
  for (const [name, callback] of [
    ["run", run],
    ["setup", setup],
  ] as const) {
    if (isAsyncFunction(callback)) throw notEffect(name, "not an async function returning a Promise")
  }
  return {
    _tag: "OpenCodeDriveScript",
    options,
    ...(setup ? { setup: setup as (context: SetupContext) => Effect.Effect<void, unknown> } : {}),
    run: run as (context: ScriptContext) => Effect.Effect<A, E | ES>,
  }
}

/** Whether a value is a script made by `defineScript`. */
export const isScript = (value: unknown): value is Script<unknown, unknown> =>
  typeof value === "object" && value !== null && (value as { _tag?: unknown })._tag === "OpenCodeDriveScript"

/** Run a script with the lifecycle of `OpenCodeDriver.useReport`; returns the value and the run report. */
export const runScriptReport = <A, E>(
  script: Script<A, E>,
): Effect.Effect<{ readonly value: A; readonly report: Driver.RunReport }, E | DriverError | ScriptDefinitionError> =>
  Effect.scoped(
    Effect.gen(function* () {
      const setup = script.setup
      const { driver, serverCrash } = yield* Driver.start(
        script.options,
        setup
          ? (context) => callEffect("setup", setup, context) as Effect.Effect<void, E | ScriptDefinitionError>
          : undefined,
      )
      const { settle, server, ...capabilities } = driver
      const context: ScriptContext = {
        ...capabilities,
        fs: ProjectFs.make(driver.paths.files),
        server: { ...server, launch: () => Effect.succeed(server) },
      }
      // A failure leaves evidence and still writes recordings (the run's scope does both).
      const value = yield* Effect.raceFirst(callEffect("run", script.run, context), serverCrash)
      const report = yield* settle()
      return { value, report }
    }),
  )

/** Run a script with the lifecycle of `OpenCodeDriver.use`. */
export const runScript = <A, E>(script: Script<A, E>): Effect.Effect<A, E | DriverError | ScriptDefinitionError> =>
  Effect.map(runScriptReport(script), (result) => result.value)
