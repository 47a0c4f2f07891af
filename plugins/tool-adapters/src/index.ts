/**
 * `@codemode/tool-adapters`: control OpenCode's built-in tools from an opencode-drive script.
 *
 * Static adapters are generated `.opencode/tools/<name>.ts` files that replace OpenCode's built-ins and report
 * each call to a loopback control channel; a script takes and settles the calls through `tools.control(name)`.
 * `layer` is the `ToolAdapters` service opencode-drive loads by default.
 */
export { canonicalName, isInterceptable, opencode1Names, opencodeName, toOffered } from "./ToolNames.js"
export * as AdapterSource from "./AdapterSource.js"
export * as BuiltinTools from "./BuiltinTools.js"
export * as ControlChannel from "./ControlChannel.js"
export * as Invocations from "./Invocations.js"
export * as ProgressDisplay from "./ProgressDisplay.js"
export * as PluginPackage from "./PluginPackage.js"
export * as Protocol from "./Protocol.js"
export * as Tool from "./Tool.js"
export * from "./Errors.js"
export type { Control, Handler, Invocation, PendingInvocation, ToolSuccess } from "./Invocations.js"
export { layer, make, prepare, ToolAdapters, unavailable } from "./ToolAdapters.js"
export type {
  Adapters,
  Options,
  Prepared,
  PrepareError,
  ServerAccess,
  Setup,
  ToolRegistry,
  Tools,
} from "./ToolAdapters.js"
