/**
 * `Array` and `Array.prototype` through ES2023. Methods work on arrays at host speed and on array-likes generically;
 * callbacks are invoked through the interpreter's call convention. New arrays are always plain arrays of the realm
 * (no `Symbol.species`).
 */
import { MAX_ARRAY_LENGTH, MAX_STRING_LENGTH } from "../limits.js"
import { throwRangeError, throwTypeError } from "../runtime/errors.js"
import {
  arg,
  call,
  defineBuiltinAccessor,
  defineMethod,
  isCallable,
  isObject,
  linkConstructor,
  makeNative,
  shortDescription,
  type Call3Impl,
  type Value,
} from "../runtime/functions.js"
import { CALL, CALL3 } from "../runtime/internals.js"
import { DONE, getIterator, getIteratorMethod } from "../runtime/iterators.js"
import { charge } from "../runtime/meter.js"
import {
  concat as concatStrings,
  sameValueZero,
  stringTooLong,
  toInteger,
  toNumber,
  toStr,
} from "../runtime/operators.js"
import { arrayTooLong } from "../runtime/properties.js"
import type { Realm } from "../runtime/realm.js"
import { rt } from "../runtime/state.js"
import { createArrayIterator } from "./iteration.js"

/** The `this` of an array method as an array-like (strings index natively). */
const thisArrayLike = (t: Value, name: string): Value => {
  if (t === undefined || t === null) return throwTypeError(`Array.prototype.${name} called on null or undefined`)
  return t
}

/** `LengthOfArrayLike`. */
const lengthOf = (o: Value): number => {
  if (Array.isArray(o)) return o.length
  if (typeof o === "string") return o.length
  if (!isObject(o)) return 0
  const n = toInteger(o.length)
  return n <= 0 ? 0 : Math.min(n, Number.MAX_SAFE_INTEGER)
}

const hasIndex = (o: Value, i: number): boolean => (typeof o === "string" ? i < o.length : isObject(o) ? i in o : false)

/** A relative index argument (`at(-1)`, `slice(-2)`) clamped to `[0, length]`. */
const relativeIndex = (v: Value, length: number, fallback: number): number => {
  if (v === undefined) return fallback
  const n = toInteger(v)
  if (n < 0) return Math.max(length + n, 0)
  return Math.min(n, length)
}

const requireCallback = (fn: Value, method: string): void => {
  if (!isCallable(fn)) throwTypeError(`Array.prototype.${method}: ${shortDescription(fn)} is not a function`)
}

const checkLength = (n: number): void => {
  if (n > MAX_ARRAY_LENGTH) arrayTooLong(n)
}

/** Call a program callback with up to three arguments, through its list-free entry when it has one. */
const callback3 = (fn: Value, count = 3): Call3Impl => {
  const c3 = fn[CALL3]
  if (c3 !== undefined) return c3
  const c = fn[CALL]
  return count === 2
    ? (thisValue, a0, a1, _a2, self) => c(thisValue, [a0, a1], self)
    : (thisValue, a0, a1, a2, self) => c(thisValue, [a0, a1, a2], self)
}

/** Compare for the default sort: by string value, `undefined` last. */
const defaultCompare = (a: { k: string }, b: { k: string }): number => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0)

/** Sort a host list of program values with an optional program comparator. */
export const sortValues = (values: Value[], comparator: Value): Value[] => {
  const n = values.length
  charge(n > 1 ? Math.ceil(n * Math.log2(n)) : 1)
  const defined: Value[] = []
  let undefinedCount = 0
  for (const v of values) {
    if (v === undefined) undefinedCount++
    else defined.push(v)
  }
  let sorted: Value[]
  if (comparator === undefined) {
    const keyed = defined.map((v) => ({ v, k: typeof v === "string" ? v : toStr(v) }))
    keyed.sort(defaultCompare)
    sorted = keyed.map((e) => e.v)
  } else {
    const c = callback3(comparator, 2)
    sorted = defined.sort((a, b) => {
      const r = c(undefined, a, b, undefined, comparator)
      const x = typeof r === "number" ? r : toNumber(r)
      return x !== x ? 0 : x
    })
  }
  for (let i = 0; i < undefinedCount; i++) sorted.push(undefined)
  return sorted
}

