/**
 * `Number`, `Boolean` and the numeric globals (`parseInt`, `parseFloat`, `isNaN`, `isFinite`).
 */
import { throwTypeError } from "../runtime/errors.js"
import {
  arg,
  defineMethod,
  defineValue,
  isObject,
  linkConstructor,
  makeNative,
  type Value,
} from "../runtime/functions.js"
import { BRAND, Brand, SLOT, brandOf } from "../runtime/internals.js"
import { charge } from "../runtime/meter.js"
import { toInteger, toNumber, toPrimitive, toStr } from "../runtime/operators.js"
import type { Realm } from "../runtime/realm.js"
import { localeOf, localeOptions } from "./locale.js"

const thisNumber = (t: Value, name: string): number => {
  if (typeof t === "number") return t
  if (isObject(t) && brandOf(t) === Brand.Number) return t[SLOT]
  return throwTypeError(`Number.prototype.${name} requires that 'this' be a Number`)
}

const thisBoolean = (t: Value, name: string): boolean => {
  if (typeof t === "boolean") return t
  if (isObject(t) && brandOf(t) === Brand.Boolean) return t[SLOT]
  return throwTypeError(`Boolean.prototype.${name} requires that 'this' be a Boolean`)
}

const box = (proto: Value, brand: number, value: Value, newTarget: Value): Value => {
  const o = Object.create(isObject(newTarget.prototype) ? newTarget.prototype : proto)
  o[SLOT] = value
  o[BRAND] = brand
  return o
}

const numberOptionKeys = [
  "style",
  "currency",
  "currencyDisplay",
  "currencySign",
  "unit",
  "unitDisplay",
  "notation",
  "compactDisplay",
  "signDisplay",
  "useGrouping",
  "minimumIntegerDigits",
  "minimumFractionDigits",
  "maximumFractionDigits",
  "minimumSignificantDigits",
  "maximumSignificantDigits",
  "roundingMode",
]

/** Install `Number`, `Boolean` and the numeric globals. */
export const installNumber = (realm: Realm): void => {
  const proto = realm.newObject()
  proto[BRAND] = Brand.Number
  proto[SLOT] = 0
  realm.NumberProto = proto
  const convert = (a: Value[]): number => {
    if (a.length === 0) return 0
    const p = toPrimitive(a[0], "number")
    if (typeof p === "string") charge(p.length)
    return toNumber(p)
  }
  const ctor = makeNative(
    "Number",
    1,
    (_t, a) => convert(a),
    (a, nt) => box(proto, Brand.Number, convert(a), nt),
  )
  linkConstructor(ctor, proto)
  const constants: Record<string, number> = {
    EPSILON: Number.EPSILON,
    MAX_SAFE_INTEGER: Number.MAX_SAFE_INTEGER,
    MIN_SAFE_INTEGER: Number.MIN_SAFE_INTEGER,
    MAX_VALUE: Number.MAX_VALUE,
    MIN_VALUE: Number.MIN_VALUE,
    NaN: NaN,
    POSITIVE_INFINITY: Infinity,
    NEGATIVE_INFINITY: -Infinity,
  }
  for (const [k, v] of Object.entries(constants)) defineValue(ctor, k, v, false)
  defineMethod(ctor, "isFinite", 1, (_t, a) => Number.isFinite(a[0]))
  defineMethod(ctor, "isInteger", 1, (_t, a) => Number.isInteger(a[0]))
  defineMethod(ctor, "isNaN", 1, (_t, a) => Number.isNaN(a[0]))
  defineMethod(ctor, "isSafeInteger", 1, (_t, a) => Number.isSafeInteger(a[0]))
  /** A numeral's text, charged one unit a character (the host reads all of it). */
  const numeral = (v: Value): string => {
    const s = toStr(v)
    charge(s.length)
    return s
  }
  const parseFloatFn = makeNative("parseFloat", 1, (_t, a) => parseFloat(numeral(arg(a, 0))))
  const parseIntFn = makeNative("parseInt", 2, (_t, a) => parseInt(numeral(arg(a, 0)), toInteger(arg(a, 1))))
  defineValue(ctor, "parseFloat", parseFloatFn)
  defineValue(ctor, "parseInt", parseIntFn)

  defineMethod(proto, "toString", 1, (t, a) => {
    const n = thisNumber(t, "toString")
    const radix = a[0] === undefined ? 10 : toInteger(a[0])
    return n.toString(radix)
  })
  defineMethod(proto, "toLocaleString", 0, (t, a) =>
    thisNumber(t, "toLocaleString").toLocaleString(localeOf(a[0]), localeOptions(a[1], numberOptionKeys)),
  )
  defineMethod(proto, "valueOf", 0, (t) => thisNumber(t, "valueOf"))
  defineMethod(proto, "toFixed", 1, (t, a) => thisNumber(t, "toFixed").toFixed(toInteger(arg(a, 0))))
  defineMethod(proto, "toPrecision", 1, (t, a) => {
    const n = thisNumber(t, "toPrecision")
    return a[0] === undefined ? String(n) : n.toPrecision(toInteger(a[0]))
  })
  defineMethod(proto, "toExponential", 1, (t, a) => {
    const n = thisNumber(t, "toExponential")
    return a[0] === undefined ? n.toExponential() : n.toExponential(toInteger(a[0]))
  })
  realm.defineGlobal("Number", ctor)
  realm.defineGlobal("parseFloat", parseFloatFn)
  realm.defineGlobal("parseInt", parseIntFn)
  realm.defineGlobal(
    "isNaN",
    makeNative("isNaN", 1, (_t, a) => Number.isNaN(toNumber(arg(a, 0)))),
  )
  realm.defineGlobal(
    "isFinite",
    makeNative("isFinite", 1, (_t, a) => Number.isFinite(toNumber(arg(a, 0)))),
  )

  const bproto = realm.newObject()
  bproto[BRAND] = Brand.Boolean
  bproto[SLOT] = false
  realm.BooleanProto = bproto
  const bctor = makeNative(
    "Boolean",
    1,
    (_t, a) => !!a[0],
    (a, nt) => box(bproto, Brand.Boolean, !!a[0], nt),
  )
  linkConstructor(bctor, bproto)
  defineMethod(bproto, "toString", 0, (t) => String(thisBoolean(t, "toString")))
  defineMethod(bproto, "valueOf", 0, (t) => thisBoolean(t, "valueOf"))
  realm.defineGlobal("Boolean", bctor)
}
