/**
 * `JSON`. Parsing uses the host parser and then gives every object and array the realm's prototypes; stringifying
 * walks program values itself (so `toJSON`, replacers and the program's functions behave as the language says).
 */
import { MAX_ARRAY_LENGTH, MAX_NESTING, MAX_STRING_LENGTH } from "../limits.js"
import { throwRangeError, throwSyntaxError, throwTypeError } from "../runtime/errors.js"
import { arg, call, defineMethod, isCallable, isObject, type Value, defineTag } from "../runtime/functions.js"
import { Brand, CALL, SLOT, brandOf } from "../runtime/internals.js"
import { arrayTooLong, reserveChars, reserveElements, reserveHeap, stringTooLong } from "../runtime/memory.js"
import { charge } from "../runtime/meter.js"
import { toInteger, toNumber, toStr } from "../runtime/operators.js"
import { createDataProperty, getProp, hasAccessors } from "../runtime/properties.js"
import type { Realm } from "../runtime/realm.js"
import { heapHasRoom } from "@codemode/core/sandbox"

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
  // The host parser's objects have only own enumerable keys and the host's `Object.prototype` none: `for...in`
  // lists exactly the own keys, without the key list `Object.keys` would allocate. It runs before the re-parenting
  // (the realm's prototype may have enumerable keys a program added).
  for (const k in v) {
    const x = v[k]
    if (typeof x === "object" && x !== null) adopt(realm, x, depth + 1)
  }
  Object.setPrototypeOf(v, realm.ObjectProto)
}

/** Texts shorter than this parse into little enough to need no check first. */
const SCANNED_TEXT = 1 << 18

/** The most heap one character of JSON text can make (`[{},{},...]`: an object, a slot and a value per 3). */
const WORST_BYTES_PER_CHAR = 26

/** Bytes an object or array that `JSON.parse` makes takes, and bytes any other value (with its slot) takes. */
const CONTAINER_BYTES = 56
const VALUE_BYTES = 16

/**
 * Look at a long JSON text before the host parses it: refuse arrays past the element bound and nesting past
 * `MAX_NESTING`, and check that the heap can take what parsing will build (estimated from the containers and values
 * the text holds). Malformed text is left to the parser's own error.
 */
const scanJson = (text: string): void => {
  const commas: number[] = []
  let containers = 0
  let values = 1
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 34) {
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i)
        if (d === 92) i++
        else if (d === 34) break
      }
    } else if (c === 44) {
      values++
      const top = commas.length - 1
      if (top >= 0 && commas[top] >= 0 && ++commas[top] >= MAX_ARRAY_LENGTH) arrayTooLong(commas[top] + 1)
    } else if (c === 91 || c === 123) {
      containers++
      if (commas.length >= MAX_NESTING) throwRangeError(`JSON is nested deeper than ${MAX_NESTING} levels`)
      commas.push(c === 91 ? 0 : -1)
    } else if (c === 93 || c === 125) commas.pop()
  }
  reserveHeap(containers * CONTAINER_BYTES + values * VALUE_BYTES + text.length)
}

/** `JSON.parse(text)` without a reviver. */
export const parseJson = (realm: Realm, text: string): Value => {
  // One unit a character read (what it builds is at most a value per two characters).
  charge(1 + text.length)
  if (text.length >= SCANNED_TEXT) {
    // Only a text this long can hold an array past the bound; a shorter one is scanned only when its worst case
    // (every character building objects) does not fit the heap.
    if (text.length > 2 * MAX_ARRAY_LENGTH || !heapHasRoom(text.length * WORST_BYTES_PER_CHAR)) scanJson(text)
  }
  let v: Value
  try {
    v = JSON.parse(text)
  } catch (e) {
    return throwSyntaxError((e as Error).message)
  }
  adopt(realm, v, 0)
  return v
}

const SKIP = Symbol("skip")

const hasOwn = Object.prototype.hasOwnProperty

/** Characters `JSON.stringify` writes escaped: controls, quote, backslash and lone surrogates. */
const escaped = /[\u0000-\u001f"\\\ud800-\udfff]/

/** The length of a string's JSON text with its escapes counted (the slow path of `jsonStringLength`). */
const escapedLength = (s: string): number => {
  let n = 2
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 0x20) n += c === 8 || c === 9 || c === 10 || c === 12 || c === 13 ? 2 : 6
    else if (c === 34 || c === 92) n += 2
    else if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1)
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 2
        i++
      } else n += 6
    } else if (c >= 0xdc00 && c <= 0xdfff) n += 6
    else n++
  }
  return n
}

