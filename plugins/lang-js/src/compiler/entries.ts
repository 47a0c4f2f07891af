/**
 * Function entries: the `CALL`, `CALL3` and `CONSTRUCT` behaviours of program functions. Each entry charges the
 * work meter (`steps` units, in proportion to the size of the body), enforces the call depth, builds the callee's
 * environment and runs the compiled body.
 *
 * The entries of a function with plain parameters and no `arguments` build its environment as one array literal
 * (its frame, see `frames.ts`); every other function goes through its `setup`.
 */
import { MAX_CALL_DEPTH } from "../limits.js"
import type { Location } from "@codemode/core/sandbox"
import { caught, throwTypeError } from "../runtime/errors.js"
import {
  type Call3Impl,
  type CallImpl,
  type CallNImpl,
  type Construct3Impl,
  type ConstructImpl,
  isObject,
  type Value,
} from "../runtime/functions.js"
import { ENV } from "../runtime/internals.js"
import { refuel, tooDeep } from "../runtime/meter.js"
import { makeAsyncGenerator, makeGenerator, runAsync, type Body } from "../runtime/generators.js"
import { newPromise, rejectPromise, resolvePromise } from "../runtime/promises.js"
import type { Realm } from "../runtime/realm.js"
import { rt } from "../runtime/state.js"
import { environment3, environmentOf, type Frame } from "./frames.js"
import { initializeInstance, prototypeFor, superConstruct, superConstruct3, tdzError } from "./ops.js"
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

/** `CALL` of a function with a fast frame (see `frames.ts`). */
export const frameCall = (frame: Frame, body: Expr, steps: number): CallImpl => {
  const { size, np, thisSlot, prologue, bind, epilogue } = frame
  return (thisValue, args, self) => {
    if ((rt.fuel -= steps) < 0) refuel()
    if (++rt.depth > MAX_CALL_DEPTH) tooDeep()
    const env = size === 0 ? self[ENV] : environmentOf(size, np, self[ENV], args)
    if (thisSlot >= 0) env[thisSlot] = thisValue
    if (prologue !== undefined) prologue(env, self, undefined)
    if (bind !== undefined) {
      const n = args.length
      bind(env, n > 0 ? args[0] : undefined, n > 1 ? args[1] : undefined, n > 2 ? args[2] : undefined)
      if (epilogue !== undefined) epilogue(env)
    }
    const r = body(env)
    rt.depth--
    return r
  }
}

/** `CALL3` of a function with a fast frame and at most three parameters: no argument list. */
export const frameCall3 = (frame: Frame, body: Expr, steps: number): Call3Impl => {
  const { size, np, thisSlot, prologue, bind, epilogue } = frame
  if (bind !== undefined) {
    return (thisValue, a0, a1, a2, self) => {
      if ((rt.fuel -= steps) < 0) refuel()
      if (++rt.depth > MAX_CALL_DEPTH) tooDeep()
      const env = size === 0 ? self[ENV] : environment3(size, 0, self[ENV], undefined, undefined, undefined)
      if (thisSlot >= 0) env[thisSlot] = thisValue
      if (prologue !== undefined) prologue(env, self, undefined)
      bind(env, a0, a1, a2)
      if (epilogue !== undefined) epilogue(env)
      const r = body(env)
      rt.depth--
      return r
    }
  }
  const lean = prologue === undefined ? leanCall3(size, np, thisSlot, body, steps) : undefined
  if (lean !== undefined) return lean
  return (thisValue, a0, a1, a2, self) => {
    if ((rt.fuel -= steps) < 0) refuel()
    if (++rt.depth > MAX_CALL_DEPTH) tooDeep()
    const env = size === 0 ? self[ENV] : environment3(size, np, self[ENV], a0, a1, a2)
    if (thisSlot >= 0) env[thisSlot] = thisValue
    if (prologue !== undefined) prologue(env, self, undefined)
    const r = body(env)
    rt.depth--
    return r
  }
}

/**
 * `CALLN` of a function whose environment is exactly its parent link and its plain parameters (more than three):
 * the call site's array is the environment when it has one slot per parameter; any other count goes through `call`.
 */
