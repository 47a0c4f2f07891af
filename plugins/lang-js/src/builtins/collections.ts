/**
 * `Map`, `Set`, `WeakMap` and `WeakSet`: program objects holding a host collection under `SLOT`. Keys and values
 * are program values; equality is SameValueZero as in the language.
 */
import { MAX_ARRAY_LENGTH } from "../limits.js"
import { throwRangeError, throwTypeError } from "../runtime/errors.js"
import {
  arg,
  call,
  defineBuiltinAccessor,
  defineMethod,
  defineValue,
  isCallable,
  isObject,
  linkConstructor,
  makeNative,
  type Value,
  defineTag,
  incompatibleReceiver,
} from "../runtime/functions.js"
import { BRAND, Brand, SLOT, brandOf } from "../runtime/internals.js"
import { checkListGrowth, closeAfterThrow, DONE, getIterator, ProtocolIter } from "../runtime/iterators.js"
import { arrayTooLong, ENTRY_BYTES, reserveHeap } from "../runtime/memory.js"
import { charge, ITEM_UNITS } from "../runtime/meter.js"
import { toInteger, toNumber } from "../runtime/operators.js"
import type { Realm } from "../runtime/realm.js"
import { rt } from "../runtime/state.js"
import { giveEntry3 } from "./entry3.js"
import { createHostIterator } from "./iteration.js"

const slotOf = <T>(t: Value, brand: number, what: string): T => {
  if (typeof t !== "object" || t === null || brandOf(t) !== brand) return incompatibleReceiver(what, t)
  return t[SLOT] as T
}

/** Check that a collection of `size` entries can take one more: the bound, and the heap as its table grows. */
const checkSize = (size: number): void => {
  if ((size & 0xffff) === 0 && size > 0) {
    if (size >= MAX_ARRAY_LENGTH) arrayTooLong(size + 1)
    reserveHeap(size * ENTRY_BYTES)
  }
}

/** A `Map` or `Set` key: `-0` is stored as `+0`. */
const normalKey = (v: Value): Value => (v === 0 ? 0 : v)

/**
 * Define a method that reads at most two arguments with a list-free entry as well (`impl` itself, so that a call
 * site such as `map.get(k)` in a loop allocates no argument list); missing arguments are `undefined` either way.
 */
const method2 = (target: object, name: string, length: number, impl: (t: Value, a0: Value, a1: Value) => Value) => {
  const fn = defineMethod(target, name, length, (t, a) => impl(t, arg(a, 0), arg(a, 1)))
  giveEntry3(fn, impl)
  return fn
}