/** The length of a string's JSON text, quotes and escapes included. */
const jsonStringLength = (s: string): number => {
  if (s.length > 64) return escaped.test(s) ? escapedLength(s) : s.length + 2
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 0x20 || c === 34 || c === 92 || (c >= 0xd800 && c <= 0xdfff)) return escapedLength(s)
  }
  return s.length + 2
}

/** The length of a number's JSON text. */
const jsonNumberLength = (x: number): number => {
  if (x === (x | 0)) {
    const sign = x < 0 ? 1 : 0
    const a = Math.abs(x)
    return (
      sign +
      (a < 10
        ? 1
        : a < 100
          ? 2
          : a < 1000
            ? 3
            : a < 10000
              ? 4
              : a < 100000
                ? 5
                : a < 1000000
                  ? 6
                  : a < 10000000
                    ? 7
                    : a < 100000000
                      ? 8
                      : a < 1000000000
                        ? 9
                        : 10)
    )
  }
  return Number.isFinite(x) ? String(x).length : 4
}

/** The length of a primitive's JSON text (`undefined` and symbols count nothing: they are skipped). */
const primitiveLength = (x: Value): number =>
  typeof x === "string"
    ? jsonStringLength(x)
    : typeof x === "number"
      ? jsonNumberLength(x)
      : typeof x === "boolean"
        ? x
          ? 4
          : 5
        : x === null
          ? 4
          : 0

/**
 * The length of the text the host serializer would write for `value` (never less than the real one), or -1 unless
 * it would write it exactly as the language does: only plain objects and arrays without `toJSON`, functions, boxed
 * primitives or own accessors, no cycles, within the nesting and string bounds. Reading the values here runs nothing
 * (there are no getters to run). A first pass counts structure and characters cheaply and bounds escapes and
 * numbers by their worst case; only a text that might pass the bound is measured exactly.
 */
const plainDataSize = (realm: Realm, value: Value, gap: number): number => {
  if (typeof value !== "object" || value === null) return typeof value === "bigint" ? -1 : primitiveLength(value)
  const stack: Value[] = []
  let size = 0
  let chars = 0
  let numbers = 0
  let exact = false
  let inherited = false
  for (const _ in realm.ObjectProto) {
    inherited = true
    break
  }
  const check = (): void => {
    if (size > MAX_STRING_LENGTH) stringTooLong(size)
  }
  const visit = (v: Value): boolean => {
    if (stack.length >= MAX_NESTING || stack.includes(v)) return false
    let entries: number
    // An array is written as one whatever it inherits from (it has no internal keys); an object only when plain.
    const array = Array.isArray(v)
    const proto = Object.getPrototypeOf(v)
    if (!array && proto !== realm.ObjectProto && proto !== null) return false
    if (v.toJSON !== undefined || hasAccessors(v) || (!array && (v[CALL] !== undefined || brandOf(v) !== undefined)))
      return false
    stack.push(v)
    if (array) {
      const n = v.length
      entries = n
      size += n + 2
      check()
      charge(n)
      for (let i = 0; i < n; i++) {
        const x = v[i]
        if (typeof x === "object" && x !== null) {
          if (!visit(x)) return false
        } else if (typeof x === "string") {
          if (exact) size += jsonStringLength(x)
          else {
            size += x.length + 2
            chars += x.length
          }
        } else if (typeof x === "number") {
          if (exact) size += jsonNumberLength(x)
          else {
            size += 1
            numbers++
          }
        } else if (typeof x === "bigint") return false
        else size += 5
      }
    } else {
      entries = 0
      size += 2
      // `for...in` lists the own enumerable keys without allocating a key list; it also lists what the realm's
      // `Object.prototype` has enumerable, which only a program that added such keys makes it test for.
      for (const k in v) {
        if (inherited && !hasOwn.call(v, k)) continue
        entries++
        const x = v[k]
        if (exact) size += jsonStringLength(k) + 2
        else {
          size += k.length + 4
          chars += k.length
        }
        if (typeof x === "object" && x !== null) {
          if (!visit(x)) return false
        } else if (typeof x === "string") {
          if (exact) size += jsonStringLength(x)
          else {
            size += x.length + 2
            chars += x.length
          }
        } else if (typeof x === "number") {
          if (exact) size += jsonNumberLength(x)
          else {
            size += 1
            numbers++
          }
        } else if (typeof x === "bigint") return false
        else size += 5
      }
      charge(entries)
    }
    if (gap > 0) size += (entries + 1) * (gap * stack.length + 1)
    check()
    stack.pop()
    return true
  }
  if (!visit(value)) return -1
  // Every character escaped (6 for 1) and every number 24 characters long is the worst case.
  const bound = size + 5 * chars + 24 * numbers
  if (bound <= MAX_STRING_LENGTH) return bound
  exact = true
  size = 0
  stack.length = 0
  visit(value)
  return size
}

