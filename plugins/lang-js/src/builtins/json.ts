/**
 * `JSON`. Parsing uses the host parser and then gives every object and array the realm's prototypes; stringifying
 * walks program values itself (so `toJSON`, replacers and the program's functions behave as the language says).
 */
import { MAX_NESTING, MAX_STRING_LENGTH } from "../limits.js"
import { throwRangeError, throwSyntaxError, throwTypeError } from "../runtime/errors.js"
import { arg, call, defineMethod, defineValue, isCallable, isObject, type Value } from "../runtime/functions.js"
import { BRAND, Brand, CALL, SLOT } from "../runtime/internals.js"
import { charge } from "../runtime/meter.js"
import { stringTooLong, toInteger, toNumber, toStr } from "../runtime/operators.js"
import { createDataProperty, hasAccessors } from "../runtime/properties.js"
import type { Realm } from "../runtime/realm.js"

/** Give host-parsed JSON the realm's prototypes, in place. */
const adopt = (realm: Realm, v: Value, depth: number): void => {
  if (typeof v !== "object" || v === null) return
  if (depth > MAX_NESTING) throwRangeError(`JSON is nested deeper than ${MAX_NESTING} levels`)
  if (Array.isArray(v)) {
    Object.setPrototypeOf(v, realm.ArrayProto)
    for (let i = 0; i < v.length; i++) {
      const x = v[i]
      if (typeof x === "object" && x !== null) adopt(realm, x, depth + 1)
    }
    return
  }
  Object.setPrototypeOf(v, realm.ObjectProto)
  const keys = Object.keys(v)
  for (let i = 0; i < keys.length; i++) {
    const x = v[keys[i]]
    if (typeof x === "object" && x !== null) adopt(realm, x, depth + 1)
  }
}

/** `JSON.parse(text)` without a reviver. */
export const parseJson = (realm: Realm, text: string): Value => {
  charge(1 + (text.length >> 4))
  let v: Value
  try {
    v = JSON.parse(text)
  } catch (e) {
    return throwSyntaxError((e as Error).message)
  }
  adopt(realm, v, 0)
  return v
}

const quote = (s: string): string => JSON.stringify(s)

const SKIP = Symbol("skip")

/**
 * True when the host serializer would write `value` exactly as the language does: only plain objects and arrays
 * without `toJSON`, functions, boxed primitives or own accessors, no cycles, within the nesting and string bounds.
 * Reading the values here runs nothing (there are no getters to run).
 */
const isPlainData = (realm: Realm, value: Value, gap: number): boolean => {
  if (typeof value !== "object" || value === null) return typeof value !== "bigint"
  const stack: Value[] = []
  let size = 0
  const visit = (v: Value): boolean => {
    if (v[CALL] !== undefined || v[BRAND] !== undefined || v.toJSON !== undefined || hasAccessors(v)) return false
    if (stack.length >= MAX_NESTING || stack.includes(v)) return false
    stack.push(v)
    if (Array.isArray(v)) {
      const n = v.length
      size += n + 2
      for (let i = 0; i < n; i++) {
        const x = v[i]
        if (typeof x === "object" && x !== null) {
          if (!visit(x)) return false
        } else if (typeof x === "string") size += x.length + 2
        else if (typeof x === "bigint") return false
        else size += 6
      }
    } else {
      const proto = Object.getPrototypeOf(v)
      if (proto !== realm.ObjectProto && proto !== null) return false
      const keys = Object.keys(v)
      size += 2
      for (let i = 0; i < keys.length; i++) {
        const x = v[keys[i]]
        size += keys[i].length + 4
        if (typeof x === "object" && x !== null) {
          if (!visit(x)) return false
        } else if (typeof x === "string") size += x.length + 2
        else if (typeof x === "bigint") return false
        else size += 6
      }
    }
    if (gap > 0) size += (v.length ?? 0) * (gap * stack.length + 1)
    if (size > MAX_STRING_LENGTH) stringTooLong(size)
    charge(1)
    stack.pop()
    return true
  }
  return visit(value)
}

/**
 * `JSON.stringify(value, replacer, space)` over program values; `undefined` when nothing is serializable.
 *
 * The program's view of each value is taken first (its `toJSON` methods and replacer run, functions are skipped,
 * boxed primitives unwrap, cycles and depth are checked) into a host copy of plain data, which the host's serializer
 * then writes at native speed. The copy is bounded by the string limit as it is made, so a value whose text would be
 * too long never gets written. A replacer *array* (which also orders keys) takes the program-side serializer.
 */
