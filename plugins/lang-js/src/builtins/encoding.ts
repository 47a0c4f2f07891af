/**
 * `TextEncoder`, `TextDecoder` and the `Uint8Array` they use. A program `Uint8Array` is a host typed array whose
 * prototype is the realm's `Uint8Array.prototype`; its buffer is never exposed (there is no `ArrayBuffer`).
 */
import { MAX_ARRAY_LENGTH } from "../limits.js"
import { throwRangeError, throwTypeError } from "../runtime/errors.js"
import {
  arg,
  call,
  defineBuiltinAccessor,
  defineMethod,
  defineValue,
  isCallable,
  isObject,
  linkConstructor,
  makeNative,
  type Value,
} from "../runtime/functions.js"
import { BRAND, Brand, SLOT } from "../runtime/internals.js"
import { iterateToList } from "../runtime/iterators.js"
import { charge } from "../runtime/meter.js"
import { toInteger, toNumber, toStr } from "../runtime/operators.js"
import { arrayTooLong } from "../runtime/properties.js"
import type { Realm } from "../runtime/realm.js"
import { createArrayIterator } from "./iteration.js"

const typedArrayProto = Object.getPrototypeOf(Uint8Array.prototype) as object
const hostLength = Object.getOwnPropertyDescriptor(typedArrayProto, "length")!.get!

/** The bytes as a host list (host iteration would look up the program's iterator). */
const bytesToList = (b: Uint8Array): number[] => {
  const out = new Array<number>(b.length)
  for (let i = 0; i < b.length; i++) out[i] = b[i]
  return out
}

/** True when `v` is a program `Uint8Array`. */
export const isBytes = (v: Value): v is Uint8Array => ArrayBuffer.isView(v)

