/**
 * `Reflect`: the reflective operations, over program objects only.
 */
import { defineFromProgram, fromHostDescriptor } from "../runtime/descriptors.js"
import { throwTypeError } from "../runtime/errors.js"
import {
  arg,
  call,
  construct,
  defineMethod,
  isConstructor,
  isObject,
  isUnmaterialized,
  materialize,
  type Value,
  defineTag,
} from "../runtime/functions.js"
import { setArrayLength, toArrayLength } from "../runtime/arrays.js"
import { hasProperty, toNumber, toPropertyKey } from "../runtime/operators.js"
import { deleteProp, isIndexKey, noteElementWrite, ownDescriptor } from "../runtime/properties.js"
import type { Realm } from "../runtime/realm.js"
import { setPrototype } from "../compiler/ops.js"
import { listFromArrayLike } from "./function.js"
import { chargedOwnKeys } from "./object.js"

/** Install `Reflect`. */
export const installReflect = (realm: Realm): void => {
  const reflect = realm.newObject()
  const target = (v: Value, what: string): Value =>
    isObject(v) ? v : throwTypeError(`Reflect.${what} called on non-object`)
  const list = listFromArrayLike
  defineMethod(reflect, "apply", 3, (_t, a) => call(arg(a, 0), arg(a, 1), list(arg(a, 2))))
  defineMethod(reflect, "construct", 2, (_t, a) => {
    const f = arg(a, 0)
    const nt = a.length > 2 ? a[2] : f
    if (!isConstructor(nt)) throwTypeError("Reflect.construct: newTarget is not a constructor")
    return construct(f, list(arg(a, 1)), nt)
  })
  defineMethod(reflect, "defineProperty", 3, (_t, a) => {
    try {
      defineFromProgram(target(arg(a, 0), "defineProperty"), toPropertyKey(arg(a, 1)), arg(a, 2))
      return true
    } catch (e) {
      if (e instanceof TypeError) return false
      throw e
    }
  })
  defineMethod(reflect, "deleteProperty", 2, (_t, a) => {
    const o = target(arg(a, 0), "deleteProperty")
    const key = toPropertyKey(arg(a, 1))
    if (ownDescriptor(o, key)?.configurable === false) return false
    return deleteProp(o, key)
  })
  defineMethod(reflect, "get", 2, (_t, a) => {
    const o = target(arg(a, 0), "get")
    return Reflect.get(o, toPropertyKey(arg(a, 1)), a.length > 2 ? a[2] : o)
  })
  defineMethod(reflect, "set", 3, (_t, a) => {
    const o = target(arg(a, 0), "set")
    const key = toPropertyKey(arg(a, 1))
    let value = arg(a, 2)
    const receiver = a.length > 3 ? a[3] : o
    if (receiver === o) {
      // The same checks and conversions as an assignment (array growth, array length, typed array elements).
      if (typeof key === "number") noteElementWrite(o, key)
      else if (typeof key === "string") {
        if (isIndexKey(key)) noteElementWrite(o, Number(key))
        else if (key === "length" && Array.isArray(o)) {
          const length = toArrayLength(value, toNumber)
          if (length > o.length && Object.getOwnPropertyDescriptor(o, "length")!.writable) setArrayLength(o, length)
          value = length
        }
      }
      if (isObject(value) && ArrayBuffer.isView(o)) value = toNumber(value)
    }
    // A property the receiver does not have is created on it (any key, a symbol too).
    if (isObject(receiver)) realm.noteChangeOf(receiver)
    return Reflect.set(o, key, value, receiver)
  })
  defineMethod(reflect, "has", 2, (_t, a) => {
    const o = target(arg(a, 0), "has")
    return hasProperty(arg(a, 1), o)
  })
  defineMethod(reflect, "getOwnPropertyDescriptor", 2, (_t, a) => {
    const o = target(arg(a, 0), "getOwnPropertyDescriptor")
    return fromHostDescriptor(ownDescriptor(o, toPropertyKey(arg(a, 1))))
  })
  defineMethod(reflect, "getPrototypeOf", 1, (_t, a) => Object.getPrototypeOf(target(arg(a, 0), "getPrototypeOf")))
  defineMethod(reflect, "setPrototypeOf", 2, (_t, a) => {
    const o = target(arg(a, 0), "setPrototypeOf")
    const p = arg(a, 1)
    if (p !== null && !isObject(p)) throwTypeError("Object prototype may only be an Object or null")
    if (o === realm.ObjectProto) return false
    try {
      setPrototype(o, p)
      if (o === realm.ArrayProto) realm.protoElements = true
      return true
    } catch (e) {
      if (e instanceof TypeError) return false
      throw e
    }
  })
  defineMethod(reflect, "isExtensible", 1, (_t, a) => Object.isExtensible(target(arg(a, 0), "isExtensible")))
  defineMethod(reflect, "preventExtensions", 1, (_t, a) => {
    const o = target(arg(a, 0), "preventExtensions")
    if (isUnmaterialized(o)) materialize(o)
    Object.preventExtensions(o)
    return true
  })
  defineMethod(reflect, "ownKeys", 1, (_t, a) => realm.newArray(chargedOwnKeys(target(arg(a, 0), "ownKeys"))))
  defineTag(reflect, "Reflect")
  realm.defineGlobal("Reflect", reflect)
}
