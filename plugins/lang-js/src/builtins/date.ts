/**
 * `Date`, deterministic: local time is UTC everywhere (the host's time zone never shows), so `getHours()` equals
 * `getUTCHours()` and date strings without a zone are read as UTC. `Date.now()` is the real clock.
 */
import { throwRangeError, throwTypeError } from "../runtime/errors.js"
import {
  arg,
  call,
  defineMethod,
  defineValue,
  isObject,
  linkConstructor,
  makeNative,
  type Value,
} from "../runtime/functions.js"
import { BRAND, Brand, SLOT, brandOf } from "../runtime/internals.js"
import { charge } from "../runtime/meter.js"
import { toNumber, toPrimitive, toStr } from "../runtime/operators.js"
import type { Realm } from "../runtime/realm.js"
import { localeOf, localeOptions } from "./locale.js"

const MAX_TIME = 8.64e15

const timeClip = (t: number): number => (!Number.isFinite(t) || Math.abs(t) > MAX_TIME ? NaN : Math.trunc(t) + 0)

const zoned = /(?:Z|[+-]\d{2}:?\d{2}|\b(?:GMT|UTC|UT)\b[^)]*)\s*(?:\([^)]*\))?$/i
const dateOnly = /^(?:[+-]\d{6}|\d{4})(?:-\d{2}(?:-\d{2})?)?$/

/** Parse a date string; strings without a zone are read as UTC. */
export const parseDate = (s: string): number => {
  charge(s.length)
  const text = s.trim()
  const t = Date.parse(text)
  if (Number.isNaN(t)) return NaN
  if (zoned.test(text) || dateOnly.test(text)) return t
  return t - new Date(t).getTimezoneOffset() * 60_000
}

const days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
const pad = (n: number, w = 2) => String(n).padStart(w, "0")
const yearText = (y: number) => (y < 0 ? `-${pad(-y, 4)}` : pad(y, 4))

const dateString = (d: Date) =>
  `${days[d.getUTCDay()]} ${months[d.getUTCMonth()]} ${pad(d.getUTCDate())} ${yearText(d.getUTCFullYear())}`
const timeString = (d: Date) =>
  `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} GMT+0000 (Coordinated Universal Time)`

const dateOptionKeys = [
  "weekday",
  "era",
  "year",
  "month",
  "day",
  "hour",
  "minute",
  "second",
  "hour12",
  "hourCycle",
  "timeZoneName",
  "dateStyle",
  "timeStyle",
  "fractionalSecondDigits",
]

