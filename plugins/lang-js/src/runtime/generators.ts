/**
 * Drivers for resumable bodies: async functions, generators and async generators.
 *
 * The compiler turns a body containing `await`/`yield` into a host generator. A host `yield` means `await` when
 * `rt.awaiting` is set before it (always, in async functions) and a program `yield` otherwise. Drivers keep the call
 * depth right across suspensions: `rt.base` is the depth at which the resumed body runs.
 */
import type { Location } from "@codemode/core/sandbox"
import { caught, throwTypeError } from "./errors.js"
import { type CallImpl, call, isCallable, isObject, NO_ARGS, shortDescription, type Value } from "./functions.js"
import { BRAND, Brand, SLOT, brandOf } from "./internals.js"
import { DONE, getIteratorMethod, iterResult, registerStepper } from "./iterators.js"
import { awaitValue, newPromise, type PromiseRecord, rejectPromise, resolvePromise } from "./promises.js"
import { rt } from "./state.js"

/** A host generator produced by a compiled resumable body. */
export type Body = Generator<Value, Value, Value>

const NEXT = 0
const THROW = 1
const RETURN = 2

/**
 * A program generator's `return(value)` in flight: thrown into the body at its `yield`, it runs the `finally`
 * blocks on the way out (which may yield again, and may replace it with a `return` or `throw` of their own) and
 * becomes the generator's result when it leaves the body. Host `return()` cannot do this: a host `yield*` turns a
 * return completion of the delegate into a normal completion, and compiled bodies delegate at every level.
 * Never visible to programs: every resumable `catch` passes it on.
 */
export class GeneratorReturn {
  constructor(readonly value: Value) {}
}

/** Resume a body with `next`, `throw` or `return`, keeping `rt.base` and `rt.depth` right. */
const resume = (gen: Body, mode: number, value: Value): IteratorResult<Value, Value> => {
  const savedBase = rt.base
  const depth = rt.depth
  rt.base = depth
  try {
    return mode === NEXT ? gen.next(value) : gen.throw(mode === THROW ? value : new GeneratorReturn(value))
  } catch (e) {
    if (e instanceof GeneratorReturn) return { value: e.value, done: true }
    throw e
  } finally {
    rt.base = savedBase
    if (!rt.dead) rt.depth = depth
  }
}

/** Run an async function's body, settling `record` with its outcome. Runs synchronously until the first `await`. */
export const runAsync = (gen: Body, record: PromiseRecord): void => {
  const step = (mode: number, value: Value): void => {
    let r: IteratorResult<Value, Value>
    try {
      r = resume(gen, mode, value)
    } catch (e) {
      rejectPromise(record, caught(e))
      return
    }
    if (r.done) resolvePromise(record, r.value)
    else awaitValue(r.value, onFulfilled, onRejected)
  }
  const onFulfilled = (v: Value) => step(NEXT, v)
  const onRejected = (e: Value) => step(THROW, e)
  step(NEXT, undefined)
}

/** The state of a program generator object. */
interface GeneratorState {
  readonly gen: Body
  state: "suspendedStart" | "suspendedYield" | "executing" | "completed"
}

/** Create a program generator object running `gen`. */
export const makeGenerator = (gen: Body, proto: Value): Value => {
  const o = Object.create(proto)
  o[SLOT] = { gen, state: "suspendedStart" } satisfies GeneratorState
  o[BRAND] = Brand.Generator
  return o
}

const generatorState = (o: Value, method: string): GeneratorState => {
  if (typeof o !== "object" || o === null || brandOf(o) !== Brand.Generator) {
    return throwTypeError(`Generator.prototype.${method} called on an incompatible receiver`)
  }
  return o[SLOT] as GeneratorState
}

/** Run a generator's body on from `state` with `mode` and `value`; its completion (the body's result when done). */
const runGenerator = (s: GeneratorState, mode: number, value: Value): IteratorResult<Value, Value> => {
  if (s.state === "executing") return throwTypeError("Generator is already running")
  if (s.state === "suspendedStart" && mode !== NEXT) s.state = "completed"
  if (s.state === "completed") {
    if (mode === THROW) throw value
    return { value: mode === RETURN ? value : undefined, done: true }
  }
  s.state = "executing"
  let r: IteratorResult<Value, Value>
  try {
    r = resume(s.gen, mode, value)
  } catch (e) {
    s.state = "completed"
    throw e
  }
  s.state = r.done ? "completed" : "suspendedYield"
  return r
}

