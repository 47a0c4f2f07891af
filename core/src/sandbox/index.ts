/**
 * `@codemode/core/sandbox`: the contract between the sandbox and a language runtime, for the code that runs inside
 * the sandbox. Effect-free and small: the protocol types, the data contract's bounds and path format, its copy, and
 * the diagnostic maker, so that every language reports the same bounds in the same words.
 */
export type * from "./protocol.js"
export {
  copyData,
  type CopyBounds,
  DataError,
  dataProblems,
  type DataValue,
  defaultCopyBounds as dataBounds,
  indexPath,
  isDataObject,
  keyPath,
} from "../Data.js"
export { isKind, kinds, make as diagnostic } from "../Diagnostic.js"
export { HEAP_PRESSURE_SHARE, heapHasRoom, memoryNearlyFull, outOfMemoryMessage } from "./memory.js"
