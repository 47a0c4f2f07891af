/**
 * `@codemode/core/plugin`: what language, tool-source and recorder plugins need beyond the host API: the signature
 * dialect and the type model behind signatures, the tool tree, and the sandbox contract's types.
 */
export * as Language from "./Language.js"
export * as Options from "./Options.js"
export * as Recorder from "./Recorder.js"
export type * as Sandbox from "./sandbox/protocol.js"
export * as Signature from "./Signature.js"
export * as Suggest from "./Suggest.js"
export * as ToolTree from "./ToolTree.js"
export * as TypeModel from "./TypeModel.js"
