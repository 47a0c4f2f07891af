/**
 * `OpenCodeDriver`: one scoped run of the real OpenCode against the simulated model. `make` builds the run
 * directory and project, starts the fake LLM, the OpenCode server and the primary TUI; `settle` is terminal
 * (rejects new TUIs and LLM responses, validates queued work, stops TUIs, exports recordings); `use`/`useReport`
 * bracket a program with both. Everything is released — processes stopped, the run directory removed or kept —
 * when the scope closes.
 */
import * as Fs from "node:fs"
import * as Path from "node:path"
import { Recorder } from "@codemode/core"
import { layer as recorderLayer, layerWith as recorderLayerWith } from "@codemode/recorder"
import { createOpencodeClient } from "@opencode-ai/sdk/v2/client"
import { Cause, Context, Deferred, Effect, Exit, Fiber, Layer, type Scope } from "effect"
import { unavailable as unavailableTools, PluginPackage } from "@codemode/tool-adapters"
import { type DriverError, DriverNotSettledError, type OpenCodeExitedError, ProjectSetupError } from "./Errors.js"
import * as FakeLlm from "./fake-llm/FakeLlm.js"
import * as Options from "./Options.js"
import * as Client from "./opencode/Client.js"
import * as Compatibility from "./opencode/Compatibility.js"
import * as OpenCodeBinary from "./opencode/OpenCodeBinary.js"
import * as OpenCodeConfig from "./opencode/OpenCodeConfig.js"
import * as OpenCodeServer from "./opencode/OpenCodeServer.js"
import * as ServerRelay from "./opencode/ServerRelay.js"
import * as Processes from "./run/Processes.js"
import * as Project from "./run/Project.js"
import * as Reaper from "./run/Reaper.js"
import * as ProjectFs from "./run/ProjectFs.js"
import * as RunDirectory from "./run/RunDirectory.js"
import * as ToolAdapters from "./tools/ToolAdapters.js"
import type { Tools } from "./tools/Tools.js"
import * as Tuis from "./tui/Tuis.js"
import type { Ui } from "./tui/Ui.js"

/** The server endpoint and its basic-auth credentials. */
export interface ServerInfo {
  readonly url: string
  readonly username: string
  readonly password: string
  readonly version: string
}

/** Where the run keeps its files. */
export type RunPaths = RunDirectory.RunPaths

/** Files a run produced, each checked to exist when the report was made. */
export interface RunArtifacts {
  readonly screenshots: ReadonlyArray<string>
  readonly recordings: ReadonlyArray<Tuis.Recording>
  /** Log files (listed only when the whole run directory is kept). */
  readonly logs: ReadonlyArray<string>
}

/** The compact outcome of a settled run. */
export interface RunReport {
  readonly runDirectory: string
  /** What stays on disk: everything (`keepArtifacts`), only `media/` (screenshots, recordings), or nothing. */
  readonly retention: RunDirectory.Retention
  readonly artifacts: RunArtifacts
  readonly compatibility: Compatibility.CompatibilityReport
  readonly llm: FakeLlm.LlmSummary
}

/** A running driver. */
export interface Driver {
  /** The primary TUI's UI. */
  readonly ui: Ui
  /** The primary TUI. */
  readonly tui: Tuis.Tui
  /** Launch more TUIs on the same server. */
  readonly tuis: Tuis.Tuis
  /** Live control of the simulated model. */
  readonly llm: FakeLlm.LlmControl
  /**
   * The OpenCode SDK client (`@opencode-ai/sdk` v2), authenticated and bound to the project directory, with every
   * method returning an Effect (`yield* opencode.session.list()`); `opencode.raw` is the Promise client.
   */
  readonly opencode: Client.OpenCodeClient
  /** Tool interception (see `options.tools`). */
  readonly tools: Tools
  readonly server: ServerInfo
  readonly paths: RunPaths
  /** Terminal settlement: validates queued work, stops TUIs, exports recordings, reports. Idempotent. */
  readonly settle: () => Effect.Effect<RunReport, DriverError>
}

const defaultStartTimeout = 90_000
const defaultSettleTimeout = 10_000

