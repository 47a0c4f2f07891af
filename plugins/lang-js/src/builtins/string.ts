/**
 * `String` and `String.prototype`. Methods coerce their arguments with the program's own conversions first and then
 * run the host's string methods on primitives, which cannot reach anything else.
 */
import { MAX_ARRAY_LENGTH, MAX_STRING_LENGTH } from "../limits.js"
import { throwRangeError, throwTypeError } from "../runtime/errors.js"
import {
  arg,
  call,
  defineMethod,
  defineValue,
  isCallable,
  isObject,
  linkConstructor,
  makeNative,
  type Value,
} from "../runtime/functions.js"
import { BRAND, Brand, SLOT, brandOf } from "../runtime/internals.js"
import { charge, ITEM_UNITS } from "../runtime/meter.js"
import { ENTRY_BYTES, reserveChars, reserveElements, reserveHeap, stringTooLong } from "../runtime/memory.js"
import { concat, toInteger, toNumber, toStr } from "../runtime/operators.js"
import type { Realm } from "../runtime/realm.js"
import { getProp } from "../runtime/properties.js"
import { rt } from "../runtime/state.js"
import { argumentsOf } from "../runtime/functions.js"
import { giveEntry3, listEntry } from "./entry3.js"
import { createHostIterator } from "./iteration.js"
import { localeOf } from "./locale.js"
import { arrayOfList } from "./object.js"
import { isRegExpLike } from "./regexp.js"
import { hostReplace, PIECE_BYTES } from "./regexpSymbols.js"

/** The string a `String.prototype` method works on. */
const thisString = (t: Value, name: string): string => {
  if (typeof t === "string") return t
  if (t === undefined || t === null) return throwTypeError(`String.prototype.${name} called on null or undefined`)
  return toStr(t)
}

/** Charge for touching `n` characters: one unit each. */
const chargeChars = (n: number): void => charge(1 + n)

/** `ToLength(v)`. */
const toLength = (v: Value): number => {
  const n = toInteger(v)
  return n <= 0 ? 0 : Math.min(n, Number.MAX_SAFE_INTEGER)
}

/** Input cut into pieces of about this many code units when a transform's result might pass the string bound. */
const TRANSFORM_CHUNK = 1 << 16

const isHighSurrogate = (c: number): boolean => c >= 0xd800 && c <= 0xdbff
const isLowSurrogate = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff

/** Characters a normalization can combine with what precedes them (marks, conjoining and compatibility jamo...). */
const combinesBackwards = /^[\p{M}\u1160-\u11ff\u3130-\u318f\ud7b0-\ud7ff\uff9e-\uffdf\u{16d40}-\u{16d7f}]/u

/** A case mapping sees one code point at a time: a string can be cut anywhere but inside a surrogate pair. */
const caseCut = (s: string, i: number): boolean =>
  !(isLowSurrogate(s.charCodeAt(i)) && isHighSurrogate(s.charCodeAt(i - 1)))

/** A normalization cannot look back across a starter that never combines with what precedes it. */
const normalizationCut = (s: string, i: number): boolean => {
  const c = s.charCodeAt(i)
  if (c < 0x80) return true
  if (isLowSurrogate(c)) return false
  return !combinesBackwards.test(String.fromCodePoint(s.codePointAt(i)!))
}

/**
 * Apply a host transform that can lengthen its input up to `factor` times, never building a result past the string
 * bound: when the worst case could pass it, the input is transformed in pieces cut where the transform cannot see
 * across (`canCut`) and their lengths are added up before anything is joined.
 */
const boundedTransform = (
  s: string,
  factor: number,
  transform: (piece: string) => string,
  canCut: (s: string, i: number) => boolean,
): string => {
  chargeChars(s.length)
  if (s.length * factor <= MAX_STRING_LENGTH) {
    reserveChars(s.length * factor)
    const result = transform(s)
    charge(result.length)
    return result
  }
  const pieces: string[] = []
  let total = 0
  for (let start = 0; start < s.length; ) {
    let end = Math.min(s.length, start + TRANSFORM_CHUNK)
    if (end < s.length) {
      const limit = Math.min(s.length, end + TRANSFORM_CHUNK)
      while (end < limit && !canCut(s, end)) end++
      // No place to cut in a whole chunk: the result cannot be bounded before it is built.
      if (end === limit && end < s.length) stringTooLong(s.length * factor)
    }
    const piece = transform(s.slice(start, end))
    total += piece.length
    if (total > MAX_STRING_LENGTH) reserveChars(total)
    pieces.push(piece)
    start = end
  }
  reserveChars(total)
  charge(total)
  return pieces.join("")
}

