/**
 * The `tools` capability of a driver under Drive's public names. The shapes are declared once, by
 * `@codemode/tool-adapters` (the implementation Drive uses by default); these are aliases of them, so a script
 * and the adapters are checked against the same types.
 */
import type {
  Control,
  Invocation,
  InvocationSettledError,
  Tool,
  ToolChannelClosedError,
  ToolNotControllableError,
  ToolRegistry as AdaptersToolRegistry,
  Tools as AdaptersTools,
  ToolSuccess as AdaptersToolSuccess,
  ToolsUnavailableError,
} from "@codemode/tool-adapters"

/** Any error a tool operation reports. */
export type ToolError =
  | ToolNotControllableError
  | ToolsUnavailableError
  | InvocationSettledError
  | ToolChannelClosedError
  | Tool.LifecycleError
  | Tool.RegistrationError

/** The terminal result of an intercepted built-in tool call. */
export type ToolSuccess = AdaptersToolSuccess

/** One intercepted invocation of a statically declared built-in tool. */
export type ToolInvocation = Invocation

/** Runtime control of one declared tool. */
export type ToolControl = Control

/** Content of a dynamic tool's progress or result. */
export type ToolContent = Tool.Content

/** A dynamically attached tool (canonical JSON Schema input). */
export type DynamicToolRegistration = Tool.Registration

/** Structured and display content of a dynamic tool update. */
export type DynamicToolUpdate = Tool.Update

/** One invocation of a dynamically attached tool. */
export type DynamicInvocation = Tool.DynamicInvocation

/** The `tools` capability of a driver. */
export type Tools = AdaptersTools

/** Fixed handlers for the callback form of `options.tools`. */
export type ToolRegistry = AdaptersToolRegistry

/** `options.tools`: canonical built-in names to intercept, or a callback registering fixed handlers. */
export type ToolsOption = ReadonlyArray<string> | ((registry: ToolRegistry) => void)
