/**
 * Property access.
 *
 * Every program object has a prototype chain made only of the realm's objects, so a host property access on it can
 * only find program values. Primitives are different: a host lookup on `"abc"` would reach the host's
 * `String.prototype`, so their properties are looked up on the realm's prototypes instead.
 */
import type { Location } from "@codemode/core/sandbox"
import { MAX_ARRAY_LENGTH } from "../limits.js"
import { CHECKED_INDEX, checkArrayWrite, setArrayLength, toArrayLength } from "./arrays.js"
import { throwTypeError } from "./errors.js"
import { Brand, CALL, isInternalKey, brandOf } from "./internals.js"
import { ENTRY_BYTES, reserveElements, reserveHeap } from "./memory.js"
import { charge, ITEM_UNITS } from "./meter.js"
import { isUnmaterialized, materialize, type Value, shortDescription } from "./functions.js"
import { toNumber, toPropertyKey } from "./operators.js"
import { settledStack } from "./stacks.js"
import { rt } from "./state.js"

const hasOwn = Object.prototype.hasOwnProperty

const keyText = (key: Value): string => (typeof key === "symbol" ? key.toString() : String(key))

/** True when `key` is the canonical text of a non-negative integer (a possible array index). */
export const isIndexKey = (key: string): boolean => {
  const c = key.charCodeAt(0)
  if (c < 48 || c > 57) return false
  if (key.length > 1 && c === 48) return false
  for (let i = 1; i < key.length; i++) {
    const d = key.charCodeAt(i)
    if (d < 48 || d > 57) return false
  }
  return true
}

/** `v[key]` where `v` is not an object. */
export const getPrimitiveProp = (v: Value, key: Value, location?: Location): Value => {
  switch (typeof v) {
    case "string":
      if (typeof key === "number") return v[key]
      if (key === "length") return v.length
      if (typeof key === "string") {
        if (isIndexKey(key)) return v[key as unknown as number]
        return Reflect.get(rt.realm.StringProto, key, v)
      }
      if (typeof key === "symbol") return Reflect.get(rt.realm.StringProto, key, v)
      return getPrimitiveProp(v, toPropertyKey(key), location)
    case "number":
      return Reflect.get(rt.realm.NumberProto, primitiveKey(key), v)
    case "boolean":
      return Reflect.get(rt.realm.BooleanProto, primitiveKey(key), v)
    case "symbol":
      return Reflect.get(rt.realm.SymbolProto, primitiveKey(key), v)
    case "bigint":
      return undefined
    default:
      return throwTypeError(`Cannot read properties of ${v} (reading '${keyText(primitiveKey(key))}')`, location)
  }
}

const primitiveKey = (key: Value): string | number | symbol =>
  typeof key === "string" || typeof key === "number" || typeof key === "symbol" ? key : toPropertyKey(key)

/** `v[key]` for any value; `key` must already be a property key. */
export const getProp = (v: Value, key: Value, location?: Location): Value =>
  typeof v === "object" && v !== null ? v[key] : getPrimitiveProp(v, key, location)

/** `v[key]` for a computed key of any type. */
export const getComputed = (v: Value, key: Value, location?: Location): Value => {
  if (typeof v === "object" && v !== null) {
    const t = typeof key
    return t === "number" || t === "string" || t === "symbol" ? v[key] : v[toPropertyKey(key)]
  }
  return getPrimitiveProp(v, key, location)
}

/** True for the realm's `Array.prototype` and `Object.prototype`, whose elements every array inherits. */
const isElementPrototype = (v: Value): boolean => {
  const realm = rt.realm
  return v === realm.ArrayProto || v === realm.ObjectProto
}

/** Note a write of the element `index` on `v`, before it happens (array growth checks, inherited elements). */
export const noteElementWrite = (v: Value, index: number): void => {
  if (index >= CHECKED_INDEX) {
    if (Array.isArray(v)) checkArrayWrite(v, index)
  } else if (isElementPrototype(v)) rt.realm.protoElements = true
}