/** Worst-case lengthening of each normalization form, in UTF-16 code units. */
const normalizationFactor: Record<string, number> = { NFC: 3, NFD: 4, NFKC: 18, NFKD: 18 }

/** `toLowerCase` lengthens only U+0130 (to two code units): the result's length is known before it is built. */
const lowerCase = (s: string): string => {
  chargeChars(s.length)
  let length = s.length
  if (length * 2 > MAX_STRING_LENGTH) {
    for (let i = s.indexOf("\u0130"); i >= 0; i = s.indexOf("\u0130", i + 1)) length++
  } else length *= 2
  reserveChars(length)
  return s.toLowerCase()
}

/** Install `String`. */
export const installString = (realm: Realm): void => {
  const proto = realm.newObject()
  proto[BRAND] = Brand.String
  proto[SLOT] = ""
  Object.defineProperty(proto, "length", { value: 0, writable: false, enumerable: false, configurable: false })
  realm.StringProto = proto
  const convert = (a: Value[]): string => {
    if (a.length === 0) return ""
    const v = a[0]
    return typeof v === "symbol" ? v.toString() : toStr(v)
  }
  const ctor = makeNative(
    "String",
    1,
    (_t, a) => convert(a),
    (a, newTarget) => {
      const s = convert(a)
      reserveElements(s.length, ENTRY_BYTES)
      // Every character becomes a property of its own.
      charge(s.length * ITEM_UNITS)
      const o = Object.create(isObject(newTarget.prototype) ? newTarget.prototype : proto)
      o[SLOT] = s
      o[BRAND] = Brand.String
      for (let i = 0; i < s.length; i++) Object.defineProperty(o, i, { value: s[i], enumerable: true })
      Object.defineProperty(o, "length", { value: s.length })
      return o
    },
  )
  linkConstructor(ctor, proto)
  /** Build a string from code units or code points, a bounded slice of arguments per host call. */
  const fromCodes = (a: Value[], perCode: number, build: (codes: number[]) => string): string => {
    reserveChars(a.length * perCode)
    charge(a.length)
    const codes = a.map(toNumber)
    if (codes.length <= 4096) return build(codes)
    const pieces: string[] = []
    for (let i = 0; i < codes.length; i += 4096) pieces.push(build(codes.slice(i, i + 4096)))
    return pieces.join("")
  }
  const fromCharCode = defineMethod(ctor, "fromCharCode", 1, (_t, a) => {
    if (a.length === 1 && typeof a[0] === "number") return String.fromCharCode(a[0])
    return fromCodes(a, 1, (codes) => String.fromCharCode(...codes))
  })
  const fromCharCodeList = listEntry(fromCharCode)
  giveEntry3(fromCharCode, (t, a0, a1, a2, self, count) =>
    count === 1 && typeof a0 === "number"
      ? String.fromCharCode(a0)
      : fromCharCodeList(t, argumentsOf(count, a0, a1, a2), self),
  )
  defineMethod(ctor, "fromCodePoint", 1, (_t, a) => fromCodes(a, 2, (codes) => String.fromCodePoint(...codes)))
  defineMethod(ctor, "raw", 1, (_t, a) => {
    const strings = arg(a, 0)
    if (strings === undefined || strings === null) return throwTypeError("Cannot convert undefined or null to object")
    const raw = strings.raw
    if (raw === undefined || raw === null) return throwTypeError("Cannot convert undefined or null to object")
    const n = toLength(raw.length)
    let s = ""
    for (let i = 0; i < n; i++) {
      if (--rt.fuel < 0) charge(0)
      s = concat(s, toStr(raw[i]))
      if (i + 1 < n && i + 1 < a.length) s = concat(s, toStr(a[i + 1]))
    }
    return s
  })

  const method = (name: string, length: number, impl: (s: string, a: Value[]) => Value) =>
    defineMethod(proto, name, length, (t, a) => impl(thisString(t, name), a))
  /**
   * A method that reads at most three arguments: `impl` is its list-free entry (a call site with at most three
   * arguments passes them one by one), and its list entry unpacks the list; missing arguments are `undefined` either
   * way. Each method's own `impl` is the entry, so the host compiles every one on its own feedback.
   */
  const method3 = (name: string | symbol, length: number, impl: (t: Value, a0: Value, a1: Value) => Value) => {
    const fn = defineMethod(proto, name, length, (t, a) => impl(t, a[0], a[1]))
    giveEntry3(fn, impl)
    return fn
  }
  const optionalInt = (v: Value, fallback: number) => (v === undefined ? fallback : toInteger(v))

  /** `thisStringValue`: the string itself or a String object's string (no conversion). */
  const thisStringValue = (t: Value, name: string): string => {
    if (typeof t === "string") return t
    if (isObject(t) && brandOf(t) === Brand.String) return t[SLOT]
    return throwTypeError(`String.prototype.${name} requires that 'this' be a String`)
  }
  defineMethod(proto, "toString", 0, (t) => thisStringValue(t, "toString"))
  defineMethod(proto, "valueOf", 0, (t) => thisStringValue(t, "valueOf"))
  method3("at", 1, (t, a0) => {
    const s = thisString(t, "at")
    let i = toInteger(a0)
    if (i < 0) i += s.length
    return i < 0 || i >= s.length ? undefined : s[i]
  })
  method3("charAt", 1, (t, a0) => thisString(t, "charAt").charAt(typeof a0 === "number" ? a0 : toInteger(a0)))
  method3("charCodeAt", 1, (t, a0) =>
    thisString(t, "charCodeAt").charCodeAt(typeof a0 === "number" ? a0 : toInteger(a0)),
  )
  method3("codePointAt", 1, (t, a0) => thisString(t, "codePointAt").codePointAt(toInteger(a0)))
  method("concat", 1, (s, a) => {
    let r = s
    charge(a.length)
    for (let i = 0; i < a.length; i++) r = concat(r, toStr(a[i]))
    return r
  })
  const searchString = (v: Value, name: string): string => {
    if (isRegExpLike(v))
      return throwTypeError(`First argument to String.prototype.${name} must not be a regular expression`)
    return toStr(v)
  }
  method3("includes", 1, (t, a0, a1) => {
    const s = thisString(t, "includes")
    chargeChars(s.length)
    return s.includes(searchString(a0, "includes"), optionalInt(a1, 0))
  })
  method3("startsWith", 1, (t, a0, a1) => {
    const s = thisString(t, "startsWith")
    const search = searchString(a0, "startsWith")
    chargeChars(Math.min(search.length, s.length))
    return s.startsWith(search, optionalInt(a1, 0))
  })
  method3("endsWith", 1, (t, a0, a1) => {
    const s = thisString(t, "endsWith")
    const search = searchString(a0, "endsWith")
    chargeChars(Math.min(search.length, s.length))
    return s.endsWith(search, optionalInt(a1, s.length))
  })
  method3("indexOf", 1, (t, a0, a1) => {
    const s = thisString(t, "indexOf")
    chargeChars(s.length)
    return s.indexOf(typeof a0 === "string" ? a0 : toStr(a0), optionalInt(a1, 0))
  })
  method3("lastIndexOf", 1, (t, a0, a1) => {
    const s = thisString(t, "lastIndexOf")
    chargeChars(s.length)
    const pos = a1 === undefined ? Infinity : toNumber(a1)
    return s.lastIndexOf(toStr(a0), pos !== pos ? Infinity : pos)
  })
  method3("slice", 2, (t, a0, a1) => {
    const s = thisString(t, "slice")
    const r = s.slice(optionalInt(a0, 0), optionalInt(a1, s.length))
    chargeChars(r.length)
    return r
  })
  method3("substring", 2, (t, a0, a1) => {
    const s = thisString(t, "substring")
    const r = s.substring(optionalInt(a0, 0), optionalInt(a1, s.length))
    chargeChars(r.length)
    return r
  })
  method3("substr", 2, (t, a0, a1) => {
    const s = thisString(t, "substr")
    const r = s.substr(optionalInt(a0, 0), a1 === undefined ? undefined : toInteger(a1))
    chargeChars(r.length)
    return r
  })
  const upperCase = (s: string): string => boundedTransform(s, 3, (p) => p.toUpperCase(), caseCut)
  method3("toLowerCase", 0, (t) => lowerCase(thisString(t, "toLowerCase")))
  method3("toUpperCase", 0, (t) => upperCase(thisString(t, "toUpperCase")))
  // A locale's case mapping (Turkish dotted and dotless i, Lithuanian dots) can lengthen a string three times.
  method("toLocaleLowerCase", 0, (s, a) => {
    const locale = localeOf(a[0])
    return boundedTransform(s, 3, (p) => p.toLocaleLowerCase(locale), caseCut)
  })
  method("toLocaleUpperCase", 0, (s, a) => {
    const locale = localeOf(a[0])
    return boundedTransform(s, 3, (p) => p.toLocaleUpperCase(locale), caseCut)
  })
  // Trimming reads the whole string (the host flattens it first).
  method3("trim", 0, (t) => {
    const s = thisString(t, "trim")
    chargeChars(s.length)
    return s.trim()
  })
  defineValue(
    proto,
    "trimLeft",
    method3("trimStart", 0, (t) => {
      const s = thisString(t, "trimStart")
      chargeChars(s.length)
      return s.trimStart()
    }),
  )
  defineValue(
    proto,
    "trimRight",
    method3("trimEnd", 0, (t) => {
      const s = thisString(t, "trimEnd")
      chargeChars(s.length)
      return s.trimEnd()
    }),
  )
  // The HTML methods of Annex B: `"x".bold()` is "<b>x</b>".
  const html = (name: string, tag: string, attribute?: string) =>
    defineMethod(proto, name, attribute === undefined ? 0 : 1, (t, a) => {
      const s = thisString(t, name)
      const open = attribute === undefined ? tag : `${tag} ${attribute}="${toStr(arg(a, 0)).replace(/"/g, "&quot;")}"`
      reserveChars(s.length * 1 + open.length + tag.length + 5)
      chargeChars(s.length)
      return `<${open}>${s}</${tag}>`
    })
  html("anchor", "a", "name")
  html("big", "big")
  html("blink", "blink")
  html("bold", "b")
  html("fixed", "tt")
  html("fontcolor", "font", "color")
  html("fontsize", "font", "size")
  html("italics", "i")
  html("link", "a", "href")
  html("small", "small")
  html("strike", "strike")
  html("sub", "sub")
  html("sup", "sup")
  const pad = (atStart: boolean) => (t: Value, a0: Value, a1: Value) => {
    const s = thisString(t, atStart ? "padStart" : "padEnd")
    const n = toLength(a0)
    if (n <= s.length) return s
    const filler = a1 === undefined ? " " : toStr(a1)
    if (filler === "") return s
    reserveChars(n)
    chargeChars(n)
    return atStart ? s.padStart(n, filler) : s.padEnd(n, filler)
  }
  method3("padStart", 1, pad(true))
  method3("padEnd", 1, pad(false))
  method3("repeat", 1, (t, a0) => {
    const s = thisString(t, "repeat")
    const n = toInteger(a0)
    if (n < 0 || n === Infinity) throwRangeError(`Invalid count value: ${n}`)
    if (s.length === 0 || n === 0) return ""
    reserveChars(s.length * n)
    chargeChars(s.length * n)
    return s.repeat(n)
  })
  method("normalize", 0, (s, a) => {
    const form = a[0] === undefined ? "NFC" : toStr(a[0])
    const factor = normalizationFactor[form]
    if (factor === undefined) return throwRangeError(`The normalization form should be one of NFC, NFD, NFKC, NFKD.`)
    return boundedTransform(s, factor, (p) => p.normalize(form), normalizationCut)
  })
  method3("localeCompare", 1, (t, a0) => {
    const s = thisString(t, "localeCompare")
    const other = toStr(a0)
    chargeChars(s.length + other.length)
    return s.localeCompare(other, "en")
  })
  method("isWellFormed", 0, (s) => {
    chargeChars(s.length)
    return (s as unknown as { isWellFormed(): boolean }).isWellFormed()
  })
  method("toWellFormed", 0, (s) => {
    chargeChars(2 * s.length)
    return (s as unknown as { toWellFormed(): string }).toWellFormed()
  })
  /** `RequireObjectCoercible(this)`: the raw `this` of a method that converts it later. */
  const coercible = (t: Value, name: string): Value =>
    t === undefined || t === null ? throwTypeError(`String.prototype.${name} called on null or undefined`) : t
  /** `GetMethod(v, symbol)` for the RegExp protocol (primitives look on their prototypes). */
  const protocolMethod = (v: Value, symbol: symbol): Value => {
    if (v === undefined || v === null) return undefined
    const m = getProp(v, symbol)
    if (m === undefined || m === null) return undefined
    if (!isCallable(m)) return throwTypeError(`${String(symbol.description)} is not a function`)
    return m
  }
  /** A RegExp argument of `matchAll`/`replaceAll` must be global. */
  const requireGlobal = (v: Value, name: string): void => {
    if (!isRegExpLike(v)) return
    const flags = v.flags
    if (flags === undefined || flags === null)
      throwTypeError(`String.prototype.${name} called with a RegExp whose flags are ${flags}`)
    if (!toStr(flags).includes("g")) throwTypeError(`String.prototype.${name} called with a non-global RegExp argument`)
  }
  const replace =
    (all: boolean) =>
    (t: Value, pattern: Value, replacement: Value): Value => {
      const name = all ? "replaceAll" : "replace"
      const o = coercible(t, name)
      if (pattern !== undefined && pattern !== null) {
        if (all) requireGlobal(pattern, name)
        const replacer = protocolMethod(pattern, Symbol.replace)
        if (replacer !== undefined) return call(replacer, pattern, [o, replacement])
      }
      const s = toStr(o)
      const p = toStr(pattern)
      const functional = isCallable(replacement)
      const template = functional ? undefined : toStr(replacement)
      chargeChars(s.length)
      const matches = all ? s.length / Math.max(p.length, 1) + 1 : 1
      const result = hostReplace(s, p, replacement, template, matches, all)
      // The characters written (a result no longer than the subject was at most scanned).
      charge(result.length)
      return result
    }
  method3("replace", 2, replace(false))
  method3("replaceAll", 2, replace(true))
  /** `match`, `search`: the argument's own protocol method, else a new RegExp's. */
  const viaRegExp =
    (name: string, symbol: symbol, flags: string) =>
    (t: Value, regexp: Value): Value => {
      const o = coercible(t, name)
      if (regexp !== undefined && regexp !== null) {
        if (flags === "g") requireGlobal(regexp, name)
        const method = protocolMethod(regexp, symbol)
        if (method !== undefined) return call(method, regexp, [o])
      }
      const s = toStr(o)
      const rx = realm.makeRegExp(regexp === undefined ? "" : toStr(regexp), flags)
      return call(getProp(rx, symbol), rx, [s])
    }
  method3("match", 1, viaRegExp("match", Symbol.match, ""))
  method3("matchAll", 1, viaRegExp("matchAll", Symbol.matchAll, "g"))
  method3("search", 1, viaRegExp("search", Symbol.search, ""))
  method3("split", 2, (t, sep, limitArg) => {
    const o = coercible(t, "split")
    if (sep !== undefined && sep !== null) {
      const splitter = protocolMethod(sep, Symbol.split)
      if (splitter !== undefined) return call(splitter, sep, [o, limitArg])
    }
    const s = toStr(o)
    const limit = limitArg === undefined ? 4294967295 : toNumber(limitArg) >>> 0
    const separator = toStr(sep)
    chargeChars(s.length)
    if (limit === 0) return realm.newArray()
    if (sep === undefined) return realm.newArray([s])
    // At most this many pieces, and never more than one past the bound (the host stops there).
    const most = Math.min(limit, s.length / Math.max(separator.length, 1) + 1, MAX_ARRAY_LENGTH + 1)
    reserveHeap(most * PIECE_BYTES)
    const pieces = s.split(separator, Math.min(limit, MAX_ARRAY_LENGTH + 1))
    if (pieces.length > MAX_ARRAY_LENGTH) reserveElements(pieces.length)
    charge(pieces.length * ITEM_UNITS)
    return arrayOfList(realm, pieces)
  })
  realm.stringIterator = defineMethod(proto, Symbol.iterator, 0, (t) =>
    createHostIterator(
      realm.StringIteratorProto,
      Brand.StringIterator,
      thisString(t, "[Symbol.iterator]")[Symbol.iterator](),
      (c) => c,
    ),
  )
  realm.defineGlobal("String", ctor)
}
