/**
 * Iterator prototypes: `%IteratorPrototype%`, array/string/Map/Set iterators, generators and async generators.
 */
import { throwUnsupported } from "../runtime/errors.js"
import {
  arg,
  type CallImpl,
  defineMethod,
  defineTag,
  incompatibleReceiver,
  makeNative,
  type Value,
} from "../runtime/functions.js"
import { asyncGeneratorEnqueue, generatorNext, generatorResume } from "../runtime/generators.js"
import { BRAND, Brand, CALL, CALL3, CALLN, CONSTRUCT, CONSTRUCT3, SLOT, brandOf } from "../runtime/internals.js"
import { DONE, iterResult, registerStepper } from "../runtime/iterators.js"
import type { Realm } from "../runtime/realm.js"
import { rt } from "../runtime/state.js"

interface ArrayIteratorState {
  array: Value | undefined
  index: number
  readonly kind: "keys" | "values" | "entries"
}

interface HostIteratorState {
  readonly it: Iterator<Value>
  readonly map: (v: Value) => Value
}

/** A program iterator over an array-like (`values()`, `keys()`, `entries()`). */
export const createArrayIterator = (realm: Realm, array: Value, kind: "keys" | "values" | "entries"): Value => {
  const o = Object.create(realm.ArrayIteratorProto)
  o[SLOT] = { array, index: 0, kind } satisfies ArrayIteratorState
  o[BRAND] = Brand.ArrayIterator
  return o
}

/** A program iterator over a host iterator (Map and Set iterators, string iterators, regexp matches). */
export const createHostIterator = (
  proto: Value,
  brand: number,
  it: Iterator<Value>,
  map: (v: Value) => Value,
): Value => {
  const o = Object.create(proto)
  o[SLOT] = { it, map } satisfies HostIteratorState
  o[BRAND] = brand
  return o
}

/** The next value of an array iterator, or `DONE` (the iterator then lets go of its array). */
const arrayIteratorStep = (s: ArrayIteratorState): Value => {
  const a = s.array
  if (a === undefined) return DONE
  const length = typeof a === "string" ? a.length : a.length >>> 0
  if (s.index >= length) {
    s.array = undefined
    return DONE
  }
  const i = s.index++
  if (s.kind === "keys") return i
  const v = a[i]
  return s.kind === "values" ? v : rt.realm.newArray([i, v])
}

const arrayIteratorNext: CallImpl = (t) => {
  if (typeof t !== "object" || t === null || brandOf(t) !== Brand.ArrayIterator) {
    return incompatibleReceiver("Array Iterator.prototype.next", t)
  }
  const v = arrayIteratorStep(t[SLOT] as ArrayIteratorState)
  return v === DONE ? iterResult(undefined, true) : iterResult(v, false)
}
registerStepper(arrayIteratorNext, (t) => {
  if (brandOf(t) !== Brand.ArrayIterator) return undefined
  const s = t[SLOT] as ArrayIteratorState
  return () => arrayIteratorStep(s)
})

/** The built-in `next` of the iterators over a host iterator with brand `brand`, registered as their stepper. */
const hostNext = (brand: number, label: string): CallImpl => {
  const next: CallImpl = (t) => {
    if (typeof t !== "object" || t === null || brandOf(t) !== brand)
      return incompatibleReceiver(`${label}.prototype.next`, t)
    const s = t[SLOT] as HostIteratorState
    const r = s.it.next()
    return r.done ? iterResult(undefined, true) : iterResult(s.map(r.value), false)
  }
  registerStepper(next, (t) => {
    if (brandOf(t) !== brand) return undefined
    const { it, map } = t[SLOT] as HostIteratorState
    return () => {
      const r = it.next()
      return r.done ? DONE : map(r.value)
    }
  })
  return next
}
const mapIteratorNext = hostNext(Brand.MapIterator, "Map Iterator")
const setIteratorNext = hostNext(Brand.SetIterator, "Set Iterator")
const stringIteratorNext = hostNext(Brand.StringIterator, "String Iterator")
const regExpStringIteratorNext = hostNext(Brand.RegExpStringIterator, "RegExp String Iterator")