/** Note a write of the string key `key` on `v` when it is an array index. */
const noteIndexKeyWrite = (v: Value, key: string): void => {
  if (isIndexKey(key)) noteElementWrite(v, Number(key))
}

/** `v[key] = value` for any value; `key` must already be a property key. */
export const setProp = (v: Value, key: Value, value: Value, location?: Location): void => {
  if (typeof v === "object" && v !== null) {
    if (typeof key === "number") {
      if (key >= CHECKED_INDEX) {
        if (Array.isArray(v)) checkArrayWrite(v, key)
      } else if (isElementPrototype(v)) rt.realm.protoElements = true
      // A typed array converts with the host's ToNumber, which cannot call a program's valueOf.
      if (typeof value === "object" && value !== null && ArrayBuffer.isView(v)) value = toNumber(value)
    } else if (typeof key === "string") {
      const c = key.charCodeAt(0)
      if (c <= 57 && c >= 48) noteIndexKeyWrite(v, key)
      else if (key === "length" && Array.isArray(v)) {
        setArrayLength(v, toArrayLength(value, toNumber))
        return
      }
    } else rt.realm.noteChangeOf(v)
    v[key] = value
    return
  }
  if (v === undefined || v === null) {
    throwTypeError(`Cannot set properties of ${v} (setting '${keyText(key)}')`, location)
  }
  throwTypeError(`Cannot create property '${keyText(key)}' on ${typeof v} '${shortDescription(v)}'`, location)
}

/** `v[key] = value` for a computed key of any type. */
export const setComputed = (v: Value, key: Value, value: Value, location?: Location): void => {
  const t = typeof key
  setProp(v, t === "number" || t === "string" || t === "symbol" ? key : toPropertyKey(key), value, location)
}

/**
 * `Function.prototype`'s `name` and `length` are accessors (they answer for functions whose own properties are not
 * materialized yet) and it carries a `prototype` accessor for the same reason; reflection shows the language's view:
 * `name` and `length` as data properties (until deleted), no `prototype`.
 */
const functionProtoView = (o: Value, key: PropertyKey): PropertyDescriptor | undefined | null => {
  const realm = rt.realm
  if (o === realm.globalObject) return globalView(key)
  if (o !== realm.FunctionProto) return null
  if (key === "prototype") return undefined
  if (key === "name" || key === "length") {
    if (realm.deletedFunctionProtoKeys.has(key)) return undefined
    return { value: key === "name" ? "" : 0, writable: false, enumerable: false, configurable: true }
  }
  return null
}

/** A global variable's `globalThis` property is an accessor over its cell; the language has a data property. */
const globalView = (key: PropertyKey): PropertyDescriptor | null => {
  const realm = rt.realm
  if (typeof key !== "string") return null
  const cell = realm.cells.get(key)
  if (cell === undefined) return null
  const d = Object.getOwnPropertyDescriptor(realm.globalObject, key)
  if (d === undefined || "value" in d) return null
  const readonly = realm.readonlyGlobals.has(key)
  return { value: cell.value, writable: !readonly, enumerable: false, configurable: !readonly }
}

/** `O.[[GetOwnProperty]](key)` as the program sees it (internal keys do not exist, functions are materialized). */
export const ownDescriptor = (o: Value, key: PropertyKey): PropertyDescriptor | undefined => {
  if (typeof key === "symbol" && isInternalKey(key)) return undefined
  const view = functionProtoView(o, key)
  if (view !== null) return view
  if (isUnmaterialized(o)) materialize(o)
  const d = Object.getOwnPropertyDescriptor(o, key)
  return d !== undefined && key === "stack" ? settledStack(o, d) : d
}

/**
 * Realms' `Object.prototype`s whose properties a program redefined, deleted, froze or sealed: only on an untouched
 * one is every property writable data or the realm's `__proto__` accessor (what `copyDataProperties` relies on).
 */
const redefinedObjectProtos = new WeakSet<object>()

/**
 * `HasOwnProperty(o, key)` as the program sees it: whether `ownDescriptor` would find `key`, without making the
 * descriptor (only the realm's `Function.prototype` and global object, functions not yet materialized and symbols
 * need `ownDescriptor`'s view).
 */