/** `JSON.stringify`'s `space` argument as the indentation text. */
const gapOf = (space: Value): string => {
  let s = space
  if (isObject(s)) {
    if (brandOf(s) === Brand.Number) s = toNumber(s)
    else if (brandOf(s) === Brand.String) s = toStr(s)
  }
  if (typeof s === "number") return " ".repeat(Math.min(10, Math.max(0, toInteger(s))))
  if (typeof s === "string") return s.slice(0, 10)
  return ""
}

/** The program's view of the value of `key` in `holder`: `toJSON` and the replacer applied, boxes unwrapped. */
const viewOf = (holder: Value, key: string, v: Value, replacerFn: Value): Value => {
  if ((typeof v === "object" && v !== null) || typeof v === "bigint") {
    const toJSON = getProp(v, "toJSON")
    if (isCallable(toJSON)) v = call(toJSON, v, [key])
  }
  if (replacerFn !== undefined) v = call(replacerFn, holder, [key, v])
  if (typeof v === "object" && v !== null) {
    switch (brandOf(v)) {
      case Brand.Number:
        return toNumber(v)
      case Brand.String:
        return toStr(v)
      case Brand.Boolean:
        return v[SLOT]
    }
    if (v[CALL] !== undefined) return SKIP
    return v
  }
  if (v === undefined || typeof v === "symbol") return SKIP
  if (typeof v === "bigint") return throwTypeError("Do not know how to serialize a BigInt")
  return v
}

/**
 * `JSON.stringify(value, replacer, space)` over program values; `undefined` when nothing is serializable.
 *
 * Plain data goes straight to the host serializer once its text length is known to be within the bound. Otherwise
 * the program's view of each value is taken first (its `toJSON` methods and replacer run, functions are skipped,
 * boxed primitives unwrap, cycles and depth are checked) into a host copy of plain data, which the host's serializer
 * then writes; the copy's text length is counted as it is made, so a value whose text would be too long never gets
 * written. A replacer *array* (which also orders keys) takes the program-side writer.
 */
