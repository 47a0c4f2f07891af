/**
 * `Array` and `Array.prototype` through ES2023. Methods run at host speed on arrays and generically on any
 * array-like `this` (primitives are boxed first); callbacks go through the interpreter's call convention. New
 * arrays are plain arrays of the realm (no `Symbol.species`), checked against the element bound and the heap before
 * they are filled (see `arrayResult.ts`). Work is charged per index visited, holes included.
 */
import { MAX_ARRAY_LENGTH } from "../limits.js"
import {
  appendOne,
  CHECKED_INDEX,
  checkArrayGrowth,
  newHoleyArray,
  setArrayLength,
  sparseElementCount,
} from "../runtime/arrays.js"
import { throwRangeError, throwTypeError } from "../runtime/errors.js"
import {
  arg,
  call,
  construct as constructWith,
  defineBuiltinAccessor,
  defineMethod,
  defineValue,
  isCallable,
  isConstructor,
  isObject,
  linkConstructor,
  makeNative,
  shortDescription,
  type Call3Impl,
  type Value,
} from "../runtime/functions.js"
import { CALL, CALL3, type FunctionMeta, META } from "../runtime/internals.js"
import {
  checkListGrowth,
  closeAfterThrow,
  DONE,
  getIterator,
  getIteratorMethod,
  protocolIterator,
} from "../runtime/iterators.js"
import { charge, ITEM_UNITS } from "../runtime/meter.js"
import { MAX_ARRAY_INDEX_LENGTH, reserveElements } from "../runtime/memory.js"
import { sameValueZero, toInteger, toNumber, toStr } from "../runtime/operators.js"
import { getProp, noteElementWrite, setProp } from "../runtime/properties.js"
import type { Realm } from "../runtime/realm.js"
import { rt } from "../runtime/state.js"
import { ArrayResult, defineElement } from "./arrayResult.js"
import { createArrayIterator } from "./iteration.js"
import { giveEntry3 } from "./entry3.js"
import { joinStrings } from "./joiner.js"
import { timSort } from "./timsort.js"
import { boxPrimitive } from "./object.js"

const MAX_SAFE_LENGTH = Number.MAX_SAFE_INTEGER

/** Deepest nesting `flat` follows (Node's recursion runs out of stack about there: a `RangeError`). */
const MAX_FLATTEN_DEPTH = 10_000

/** `LengthOfArrayLike(o)`. */
const lengthOf = (o: Value): number => {
  if (Array.isArray(o) || typeof o === "string") return o.length
  const n = toInteger(o.length)
  return n <= 0 ? 0 : Math.min(n, MAX_SAFE_LENGTH)
}

/** `HasProperty(o, i)` (strings stay primitive in read-only methods). */
const hasIndex = (o: Value, i: number): boolean => (typeof o === "string" ? i < o.length : i in o)

/**
 * The indices from `from` up to (not including) `to` that a sparse array (one longer than the dense bound) really
 * has, ascending: what `indexOf`, `includes` and `sort` visit instead of every index, as the host engine does.
 */
const presentIndices = (a: Value[], from: number, to: number): number[] => {
  reserveElements(Math.min(sparseElementCount() + CHECKED_INDEX, MAX_ARRAY_LENGTH), 40)
  const keys = Object.keys(a)
  visit(keys.length)
  const indices: number[] = []
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]
    const n = Number(k)
    if (n >= from && n < to && String(n) === k) indices.push(n)
  }
  return indices.sort((x, y) => x - y)
}

/** True for an array whose length passes the dense bound (its storage is a dictionary). */
const isSparse = (o: Value): boolean => Array.isArray(o) && o.length > MAX_ARRAY_LENGTH

/** A relative index argument (`at(-1)`, `slice(-2)`) clamped to `[0, length]`. */
const relativeIndex = (v: Value, length: number, fallback: number): number => {
  if (v === undefined) return fallback
  const n = toInteger(v)
  if (n < 0) return Math.max(length + n, 0)
  return Math.min(n, length)
}

/** A `deleteCount` argument of `splice`/`toSpliced`. */
const deleteCountOf = (a: Value[], length: number, start: number): number =>
  a.length === 0 ? 0 : a.length === 1 ? length - start : Math.min(Math.max(toInteger(a[1]), 0), length - start)

const requireCallback = (fn: Value): void => {
  if (!isCallable(fn)) throwTypeError(`${shortDescription(fn)} is not a function`)
}

/** Work for visiting `n` indices. */
const visit = (n: number): void => {
  if (n > 0) charge(n)
}