/** Install the iterator prototypes. */
export const installIteration = (realm: Realm): void => {
  const iteratorProto = realm.newObject()
  realm.IteratorProto = iteratorProto
  defineMethod(iteratorProto, Symbol.iterator, 0, (t) => t)
  const asyncIteratorProto = realm.newObject()
  realm.AsyncIteratorProto = asyncIteratorProto
  defineMethod(asyncIteratorProto, Symbol.asyncIterator, 0, (t) => t)

  const arrayIteratorProto = Object.create(iteratorProto)
  realm.ArrayIteratorProto = arrayIteratorProto
  realm.arrayIteratorNext = defineMethod(arrayIteratorProto, "next", 0, arrayIteratorNext)
  defineTag(arrayIteratorProto, "Array Iterator")

  const hostIteratorProto = (next: CallImpl, label: string): [Value, Value] => {
    const p = Object.create(iteratorProto)
    const method = defineMethod(p, "next", 0, next)
    defineTag(p, label)
    return [p, method]
  }
  ;[realm.MapIteratorProto, realm.mapIteratorNext] = hostIteratorProto(mapIteratorNext, "Map Iterator")
  ;[realm.SetIteratorProto, realm.setIteratorNext] = hostIteratorProto(setIteratorNext, "Set Iterator")
  ;[realm.StringIteratorProto] = hostIteratorProto(stringIteratorNext, "String Iterator")
  ;[realm.RegExpStringIteratorProto] = hostIteratorProto(regExpStringIteratorNext, "RegExp String Iterator")

  const generatorProto = Object.create(iteratorProto)
  realm.GeneratorProto = generatorProto
  defineMethod(generatorProto, "next", 1, generatorNext)
  defineMethod(generatorProto, "return", 1, (t, a) => generatorResume(t, "return", arg(a, 0)))
  defineMethod(generatorProto, "throw", 1, (t, a) => generatorResume(t, "throw", arg(a, 0)))
  defineTag(generatorProto, "Generator")

  /**
   * `%GeneratorFunction.prototype%` and its siblings: the prototypes of generator, async and async generator
   * functions, whose constructors (like `Function`) refuse to make code from strings.
   */
  const functionKind = (display: string, name: string, instances?: Value): void => {
    // An ordinary object: it inherits from Function.prototype without being callable.
    const proto = Object.create(realm.FunctionProto)
    proto[CALL] = undefined
    proto[CALL3] = undefined
    proto[CALLN] = undefined
    proto[CONSTRUCT] = undefined
    proto[CONSTRUCT3] = undefined
    const refuse = () =>
      throwUnsupported("The Function constructor is not supported: functions cannot be created from strings")
    const ctor = makeNative(name, 1, refuse, refuse)
    Object.setPrototypeOf(ctor, realm.Function)
    Object.defineProperty(ctor, "prototype", { value: proto, writable: false, enumerable: false, configurable: false })
    Object.defineProperty(proto, "constructor", { value: ctor, writable: false, enumerable: false, configurable: true })
    if (instances !== undefined) {
      Object.defineProperty(proto, "prototype", {
        value: instances,
        writable: false,
        enumerable: false,
        configurable: true,
      })
      Object.defineProperty(instances, "constructor", {
        value: proto,
        writable: false,
        enumerable: false,
        configurable: true,
      })
    }
    defineTag(proto, name)
    realm.setFunctionKindPrototype(display, proto)
  }
  functionKind("generator function", "GeneratorFunction", generatorProto)
  functionKind("async function", "AsyncFunction")

  const asyncGeneratorProto = Object.create(asyncIteratorProto)
  realm.AsyncGeneratorProto = asyncGeneratorProto
  defineMethod(asyncGeneratorProto, "next", 1, (t, a) => asyncGeneratorEnqueue(t, "next", arg(a, 0)))
  defineMethod(asyncGeneratorProto, "return", 1, (t, a) => asyncGeneratorEnqueue(t, "return", arg(a, 0)))
  defineMethod(asyncGeneratorProto, "throw", 1, (t, a) => asyncGeneratorEnqueue(t, "throw", arg(a, 0)))
  defineTag(asyncGeneratorProto, "AsyncGenerator")
  functionKind("async generator function", "AsyncGeneratorFunction", asyncGeneratorProto)
}
