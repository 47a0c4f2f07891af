/**
 * The `tools` capability: control of OpenCode's tool invocations from a script. Drive defines the shapes; the
 * implementation comes from a `ToolAdapters` service (by default `@codemode/tool-adapters`), which generates the
 * adapter files before OpenCode starts. Without declared tools, every operation fails with
 * `ToolsUnavailableError`.
 */
import { Effect } from "effect"
import { ToolsUnavailableError } from "../Errors.js"

/** Any tagged error a tool operation reports. */
export interface ToolError {
  readonly _tag: string
  readonly message: string
}

/** The terminal result of an intercepted built-in tool call. */
export interface ToolSuccess {
  readonly output: string
  readonly exit?: number
  readonly metadata?: Readonly<Record<string, unknown>>
}

/** One intercepted invocation of a statically declared built-in tool. */
export interface ToolInvocation {
  /** The adapter's transport identity of this invocation. */
  readonly id: string
  /** The model's tool-call id (`Llm.toolCall({ id })`). */
  readonly callID: string
  /** The canonical tool name (`shell` for OpenCode 1.x `bash`). */
  readonly tool: string
  readonly input: unknown
  /** Stream progress to OpenCode (shown in the TUI). */
  readonly progress: (update: unknown) => Effect.Effect<void, ToolError>
  /** Settle successfully; an invocation settles exactly once. */
  readonly succeed: (result: ToolSuccess) => Effect.Effect<void, ToolError>
  /** Settle with a failure the model sees. */
  readonly fail: (error: unknown) => Effect.Effect<void, ToolError>
  /** Completes when OpenCode aborts the call or the transport breaks before settlement. */
  readonly awaitInterrupted: () => Effect.Effect<void>
}

/** Runtime control of one declared tool. */
export interface ToolControl {
  /** Reserve the invocation with this model call id, or the oldest unclaimed one. */
  readonly take: (callID?: string) => Effect.Effect<ToolInvocation, ToolError>
}

/** Content of a dynamic tool's progress or result. */
export type ToolContent =
  | { readonly type: "text"; readonly text: string }
  | { readonly type: string; readonly [key: string]: unknown }

/** A dynamically attached tool (canonical JSON Schema input). */
export interface DynamicToolRegistration {
  readonly name: string
  readonly description: string
  readonly inputSchema: unknown
  readonly namespace?: string
  readonly permission?: unknown
  readonly options?: { readonly codemode?: boolean }
}

/** Structured and display content of a dynamic tool update. */
export interface DynamicToolUpdate {
  readonly structured?: unknown
  readonly content?: ReadonlyArray<ToolContent>
}

/** One invocation of a dynamically attached tool. */
export interface DynamicInvocation {
  readonly id: string
  readonly callID: string
  readonly name: string
  readonly input: unknown
  readonly progress: (update: DynamicToolUpdate) => Effect.Effect<void, ToolError>
  readonly finish: (result: DynamicToolUpdate) => Effect.Effect<void, ToolError>
  /** Completes when OpenCode cancels the invocation. */
  readonly awaitCancelled: () => Effect.Effect<void>
}

/** The `tools` capability of a driver. */
export interface Tools {
  /** Runtime control of a tool declared in `options.tools`. */
  readonly control: (name: string) => Effect.Effect<ToolControl, ToolError>
  /** Atomically replace the run's dynamic tool set (`{ tools: [] }` clears it). */
  readonly attach: (input: { readonly tools: ReadonlyArray<DynamicToolRegistration> }) => Effect.Effect<void, ToolError>
  /** Take a dynamic tool invocation by the model's call id. */
  readonly take: (callID: string) => Effect.Effect<DynamicInvocation, ToolError>
}

/** Fixed handlers for the callback form of `options.tools`. */
export interface ToolRegistry {
  readonly handle: (name: string, handler: (invocation: ToolInvocation) => Effect.Effect<ToolSuccess, unknown>) => void
}

/** `options.tools`: canonical built-in names to intercept, or a callback registering fixed handlers. */
export type ToolsOption = ReadonlyArray<string> | ((registry: ToolRegistry) => void)

const unavailable = (operation: string) =>
  new ToolsUnavailableError({
    message: `tools.${operation}: no tools are intercepted in this run; declare them before OpenCode starts, e.g. OpenCodeDriver.use({ tools: ["shell"] }, ...)`,
  })

/** The capability of a run that declared no tools. */
export const unavailableTools: Tools = {
  control: () => Effect.fail(unavailable("control")),
  attach: () => Effect.fail(unavailable("attach")),
  take: () => Effect.fail(unavailable("take")),
}
