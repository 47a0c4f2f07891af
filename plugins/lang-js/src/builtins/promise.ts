/**
 * `Promise`, `Promise.prototype` and the combinators, on top of the promise core in `runtime/promises.ts`.
 */
import { caught, throwTypeError } from "../runtime/errors.js"
import {
  arg,
  call,
  construct,
  defineBuiltinAccessor,
  defineMethod,
  isCallable,
  isConstructor,
  isObject,
  linkConstructor,
  makeNative,
  shortDescription,
  type Value,
  defineTag,
  incompatibleReceiver,
} from "../runtime/functions.js"
import { closeAfterThrow, DONE, getIterator, type Iter } from "../runtime/iterators.js"
import { charge } from "../runtime/meter.js"
import { getProp } from "../runtime/properties.js"
import { rt } from "../runtime/state.js"
import {
  newPromise,
  performThen,
  promiseRecord,
  promiseResolve,
  type PromiseRecord,
  rejectPromise,
  resolvePromise,
  resolvingFunctions,
  setOriginalThen,
} from "../runtime/promises.js"
import type { Realm } from "../runtime/realm.js"

const thisPromise = (t: Value, method: string): PromiseRecord => {
  const r = promiseRecord(t)
  if (r === undefined) return incompatibleReceiver(`Promise.prototype.${method}`, t)
  return r
}

