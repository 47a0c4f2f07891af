/**
 * The work meter: a fuel counter charged at loop back-edges, calls, promise jobs and by built-ins in proportion to
 * the data they touch. Compiled code decrements `rt.fuel` inline and calls `refuel` when it runs out; `refuel`
 * enforces the fixed work budget and checks the host's deadline.
 */
import { memoryNearlyFull, outOfMemoryMessage } from "@codemode/core/sandbox"
import { DEADLINE_CHECK_INTERVAL, MAX_CALL_DEPTH, WORK_BUDGET } from "../limits.js"
import type { Location } from "@codemode/core/sandbox"
import { fatal } from "./errors.js"
import { rt } from "./state.js"

let allowance = 0
let deadline = Infinity
let budget = WORK_BUDGET

/** Lower the work budget (tests exercise the limit without spending billions of steps); no argument restores it. */
export const setWorkBudget = (units: number = WORK_BUDGET): void => {
  budget = units
}

/** Start metering a new execution. */
export const resetMeter = (hostDeadline: number): void => {
  deadline = hostDeadline
  rt.spent = 0
  allowance = Math.min(DEADLINE_CHECK_INTERVAL, budget)
  rt.fuel = allowance
}

/** Called when `rt.fuel` drops below zero: account the spent allowance, enforce the budget and the deadline. */
export const refuel = (location?: Location): void => {
  rt.spent += allowance - rt.fuel
  if (rt.spent >= budget) {
    rt.fuel = -1
    allowance = -1
    fatal(
      "ExecutionFailure",
      `The program exceeded its work budget of ${budget} steps (an endless loop or too much computation)`,
      location ?? rt.loc,
    )
  }
  if (deadline !== Infinity && Date.now() > deadline) {
    fatal("TimeoutExceeded", "The execution timed out", location ?? rt.loc)
  }
  if (memoryNearlyFull()) fatal("ExecutionFailure", outOfMemoryMessage, location ?? rt.loc)
  allowance = Math.min(DEADLINE_CHECK_INTERVAL, budget - rt.spent)
  rt.fuel = allowance
}

/**
 * Units a built-in charges for each item it creates (a string piece, a match, an entry pair, a property key): an
 * allocation costs the host about as much as a dozen elements moved. Everything else a built-in does is charged one
 * unit per element, character or entry it reads or writes, so that no built-in's work outruns its charge.
 */
export const ITEM_UNITS = 16

/**
 * Charge `units` of work for a built-in that touches that many elements or characters. Anything but a positive
 * number charges nothing (a `NaN` or negative count must never add fuel).
 */
export const charge = (units: number): void => {
  if (!(units > 0)) {
    if (rt.fuel < 0) refuel()
    return
  }
  rt.fuel -= units
  if (rt.fuel < 0) refuel()
}

/** Fail because the call stack is deeper than the interpreter allows. */
export const tooDeep = (location?: Location): never =>
  fatal(
    "ExecutionFailure",
    `Maximum call depth of ${MAX_CALL_DEPTH} exceeded (unbounded recursion?)`,
    location ?? rt.loc,
  )
