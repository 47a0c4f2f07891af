/**
 * `opencode-drive/testing`: the OpenCode server exactly as Drive starts it for a run — its own run directory
 * (isolated HOME and XDG directories, the reaper, stale-run cleanup), the quiet environment, `@opencode-ai/plugin`
 * linked so nothing is installed — but without TUIs or the fake LLM, for tests that talk to OpenCode's HTTP API
 * directly (such as the tool adapters' own end-to-end test). Give it the configuration (a provider of your own)
 * and extra environment; it is stopped with its process group, and its run directory removed, when the scope
 * closes.
 */
import * as Path from "node:path"
import { PluginPackage } from "@codemode/tool-adapters"
import { Effect, type Scope } from "effect"
import { type InvalidOptionsError, type OpenCodeStartError, ProjectSetupError } from "./Errors.js"
import * as OpenCodeBinary from "./opencode/OpenCodeBinary.js"
import type { JsonObject } from "./opencode/OpenCodeConfig.js"
import * as OpenCodeServer from "./opencode/OpenCodeServer.js"
import * as Processes from "./run/Processes.js"
import * as Project from "./run/Project.js"
import * as Reaper from "./run/Reaper.js"
import * as RunDirectory from "./run/RunDirectory.js"

/** How to start the server. */
export interface ServerOptions {
  /** OpenCode's configuration (`OPENCODE_CONFIG_CONTENT`). */
  readonly config: JsonObject
  /** Environment added to the server's (for example a tool channel's). */
  readonly env?: Readonly<Record<string, string>>
  /** Files written into the project before the server starts (relative path → content). */
  readonly files?: Project.ProjectFiles
  /** Milliseconds to wait for the server to listen. Default 90 000. */
  readonly startTimeout?: number
}

/** Runs in the run's scope after the project is written and before the server starts; its `env` is added. */
export type ServerSetup<E> = (
  paths: RunDirectory.RunPaths,
) => Effect.Effect<{ readonly env?: Readonly<Record<string, string>> } | undefined, E, Scope.Scope>

/** A running server and where its run lives. */
export interface TestServer {
  readonly url: string
  /** The `Authorization` header value. */
  readonly authorization: string
  readonly paths: RunDirectory.RunPaths
  /** The server's last log lines. */
  readonly logTail: (lines?: number) => string
}

/** Start `opencode serve` for a test in the current scope. */
export const startServer = <E = never>(
  options: ServerOptions,
  setup?: ServerSetup<E>,
): Effect.Effect<TestServer, OpenCodeStartError | ProjectSetupError | InvalidOptionsError | E, Scope.Scope> =>
  Effect.gen(function* () {
    const run = yield* RunDirectory.make({ keepArtifacts: false })
    const { paths } = run
    const env = RunDirectory.environment(paths)
    yield* Reaper.start({ root: paths.root, home: paths.home, keepArtifacts: false })
    yield* Effect.addFinalizer(() => Effect.asVoid(Processes.sweep(paths.home)))
    yield* Effect.try({
      try: () => PluginPackage.provideTo(Path.join(env.XDG_CONFIG_HOME, "opencode")),
      catch: (cause) =>
        new ProjectSetupError({ message: cause instanceof Error ? cause.message : String(cause), cause }),
    })
    yield* Project.writeFiles(paths.files, options.files ?? {})
    const extra = setup === undefined ? undefined : yield* setup(paths)
    const server = yield* OpenCodeServer.start({
      port: yield* OpenCodeServer.freePort,
      credentials: OpenCodeServer.credentials(),
      command: yield* OpenCodeBinary.resolve(undefined),
      cwd: paths.files,
      env: { ...env, ...options.env, ...extra?.env },
      configContent: JSON.stringify(options.config),
      logFile: Path.join(paths.logs, "opencode-server.log"),
      readyTimeoutMs: options.startTimeout ?? 90_000,
    })
    return { url: server.url, authorization: server.authorization, paths, logTail: server.logTail }
  })