/** Install `Date`. */
export const installDate = (realm: Realm): void => {
  const proto = realm.newObject()
  realm.DateProto = proto
  const make = (t: number, newTarget: Value): Value => {
    const o = Object.create(newTarget !== undefined && isObject(newTarget.prototype) ? newTarget.prototype : proto)
    o[SLOT] = timeClip(t)
    o[BRAND] = Brand.Date
    return o
  }
  const fromFields = (a: Value[]): number => {
    const n = a.map((v) => toNumber(v))
    let year = n[0]
    if (Number.isFinite(year)) {
      const y = Math.trunc(year)
      if (y >= 0 && y <= 99) year = 1900 + y
    }
    return Date.UTC(year, n[1] ?? 0, n.length > 2 ? n[2] : 1, n[3] ?? 0, n[4] ?? 0, n[5] ?? 0, n[6] ?? 0)
  }
  const construct = (a: Value[], newTarget: Value): Value => {
    if (a.length === 0) return make(Date.now(), newTarget)
    if (a.length === 1) {
      const v = a[0]
      if (isObject(v) && brandOf(v) === Brand.Date) return make(v[SLOT], newTarget)
      const p = toPrimitive(v, "default")
      return make(typeof p === "string" ? parseDate(p) : toNumber(p), newTarget)
    }
    return make(fromFields(a), newTarget)
  }
  const ctor = makeNative(
    "Date",
    7,
    () => {
      const d = new Date(Date.now())
      return `${dateString(d)} ${timeString(d)}`
    },
    construct,
  )
  linkConstructor(ctor, proto)
  defineMethod(ctor, "now", 0, () => Date.now())
  defineMethod(ctor, "parse", 1, (_t, a) => parseDate(toStr(arg(a, 0))))
  defineMethod(ctor, "UTC", 7, (_t, a) => timeClip(fromFields(a.length === 0 ? [NaN] : a)))

  const time = (t: Value): number => {
    if (!isObject(t) || brandOf(t) !== Brand.Date) return throwTypeError("this is not a Date object.")
    return t[SLOT] as number
  }
  const getters: Array<[string, (d: Date) => number]> = [
    ["FullYear", (d) => d.getUTCFullYear()],
    ["Month", (d) => d.getUTCMonth()],
    ["Date", (d) => d.getUTCDate()],
    ["Day", (d) => d.getUTCDay()],
    ["Hours", (d) => d.getUTCHours()],
    ["Minutes", (d) => d.getUTCMinutes()],
    ["Seconds", (d) => d.getUTCSeconds()],
    ["Milliseconds", (d) => d.getUTCMilliseconds()],
  ]
  for (const [name, get] of getters) {
    for (const prefix of ["get", "getUTC"]) {
      defineMethod(proto, `${prefix}${name}`, 0, (t) => {
        const v = time(t)
        return Number.isNaN(v) ? NaN : get(new Date(v))
      })
    }
  }
  defineMethod(proto, "getTime", 0, (t) => time(t))
  defineMethod(proto, "valueOf", 0, (t) => time(t))
  defineMethod(proto, "getTimezoneOffset", 0, (t) => (Number.isNaN(time(t)) ? NaN : 0))
  defineMethod(proto, "getYear", 0, (t) => {
    const v = time(t)
    return Number.isNaN(v) ? NaN : new Date(v).getUTCFullYear() - 1900
  })
  const setters: Array<[string, (d: Date, n: number[]) => number]> = [
    ["FullYear", (d, n) => d.setUTCFullYear(n[0], n[1] ?? d.getUTCMonth(), n[2] ?? d.getUTCDate())],
    ["Month", (d, n) => d.setUTCMonth(n[0], n[1] ?? d.getUTCDate())],
    ["Date", (d, n) => d.setUTCDate(n[0])],
    [
      "Hours",
      (d, n) =>
        d.setUTCHours(n[0], n[1] ?? d.getUTCMinutes(), n[2] ?? d.getUTCSeconds(), n[3] ?? d.getUTCMilliseconds()),
    ],
    ["Minutes", (d, n) => d.setUTCMinutes(n[0], n[1] ?? d.getUTCSeconds(), n[2] ?? d.getUTCMilliseconds())],
    ["Seconds", (d, n) => d.setUTCSeconds(n[0], n[1] ?? d.getUTCMilliseconds())],
    ["Milliseconds", (d, n) => d.setUTCMilliseconds(n[0])],
  ]
  /** The number of arguments each setter declares (its `length`). */
  const setterLength: Record<string, number> = {
    FullYear: 3,
    Month: 2,
    Date: 1,
    Hours: 4,
    Minutes: 3,
    Seconds: 2,
    Milliseconds: 1,
  }
  for (const [name, set] of setters) {
    for (const prefix of ["set", "setUTC"]) {
      defineMethod(proto, `${prefix}${name}`, setterLength[name], (t, a) => {
        let v = time(t)
        const n = a.map((x) => toNumber(x))
        if (Number.isNaN(v)) {
          if (name !== "FullYear") return NaN
          v = 0
        }
        const d = new Date(v)
        const r = timeClip(set(d, n.length === 0 ? [NaN] : n))
        t[SLOT] = r
        return r
      })
    }
  }
  defineMethod(proto, "setYear", 1, (t, a) => {
    let v = time(t)
    if (Number.isNaN(v)) v = 0
    const y = toNumber(arg(a, 0))
    if (Number.isNaN(y)) {
      t[SLOT] = NaN
      return NaN
    }
    const year = Math.trunc(y)
    const d = new Date(v)
    const r = timeClip(d.setUTCFullYear(year >= 0 && year <= 99 ? 1900 + year : year))
    t[SLOT] = r
    return r
  })
  defineMethod(proto, "setTime", 1, (t, a) => {
    time(t)
    const r = timeClip(toNumber(arg(a, 0)))
    t[SLOT] = r
    return r
  })
  const valid = (t: Value): Date => new Date(time(t))
  defineMethod(proto, "toISOString", 0, (t) => {
    const v = time(t)
    if (Number.isNaN(v)) return throwRangeError("Invalid time value")
    return new Date(v).toISOString()
  })
  defineMethod(proto, "toJSON", 1, (t) => {
    if (!isObject(t)) return throwTypeError("Date.prototype.toJSON called on non-object")
    const tv = toPrimitive(t, "number")
    if (typeof tv === "number" && !Number.isFinite(tv)) return null
    return callMethod(t, t.toISOString)
  })
  const text = (name: string, format: (d: Date) => string) =>
    defineMethod(proto, name, 0, (t) => {
      const d = valid(t)
      return Number.isNaN(d.getTime()) ? "Invalid Date" : format(d)
    })
  text("toString", (d) => `${dateString(d)} ${timeString(d)}`)
  text("toDateString", dateString)
  text("toTimeString", timeString)
  const toUTCString = text("toUTCString", (d) => d.toUTCString())
  defineValue(proto, "toGMTString", toUTCString)
  const localeText = (name: "toLocaleString" | "toLocaleDateString" | "toLocaleTimeString") =>
    defineMethod(proto, name, 0, (t, a) => {
      const d = valid(t)
      if (Number.isNaN(d.getTime())) return "Invalid Date"
      return d[name](localeOf(a[0]), { ...localeOptions(a[1], dateOptionKeys), timeZone: "UTC" })
    })
  localeText("toLocaleString")
  localeText("toLocaleDateString")
  localeText("toLocaleTimeString")
  const toPrimitiveMethod = defineMethod(proto, Symbol.toPrimitive, 1, (t, a) => {
    const hint = arg(a, 0)
    if (hint !== "default" && hint !== "string" && hint !== "number") return throwTypeError("Invalid hint")
    if (!isObject(t)) return throwTypeError("Date.prototype[Symbol.toPrimitive] called on non-object")
    const order = hint === "number" ? ["valueOf", "toString"] : ["toString", "valueOf"]
    for (const name of order) {
      const f = t[name]
      if (f !== undefined && f !== null) {
        const r = callMethod(t, f)
        if (!isObject(r)) return r
      }
    }
    return throwTypeError("Cannot convert object to primitive value")
  })
  Object.defineProperty(proto, Symbol.toPrimitive, {
    value: toPrimitiveMethod,
    writable: false,
    enumerable: false,
    configurable: true,
  })
  defineValue(proto, "constructor", ctor)
  realm.defineGlobal("Date", ctor)
}

const callMethod = (t: Value, f: Value): Value => call(f, t, [])
