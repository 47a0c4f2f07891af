/**
 * `@codemode/core`: the CodeMode kernel: tools, namespaces, extensions, hooks, limits, results, discovery and the
 * sandbox worker pool.
 */
export * as CodeMode from "./CodeMode.js"
export * as Data from "./Data.js"
export * as Diagnostic from "./Diagnostic.js"
export * as Extension from "./Extension.js"
export * as Hooks from "./Hooks.js"
export * as Language from "./Language.js"
export * as Limits from "./Limits.js"
export * as Namespace from "./Namespace.js"
export * as Recorder from "./Recorder.js"
export * as Result from "./Result.js"
export * as Sandbox from "./sandbox/protocol.js"
export * as Search from "./Search.js"
export * as Signature from "./Signature.js"
export * as Tool from "./Tool.js"
export * as ToolSource from "./ToolSource.js"
export * as ToolTree from "./ToolTree.js"
export * as TypeModel from "./TypeModel.js"
export { SandboxPool, type PoolOptions } from "./sandbox/Pool.js"
export type { DataValue } from "./Data.js"
