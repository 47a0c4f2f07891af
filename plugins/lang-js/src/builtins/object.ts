/**
 * `Object` and `Object.prototype`.
 */
import { setPrototype } from "../compiler/ops.js"
import { defineFromProgram, fromHostDescriptor } from "../runtime/descriptors.js"
import { throwTypeError } from "../runtime/errors.js"
import {
  arg,
  call,
  defineBuiltinAccessor,
  defineMethod,
  isCallable,
  isObject,
  isUnmaterialized,
  linkConstructor,
  makeNative,
  materialize,
  programAccessor,
  type Value,
} from "../runtime/functions.js"
import { BRAND, Brand, CALL, SLOT, brandOf } from "../runtime/internals.js"
import { DONE, getIterator } from "../runtime/iterators.js"
import { sparseElementCount } from "../runtime/arrays.js"
import { ENTRY_BYTES, reserveElements } from "../runtime/memory.js"
import { charge, ITEM_UNITS } from "../runtime/meter.js"
import { toPropertyKey, toStr } from "../runtime/operators.js"
import {
  chargeCopy,
  createDataProperty,
  getProp,
  hasAccessors,
  hasOwnKey,
  noteRedefinition,
  ownDescriptor,
  ownKeys,
  plainSource,
  setProp,
} from "../runtime/properties.js"
import type { Realm } from "../runtime/realm.js"
import { MAX_ARRAY_LENGTH } from "../limits.js"

/** `ToObject` for reflection: primitives become their wrapper objects (strings keep their indices). */
export const toObject = (realm: Realm, v: Value, what: string): Value => {
  if (v === undefined || v === null) return throwTypeError(`${what} called on ${v === null ? "null" : "undefined"}`)
  if (isObject(v)) return v
  return boxPrimitive(realm, v)
}

/** Wrap a primitive in its object form (`Object("abc")`). */
export const boxPrimitive = (realm: Realm, v: Value): Value => {
  let proto: Value
  let brand: number
  switch (typeof v) {
    case "string":
      proto = realm.StringProto
      brand = Brand.String
      break
    case "number":
      proto = realm.NumberProto
      brand = Brand.Number
      break
    case "boolean":
      proto = realm.BooleanProto
      brand = Brand.Boolean
      break
    default:
      proto = realm.SymbolProto
      brand = Brand.Symbol
  }
  const o = Object.create(proto)
  o[SLOT] = v
  o[BRAND] = brand
  if (typeof v === "string") {
    reserveElements(v.length, ENTRY_BYTES)
    charge(v.length)
    for (let i = 0; i < v.length; i++) Object.defineProperty(o, i, { value: v[i], enumerable: true })
    Object.defineProperty(o, "length", { value: v.length })
  }
  return o
}

/** Host lists up to this long become program arrays by copying: re-parenting one costs more. */
const COPIED_LIST = 64

/**
 * A program array of the elements of `list`, a fresh host list nothing else sees: a short one is copied into a
 * realm array made at its size (re-parenting an array costs the host more than copying a few elements); a long one,
 * or any while the realm's prototypes have elements (an assignment could meet their setters), is adopted.
 */
export const arrayOfList = (realm: Realm, list: Value[]): Value[] => {
  const n = list.length
  if (n > COPIED_LIST || realm.protoElements) return realm.adoptArray(list)
  const out = new (realm.SA as new (length: number) => Value[])(n)
  for (let i = 0; i < n; i++) out[i] = list[i]
  return out
}

/** Bytes a key string of `Object.keys` and friends takes with its slot. */
const KEY_BYTES = 40

/**
 * Check and charge, before listing the own keys of `o`, the memory the list takes and the key strings the host makes
 * (arrays: one key per element).
 */
const reserveKeys = (o: Value): void => {
  if (!Array.isArray(o)) return
  const n = Math.min(o.length > MAX_ARRAY_LENGTH ? sparseElementCount() + 65536 : o.length, MAX_ARRAY_LENGTH)
  reserveElements(n, KEY_BYTES)
  charge(n * ITEM_UNITS)
}

/** The own keys of `o` (internal keys left out), checked and charged: one unit a key, more for an array's. */
export const chargedOwnKeys = (o: Value): Array<string | symbol> => {
  reserveKeys(o)
  const keys = ownKeys(o)
  charge(keys.length)
  return keys
}