export const frameCallN =
  (size: number, body: Expr, steps: number, call: CallImpl): CallNImpl =>
  (thisValue, env, self) => {
    if (env.length !== size) return call(thisValue, env.slice(1), self)
    if ((rt.fuel -= steps) < 0) refuel()
    if (++rt.depth > MAX_CALL_DEPTH) tooDeep()
    env[0] = self[ENV]
    const r = body(env)
    rt.depth--
    return r
  }

/**
 * The leanest `CALL3` entries, for the most common frames: the environment holds exactly the parent link, the
 * parameters and (when the function reads it) `this`, written as one literal per shape. Undefined for other frames.
 */
const leanCall3 = (size: number, np: number, thisSlot: number, body: Expr, steps: number): Call3Impl | undefined => {
  if (thisSlot < 0 && size === np + 1) {
    switch (np) {
      case 1:
        return (_thisValue, a0, _a1, _a2, self) => {
          if ((rt.fuel -= steps) < 0) refuel()
          if (++rt.depth > MAX_CALL_DEPTH) tooDeep()
          const r = body([self[ENV], a0])
          rt.depth--
          return r
        }
      case 2:
        return (_thisValue, a0, a1, _a2, self) => {
          if ((rt.fuel -= steps) < 0) refuel()
          if (++rt.depth > MAX_CALL_DEPTH) tooDeep()
          const r = body([self[ENV], a0, a1])
          rt.depth--
          return r
        }
      case 3:
        return (_thisValue, a0, a1, a2, self) => {
          if ((rt.fuel -= steps) < 0) refuel()
          if (++rt.depth > MAX_CALL_DEPTH) tooDeep()
          const r = body([self[ENV], a0, a1, a2])
          rt.depth--
          return r
        }
    }
  }
  if (thisSlot === np + 1 && size === np + 2) {
    switch (np) {
      case 0:
        return (thisValue, _a0, _a1, _a2, self) => {
          if ((rt.fuel -= steps) < 0) refuel()
          if (++rt.depth > MAX_CALL_DEPTH) tooDeep()
          const r = body([self[ENV], thisValue])
          rt.depth--
          return r
        }
      case 1:
        return (thisValue, a0, _a1, _a2, self) => {
          if ((rt.fuel -= steps) < 0) refuel()
          if (++rt.depth > MAX_CALL_DEPTH) tooDeep()
          const r = body([self[ENV], a0, thisValue])
          rt.depth--
          return r
        }
      case 2:
        return (thisValue, a0, a1, _a2, self) => {
          if ((rt.fuel -= steps) < 0) refuel()
          if (++rt.depth > MAX_CALL_DEPTH) tooDeep()
          const r = body([self[ENV], a0, a1, thisValue])
          rt.depth--
          return r
        }
    }
  }
  return undefined
}

/**
 * `CONSTRUCT` of an ordinary function or a base class constructor with a fast frame: a new object inheriting from
 * `newTarget.prototype` (with the class's instance elements installed) is `this`.
 */
export const frameConstruct = (
  realm: Realm,
  isClass: boolean,
  frame: Frame,
  body: Expr,
  steps: number,
): ConstructImpl => {
  const { size, np, thisSlot, prologue, bind, epilogue } = frame
  const ObjectProto = realm.ObjectProto
  return (args, newTarget, self) => {
    if ((rt.fuel -= steps) < 0) refuel()
    if (++rt.depth > MAX_CALL_DEPTH) tooDeep()
    const obj = Object.create(prototypeFor(newTarget, ObjectProto))
    if (isClass) initializeInstance(self, obj)
    const env = size === 0 ? self[ENV] : environmentOf(size, np, self[ENV], args)
    if (thisSlot >= 0) env[thisSlot] = obj
    if (prologue !== undefined) prologue(env, self, newTarget)
    if (bind !== undefined) {
      const n = args.length
      bind(env, n > 0 ? args[0] : undefined, n > 1 ? args[1] : undefined, n > 2 ? args[2] : undefined)
      if (epilogue !== undefined) epilogue(env)
    }
    const r = body(env)
    rt.depth--
    return isObject(r) ? r : obj
  }
}

/**
 * `CONSTRUCT3` of an ordinary function or a base class constructor with a fast frame and at most three parameters:
 * as `frameConstruct`, without an argument list.
 */
