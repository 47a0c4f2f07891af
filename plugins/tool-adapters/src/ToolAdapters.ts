/**
 * Everything a Drive run needs to intercept OpenCode's tools, in one scoped constructor: the adapter files to
 * write under `.opencode/` before OpenCode starts, the environment the OpenCode server needs, the live `tools`
 * capability, and the settlement check. `layer` provides it as opencode-drive's `ToolAdapters` service (matched by
 * service key, so neither package imports the other).
 */
import { Context, Effect, Layer, type Scope } from "effect"
import * as AdapterSource from "./AdapterSource.js"
import * as ControlChannel from "./ControlChannel.js"
import {
  type ToolChannelStartError,
  ToolDeclarationError,
  type ToolNotControllableError,
  type ToolSettlementError,
} from "./Errors.js"
import * as Invocations from "./Invocations.js"
import * as ProgressDisplay from "./ProgressDisplay.js"
import * as Tool from "./Tool.js"
import { isInterceptable, opencode1Names } from "./ToolNames.js"

/** Fixed handlers for the callback form of `options.tools`. */
export interface ToolRegistry {
  /** Handle every call of `name` with `handler`; its success or failure settles the call. */
  readonly handle: (name: string, handler: Invocations.Handler) => void
}

/** The `tools` capability of a driver. */
export interface Tools {
  /** Runtime control of a tool declared before OpenCode started. */
  readonly control: (name: string) => Effect.Effect<Invocations.Control, ToolNotControllableError>
  /** Atomically replace the run's dynamic tool set (`{ tools: [] }` clears it). */
  readonly attach: (input: {
    readonly tools: ReadonlyArray<Tool.Registration>
  }) => Effect.Effect<void, Tool.LifecycleError | Tool.RegistrationError>
  /** Take a dynamic tool invocation by the model's call id. */
  readonly take: (callID: string) => Effect.Effect<never, Tool.LifecycleError>
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

/** What opencode-drive tells the adapters about the run (its `ToolAdapterSetup`). */
export interface Setup {
  readonly declared: ReadonlyArray<string>
  readonly register?: (registry: ToolRegistry) => void
  readonly projectDir: string
  readonly logsDir: string
  readonly env: Readonly<Record<string, string>>
}

/** What opencode-drive expects back (its `PreparedToolAdapters`). */
export interface Prepared {
  readonly files: Readonly<Record<string, string>>
  readonly env: Readonly<Record<string, string>>
  readonly tools: Tools
  readonly settle: Effect.Effect<void, ToolSettlementError>
  /** See {@link Adapters.showProgressIn}; Drive calls it once the OpenCode server is up. */
  readonly showProgressIn: (server: ProgressDisplay.ServerAccess) => Effect.Effect<void>
}

/** Prepare the adapters for a Drive run (the `ToolAdapters.prepare` operation). */
export const prepare = (
  setup: Setup,
): Effect.Effect<Prepared, ToolDeclarationError | ToolChannelStartError, Scope.Scope> =>
  Effect.map(
    make({ declared: setup.declared, register: setup.register }),
    ({ files, env, tools, settle, showProgressIn }) => ({
      files,
      env,
      tools,
      settle,
      showProgressIn,
    }),
  )

/** opencode-drive's tool-adapter service, under its service key. */
export class ToolAdapters extends Context.Service<
  ToolAdapters,
  {
    readonly prepare: (
      setup: Setup,
    ) => Effect.Effect<Prepared, ToolDeclarationError | ToolChannelStartError, Scope.Scope>
  }
>()("opencode-drive/ToolAdapters") {}

/** The layer opencode-drive loads by default. */
export const layer: Layer.Layer<ToolAdapters> = Layer.succeed(ToolAdapters, { prepare })
