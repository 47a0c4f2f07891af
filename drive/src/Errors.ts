/**
 * The tagged errors of opencode-drive. Every error carries a `message` that says what happened and what to do.
 */
import { Recorder } from "@codemode/core"
import {
  Tool,
  type ToolChannelStartError,
  type ToolDeclarationError,
  type ToolDependencyError,
  type ToolSettlementError,
  type ToolsUnavailableError,
} from "@codemode/tool-adapters"
import { Data } from "effect"
import type { ToolError } from "./tools/Tools.js"

/** The options passed to `make`/`use`/`defineScript` (or a capability call) are invalid. */
export class InvalidOptionsError extends Data.TaggedError("InvalidOptionsError")<{
  readonly message: string
}> {}

/** The run directory or the project could not be prepared (files, git). */
export class ProjectSetupError extends Data.TaggedError("ProjectSetupError")<{
  readonly message: string
  readonly cause?: unknown
}> {}

/** The OpenCode server could not be started or did not become healthy in time. */
export class OpenCodeStartError extends Data.TaggedError("OpenCodeStartError")<{
  readonly message: string
  readonly logTail: string
}> {}

/** The OpenCode server exited while the run was going on. */
export class OpenCodeExitedError extends Data.TaggedError("OpenCodeExitedError")<{
  readonly message: string
  readonly exitCode: number | null
  readonly signal: string | null
  readonly logTail: string
}> {}

/** A call of the OpenCode SDK client (`driver.opencode`) failed: the server answered with an error or was unreachable. */
export class OpenCodeApiError extends Data.TaggedError("OpenCodeApiError")<{
  readonly message: string
  /** The SDK method, e.g. `session.messages`. */
  readonly operation: string
  /** The HTTP status, when the server answered. */
  readonly status: number | undefined
  /** The server's error body, when it answered. */
  readonly body: unknown
}> {}

/** `opencode.compatibility: "required"` asked for a capability the running OpenCode does not offer. */
export class CompatibilityError extends Data.TaggedError("CompatibilityError")<{
  readonly message: string
  readonly opencodeVersion: string
}> {}

/** A TUI did not show its prompt in time. */
export class TuiLaunchError extends Data.TaggedError("TuiLaunchError")<{
  readonly message: string
  readonly tui: string
  readonly screen: string
}> {}

/** A TUI process exited while it was being used. */
export class TuiExitedError extends Data.TaggedError("TuiExitedError")<{
  readonly message: string
  readonly tui: string
  readonly exitCode: number
  readonly signal: number | null
  readonly screen: string
}> {}

/** A UI wait timed out; `screen` is the screen text at that moment. */
export class UiTimeoutError extends Data.TaggedError("UiTimeoutError")<{
  readonly message: string
  readonly tui: string
  readonly condition: string
  readonly timeoutMs: number
  readonly screen: string
}> {}

/** The screen did not match a stored text snapshot (`ui.assertScreen`). */
export class ScreenMismatchError extends Data.TaggedError("ScreenMismatchError")<{
  readonly message: string
  /** The snapshot file. */
  readonly snapshot: string
  /** The stored text and the screen's, both masked. */
  readonly expected: string
  readonly actual: string
}> {}

/** The running OpenCode does not offer a UI capability (for example semantic snapshots in OpenCode 1.x). */
export class UiCapabilityError extends Data.TaggedError("UiCapabilityError")<{
  readonly message: string
  readonly operation: string
}> {}

/** An LLM output was not schema-valid or a response was malformed (for example output after a terminal output). */
export class LlmOutputError extends Data.TaggedError("LlmOutputError")<{
  readonly message: string
}> {}

/** An `llm.send` response was not streamed in time. */
export class LlmTimeoutError extends Data.TaggedError("LlmTimeoutError")<{
  readonly message: string
  readonly timeoutMs: number
}> {}

/** Settlement found queued responses nobody asked for, responses still streaming, or failed `serve` streams. */
export class LlmSettlementError extends Data.TaggedError("LlmSettlementError")<{
  readonly message: string
  readonly unusedResponses: ReadonlyArray<string>
  readonly unfinishedResponses: ReadonlyArray<string>
}> {}

/** The driver was already settled; no new TUIs or LLM responses are accepted. */
export class DriverSettledError extends Data.TaggedError("DriverSettledError")<{
  readonly message: string
  readonly operation: string
}> {}

/**
 * The scope of `OpenCodeDriver.make` closed without `driver.settle()`. Drive settled the run itself (recordings
 * are written); `lost` lists what the program never got to see: the report, and any settlement failure.
 */
export class DriverNotSettledError extends Data.TaggedError("DriverNotSettledError")<{
  readonly message: string
  readonly lost: ReadonlyArray<string>
  /** Recording files written by that settlement. */
  readonly recordings: ReadonlyArray<string>
}> {}

/** A `defineScript` definition is not Effect-only or not a script at all. */
export class ScriptDefinitionError extends Data.TaggedError("ScriptDefinitionError")<{
  readonly message: string
}> {}

/**
 * The tool errors, declared by `@codemode/tool-adapters` (the seam's owner) and re-exported here: `Tool` holds
 * `LifecycleError` and `RegistrationError` of the dynamic lifecycle.
 */
export {
  InvocationSettledError,
  Tool,
  ToolChannelClosedError,
  ToolChannelStartError,
  ToolDeclarationError,
  ToolDependencyError,
  ToolNotControllableError,
  ToolSettlementError,
  ToolsUnavailableError,
} from "@codemode/tool-adapters"

/** The dynamic tool lifecycle is not available in the running OpenCode. */
export const LifecycleError: typeof Tool.LifecycleError = Tool.LifecycleError
export type LifecycleError = Tool.LifecycleError

/** A dynamic tool registration is invalid (for example, it collides with a static adapter). */
export const RegistrationError: typeof Tool.RegistrationError = Tool.RegistrationError
export type RegistrationError = Tool.RegistrationError

/** A screenshot, asciicast or video could not be produced (from the `Recorder` service). */
export const RecorderError: typeof Recorder.RecorderError = Recorder.RecorderError
export type RecorderError = Recorder.RecorderError

/** Every error a driver operation can fail with. */
export type DriverError =
  | InvalidOptionsError
  | ProjectSetupError
  | OpenCodeStartError
  | OpenCodeExitedError
  | OpenCodeApiError
  | CompatibilityError
  | TuiLaunchError
  | TuiExitedError
  | UiTimeoutError
  | ScreenMismatchError
  | UiCapabilityError
  | LlmOutputError
  | LlmTimeoutError
  | LlmSettlementError
  | DriverSettledError
  | ScriptDefinitionError
  | ToolsUnavailableError
  | ToolSettlementError
  | ToolDeclarationError
  | ToolChannelStartError
  | ToolDependencyError
  | ToolError
  | RecorderError