/**
 * Move `count` elements of a dense program array from `from` to `target` (overlapping ranges are moved in the
 * direction that reads every element before it is overwritten); a hole moves as a hole. The host's own
 * `copyWithin`, `reverse`, `shift` and `unshift` take a generic path about fifty times slower on arrays whose
 * prototype is not the host's, so the in-place built-ins move elements here.
 */
const moveElements = (o: Value[], target: number, from: number, count: number): void => {
  if (from < target && target < from + count) {
    for (let k = count - 1; k >= 0; k--) {
      const v = o[from + k]
      if (v === undefined && !(from + k in o)) delete o[target + k]
      else o[target + k] = v
    }
  } else {
    for (let k = 0; k < count; k++) {
      const v = o[from + k]
      if (v === undefined && !(from + k in o)) delete o[target + k]
      else o[target + k] = v
    }
  }
}

/** Reverse a dense program array in place (holes stay holes, at their mirrored index). */
const reverseElements = (o: Value[], len: number): void => {
  for (let lower = 0, upper = len - 1; lower < upper; lower++, upper--) {
    const x = o[lower]
    const y = o[upper]
    if ((x === undefined && !(lower in o)) || (y === undefined && !(upper in o))) {
      const hasLower = lower in o
      const hasUpper = upper in o
      if (hasUpper) o[lower] = y
      else delete o[lower]
      if (hasLower) o[upper] = x
      else delete o[upper]
      continue
    }
    o[lower] = y
    o[upper] = x
  }
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

/**
 * A reducer's entry that takes `(acc, value, index, array)` without an argument list: a program function's `CALL3`
 * (it declares at most three parameters and does not use `arguments`, so it cannot see the array), else one that
 * builds the list.
 */
const reducer3 = (fn: Value): ((acc: Value, v: Value, i: number, o: Value) => Value) => {
  const c3 = fn[CALL3]
  if (c3 !== undefined && (fn[META] as FunctionMeta).source !== undefined)
    return (acc, v, i) => c3(undefined, acc, v, i, fn, 3)
  const c = fn[CALL]
  return (acc, v, i, o) => c(undefined, [acc, v, i, o], fn)
}

/** Compare for the default sort: by string value. */
const defaultCompare = (a: { k: string }, b: { k: string }): number => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0)

/** Whether every value is a string or a number: values whose default sort key the host computes as we do. */
const allStringsOrNumbers = (values: Value[]): boolean => {
  for (let i = 0; i < values.length; i++) {
    const t = typeof values[i]
    if (t !== "string" && t !== "number") return false
  }
  return true
}

/**
 * Sort a host list of program values (the caller's own, reordered in place) with an optional program comparator
 * (`undefined` values last).
 */
const sortValues = (values: Value[], comparator: Value): Value[] => {
  const n = values.length
  // The comparisons, and for the default order a string key and an entry made for each value.
  charge((n > 1 ? Math.ceil(n * Math.log2(n)) : 1) + (comparator === undefined ? n * ITEM_UNITS : 0))
  // The defined values move to the front, in order.
  const defined = values
  let kept = 0
  for (let i = 0; i < n; i++) {
    const v = values[i]
    if (v !== undefined) values[kept++] = v
  }
  const undefinedCount = n - kept
  if (undefinedCount > 0) values.length = kept
  let sorted: Value[]
  if (comparator === undefined) {
    if (allStringsOrNumbers(defined)) {
      // The host's default order is the language's (stable, by the code units of each value's string, which for
      // these values runs no program code and converts as ours does), without an entry per value.
      sorted = defined.sort()
    } else {
      const keyed = defined.map((v) => ({ v, k: typeof v === "string" ? v : toStr(v) }))
      timSort(keyed, defaultCompare)
      sorted = keyed.map((e) => e.v)
    }
  } else {
    const c = callback3(comparator, 2)
    timSort(defined, (a, b) => {
      const r = c(undefined, a, b, undefined, comparator, 2)
      const x = typeof r === "number" ? r : toNumber(r)
      return x !== x ? 0 : x
    })
    sorted = defined
  }
  for (let i = 0; i < undefinedCount; i++) sorted.push(undefined)
  return sorted
}

const joining = new Set<Value>()

/** Join array-like elements with a separator (`undefined`/`null` become empty strings); a cycle joins as empty. */
const joinValues = (o: Value, length: number, sep: string, element: (v: Value) => string): string => {
  if (joining.has(o)) return ""
  joining.add(o)
  try {
    return joinStrings(length, sep, (i) => {
      const v = o[i]
      return v === undefined || v === null ? "" : element(v)
    })
  } finally {
    joining.delete(o)
  }
}

/** `Set(o, "length", n, true)` for a result object a constructor made. */
const setLength = (o: Value, n: number): void => setProp(o, "length", n)