/** Install `Uint8Array`, `TextEncoder` and `TextDecoder`. */
export const installEncoding = (realm: Realm): void => {
  const proto = realm.newObject()
  realm.Uint8ArrayProto = proto
  const adopt = (bytes: Uint8Array, target: Value = proto): Value => Object.setPrototypeOf(bytes, target)
  const fromList = (list: Value[]): Uint8Array => {
    if (list.length > MAX_ARRAY_LENGTH) arrayTooLong(list.length)
    charge(list.length)
    const out = new Uint8Array(list.length)
    for (let i = 0; i < list.length; i++) out[i] = toNumber(list[i])
    return out
  }
  const ctor = makeNative(
    "Uint8Array",
    3,
    () => throwTypeError("Constructor Uint8Array requires 'new'"),
    (a, nt) => {
      const init = arg(a, 0)
      const target = isObject(nt.prototype) ? nt.prototype : proto
      if (init === undefined || typeof init === "number") {
        const n = init === undefined ? 0 : toInteger(init)
        if (n < 0) throwRangeError(`Invalid typed array length: ${n}`)
        if (n > MAX_ARRAY_LENGTH) arrayTooLong(n)
        charge(n)
        return adopt(new Uint8Array(n), target)
      }
      if (isBytes(init)) return adopt(fromList(bytesToList(init)), target)
      if (isObject(init) && init[Symbol.iterator] !== undefined) return adopt(fromList(iterateToList(init)), target)
      if (isObject(init)) {
        const n = toInteger(init.length)
        const list: Value[] = []
        for (let i = 0; i < n; i++) list.push(init[i])
        return adopt(fromList(list), target)
      }
      return throwTypeError("Uint8Array needs a length, an array or an iterable")
    },
  )
  linkConstructor(ctor, proto)
  defineValue(ctor, "BYTES_PER_ELEMENT", 1, false)
  defineValue(proto, "BYTES_PER_ELEMENT", 1, false)
  defineMethod(ctor, "from", 1, (_t, a) => {
    const list = iterateToList(arg(a, 0))
    const fn = arg(a, 1)
    return adopt(fromList(isCallable(fn) ? list.map((v, i) => call(fn, undefined, [v, i])) : list))
  })
  defineMethod(ctor, "of", 0, (_t, a) => adopt(fromList(a)))
  const bytes = (t: Value, what: string): Uint8Array => {
    if (!isBytes(t)) return throwTypeError(`Uint8Array.prototype.${what} called on an incompatible receiver`)
    return t
  }
  defineBuiltinAccessor(proto, "length", (t) => hostLength.call(bytes(t, "length")))
  defineBuiltinAccessor(proto, "byteLength", (t) => hostLength.call(bytes(t, "byteLength")))
  defineMethod(proto, "at", 1, (t, a) => {
    const b = bytes(t, "at")
    let i = toInteger(arg(a, 0))
    if (i < 0) i += b.length
    return i < 0 || i >= b.length ? undefined : b[i]
  })
  defineMethod(proto, "slice", 2, (t, a) => {
    const b = bytes(t, "slice")
    charge(b.length)
    return adopt(
      Uint8Array.prototype.slice.call(
        b,
        a[0] === undefined ? 0 : toInteger(a[0]),
        a[1] === undefined ? undefined : toInteger(a[1]),
      ),
    )
  })
  defineMethod(proto, "subarray", 2, (t, a) => {
    const b = bytes(t, "subarray")
    return adopt(
      Uint8Array.prototype.subarray.call(
        b,
        a[0] === undefined ? 0 : toInteger(a[0]),
        a[1] === undefined ? undefined : toInteger(a[1]),
      ),
    )
  })
  defineMethod(proto, "fill", 1, (t, a) => {
    const b = bytes(t, "fill")
    charge(b.length)
    Uint8Array.prototype.fill.call(
      b,
      toNumber(arg(a, 0)),
      a[1] === undefined ? 0 : toInteger(a[1]),
      a[2] === undefined ? undefined : toInteger(a[2]),
    )
    return t
  })
  defineMethod(proto, "set", 1, (t, a) => {
    const b = bytes(t, "set")
    const src = arg(a, 0)
    const list = isBytes(src) ? bytesToList(src) : iterateToList(src)
    charge(list.length)
    Uint8Array.prototype.set.call(
      b,
      list.map((v) => toNumber(v)),
      a[1] === undefined ? 0 : toInteger(a[1]),
    )
    return undefined
  })
  defineMethod(proto, "indexOf", 1, (t, a) =>
    Uint8Array.prototype.indexOf.call(bytes(t, "indexOf"), toNumber(arg(a, 0))),
  )
  defineMethod(proto, "includes", 1, (t, a) =>
    Uint8Array.prototype.includes.call(bytes(t, "includes"), toNumber(arg(a, 0))),
  )
  defineMethod(proto, "join", 1, (t, a) => {
    const b = bytes(t, "join")
    charge(b.length)
    return bytesToList(b).join(a[0] === undefined ? "," : toStr(a[0]))
  })
  defineMethod(proto, "toString", 0, (t) => bytesToList(bytes(t, "toString")).join(","))
  const each = (name: string, body: (b: Uint8Array, fn: Value, thisArg: Value) => Value) =>
    defineMethod(proto, name, 1, (t, a) => {
      const b = bytes(t, name)
      const fn = arg(a, 0)
      if (!isCallable(fn)) throwTypeError(`Uint8Array.prototype.${name}: the callback is not a function`)
      return body(b, fn, arg(a, 1))
    })
  each("forEach", (b, fn, thisArg) => {
    for (let i = 0; i < b.length; i++) call(fn, thisArg, [b[i], i, b])
    return undefined
  })
  each("map", (b, fn, thisArg) => {
    const out = new Uint8Array(b.length)
    for (let i = 0; i < b.length; i++) out[i] = toNumber(call(fn, thisArg, [b[i], i, b]))
    return adopt(out)
  })
  each("some", (b, fn, thisArg) => {
    for (let i = 0; i < b.length; i++) if (call(fn, thisArg, [b[i], i, b])) return true
    return false
  })
  each("every", (b, fn, thisArg) => {
    for (let i = 0; i < b.length; i++) if (!call(fn, thisArg, [b[i], i, b])) return false
    return true
  })
  defineMethod(proto, "keys", 0, (t) => createArrayIterator(realm, bytes(t, "keys"), "keys"))
  defineMethod(proto, "entries", 0, (t) => createArrayIterator(realm, bytes(t, "entries"), "entries"))
  const values = defineMethod(proto, "values", 0, (t) => createArrayIterator(realm, bytes(t, "values"), "values"))
  defineValue(proto, Symbol.iterator, values)
  defineValue(proto, Symbol.toStringTag, "Uint8Array", false)
  realm.defineGlobal("Uint8Array", ctor)

  const encoderProto = realm.newObject()
  const encoderCtor = makeNative(
    "TextEncoder",
    0,
    () => throwTypeError("Constructor TextEncoder requires 'new'"),
    (_a, nt) => {
      const o = Object.create(isObject(nt.prototype) ? nt.prototype : encoderProto)
      o[BRAND] = Brand.TextEncoder
      return o
    },
  )
  linkConstructor(encoderCtor, encoderProto)
  const encoder = new TextEncoder()
  defineMethod(encoderProto, "encode", 1, (_t, a) => {
    const s = a[0] === undefined ? "" : toStr(a[0])
    charge(1 + (s.length >> 4))
    return adopt(encoder.encode(s))
  })
  defineBuiltinAccessor(encoderProto, "encoding", () => "utf-8")
  realm.defineGlobal("TextEncoder", encoderCtor)

  const decoderProto = realm.newObject()
  const decoderCtor = makeNative(
    "TextDecoder",
    0,
    () => throwTypeError("Constructor TextDecoder requires 'new'"),
    (a, nt) => {
      const options = arg(a, 1)
      const host = new TextDecoder(a[0] === undefined ? "utf-8" : toStr(a[0]), {
        fatal: isObject(options) ? !!options.fatal : false,
        ignoreBOM: isObject(options) ? !!options.ignoreBOM : false,
      })
      const o = Object.create(isObject(nt.prototype) ? nt.prototype : decoderProto)
      o[SLOT] = host
      o[BRAND] = Brand.TextDecoder
      return o
    },
  )
  linkConstructor(decoderCtor, decoderProto)
  const decoder = (t: Value): InstanceType<typeof TextDecoder> => {
    if (!isObject(t) || t[BRAND] !== Brand.TextDecoder)
      return throwTypeError("TextDecoder.prototype.decode called on an incompatible receiver")
    return t[SLOT] as InstanceType<typeof TextDecoder>
  }
  defineMethod(decoderProto, "decode", 1, (t, a) => {
    const d = decoder(t)
    const input = arg(a, 0)
    if (input === undefined) return d.decode()
    const b = isBytes(input)
      ? input
      : Array.isArray(input)
        ? fromList(input)
        : throwTypeError("TextDecoder.decode needs a Uint8Array")
    charge(1 + (b.length >> 4))
    return d.decode(b)
  })
  defineBuiltinAccessor(decoderProto, "encoding", (t) => decoder(t).encoding)
  realm.defineGlobal("TextDecoder", decoderCtor)
}
