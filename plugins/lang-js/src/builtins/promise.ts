/**
 * `Promise`, `Promise.prototype` and the combinators, on top of the promise core in `runtime/promises.ts`.
 */
import { caught, throwTypeError } from "../runtime/errors.js"
import {
  arg,
  call,
  defineMethod,
  defineValue,
  isCallable,
  isObject,
  linkConstructor,
  makeNative,
  type Value,
} from "../runtime/functions.js"
import { DONE, getIterator } from "../runtime/iterators.js"
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
  if (r === undefined) return throwTypeError(`Promise.prototype.${method} called on an incompatible receiver`)
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
  defineValue(proto, Symbol.toStringTag, "Promise", false)

  defineMethod(ctor, "resolve", 1, (_t, a) => promiseResolve(arg(a, 0)).object)
  defineMethod(ctor, "reject", 1, (_t, a) => {
    const r = newPromise()
    rejectPromise(r, arg(a, 0))
    return r.object
  })
  defineMethod(ctor, "withResolvers", 0, () => {
    const r = newPromise()
    const [resolve, reject] = resolvingFunctions(r)
    const o = realm.newObject()
    o.promise = r.object
    o.resolve = resolve
    o.reject = reject
    return o
  })

  /**
   * Run a combinator over an iterable: `onEach(index, record)` subscribes to each element (already converted with
   * `Promise.resolve`), `onEnd(count)` runs after the iteration.
   */
  const combinator = (
    iterable: Value,
    result: PromiseRecord,
    onEach: (index: number, element: PromiseRecord) => void,
    onEnd: (count: number) => void,
  ): Value => {
    try {
      const it = getIterator(iterable)
      let i = 0
      for (;;) {
        const v = it.next()
        if (v === DONE) break
        onEach(i++, promiseResolve(v))
      }
      onEnd(i)
    } catch (e) {
      rejectPromise(result, caught(e))
    }
    return result.object
  }
  // The element reactions are host continuations, but they are registered through `then` semantics (one job per
  // settled element, a derived promise that is never observed), so ordering matches the language exactly.
  const subscribe = (element: PromiseRecord, onFulfilled: (v: Value) => void, onRejected: (e: Value) => void) => {
    performThen(element, onFulfilled, onRejected, undefined, true)
  }

  defineMethod(ctor, "all", 1, (_t, a) => {
    const result = newPromise()
    const values: Value[] = []
    let remaining = 1
    return combinator(
      arg(a, 0),
      result,
      (i, el) => {
        values[i] = undefined
        remaining++
        let done = false
        subscribe(
          el,
          (v) => {
            if (done) return
            done = true
            values[i] = v
            if (--remaining === 0) resolvePromise(result, realm.newArray(values))
          },
          (e) => rejectPromise(result, e),
        )
      },
      () => {
        if (--remaining === 0) resolvePromise(result, realm.newArray(values))
      },
    )
  })
  defineMethod(ctor, "allSettled", 1, (_t, a) => {
    const result = newPromise()
    const values: Value[] = []
    let remaining = 1
    const settle = (i: number, fulfilled: boolean, v: Value) => {
      const o = realm.newObject()
      o.status = fulfilled ? "fulfilled" : "rejected"
      if (fulfilled) o.value = v
      else o.reason = v
      values[i] = o
      if (--remaining === 0) resolvePromise(result, realm.newArray(values))
    }
    return combinator(
      arg(a, 0),
      result,
      (i, el) => {
        values[i] = undefined
        remaining++
        subscribe(
          el,
          (v) => settle(i, true, v),
          (e) => settle(i, false, e),
        )
      },
      () => {
        if (--remaining === 0) resolvePromise(result, realm.newArray(values))
      },
    )
  })
  defineMethod(ctor, "race", 1, (_t, a) => {
    const result = newPromise()
    return combinator(
      arg(a, 0),
      result,
      (_i, el) =>
        subscribe(
          el,
          (v) => resolvePromise(result, v),
          (e) => rejectPromise(result, e),
        ),
      () => {},
    )
  })
  defineMethod(ctor, "any", 1, (_t, a) => {
    const result = newPromise()
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
      rejectPromise(result, e)
    }
    return combinator(
      arg(a, 0),
      result,
      (i, el) => {
        errors[i] = undefined
        remaining++
        subscribe(
          el,
          (v) => resolvePromise(result, v),
          (e) => {
            errors[i] = e
            if (--remaining === 0) fail()
          },
        )
      },
      () => {
        if (--remaining === 0) fail()
      },
    )
  })
  realm.defineGlobal("Promise", ctor)
}