/** Install `Array`. */
export const installArray = (realm: Realm): void => {
  const proto = realm.ArrayProto
  // The realm's array class is a subclass of the host's Array: `new SA(n)` makes an array of n holes.
  const SA = realm.SA as new (length?: number) => Value[]
  /** True for an array whose elements the built-ins may move themselves: dense, with no element on a prototype. */
  const movable = (o: Value): o is Value[] => Array.isArray(o) && o.length <= MAX_ARRAY_LENGTH && !realm.protoElements

  /** `ToObject(this)` of an array method: strings stay primitive (they index natively), other primitives are boxed. */
  const thisObject = (t: Value, name: string): Value => {
    if (isObject(t) || typeof t === "string") return t
    if (t === undefined || t === null) return throwTypeError(`Array.prototype.${name} called on null or undefined`)
    return boxPrimitive(realm, t)
  }
  /** `ToObject(this)` of a method that writes: every primitive is boxed. */
  const thisTarget = (t: Value, name: string): Value =>
    typeof t === "string" ? boxPrimitive(realm, t) : thisObject(t, name)

  const construct = (a: Value[], newTarget: Value): Value => {
    let r: Value[]
    if (a.length === 1 && typeof a[0] === "number") {
      const n = a[0]
      if (n !== n >>> 0) throwRangeError("Invalid array length")
      // A dense array's storage is written hole by hole.
      if (n <= MAX_ARRAY_LENGTH) visit(n)
      r = newHoleyArray(n)
    } else {
      const result = new ArrayResult(realm, SA)
      result.room(a.length)
      for (let i = 0; i < a.length; i++) result.put(i, a[i])
      r = result.finish()
    }
    if (newTarget !== undefined && newTarget !== realm.Array) {
      const p = newTarget.prototype
      if (isObject(p)) Object.setPrototypeOf(r, p)
    }
    return r
  }
  const ctor = makeNative("Array", 1, (_t, a) => construct(a, undefined), construct)
  realm.Array = ctor
  // Array.prototype is an array in the language: it has a length.
  Object.defineProperty(proto, "length", { value: 0, writable: true, enumerable: false, configurable: false })
  linkConstructor(ctor, proto)
  defineBuiltinAccessor(ctor, Symbol.species, (t) => t)

  /** A constructor `this` of `Array.from`/`Array.of` other than `Array` itself makes the result. */
  const customConstructor = (t: Value): boolean => t !== ctor && isConstructor(t)

  defineMethod(ctor, "isArray", 1, (_t, a) => Array.isArray(arg(a, 0)))
  defineMethod(ctor, "of", 0, (t, a) => {
    const n = a.length
    if (!customConstructor(t)) {
      const result = new ArrayResult(realm, SA)
      result.room(n)
      for (let i = 0; i < n; i++) result.put(i, a[i])
      return result.finish()
    }
    const out = constructWith(t, [n])
    for (let i = 0; i < n; i++) {
      noteElementWrite(out, i)
      defineElement(out, i, a[i])
    }
    setLength(out, n)
    return out
  })
  defineMethod(ctor, "from", 1, (t, a) => {
    const items = arg(a, 0)
    const mapFn = arg(a, 1)
    const thisArg = arg(a, 2)
    if (mapFn !== undefined) requireCallback(mapFn)
    const custom = customConstructor(t)
    const method = getIteratorMethod(items, Symbol.iterator)
    if (method !== undefined) {
      const target = custom ? constructWith(t, []) : undefined
      const result = custom ? undefined : new ArrayResult(realm, SA)
      const builtin =
        method === realm.arrayValues ||
        method === realm.stringIterator ||
        method === realm.mapEntries ||
        method === realm.setValues
      const it = builtin ? getIterator(items) : protocolIterator(call(method, items, []))
      let i = 0
      try {
        for (; ; i++) {
          const v = it.next()
          if (v === DONE) break
          if (--rt.fuel < 0) charge(0)
          const x = mapFn === undefined ? v : call(mapFn, thisArg, [v, i])
          if (result !== undefined) result.push(x)
          else {
            noteElementWrite(target, i)
            defineElement(target, i, x)
          }
        }
      } catch (e) {
        closeAfterThrow(it, e)
      }
      if (result !== undefined) return result.finish()
      setLength(target, i)
      return target
    }
    if (items === undefined || items === null) return throwTypeError(`${items} is not iterable`)
    const source = isObject(items) || typeof items === "string" ? items : boxPrimitive(realm, items)
    const length = lengthOf(source)
    if (custom) {
      const out = constructWith(t, [length])
      for (let i = 0; i < length; i++) {
        if (--rt.fuel < 0) charge(0)
        const x = mapFn === undefined ? source[i] : call(mapFn, thisArg, [source[i], i])
        noteElementWrite(out, i)
        defineElement(out, i, x)
      }
      setLength(out, length)
      return out
    }
    if (length > MAX_ARRAY_INDEX_LENGTH - 1) throwRangeError("Invalid array length")
    // Every index becomes an element (holes read as undefined): the whole length is dense storage.
    reserveElements(length)
    const result = new ArrayResult(realm, SA)
    result.room(length)
    visit(length)
    for (let i = 0; i < length; i++)
      result.put(i, mapFn === undefined ? source[i] : call(mapFn, thisArg, [source[i], i]))
    return result.finish(length)
  })

  const method = (name: string, length: number, impl: (o: Value, a: Value[]) => Value) =>
    defineMethod(proto, name, length, (t, a) => impl(thisObject(t, name), a))
  const mutator = (name: string, length: number, impl: (o: Value, a: Value[]) => Value) =>
    defineMethod(proto, name, length, (t, a) => impl(thisTarget(t, name), a))

  method("at", 1, (o, a) => {
    const len = lengthOf(o)
    let i = toInteger(arg(a, 0))
    if (i < 0) i += len
    return i < 0 || i >= len ? undefined : o[i]
  })

  mutator("push", 1, (o, a) => {
    const count = a.length
    if (count === 1) {
      // The same append as \`o.push(x)\` compiled at its call site.
      const length = appendOne(o, a[0])
      if (length >= 0) return length
    } else if (Array.isArray(o) && o.length + count < MAX_ARRAY_INDEX_LENGTH) {
      const n = o.length
      checkArrayGrowth(o, count)
      for (let i = 0; i < count; i++) o[n + i] = a[i]
      return o.length
    }
    let len = lengthOf(o)
    if (len + count > MAX_SAFE_LENGTH)
      throwTypeError(`Pushing ${count} elements on an array-like of length ${len} is disallowed`)
    visit(count)
    for (let i = 0; i < count; i++) setProp(o, len++, a[i])
    setLength(o, len)
    return len
  })
  mutator("pop", 0, (o) => {
    if (Array.isArray(o)) return Array.prototype.pop.call(o)
    const len = lengthOf(o)
    if (len === 0) {
      setLength(o, 0)
      return undefined
    }
    const v = o[len - 1]
    delete o[len - 1]
    setLength(o, len - 1)
    return v
  })
  mutator("shift", 0, (o) => {
    const len = lengthOf(o)
    // Every element after the first is read and written.
    visit(2 * len)
    if (movable(o) && len > 0) {
      const first = o[0]
      moveElements(o, 0, 1, len - 1)
      o.length = len - 1
      return first
    }
    if (Array.isArray(o)) return Array.prototype.shift.call(o)
    if (len === 0) {
      setLength(o, 0)
      return undefined
    }
    const first = o[0]
    for (let k = 1; k < len; k++) {
      if (k in o) setProp(o, k - 1, o[k])
      else delete o[k - 1]
    }
    delete o[len - 1]
    setLength(o, len - 1)
    return first
  })
  mutator("unshift", 1, (o, a) => {
    const len = lengthOf(o)
    const count = a.length
    visit(2 * len + count)
    if (Array.isArray(o)) {
      checkArrayGrowth(o, count)
      if (!movable(o) || count === 0 || len + count > MAX_ARRAY_LENGTH) return Array.prototype.unshift.apply(o, a)
      o.length = len + count
      moveElements(o, count, 0, len)
      for (let j = 0; j < count; j++) o[j] = a[j]
      return len + count
    }
    if (count > 0) {
      if (len + count > MAX_SAFE_LENGTH)
        throwTypeError(`Unshifting ${count} elements on an array-like of length ${len} is disallowed`)
      for (let k = len; k > 0; k--) {
        if (k - 1 in o) setProp(o, k + count - 1, o[k - 1])
        else delete o[k + count - 1]
      }
      for (let j = 0; j < count; j++) setProp(o, j, a[j])
    }
    setLength(o, len + count)
    return len + count
  })
  mutator("splice", 2, (o, a) => {
    const len = lengthOf(o)
    const start = relativeIndex(arg(a, 0), len, 0)
    const deleteCount = deleteCountOf(a, len, start)
    const itemCount = Math.max(a.length - 2, 0)
    const newLength = len - deleteCount + itemCount
    if (newLength > MAX_SAFE_LENGTH) throwTypeError("Invalid array length")
    // The removed and inserted elements, and every element after them read and written when they move.
    visit(deleteCount + itemCount + (itemCount === deleteCount ? 0 : 2 * (len - start - deleteCount)))
    const removed = new ArrayResult(realm, SA)
    removed.room(deleteCount)
    for (let k = 0; k < deleteCount; k++) {
      const from = start + k
      const v = o[from]
      if (v !== undefined || hasIndex(o, from)) removed.put(k, v)
    }
    const deleted = removed.finish(deleteCount)
    if (Array.isArray(o)) {
      if (itemCount > deleteCount) {
        checkArrayGrowth(o, itemCount - deleteCount)
        setArrayLength(o, newLength)
      }
      if (itemCount !== deleteCount) {
        if (movable(o)) moveElements(o, start + itemCount, start + deleteCount, len - start - deleteCount)
        else Array.prototype.copyWithin.call(o, start + itemCount, start + deleteCount, len)
      }
      for (let k = 0; k < itemCount; k++) o[start + k] = a[k + 2]
      if (o.length !== newLength) setArrayLength(o, newLength)
      return deleted
    }
    if (itemCount < deleteCount) {
      for (let k = start; k < len - deleteCount; k++) {
        const from = k + deleteCount
        if (from in o) setProp(o, k + itemCount, o[from])
        else delete o[k + itemCount]
      }
      for (let k = len; k > newLength; k--) delete o[k - 1]
    } else if (itemCount > deleteCount) {
      for (let k = len - deleteCount; k > start; k--) {
        const from = k + deleteCount - 1
        if (from in o) setProp(o, k + itemCount - 1, o[from])
        else delete o[k + itemCount - 1]
      }
    }
    for (let k = 0; k < itemCount; k++) setProp(o, start + k, a[k + 2])
    setLength(o, newLength)
    return deleted
  })
  const sliceOf = (o: Value, startArg: Value, endArg: Value): Value[] => {
    const len = lengthOf(o)
    const start = relativeIndex(startArg, len, 0)
    const end = relativeIndex(endArg, len, len)
    const count = Math.max(0, end - start)
    visit(count)
    if (count < CHECKED_INDEX && !realm.protoElements) {
      // Sized first: a store past the end of an array whose prototype is not the host's is several times slower,
      // and sizing by the constructor is several times faster than setting a new array's length.
      const out = new SA(count)
      for (let i = 0; i < count; i++) {
        const v = o[start + i]
        if (v !== undefined || hasIndex(o, start + i)) out[i] = v
      }
      return out
    }
    const result = new ArrayResult(realm, SA)
    result.room(count)
    for (let i = 0; i < count; i++) {
      const v = o[start + i]
      if (v !== undefined || hasIndex(o, start + i)) result.put(i, v)
    }
    return result.finish(count)
  }
  const slice = method("slice", 2, (o, a) => sliceOf(o, arg(a, 0), arg(a, 1)))
  giveEntry3(slice, (t, a0, a1) => sliceOf(thisObject(t, "slice"), a0, a1))
  method("concat", 1, (o, a) => {
    const result = new ArrayResult(realm, SA)
    let n = 0
    const add = (v: Value) => {
      let spreadable = false
      if (isObject(v)) {
        const flag = v[Symbol.isConcatSpreadable]
        spreadable = flag !== undefined ? !!flag : Array.isArray(v)
      }
      if (!spreadable) {
        if (n >= MAX_SAFE_LENGTH) throwTypeError("Invalid array length")
        result.room(n + 1)
        result.put(n++, v)
        return
      }
      const len = lengthOf(v)
      if (n + len > MAX_SAFE_LENGTH) throwTypeError("Invalid array length")
      visit(len)
      result.room(n + len)
      for (let i = 0; i < len; i++, n++) {
        const x = v[i]
        if (x !== undefined || hasIndex(v, i)) result.put(n, x)
      }
    }
    add(o)
    for (let i = 0; i < a.length; i++) add(a[i])
    return result.finish(n)
  })
  method("join", 1, (o, a) => {
    const sep = arg(a, 0) === undefined ? "," : toStr(a[0])
    return joinValues(o, lengthOf(o), sep, (v) => (typeof v === "string" ? v : toStr(v)))
  })
  const objectToString = realm.ObjectProto.toString
  method("toString", 0, (o) => {
    const object = typeof o === "string" ? boxPrimitive(realm, o) : o
    const join = object.join
    if (isCallable(join)) return call(join, object, [])
    return call(objectToString, object, [])
  })
  method("toLocaleString", 0, (o) =>
    joinValues(o, lengthOf(o), ",", (v) => toStr(call(getProp(v, "toLocaleString"), v, []))),
  )
  mutator("reverse", 0, (o) => {
    const len = lengthOf(o)
    // Every element is read and written.
    visit(2 * len)
    if (movable(o)) {
      reverseElements(o, len)
      return o
    }
    if (Array.isArray(o)) {
      Array.prototype.reverse.call(o)
      return o
    }
    for (let lower = 0, upper = len - 1; lower < upper; lower++, upper--) {
      const hasLower = lower in o
      const lowerValue = hasLower ? o[lower] : undefined
      const hasUpper = upper in o
      const upperValue = hasUpper ? o[upper] : undefined
      if (hasUpper) setProp(o, lower, upperValue)
      else delete o[lower]
      if (hasLower) setProp(o, upper, lowerValue)
      else delete o[upper]
    }
    return o
  })
  mutator("fill", 1, (o, a) => {
    const len = lengthOf(o)
    const v = arg(a, 0)
    const start = relativeIndex(arg(a, 1), len, 0)
    const end = relativeIndex(arg(a, 2), len, len)
    if (end <= start) return o
    const count = end - start
    visit(count)
    if (Array.isArray(o) && len <= MAX_ARRAY_LENGTH) {
      reserveElements(end)
      for (let i = start; i < end; i++) o[i] = v
      return o
    }
    reserveElements(count)
    for (let i = start; i < end; i++) setProp(o, i, v)
    return o
  })
  mutator("copyWithin", 2, (o, a) => {
    const len = lengthOf(o)
    const target = relativeIndex(arg(a, 0), len, 0)
    const from = relativeIndex(arg(a, 1), len, 0)
    const end = relativeIndex(arg(a, 2), len, len)
    const count = Math.min(end - from, len - target)
    if (count <= 0) return o
    // Every element copied is read and written.
    visit(2 * count)
    if (movable(o)) {
      moveElements(o, target, from, count)
      return o
    }
    if (Array.isArray(o)) {
      Array.prototype.copyWithin.call(o, target, from, end)
      return o
    }
    const backwards = from < target && target < from + count
    for (let i = 0; i < count; i++) {
      const k = backwards ? count - 1 - i : i
      if (from + k in o) setProp(o, target + k, o[from + k])
      else delete o[target + k]
    }
    return o
  })
  method("indexOf", 1, (o, a) => {
    const len = lengthOf(o)
    if (len === 0) return -1
    const x = arg(a, 0)
    let i = a.length > 1 ? toInteger(a[1]) : 0
    if (i >= len) return -1
    if (i < 0) i = Math.max(len + i, 0)
    if (isSparse(o)) {
      for (const k of presentIndices(o, i, len)) if (o[k] === x) return k
      return -1
    }
    visit(len - i)
    for (; i < len; i++) if (o[i] === x && hasIndex(o, i)) return i
    return -1
  })
  method("lastIndexOf", 1, (o, a) => {
    const len = lengthOf(o)
    if (len === 0) return -1
    const x = arg(a, 0)
    let i = a.length > 1 ? toInteger(a[1]) : len - 1
    i = i >= 0 ? Math.min(i, len - 1) : len + i
    if (isSparse(o)) {
      const indices = presentIndices(o, 0, i + 1)
      for (let j = indices.length - 1; j >= 0; j--) if (o[indices[j]] === x) return indices[j]
      return -1
    }
    visit(i + 1)
    for (; i >= 0; i--) if (o[i] === x && hasIndex(o, i)) return i
    return -1
  })
  method("includes", 1, (o, a) => {
    const len = lengthOf(o)
    if (len === 0) return false
    const x = arg(a, 0)
    let i = a.length > 1 ? toInteger(a[1]) : 0
    if (i >= len) return false
    if (i < 0) i = Math.max(len + i, 0)
    if (isSparse(o)) {
      const indices = presentIndices(o, i, len)
      // A hole reads as undefined.
      if (x === undefined && indices.length < len - i) return true
      for (const k of indices) if (sameValueZero(o[k], x)) return true
      return false
    }
    visit(len - i)
    for (; i < len; i++) if (sameValueZero(o[i], x)) return true
    return false
  })

  const iterateCallback = (
    name: string,
    body: (o: Value, len: number, fn: Value, c: Call3Impl, thisArg: Value) => Value,
  ) =>
    method(name, 1, (o, a) => {
      const len = lengthOf(o)
      const fn = arg(a, 0)
      requireCallback(fn)
      visit(len)
      return body(o, len, fn, callback3(fn), arg(a, 1))
    })

  iterateCallback("forEach", (o, len, fn, c, thisArg) => {
    for (let i = 0; i < len; i++) {
      const v = o[i]
      if (v === undefined && !hasIndex(o, i)) continue
      c(thisArg, v, i, o, fn, 3)
    }
    return undefined
  })
  iterateCallback("map", (o, len, fn, c, thisArg) => {
    if (len < CHECKED_INDEX && !realm.protoElements) {
      const out = new SA(len)
      for (let i = 0; i < len; i++) {
        const v = o[i]
        if (v === undefined && !hasIndex(o, i)) continue
        out[i] = c(thisArg, v, i, o, fn, 3)
      }
      return out
    }
    const result = new ArrayResult(realm, SA)
    result.room(len)
    for (let i = 0; i < len; i++) {
      const v = o[i]
      if (v === undefined && !hasIndex(o, i)) continue
      result.put(i, c(thisArg, v, i, o, fn, 3))
    }
    return result.finish(len)
  })
  iterateCallback("filter", (o, len, fn, c, thisArg) => {
    if (len < CHECKED_INDEX && !realm.protoElements) {
      const out = new SA()
      let n = 0
      for (let i = 0; i < len; i++) {
        const v = o[i]
        if (v === undefined && !hasIndex(o, i)) continue
        if (c(thisArg, v, i, o, fn, 3)) out[n++] = v
      }
      return out
    }
    const result = new ArrayResult(realm, SA)
    for (let i = 0; i < len; i++) {
      const v = o[i]
      if (v === undefined && !hasIndex(o, i)) continue
      if (c(thisArg, v, i, o, fn, 3)) result.push(v)
    }
    return result.finish()
  })
  iterateCallback("some", (o, len, fn, c, thisArg) => {
    for (let i = 0; i < len; i++) {
      const v = o[i]
      if (v === undefined && !hasIndex(o, i)) continue
      if (c(thisArg, v, i, o, fn, 3)) return true
    }
    return false
  })
  iterateCallback("every", (o, len, fn, c, thisArg) => {
    for (let i = 0; i < len; i++) {
      const v = o[i]
      if (v === undefined && !hasIndex(o, i)) continue
      if (!c(thisArg, v, i, o, fn, 3)) return false
    }
    return true
  })
  iterateCallback("find", (o, len, fn, c, thisArg) => {
    for (let i = 0; i < len; i++) {
      const v = o[i]
      if (c(thisArg, v, i, o, fn, 3)) return v
    }
    return undefined
  })
  iterateCallback("findIndex", (o, len, fn, c, thisArg) => {
    for (let i = 0; i < len; i++) if (c(thisArg, o[i], i, o, fn, 3)) return i
    return -1
  })
  iterateCallback("findLast", (o, len, fn, c, thisArg) => {
    for (let i = len - 1; i >= 0; i--) {
      const v = o[i]
      if (c(thisArg, v, i, o, fn, 3)) return v
    }
    return undefined
  })
  iterateCallback("findLastIndex", (o, len, fn, c, thisArg) => {
    for (let i = len - 1; i >= 0; i--) if (c(thisArg, o[i], i, o, fn, 3)) return i
    return -1
  })
  const reduce = (name: string, right: boolean) =>
    method(name, 1, (o, a) => {
      const len = lengthOf(o)
      const fn = arg(a, 0)
      requireCallback(fn)
      visit(len)
      const c = reducer3(fn)
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
        acc = c(acc, v, i, o)
      }
      return acc
    })
  reduce("reduce", false)
  reduce("reduceRight", true)

  /** `FlattenIntoArray`: the present elements of `source`, arrays among them flattened `depth` more levels. */
  const flatten = (result: ArrayResult, source: Value, depth: number): void => {
    const stack: Array<{ source: Value; index: number; length: number; depth: number }> = []
    let frame = { source, index: 0, length: lengthOf(source), depth }
    visit(frame.length)
    for (;;) {
      if (frame.index >= frame.length) {
        const outer = stack.pop()
        if (outer === undefined) return
        frame = outer
        continue
      }
      const i = frame.index++
      const s = frame.source
      const v = s[i]
      if (v === undefined && !hasIndex(s, i)) continue
      if (frame.depth > 0 && Array.isArray(v)) {
        stack.push(frame)
        if (stack.length > MAX_FLATTEN_DEPTH) throwRangeError("Maximum call stack size exceeded")
        frame = { source: v, index: 0, length: v.length, depth: frame.depth - 1 }
        visit(frame.length)
      } else result.push(v)
    }
  }
  method("flat", 0, (o, a) => {
    const len = lengthOf(o)
    let depth = arg(a, 0) === undefined ? 1 : toInteger(a[0])
    if (depth < 0) depth = 0
    const result = new ArrayResult(realm, SA)
    if (len > 0) flatten(result, o, depth)
    return result.finish()
  })
  iterateCallback("flatMap", (o, len, fn, c, thisArg) => {
    const result = new ArrayResult(realm, SA)
    for (let i = 0; i < len; i++) {
      const v = o[i]
      if (v === undefined && !hasIndex(o, i)) continue
      const r = c(thisArg, v, i, o, fn, 3)
      if (Array.isArray(r)) flatten(result, r, 0)
      else result.push(r)
    }
    return result.finish()
  })

  /** Every index of `o` read into a host list (holes read as `undefined`), for the copying methods. */
  const readAll = (o: Value, len: number): Value[] => {
    if (len > MAX_ARRAY_INDEX_LENGTH) throwRangeError("Invalid array length")
    reserveElements(len)
    visit(len)
    const list = new Array(len)
    for (let i = 0; i < len; i++) list[i] = o[i]
    return list
  }
  const checkComparator = (cmp: Value): void => {
    if (cmp !== undefined && !isCallable(cmp)) {
      throwTypeError("The comparison function must be either a function or undefined")
    }
  }
  defineMethod(proto, "sort", 1, (t, a) => {
    const cmp = arg(a, 0)
    checkComparator(cmp)
    const o = thisTarget(t, "sort")
    const len = lengthOf(o)
    // The present elements are sorted; holes move to the end and stay holes.
    const present: Value[] = []
    const sparse = isSparse(o)
    const indices = sparse ? presentIndices(o, 0, len) : undefined
    if (indices !== undefined) for (const k of indices) present.push(o[k])
    else {
      visit(len)
      for (let i = 0; i < len; i++) {
        const v = o[i]
        if (v !== undefined || hasIndex(o, i)) {
          checkListGrowth(present.length)
          present.push(v)
        }
      }
    }
    const sorted = sortValues(present, cmp)
    const isArray = Array.isArray(o)
    for (let i = 0; i < sorted.length; i++) {
      if (isArray) o[i] = sorted[i]
      else setProp(o, i, sorted[i])
    }
    const stale = indices === undefined ? undefined : indices.filter((k) => k >= sorted.length)
    if (stale !== undefined) for (const k of stale) delete o[k]
    else {
      for (let i = sorted.length; i < len; i++) {
        if (!delete o[i]) throwTypeError(`Cannot delete property '${i}' of ${shortDescription(o)}`)
      }
    }
    return o
  })
  method("toSorted", 1, (o, a) => {
    const cmp = arg(a, 0)
    checkComparator(cmp)
    return realm.adoptArray(sortValues(readAll(o, lengthOf(o)), cmp))
  })
  method("toReversed", 0, (o) => realm.adoptArray(readAll(o, lengthOf(o)).reverse()))
  method("toSpliced", 2, (o, a) => {
    const len = lengthOf(o)
    const start = relativeIndex(arg(a, 0), len, 0)
    const deleteCount = deleteCountOf(a, len, start)
    const itemCount = Math.max(a.length - 2, 0)
    const newLength = len - deleteCount + itemCount
    if (newLength > MAX_SAFE_LENGTH) throwTypeError("Invalid array length")
    if (newLength > MAX_ARRAY_INDEX_LENGTH) throwRangeError("Invalid array length")
    reserveElements(newLength)
    visit(newLength)
    const list = new Array(newLength)
    let j = 0
    for (let i = 0; i < start; i++) list[j++] = o[i]
    for (let i = 0; i < itemCount; i++) list[j++] = a[i + 2]
    for (let i = start + deleteCount; i < len; i++) list[j++] = o[i]
    return realm.adoptArray(list)
  })
  method("with", 2, (o, a) => {
    const len = lengthOf(o)
    const relative = toInteger(arg(a, 0))
    const index = relative < 0 ? len + relative : relative
    if (index < 0 || index >= len) throwRangeError(`Invalid index : ${relative}`)
    if (len > MAX_ARRAY_INDEX_LENGTH) throwRangeError("Invalid array length")
    const value = arg(a, 1)
    reserveElements(len)
    visit(len)
    const list = new Array(len)
    for (let i = 0; i < len; i++) list[i] = i === index ? value : o[i]
    return realm.adoptArray(list)
  })
  method("keys", 0, (o) => createArrayIterator(realm, o, "keys"))
  method("entries", 0, (o) => createArrayIterator(realm, o, "entries"))
  const values = method("values", 0, (o) => createArrayIterator(realm, o, "values"))
  defineValue(proto, Symbol.iterator, values)
  const unscopables = Object.create(null)
  for (const name of [
    "at",
    "copyWithin",
    "entries",
    "fill",
    "find",
    "findIndex",
    "findLast",
    "findLastIndex",
    "flat",
    "flatMap",
    "includes",
    "keys",
    "toReversed",
    "toSorted",
    "toSpliced",
    "values",
  ]) {
    unscopables[name] = true
  }
  Object.defineProperty(proto, Symbol.unscopables, {
    value: unscopables,
    writable: false,
    enumerable: false,
    configurable: true,
  })
  realm.arrayValues = values
  realm.defineGlobal("Array", ctor)
}