/** Install the keyed collections. */
export const installCollections = (realm: Realm): void => {
  // Map
  const mapProto = realm.newObject()
  realm.MapProto = mapProto
  const makeCollection = (proto: Value, brand: number, host: unknown, newTarget: Value) => {
    const o = Object.create(isObject(newTarget.prototype) ? newTarget.prototype : proto)
    o[SLOT] = host
    o[BRAND] = brand
    return o
  }
  const fill = (o: Value, iterable: Value, adder: string) => {
    if (iterable === undefined || iterable === null) return
    const add = o[adder]
    if (!isCallable(add)) throwTypeError(`'${add}' returned for property '${adder}' of object is not a function`)
    const it = getIterator(iterable)
    for (;;) {
      const v = it.next()
      if (v === DONE) return
      // Each entry is hashed into the table (and the table grows): about what making an item costs.
      charge(ITEM_UNITS)
      try {
        if (adder === "set") {
          if (!isObject(v))
            throwTypeError(`Iterator value ${typeof v === "symbol" ? v.toString() : String(v)} is not an entry object`)
          call(add, o, [v[0], v[1]])
        } else call(add, o, [v])
      } catch (e) {
        closeAfterThrow(it, e)
      }
    }
  }
  const mapCtor = makeNative(
    "Map",
    0,
    () => throwTypeError("Constructor Map requires 'new'"),
    (a, nt) => {
      const o = makeCollection(mapProto, Brand.Map, new Map(), nt)
      fill(o, arg(a, 0), "set")
      return o
    },
  )
  linkConstructor(mapCtor, mapProto)
  const m = (t: Value, what: string) => slotOf<Map<Value, Value>>(t, Brand.Map, `Map.prototype.${what}`)
  method2(mapProto, "get", 1, (t, k) => m(t, "get").get(k))
  method2(mapProto, "set", 2, (t, k, v) => {
    const map = m(t, "set")
    checkSize(map.size)
    map.set(normalKey(k), v)
    return t
  })
  method2(mapProto, "has", 1, (t, k) => m(t, "has").has(k))
  method2(mapProto, "delete", 1, (t, k) => m(t, "delete").delete(k))
  defineMethod(mapProto, "clear", 0, (t) => {
    m(t, "clear").clear()
    return undefined
  })
  defineMethod(mapProto, "forEach", 1, (t, a) => {
    const map = m(t, "forEach")
    const fn = arg(a, 0)
    if (!isCallable(fn)) throwTypeError("Map.prototype.forEach: the callback is not a function")
    for (const [k, v] of map) {
      if (--rt.fuel < 0) charge(0)
      call(fn, arg(a, 1), [v, k, t])
    }
    return undefined
  })
  defineBuiltinAccessor(mapProto, "size", (t) => slotOf<Map<Value, Value>>(t, Brand.Map, "get Map.prototype.size").size)
  const mapIter = (kind: "keys" | "values" | "entries") => (t: Value) => {
    const map = m(t, kind)
    const it = kind === "keys" ? map.keys() : kind === "values" ? map.values() : map.entries()
    return createHostIterator(
      realm.MapIteratorProto,
      Brand.MapIterator,
      it,
      kind === "entries" ? (e) => realm.newArray(e) : (v) => v,
    )
  }
  defineMethod(mapProto, "keys", 0, mapIter("keys"))
  defineMethod(mapProto, "values", 0, mapIter("values"))
  const entries = defineMethod(mapProto, "entries", 0, mapIter("entries"))
  defineValue(mapProto, Symbol.iterator, entries)
  defineTag(mapProto, "Map")
  realm.mapEntries = entries
  defineMethod(mapCtor, "groupBy", 2, (_t, a) => {
    const fn = arg(a, 1)
    if (!isCallable(fn)) throwTypeError("Map.groupBy: the callback is not a function")
    const result = makeCollection(mapProto, Brand.Map, new Map(), mapCtor)
    const map = result[SLOT] as Map<Value, Value>
    const it = getIterator(arg(a, 0))
    for (let i = 0; ; i++) {
      const v = it.next()
      if (v === DONE) return result
      let key: Value
      try {
        key = normalKey(call(fn, undefined, [v, i]))
      } catch (e) {
        closeAfterThrow(it, e)
      }
      let group = map.get(key)
      if (group === undefined) {
        checkSize(map.size)
        group = realm.newArray()
        map.set(key, group)
      }
      checkListGrowth(group.length)
      group[group.length] = v
    }
  })
  defineBuiltinAccessor(mapCtor, Symbol.species, (t) => t)
  realm.defineGlobal("Map", mapCtor)

  // Set
  const setProto = realm.newObject()
  realm.SetProto = setProto
  const setCtor = makeNative(
    "Set",
    0,
    () => throwTypeError("Constructor Set requires 'new'"),
    (a, nt) => {
      const o = makeCollection(setProto, Brand.Set, new Set(), nt)
      fill(o, arg(a, 0), "add")
      return o
    },
  )
  linkConstructor(setCtor, setProto)
  const s = (t: Value, what: string) => slotOf<Set<Value>>(t, Brand.Set, `Set.prototype.${what}`)
  method2(setProto, "add", 1, (t, v) => {
    const set = s(t, "add")
    checkSize(set.size)
    set.add(normalKey(v))
    return t
  })
  method2(setProto, "has", 1, (t, v) => s(t, "has").has(v))
  method2(setProto, "delete", 1, (t, v) => s(t, "delete").delete(v))
  defineMethod(setProto, "clear", 0, (t) => {
    s(t, "clear").clear()
    return undefined
  })
  defineMethod(setProto, "forEach", 1, (t, a) => {
    const set = s(t, "forEach")
    const fn = arg(a, 0)
    if (!isCallable(fn)) throwTypeError("Set.prototype.forEach: the callback is not a function")
    for (const v of set) {
      if (--rt.fuel < 0) charge(0)
      call(fn, arg(a, 1), [v, v, t])
    }
    return undefined
  })
  defineBuiltinAccessor(setProto, "size", (t) => slotOf<Set<Value>>(t, Brand.Set, "get Set.prototype.size").size)
  const values = defineMethod(setProto, "values", 0, (t) =>
    createHostIterator(realm.SetIteratorProto, Brand.SetIterator, s(t, "values").values(), (v) => v),
  )
  defineValue(setProto, "keys", values)
  defineValue(setProto, Symbol.iterator, values)
  defineMethod(setProto, "entries", 0, (t) =>
    createHostIterator(realm.SetIteratorProto, Brand.SetIterator, s(t, "entries").values(), (v) =>
      realm.newArray([v, v]),
    ),
  )
  defineTag(setProto, "Set")
  realm.setValues = values
  // The ES2025 set algebra, over another Set or any set-like object (`size`, `has`, `keys`).
  interface SetRecord {
    readonly set: Value
    readonly size: number
    readonly has: Value
    readonly keys: Value
  }
  const getSetRecord = (v: Value): SetRecord => {
    if (!isObject(v)) return throwTypeError(`The argument must be a set-like object`)
    const rawSize = v.size
    const numSize = toNumber(rawSize)
    if (numSize !== numSize) return throwTypeError("The 'size' property of a set-like must be a number")
    const size = toInteger(numSize)
    if (size < 0) return throwRangeError("The 'size' property of a set-like must not be negative")
    const has = v.has
    if (!isCallable(has)) return throwTypeError("The 'has' property of a set-like must be a function")
    const keys = v.keys
    if (!isCallable(keys)) return throwTypeError("The 'keys' property of a set-like must be a function")
    return { set: v, size, has, keys }
  }
  /** `GetIteratorFromMethod(set, keys)` with its `next` read once. */
  const keysIterator = (r: SetRecord): ProtocolIter => {
    const it = call(r.keys, r.set, [])
    if (!isObject(it)) return throwTypeError("The 'keys' method of a set-like must return an object")
    const next = it.next
    if (!isCallable(next)) return throwTypeError("The iterator of a set-like must have a 'next' method")
    return new ProtocolIter(it, next)
  }
  const otherHas = (r: SetRecord, v: Value): boolean => !!call(r.has, r.set, [v])
  const newSet = (items: Set<Value>) => makeCollection(setProto, Brand.Set, items, setCtor)
  /** Add to a result set within the bound. */
  const addTo = (result: Set<Value>, v: Value): void => {
    if (result.has(v)) return
    checkSize(result.size)
    result.add(v)
  }
  /** Visit the other set's keys until `visit` says stop (closing the iterator then). */
  const eachKey = (r: SetRecord, visit: (v: Value) => boolean): boolean => {
    const it = keysIterator(r)
    for (;;) {
      const v = it.next()
      if (v === DONE) return true
      if (--rt.fuel < 0) charge(0)
      if (!visit(normalKey(v))) {
        it.close()
        return false
      }
    }
  }
  /** Visit this set's elements, live (elements deleted meanwhile are skipped), until `visit` says stop. */
  const eachOwn = (self: Set<Value>, visit: (v: Value) => boolean): boolean => {
    for (const v of self) {
      if (--rt.fuel < 0) charge(0)
      if (!visit(v)) return false
    }
    return true
  }
  defineMethod(setProto, "union", 1, (t, a) => {
    const self = s(t, "union")
    const r = getSetRecord(arg(a, 0))
    charge(self.size)
    const result = new Set(self)
    eachKey(r, (v) => {
      addTo(result, v)
      return true
    })
    return newSet(result)
  })
  defineMethod(setProto, "intersection", 1, (t, a) => {
    const self = s(t, "intersection")
    const r = getSetRecord(arg(a, 0))
    const result = new Set<Value>()
    if (self.size <= r.size) {
      eachOwn(self, (v) => {
        if (otherHas(r, v) && self.has(v)) addTo(result, v)
        return true
      })
    } else {
      eachKey(r, (v) => {
        if (self.has(v)) addTo(result, v)
        return true
      })
    }
    return newSet(result)
  })
  defineMethod(setProto, "difference", 1, (t, a) => {
    const self = s(t, "difference")
    const r = getSetRecord(arg(a, 0))
    charge(self.size)
    const result = new Set(self)
    if (self.size <= r.size) {
      eachOwn(self, (v) => {
        if (otherHas(r, v)) result.delete(v)
        return true
      })
    } else {
      eachKey(r, (v) => {
        result.delete(v)
        return true
      })
    }
    return newSet(result)
  })
  defineMethod(setProto, "symmetricDifference", 1, (t, a) => {
    const self = s(t, "symmetricDifference")
    const r = getSetRecord(arg(a, 0))
    charge(self.size)
    const result = new Set(self)
    eachKey(r, (v) => {
      if (self.has(v)) result.delete(v)
      else addTo(result, v)
      return true
    })
    return newSet(result)
  })
  defineMethod(setProto, "isSubsetOf", 1, (t, a) => {
    const self = s(t, "isSubsetOf")
    const r = getSetRecord(arg(a, 0))
    if (self.size > r.size) return false
    return eachOwn(self, (v) => otherHas(r, v))
  })
  defineMethod(setProto, "isSupersetOf", 1, (t, a) => {
    const self = s(t, "isSupersetOf")
    const r = getSetRecord(arg(a, 0))
    if (self.size < r.size) return false
    return eachKey(r, (v) => self.has(v))
  })
  defineMethod(setProto, "isDisjointFrom", 1, (t, a) => {
    const self = s(t, "isDisjointFrom")
    const r = getSetRecord(arg(a, 0))
    if (self.size <= r.size) return eachOwn(self, (v) => !otherHas(r, v))
    return eachKey(r, (v) => !self.has(v))
  })
  defineBuiltinAccessor(setCtor, Symbol.species, (t) => t)
  realm.defineGlobal("Set", setCtor)

  // WeakMap and WeakSet
  const weakMapProto = realm.newObject()
  realm.WeakMapProto = weakMapProto
  const weakMapCtor = makeNative(
    "WeakMap",
    0,
    () => throwTypeError("Constructor WeakMap requires 'new'"),
    (a, nt) => {
      const o = makeCollection(weakMapProto, Brand.WeakMap, new WeakMap(), nt)
      fill(o, arg(a, 0), "set")
      return o
    },
  )
  linkConstructor(weakMapCtor, weakMapProto)
  /** `CanBeHeldWeakly(v)`: objects and symbols not made by `Symbol.for`. */
  const weakKey = (v: Value): boolean => isObject(v) || (typeof v === "symbol" && !realm.registeredSymbols.has(v))
  const wm = (t: Value, what: string) => slotOf<WeakMap<object, Value>>(t, Brand.WeakMap, `WeakMap.prototype.${what}`)
  method2(weakMapProto, "get", 1, (t, k) => {
    const map = wm(t, "get")
    return weakKey(k) ? map.get(k) : undefined
  })
  method2(weakMapProto, "set", 2, (t, k, v) => {
    const map = wm(t, "set")
    if (!weakKey(k)) throwTypeError("Invalid value used as weak map key")
    map.set(k, v)
    return t
  })
  method2(weakMapProto, "has", 1, (t, k) => {
    const map = wm(t, "has")
    return weakKey(k) ? map.has(k) : false
  })
  method2(weakMapProto, "delete", 1, (t, k) => {
    const map = wm(t, "delete")
    return weakKey(k) ? map.delete(k) : false
  })
  defineTag(weakMapProto, "WeakMap")
  realm.defineGlobal("WeakMap", weakMapCtor)

  const weakSetProto = realm.newObject()
  realm.WeakSetProto = weakSetProto
  const weakSetCtor = makeNative(
    "WeakSet",
    0,
    () => throwTypeError("Constructor WeakSet requires 'new'"),
    (a, nt) => {
      const o = makeCollection(weakSetProto, Brand.WeakSet, new WeakSet(), nt)
      fill(o, arg(a, 0), "add")
      return o
    },
  )
  linkConstructor(weakSetCtor, weakSetProto)
  const ws = (t: Value, what: string) => slotOf<WeakSet<object>>(t, Brand.WeakSet, `WeakSet.prototype.${what}`)
  method2(weakSetProto, "add", 1, (t, v) => {
    const set = ws(t, "add")
    if (!weakKey(v)) throwTypeError("Invalid value used in weak set")
    set.add(v)
    return t
  })
  method2(weakSetProto, "has", 1, (t, v) => {
    const set = ws(t, "has")
    return weakKey(v) ? set.has(v) : false
  })
  method2(weakSetProto, "delete", 1, (t, v) => {
    const set = ws(t, "delete")
    return weakKey(v) ? set.delete(v) : false
  })
  defineTag(weakSetProto, "WeakSet")
  realm.defineGlobal("WeakSet", weakSetCtor)
}
