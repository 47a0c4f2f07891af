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
  isCallable,
  isObject,
  linkConstructor,
  makeNative,
  type Value,
} from "../runtime/functions.js"
import { BRAND, Brand, SLOT } from "../runtime/internals.js"
import { charge } from "../runtime/meter.js"
import { ENTRY_BYTES, reserveChars, reserveElements, reserveHeap, stringTooLong } from "../runtime/memory.js"
import { concat, toInteger, toNumber, toStr } from "../runtime/operators.js"
import type { Realm } from "../runtime/realm.js"
import { rt } from "../runtime/state.js"
import { createHostIterator } from "./iteration.js"
import { adoptMatch, hostRegExp, isRegExp, regExpExec, regexSubject } from "./regexp.js"
import { getSubstitution } from "./substitution.js"

/** The string a `String.prototype` method works on. */
const thisString = (t: Value, name: string): string => {
  if (typeof t === "string") return t
  if (t === undefined || t === null) return throwTypeError(`String.prototype.${name} called on null or undefined`)
  return toStr(t)
}

/** Charge for touching `n` characters. */
const chargeChars = (n: number): void => charge(1 + (n >> 5))

/** `ToLength(v)`. */
const toLength = (v: Value): number => {
  const n = toInteger(v)
  return n <= 0 ? 0 : Math.min(n, Number.MAX_SAFE_INTEGER)
}