export const stringifyJson = (realm: Realm, value: Value, replacer: Value, space: Value): string | undefined => {
  if (Array.isArray(replacer)) return stringifyWithKeyList(realm, value, replacer, space)
  const replacerFn = isCallable(replacer) ? replacer : undefined
  let gap: string | number | undefined
  if (isObject(space) && (space[BRAND] === Brand.Number || space[BRAND] === Brand.String)) space = space[SLOT]
  if (typeof space === "number") gap = Math.min(10, Math.max(0, toInteger(space)))
  else if (typeof space === "string") gap = space.slice(0, 10)
  const gapLength = typeof gap === "number" ? gap : typeof gap === "string" ? gap.length : 0
  if (replacerFn === undefined && isPlainData(realm, value, gapLength)) return JSON.stringify(value, null, gap)
  const indentPerLevel = typeof gap === "number" ? gap : typeof gap === "string" ? gap.length : 0
  const stack: Value[] = []
  let size = 0
  const grow = (n: number): void => {
    size += n + (indentPerLevel === 0 ? 0 : 1 + indentPerLevel * stack.length)
    if (size > MAX_STRING_LENGTH) stringTooLong(size)
  }
  const copy = (holder: Value, key: string, v: Value): unknown => {
    if (typeof v === "object" && v !== null) {
      const toJSON = v.toJSON
      if (isCallable(toJSON)) v = call(toJSON, v, [key])
    }
    if (replacerFn !== undefined) v = call(replacerFn, holder, [key, v])
    switch (typeof v) {
      case "string":
        grow(v.length + 2)
        return v
      case "number":
        grow(8)
        return v
      case "boolean":
        grow(5)
        return v
      case "undefined":
      case "symbol":
        return SKIP
      case "bigint":
        return throwTypeError("Do not know how to serialize a BigInt")
    }
    if (v === null) {
      grow(4)
      return null
    }
    if (v[CALL] !== undefined) return SKIP
    switch (v[BRAND]) {
      case Brand.Number:
        grow(8)
        return toNumber(v)
      case Brand.String: {
        const s = toStr(v)
        grow(s.length + 2)
        return s
      }
      case Brand.Boolean:
        grow(5)
        return v[SLOT]
    }
    if (stack.includes(v)) return throwTypeError("Converting circular structure to JSON")
    if (stack.length >= MAX_NESTING)
      return throwRangeError(`JSON.stringify: value nested deeper than ${MAX_NESTING} levels`)
    stack.push(v)
    grow(2)
    let out: unknown
    if (Array.isArray(v)) {
      const n = v.length
      charge(n)
      const list = new Array(n)
      for (let i = 0; i < n; i++) {
        const c = copy(v, String(i), v[i])
        list[i] = c === SKIP ? null : c
        grow(1)
      }
      out = list
    } else {
      const keys = Object.keys(v)
      charge(keys.length)
      const o: Record<string, unknown> = {}
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i]
        const c = copy(v, k, v[k])
        if (c === SKIP) continue
        if (k === "__proto__")
          Object.defineProperty(o, k, { value: c, writable: true, enumerable: true, configurable: true })
        else o[k] = c
        grow(k.length + 4)
      }
      out = o
    }
    stack.pop()
    return out
  }
  const root = realm.newObject()
  createDataProperty(root, "", value)
  const data = copy(root, "", value)
  if (data === SKIP) return undefined
  return JSON.stringify(data, null, gap)
}