export const hasOwnKey = (o: Value, key: PropertyKey): boolean => {
  const realm = rt.realm
  if (
    typeof key === "symbol" ||
    o === realm.FunctionProto ||
    o === realm.globalObject ||
    (o[CALL] !== undefined && isUnmaterialized(o))
  )
    return ownDescriptor(o, key) !== undefined
  return hasOwn.call(o, key)
}

/**
 * Note that a property of `o` is being redefined or deleted, or that `o` is being frozen or sealed (RegExps leave
 * their host fast paths; the realm's restore compares descriptors, see `Realm.redefined`).
 */
export const noteRedefinition = (o: Value): void => {
  const realm = rt.realm
  realm.redefined = true
  // A class's accessor made enumerable is reached by walks over enumerable keys (see `hasAccessors`).
  if (!accessorsNoted && withAccessors.has(o)) accessorsNoted = true
  if (o === realm.RegExpProto) realm.regExpProtoTouched = true
  else if (o === realm.ObjectProto) {
    redefinedObjectProtos.add(o)
    prototypesNoted = true
    objectProtoRedefined = true
  } else if (brandOf(o) === Brand.RegExp) realm.customizedRegExps.add(o)
}

/** `delete v[key]`. */
export const deleteProp = (v: Value, key: Value, location?: Location): boolean => {
  if (typeof v === "object" && v !== null) {
    const k = toPropertyKey(key)
    noteRedefinition(v)
    const view = v === rt.realm.FunctionProto ? functionProtoView(v, k) : null
    if (view !== null) {
      if (view !== undefined) rt.realm.deletedFunctionProtoKeys.add(k as string)
      return true
    }
    if (isUnmaterialized(v)) materialize(v)
    if (!Reflect.deleteProperty(v, k))
      throwTypeError(`Cannot delete property '${keyText(k)}' of ${shortDescription(v)}`, location)
    return true
  }
  if (v === undefined || v === null) throwTypeError(`Cannot convert undefined or null to object`, location)
  return true
}

/** Own property keys of a program object, without the interpreter's internal keys (functions are materialized). */
export const ownKeys = (o: object): Array<string | symbol> => {
  if (isUnmaterialized(o)) materialize(o)
  let keys = Reflect.ownKeys(o)
  let clean = true
  for (let i = 0; i < keys.length; i++) {
    if (typeof keys[i] === "symbol" && isInternalKey(keys[i])) {
      clean = false
      break
    }
  }
  if (!clean) keys = keys.filter((k) => !isInternalKey(k))
  if (o === rt.realm.FunctionProto) {
    const deleted = rt.realm.deletedFunctionProtoKeys
    keys = keys.filter((k) => k !== "prototype" && !deleted.has(k as string))
  }
  return keys
}

const propertyIsEnumerable = Object.prototype.propertyIsEnumerable

/** True once a program gave an object an accessor (in any realm of this worker; see `definesBySet`). */
let accessorsNoted = false

/**
 * True once a program redefined, deleted, froze or sealed a property of an `Object.prototype` (in any realm of this
 * worker): until then, assigning a property of a fresh object of the realm's `Object.prototype` defines it.
 */
export let objectProtoRedefined = false

/**
 * True once a program gave an object a prototype other than its realm's `Object.prototype` or `null`, or redefined
 * an `Object.prototype` (in any realm of this worker; see `definesBySet`).
 */
let prototypesNoted = false

/** Note that a program set an object's prototype to `proto` (`Object.setPrototypeOf`, `{ __proto__: proto }`...). */
export const notePrototype = (proto: Value): void => {
  if (proto !== null && proto !== rt.realm.ObjectProto) prototypesNoted = true
}

/**
 * True when assigning a property of `target` (a fresh object being filled, made with the realm's
 * `Object.prototype` or none) defines it as `CreateDataProperty` does: `target` has no own accessor and inherits
 * from nothing or from an untouched `Object.prototype`, whose only setter is `__proto__` and whose properties are
 * all writable. Until a program makes an accessor, sets a prototype or redefines `Object.prototype`, that holds
 * without looking.
 */
