/**
 * Promises and the microtask queue, following the language's job semantics so that the order in which callbacks run
 * is the order Node gives.
 *
 * A program promise is a realm object carrying a `PromiseRecord` under `SLOT`. Reactions are program functions, or
 * host continuations (for `await`, combinators and host calls) that skip creating program function objects while
 * taking the same number of jobs.
 */
import { caught, makeError } from "./errors.js"
import { call, isCallable, makeNative, type Value } from "./functions.js"
import { BRAND, Brand, SLOT, brandOf } from "./internals.js"
import { refuel } from "./meter.js"
import { rt } from "./state.js"

const PENDING = 0
const FULFILLED = 1
const REJECTED = 2

/** The host state of one program promise. */
export interface PromiseRecord {
  state: 0 | 1 | 2
  value: Value
  reactions: Reaction[] | null
  handled: boolean
  readonly object: Value
}

/** A host continuation: receives the settled value. */
export type HostHandler = (value: Value) => void

interface Reaction {
  readonly onFulfilled: Value
  readonly onRejected: Value
  /** The promise `then` returned, to be resolved with the handler's result. */
  readonly derived: PromiseRecord | undefined
  /** True when the handlers are host continuations. */
  readonly host: boolean
}

const JOB_REACTION = 0
const JOB_THENABLE = 1
/** A host continuation called with a value: `await` of a value that is not a thenable. */
const JOB_HOST = 2

let queue: Value[] = []
let head = 0
const unhandled = new Set<PromiseRecord>()
let originalThen: Value

/** Forget the previous execution's jobs and rejections. */
export const resetPromises = (): void => {
  queue = []
  head = 0
  unhandled.clear()
}

/** Remember the realm's own `Promise.prototype.then` (resolving with its promises may skip a program call). */
export const setOriginalThen = (then: Value): void => {
  originalThen = then
}

const enqueue = (kind: number, a: Value, b: Value): void => {
  queue.push(kind, a, b)
}

/** True when jobs are waiting. */
export const hasJobs = (): boolean => head < queue.length

/** Run jobs until the queue is empty. Each job is one unit of work. */
export const drainJobs = (): void => {
  while (head < queue.length) {
    const kind = queue[head]
    const a = queue[head + 1]
    const b = queue[head + 2]
    queue[head] = queue[head + 1] = queue[head + 2] = undefined
    head += 3
    if (head > 3000 && head * 2 > queue.length) {
      queue = queue.slice(head)
      head = 0
    }
    if (--rt.fuel < 0) refuel()
    rt.depth = 0
    if (kind === JOB_REACTION) runReaction(a as Reaction, b as PromiseRecord)
    else if (kind === JOB_HOST) (a as HostHandler)(b)
    else runThenable(a as PromiseRecord, b as Value[])
  }
}

const runReaction = (reaction: Reaction, settled: PromiseRecord): void => {
  const fulfilled = settled.state === FULFILLED
  const handler = fulfilled ? reaction.onFulfilled : reaction.onRejected
  if (reaction.host) {
    ;(handler as HostHandler)(settled.value)
    return
  }
  const derived = reaction.derived
  if (handler === undefined) {
    if (derived) {
      if (fulfilled) resolvePromise(derived, settled.value)
      else rejectPromise(derived, settled.value)
    }
    return
  }
  let result: Value
  try {
    result = call(handler, undefined, [settled.value])
  } catch (e) {
    const reason = caught(e)
    if (derived) rejectPromise(derived, reason)
    return
  }
  if (derived) resolvePromise(derived, result)
}

const runThenable = (target: PromiseRecord, pair: Value[]): void => {
  const thenable = pair[0]
  const then = pair[1]
  const inner = thenable[SLOT] as PromiseRecord | undefined
  if (then === originalThen && inner !== undefined && brandOf(thenable) === Brand.Promise) {
    performThen(
      inner,
      (v: Value) => resolvePromise(target, v),
      (r: Value) => rejectPromise(target, r),
      undefined,
      true,
    )
    return
  }
  const [resolve, reject] = resolvingFunctions(target)
  try {
    call(then, thenable, [resolve, reject])
  } catch (e) {
    const reason = caught(e)
    call(reject, undefined, [reason])
  }
}

/** Create a pending program promise. */
export const newPromise = (proto?: Value): PromiseRecord => {
  const object = Object.create(proto ?? rt.realm.PromiseProto)
  const record: PromiseRecord = { state: PENDING, value: undefined, reactions: [], handled: false, object }
  object[SLOT] = record
  object[BRAND] = Brand.Promise
  return record
}

/** The record of a program promise, or undefined for anything else. */
export const promiseRecord = (v: Value): PromiseRecord | undefined =>
  typeof v === "object" && v !== null && brandOf(v) === Brand.Promise ? (v[SLOT] as PromiseRecord) : undefined