/** Install `Promise`. */
export const installPromise = (realm: Realm): void => {
  const proto = realm.newObject()
  realm.PromiseProto = proto
  const ctor = makeNative(
    "Promise",
    1,
    () => throwTypeError("Promise constructor cannot be invoked without 'new'"),
    (a, newTarget) => {
      const executor = arg(a, 0)
      if (!isCallable(executor))
        throwTypeError(
          `Promise resolver ${typeof executor === "object" ? "object" : String(executor)} is not a function`,
        )
      const record = newPromise(newTarget !== ctor && isObject(newTarget.prototype) ? newTarget.prototype : proto)
      const [resolve, reject] = resolvingFunctions(record)
      try {
        call(executor, undefined, [resolve, reject])
      } catch (e) {
        call(reject, undefined, [caught(e)])
      }
      return record.object
    },
  )
  realm.Promise = ctor
  linkConstructor(ctor, proto)

  const then = (record: PromiseRecord, onFulfilled: Value, onRejected: Value): Value => {
    const derived = newPromise()
    performThen(
      record,
      isCallable(onFulfilled) ? onFulfilled : undefined,
      isCallable(onRejected) ? onRejected : undefined,
      derived,
      false,
    )
    return derived.object
  }
  const thenMethod = defineMethod(proto, "then", 2, (t, a) => then(thisPromise(t, "then"), arg(a, 0), arg(a, 1)))
  setOriginalThen(thenMethod)
  defineMethod(proto, "catch", 1, (t, a) => {
    const f = isObject(t) ? t.then : undefined
    if (f === thenMethod && promiseRecord(t)) return then(promiseRecord(t)!, undefined, arg(a, 0))
    return call(f, t, [undefined, arg(a, 0)])
  })
  defineMethod(proto, "finally", 1, (t, a) => {
    const onFinally = arg(a, 0)
    if (!isCallable(onFinally)) return call(t.then, t, [onFinally, onFinally])
    const thenFinally = makeNative("", 1, (_t, args) => {
      const value = arg(args, 0)
      const p = promiseResolve(call(onFinally, undefined, []))
      return then(
        p,
        makeNative("", 0, () => value),
        undefined,
      )
    })
    const catchFinally = makeNative("", 1, (_t, args) => {
      const reason = arg(args, 0)
      const p = promiseResolve(call(onFinally, undefined, []))
      return then(
        p,
        makeNative("", 0, () => {
          throw reason
        }),
        undefined,
      )
    })
    return call(t.then, t, [thenFinally, catchFinally])
  })
  defineTag(proto, "Promise")

  /**
   * `NewPromiseCapability(C)`: a promise made by the constructor `C` with its resolving functions. For the realm's
   * own `Promise` the record is used directly (no executor or resolving functions are made).
   */
  interface Capability {
    readonly promise: Value
    readonly record?: PromiseRecord
    readonly resolve?: Value
    readonly reject?: Value
  }
  const newCapability = (c: Value): Capability => {
    if (c === ctor) {
      const record = newPromise()
      return { promise: record.object, record }
    }
    if (!isConstructor(c)) return throwTypeError(`${shortDescription(c)} is not a constructor`)
    let resolve: Value
    let reject: Value
    const executor = makeNative("", 2, (_t, args) => {
      if (resolve !== undefined || reject !== undefined)
        throwTypeError("Promise executor has already been invoked with non-undefined arguments")
      resolve = arg(args, 0)
      reject = arg(args, 1)
      return undefined
    })
    const promise = construct(c, [executor])
    if (!isCallable(resolve) || !isCallable(reject))
      throwTypeError("Promise resolve or reject function is not callable")
    return { promise, resolve, reject }
  }
  const settleCapability = (capability: Capability, fulfilled: boolean, v: Value): void => {
    if (capability.record !== undefined) {
      if (fulfilled) resolvePromise(capability.record, v)
      else rejectPromise(capability.record, v)
    } else call(fulfilled ? capability.resolve : capability.reject, undefined, [v])
  }
  /** The static methods' `this`: a constructor they make their promise with. */
  const thisConstructor = (t: Value, name: string): Value =>
    isObject(t)
      ? t
      : throwTypeError(
          name === "resolve" ? "PromiseResolve called on non-object" : `Promise.${name} called on non-object`,
        )

  const originalResolve = defineMethod(ctor, "resolve", 1, (t, a) => {
    const c = thisConstructor(t, "resolve")
    const x = arg(a, 0)
    if (c === ctor) return promiseResolve(x).object
    if (promiseRecord(x) !== undefined && x.constructor === c) return x
    const capability = newCapability(c)
    settleCapability(capability, true, x)
    return capability.promise
  })
  defineMethod(ctor, "reject", 1, (t, a) => {
    const capability = newCapability(thisConstructor(t, "reject"))
    settleCapability(capability, false, arg(a, 0))
    return capability.promise
  })
  defineMethod(ctor, "withResolvers", 0, (t) => {
    const capability = newCapability(thisConstructor(t, "withResolvers"))
    const o = realm.newObject()
    o.promise = capability.promise
    if (capability.record !== undefined) {
      const [resolve, reject] = resolvingFunctions(capability.record)
      o.resolve = resolve
      o.reject = reject
    } else {
      o.resolve = capability.resolve
      o.reject = capability.reject
    }
    return o
  })
  defineBuiltinAccessor(ctor, Symbol.species, (t) => t)

  /** What a combinator does with each element and at the end. */
  interface Combinator {
    /** Subscribe to element `index`: called with what its `then` is given (`onFulfilled`, `onRejected`). */
    readonly element: (index: number) => [onFulfilled: (v: Value) => void, onRejected: (e: Value) => void]
    /** After the iteration: `count` elements were seen. */
    readonly end: (count: number) => void
  }
  /**
   * `PerformPromiseAll` and its siblings: `promiseResolve` (read from the constructor once) is called on each
   * element and the result's `then` is invoked with the element's handlers. A failure of either closes the iterator
   * and rejects the result; a failing iterator rejects it without closing. The realm's own `Promise.resolve` and
   * `then` run directly, with host continuations that take the same jobs.
   */
  const combine = (t: Value, name: string, iterable: Value, make: (capability: Capability) => Combinator): Value => {
    const c = thisConstructor(t, name)
    const capability = newCapability(c)
    let it: Iter | undefined
    try {
      const promiseResolveFn = c.resolve
      if (!isCallable(promiseResolveFn)) throwTypeError("Promise resolve is not a function")
      const fast = c === ctor && promiseResolveFn === originalResolve
      const combinator = make(capability)
      it = getIterator(iterable)
      let index = 0
      for (;;) {
        const v = it.next()
        if (v === DONE) break
        if (--rt.fuel < 0) charge(0)
        try {
          const next = fast ? promiseResolve(v).object : call(promiseResolveFn, c, [v])
          const [onFulfilled, onRejected] = combinator.element(index++)
          const then = getProp(next, "then")
          const record = then === thenMethod ? promiseRecord(next) : undefined
          if (record !== undefined) performThen(record, onFulfilled, onRejected, undefined, true)
          else {
            const once = (f: (x: Value) => void) => makeNative("", 1, (_t, args) => (f(arg(args, 0)), undefined))
            call(then, next, [once(onFulfilled), once(onRejected)])
          }
        } catch (e) {
          closeAfterThrow(it, e)
        }
      }
      combinator.end(index)
    } catch (e) {
      settleCapability(capability, false, caught(e))
    }
    return capability.promise
  }

  defineMethod(ctor, "all", 1, (t, a) =>
    combine(t, "all", arg(a, 0), (capability) => {
      const values: Value[] = []
      let remaining = 1
      const finish = () => settleCapability(capability, true, realm.newArray(values))
      return {
        element: (i) => {
          values[i] = undefined
          remaining++
          let done = false
          return [
            (v) => {
              if (done) return
              done = true
              values[i] = v
              if (--remaining === 0) finish()
            },
            (e) => settleCapability(capability, false, e),
          ]
        },
        end: () => {
          if (--remaining === 0) finish()
        },
      }
    }),
  )
  defineMethod(ctor, "allSettled", 1, (t, a) =>
    combine(t, "allSettled", arg(a, 0), (capability) => {
      const values: Value[] = []
      let remaining = 1
      const finish = () => settleCapability(capability, true, realm.newArray(values))
      return {
        element: (i) => {
          values[i] = undefined
          remaining++
          let done = false
          const settle = (fulfilled: boolean) => (v: Value) => {
            if (done) return
            done = true
            const o = realm.newObject()
            o.status = fulfilled ? "fulfilled" : "rejected"
            if (fulfilled) o.value = v
            else o.reason = v
            values[i] = o
            if (--remaining === 0) finish()
          }
          return [settle(true), settle(false)]
        },
        end: () => {
          if (--remaining === 0) finish()
        },
      }
    }),
  )
  defineMethod(ctor, "race", 1, (t, a) =>
    combine(t, "race", arg(a, 0), (capability) => ({
      element: () => [(v) => settleCapability(capability, true, v), (e) => settleCapability(capability, false, e)],
      end: () => {},
    })),
  )
  defineMethod(ctor, "any", 1, (t, a) =>
    combine(t, "any", arg(a, 0), (capability) => {
      const errors: Value[] = []
      let remaining = 1
      const fail = () => {
        const e = realm.makeError("AggregateError", "All promises were rejected")
        Object.defineProperty(e, "errors", {
          value: realm.newArray(errors),
          writable: true,
          enumerable: false,
          configurable: true,
        })
        settleCapability(capability, false, e)
      }
      return {
        element: (i) => {
          errors[i] = undefined
          remaining++
          let done = false
          return [
            (v) => settleCapability(capability, true, v),
            (e) => {
              if (done) return
              done = true
              errors[i] = e
              if (--remaining === 0) fail()
            },
          ]
        },
        end: () => {
          if (--remaining === 0) fail()
        },
      }
    }),
  )
  realm.defineGlobal("Promise", ctor)
}