const recorderService = (ffmpegPath: string | undefined) =>
  Effect.gen(function* () {
    const provided = yield* Effect.serviceOption(Recorder.Recorder)
    if (provided._tag === "Some") return provided.value
    const layer: Layer.Layer<Recorder.Recorder> =
      ffmpegPath === undefined ? recorderLayer : recorderLayerWith({ ffmpegPath })
    const context = yield* Layer.build(layer)
    return Context.get(context, Recorder.Recorder)
  })

const messageOf = (error: unknown): string =>
  typeof error === "object" && error !== null && "message" in error ? String(error.message) : String(error)

const existing = (files: ReadonlyArray<string>) => files.filter((file) => Fs.existsSync(file))

/** A started run: the driver and the signal of an unexpected server exit. */
export interface Started {
  readonly driver: Driver
  readonly serverCrash: Effect.Effect<never, OpenCodeExitedError>
}

/** What a setup hook can use before OpenCode starts. */
export interface SetupContext {
  readonly fs: ProjectFs.ProjectFs
  readonly llm: FakeLlm.LlmControl
}

/** Start a run; `setup` runs after the project files are written and before OpenCode starts. */
export const start = <E = never>(
  options: Options.DriverOptions | undefined,
  setup?: (context: SetupContext) => Effect.Effect<void, E>,
): Effect.Effect<Started, DriverError | E, Scope.Scope> =>
  Effect.gen(function* () {
    const opts = yield* Options.validate(options)
    const startTimeout = opts.opencode?.startTimeout ?? defaultStartTimeout
    const recorder = yield* recorderService(opts.ffmpegPath)
    if (opts.tui?.recording) yield* recorder.checkVideo

    const run = yield* RunDirectory.make({
      keepArtifacts: opts.keepArtifacts ?? false,
      ...(opts.project?.directory === undefined ? {} : { projectDirectory: opts.project.directory }),
    })
    const { paths } = run
    const env = RunDirectory.environment(paths)
    // Whatever kills this process, the reaper kills the run's processes and removes its directory.
    yield* Reaper.start({
      root: paths.root,
      home: paths.home,
      keepArtifacts: opts.keepArtifacts ?? false,
      ...(opts.project?.directory === undefined ? {} : { projectDirectory: opts.project.directory }),
    })
    // Last finalizer to run (added first): nothing started for this run may outlive it.
    yield* Effect.addFinalizer(() => Effect.asVoid(Processes.sweep(paths.home)))

    // OpenCode installs @opencode-ai/plugin into its global config directory on every start unless it is there;
    // give it the locally installed copy, so no run downloads it.
    yield* Effect.try({
      try: () => PluginPackage.provideTo(Path.join(env.XDG_CONFIG_HOME, "opencode")),
      catch: (cause) =>
        new ProjectSetupError({ message: cause instanceof Error ? cause.message : String(cause), cause }),
    })
    yield* Project.writeFiles(paths.files, opts.project?.files ?? {})
    if (opts.project?.git) yield* Project.commitInitial(paths.files, env, env.GIT_CONFIG_GLOBAL)

    const llm = yield* FakeLlm.make
    if (setup) yield* setup({ fs: ProjectFs.make(paths.files), llm: llm.control })

    const declared = ToolAdapters.declaration(opts.tools)
    const prepared = declared
      ? yield* Effect.gen(function* () {
          const adapters = yield* ToolAdapters.resolve
          return yield* adapters.prepare({ ...declared, projectDir: paths.files, logsDir: paths.logs, env })
        })
      : undefined
    if (prepared) {
      const opencodeDir = Path.join(paths.files, ".opencode")
      yield* Project.writeFiles(opencodeDir, prepared.files)
      if (opts.project?.git) yield* Project.excludeFromGit(paths.files, ".opencode/")
    }

    const config = OpenCodeConfig.compose(
      OpenCodeConfig.baseConfig({ baseUrl: llm.baseUrl, apiKey: llm.apiKey, modelId: FakeLlm.modelId }),
      prepared?.config ? [prepared.config] : [],
      opts.config,
    )
    const command = yield* OpenCodeBinary.resolve(opts.opencode?.command)
    const credentials = OpenCodeServer.credentials()
    const relay = yield* ServerRelay.make
    const starting = yield* Effect.forkChild(
      Effect.gen(function* () {
        const started = yield* OpenCodeServer.start({
          port: yield* OpenCodeServer.freePort,
          credentials,
          command,
          cwd: paths.files,
          env: { ...env, ...prepared?.env },
          configContent: JSON.stringify(config),
          logFile: Path.join(paths.logs, "opencode-server.log"),
          readyTimeoutMs: startTimeout,
        })
        relay.forwardTo(Number(new URL(started.url).port))
        return started
      }),
    )
    let startedServer: OpenCodeServer.OpenCodeServer | undefined

    const screenshots: Array<string> = []
    const manager = Tuis.make({
      command,
      serverUrl: relay.url,
      serverUsername: credentials.username,
      serverPassword: credentials.password,
      projectDir: paths.files,
      mediaDir: paths.media,
      env,
      recorder,
      serverCrashed: () => startedServer?.crashed(),
      launchTimeoutMs: startTimeout,
      screenshots,
    })
    yield* Effect.addFinalizer(() => manager.closeAll)

    // The server and the primary TUI boot in parallel (the TUI attaches through the relay, which holds its
    // connections until the server listens). The compatibility probe is also the first request for the project
    // directory, so the server bootstraps it while the TUI starts. `"required"` fails before any TUI starts.
    const requested = opts.opencode?.compatibility ?? "preferred"
    const serverReady = Fiber.join(starting).pipe(
      Effect.tap((server) =>
        Effect.gen(function* () {
          startedServer = server
          if (prepared?.showProgressIn) {
            yield* prepared.showProgressIn({
              url: server.url,
              authorization: server.authorization,
              directory: paths.files,
            })
          }
        }),
      ),
      Effect.flatMap((server) => Compatibility.negotiate(server, requested, paths.files, prepared !== undefined)),
    )
    const [compatibility, primary] =
      requested === "required"
        ? [yield* serverReady, yield* manager.launchNamed("primary", opts.tui, true)]
        : yield* Effect.all([serverReady, manager.launchNamed("primary", opts.tui, true)], { concurrency: 2 })
    const server = startedServer!

    const opencode = Client.fromSdk(
      createOpencodeClient({
        baseUrl: server.url,
        directory: paths.files,
        headers: { authorization: server.authorization },
      }),
    )

    const reportEvidence = Effect.gen(function* () {
      const files = yield* manager.captureEvidence
      if (files.length > 0) process.stderr.write(`opencode-drive: the screens at the failure: ${files.join(", ")}\n`)
    })

    const settlement = yield* Deferred.make<RunReport, DriverError>()
    /** The recordings settlement wrote (also when settlement then fails). */
    let exported: ReadonlyArray<Tuis.Recording> = []
    let settling = false
    const settleTimeout = opts.settleTimeout ?? defaultSettleTimeout

    const settleOnce: Effect.Effect<RunReport, DriverError> = Effect.gen(function* () {
      manager.seal()
      const llmResult = yield* Effect.result(llm.settle(settleTimeout))
      const toolsResult = prepared ? yield* Effect.result(prepared.settle) : undefined
      // A failing settlement leaves the screens as they are now, before the TUIs stop.
      if (llmResult._tag === "Failure" || toolsResult?._tag === "Failure") yield* reportEvidence
      yield* manager.closeAll
      const recordings = yield* manager.exportRecordings
      exported = recordings
      const crash = server.crashed()
      if (crash) return yield* crash
      if (llmResult._tag === "Failure") return yield* llmResult.failure
      if (toolsResult?._tag === "Failure") return yield* toolsResult.failure
      const retention = yield* run.plannedRetention
      return {
        runDirectory: paths.root,
        retention,
        artifacts: {
          screenshots: existing(screenshots),
          recordings: recordings.filter((recording) => recording.files.every((file) => Fs.existsSync(file))),
          logs: retention === "all" ? existing([Path.join(paths.logs, "opencode-server.log")]) : [],
        },
        compatibility,
        llm: llmResult.success,
      } satisfies RunReport
    })

    const settle = () =>
      Effect.suspend(() => {
        if (!settling) {
          settling = true
          return Effect.flatMap(Effect.exit(settleOnce), (exit) => Deferred.done(settlement, exit)).pipe(
            Effect.andThen(Deferred.await(settlement)),
          )
        }
        return Deferred.await(settlement)
      })

    // Closing the scope without settle(): after a success that is a programming error (settle now, so recordings
    // are written, and fail saying what was lost); after a failure, leave evidence and still write recordings.
    yield* Effect.addFinalizer((exit) =>
      Effect.gen(function* () {
        if (settling) return
        if (Exit.isSuccess(exit)) {
          const result = yield* Effect.exit(settle())
          const recordings = exported.flatMap((recording) => recording.files)
          const lost = [
            "the run report (settle() returns it)",
            ...(Exit.isFailure(result) ? [`the settlement failure: ${messageOf(Cause.squash(result.cause))}`] : []),
          ]
          return yield* Effect.die(
            new DriverNotSettledError({
              message: `the driver's scope closed without driver.settle(): call yield* driver.settle() before leaving the scope of OpenCodeDriver.make (or use OpenCodeDriver.use). Drive settled the run itself${recordings.length > 0 ? ` and wrote ${recordings.join(", ")}` : ""}; lost: ${lost.join("; ")}`,
              lost,
              recordings,
            }),
          )
        }
        if (!Cause.hasInterruptsOnly(exit.cause)) yield* reportEvidence
        yield* Effect.ignore(settle())
      }),
    )

    const driver: Driver = {
      ui: primary.ui,
      tui: primary,
      tuis: manager.tuis,
      llm: llm.control,
      opencode,
      tools: prepared?.tools ?? unavailableTools,
      server: { url: server.url, username: server.username, password: server.password, version: server.version },
      paths,
      settle,
    }
    return { driver, serverCrash: server.awaitCrash }
  })

