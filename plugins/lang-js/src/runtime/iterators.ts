/**
 * The iteration protocol as the interpreter uses it (for-of, spread, destructuring, `Array.from`...).
 *
 * Arrays, strings, Maps and Sets take host-speed paths while the program has not replaced their iteration
 * methods; everything else goes through the program-visible protocol (`[Symbol.iterator]()`, `next()`, `return()`).
 */
import { FatalError, throwTypeError } from "./errors.js"
import { type CallImpl, call, isCallable, isObject, NO_ARGS, shortDescription, type Value } from "./functions.js"
import { Brand, CALL, SLOT, brandOf } from "./internals.js"
import { charge } from "./meter.js"
import { ELEMENT_BYTES, reserveElements, reserveHeap } from "./memory.js"
import { getProp } from "./properties.js"
import { rt } from "./state.js"

/** Returned by `Iter.next()` when the iteration is over. Never visible to programs. */
export const DONE: Value = Object.freeze({ done: true })

/** A host-side view of a program iteration. */
export interface Iter {
  /** The next value, or `DONE`. */
  next(): Value
  /** Close the iterator early (break, return, throw): calls the program's `return()` when there is one. */
  close(): void
}

class ArrayIter implements Iter {
  private i = 0
  constructor(private readonly a: Value[]) {}
  next(): Value {
    const a = this.a
    return this.i < a.length ? a[this.i++] : DONE
  }
  close(): void {}
}

class StringIter implements Iter {
  private i = 0
  constructor(private readonly s: string) {}
  next(): Value {
    const s = this.s
    if (this.i >= s.length) return DONE
    const cp = s.codePointAt(this.i)!
    const ch = cp > 0xffff ? s.slice(this.i, this.i + 2) : s[this.i]
    this.i += ch.length
    return ch
  }
  close(): void {}
}

class HostIter implements Iter {
  constructor(
    private readonly it: Iterator<Value>,
    private readonly map: (v: Value) => Value,
  ) {}
  next(): Value {
    const r = this.it.next()
    return r.done ? DONE : this.map(r.value)
  }
  close(): void {}
}

/**
 * Steps a built-in iterator (array, Map, Set, string and regexp iterators, generators) from its internal state: one
 * value per call, or `DONE`, exactly as its built-in `next` method would produce it, without making the
 * `{ value, done }` object the program never sees. Returns undefined for a receiver the method would refuse.
 */
export type Stepper = (iterator: Value) => (() => Value) | undefined

const steppers = new Map<CallImpl, Stepper>()

/** Let iterations step the iterators whose `next` method is the built-in `impl` directly (see `Stepper`). */
export const registerStepper = (impl: CallImpl, stepper: Stepper): void => {
  steppers.set(impl, stepper)
}

/**
 * An iterator whose `next` is a built-in method, stepped directly. Closing it asks for the program-visible
 * `return()` as `ProtocolIter` does (a program may have given the prototype one).
 */
class DirectIter implements Iter {
  private finished = false
  constructor(
    private readonly iterator: Value,
    private readonly step: () => Value,
  ) {}
  next(): Value {
    if (this.finished) return DONE
    const v = this.step()
    if (v === DONE) this.finished = true
    return v
  }
  close(): void {
    if (this.finished) return
    this.finished = true
    closeIterator(this.iterator)
  }
}

/** `IteratorClose` for a normal completion: the program's `return()` runs, and must give an object. */
const closeIterator = (iterator: Value): void => {
  const ret = iterator.return
  if (ret === undefined || ret === null) return
  const r = call(ret, iterator, NO_ARGS)
  if (!isObject(r)) throwTypeError(`Iterator result ${shortDescription(r)} is not an object`)
}

/** An iterator driven through the program-visible protocol. */
export class ProtocolIter implements Iter {
  private finished = false
  constructor(
    readonly iterator: Value,
    private readonly nextMethod: Value,
  ) {}
  next(): Value {
    if (this.finished) return DONE
    const r = call(this.nextMethod, this.iterator, NO_ARGS)
    if (!isObject(r)) throwTypeError(`Iterator result ${shortDescription(r)} is not an object`)
    if (r.done) {
      this.finished = true
      return DONE
    }
    return r.value
  }
  close(): void {
    if (this.finished) return
    this.finished = true
    closeIterator(this.iterator)
  }
}

/**
 * `IteratorClose` after the loop over `it` threw `e`: the program's `return()` runs, its own failure is ignored and
 * `e` is thrown again. Nothing of the program runs after a fatal failure.
 */