/** Bytes a piece of a split or match result takes: its slot and a short string. */
const PIECE_BYTES = 40

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
    return transform(s)
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
      charge(s.length)
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
  defineMethod(ctor, "fromCharCode", 1, (_t, a) => {
    if (a.length === 1 && typeof a[0] === "number") return String.fromCharCode(a[0])
    return fromCodes(a, 1, (codes) => String.fromCharCode(...codes))
  })
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
  const optionalInt = (v: Value, fallback: number) => (v === undefined ? fallback : toInteger(v))

  /** `thisStringValue`: the string itself or a String object's string (no conversion). */
  const thisStringValue = (t: Value, name: string): string => {
    if (typeof t === "string") return t
    if (isObject(t) && t[BRAND] === Brand.String) return t[SLOT]
    return throwTypeError(`String.prototype.${name} requires that 'this' be a String`)
  }
  defineMethod(proto, "toString", 0, (t) => thisStringValue(t, "toString"))
  defineMethod(proto, "valueOf", 0, (t) => thisStringValue(t, "valueOf"))
  method("at", 1, (s, a) => {
    let i = toInteger(arg(a, 0))
    if (i < 0) i += s.length
    return i < 0 || i >= s.length ? undefined : s[i]
  })
  method("charAt", 1, (s, a) => s.charAt(toInteger(arg(a, 0))))
  method("charCodeAt", 1, (s, a) => s.charCodeAt(toInteger(arg(a, 0))))
  method("codePointAt", 1, (s, a) => s.codePointAt(toInteger(arg(a, 0))))
  method("concat", 1, (s, a) => {
    let r = s
    for (let i = 0; i < a.length; i++) r = concat(r, toStr(a[i]))
    return r
  })
  const searchString = (v: Value, name: string): string => {
    if (isRegExp(v))
      return throwTypeError(`First argument to String.prototype.${name} must not be a regular expression`)
    return toStr(v)
  }
  method("includes", 1, (s, a) => {
    chargeChars(s.length)
    return s.includes(searchString(arg(a, 0), "includes"), optionalInt(a[1], 0))
  })
  method("startsWith", 1, (s, a) => s.startsWith(searchString(arg(a, 0), "startsWith"), optionalInt(a[1], 0)))
  method("endsWith", 1, (s, a) => s.endsWith(searchString(arg(a, 0), "endsWith"), optionalInt(a[1], s.length)))
  method("indexOf", 1, (s, a) => {
    chargeChars(s.length)
    return s.indexOf(toStr(arg(a, 0)), optionalInt(a[1], 0))
  })
  method("lastIndexOf", 1, (s, a) => {
    chargeChars(s.length)
    const pos = a[1] === undefined ? Infinity : toNumber(a[1])
    return s.lastIndexOf(toStr(arg(a, 0)), pos !== pos ? Infinity : pos)
  })
  method("slice", 2, (s, a) => {
    const r = s.slice(optionalInt(a[0], 0), optionalInt(a[1], s.length))
    chargeChars(r.length)
    return r
  })
  method("substring", 2, (s, a) => {
    const r = s.substring(optionalInt(a[0], 0), optionalInt(a[1], s.length))
    chargeChars(r.length)
    return r
  })
  method("substr", 2, (s, a) => {
    const r = s.substr(optionalInt(a[0], 0), a[1] === undefined ? undefined : toInteger(a[1]))
    chargeChars(r.length)
    return r
  })
  const upperCase = (s: string): string => boundedTransform(s, 3, (p) => p.toUpperCase(), caseCut)
  method("toLowerCase", 0, lowerCase)
  method("toUpperCase", 0, upperCase)
  method("toLocaleLowerCase", 0, lowerCase)
  method("toLocaleUpperCase", 0, upperCase)
  method("trim", 0, (s) => s.trim())
  method("trimStart", 0, (s) => s.trimStart())
  method("trimEnd", 0, (s) => s.trimEnd())
  const pad = (atStart: boolean) => (s: string, a: Value[]) => {
    const n = toLength(arg(a, 0))
    if (n <= s.length) return s
    const filler = a[1] === undefined ? " " : toStr(a[1])
    if (filler === "") return s
    reserveChars(n)
    chargeChars(n)
    return atStart ? s.padStart(n, filler) : s.padEnd(n, filler)
  }
  method("padStart", 2, pad(true))
  method("padEnd", 2, pad(false))
  method("repeat", 1, (s, a) => {
    const n = toInteger(arg(a, 0))
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
  method("localeCompare", 1, (s, a) => {
    const other = toStr(arg(a, 0))
    return s.localeCompare(other, "en")
  })
  method("isWellFormed", 0, (s) => (s as unknown as { isWellFormed(): boolean }).isWellFormed())
  method("toWellFormed", 0, (s) => (s as unknown as { toWellFormed(): string }).toWellFormed())
  method("split", 2, (s, a) => {
    const sep = arg(a, 0)
    const limit = a[1] === undefined ? 4294967295 : toNumber(a[1]) >>> 0
    chargeChars(s.length)
    if (sep === undefined) return realm.newArray(limit === 0 ? [] : [s])
    if (isRegExp(sep)) {
      regexSubject(s)
      reserveElements(Math.min(limit, s.length + 1), PIECE_BYTES)
      return realm.adoptArray(s.split(hostRegExp(sep), limit))
    }
    const separator = toStr(sep)
    if (limit === 0) return realm.newArray()
    // At most this many pieces, and never more than one past the bound (the host stops there).
    const most = Math.min(limit, s.length / Math.max(separator.length, 1) + 1, MAX_ARRAY_LENGTH + 1)
    reserveHeap(most * PIECE_BYTES)
    const pieces = s.split(separator, Math.min(limit, MAX_ARRAY_LENGTH + 1))
    if (pieces.length > MAX_ARRAY_LENGTH) reserveElements(pieces.length)
    return realm.adoptArray(pieces)
  })
  /**
   * The host function that makes each replacement: a program replacer function's result, or the template expanded
   * here, with the result's length counted match by match (the host builds the result from these pieces).
   */
  const countingReplacer = (s: string, replacement: Value, template: string | undefined) => {
    let length = s.length
    let checked = length >>> 16
    return (...args: Value[]): string => {
      const matched = args[0] as string
      const namedGroups = typeof args[args.length - 1] === "object" ? args[args.length - 1] : undefined
      const tail = namedGroups === undefined ? 2 : 3
      const position = args[args.length - tail] as number
      let r: string
      if (template === undefined) r = toStr(call(replacement, undefined, args.slice()))
      else r = getSubstitution(matched, s, position, args.slice(1, args.length - tail), namedGroups, template)
      length += r.length - matched.length
      if (length > MAX_STRING_LENGTH) reserveChars(length)
      if (length >>> 16 !== checked) {
        checked = length >>> 16
        reserveChars(length)
      }
      return r
    }
  }
  /**
   * The longest result a template replacement can give: each of at most `matches` matches replaced by the template
   * with every `$` reference expanded to the whole subject.
   */
  const worstReplacement = (s: string, template: string, matches: number): number =>
    s.length + matches * (template.includes("$") ? template.length * (s.length + 1) : template.length)
  const replace =
    (all: boolean) =>
    (s: string, a: Value[]): Value => {
      const pattern = arg(a, 0)
      const replacement = arg(a, 1)
      const withFn = isCallable(replacement)
      const template = withFn ? undefined : toStr(replacement)
      if (isRegExp(pattern)) {
        const re = hostRegExp(pattern)
        if (all && !re.global) return throwTypeError("replaceAll must be called with a global RegExp")
        regexSubject(s)
        const matches = re.global ? s.length + 1 : 1
        const native = template !== undefined && worstReplacement(s, template, matches) <= MAX_STRING_LENGTH
        if (native) reserveChars(worstReplacement(s, template!, matches))
        if (re.global || re.sticky) re.lastIndex = 0
        const rep = native ? template! : countingReplacer(s, replacement, template)
        const result = s.replace(re, rep as string)
        if (re.global) pattern.lastIndex = 0
        return result
      }
      const p = toStr(pattern)
      chargeChars(s.length)
      const matches = all ? s.length / Math.max(p.length, 1) + 1 : 1
      const native = template !== undefined && worstReplacement(s, template, matches) <= MAX_STRING_LENGTH
      if (native) reserveChars(worstReplacement(s, template!, matches))
      const rep = native ? template! : countingReplacer(s, replacement, template)
      return all ? s.replaceAll(p, rep as string) : s.replace(p, rep as string)
    }
  method("replace", 2, replace(false))
  method("replaceAll", 2, replace(true))
  method("match", 1, (s, a) => {
    const p = arg(a, 0)
    const re = isRegExp(p) ? p : realm.makeRegExp(p === undefined ? "(?:)" : toStr(p), "")
    const host = hostRegExp(re)
    if (!host.global) return regExpExec(realm, re, s)
    regexSubject(s)
    reserveHeap((s.length + 1) * PIECE_BYTES)
    host.lastIndex = 0
    const m = s.match(host)
    re.lastIndex = 0
    return m === null ? null : realm.adoptArray(m as unknown as Value[])
  })
  method("matchAll", 1, (s, a) => {
    const p = arg(a, 0)
    const re = isRegExp(p) ? p : realm.makeRegExp(p === undefined ? "(?:)" : toStr(p), "g")
    const host = hostRegExp(re)
    if (!host.global) return throwTypeError("String.prototype.matchAll called with a non-global RegExp argument")
    regexSubject(s)
    const copy = new RegExp(host.source, host.flags)
    copy.lastIndex = toInteger(re.lastIndex)
    return createHostIterator(realm.RegExpStringIteratorProto, Brand.RegExpStringIterator, s.matchAll(copy), (m) =>
      adoptMatch(realm, m),
    )
  })
  method("search", 1, (s, a) => {
    const p = arg(a, 0)
    const re = isRegExp(p) ? hostRegExp(p) : new RegExp(p === undefined ? "(?:)" : toStr(p))
    return regexSubject(s).search(re)
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
