/**
 * Function entries: the `CALL`, `CALL3` and `CONSTRUCT` behaviours of program functions. Each entry charges the
 * work meter (`steps` units, in proportion to the size of the body), enforces the call depth, builds the callee's
 * environment and runs the compiled body.
 *
 * The hot entry of a function with plain parameters builds its environment as one array literal (the host JIT
 * allocates it inline); every other function goes through its `setup`.
 */
import { MAX_CALL_DEPTH } from "../limits.js"
import type { Location } from "@codemode/core/sandbox"
import { caught, throwTypeError } from "../runtime/errors.js"
import { type Call3Impl, type CallImpl, type ConstructImpl, isObject, type Value } from "../runtime/functions.js"
import { ENV } from "../runtime/internals.js"
import { refuel, tooDeep } from "../runtime/meter.js"
import { makeAsyncGenerator, makeGenerator, runAsync, type Body } from "../runtime/generators.js"
import { newPromise, rejectPromise, resolvePromise } from "../runtime/promises.js"
import type { Realm } from "../runtime/realm.js"
import { rt } from "../runtime/state.js"
import { initializeInstance, prototypeFor, superConstruct, tdzError } from "./ops.js"
import { type Env, type Expr, TDZ } from "./shared.js"

/** Builds a callee's environment: `this`, arguments, implicit bindings, parameters, hoisted functions. */
export type Setup = (thisValue: Value, args: Value[], self: Value, newTarget: Value) => Env

/** `CALL` through the function's setup. */
export const genericCall =
  (setup: Setup, body: Expr, steps: number): CallImpl =>
  (thisValue, args, self) => {
    if ((rt.fuel -= steps) < 0) refuel()
    if (++rt.depth > MAX_CALL_DEPTH) tooDeep()
    const r = body(setup(thisValue, args, self, undefined))
    rt.depth--
    return r
  }

/**
 * `CALL` of a function whose environment is its parent link, its parameters in slots 1..np and other slots
 * starting undefined (`size` slots in all, at most 8), with `this` in `thisSlot` when it reads `this`.
 */
export const inlineEnvironmentCall = (
  size: number,
  np: number,
  thisSlot: number,
  body: Expr,
  steps: number,
): CallImpl => {
  return (thisValue, args, self) => {
    if ((rt.fuel -= steps) < 0) refuel()
    if (++rt.depth > MAX_CALL_DEPTH) tooDeep()
    const p = self[ENV]
    let env: Env
    switch (size) {
      case 1:
        env = [p]
        break
      case 2:
        env = [p, np > 0 ? args[0] : undefined]
        break
      case 3:
        env = [p, np > 0 ? args[0] : undefined, np > 1 ? args[1] : undefined]
        break
      case 4:
        env = [p, np > 0 ? args[0] : undefined, np > 1 ? args[1] : undefined, np > 2 ? args[2] : undefined]
        break
      case 5:
        env = [
          p,
          np > 0 ? args[0] : undefined,
          np > 1 ? args[1] : undefined,
          np > 2 ? args[2] : undefined,
          np > 3 ? args[3] : undefined,
        ]
        break
      case 6:
        env = [
          p,
          np > 0 ? args[0] : undefined,
          np > 1 ? args[1] : undefined,
          np > 2 ? args[2] : undefined,
          np > 3 ? args[3] : undefined,
          np > 4 ? args[4] : undefined,
        ]
        break
      case 7:
        env = [
          p,
          np > 0 ? args[0] : undefined,
          np > 1 ? args[1] : undefined,
          np > 2 ? args[2] : undefined,
          np > 3 ? args[3] : undefined,
          np > 4 ? args[4] : undefined,
          np > 5 ? args[5] : undefined,
        ]
        break
      default:
        env = [
          p,
          np > 0 ? args[0] : undefined,
          np > 1 ? args[1] : undefined,
          np > 2 ? args[2] : undefined,
          np > 3 ? args[3] : undefined,
          np > 4 ? args[4] : undefined,
          np > 5 ? args[5] : undefined,
          np > 6 ? args[6] : undefined,
        ]
    }
    if (thisSlot >= 0) env[thisSlot] = thisValue
    const r = body(env)
    rt.depth--
    return r
  }
}

/** `CALL3` of the same functions when they have at most three parameters and six slots: no argument list. */
export const inlineEnvironmentCall3 = (
  size: number,
  np: number,
  thisSlot: number,
  body: Expr,
  steps: number,
): Call3Impl => {
  return (thisValue, a0, a1, a2, self) => {
    if ((rt.fuel -= steps) < 0) refuel()
    if (++rt.depth > MAX_CALL_DEPTH) tooDeep()
    const p = self[ENV]
    let env: Env
    switch (size) {
      case 1:
        env = [p]
        break
      case 2:
        env = [p, np > 0 ? a0 : undefined]
        break
      case 3:
        env = [p, np > 0 ? a0 : undefined, np > 1 ? a1 : undefined]
        break
      case 4:
        env = [p, np > 0 ? a0 : undefined, np > 1 ? a1 : undefined, np > 2 ? a2 : undefined]
        break
      case 5:
        env = [p, np > 0 ? a0 : undefined, np > 1 ? a1 : undefined, np > 2 ? a2 : undefined, undefined]
        break
      default:
        env = [p, np > 0 ? a0 : undefined, np > 1 ? a1 : undefined, np > 2 ? a2 : undefined, undefined, undefined]
    }
    if (thisSlot >= 0) env[thisSlot] = thisValue
    const r = body(env)
    rt.depth--
    return r
  }
}

