/**
 * `@codemode/core`: the CodeMode kernel.
 */
export * as Data from "./Data.js"
export * as Diagnostic from "./Diagnostic.js"
export * as Recorder from "./Recorder.js"
export * as Sandbox from "./sandbox/protocol.js"
export type { DataValue } from "./Data.js"
