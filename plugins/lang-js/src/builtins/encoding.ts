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
  incompatibleReceiver,
} from "../runtime/functions.js"
import { BRAND, Brand, SLOT, brandOf } from "../runtime/internals.js"
import { getIteratorMethod, iterateToList } from "../runtime/iterators.js"
import { reserveElements } from "../runtime/memory.js"
import { charge } from "../runtime/meter.js"
import { toInteger, toNumber, toStr } from "../runtime/operators.js"
import type { Realm } from "../runtime/realm.js"
import { createArrayIterator } from "./iteration.js"
import { joinStrings } from "./joiner.js"

const typedArrayProto = Object.getPrototypeOf(Uint8Array.prototype) as object
const hostLength = Object.getOwnPropertyDescriptor(typedArrayProto, "length")!.get!
const hostBuffer = Object.getOwnPropertyDescriptor(typedArrayProto, "buffer")!.get!
const hostByteOffset = Object.getOwnPropertyDescriptor(typedArrayProto, "byteOffset")!.get!

/** The bytes as a host list (host iteration would look up the program's iterator). */
const bytesToList = (b: Uint8Array): number[] => {
  const out = new Array<number>(b.length)
  for (let i = 0; i < b.length; i++) out[i] = b[i]
  return out
}

/**
 * A host view of a program typed array's bytes (same buffer, the host's prototype): the host's slice and subarray
 * look up `constructor[Symbol.species]`, which on a program typed array is a program function.
 */
const hostView = (b: Uint8Array): Uint8Array =>
  new Uint8Array(hostBuffer.call(b) as ArrayBuffer, hostByteOffset.call(b) as number, hostLength.call(b) as number)

/** True when `v` is a program `Uint8Array`. */
export const isBytes = (v: Value): v is Uint8Array => ArrayBuffer.isView(v)

/** `ToIndex(v)`: a typed array length, a `RangeError` when negative or past 2 ** 53 - 1. */
const toIndex = (v: Value): number => {
  const n = v === undefined ? 0 : toInteger(v)
  if (n < 0 || n > Number.MAX_SAFE_INTEGER) throwRangeError(`Invalid typed array length: ${n}`)
  return n
}

/** The values of an array-like, read before a typed array is made of them (length checked first). */
const arrayLikeToList = (o: Value): Value[] => {
  const n = Math.min(Math.max(toInteger(o.length), 0), Number.MAX_SAFE_INTEGER)
  reserveElements(n)
  charge(n)
  const list = new Array(n)
  for (let i = 0; i < n; i++) list[i] = o[i]
  return list
}

/** The values a typed array is made of: iterated when the source is iterable, else read as an array-like. */
const sourceToList = (source: Value): Value[] => {
  if (source === undefined || source === null) return throwTypeError(`${source} is not iterable`)
  if (isBytes(source)) return bytesToList(source)
  if (getIteratorMethod(source, Symbol.iterator) !== undefined) return iterateToList(source)
  return isObject(source) ? arrayLikeToList(source) : []
}

/** The UTF-8 length of a string (lone surrogates become three-byte replacement characters). */
const utf8Length = (s: string): number => {
  let n = 0
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 0x80) n++
    else if (c < 0x800) n += 2
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1)
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4
        i++
      } else n += 3
    } else n += 3
  }
  return n
}

