/**
 * `String` and `String.prototype`. Methods coerce their arguments with the program's own conversions first and then
 * run the host's string methods on primitives, which cannot reach anything else.
 */
import { MAX_STRING_LENGTH } from "../limits.js"
import { throwRangeError, throwTypeError } from "../runtime/errors.js"
import {
  arg,
  defineMethod,
  isCallable,
  isObject,
  linkConstructor,
  makeNative,
  type Value,
} from "../runtime/functions.js"
import { BRAND, Brand, SLOT } from "../runtime/internals.js"
import { charge } from "../runtime/meter.js"
import { stringTooLong, toInteger, toNumber, toStr } from "../runtime/operators.js"
import type { Realm } from "../runtime/realm.js"
import { createHostIterator } from "./iteration.js"
import { adoptMatch, hostRegExp, isRegExp, regExpExec, regexSubject, replacer } from "./regexp.js"

/** The string a `String.prototype` method works on. */
const thisString = (t: Value, name: string): string => {
  if (typeof t === "string") return t
  if (t === undefined || t === null) return throwTypeError(`String.prototype.${name} called on null or undefined`)
  if (isObject(t) && t[BRAND] === Brand.String) return t[SLOT]
  return toStr(t)
}

/** Charge for touching `n` characters. */
const chargeChars = (n: number): void => charge(1 + (n >> 5))

const checkResult = (n: number): void => {
  if (n > MAX_STRING_LENGTH) stringTooLong(n)
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
      const o = Object.create(isObject(newTarget.prototype) ? newTarget.prototype : proto)
      o[SLOT] = s
      o[BRAND] = Brand.String
      for (let i = 0; i < s.length; i++) Object.defineProperty(o, i, { value: s[i], enumerable: true })
      Object.defineProperty(o, "length", { value: s.length })
      return o
    },
  )
  linkConstructor(ctor, proto)
  defineMethod(ctor, "fromCharCode", 1, (_t, a) => {
    if (a.length === 1 && typeof a[0] === "number") return String.fromCharCode(a[0])
    checkResult(a.length)
    return String.fromCharCode(...a.map(toNumber))
  })
  defineMethod(ctor, "fromCodePoint", 1, (_t, a) => {
    checkResult(a.length * 2)
    return String.fromCodePoint(...a.map(toNumber))
  })
  defineMethod(ctor, "raw", 1, (_t, a) => {
    const strings = arg(a, 0)
    const raw = isObject(strings) ? strings.raw : undefined
    if (!isObject(raw)) return throwTypeError("String.raw requires an object with a raw property")
    const n = toInteger(raw.length)
    let s = ""
    for (let i = 0; i < n; i++) {
      s += toStr(raw[i])
      if (i + 1 < n && i + 1 < a.length) s += toStr(a[i + 1])
      checkResult(s.length)
    }
    return s
  })

  const method = (name: string, length: number, impl: (s: string, a: Value[]) => Value) =>
    defineMethod(proto, name, length, (t, a) => impl(thisString(t, name), a))
  const optionalInt = (v: Value, fallback: number) => (v === undefined ? fallback : toInteger(v))

  method("toString", 0, (s) => s)
  method("valueOf", 0, (s) => s)
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
    for (const v of a) {
      r += toStr(v)
      checkResult(r.length)
    }
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
  method("toLowerCase", 0, (s) => (chargeChars(s.length), s.toLowerCase()))
  method("toUpperCase", 0, (s) => (chargeChars(s.length), s.toUpperCase()))
  method("toLocaleLowerCase", 0, (s) => (chargeChars(s.length), s.toLowerCase()))
  method("toLocaleUpperCase", 0, (s) => (chargeChars(s.length), s.toUpperCase()))
  method("trim", 0, (s) => s.trim())
  method("trimStart", 0, (s) => s.trimStart())
  method("trimEnd", 0, (s) => s.trimEnd())
  method("padStart", 2, (s, a) => {
    const n = toInteger(arg(a, 0))
    checkResult(n)
    chargeChars(n)
    return s.padStart(n, a[1] === undefined ? " " : toStr(a[1]))
  })
  method("padEnd", 2, (s, a) => {
    const n = toInteger(arg(a, 0))
    checkResult(n)
    chargeChars(n)
    return s.padEnd(n, a[1] === undefined ? " " : toStr(a[1]))
  })
  method("repeat", 1, (s, a) => {
    const n = toInteger(arg(a, 0))
    if (n < 0 || n === Infinity) throwRangeError(`Invalid count value: ${n}`)
    checkResult(s.length * n)
    chargeChars(s.length * n)
    return s.repeat(n)
  })
  method("normalize", 0, (s, a) => (chargeChars(s.length), s.normalize(a[0] === undefined ? "NFC" : toStr(a[0]))))
  method("localeCompare", 1, (s, a) => {
    const other = toStr(arg(a, 0))
    return s.localeCompare(other, "en")
  })
  method("isWellFormed", 0, (s) => (s as unknown as { isWellFormed(): boolean }).isWellFormed())
  method("toWellFormed", 0, (s) => (s as unknown as { toWellFormed(): string }).toWellFormed())
  method("split", 2, (s, a) => {
    const sep = arg(a, 0)
    const limit = a[1] === undefined ? undefined : toInteger(a[1]) >>> 0
    chargeChars(s.length)
    if (sep === undefined) return realm.newArray(limit === 0 ? [] : [s])
    if (isRegExp(sep)) return realm.adoptArray(regexSubject(s).split(hostRegExp(sep), limit))
    return realm.adoptArray(s.split(toStr(sep), limit))
  })
  const replace =
    (all: boolean) =>
    (s: string, a: Value[]): Value => {
      const pattern = arg(a, 0)
      const replacement = arg(a, 1)
      const withFn = isCallable(replacement)
      const rep = withFn ? replacer(replacement) : toStr(replacement)
      let result: string
      if (isRegExp(pattern)) {
        const re = hostRegExp(pattern)
        if (all && !re.global) return throwTypeError("replaceAll must be called with a global RegExp")
        regexSubject(s)
        if (re.global || re.sticky) re.lastIndex = 0
        result = s.replace(re, rep as string)
        if (re.global) pattern.lastIndex = 0
      } else {
        const p = toStr(pattern)
        chargeChars(s.length)
        result = all ? s.replaceAll(p, rep as string) : s.replace(p, rep as string)
      }
      checkResult(result.length)
      return result
    }
  method("replace", 2, replace(false))
  method("replaceAll", 2, replace(true))
  method("match", 1, (s, a) => {
    const p = arg(a, 0)
    const re = isRegExp(p) ? p : realm.makeRegExp(p === undefined ? "(?:)" : toStr(p), "")
    const host = hostRegExp(re)
    if (!host.global) return regExpExec(realm, re, s)
    regexSubject(s)
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