/** Fulfill a pending promise. */
export const fulfillPromise = (record: PromiseRecord, value: Value): void => {
  if (record.state !== PENDING) return
  const reactions = record.reactions!
  record.state = FULFILLED
  record.value = value
  record.reactions = null
  for (let i = 0; i < reactions.length; i++) enqueue(JOB_REACTION, reactions[i], record)
}

/** Reject a pending promise. */
export const rejectPromise = (record: PromiseRecord, reason: Value): void => {
  if (record.state !== PENDING) return
  const reactions = record.reactions!
  record.state = REJECTED
  record.value = reason
  record.reactions = null
  if (!record.handled) unhandled.add(record)
  for (let i = 0; i < reactions.length; i++) enqueue(JOB_REACTION, reactions[i], record)
}

/** Resolve a promise with a value that may be a thenable (the language's promise resolve functions). */
export const resolvePromise = (record: PromiseRecord, value: Value): void => {
  if (record.state !== PENDING) return
  if (value === record.object) {
    rejectPromise(record, makeError("TypeError", "Chaining cycle detected for promise"))
    return
  }
  if (typeof value !== "object" || value === null) {
    fulfillPromise(record, value)
    return
  }
  let then: Value
  try {
    then = value.then
  } catch (e) {
    rejectPromise(record, caught(e))
    return
  }
  if (!isCallable(then)) {
    fulfillPromise(record, value)
    return
  }
  enqueue(JOB_THENABLE, record, [value, then])
}

/** The program-visible `resolve`/`reject` pair for a promise, sharing one "already resolved" flag. */
export const resolvingFunctions = (record: PromiseRecord): [Value, Value] => {
  let done = false
  const resolve = makeNative("", 1, (_t, args) => {
    if (done) return undefined
    done = true
    resolvePromise(record, args.length > 0 ? args[0] : undefined)
    return undefined
  })
  const reject = makeNative("", 1, (_t, args) => {
    if (done) return undefined
    done = true
    rejectPromise(record, args.length > 0 ? args[0] : undefined)
    return undefined
  })
  return [resolve, reject]
}

/**
 * `PerformPromiseThen`: register handlers (program functions, or host continuations when `host`), resolving
 * `derived` with the handler's result.
 */
export const performThen = (
  record: PromiseRecord,
  onFulfilled: Value,
  onRejected: Value,
  derived: PromiseRecord | undefined,
  host: boolean,
): void => {
  const reaction: Reaction = { onFulfilled, onRejected, derived, host }
  if (record.state === PENDING) record.reactions!.push(reaction)
  else {
    if (record.state === REJECTED && !record.handled) unhandled.delete(record)
    enqueue(JOB_REACTION, reaction, record)
  }
  record.handled = true
}

/** `PromiseResolve(%Promise%, value)`: the promise itself when it is one of the realm's, else a new one. */
export const promiseResolve = (value: Value): PromiseRecord => {
  const existing = promiseRecord(value)
  if (existing !== undefined && value.constructor === rt.realm.Promise) return existing
  const record = newPromise()
  resolvePromise(record, value)
  return record
}

/**
 * `await value`: continue with `onFulfilled` or `onRejected` one job after `value` settles. A value that is not a
 * promise takes the jobs `PromiseResolve` and `PerformPromiseThen` would give it without the promise: one job when
 * it is not a thenable (its `then` read once), the thenable job first when it is.
 */
export const awaitValue = (value: Value, onFulfilled: HostHandler, onRejected: HostHandler): void => {
  if (typeof value === "object" && value !== null) {
    if (brandOf(value) === Brand.Promise) {
      performThen(promiseResolve(value), onFulfilled, onRejected, undefined, true)
      return
    }
    let then: Value
    try {
      then = value.then
    } catch (e) {
      enqueue(JOB_HOST, onRejected, caught(e))
      return
    }
    if (isCallable(then)) {
      const record = newPromise()
      enqueue(JOB_THENABLE, record, [value, then])
      performThen(record, onFulfilled, onRejected, undefined, true)
      return
    }
  } else if (typeof value === "function") {
    performThen(promiseResolve(value), onFulfilled, onRejected, undefined, true)
    return
  }
  enqueue(JOB_HOST, onFulfilled, value)
}

/** A promise already rejected with `reason`. */
export const rejectedPromise = (reason: Value): Value => {
  const record = newPromise()
  rejectPromise(record, reason)
  return record.object
}

/** Promises that were rejected and never got a handler, in rejection order. */
export const unhandledRejections = (): ReadonlyArray<PromiseRecord> => [...unhandled]

/** True when a promise has settled. */
export const isSettled = (record: PromiseRecord): boolean => record.state !== PENDING

/** True when a promise was fulfilled. */
export const isFulfilled = (record: PromiseRecord): boolean => record.state === FULFILLED
