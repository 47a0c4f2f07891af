/**
 * Everything a Drive run needs to intercept OpenCode's tools, in one scoped constructor: the adapter files to
 * write under `.opencode/` before OpenCode starts, the environment the OpenCode server needs, the live `tools`
 * capability, and the settlement check. This module also declares the seam opencode-drive plugs it into (`Setup`,
 * `Prepared`, the `ToolAdapters` service): opencode-drive depends on this package and imports the seam from here,
 * so the type checker ties both sides together. `layer` is the implementation Drive uses by default.
 */
import * as Path from "node:path"
import { Context, Effect, Layer, type Scope } from "effect"
import * as AdapterSource from "./AdapterSource.js"
import * as ControlChannel from "./ControlChannel.js"
import {
  type ToolChannelStartError,
  ToolDeclarationError,
  ToolDependencyError,
  type ToolNotControllableError,
  type ToolSettlementError,
  ToolsUnavailableError,
} from "./Errors.js"
import * as Invocations from "./Invocations.js"
import * as PluginPackage from "./PluginPackage.js"
import * as ProgressDisplay from "./ProgressDisplay.js"
import * as Tool from "./Tool.js"
import { isInterceptable, opencode1Names } from "./ToolNames.js"

/** Fixed handlers for the callback form of `options.tools`. */
export interface ToolRegistry {
  /** Handle every call of `name` with `handler`; its success or failure settles the call. */
  readonly handle: (name: string, handler: Invocations.Handler) => void
}

/**
 * The `tools` capability of a driver. A run that declared no tools gets {@link unavailable}, whose every operation
 * fails with `ToolsUnavailableError`.
 */
export interface Tools {
  /** Runtime control of a tool declared before OpenCode started. */
  readonly control: (
    name: string,
  ) => Effect.Effect<Invocations.Control, ToolNotControllableError | ToolsUnavailableError>
  /** Atomically replace the run's dynamic tool set (`{ tools: [] }` clears it). */
  readonly attach: (input: {
    readonly tools: ReadonlyArray<Tool.Registration>
  }) => Effect.Effect<void, Tool.LifecycleError | Tool.RegistrationError | ToolsUnavailableError>
  /** Take a dynamic tool invocation by the model's call id. */
  readonly take: (callID: string) => Effect.Effect<Tool.DynamicInvocation, Tool.LifecycleError | ToolsUnavailableError>
}

const unavailableError = (operation: string) =>
  new ToolsUnavailableError({
    message: `tools.${operation}: no tools are intercepted in this run; declare them before OpenCode starts, e.g. OpenCodeDriver.use({ tools: ["shell"] }, ...)`,
  })

/** The capability of a run that declared no tools. */
export const unavailable: Tools = {
  control: () => Effect.fail(unavailableError("control")),
  attach: () => Effect.fail(unavailableError("attach")),
  take: () => Effect.fail(unavailableError("take")),
}

/** How to build the adapters. */
export interface Options {
  /** Canonical tool names to intercept (`shell`/`bash`, `webfetch`, `websearch`, `write`). */
  readonly declared: ReadonlyArray<string>
  /** The callback form: registers fixed handlers (their tools are intercepted too). */
  readonly register?: (registry: ToolRegistry) => void
  /** How long a dropped adapter connection may stay away before its call counts as interrupted (default 3000). */
  readonly reconnectGraceMs?: number
}

/** A running set of adapters. */
export interface Adapters {
  /** Files to write under `<project>/.opencode/` before OpenCode starts (e.g. `tools/bash.ts`). */
  readonly files: Readonly<Record<string, string>>
  /** Environment the OpenCode server must get (the channel URL and bearer token, and switches some adapters need). */
  readonly env: Readonly<Record<string, string>>
  /** The live capability. */
  readonly tools: Tools
  /** Fails, naming their call IDs, when intercepted invocations were never taken or never settled. */
  readonly settle: Effect.Effect<void, ToolSettlementError>
  /** The invocations that currently block settlement. */
  readonly pending: () => ReadonlyArray<Invocations.PendingInvocation>
  /** The channel's address and token. */
  readonly channel: ControlChannel.ControlChannel
  /**
   * Show invocation progress live on OpenCode's tool parts, through the server's API. Call it once the OpenCode
   * server is up; until then progress still reaches the adapter, but the running tool part does not show it.
   */
  readonly showProgressIn: (server: ProgressDisplay.ServerAccess) => Effect.Effect<void>
}

const collectHandlers = (register: ((registry: ToolRegistry) => void) | undefined) =>
  Effect.suspend(() => {
    const handlers = new Map<string, Invocations.Handler>()
    if (register === undefined) return Effect.succeed(handlers)
    const problems: Array<string> = []
    register({
      handle: (name, handler) => {
        if (!isInterceptable(name)) problems.push(`"${name}" has no static adapter`)
        else if (handlers.has(name)) problems.push(`"${name}" is handled twice`)
        else handlers.set(name, handler)
      },
    })
    return problems.length === 0
      ? Effect.succeed(handlers)
      : Effect.fail(
          new ToolDeclarationError({
            message: `options.tools callback: ${problems.join("; ")}; interceptable tools are ${Object.keys(opencode1Names).join(", ")}`,
          }),
        )
  })

