/**
 * Call frames: the environment a program function's call starts with, built in one allocation.
 *
 * A function with plain parameters (no defaults, patterns or rest) and no `arguments` gets its environment as one
 * array literal holding the parent link, the parameters in slots 1..np and `undefined` in every other slot (the
 * host JIT allocates a literal inline and keeps it packed). What only some functions need (TDZ markers, the
 * function's own name, `super`'s home object, `new.target`, hoisted function declarations) runs afterwards, in
 * their frame's prologue. Up to three parameters with patterns or defaults (no rest parameter) are bound by their
 * writers after the prologue, from the arguments themselves.
 */
import type { Value } from "../runtime/functions.js"
import { HOME } from "../runtime/internals.js"
import type { Writer } from "./context.js"
import { type Env, TDZ } from "./shared.js"

/**
 * What a call does after binding the parameters and `this`: TDZ markers, implicit bindings, hoisted function
 * declarations (`newTarget` is `undefined` for a call).
 */
export type Prologue = (env: Env, self: Value, newTarget: Value) => void

/** Binds up to three parameters that are patterns or have defaults, from the arguments (`undefined` when absent). */
export type Binder = (env: Env, a0: Value, a1: Value, a2: Value) => void

/** How a fast entry lays out its callee's environment. */
export interface Frame {
  /** Slots of the environment (slot 0 is the parent link); 0 when the function has none and runs in its parent's. */
  readonly size: number
  /** Plain parameters, in slots 1..np (0 when the parameters are bound by `bind`). */
  readonly np: number
  /** The slot of `this`, or -1 when the function does not read it. */
  readonly thisSlot: number
  /** The rest of the setup before the body (after `bind` when there is one), when the function needs any. */
  readonly prologue: Prologue | undefined
  /** Binds parameters that are patterns or have defaults, after the prologue; then `epilogue` runs. */
  readonly bind: Binder | undefined
  /** Hoisted declarations of a function whose parameters `bind` binds (they see the parameters' values). */
  readonly epilogue: ((env: Env) => void) | undefined
}

/** The binder of up to three parameter writers. */
export const binderOf = (writers: readonly Writer[]): Binder => {
  const [w0, w1, w2] = writers
  switch (writers.length) {
    case 0:
      return () => {}
    case 1:
      return (env, a0) => w0(env, a0)
    case 2:
      return (env, a0, a1) => {
        w0(env, a0)
        w1(env, a1)
      }
    default:
      return (env, a0, a1, a2) => {
        w0(env, a0)
        w1(env, a1)
        w2(env, a2)
      }
  }
}

/** The prologue of a frame: undefined when there is nothing to do beyond the parameters and `this`. */
export const framePrologue = (
  tdz: readonly number[],
  funcSlot: number,
  homeSlot: number,
  newTargetSlot: number,
  functions: ((env: Env) => void) | undefined,
): Prologue | undefined => {
  if (tdz.length === 0 && funcSlot < 0 && homeSlot < 0 && newTargetSlot < 0 && functions === undefined) return undefined
  return (env, self, newTarget) => {
    for (let i = 0; i < tdz.length; i++) env[tdz[i]] = TDZ
    if (funcSlot >= 0) env[funcSlot] = self
    if (homeSlot >= 0) env[homeSlot] = self[HOME]
    if (newTargetSlot >= 0) env[newTargetSlot] = newTarget
    if (functions !== undefined) functions(env)
  }
}

/**
 * A new environment of `size` slots (at least 1): the parent link `p`, then `a0`, `a1`, `a2` in the first `np`
 * parameter slots (`np` at most 3), every other slot `undefined`. Up to 8 slots it is an array literal (small enough
 * for the host JIT to inline into the entry); a larger one is made by `largeEnvironment`.
 */
export const environment3 = (size: number, np: number, p: Env, a0: Value, a1: Value, a2: Value): Env => {
  const b0 = np > 0 ? a0 : undefined
  const b1 = np > 1 ? a1 : undefined
  const b2 = np > 2 ? a2 : undefined
  switch (size) {
    case 1:
      return [p]
    case 2:
      return [p, b0]
    case 3:
      return [p, b0, b1]
    case 4:
      return [p, b0, b1, b2]
    case 5:
      return [p, b0, b1, b2, undefined]
    case 6:
      return [p, b0, b1, b2, undefined, undefined]
    default:
      return largeEnvironment(size, p, b0, b1, b2)
  }
}

/** An environment of more than 6 slots: an array literal up to 12 slots, else allocated by its length. */
const largeEnvironment = (size: number, p: Env, b0: Value, b1: Value, b2: Value): Env => {
  const u = undefined
  switch (size) {
    case 7:
      return [p, b0, b1, b2, u, u, u]
    case 8:
      return [p, b0, b1, b2, u, u, u, u]
    case 9:
      return [p, b0, b1, b2, u, u, u, u, u]
    case 10:
      return [p, b0, b1, b2, u, u, u, u, u, u]
    case 11:
      return [p, b0, b1, b2, u, u, u, u, u, u, u]
    case 12:
      return [p, b0, b1, b2, u, u, u, u, u, u, u, u]
    default: {
      // Slots past the ones written are holes, which read as `undefined`.
      const env: Env = new Array(size)
      env[0] = p
      env[1] = b0
      env[2] = b1
      env[3] = b2
      return env
    }
  }
}

/** A new environment of `size` slots (at least 1) below `p`, every other slot `undefined` (a block's, a program's). */
export const blankEnvironment = (size: number, p: Env | undefined): Env =>
  environment3(size, 0, p as Env, undefined, undefined, undefined)

/** A new environment as `environment3` makes it, the `np` parameters (any number) taken from an argument list. */
export const environmentOf = (size: number, np: number, p: Env, args: Value[]): Env => {
  const n = args.length
  const env = environment3(
    size,
    np < 3 ? np : 3,
    p,
    n > 0 ? args[0] : undefined,
    n > 1 ? args[1] : undefined,
    n > 2 ? args[2] : undefined,
  )
  for (let i = 3; i < np; i++) env[i + 1] = i < n ? args[i] : undefined
  return env
}
