/**
 * `@codemode/core`: the host API of the CodeMode kernel: tools, namespaces, extensions, hooks, limits, results and
 * diagnostics, discovery, the sandbox pool, and the layers a runtime is assembled from. What plugins need beyond
 * this is in `@codemode/core/plugin`; what runs inside the sandbox is in `@codemode/core/sandbox`.
 */
export * as CodeMode from "./CodeMode.js"
export * as Contributions from "./Contributions.js"
export * as Data from "./Data.js"
export * as Diagnostic from "./Diagnostic.js"
export * as Extension from "./Extension.js"
export * as Hooks from "./Hooks.js"
export * as Language from "./Language.js"
export * as Limits from "./Limits.js"
export * as Namespace from "./Namespace.js"
export * as Recorder from "./Recorder.js"
export * as Result from "./Result.js"
export * as Search from "./Search.js"
export * as Tool from "./Tool.js"
export * as ToolSource from "./ToolSource.js"
export { machineDefaults, SandboxPool, type PoolOptions } from "./sandbox/Pool.js"
export type { DataValue } from "./Data.js"