/** Join array-like elements with a separator (`undefined`/`null` become empty strings). */
const joinValues = (o: Value, length: number, sep: string, seen: Set<Value>): string => {
  charge(length)
  if (seen.has(o)) return ""
  seen.add(o)
  try {
    const parts: string[] = new Array(length)
    let total = 0
    for (let i = 0; i < length; i++) {
      const v = o[i]
      const s = v === undefined || v === null ? "" : typeof v === "string" ? v : toStr(v)
      parts[i] = s
      total += s.length + sep.length
      if (total > MAX_STRING_LENGTH) stringTooLong(total)
    }
    return parts.join(sep)
  } finally {
    seen.delete(o)
  }
}

const joining = new Set<Value>()

/** Install `Array`. */
export const installArray = (realm: Realm): void => {
  const proto = realm.ArrayProto
  const SA = realm.SA
  const newArray = (): Value[] => new SA()

  const construct = (a: Value[], newTarget: Value): Value => {
    let r: Value[]
    if (a.length === 1 && typeof a[0] === "number") {
      const n = a[0]
      if (n !== n >>> 0) throwRangeError("Invalid array length")
      checkLength(n)
      r = newArray()
      r.length = n
    } else {
      r = newArray()
      for (let i = 0; i < a.length; i++) r[i] = a[i]
    }
    if (newTarget !== undefined && newTarget !== realm.Array && isObject(newTarget.prototype)) {
      Object.setPrototypeOf(r, newTarget.prototype)
    }
    return r
  }
  const ctor = makeNative("Array", 1, (_t, a) => construct(a, undefined), construct)
  realm.Array = ctor
  linkConstructor(ctor, proto)

  defineMethod(ctor, "isArray", 1, (_t, a) => Array.isArray(arg(a, 0)))
  defineMethod(ctor, "of", 0, (_t, a) => realm.newArray(a))
  defineMethod(ctor, "from", 1, (_t, a) => {
    const items = arg(a, 0)
    const mapFn = arg(a, 1)
    const thisArg = arg(a, 2)
    if (mapFn !== undefined) requireCallback(mapFn, "from")
    const out = newArray()
    if (items === undefined || items === null) return throwTypeError(`${items} is not iterable`)
    const method = getIteratorMethod(items, Symbol.iterator)
    if (method !== undefined) {
      const it = getIterator(items)
      for (let i = 0; ; i++) {
        const v = it.next()
        if (v === DONE) return out
        if (i >= MAX_ARRAY_LENGTH) {
          it.close()
          arrayTooLong(i + 1)
        }
        if (--rt.fuel < 0) charge(0)
        out[i] = mapFn === undefined ? v : call(mapFn, thisArg, [v, i])
      }
    }
    const length = lengthOf(items)
    checkLength(length)
    charge(length)
    for (let i = 0; i < length; i++) out[i] = mapFn === undefined ? items[i] : call(mapFn, thisArg, [items[i], i])
    return out
  })

  const method = (name: string, length: number, impl: (o: Value, a: Value[]) => Value) =>
    defineMethod(proto, name, length, (t, a) => impl(thisArrayLike(t, name), a))

  method("at", 1, (o, a) => {
    const len = lengthOf(o)
    let i = toInteger(arg(a, 0))
    if (i < 0) i += len
    return i < 0 || i >= len ? undefined : o[i]
  })
  method("push", 1, (o, a) => {
    if (Array.isArray(o)) {
      const n = o.length
      if (n + a.length > MAX_ARRAY_LENGTH) arrayTooLong(n + a.length)
      if (a.length === 1) o[n] = a[0]
      else for (let i = 0; i < a.length; i++) o[n + i] = a[i]
      return o.length
    }
    let len = lengthOf(o)
    checkLength(len + a.length)
    charge(a.length)
    for (let i = 0; i < a.length; i++) o[len++] = a[i]
    if (!Array.isArray(o)) o.length = len
    return len
  })
  method("pop", 0, (o) => {
    if (Array.isArray(o)) return Array.prototype.pop.call(o)
    const len = lengthOf(o)
    if (len === 0) {
      o.length = 0
      return undefined
    }
    const v = o[len - 1]
    delete o[len - 1]
    o.length = len - 1
    return v
  })
  method("shift", 0, (o) => {
    charge(lengthOf(o))
    return Array.prototype.shift.call(o)
  })
  method("unshift", 1, (o, a) => {
    const len = lengthOf(o)
    checkLength(len + a.length)
    charge(len + a.length)
    return Array.prototype.unshift.apply(o, a)
  })
  method("splice", 2, (o, a) => {
    const len = lengthOf(o)
    const start = relativeIndex(arg(a, 0), len, 0)
    const deleteCount =
      a.length === 0 ? 0 : a.length === 1 ? len - start : Math.min(Math.max(toInteger(a[1]), 0), len - start)
    const items = a.slice(2)
    checkLength(len - deleteCount + items.length)
    charge(len + items.length)
    const removed = Array.prototype.splice.call(o, start, deleteCount, ...items)
    return realm.adoptArray(Array.isArray(removed) ? removed : Array.from(removed))
  })
  method("slice", 2, (o, a) => {
    const len = lengthOf(o)
    const start = relativeIndex(arg(a, 0), len, 0)
    const end = relativeIndex(arg(a, 1), len, len)
    const out = newArray()
    charge(Math.max(0, end - start))
    for (let i = start, j = 0; i < end; i++, j++) {
      if (hasIndex(o, i)) out[j] = o[i]
      else out.length = j + 1
    }
    return out
  })
  method("concat", 1, (o, a) => {
    let total = lengthOf(o)
    for (const v of a) total += Array.isArray(v) ? v.length : 1
    checkLength(total)
    const out = newArray()
    let n = 0
    const add = (v: Value) => {
      const spreadable = isObject(v)
        ? v[Symbol.isConcatSpreadable] !== undefined
          ? !!v[Symbol.isConcatSpreadable]
          : Array.isArray(v)
        : false
      if (spreadable) {
        const len = lengthOf(v)
        checkLength(n + len)
        charge(len)
        for (let i = 0; i < len; i++, n++) {
          if (hasIndex(v, i)) out[n] = v[i]
        }
        out.length = n
      } else {
        checkLength(n + 1)
        out[n++] = v
      }
    }
    add(o)
    for (const v of a) add(v)
    return out
  })
  method("join", 1, (o, a) => {
    const sep = arg(a, 0) === undefined ? "," : toStr(a[0])
    return joinValues(o, lengthOf(o), sep, joining)
  })
  method("toString", 0, (o) => {
    const join = isObject(o) ? o.join : undefined
    if (isCallable(join)) return call(join, o, [])
    return `[object ${Array.isArray(o) ? "Array" : "Object"}]`
  })
  method("toLocaleString", 0, (o) => {
    const len = lengthOf(o)
    charge(len)
    let s = ""
    for (let i = 0; i < len; i++) {
      if (i > 0) s = concatStrings(s, ",")
      const v = o[i]
      if (v !== undefined && v !== null) {
        const f = isObject(v) ? v.toLocaleString : realm.ObjectProto.toLocaleString
        s = concatStrings(s, toStr(call(f, v, [])))
      }
    }
    return s
  })
  method("reverse", 0, (o) => {
    charge(lengthOf(o))
    Array.prototype.reverse.call(o)
    return o
  })
  method("fill", 1, (o, a) => {
    const len = lengthOf(o)
    checkLength(len)
    const start = relativeIndex(arg(a, 1), len, 0)
    const end = relativeIndex(arg(a, 2), len, len)
    charge(end - start)
    const v = arg(a, 0)
    for (let i = start; i < end; i++) o[i] = v
    return o
  })
  method("copyWithin", 2, (o, a) => {
    const len = lengthOf(o)
    charge(len)
    Array.prototype.copyWithin.call(
      o,
      relativeIndex(arg(a, 0), len, 0),
      relativeIndex(arg(a, 1), len, 0),
      relativeIndex(arg(a, 2), len, len),
    )
    return o
  })
  method("indexOf", 1, (o, a) => {
    const len = lengthOf(o)
    const x = arg(a, 0)
    let i = a.length > 1 ? toInteger(a[1]) : 0
    if (i < 0) i = Math.max(len + i, 0)
    charge(len - i)
    for (; i < len; i++) if (o[i] === x && hasIndex(o, i)) return i
    return -1
  })
  method("lastIndexOf", 1, (o, a) => {
    const len = lengthOf(o)
    const x = arg(a, 0)
    let i = a.length > 1 ? toInteger(a[1]) : len - 1
    if (i < 0) i = len + i
    if (i >= len) i = len - 1
    charge(i + 1)
    for (; i >= 0; i--) if (o[i] === x && hasIndex(o, i)) return i
    return -1
  })
  method("includes", 1, (o, a) => {
    const len = lengthOf(o)
    const x = arg(a, 0)
    let i = a.length > 1 ? toInteger(a[1]) : 0
    if (i < 0) i = Math.max(len + i, 0)
    charge(len - i)
    for (; i < len; i++) if (sameValueZero(o[i], x)) return true
    return false
  })

  const iterateCallback = (
    name: string,
    body: (o: Value, len: number, fn: Value, c: Call3Impl, thisArg: Value) => Value,
  ) =>
    method(name, 1, (o, a) => {
      const fn = arg(a, 0)
      requireCallback(fn, name)
      return body(o, lengthOf(o), fn, callback3(fn), arg(a, 1))
    })

  iterateCallback("forEach", (o, len, fn, c, thisArg) => {
    for (let i = 0; i < len; i++) {
      const v = o[i]
      if (v === undefined && !hasIndex(o, i)) continue
      c(thisArg, v, i, o, fn)
    }
    return undefined
  })
  iterateCallback("map", (o, len, fn, c, thisArg) => {
    const out = newArray()
    for (let i = 0; i < len; i++) {
      const v = o[i]
      if (v === undefined && !hasIndex(o, i)) continue
      out[i] = c(thisArg, v, i, o, fn)
    }
    if (out.length !== len) out.length = len
    return out
  })
  iterateCallback("filter", (o, len, fn, c, thisArg) => {
    const out = newArray()
    let n = 0
    for (let i = 0; i < len; i++) {
      const v = o[i]
      if (v === undefined && !hasIndex(o, i)) continue
      if (c(thisArg, v, i, o, fn)) out[n++] = v
    }
    return out
  })
  iterateCallback("some", (o, len, fn, c, thisArg) => {
    for (let i = 0; i < len; i++) {
      const v = o[i]
      if (v === undefined && !hasIndex(o, i)) continue
      if (c(thisArg, v, i, o, fn)) return true
    }
    return false
  })
  iterateCallback("every", (o, len, fn, c, thisArg) => {
    for (let i = 0; i < len; i++) {
      const v = o[i]
      if (v === undefined && !hasIndex(o, i)) continue
      if (!c(thisArg, v, i, o, fn)) return false
    }
    return true
  })
  iterateCallback("find", (o, len, fn, c, thisArg) => {
    for (let i = 0; i < len; i++) {
      const v = o[i]
      if (c(thisArg, v, i, o, fn)) return v
    }
    return undefined
  })
  iterateCallback("findIndex", (o, len, fn, c, thisArg) => {
    for (let i = 0; i < len; i++) if (c(thisArg, o[i], i, o, fn)) return i
    return -1
  })
  iterateCallback("findLast", (o, len, fn, c, thisArg) => {
    for (let i = len - 1; i >= 0; i--) {
      const v = o[i]
      if (c(thisArg, v, i, o, fn)) return v
    }
    return undefined
  })
  iterateCallback("findLastIndex", (o, len, fn, c, thisArg) => {
    for (let i = len - 1; i >= 0; i--) if (c(thisArg, o[i], i, o, fn)) return i
    return -1
  })
  const reduce = (name: string, right: boolean) =>
    method(name, 1, (o, a) => {
      const fn = arg(a, 0)
      requireCallback(fn, name)
      const c = fn[CALL]
      const len = lengthOf(o)
      let i = right ? len - 1 : 0
      const step = right ? -1 : 1
      let acc: Value
      if (a.length > 1) acc = a[1]
      else {
        while ((right ? i >= 0 : i < len) && !hasIndex(o, i)) i += step
        if (right ? i < 0 : i >= len) return throwTypeError("Reduce of empty array with no initial value")
        acc = o[i]
        i += step
      }
      for (; right ? i >= 0 : i < len; i += step) {
        const v = o[i]
        if (v === undefined && !hasIndex(o, i)) continue
        acc = c(undefined, [acc, v, i, o], fn)
      }
      return acc
    })
  reduce("reduce", false)
  reduce("reduceRight", true)

  const flatten = (out: Value[], source: Value, depth: number): void => {
    const len = lengthOf(source)
    charge(len)
    for (let i = 0; i < len; i++) {
      if (!hasIndex(source, i)) continue
      const v = source[i]
      if (depth > 0 && Array.isArray(v)) flatten(out, v, depth - 1)
      else {
        if (out.length >= MAX_ARRAY_LENGTH) arrayTooLong(out.length + 1)
        out[out.length] = v
      }
    }
  }
  method("flat", 0, (o, a) => {
    const depth = arg(a, 0) === undefined ? 1 : toInteger(a[0])
    const out = newArray()
    flatten(out, o, Math.min(depth, 100))
    return out
  })
  iterateCallback("flatMap", (o, len, fn, c, thisArg) => {
    const out = newArray()
    for (let i = 0; i < len; i++) {
      if (!hasIndex(o, i)) continue
      const r = c(thisArg, o[i], i, o, fn)
      if (Array.isArray(r)) flatten(out, r, 0)
      else out[out.length] = r
    }
    return out
  })

  const readAll = (o: Value): Value[] => {
    const len = lengthOf(o)
    charge(len)
    const list = new Array(len)
    for (let i = 0; i < len; i++) list[i] = o[i]
    return list
  }
  const checkComparator = (cmp: Value): void => {
    if (cmp !== undefined && !isCallable(cmp)) {
      throwTypeError("The comparison function must be either a function or undefined")
    }
  }
  method("sort", 1, (o, a) => {
    const cmp = arg(a, 0)
    checkComparator(cmp)
    const sorted = sortValues(readAll(o), cmp)
    for (let i = 0; i < sorted.length; i++) o[i] = sorted[i]
    return o
  })
  method("toSorted", 1, (o, a) => {
    const cmp = arg(a, 0)
    checkComparator(cmp)
    return realm.adoptArray(sortValues(readAll(o), cmp))
  })
  method("toReversed", 0, (o) => realm.adoptArray(readAll(o).reverse()))
  method("toSpliced", 2, (o, a) => {
    const list = readAll(o)
    const len = list.length
    const start = relativeIndex(arg(a, 0), len, 0)
    const deleteCount =
      a.length === 0 ? 0 : a.length === 1 ? len - start : Math.min(Math.max(toInteger(a[1]), 0), len - start)
    checkLength(len - deleteCount + Math.max(0, a.length - 2))
    list.splice(start, deleteCount, ...a.slice(2))
    return realm.adoptArray(list)
  })
  method("with", 2, (o, a) => {
    const list = readAll(o)
    let i = toInteger(arg(a, 0))
    if (i < 0) i += list.length
    if (i < 0 || i >= list.length) throwRangeError("Invalid index")
    list[i] = arg(a, 1)
    return realm.adoptArray(list)
  })
  method("keys", 0, (o) => createArrayIterator(realm, o, "keys"))
  method("entries", 0, (o) => createArrayIterator(realm, o, "entries"))
  const values = method("values", 0, (o) => createArrayIterator(realm, o, "values"))
  Object.defineProperty(proto, Symbol.iterator, {
    value: values,
    writable: true,
    enumerable: false,
    configurable: true,
  })
  realm.arrayValues = values
  realm.ArgumentsProto = Object.create(realm.ObjectProto)
  Object.defineProperty(realm.ArgumentsProto, Symbol.iterator, {
    value: values,
    writable: true,
    enumerable: false,
    configurable: true,
  })
  Object.defineProperty(realm.ArgumentsProto, Symbol.toStringTag, {
    value: "Arguments",
    writable: false,
    enumerable: false,
    configurable: true,
  })
  defineBuiltinAccessor(realm.ArgumentsProto, "callee", () =>
    throwTypeError("'callee' may not be accessed on the arguments object of a strict mode function"),
  )
  realm.defineGlobal("Array", ctor)
}