/** `CONSTRUCT` of an ordinary function: a new object inheriting from `newTarget.prototype`. */
export const ordinaryConstruct = (realm: Realm, setup: Setup, body: Expr, steps: number): ConstructImpl => {
  const ObjectProto = realm.ObjectProto
  return (args, newTarget, self) => {
    if ((rt.fuel -= steps) < 0) refuel()
    if (++rt.depth > MAX_CALL_DEPTH) tooDeep()
    const obj = Object.create(prototypeFor(newTarget, ObjectProto))
    const r = body(setup(obj, args, self, newTarget))
    rt.depth--
    return isObject(r) ? r : obj
  }
}

/** `CONSTRUCT` of a class constructor (a derived one gets `this` from `super(...)`). */
export const classConstruct = (
  realm: Realm,
  derived: boolean,
  thisSlot: number,
  loc: Location,
  setup: Setup,
  body: Expr,
  steps: number,
): ConstructImpl => {
  const ObjectProto = realm.ObjectProto
  if (!derived) {
    return (args, newTarget, self) => {
      if ((rt.fuel -= steps) < 0) refuel()
      if (++rt.depth > MAX_CALL_DEPTH) tooDeep()
      const obj = Object.create(prototypeFor(newTarget, ObjectProto))
      initializeInstance(self, obj)
      const r = body(setup(obj, args, self, newTarget))
      rt.depth--
      return isObject(r) ? r : obj
    }
  }
  return (args, newTarget, self) => {
    if ((rt.fuel -= steps) < 0) refuel()
    if (++rt.depth > MAX_CALL_DEPTH) tooDeep()
    const env = setup(undefined, args, self, newTarget)
    const r = body(env)
    rt.depth--
    if (isObject(r)) return r
    if (r !== undefined) return throwTypeError("Derived constructors may only return object or undefined", loc)
    const t = thisSlot >= 0 ? env[thisSlot] : TDZ
    return t === TDZ ? tdzError("%this", loc) : t
  }
}

/** `CALL` of a class constructor: always a `TypeError`. */
export const classCallError =
  (name: string, loc: Location): CallImpl =>
  () =>
    throwTypeError(`Class constructor ${name || "(anonymous)"} cannot be invoked without 'new'`, loc)

/** `CONSTRUCT` of a class that declares no constructor. */
export const defaultConstruct = (realm: Realm, derived: boolean, loc: Location): ConstructImpl => {
  if (derived) {
    return (args, newTarget, self) => {
      if (++rt.depth > MAX_CALL_DEPTH) tooDeep()
      const result = superConstruct(self, args, newTarget, loc)
      initializeInstance(self, result)
      rt.depth--
      return result
    }
  }
  const ObjectProto = realm.ObjectProto
  return (_args, newTarget, self) => {
    const obj = Object.create(prototypeFor(newTarget, ObjectProto))
    initializeInstance(self, obj)
    return obj
  }
}

/** `CALL` of a generator or async generator: creates the generator object; the body runs on `next()`. */
export const generatorCall = (
  realm: Realm,
  isAsync: boolean,
  setup: Setup,
  body: (env: Env) => Body,
  steps: number,
): CallImpl => {
  const fallback = isAsync ? realm.AsyncGeneratorProto : realm.GeneratorProto
  const make = isAsync ? makeAsyncGenerator : makeGenerator
  return (thisValue, args, self) => {
    if ((rt.fuel -= steps) < 0) refuel()
    if (++rt.depth > MAX_CALL_DEPTH) tooDeep()
    const env = setup(thisValue, args, self, undefined)
    const g = make(body(env), prototypeFor(self, fallback))
    rt.depth--
    return g
  }
}

/** `CALL` of an async function: runs until the first `await` and returns its promise. */
export const asyncCall =
  (setup: Setup, body: (env: Env) => Body, steps: number): CallImpl =>
  (thisValue, args, self) => {
    if ((rt.fuel -= steps) < 0) refuel()
    if (++rt.depth > MAX_CALL_DEPTH) tooDeep()
    const depth = rt.depth
    const record = newPromise()
    let env: Env
    try {
      env = setup(thisValue, args, self, undefined)
    } catch (e) {
      const reason = caught(e)
      rt.depth = depth - 1
      rejectPromise(record, reason)
      return record.object
    }
    runAsync(body(env), record)
    rt.depth = depth - 1
    return record.object
  }

/** `CALL` of an async function without any `await`: runs to completion and returns a settled promise. */
export const plainAsyncCall =
  (setup: Setup, body: Expr, steps: number): CallImpl =>
  (thisValue, args, self) => {
    if ((rt.fuel -= steps) < 0) refuel()
    if (++rt.depth > MAX_CALL_DEPTH) tooDeep()
    const depth = rt.depth
    const record = newPromise()
    try {
      resolvePromise(record, body(setup(thisValue, args, self, undefined)))
    } catch (e) {
      const reason = caught(e)
      rejectPromise(record, reason)
    }
    rt.depth = depth - 1
    return record.object
  }