/** `JSON.stringify` with a key list: written by the program-side serializer (the list also orders keys). */
const stringifyWithKeyList = (realm: Realm, value: Value, replacer: Value, space: Value): string | undefined => {
  const replacerFn: Value = undefined
  let allowList: string[] | undefined
  if (Array.isArray(replacer)) {
    allowList = []
    for (let i = 0; i < replacer.length; i++) {
      const item = replacer[i]
      if (typeof item === "string" || typeof item === "number") allowList.push(String(item))
      else if (isObject(item) && (item[BRAND] === Brand.String || item[BRAND] === Brand.Number))
        allowList.push(toStr(item))
    }
  }
  let gap = ""
  if (isObject(space) && (space[BRAND] === Brand.Number || space[BRAND] === Brand.String)) space = space[SLOT]
  if (typeof space === "number") gap = " ".repeat(Math.min(10, Math.max(0, toInteger(space))))
  else if (typeof space === "string") gap = space.slice(0, 10)
  const colon = gap === "" ? ":" : ": "
  const stack: Value[] = []
  const out: string[] = []
  let length = 0
  const put = (s: string): void => {
    length += s.length
    if (length > MAX_STRING_LENGTH) stringTooLong(length)
    out.push(s)
  }

  /** Write `v` (the value of `key` in `holder`); false when it is not serializable (nothing written). */
  const serialize = (holder: Value, key: string, v: Value, indent: string): boolean => {
    if (typeof v === "object" && v !== null) {
      const toJSON = v.toJSON
      if (isCallable(toJSON)) v = call(toJSON, v, [key])
    }
    if (replacerFn !== undefined) v = call(replacerFn, holder, [key, v])
    switch (typeof v) {
      case "string":
        put(quote(v))
        return true
      case "number":
        put(Number.isFinite(v) ? String(v) : "null")
        return true
      case "boolean":
        put(v ? "true" : "false")
        return true
      case "undefined":
      case "symbol":
        return false
      case "bigint":
        return throwTypeError("Do not know how to serialize a BigInt")
    }
    if (v === null) {
      put("null")
      return true
    }
    if (v[CALL] !== undefined) return false
    const brand = v[BRAND]
    if (brand === Brand.Number) {
      put(String(toNumber(v)))
      return true
    }
    if (brand === Brand.String) {
      put(quote(toStr(v)))
      return true
    }
    if (brand === Brand.Boolean) {
      put(String(v[SLOT]))
      return true
    }
    if (stack.includes(v)) return throwTypeError("Converting circular structure to JSON")
    if (stack.length >= MAX_NESTING)
      return throwRangeError(`JSON.stringify: value nested deeper than ${MAX_NESTING} levels`)
    stack.push(v)
    const inner = indent + gap
    const separator = gap === "" ? "," : `,\n${inner}`
    if (Array.isArray(v)) {
      const n = v.length
      charge(n)
      if (n === 0) put("[]")
      else {
        put(gap === "" ? "[" : `[\n${inner}`)
        for (let i = 0; i < n; i++) {
          if (i > 0) put(separator)
          if (!serialize(v, String(i), v[i], inner)) put("null")
        }
        put(gap === "" ? "]" : `\n${indent}]`)
      }
    } else {
      const keys = allowList ?? Object.keys(v)
      charge(keys.length)
      put("{")
      const open = out.length
      let first = true
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i]
        const mark = out.length
        const markLength = length
        if (!first) put(separator)
        else if (gap !== "") put(`\n${inner}`)
        put(quote(k))
        put(colon)
        if (serialize(v, k, v[k], inner)) first = false
        else {
          out.length = mark
          length = markLength
        }
      }
      if (out.length === open) put("}")
      else put(gap === "" ? "}" : `\n${indent}}`)
    }
    stack.pop()
    return true
  }
  const wrapper = realm.newObject()
  createDataProperty(wrapper, "", value)
  if (!serialize(wrapper, "", value, "")) return undefined
  return out.length === 1 ? out[0] : out.join("")
}

/** Install `JSON`. */
export const installJson = (realm: Realm): void => {
  const json = realm.newObject()
  defineMethod(json, "parse", 2, (_t, a) => {
    const v = parseJson(realm, toStr(arg(a, 0)))
    const reviver = arg(a, 1)
    if (!isCallable(reviver)) return v
    const walk = (holder: Value, key: string): Value => {
      const val = holder[key]
      if (typeof val === "object" && val !== null) {
        if (Array.isArray(val)) {
          for (let i = 0; i < val.length; i++) {
            const r = walk(val, String(i))
            if (r === undefined) delete val[i]
            else val[i] = r
          }
        } else {
          for (const k of Object.keys(val)) {
            const r = walk(val, k)
            if (r === undefined) delete val[k]
            else createDataProperty(val, k, r)
          }
        }
      }
      return call(reviver, holder, [key, val])
    }
    const root = realm.newObject()
    createDataProperty(root, "", v)
    return walk(root, "")
  })
  defineMethod(json, "stringify", 3, (_t, a) => stringifyJson(realm, arg(a, 0), arg(a, 1), arg(a, 2)))
  defineValue(json, Symbol.toStringTag, "JSON", false)
  realm.defineGlobal("JSON", json)
}