/** Install `Uint8Array`, `TextEncoder` and `TextDecoder`. */
export const installEncoding = (realm: Realm): void => {
  // %TypedArray%.prototype holds the methods (Uint8Array is the only typed array), Uint8Array.prototype inherits.
  const typedProto = realm.newObject()
  const proto = Object.create(typedProto)
  realm.Uint8ArrayProto = proto
  const adopt = (bytes: Uint8Array, target: Value = proto): Value => Object.setPrototypeOf(bytes, target)
  const fromList = (list: Value[]): Uint8Array => {
    reserveElements(list.length)
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
      if (!isObject(init)) {
        const n = toIndex(init)
        reserveElements(n, 1)
        charge(n)
        return adopt(new Uint8Array(n), target)
      }
      return adopt(fromList(sourceToList(init)), target)
    },
  )
  linkConstructor(ctor, proto)
  defineValue(ctor, "BYTES_PER_ELEMENT", 1, false)
  defineValue(proto, "BYTES_PER_ELEMENT", 1, false)
  const typedCtor = makeNative(
    "TypedArray",
    0,
    () => throwTypeError("Abstract class TypedArray not directly constructable"),
    () => throwTypeError("Abstract class TypedArray not directly constructable"),
  )
  linkConstructor(typedCtor, typedProto)
  Object.setPrototypeOf(ctor, typedCtor)
  defineBuiltinAccessor(typedCtor, Symbol.species, (t) => t)
  defineMethod(typedCtor, "from", 1, (_t, a) => {
    const fn = arg(a, 1)
    if (fn !== undefined && !isCallable(fn)) throwTypeError("Uint8Array.from: the mapping function is not a function")
    const list = sourceToList(arg(a, 0))
    const thisArg = arg(a, 2)
    if (fn !== undefined) for (let i = 0; i < list.length; i++) list[i] = call(fn, thisArg, [list[i], i])
    return adopt(fromList(list))
  })
  defineMethod(typedCtor, "of", 0, (_t, a) => adopt(fromList(a)))
  const bytes = (t: Value, what: string): Uint8Array => {
    if (!isBytes(t)) return incompatibleReceiver(`%TypedArray%.prototype.${what}`, t)
    return t
  }
  defineBuiltinAccessor(typedProto, "length", (t) => hostLength.call(bytes(t, "length")))
  defineBuiltinAccessor(typedProto, "byteLength", (t) => hostLength.call(bytes(t, "byteLength")))
  defineMethod(typedProto, "at", 1, (t, a) => {
    const b = bytes(t, "at")
    let i = toInteger(arg(a, 0))
    if (i < 0) i += b.length
    return i < 0 || i >= b.length ? undefined : b[i]
  })
  defineMethod(typedProto, "slice", 2, (t, a) => {
    const b = bytes(t, "slice")
    charge(b.length)
    return adopt(
      hostView(b).slice(a[0] === undefined ? 0 : toInteger(a[0]), a[1] === undefined ? undefined : toInteger(a[1])),
    )
  })
  defineMethod(typedProto, "subarray", 2, (t, a) => {
    const b = bytes(t, "subarray")
    return adopt(
      hostView(b).subarray(a[0] === undefined ? 0 : toInteger(a[0]), a[1] === undefined ? undefined : toInteger(a[1])),
    )
  })
  defineMethod(typedProto, "fill", 1, (t, a) => {
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
  defineMethod(typedProto, "set", 1, (t, a) => {
    const b = bytes(t, "set")
    const src = arg(a, 0)
    const offset = a[1] === undefined ? 0 : toInteger(a[1])
    if (offset < 0) throwRangeError("offset is out of bounds")
    if (src === undefined || src === null) return throwTypeError(`Cannot convert ${src} to object`)
    // A primitive source reads as its wrapper would: a string's characters, nothing for anything else.
    const source = isObject(src) ? src : typeof src === "string" ? src : { length: 0 }
    const length = isBytes(source) ? source.length : Math.max(toInteger((source as Value).length), 0)
    if (offset + length > b.length) throwRangeError("offset is out of bounds")
    const list = isBytes(source) ? bytesToList(source) : arrayLikeToList(source)
    charge(list.length)
    Uint8Array.prototype.set.call(
      b,
      list.map((v) => toNumber(v)),
      offset,
    )
    return undefined
  })
  defineMethod(typedProto, "indexOf", 1, (t, a) => {
    const b = bytes(t, "indexOf")
    charge(b.length)
    return Uint8Array.prototype.indexOf.call(b, toNumber(arg(a, 0)))
  })
  defineMethod(typedProto, "includes", 1, (t, a) => {
    const b = bytes(t, "includes")
    charge(b.length)
    return Uint8Array.prototype.includes.call(b, toNumber(arg(a, 0)))
  })
  const join = (b: Uint8Array, separator: string): string => joinStrings(b.length, separator, (i) => String(b[i]))
  defineMethod(typedProto, "join", 1, (t, a) => join(bytes(t, "join"), a[0] === undefined ? "," : toStr(a[0])))
  defineMethod(typedProto, "toString", 0, (t) => join(bytes(t, "toString"), ","))
  const each = (name: string, body: (b: Uint8Array, fn: Value, thisArg: Value) => Value) =>
    defineMethod(typedProto, name, 1, (t, a) => {
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
  defineMethod(typedProto, "keys", 0, (t) => createArrayIterator(realm, bytes(t, "keys"), "keys"))
  defineMethod(typedProto, "entries", 0, (t) => createArrayIterator(realm, bytes(t, "entries"), "entries"))
  const values = defineMethod(typedProto, "values", 0, (t) => createArrayIterator(realm, bytes(t, "values"), "values"))
  defineValue(typedProto, Symbol.iterator, values)
  defineBuiltinAccessor(typedProto, Symbol.toStringTag, (t) => (isBytes(t) ? "Uint8Array" : undefined))
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
    charge(1 + s.length)
    if (s.length * 3 > MAX_ARRAY_LENGTH) reserveElements(utf8Length(s), 1)
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
    if (!isObject(t) || brandOf(t) !== Brand.TextDecoder)
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
    charge(1 + b.length)
    return d.decode(b)
  })
  defineBuiltinAccessor(decoderProto, "encoding", (t) => decoder(t).encoding)
  realm.defineGlobal("TextDecoder", decoderCtor)
}
