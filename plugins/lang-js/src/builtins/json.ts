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
import { createDataProperty } from "../runtime/properties.js"
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

/** `JSON.stringify(value, replacer, space)` over program values; `undefined` when nothing is serializable. */
export const stringifyJson = (realm: Realm, value: Value, replacer: Value, space: Value): string | undefined => {
  let replacerFn: Value
  let allowList: string[] | undefined
  if (isCallable(replacer)) replacerFn = replacer
  else if (Array.isArray(replacer)) {
    allowList = []
    for (let i = 0; i < replacer.length; i++) {
      const item = replacer[i]
      if (typeof item === "string" || typeof item === "number") allowList.push(String(item))
      else if (isObject(item) && (item[BRAND] === Brand.String || item[BRAND] === Brand.Number)) allowList.push(toStr(item))
    }
  }
  let gap = ""
  if (isObject(space) && (space[BRAND] === Brand.Number || space[BRAND] === Brand.String)) space = space[SLOT]
  if (typeof space === "number") gap = " ".repeat(Math.min(10, Math.max(0, toInteger(space))))
  else if (typeof space === "string") gap = space.slice(0, 10)
  const stack: Value[] = []
  let length = 0
  const grow = (s: string): string => {
    length += s.length
    if (length > MAX_STRING_LENGTH) stringTooLong(length)
    return s
  }

  const serialize = (holder: Value, key: string, v: Value, indent: string): string | undefined => {
    if (typeof v === "object" && v !== null) {
      const toJSON = v.toJSON
      if (isCallable(toJSON)) v = call(toJSON, v, [key])
    }
    if (replacerFn !== undefined) v = call(replacerFn, holder, [key, v])
    switch (typeof v) {
      case "string":
        return grow(quote(v))
      case "number":
        return grow(Number.isFinite(v) ? String(v) : "null")
      case "boolean":
        return grow(String(v))
      case "undefined":
      case "symbol":
        return undefined
      case "bigint":
        return throwTypeError("Do not know how to serialize a BigInt")
    }
    if (v === null) return grow("null")
    if (v[CALL] !== undefined) return undefined
    const brand = v[BRAND]
    if (brand === Brand.Number) return grow(String(toNumber(v)))
    if (brand === Brand.String) return grow(quote(toStr(v)))
    if (brand === Brand.Boolean) return grow(String(v[SLOT]))
    if (stack.includes(v)) return throwTypeError("Converting circular structure to JSON")
    if (stack.length >= MAX_NESTING) return throwRangeError(`JSON.stringify: value nested deeper than ${MAX_NESTING} levels`)
    stack.push(v)
    try {
      const inner = indent + gap
      const parts: string[] = []
      if (Array.isArray(v)) {
        const n = v.length
        charge(n)
        for (let i = 0; i < n; i++) parts.push(serialize(v, String(i), v[i], inner) ?? "null")
        if (parts.length === 0) return "[]"
        return gap === "" ? `[${parts.join(",")}]` : `[\n${inner}${parts.join(`,\n${inner}`)}\n${indent}]`
      }
      const keys = allowList ?? Object.keys(v)
      charge(keys.length)
      for (const k of keys) {
        const s = serialize(v, k, v[k], inner)
        if (s !== undefined) parts.push(`${grow(quote(k))}${gap === "" ? ":" : ": "}${s}`)
      }
      if (parts.length === 0) return "{}"
      return gap === "" ? `{${parts.join(",")}}` : `{\n${inner}${parts.join(`,\n${inner}`)}\n${indent}}`
    } finally {
      stack.pop()
    }
  }
  const wrapper = realm.newObject()
  createDataProperty(wrapper, "", value)
  return serialize(wrapper, "", value, "")
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
