/**
 * List-free entries of built-ins. A call site with at most three arguments calls a function's `CALL3` entry with the
 * arguments themselves and their count, where a built-in without one gets a new argument list per call (the list,
 * not the work, was most of the cost of a call such as `String.fromCharCode(c)` in a loop). A built-in given an
 * entry here takes its common cases straight from the arguments and hands every other call, with the list the call
 * would have had, to its list-taking implementation: one behaviour, two ways in.
 */
import { type Call3Impl, CALL, type Value } from "../runtime/functions.js"
import { CALL3 } from "../runtime/internals.js"

/** The list-taking implementation of the built-in `fn`, for the calls its entry does not take itself. */
export const listEntry = (fn: Value): ((thisValue: Value, args: Value[], self: Value) => Value) => fn[CALL]

/** Give the built-in function object `fn` (made by `defineMethod` or `makeNative`) the list-free entry `entry`. */
export const giveEntry3 = (fn: Value, entry: Call3Impl): void => {
  fn[CALL3] = entry
}