export const frameConstruct3 = (
  realm: Realm,
  isClass: boolean,
  frame: Frame,
  body: Expr,
  steps: number,
): Construct3Impl => {
  const { size, np, thisSlot, prologue, bind, epilogue } = frame
  const ObjectProto = realm.ObjectProto
  return (a0, a1, a2, newTarget, self) => {
    if ((rt.fuel -= steps) < 0) refuel()
    if (++rt.depth > MAX_CALL_DEPTH) tooDeep()
    const obj = Object.create(prototypeFor(newTarget, ObjectProto))
    if (isClass) initializeInstance(self, obj)
    const env = size === 0 ? self[ENV] : environment3(size, np, self[ENV], a0, a1, a2)
    if (thisSlot >= 0) env[thisSlot] = obj
    if (prologue !== undefined) prologue(env, self, newTarget)
    if (bind !== undefined) {
      bind(env, a0, a1, a2)
      if (epilogue !== undefined) epilogue(env)
    }
    const r = body(env)
    rt.depth--
    return isObject(r) ? r : obj
  }
}

/** What a derived constructor returns: its body's object result, else its `this` (which `super(...)` bound). */
const derivedResult = (r: Value, env: Env, thisSlot: number, loc: Location): Value => {
  if (isObject(r)) return r
  if (r !== undefined) return throwTypeError("Derived constructors may only return object or undefined", loc)
  const t = thisSlot >= 0 ? env[thisSlot] : TDZ
  return t === TDZ ? tdzError("%this", loc) : t
}

/** `CONSTRUCT` of a derived class constructor with a fast frame: `this` starts uninitialized, for `super(...)`. */
export const derivedFrameConstruct = (frame: Frame, loc: Location, body: Expr, steps: number): ConstructImpl => {
  const { size, np, thisSlot, prologue, bind, epilogue } = frame
  return (args, newTarget, self) => {
    if ((rt.fuel -= steps) < 0) refuel()
    if (++rt.depth > MAX_CALL_DEPTH) tooDeep()
    const env = size === 0 ? self[ENV] : environmentOf(size, np, self[ENV], args)
    if (thisSlot >= 0) env[thisSlot] = TDZ
    if (prologue !== undefined) prologue(env, self, newTarget)
    if (bind !== undefined) {
      const n = args.length
      bind(env, n > 0 ? args[0] : undefined, n > 1 ? args[1] : undefined, n > 2 ? args[2] : undefined)
      if (epilogue !== undefined) epilogue(env)
    }
    const r = body(env)
    rt.depth--
    return derivedResult(r, env, thisSlot, loc)
  }
}

/** `CONSTRUCT3` of a derived class constructor with a fast frame and at most three parameters. */
export const derivedFrameConstruct3 = (frame: Frame, loc: Location, body: Expr, steps: number): Construct3Impl => {
  const { size, np, thisSlot, prologue, bind, epilogue } = frame
  return (a0, a1, a2, newTarget, self) => {
    if ((rt.fuel -= steps) < 0) refuel()
    if (++rt.depth > MAX_CALL_DEPTH) tooDeep()
    const env = size === 0 ? self[ENV] : environment3(size, np, self[ENV], a0, a1, a2)
    if (thisSlot >= 0) env[thisSlot] = TDZ
    if (prologue !== undefined) prologue(env, self, newTarget)
    if (bind !== undefined) {
      bind(env, a0, a1, a2)
      if (epilogue !== undefined) epilogue(env)
    }
    const r = body(env)
    rt.depth--
    return derivedResult(r, env, thisSlot, loc)
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
    return derivedResult(r, env, thisSlot, loc)
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

/** `CONSTRUCT3` of a class that declares no constructor: a derived one passes its arguments on as they came. */
export const defaultConstruct3 = (realm: Realm, derived: boolean, loc: Location): Construct3Impl => {
  if (derived) {
    return (a0, a1, a2, newTarget, self, count) => {
      if (++rt.depth > MAX_CALL_DEPTH) tooDeep()
      const result = superConstruct3(self, a0, a1, a2, count, newTarget, loc)
      initializeInstance(self, result)
      rt.depth--
      return result
    }
  }
  const ObjectProto = realm.ObjectProto
  return (_a0, _a1, _a2, newTarget, self) => {
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