/**
 * Start a run: project, fake LLM, OpenCode server and the primary TUI. Call `settle()` before leaving the scope;
 * closing the scope stops every process either way.
 */
export const make = (options?: Options.DriverOptions): Effect.Effect<Driver, DriverError, Scope.Scope> =>
  Effect.map(start(options), (started) => started.driver)

/** A program run by `use`: it gets the driver and returns an Effect with no remaining requirements. */
export type Program<A, E> = (driver: Driver) => Effect.Effect<A, E>

/** Run `program` against a fresh driver, settle, and return the value together with the run report. */
export const useReport: {
  <A, E>(program: Program<A, E>): Effect.Effect<{ readonly value: A; readonly report: RunReport }, E | DriverError>
  <A, E>(
    options: Options.DriverOptions,
    program: Program<A, E>,
  ): Effect.Effect<{ readonly value: A; readonly report: RunReport }, E | DriverError>
} = <A, E>(
  optionsOrProgram: Options.DriverOptions | Program<A, E>,
  maybeProgram?: Program<A, E>,
): Effect.Effect<{ readonly value: A; readonly report: RunReport }, E | DriverError> => {
  const [options, program] =
    typeof optionsOrProgram === "function" ? [undefined, optionsOrProgram] : [optionsOrProgram, maybeProgram!]
  return Effect.scoped(
    Effect.gen(function* () {
      const { driver, serverCrash } = yield* start(options)
      // A failure leaves evidence and still writes recordings: the scope's finalizer does both.
      const value = yield* Effect.raceFirst(
        Effect.suspend(() => program(driver)),
        serverCrash,
      )
      const report = yield* driver.settle()
      return { value, report }
    }),
  )
}

/** Run `program` against a fresh driver and settle it; the safe top-level bracket. */
export const use: {
  <A, E>(program: Program<A, E>): Effect.Effect<A, E | DriverError>
  <A, E>(options: Options.DriverOptions, program: Program<A, E>): Effect.Effect<A, E | DriverError>
} = <A, E>(optionsOrProgram: Options.DriverOptions | Program<A, E>, maybeProgram?: Program<A, E>) =>
  Effect.map(
    useReport(optionsOrProgram as Options.DriverOptions, maybeProgram as Program<A, E>),
    (result) => result.value,
  )
