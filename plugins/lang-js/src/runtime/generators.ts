/**
 * Drivers for resumable bodies: async functions, generators and async generators.
 *
 * The compiler turns a body containing `await`/`yield` into a host generator. A host `yield` means `await` when
 * `rt.awaiting` is set before it (always, in async functions) and a program `yield` otherwise. Drivers keep the call
 * depth right across suspensions: `rt.base` is the depth at which the resumed body runs.
 */
import type { Location } from "../protocol.js"
import { caught, throwTypeError } from "./errors.js"
import { call, isObject, NO_ARGS, type Value } from "./functions.js"
import { BRAND, Brand, SLOT } from "./internals.js"
import { getIteratorMethod, iterResult, protocolIterator } from "./iterators.js"
import { awaitValue, newPromise, type PromiseRecord, rejectPromise, resolvePromise } from "./promises.js"
import { rt } from "./state.js"

/** A host generator produced by a compiled resumable body. */
export type Body = Generator<Value, Value, Value>

const NEXT = 0
const THROW = 1
const RETURN = 2

/** Resume a body with `next`, `throw` or `return`, keeping `rt.base` and `rt.depth` right. */
const resume = (gen: Body, mode: number, value: Value): IteratorResult<Value, Value> => {
  const savedBase = rt.base
  const depth = rt.depth
  rt.base = depth
  try {
    return mode === NEXT ? gen.next(value) : mode === THROW ? gen.throw(value) : gen.return(value)
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
  if (typeof o !== "object" || o === null || o[BRAND] !== Brand.Generator) {
    return throwTypeError(`Generator.prototype.${method} called on an incompatible receiver`)
  }
  return o[SLOT] as GeneratorState
}

/** `generator.next(v)`, `.throw(e)` and `.return(v)`. */
export const generatorResume = (o: Value, mode: "next" | "throw" | "return", value: Value): Value => {
  const s = generatorState(o, mode)
  if (s.state === "executing") return throwTypeError("Generator is already running")
  if (s.state === "suspendedStart" && mode !== "next") s.state = "completed"
  if (s.state === "completed") {
    if (mode === "throw") throw value
    return iterResult(mode === "return" ? value : undefined, true)
  }
  s.state = "executing"
  let r: IteratorResult<Value, Value>
  try {
    r = resume(s.gen, mode === "next" ? NEXT : mode === "throw" ? THROW : RETURN, value)
  } catch (e) {
    s.state = "completed"
    throw e
  }
  s.state = r.done ? "completed" : "suspendedYield"
  return iterResult(r.value, !!r.done)
}

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
  if (typeof o !== "object" || o === null || o[BRAND] !== Brand.AsyncGenerator) {
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
    stepAsyncGenerator(s, req.mode, req.value)
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

/** An iterator object for `yield*` over a sync iterable (through the program-visible protocol). */
const protocolIteratorObject = (iterable: Value): Value => {
  const m = getIteratorMethod(iterable, Symbol.iterator)
  if (m === undefined)
    return throwTypeError(`${typeof iterable === "object" ? "object" : String(iterable)} is not iterable`)
  return call(m, iterable, NO_ARGS)
}

/**
 * `yield* iterable` inside a generator (or an async generator when `isAsync`): forwards `next`, `throw` and
 * `return` to the inner iterator until it is done, and returns its final value.
 */
export function* delegateYield(iterable: Value, isAsync: boolean, loc: Location): Body {
  let iterator: Value
  if (isAsync) {
    const m = getIteratorMethod(iterable, Symbol.asyncIterator)
    iterator = m !== undefined ? call(m, iterable, NO_ARGS) : protocolIteratorObject(iterable)
  } else {
    iterator = protocolIteratorObject(iterable)
  }
  if (!isObject(iterator)) throwTypeError("Result of the Symbol.iterator method is not an object", loc)
  const next = iterator.next
  let received: Value
  let mode: "next" | "throw" = "next"
  for (;;) {
    let result: Value
    if (mode === "next") result = call(next, iterator, [received])
    else {
      const m = iterator.throw
      if (m === undefined || m === null) {
        closeIterator(iterator)
        return throwTypeError("The iterator does not provide a 'throw' method", loc)
      }
      result = call(m, iterator, [received])
    }
    if (isAsync) {
      rt.awaiting = true
      result = yield result
    }
    if (!isObject(result)) throwTypeError("Iterator result is not an object", loc)
    if (result.done) return result.value
    let returning = true
    try {
      rt.awaiting = false
      received = yield result.value
      mode = "next"
      returning = false
    } catch (e) {
      received = caught(e)
      mode = "throw"
      returning = false
    } finally {
      if (returning && !rt.dead) {
        // The consumer called `return()`: forward it to the inner iterator.
        const m = iterator.return
        if (m !== undefined && m !== null) {
          let r = call(m, iterator, NO_ARGS)
          if (isAsync) {
            rt.awaiting = true
            r = yield r
          }
          if (!isObject(r)) throwTypeError("Iterator result is not an object", loc)
        }
      }
    }
  }
}

/** Close an iterator object after a protocol violation, ignoring what closing throws. */
const closeIterator = (iterator: Value): void => {
  if (rt.dead) return
  try {
    protocolIterator(iterator).close()
  } catch (e) {
    if (rt.dead) throw e
  }
}