const definesBySet = (target: Value): boolean => {
  if (accessorsNoted && withAccessors.has(target)) return false
  if (!prototypesNoted) return true
  const proto = Object.getPrototypeOf(target)
  return proto === null || (proto === rt.realm.ObjectProto && !redefinedObjectProtos.has(proto))
}

/** Create an own data property the way object literals and spread do (never running a setter). */
export const createDataProperty = (target: Value, key: PropertyKey, value: Value): void => {
  if (key !== "__proto__" && definesBySet(target)) target[key] = value
  else Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true })
}

/**
 * True when the host's `Object.assign(target, source)` is exactly `CopyDataProperties(target, source)`: its `[[Set]]`
 * of each key defines a data property of `target` (`definesBySet`; `source` has no own `__proto__` key, and an
 * object literal being built is extensible), and `source` carries no interpreter-internal key (it is neither a
 * function, nor a built-in object with host state, nor an object shadowing an inherited function's behaviour).
 */
const assignable = (target: Value, source: Value): boolean =>
  definesBySet(target) && Object.isExtensible(target) && plainSource(source) && !hasOwn.call(source, "__proto__")

/**
 * True when the object `source` carries no interpreter-internal key that a host copy of its own enumerable
 * properties would take: it is not an array (whose copy is checked as it is listed), a function, a built-in object
 * with host state, or an object shadowing an inherited function's behaviour.
 */
export const plainSource = (source: Value): boolean =>
  !Array.isArray(source) && source[CALL] === undefined && brandOf(source) === undefined && !hasOwn.call(source, CALL)

/** Charge a host copy of the own enumerable keys of `source`: one unit a key, counted without a key list. */
export const chargeCopy = (source: Value): void => {
  // `for...in` also counts inherited enumerable keys.
  let keys = Object.getOwnPropertySymbols(source).length
  for (const _ in source) keys++
  charge(keys)
}

/** `CopyDataProperties(target, source, excluded)`: what object spread and rest do. */
export const copyDataProperties = (target: Value, source: Value, excluded?: ReadonlyArray<PropertyKey>): void => {
  if (source === undefined || source === null) return
  if (excluded === undefined && typeof source === "object" && assignable(target, source)) {
    chargeCopy(source)
    Object.assign(target, source)
    return
  }
  // Every key becomes a property of the target: checked and charged before the keys are listed.
  if (typeof source === "string") {
    reserveHeap(source.length * ENTRY_BYTES)
    charge(source.length * ITEM_UNITS)
    for (let i = 0; i < source.length; i++) if (!excluded?.includes(String(i))) target[i] = source[i]
    return
  }
  if (typeof source !== "object") return
  if (Array.isArray(source)) {
    reserveElements(Math.min(source.length, MAX_ARRAY_LENGTH), ENTRY_BYTES)
    charge(Math.min(source.length, MAX_ARRAY_LENGTH) * ITEM_UNITS)
  }
  const keys = Object.keys(source)
  charge(keys.length)
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]
    if (excluded === undefined || !excluded.includes(k)) createDataProperty(target, k, source[k])
  }
  const symbols = Object.getOwnPropertySymbols(source)
  for (let i = 0; i < symbols.length; i++) {
    const k = symbols[i]
    if (isInternalKey(k) || !propertyIsEnumerable.call(source, k)) continue
    if (excluded === undefined || !excluded.includes(k)) createDataProperty(target, k, source[k])
  }
}

const withAccessors = new WeakSet<object>()

/**
 * Note that a program object got an own accessor property (JSON's fast path must not run its getters twice). A
 * class's accessor (`fillable` false) is on a prototype or constructor, never on an object that `createDataProperty`
 * fills.
 */
export const noteAccessor = (o: object, fillable = true): void => {
  withAccessors.add(o)
  if (fillable) accessorsNoted = true
}

/**
 * True when a program object may have own accessor properties that a walk over its enumerable keys reaches (a
 * class's accessors are not enumerable until a program redefines them, which notes them).
 */
export const hasAccessors = (o: object): boolean => accessorsNoted && withAccessors.has(o)
