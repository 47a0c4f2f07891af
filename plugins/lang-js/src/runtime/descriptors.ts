/**
 * Property descriptors crossing between the program and the host: accessor functions are host wrappers around
 * program functions, so a descriptor the program sees has the program functions back, never the wrappers.
 */
import { throwTypeError } from "./errors.js"
import {
  hostGetter,
  hostSetter,
  isCallable,
  isObject,
  isUnmaterialized,
  materialize,
  programAccessor,
  shortDescription,
  type Value,
} from "./functions.js"
import { setArrayLength, toArrayLength } from "./arrays.js"
import { toNumber } from "./operators.js"
import { isIndexKey, noteAccessor, noteElementWrite, noteRedefinition } from "./properties.js"
import { rt } from "./state.js"

/** `ToPropertyDescriptor(obj)`: a program descriptor object to a host descriptor. */
export const toHostDescriptor = (d: Value): PropertyDescriptor => {
  if (!isObject(d)) return throwTypeError(`Property description must be an object: ${shortDescription(d)}`)
  const out: PropertyDescriptor = {}
  if ("enumerable" in d) out.enumerable = !!d.enumerable
  if ("configurable" in d) out.configurable = !!d.configurable
  if ("value" in d) out.value = d.value
  if ("writable" in d) out.writable = !!d.writable
  if ("get" in d) {
    const g = d.get
    if (g !== undefined && !isCallable(g)) throwTypeError(`Getter must be a function: ${shortDescription(g)}`)
    out.get = g === undefined ? undefined : hostGetter(g)
  }
  if ("set" in d) {
    const s = d.set
    if (s !== undefined && !isCallable(s)) throwTypeError(`Setter must be a function: ${shortDescription(s)}`)
    out.set = s === undefined ? undefined : hostSetter(s)
  }
  if (("get" in out || "set" in out) && ("value" in out || "writable" in out)) {
    throwTypeError("Invalid property descriptor. Cannot both specify accessors and a value or writable attribute")
  }
  return out
}

/**
 * `Object.defineProperty` with a program descriptor. An array's `length` is converted and checked as an assignment
 * would be (`ArraySetLength`); an element is checked like an element write.
 */
export const defineFromProgram = (o: object, key: PropertyKey, d: Value): void => {
  const host = toHostDescriptor(d)
  if (isUnmaterialized(o)) materialize(o)
  noteRedefinition(o)
  if (host.get !== undefined || host.set !== undefined) noteAccessor(o)
  if (typeof key === "number") noteElementWrite(o, key)
  else if (typeof key === "string") {
    if (isIndexKey(key)) noteElementWrite(o, Number(key))
    else if (key === "length" && Array.isArray(o) && "value" in host) {
      const length = toArrayLength(host.value, toNumber)
      // Grow (checked) first, then apply the rest of the descriptor.
      if (length > o.length && Object.getOwnPropertyDescriptor(o, "length")!.writable) setArrayLength(o, length)
      host.value = length
    }
  }
  Object.defineProperty(o, key, host)
}

/** `FromPropertyDescriptor(desc)`: a host descriptor to a program object. */
export const fromHostDescriptor = (d: PropertyDescriptor | undefined): Value => {
  if (d === undefined) return undefined
  const o = rt.realm.newObject()
  if ("value" in d || "writable" in d) {
    o.value = d.value
    o.writable = !!d.writable
  } else {
    o.get = programAccessor(d.get)
    o.set = programAccessor(d.set)
  }
  o.enumerable = !!d.enumerable
  o.configurable = !!d.configurable
  return o
}
