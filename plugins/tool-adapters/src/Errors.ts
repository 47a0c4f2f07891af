/**
 * The tagged errors of the tool adapters. Each carries a `message` saying what happened and what to do, so they
 * satisfy opencode-drive's `ToolError` shape (`{ _tag, message }`).
 */
import { Data } from "effect"

/** A tool name was not declared before OpenCode started, or is handled by a fixed callback. */
export class ToolNotControllableError extends Data.TaggedError("ToolNotControllableError")<{
  readonly message: string
  readonly tool: string
}> {}

/** An invocation was settled (or given progress) after it had already settled or been interrupted. */
export class InvocationSettledError extends Data.TaggedError("InvocationSettledError")<{
  readonly message: string
  readonly callID: string
}> {}

/** The run's scope closed while a `take` was still waiting. */
export class ToolChannelClosedError extends Data.TaggedError("ToolChannelClosedError")<{
  readonly message: string
}> {}

/** Settlement found intercepted invocations that were never taken or never settled. */
export class ToolSettlementError extends Data.TaggedError("ToolSettlementError")<{
  readonly message: string
  /** The model call IDs of the offending invocations. */
  readonly callIDs: ReadonlyArray<string>
}> {}

/** The control channel could not start (for example, no loopback port). */
export class ToolChannelStartError extends Data.TaggedError("ToolChannelStartError")<{
  readonly message: string
}> {}

/** A declared tool name is unknown, or the declaration is otherwise invalid. */
export class ToolDeclarationError extends Data.TaggedError("ToolDeclarationError")<{
  readonly message: string
}> {}

/** The `@opencode-ai/plugin` package the generated adapters import is not installed where it should be. */
export class ToolDependencyError extends Data.TaggedError("ToolDependencyError")<{
  readonly message: string
}> {}

/** Tool control was used in a run that declared no tools, or no tool-adapter implementation is available. */
export class ToolsUnavailableError extends Data.TaggedError("ToolsUnavailableError")<{
  readonly message: string
}> {}
