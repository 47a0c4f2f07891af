/**
 * `Map`, `Set`, `WeakMap` and `WeakSet`: program objects holding a host collection under `SLOT`. Keys and values
 * are program values; equality is SameValueZero as in the language.
 */
import { MAX_ARRAY_LENGTH } from "../limits.js"
import { throwTypeError } from "../runtime/errors.js"
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
} from "../runtime/functions.js"
import { BRAND, Brand, SLOT } from "../runtime/internals.js"
import { DONE, getIterator } from "../runtime/iterators.js"
import { charge } from "../runtime/meter.js"
import { arrayTooLong } from "../runtime/properties.js"
import type { Realm } from "../runtime/realm.js"
import { createHostIterator } from "./iteration.js"

const slotOf = <T>(t: Value, brand: number, what: string): T => {
  if (typeof t !== "object" || t === null || t[BRAND] !== brand)
    return throwTypeError(`Method ${what} called on an incompatible receiver`)
  return t[SLOT] as T
}

const checkSize = (size: number): void => {
  if (size >= MAX_ARRAY_LENGTH) arrayTooLong(size + 1)
}

const requireWeakKey = (v: Value, what: string): void => {
  if (!isObject(v) && typeof v !== "symbol") throwTypeError(`Invalid value used ${what}`)
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
      charge(1)
      if (adder === "set") {
        if (!isObject(v)) {
          it.close()
          throwTypeError(`Iterator value ${String(v)} is not an entry object`)
        }
        call(add, o, [v[0], v[1]])
      } else call(add, o, [v])
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
  defineMethod(mapProto, "get", 1, (t, a) => m(t, "get").get(arg(a, 0)))
  defineMethod(mapProto, "set", 2, (t, a) => {
    const map = m(t, "set")
    checkSize(map.size)
    const k = arg(a, 0)
    map.set(Object.is(k, -0) ? 0 : k, arg(a, 1))
    return t
  })
  defineMethod(mapProto, "has", 1, (t, a) => m(t, "has").has(arg(a, 0)))
  defineMethod(mapProto, "delete", 1, (t, a) => m(t, "delete").delete(arg(a, 0)))
  defineMethod(mapProto, "clear", 0, (t) => {
    m(t, "clear").clear()
    return undefined
  })
  defineMethod(mapProto, "forEach", 1, (t, a) => {
    const map = m(t, "forEach")
    const fn = arg(a, 0)
    if (!isCallable(fn)) throwTypeError("Map.prototype.forEach: the callback is not a function")
    for (const [k, v] of map) call(fn, arg(a, 1), [v, k, t])
    return undefined
  })
  defineBuiltinAccessor(mapProto, "size", (t) => m(t, "size").size)
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
  defineValue(mapProto, Symbol.toStringTag, "Map", false)
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
      const key = call(fn, undefined, [v, i])
      let group = map.get(key)
      if (group === undefined) {
        group = realm.newArray()
        map.set(key, group)
      }
      group[group.length] = v
    }
  })
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
  defineMethod(setProto, "add", 1, (t, a) => {
    const set = s(t, "add")
    checkSize(set.size)
    const v = arg(a, 0)
    set.add(Object.is(v, -0) ? 0 : v)
    return t
  })
  defineMethod(setProto, "has", 1, (t, a) => s(t, "has").has(arg(a, 0)))
  defineMethod(setProto, "delete", 1, (t, a) => s(t, "delete").delete(arg(a, 0)))
  defineMethod(setProto, "clear", 0, (t) => {
    s(t, "clear").clear()
    return undefined
  })
  defineMethod(setProto, "forEach", 1, (t, a) => {
    const set = s(t, "forEach")
    const fn = arg(a, 0)
    if (!isCallable(fn)) throwTypeError("Set.prototype.forEach: the callback is not a function")
    for (const v of set) call(fn, arg(a, 1), [v, v, t])
    return undefined
  })
  defineBuiltinAccessor(setProto, "size", (t) => s(t, "size").size)
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
  defineValue(setProto, Symbol.toStringTag, "Set", false)
  realm.setValues = values
  // The ES2025 set algebra, over another Set (or anything with `has`/`keys`).
  const other = (v: Value): Set<Value> => {
    if (isObject(v) && v[BRAND] === Brand.Set) return v[SLOT] as Set<Value>
    if (!isObject(v)) return throwTypeError("The argument must be a set-like object")
    const out = new Set<Value>()
    const it = getIterator(call(v.keys, v, []))
    for (;;) {
      const x = it.next()
      if (x === DONE) return out
      out.add(x)
    }
  }
  const newSet = (items: Iterable<Value>) => {
    const o = makeCollection(setProto, Brand.Set, new Set(items), setCtor)
    charge((o[SLOT] as Set<Value>).size)
    return o
  }
  defineMethod(setProto, "union", 1, (t, a) => newSet([...s(t, "union"), ...other(arg(a, 0))]))
  defineMethod(setProto, "intersection", 1, (t, a) => {
    const b = other(arg(a, 0))
    return newSet([...s(t, "intersection")].filter((x) => b.has(x)))
  })
  defineMethod(setProto, "difference", 1, (t, a) => {
    const b = other(arg(a, 0))
    return newSet([...s(t, "difference")].filter((x) => !b.has(x)))
  })
  defineMethod(setProto, "symmetricDifference", 1, (t, a) => {
    const self = s(t, "symmetricDifference")
    const b = other(arg(a, 0))
    return newSet([...[...self].filter((x) => !b.has(x)), ...[...b].filter((x) => !self.has(x))])
  })
  defineMethod(setProto, "isSubsetOf", 1, (t, a) => {
    const b = other(arg(a, 0))
    return [...s(t, "isSubsetOf")].every((x) => b.has(x))
  })
  defineMethod(setProto, "isSupersetOf", 1, (t, a) => {
    const self = s(t, "isSupersetOf")
    return [...other(arg(a, 0))].every((x) => self.has(x))
  })
  defineMethod(setProto, "isDisjointFrom", 1, (t, a) => {
    const b = other(arg(a, 0))
    return [...s(t, "isDisjointFrom")].every((x) => !b.has(x))
  })
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
  const wm = (t: Value, what: string) => slotOf<WeakMap<object, Value>>(t, Brand.WeakMap, `WeakMap.prototype.${what}`)
  defineMethod(weakMapProto, "get", 1, (t, a) => (isObject(a[0]) ? wm(t, "get").get(a[0]) : undefined))
  defineMethod(weakMapProto, "set", 2, (t, a) => {
    requireWeakKey(arg(a, 0), "as weak map key")
    wm(t, "set").set(a[0], arg(a, 1))
    return t
  })
  defineMethod(weakMapProto, "has", 1, (t, a) => (isObject(a[0]) ? wm(t, "has").has(a[0]) : false))
  defineMethod(weakMapProto, "delete", 1, (t, a) => (isObject(a[0]) ? wm(t, "delete").delete(a[0]) : false))
  defineValue(weakMapProto, Symbol.toStringTag, "WeakMap", false)
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
  defineMethod(weakSetProto, "add", 1, (t, a) => {
    requireWeakKey(arg(a, 0), "in weak set")
    ws(t, "add").add(a[0])
    return t
  })
  defineMethod(weakSetProto, "has", 1, (t, a) => (isObject(a[0]) ? ws(t, "has").has(a[0]) : false))
  defineMethod(weakSetProto, "delete", 1, (t, a) => (isObject(a[0]) ? ws(t, "delete").delete(a[0]) : false))
  defineValue(weakSetProto, Symbol.toStringTag, "WeakSet", false)
  realm.defineGlobal("WeakSet", weakSetCtor)
}