/**
 * Start the control channel in the current scope and generate the adapters. Fails with `ToolDeclarationError`
 * for a tool without a static adapter, `ToolChannelStartError` when the channel cannot listen.
 */
export const make = (options: Options) =>
  Effect.gen(function* () {
    const unknown = options.declared.filter((name) => !isInterceptable(name))
    if (unknown.length > 0) {
      return yield* new ToolDeclarationError({
        message: `options.tools names ${unknown.map((n) => `"${n}"`).join(", ")}, which Drive cannot intercept; interceptable tools are ${Object.keys(opencode1Names).join(", ")}`,
      })
    }
    const handlers = yield* collectHandlers(options.register)
    const staticTools = [...options.declared, ...handlers.keys()]
    if (staticTools.length === 0) {
      return yield* new ToolDeclarationError({
        message: "no tools to intercept: options.tools is empty and registers no handler",
      })
    }
    const display = ProgressDisplay.make()
    const hub = Invocations.make({
      declared: options.declared,
      handlers,
      reconnectGraceMs: options.reconnectGraceMs,
      display,
    })
    const channel = yield* ControlChannel.make(hub)
    const tools: Tools = {
      control: hub.control,
      attach: ({ tools }) =>
        Tool.validate(tools, staticTools).pipe(
          Effect.andThen(tools.length === 0 ? Effect.void : Effect.fail(Tool.unsupported("tools.attach"))),
        ),
      take: () => Effect.fail(Tool.unsupported("tools.take")),
    }
    return {
      files: AdapterSource.files(staticTools),
      env: { ...channel.env, ...AdapterSource.environment(staticTools) },
      tools,
      settle: hub.settle,
      pending: hub.pending,
      channel,
      showProgressIn: (server) => Effect.sync(() => display.connect(server)),
    } satisfies Adapters
  })

/**
 * What a tool-adapter implementation is told about a Drive run (the `ToolAdapters.prepare` input). This and the
 * rest of the seam below are declared only here; opencode-drive imports them.
 */
export interface Setup {
  /** Canonical names declared in `options.tools` (empty for the callback form). */
  readonly declared: ReadonlyArray<string>
  /** The callback form of `options.tools`, if used. */
  readonly register?: (registry: ToolRegistry) => void
  /** The project directory (OpenCode's working directory); the files go to its `.opencode/`. */
  readonly projectDir: string
  /** The run's log directory, for adapter logs. */
  readonly logsDir: string
  /** The environment every process of the run gets. */
  readonly env: Readonly<Record<string, string>>
}

/** How adapters reach the running OpenCode server (its public API). */
export type ServerAccess = ProgressDisplay.ServerAccess

/** What a tool-adapter implementation contributes to a Drive run. */
export interface Prepared {
  /** Files to write under `<project>/.opencode/` (relative paths, e.g. `tools/bash.ts`), before OpenCode starts. */
  readonly files: Readonly<Record<string, string>>
  /** OpenCode configuration merged after Drive's and before the script's `config`. */
  readonly config?: Readonly<Record<string, unknown>>
  /** Environment added to the OpenCode server. */
  readonly env?: Readonly<Record<string, string>>
  /** The live capability exposed as `driver.tools`. */
  readonly tools: Tools
  /** Settlement: fails, naming their call IDs, when intercepted invocations were never taken or never settled. */
  readonly settle: Effect.Effect<void, ToolSettlementError>
  /** Called once the OpenCode server answers, so progress shows live on OpenCode's tool parts. */
  readonly showProgressIn?: (server: ServerAccess) => Effect.Effect<void>
}

/** Why preparing the adapters can fail. */
export type PrepareError = ToolDeclarationError | ToolChannelStartError | ToolDependencyError

/**
 * Prepare the adapters for a Drive run (the `ToolAdapters.prepare` operation): start the channel in the run's
 * scope, and give `<project>/.opencode/` the `@opencode-ai/plugin` package the adapter files import (from this
 * package's installation, so OpenCode installs nothing; see `PluginPackage`).
 */
export const prepare = (setup: Setup): Effect.Effect<Prepared, PrepareError, Scope.Scope> =>
  Effect.gen(function* () {
    const { files, env, tools, settle, showProgressIn } = yield* make({
      declared: setup.declared,
      register: setup.register,
    })
    yield* Effect.try({
      try: () => PluginPackage.provideTo(Path.join(setup.projectDir, ".opencode")),
      catch: (cause) => new ToolDependencyError({ message: cause instanceof Error ? cause.message : String(cause) }),
    })
    return { files, env, tools, settle, showProgressIn }
  })

/**
 * The seam between opencode-drive and a tool-adapter implementation: Drive calls `prepare` in the run's scope
 * before OpenCode starts, writes the files, merges the config, adds the environment, exposes `tools` and runs
 * `settle` at settlement. Drive uses a provided service, else {@link layer}.
 */
export class ToolAdapters extends Context.Service<
  ToolAdapters,
  { readonly prepare: (setup: Setup) => Effect.Effect<Prepared, PrepareError, Scope.Scope> }
>()("opencode-drive/ToolAdapters") {}

/** The implementation opencode-drive uses by default. */
export const layer: Layer.Layer<ToolAdapters> = Layer.succeed(ToolAdapters, { prepare })
