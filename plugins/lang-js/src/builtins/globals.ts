/**
 * The remaining global functions: URI encoding and `structuredClone`.
 */
import { MAX_NESTING } from "../limits.js"
import { throwRangeError } from "../runtime/errors.js"
import { arg, isObject, makeNative, type Value } from "../runtime/functions.js"
import { BRAND, Brand, CALL, SLOT, brandOf } from "../runtime/internals.js"
import { newHoleyArray } from "../runtime/arrays.js"
import { charge } from "../runtime/meter.js"
import { toStr } from "../runtime/operators.js"
import type { Realm } from "../runtime/realm.js"

/** Install the URI functions and `structuredClone`. */
export const installGlobals = (realm: Realm): void => {
  const uri = (name: string, f: (s: string) => string) =>
    realm.defineGlobal(
      name,
      makeNative(name, 1, (_t, a) => {
        const s = toStr(arg(a, 0))
        charge(1 + s.length)
        return f(s)
      }),
    )
  uri("encodeURIComponent", encodeURIComponent)
  uri("decodeURIComponent", decodeURIComponent)
  uri("encodeURI", encodeURI)
  uri("decodeURI", decodeURI)

  const cloneError = (what: string): never => {
    const e = realm.makeError("Error", `${what} could not be cloned.`)
    Object.defineProperty(e, "name", { value: "DataCloneError", writable: true, enumerable: false, configurable: true })
    throw e
  }
  const clone = (v: Value, seen: Map<Value, Value>, depth: number): Value => {
    if (typeof v === "symbol") return cloneError(v.toString())
    if (!isObject(v)) return v
    if (depth > MAX_NESTING) return throwRangeError(`structuredClone: value nested deeper than ${MAX_NESTING} levels`)
    const done = seen.get(v)
    if (done !== undefined) return done
    charge(1)
    if (v[CALL] !== undefined) return cloneError("A function")
    const brand = brandOf(v)
    if (Array.isArray(v)) {
      const length = v.length
      const out = newHoleyArray(length)
      seen.set(v, out)
      charge(length)
      for (let i = 0; i < length; i++) if (i in v) out[i] = clone(v[i], seen, depth + 1)
      return out
    }
    if (brand === Brand.Date) return cloneDate(v)
    if (brand === Brand.Map) {
      const out = Object.create(realm.MapProto)
      const m = new Map()
      out[SLOT] = m
      out[BRAND] = Brand.Map
      seen.set(v, out)
      for (const [k, x] of v[SLOT] as Map<Value, Value>) m.set(clone(k, seen, depth + 1), clone(x, seen, depth + 1))
      return out
    }
    if (brand === Brand.Set) {
      const out = Object.create(realm.SetProto)
      const s = new Set()
      out[SLOT] = s
      out[BRAND] = Brand.Set
      seen.set(v, out)
      for (const x of v[SLOT] as Set<Value>) s.add(clone(x, seen, depth + 1))
      return out
    }
    if (brand === Brand.RegExp) return realm.makeRegExp((v[SLOT] as RegExp).source, (v[SLOT] as RegExp).flags)
    if (brand === Brand.Error) {
      const out = realm.makeError("Error", toStr(v.message ?? ""))
      const name = v.name
      if (typeof name === "string")
        Object.defineProperty(out, "name", { value: name, writable: true, enumerable: false, configurable: true })
      return out
    }
    if (brand === Brand.Boolean || brand === Brand.Number || brand === Brand.String) return v
    if (brand !== undefined) return cloneError("The object")
    const out = realm.newObject()
    seen.set(v, out)
    for (const k of Object.keys(v)) out[k] = clone(v[k], seen, depth + 1)
    return out
  }
  const cloneDate = (v: Value): Value => {
    const out = Object.create(realm.DateProto)
    out[SLOT] = v[SLOT]
    out[BRAND] = Brand.Date
    return out
  }
  realm.defineGlobal(
    "structuredClone",
    makeNative("structuredClone", 1, (_t, a) => clone(arg(a, 0), new Map(), 0)),
  )
}