export const stringifyJson = (realm: Realm, value: Value, replacer: Value, space: Value): string | undefined => {
  if (Array.isArray(replacer)) return stringifyWithKeyList(realm, value, replacer, space)
  const replacerFn = isCallable(replacer) ? replacer : undefined
  const gap = gapOf(space)
  if (replacerFn === undefined) {
    const plainSize = plainDataSize(realm, value, gap.length)
    if (plainSize >= 0) {
      reserveChars(plainSize)
      // The host writes (at most) that many characters.
      charge(plainSize)
      return JSON.stringify(value, null, gap)
    }
  }
  const stack: Value[] = []
  let size = 0
  const grow = (n: number): void => {
    size += n + (gap.length === 0 ? 0 : 1 + gap.length * stack.length)
    if (size > MAX_STRING_LENGTH) stringTooLong(size)
  }
  const copy = (holder: Value, key: string, v0: Value): unknown => {
    const v = viewOf(holder, key, v0, replacerFn)
    if (v === SKIP) return SKIP
    if (typeof v !== "object" || v === null) {
      grow(primitiveLength(v))
      return v
    }
    if (stack.includes(v)) return throwTypeError("Converting circular structure to JSON")
    if (stack.length >= MAX_NESTING)
      return throwRangeError(`JSON.stringify: value nested deeper than ${MAX_NESTING} levels`)
    stack.push(v)
    grow(2)
    let out: unknown
    if (Array.isArray(v)) {
      const n = v.length
      grow(n)
      reserveElements(n)
      charge(n)
      const list = new Array(n)
      for (let i = 0; i < n; i++) {
        const c = copy(v, String(i), v[i])
        if (c === SKIP) {
          grow(4)
          list[i] = null
        } else list[i] = c
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
        grow(jsonStringLength(k) + 2)
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
  reserveChars(size)
  charge(size)
  return JSON.stringify(data, null, gap)
}

/** `JSON.stringify` with a key list: written here (the list also orders keys), in chunks within the bound. */
const stringifyWithKeyList = (realm: Realm, value: Value, replacer: Value[], space: Value): string | undefined => {
  const keyList: string[] = []
  const listed = new Set<string>()
  const length = replacer.length
  charge(length)
  for (let i = 0; i < length; i++) {
    const item = replacer[i]
    let k: string | undefined
    if (typeof item === "string") k = item
    else if (typeof item === "number") k = String(item)
    else if (isObject(item) && (brandOf(item) === Brand.String || brandOf(item) === Brand.Number)) k = toStr(item)
    if (k !== undefined && !listed.has(k)) {
      listed.add(k)
      keyList.push(k)
    }
  }
  const gap = gapOf(space)
  const colon = gap === "" ? ":" : ": "
  const stack: Value[] = []
  const chunks: string[] = []
  let parts: string[] = []
  let total = 0
  const put = (s: string): void => {
    total += s.length
    if (total > MAX_STRING_LENGTH) stringTooLong(total)
    parts.push(s)
    if (parts.length >= 4096) {
      chunks.push(parts.join(""))
      parts = []
    }
  }
  const putString = (s: string): void => {
    if (total + jsonStringLength(s) > MAX_STRING_LENGTH) stringTooLong(total + jsonStringLength(s))
    charge(s.length)
    put(JSON.stringify(s))
  }
  /** Write a value already seen through `viewOf`. */
  const write = (v: Value, indent: string): void => {
    if (typeof v !== "object" || v === null) {
      if (typeof v === "string") putString(v)
      else put(typeof v === "number" ? (Number.isFinite(v) ? String(v) : "null") : String(v))
      return
    }
    if (stack.includes(v)) throwTypeError("Converting circular structure to JSON")
    if (stack.length >= MAX_NESTING) throwRangeError(`JSON.stringify: value nested deeper than ${MAX_NESTING} levels`)
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
          const x = viewOf(v, String(i), v[i], undefined)
          if (x === SKIP) put("null")
          else write(x, inner)
        }
        put(gap === "" ? "]" : `\n${indent}]`)
      }
    } else {
      charge(keyList.length)
      let first = true
      for (let i = 0; i < keyList.length; i++) {
        const k = keyList[i]
        const x = viewOf(v, k, v[k], undefined)
        if (x === SKIP) continue
        put(first ? (gap === "" ? "{" : `{\n${inner}`) : separator)
        first = false
        putString(k)
        put(colon)
        write(x, inner)
      }
      put(first ? "{}" : gap === "" ? "}" : `\n${indent}}`)
    }
    stack.pop()
  }
  const wrapper = realm.newObject()
  createDataProperty(wrapper, "", value)
  const top = viewOf(wrapper, "", value, undefined)
  if (top === SKIP) return undefined
  write(top, "")
  reserveChars(total)
  chunks.push(parts.join(""))
  return chunks.length === 1 ? chunks[0] : chunks.join("")
}

/** A writable, enumerable, configurable data property (`CreateDataProperty`). */
const dataDescriptor = (value: Value): PropertyDescriptor => ({
  value,
  writable: true,
  enumerable: true,
  configurable: true,
})

/** Install `JSON`. */
export const installJson = (realm: Realm): void => {
  const json = realm.newObject()
  defineMethod(json, "parse", 2, (_t, a) => {
    const v = parseJson(realm, toStr(arg(a, 0)))
    const reviver = arg(a, 1)
    if (!isCallable(reviver)) return v
    // The reviver can put any object in the walk's way, whose properties the walk then redefines or deletes.
    realm.redefined = true
    const walk = (holder: Value, key: string): Value => {
      const val = holder[key]
      if (typeof val === "object" && val !== null) {
        if (Array.isArray(val)) {
          const length = val.length
          charge(length)
          for (let i = 0; i < length; i++) {
            const r = walk(val, String(i))
            if (r === undefined) delete val[i]
            else Reflect.defineProperty(val, i, dataDescriptor(r))
          }
        } else {
          const keys = Object.keys(val)
          charge(keys.length)
          for (const k of keys) {
            const r = walk(val, k)
            if (r === undefined) delete val[k]
            else Reflect.defineProperty(val, k, dataDescriptor(r))
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
  defineTag(json, "JSON")
  realm.defineGlobal("JSON", json)
}
