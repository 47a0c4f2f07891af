/**
 * The public `OpenCodeDriver` namespace: `use`, `useReport` and `make`, and the driver's types.
 */
export { make, use, useReport } from "./Driver.js"
export type { Driver, Program, RunArtifacts, RunPaths, RunReport, ServerInfo, SetupContext } from "./Driver.js"