/** `generator.next(v)`, `.throw(e)` and `.return(v)`. */
export const generatorResume = (o: Value, mode: "next" | "throw" | "return", value: Value): Value => {
  const r = runGenerator(generatorState(o, mode), mode === "next" ? NEXT : mode === "throw" ? THROW : RETURN, value)
  return iterResult(r.value, !!r.done)
}

/** The built-in `Generator.prototype.next`; iterations step a generator through it without a result object. */
export const generatorNext: CallImpl = (t, a) => generatorResume(t, "next", a.length > 0 ? a[0] : undefined)
registerStepper(generatorNext, (o) => {
  if (brandOf(o) !== Brand.Generator) return undefined
  const s = o[SLOT] as GeneratorState
  return () => {
    const r = runGenerator(s, NEXT, undefined)
    return r.done ? DONE : r.value
  }
})

interface AsyncRequest {
  readonly mode: number
  readonly value: Value
  readonly record: PromiseRecord
}

interface AsyncGeneratorState {
  readonly gen: Body
  state: "suspendedStart" | "suspendedYield" | "executing" | "awaiting-return" | "completed"
  readonly queue: AsyncRequest[]
}

/** Create a program async generator object running `gen`. */
export const makeAsyncGenerator = (gen: Body, proto: Value): Value => {
  const o = Object.create(proto)
  o[SLOT] = { gen, state: "suspendedStart", queue: [] } satisfies AsyncGeneratorState
  o[BRAND] = Brand.AsyncGenerator
  return o
}

/** `asyncGenerator.next(v)`, `.throw(e)` and `.return(v)`: queue the request and return its promise. */
export const asyncGeneratorEnqueue = (o: Value, mode: "next" | "throw" | "return", value: Value): Value => {
  const record = newPromise()
  if (typeof o !== "object" || o === null || brandOf(o) !== Brand.AsyncGenerator) {
    rejectPromise(
      record,
      rt.realm.makeError("TypeError", `AsyncGenerator.prototype.${mode} called on an incompatible receiver`),
    )
    return record.object
  }
  const s = o[SLOT] as AsyncGeneratorState
  s.queue.push({ mode: mode === "next" ? NEXT : mode === "throw" ? THROW : RETURN, value, record })
  if (s.state !== "executing" && s.state !== "awaiting-return") drainAsyncGenerator(s)
  return record.object
}

const drainAsyncGenerator = (s: AsyncGeneratorState): void => {
  while (
    s.queue.length > 0 &&
    (s.state === "completed" || s.state === "suspendedStart" || s.state === "suspendedYield")
  ) {
    const req = s.queue[0]
    if (s.state === "suspendedStart" && req.mode !== NEXT) s.state = "completed"
    if (s.state === "completed") {
      if (req.mode === RETURN) {
        s.state = "awaiting-return"
        awaitValue(
          req.value,
          (v) => {
            s.state = "completed"
            s.queue.shift()
            resolvePromise(req.record, iterResult(v, true))
            drainAsyncGenerator(s)
          },
          (e) => {
            s.state = "completed"
            s.queue.shift()
            rejectPromise(req.record, e)
            drainAsyncGenerator(s)
          },
        )
        return
      }
      s.queue.shift()
      if (req.mode === THROW) rejectPromise(req.record, req.value)
      else resolvePromise(req.record, iterResult(undefined, true))
      continue
    }
    s.state = "executing"
    if (req.mode === RETURN) {
      // `return(v)` at a `yield`: the generator awaits `v` there, so a rejection is thrown at the `yield`.
      awaitValue(
        req.value,
        (v) => stepAsyncGenerator(s, RETURN, v),
        (e) => stepAsyncGenerator(s, THROW, e),
      )
    } else stepAsyncGenerator(s, req.mode, req.value)
    return
  }
}

const stepAsyncGenerator = (s: AsyncGeneratorState, mode: number, value: Value): void => {
  let r: IteratorResult<Value, Value>
  rt.awaiting = false
  try {
    r = resume(s.gen, mode, value)
  } catch (e) {
    const reason = caught(e)
    s.state = "completed"
    const req = s.queue.shift()!
    rejectPromise(req.record, reason)
    drainAsyncGenerator(s)
    return
  }
  if (!r.done && rt.awaiting) {
    awaitValue(
      r.value,
      (v) => stepAsyncGenerator(s, NEXT, v),
      (e) => stepAsyncGenerator(s, THROW, e),
    )
    return
  }
  // A `yield` or the end of the body: the value is awaited before it is delivered.
  const done = !!r.done
  awaitValue(
    r.value,
    (v) => {
      const req = s.queue.shift()!
      s.state = done ? "completed" : "suspendedYield"
      resolvePromise(req.record, iterResult(v, done))
      drainAsyncGenerator(s)
    },
    (e) => {
      if (done) {
        const req = s.queue.shift()!
        s.state = "completed"
        rejectPromise(req.record, e)
        drainAsyncGenerator(s)
      } else stepAsyncGenerator(s, THROW, e)
    },
  )
}

