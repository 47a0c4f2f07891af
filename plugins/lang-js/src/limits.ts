/**
 * The interpreter's fixed bounds. They hold no matter what limits the host configures: the host's `timeoutMs`,
 * `maxToolCalls` and `maxOutputBytes` come on top of these.
 */
import { dataBounds } from "@codemode/core/sandbox"

/** Largest program source, in UTF-16 code units. */
export const MAX_SOURCE_LENGTH = 1_000_000

/** Deepest nesting of syntax nodes (expressions inside expressions, blocks inside blocks...). */
export const MAX_SYNTAX_DEPTH = 400

/**
 * Units of work a program may spend. One unit is charged at every loop iteration, every function call and every
 * promise job; built-ins charge in proportion to the elements or characters they touch.
 */
export const WORK_BUDGET = 2_000_000_000

/**
 * Syntax nodes per unit of work charged at a loop iteration or a call: a loop body or function of up to this many
 * nodes costs one unit per run, a larger one proportionally more, so the budget and the deadline checks keep pace
 * with the work however large a loop body is.
 */
export const NODES_PER_STEP = 8

/** Work units between two checks of the host's deadline. */
export const DEADLINE_CHECK_INTERVAL = 100_000

/** Deepest chain of nested calls (JavaScript functions, built-ins calling back, getters). */
export const MAX_CALL_DEPTH = 2_000

/** Longest string a program may build, in UTF-16 code units (32 Mi). */
export const MAX_STRING_LENGTH = 32 * 1024 * 1024

/** Longest array a program may build (8 Mi elements). */
export const MAX_ARRAY_LENGTH = 8 * 1024 * 1024

/** Longest string a regular expression may run on (4 Mi code units). */
export const MAX_REGEX_INPUT = 4 * 1024 * 1024

/** Deepest nesting of a value crossing the data boundary (the data contract's bound). */
export const MAX_DATA_DEPTH = dataBounds.maxDepth

/** Largest value crossing the data boundary, as the length of its JSON text (the data contract's bound). */
export const MAX_DATA_BYTES = dataBounds.maxBytes

/** Deepest nesting `JSON.stringify`, `console.log` and `structuredClone` follow before giving up. */
export const MAX_NESTING = 1_000
