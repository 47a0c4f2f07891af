/**
 * `opencode-drive`: drive the real OpenCode TUI end to end with a scripted, simulated LLM.
 */
export * as OpenCodeDriver from "./OpenCodeDriver.js"
export * as Llm from "./Llm.js"
export * as Errors from "./Errors.js"
export * as ToolNames from "./fake-llm/ToolNames.js"
export * as FakeLlm from "./fake-llm/FakeLlm.js"
export * as Keys from "./tui/Keys.js"
export * as ScreenSnapshot from "./tui/ScreenSnapshot.js"
export { driveConfig } from "./VitestConfig.js"
export { defineScript, isScript, runScript, runScriptReport } from "./Script.js"
export type { Script, ScriptContext, ScriptDefinition, ScriptServer, SetupContext } from "./Script.js"
export type { Driver, RunArtifacts, RunPaths, RunReport, ServerInfo } from "./Driver.js"
export type { DriverOptions, OpenCodeOptions, ProjectOptions } from "./Options.js"
export type { Recording, Tui, TuiOptions, Tuis, Viewport } from "./tui/Tuis.js"
export type { ClickOptions, IdleOptions, Screen, ScreenCondition, Ui, UiNodeQuery, WaitOptions } from "./tui/Ui.js"
export type { LlmControl, LlmSummary, LlmWaitOptions, ResponseHandler } from "./fake-llm/FakeLlm.js"
export type { ChatMessage, LlmRequest, ToolDefinition } from "./fake-llm/Requests.js"
export type { CompatibilityReport } from "./opencode/Compatibility.js"
export type { EffectApi, EffectMethod, OpenCodeClient } from "./opencode/Client.js"
export type { ProjectFs } from "./run/ProjectFs.js"
export type { Retention } from "./run/RunDirectory.js"
export { ToolAdapters } from "./tools/ToolAdapters.js"
export type { PreparedToolAdapters, ServerAccess, ToolAdapterSetup } from "./tools/ToolAdapters.js"
export type {
  DynamicInvocation,
  DynamicToolRegistration,
  DynamicToolUpdate,
  ToolContent,
  ToolControl,
  ToolError,
  ToolInvocation,
  ToolRegistry,
  Tools,
  ToolsOption,
  ToolSuccess,
} from "./tools/Tools.js"