/** Run a resumable body as the program's top level: settles `record` with the program's outcome. */
export const runTopLevel = (gen: Body): PromiseRecord => {
  const record = newPromise()
  record.handled = true
  runAsync(gen, record)
  return record
}

/** How V8 shows a value no expression names (`number 5`, `object null`, `object`). */
export const valueText = (v: Value): string =>
  v === undefined
    ? "undefined"
    : v === null
      ? "object null"
      : typeof v === "object"
        ? "object"
        : typeof v === "string"
          ? `string "${v}"`
          : typeof v === "symbol"
            ? `symbol ${v.toString()}`
            : `${typeof v} ${String(v)}`

/** V8's message for a value that is not iterable, when no expression names it (`number 5 is not iterable (...)`). */
export const notIterableValue = (v: Value): string =>
  `${valueText(v)} is not iterable (cannot read property Symbol(Symbol.iterator))`

/** A method of an iterator (`GetMethod`): undefined when absent, a `TypeError` when not callable. */
const iteratorMethod = (iterator: Value, name: string, loc: Location): Value => {
  const m = iterator[name]
  if (m === undefined || m === null) return undefined
  if (!isCallable(m)) throwTypeError(`${shortDescription(m)} is not a function`, loc)
  return m
}

const checkResult = (result: Value, loc: Location): Value => {
  if (!isObject(result)) throwTypeError(`Iterator result ${shortDescription(result)} is not an object`, loc)
  return result
}

/**
 * `yield* iterable` inside a generator (or an async generator when `isAsync`): forwards `next`, `throw` and
 * `return` (with their values) to the inner iterator until it is done, and returns its final value. In an async
 * generator a sync iterable is used as the language's async-from-sync iterator: each value it produces is awaited
 * (a rejection is thrown at the `yield*`).
 */
export function* delegateYield(iterable: Value, isAsync: boolean, loc: Location): Body {
  let iterator: Value
  let fromSync = false
  const asyncMethod = isAsync ? getIteratorMethod(iterable, Symbol.asyncIterator) : undefined
  if (asyncMethod !== undefined) iterator = call(asyncMethod, iterable, NO_ARGS)
  else {
    const method = getIteratorMethod(iterable, Symbol.iterator)
    if (method === undefined) return throwTypeError(notIterableValue(iterable), loc)
    iterator = call(method, iterable, NO_ARGS)
    fromSync = isAsync
  }
  if (!isObject(iterator)) throwTypeError("Result of the Symbol.iterator method is not an object", loc)
  const next = iterator.next
  /** Await an inner result: the result itself (async iterators), or its value (async-from-sync). */
  function* settle(result: Value): Generator<Value, Value, Value> {
    if (!isAsync) return checkResult(result, loc)
    if (!fromSync) {
      rt.awaiting = true
      return checkResult(yield result, loc)
    }
    checkResult(result, loc)
    const done = !!result.done
    rt.awaiting = true
    const value = yield result.value
    return { value, done }
  }
  let mode = NEXT
  let received: Value
  for (;;) {
    let result: Value
    if (mode === NEXT) result = yield* settle(call(next, iterator, [received]))
    else if (mode === THROW) {
      const m = iteratorMethod(iterator, "throw", loc)
      if (m === undefined) {
        // The protocol is broken: close the inner iterator, then fail.
        const close = iteratorMethod(iterator, "return", loc)
        if (close !== undefined) {
          const r = call(close, iterator, NO_ARGS)
          if (isAsync && !fromSync) {
            rt.awaiting = true
            checkResult(yield r, loc)
          } else checkResult(r, loc)
        }
        return throwTypeError("The iterator does not provide a 'throw' method.", loc)
      }
      result = yield* settle(call(m, iterator, [received]))
    } else {
      let value = received
      const m = iteratorMethod(iterator, "return", loc)
      if (m === undefined) {
        if (isAsync) {
          rt.awaiting = true
          value = yield value
        }
        throw new GeneratorReturn(value)
      }
      result = yield* settle(call(m, iterator, [value]))
      if (result.done) throw new GeneratorReturn(result.value)
    }
    if (result.done) return result.value
    try {
      rt.awaiting = false
      received = yield result.value
      mode = NEXT
    } catch (e) {
      if (e instanceof GeneratorReturn) {
        mode = RETURN
        received = e.value
      } else {
        mode = THROW
        received = caught(e)
      }
    }
  }
}