/** The `[object Tag]` of `Object.prototype.toString`. */
export const builtinTag = (v: Value): string => {
  if (v === undefined) return "Undefined"
  if (v === null) return "Null"
  if (!isObject(v)) {
    return typeof v === "string"
      ? "String"
      : typeof v === "number"
        ? "Number"
        : typeof v === "boolean"
          ? "Boolean"
          : "Symbol"
  }
  const tag = v[Symbol.toStringTag]
  if (typeof tag === "string") return tag
  if (Array.isArray(v)) return "Array"
  if (v[CALL] !== undefined) return "Function"
  switch (brandOf(v)) {
    case Brand.Arguments:
      return "Arguments"
    case Brand.Error:
      return "Error"
    case Brand.Date:
      return "Date"
    case Brand.RegExp:
      return "RegExp"
    case Brand.Boolean:
      return "Boolean"
    case Brand.Number:
      return "Number"
    case Brand.String:
      return "String"
  }
  return "Object"
}

/** Install `Object`. */
export const installObject = (realm: Realm): void => {
  const proto = realm.ObjectProto
  const ctor = makeNative(
    "Object",
    1,
    (_t, a) =>
      a.length === 0 || a[0] === undefined || a[0] === null ? realm.newObject() : toObject(realm, a[0], "Object"),
    (a, newTarget) => {
      if (newTarget !== realm.Object) return Object.create(isObject(newTarget.prototype) ? newTarget.prototype : proto)
      return a.length === 0 || a[0] === undefined || a[0] === null ? realm.newObject() : toObject(realm, a[0], "Object")
    },
  )
  realm.Object = ctor
  linkConstructor(ctor, proto)

  /** The own enumerable string keys of `o`, as a host list. */
  const keysOf = (o: Value): string[] => {
    reserveKeys(o)
    const keys = Object.keys(o)
    charge(keys.length)
    return keys
  }
  const propertyIsEnumerable = Object.prototype.propertyIsEnumerable
  /**
   * `EnumerableOwnProperties(o, kind)`: each key's enumerability is checked again when it is reached (a getter met
   * earlier may have changed it), which only matters when `o` has accessors.
   */
  const enumerableOwn = (o: Value, entry: (k: string, v: Value) => Value, unitsEach = 1): Value[] => {
    const withAccessors = hasAccessors(o)
    if (withAccessors) reserveKeys(o)
    const keys = withAccessors ? Object.getOwnPropertyNames(o) : keysOf(o)
    charge(keys.length * (withAccessors ? unitsEach + 1 : unitsEach))
    const list: Value[] = []
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]
      if (withAccessors && !propertyIsEnumerable.call(o, k)) continue
      list.push(entry(k, o[k]))
    }
    return arrayOfList(realm, list)
  }

  /** An entry `[k, v]`, made at its size (adopted while the realm's prototypes have elements). */
  const entryPair = (k: string, v: Value): Value[] => {
    if (realm.protoElements) return realm.adoptArray([k, v])
    const pair = new (realm.SA as new (length: number) => Value[])(2)
    pair[0] = k
    pair[1] = v
    return pair
  }
  defineMethod(ctor, "keys", 1, (_t, a) => arrayOfList(realm, keysOf(toObject(realm, arg(a, 0), "Object.keys"))))
  defineMethod(ctor, "values", 1, (_t, a) => enumerableOwn(toObject(realm, arg(a, 0), "Object.values"), (_k, v) => v))
  defineMethod(ctor, "entries", 1, (_t, a) =>
    enumerableOwn(toObject(realm, arg(a, 0), "Object.entries"), entryPair, ITEM_UNITS),
  )
  defineMethod(ctor, "fromEntries", 1, (_t, a) => {
    const o = realm.newObject()
    const it = getIterator(arg(a, 0))
    for (;;) {
      const entry = it.next()
      if (entry === DONE) return o
      if (!isObject(entry)) {
        it.close()
        throwTypeError(`Iterator value ${toStr(entry)} is not an entry object`)
      }
      charge(ITEM_UNITS)
      createDataProperty(o, toPropertyKey(entry[0]), entry[1])
    }
  })
  defineMethod(ctor, "assign", 2, (_t, a) => {
    const target = toObject(realm, arg(a, 0), "Object.assign")
    // The host's assignments are setProp's own on a target that is not an array, typed array, function or element
    // prototype (setProp checks and notes those).
    const plainTarget =
      !Array.isArray(target) &&
      !ArrayBuffer.isView(target) &&
      target[CALL] === undefined &&
      target !== realm.ArrayProto &&
      target !== realm.ObjectProto
    for (let i = 1; i < a.length; i++) {
      const src = a[i]
      if (src === undefined || src === null) continue
      const from = toObject(realm, src, "Object.assign")
      if (plainTarget && plainSource(from)) {
        chargeCopy(from)
        // The host copies symbol-keyed properties too.
        realm.noteChangeOf(target)
        Object.assign(target, from)
        continue
      }
      const keys = chargedOwnKeys(from)
      for (const k of keys) {
        if (propertyIsEnumerable.call(from, k)) setProp(target, k, from[k])
      }
    }
    return target
  })
  defineMethod(ctor, "create", 2, (_t, a) => {
    const p = arg(a, 0)
    if (p !== null && !isObject(p)) throwTypeError(`Object prototype may only be an Object or null: ${toStr(p)}`)
    const o = Object.create(null)
    setPrototype(o, p)
    const props = arg(a, 1)
    if (props !== undefined) defineProperties(o, props)
    return o
  })
  const defineProperties = (o: Value, props: Value): Value => {
    const src = toObject(realm, props, "Object.defineProperties")
    for (const k of chargedOwnKeys(src)) {
      if (Object.prototype.propertyIsEnumerable.call(src, k)) defineFromProgram(o, k, src[k])
    }
    return o
  }
  const requireObject = (o: Value, what: string): Value =>
    isObject(o) ? o : throwTypeError(`${what} called on non-object`)
  defineMethod(ctor, "defineProperty", 3, (_t, a) => {
    const o = requireObject(arg(a, 0), "Object.defineProperty")
    defineFromProgram(o, toPropertyKey(arg(a, 1)), arg(a, 2))
    return o
  })
  defineMethod(ctor, "defineProperties", 2, (_t, a) =>
    defineProperties(requireObject(arg(a, 0), "Object.defineProperties"), arg(a, 1)),
  )
  defineMethod(ctor, "getOwnPropertyNames", 1, (_t, a) => {
    const o = toObject(realm, arg(a, 0), "Object.getOwnPropertyNames")
    return realm.adoptArray(chargedOwnKeys(o).filter((k) => typeof k === "string"))
  })
  defineMethod(ctor, "getOwnPropertySymbols", 1, (_t, a) =>
    realm.adoptArray(
      chargedOwnKeys(toObject(realm, arg(a, 0), "Object.getOwnPropertySymbols")).filter((k) => typeof k === "symbol"),
    ),
  )
  defineMethod(ctor, "getOwnPropertyDescriptor", 2, (_t, a) => {
    const o = toObject(realm, arg(a, 0), "Object.getOwnPropertyDescriptor")
    return fromHostDescriptor(ownDescriptor(o, toPropertyKey(arg(a, 1))))
  })
  defineMethod(ctor, "getOwnPropertyDescriptors", 1, (_t, a) => {
    const o = toObject(realm, arg(a, 0), "Object.getOwnPropertyDescriptors")
    const out = realm.newObject()
    for (const k of chargedOwnKeys(o)) {
      const d = ownDescriptor(o, k)
      if (d !== undefined) createDataProperty(out, k, fromHostDescriptor(d))
    }
    return out
  })
  defineMethod(ctor, "getPrototypeOf", 1, (_t, a) => getPrototypeOf(realm, arg(a, 0)))
  defineMethod(ctor, "setPrototypeOf", 2, (_t, a) => {
    const o = arg(a, 0)
    const p = arg(a, 1)
    if (o === undefined || o === null) throwTypeError("Object.setPrototypeOf called on null or undefined")
    if (p !== null && !isObject(p)) throwTypeError(`Object prototype may only be an Object or null: ${toStr(p)}`)
    if (!isObject(o)) return o
    if (o === realm.ObjectProto && p !== null)
      throwTypeError("Immutable prototype object '#<Object>' cannot have their prototype set")
    setPrototype(o, p)
    if (o === realm.ArrayProto) realm.protoElements = true
    return o
  })
  /** An object argument of the integrity functions, its own properties materialized when it is a function. */
  const integrityTarget = (v: Value): boolean => {
    if (!isObject(v)) return false
    if (isUnmaterialized(v)) materialize(v)
    // A frozen `Object.prototype` has read-only properties (see `noteRedefinition`); freezing or sealing changes
    // descriptors, which the realm's restore then compares (see `Realm.redefined`).
    if (v === realm.ObjectProto) noteRedefinition(v)
    else realm.redefined = true
    // The host visits every element of an array (and may turn its storage into a dictionary, an entry each).
    if (Array.isArray(v)) {
      const n = Math.min(v.length, MAX_ARRAY_LENGTH)
      reserveElements(n, ENTRY_BYTES)
      charge(n)
    }
    return true
  }
  defineMethod(ctor, "freeze", 1, (_t, a) => (integrityTarget(a[0]) ? Object.freeze(a[0]) : arg(a, 0)))
  defineMethod(ctor, "isFrozen", 1, (_t, a) => (integrityTarget(a[0]) ? Object.isFrozen(a[0]) : true))
  defineMethod(ctor, "seal", 1, (_t, a) => (integrityTarget(a[0]) ? Object.seal(a[0]) : arg(a, 0)))
  defineMethod(ctor, "isSealed", 1, (_t, a) => (integrityTarget(a[0]) ? Object.isSealed(a[0]) : true))
  defineMethod(ctor, "preventExtensions", 1, (_t, a) =>
    integrityTarget(a[0]) ? Object.preventExtensions(a[0]) : arg(a, 0),
  )
  defineMethod(ctor, "isExtensible", 1, (_t, a) => (isObject(a[0]) ? Object.isExtensible(a[0]) : false))
  defineMethod(ctor, "is", 2, (_t, a) => Object.is(arg(a, 0), arg(a, 1)))
  defineMethod(ctor, "hasOwn", 2, (_t, a) => {
    const o = toObject(realm, arg(a, 0), "Object.hasOwn")
    return hasOwnKey(o, toPropertyKey(arg(a, 1)))
  })
  defineMethod(ctor, "groupBy", 2, (_t, a) => {
    const fn = arg(a, 1)
    if (!isCallable(fn)) throwTypeError("Object.groupBy: the callback is not a function")
    const out = Object.create(null)
    const it = getIterator(arg(a, 0))
    for (let i = 0; ; i++) {
      const v = it.next()
      if (v === DONE) return out
      const key = toPropertyKey(call(fn, undefined, [v, i]))
      let group = Object.prototype.hasOwnProperty.call(out, key) ? out[key] : undefined
      if (group === undefined) {
        group = new realm.SA()
        createDataProperty(out, key, group)
      }
      group[group.length] = v
    }
  })

  defineMethod(proto, "hasOwnProperty", 1, (t, a) => {
    const k = toPropertyKey(arg(a, 0))
    return hasOwnKey(toObject(realm, t, "Object.prototype.hasOwnProperty"), k)
  })
  defineMethod(proto, "isPrototypeOf", 1, (t, a) => {
    const v = arg(a, 0)
    if (!isObject(v)) return false
    let p = Object.getPrototypeOf(v)
    while (p !== null) {
      if (p === t) return true
      p = Object.getPrototypeOf(p)
    }
    return false
  })
  defineMethod(proto, "propertyIsEnumerable", 1, (t, a) => {
    const k = toPropertyKey(arg(a, 0))
    return ownDescriptor(toObject(realm, t, "Object.prototype.propertyIsEnumerable"), k)?.enumerable === true
  })
  defineMethod(proto, "toString", 0, (t) => `[object ${builtinTag(t)}]`)
  defineMethod(proto, "toLocaleString", 0, (t) => {
    if (t === undefined || t === null)
      return throwTypeError("Object.prototype.toLocaleString called on null or undefined")
    return call(getProp(t, "toString"), t, [])
  })
  defineMethod(proto, "valueOf", 0, (t) => toObject(realm, t, "Object.prototype.valueOf"))
  // Annex B's accessor helpers.
  for (const kind of ["get", "set"] as const) {
    defineMethod(proto, `__define${kind === "get" ? "Getter" : "Setter"}__`, 2, (t, a) => {
      const o = toObject(realm, t, `Object.prototype.__define${kind === "get" ? "Getter" : "Setter"}__`)
      const fn = arg(a, 1)
      if (!isCallable(fn))
        return throwTypeError(`Object.prototype.__define${kind === "get" ? "Getter" : "Setter"}__: Expecting function`)
      const descriptor = realm.newObject()
      descriptor[kind] = fn
      descriptor.enumerable = true
      descriptor.configurable = true
      defineFromProgram(o, toPropertyKey(arg(a, 0)), descriptor)
      return undefined
    })
    defineMethod(proto, `__lookup${kind === "get" ? "Getter" : "Setter"}__`, 1, (t, a) => {
      let o = toObject(realm, t, `Object.prototype.__lookup${kind === "get" ? "Getter" : "Setter"}__`)
      const key = toPropertyKey(arg(a, 0))
      while (o !== null) {
        const d = ownDescriptor(o, key)
        if (d !== undefined) return "value" in d ? undefined : programAccessor(kind === "get" ? d.get : d.set)
        o = Object.getPrototypeOf(o)
      }
      return undefined
    })
  }
  defineBuiltinAccessor(
    proto,
    "__proto__",
    (t) => getPrototypeOf(realm, t),
    (t, v) => {
      if (!isObject(t) || (v !== null && !isObject(v))) return
      if (t === realm.ObjectProto)
        throwTypeError("Immutable prototype object '#<Object>' cannot have their prototype set")
      setPrototype(t, v)
      if (t === realm.ArrayProto) realm.protoElements = true
    },
  )
}

/** `Object.getPrototypeOf` for any value. */
export const getPrototypeOf = (realm: Realm, v: Value): Value => {
  if (isObject(v)) return Object.getPrototypeOf(v)
  switch (typeof v) {
    case "string":
      return realm.StringProto
    case "number":
      return realm.NumberProto
    case "boolean":
      return realm.BooleanProto
    case "symbol":
      return realm.SymbolProto
  }
  return throwTypeError(`Cannot convert ${v} to object`)
}