export const closeAfterThrow = (it: Iter, e: unknown): never => {
  if (!(e instanceof FatalError) && !rt.dead) {
    try {
      it.close()
    } catch (closing) {
      if (closing instanceof FatalError) throw closing
    }
  }
  throw e
}

/**
 * True while arrays still iterate with the built-in array iterator, which has no `return` method (one a program
 * gives it, or its prototypes, must run when a loop or pattern leaves early: the check asks `in`, running no getter).
 */
export const arrayIterationIsPristine = (a: Value[]): boolean => {
  const realm = rt.realm
  const proto = realm.ArrayIteratorProto
  return (
    a[Symbol.iterator as unknown as number] === realm.arrayValues &&
    proto.next === realm.arrayIteratorNext &&
    !("return" in proto)
  )
}

const entryPair = (e: [Value, Value]): Value => rt.realm.newArray(e)
const identity = (v: Value): Value => v

/**
 * Start iterating a program value; a non-iterable is a `TypeError` (with the message `notIterable` gives, when the
 * caller can name the iterated expression the way V8 does).
 */
export const getIterator = (v: Value, notIterable?: () => string): Iter => {
  if (Array.isArray(v) && arrayIterationIsPristine(v)) return new ArrayIter(v)
  const realm = rt.realm
  if (typeof v === "string" && realm.StringProto[Symbol.iterator] === realm.stringIterator) return new StringIter(v)
  if (typeof v === "object" && v !== null) {
    const brand = brandOf(v)
    if (
      brand === Brand.Map &&
      v[Symbol.iterator] === realm.mapEntries &&
      realm.MapIteratorProto.next === realm.mapIteratorNext
    ) {
      return new HostIter((v[SLOT] as Map<Value, Value>).entries(), entryPair)
    }
    if (
      brand === Brand.Set &&
      v[Symbol.iterator] === realm.setValues &&
      realm.SetIteratorProto.next === realm.setIteratorNext
    ) {
      return new HostIter((v[SLOT] as Set<Value>).values(), identity)
    }
  }
  const method = v === undefined || v === null ? undefined : getProp(v, Symbol.iterator)
  if (!isCallable(method)) return throwTypeError(notIterable ? notIterable() : `${shortDescription(v)} is not iterable`)
  return protocolIterator(call(method, v, NO_ARGS))
}

/** `GetMethod(v, sym)`: the callable at `v[sym]`, or undefined when absent; a non-callable is a `TypeError`. */
export const getIteratorMethod = (v: Value, sym: symbol): Value => {
  if (v === undefined || v === null) return undefined
  const m = getProp(v, sym)
  if (m === undefined || m === null) return undefined
  if (!isCallable(m)) throwTypeError(`${shortDescription(m)} is not a function`)
  return m
}

/**
 * Wrap an iterator object the program produced. Its `next` is read once, as the language does; when it is a
 * built-in `next` (a registered stepper's) the iterator is stepped directly.
 */
export const protocolIterator = (iterator: Value): Iter => {
  if (!isObject(iterator)) throwTypeError("Result of the Symbol.iterator method is not an object")
  const next = iterator.next
  if (typeof next === "object" && next !== null) {
    const impl = next[CALL]
    const stepper = impl === undefined ? undefined : steppers.get(impl)
    const step = stepper === undefined ? undefined : stepper(iterator)
    if (step !== undefined) return new DirectIter(iterator, step)
  }
  return new ProtocolIter(iterator, next)
}

/**
 * Check that a list built one element at a time can take its next element at `length`: the element bound, and the
 * heap each time the list has grown by 64 Ki elements (a full backing store is copied into one half as long again).
 */
export const checkListGrowth = (length: number): void => {
  if ((length & 0xffff) === 0 && length > 0) {
    reserveElements(length + 1)
    reserveHeap(length * ELEMENT_BYTES * 1.5)
  }
}

/** Collect an iterable's values into a host array (for spread and `Array.from`). */
export const iterateToList = (v: Value): Value[] => {
  if (Array.isArray(v) && arrayIterationIsPristine(v)) {
    const n = v.length
    reserveElements(n)
    charge(n)
    const out = new Array(n)
    for (let i = 0; i < n; i++) out[i] = v[i]
    return out
  }
  const it = getIterator(v)
  const out: Value[] = []
  for (;;) {
    const x = it.next()
    if (x === DONE) return out
    checkListGrowth(out.length)
    if (--rt.fuel < 0) charge(0)
    out.push(x)
  }
}

/** A program iterator-result object `{ value, done }`. */
export const iterResult = (value: Value, done: boolean): Value => {
  const o = new rt.realm.SO()
  o.value = value
  o.done = done
  return o
}
