/**
 * `string.pack`, `string.packsize` and `string.unpack` (Lua 5.4 §6.4.2), following PUC Lua's `lstrlib.c` step by
 * step: the same options, sizes (those of x86-64 Linux: `int` 4, `long` and `size_t` 8, native little-endian,
 * maximum alignment 8), alignment rules, checks and messages. Results are bounded by the string length bound.
 */
import { charge, checkStringLength, libError, MAX_RESULTS } from "../runtime.js"
import { makeFloat, normaliseInteger, type LuaValue } from "../value.js"
import { argError, checkDouble, checkInteger, checkString, optPosition } from "./args.js"

const MAX_INT_SIZE = 16
const NATIVE_ALIGN = 8
/** `MAXSIZE` of lstrlib.c on a 64-bit machine (the largest `size_t` that is also a `lua_Integer`). */
const MAX_SIZE = 0x7fffffffffffffffn

const enum K {
  Int,
  Uint,
  Float,
  Number,
  Double,
  Char,
  String,
  Zstr,
  Padding,
  PadAlign,
  Nop,
}

/** The state of reading a format: endianness, maximum alignment and position. */
interface Header {
  little: boolean
  maxAlign: number
  readonly fmt: string
  at: number
  readonly fname: string
}

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= "0" && c <= "9"

/** Read a decimal size at the current position, or `df` when there is none. */
const getNum = (h: Header, df: number): number => {
  if (!isDigit(h.fmt[h.at])) return df
  let a = 0
  do a = a * 10 + (h.fmt.charCodeAt(h.at++) - 48)
  while (isDigit(h.fmt[h.at]) && a <= (0x7fffffff - 9) / 10)
  return a
}

const getNumLimit = (h: Header, df: number): number => {
  const size = getNum(h, df)
  if (size > MAX_INT_SIZE || size <= 0) throw libError(`integral size (${size}) out of limits [1,${MAX_INT_SIZE}]`)
  return size
}

/** Read one option: its kind and size. */
const getOption = (h: Header): [K, number] => {
  const opt = h.fmt[h.at++]
  switch (opt) {
    case "b":
      return [K.Int, 1]
    case "B":
      return [K.Uint, 1]
    case "h":
      return [K.Int, 2]
    case "H":
      return [K.Uint, 2]
    case "l":
    case "j":
      return [K.Int, 8]
    case "L":
    case "J":
    case "T":
      return [K.Uint, 8]
    case "f":
      return [K.Float, 4]
    case "n":
      return [K.Number, 8]
    case "d":
      return [K.Double, 8]
    case "i":
      return [K.Int, getNumLimit(h, 4)]
    case "I":
      return [K.Uint, getNumLimit(h, 4)]
    case "s":
      return [K.String, getNumLimit(h, 8)]
    case "c": {
      const size = getNum(h, -1)
      if (size === -1) throw libError("missing size for format option 'c'")
      return [K.Char, size]
    }
    case "z":
      return [K.Zstr, 0]
    case "x":
      return [K.Padding, 1]
    case "X":
      return [K.PadAlign, 0]
    case " ":
      return [K.Nop, 0]
    case "<":
    case "=":
      h.little = true
      return [K.Nop, 0]
    case ">":
      h.little = false
      return [K.Nop, 0]
    case "!":
      h.maxAlign = getNumLimit(h, NATIVE_ALIGN)
      return [K.Nop, 0]
    default:
      throw libError(`invalid format option '${opt}'`)
  }
}

/** Read one option with the padding it needs at position `total`: `[kind, size, padding]`. */
const getDetails = (h: Header, total: number): [K, number, number] => {
  const [opt, size] = getOption(h)
  let align = size
  if (opt === K.PadAlign) {
    if (h.at >= h.fmt.length) throw argError(1, h.fname, "invalid next option for option 'X'")
    const [next, nextSize] = getOption(h)
    align = nextSize
    if (next === K.Char || align === 0) throw argError(1, h.fname, "invalid next option for option 'X'")
  }
  if (align <= 1 || opt === K.Char) return [opt, size, 0]
  if (align > h.maxAlign) align = h.maxAlign
  if ((align & (align - 1)) !== 0) throw argError(1, h.fname, "format asks for alignment not power of 2")
  return [opt, size, (align - (total & (align - 1))) & (align - 1)]
}

const header = (fmt: string, fname: string): Header => ({ little: true, maxAlign: 1, fmt, at: 0, fname })

/** The `size` bytes of the two's complement of `n` (sign-extended past 8 bytes), in the header's order. */
const intBytes = (n: bigint, size: number, little: boolean, negative: boolean): string => {
  let v = BigInt.asUintN(64, n)
  const bytes: Array<number> = []
  for (let i = 0; i < size; i++) {
    bytes.push(i < 8 ? Number(v & 0xffn) : negative ? 0xff : 0)
    if (i < 8) v >>= 8n
  }
  if (!little) bytes.reverse()
  return String.fromCharCode(...bytes)
}

const floatBytes = (x: number, size: 4 | 8, little: boolean): string => {
  const view = new DataView(new ArrayBuffer(size))
  if (size === 4) view.setFloat32(0, x, little)
  else view.setFloat64(0, x, little)
  let out = ""
  for (let i = 0; i < size; i++) out += String.fromCharCode(view.getUint8(i))
  return out
}

/** `string.pack(fmt, v1, v2, ...)`. */
export const pack = (fmtValue: LuaValue, args: ReadonlyArray<LuaValue>, present: boolean): string => {
  const h = header(checkString(fmtValue, 1, "string.pack", present), "string.pack")
  const pieces: Array<string> = []
  let total = 0
  let arg = 1
  const put = (piece: string) => {
    checkStringLength(total + piece.length)
    pieces.push(piece)
    total += piece.length
  }
  while (h.at < h.fmt.length) {
    const [opt, size, pad] = getDetails(h, total)
    if (pad > 0) put("\0".repeat(pad))
    arg++
    const v = args[arg - 2]
    // Lua's pack keeps a value on the stack after the arguments: a missing one is "nil", never "no value".
    const given = true
    switch (opt) {
      case K.Int: {
        const n = BigInt(checkInteger(v, arg, "string.pack", given))
        if (size < 8) {
          const lim = 1n << BigInt(size * 8 - 1)
          if (!(-lim <= n && n < lim)) throw argError(arg, "string.pack", "integer overflow")
        }
        put(intBytes(n, size, h.little, n < 0n))
        break
      }
      case K.Uint: {
        const n = BigInt(checkInteger(v, arg, "string.pack", given))
        if (size < 8 && !(BigInt.asUintN(64, n) < 1n << BigInt(size * 8)))
          throw argError(arg, "string.pack", "unsigned overflow")
        put(intBytes(n, size, h.little, false))
        break
      }
      case K.Float:
        put(floatBytes(checkDouble(v, arg, "string.pack", given), 4, h.little))
        break
      case K.Number:
      case K.Double:
        put(floatBytes(checkDouble(v, arg, "string.pack", given), 8, h.little))
        break
      case K.Char: {
        const s = checkString(v, arg, "string.pack", given)
        if (s.length > size) throw argError(arg, "string.pack", "string longer than given size")
        checkStringLength(total + size)
        put(s)
        if (size > s.length) put("\0".repeat(size - s.length))
        break
      }
      case K.String: {
        const s = checkString(v, arg, "string.pack", given)
        if (size < 8 && !(s.length < 2 ** (size * 8)))
          throw argError(arg, "string.pack", "string length does not fit in given size")
        put(intBytes(BigInt(s.length), size, h.little, false))
        put(s)
        break
      }
      case K.Zstr: {
        const s = checkString(v, arg, "string.pack", given)
        if (s.indexOf("\0") >= 0) throw argError(arg, "string.pack", "string contains zeros")
        put(s)
        put("\0")
        break
      }
      case K.Padding:
        put("\0")
        arg--
        break
      default:
        arg--
    }
  }
  charge(1 + total)
  return pieces.join("")
}

/** `string.packsize(fmt)`. */
export const packsize = (fmtValue: LuaValue, present: boolean): number | bigint => {
  const h = header(checkString(fmtValue, 1, "string.packsize", present), "string.packsize")
  let total = 0n
  while (h.at < h.fmt.length) {
    const [opt, size, pad] = getDetails(h, Number(total & 0xffn))
    if (opt === K.String || opt === K.Zstr) throw argError(1, "string.packsize", "variable-length format")
    const space = BigInt(size + pad)
    if (!(total <= MAX_SIZE - space)) throw argError(1, "string.packsize", "format result too large")
    total += space
  }
  return normaliseInteger(total)
}

const readInt = (data: string, at: number, little: boolean, size: number, signed: boolean): number | bigint => {
  const limit = Math.min(size, 8)
  let res = 0n
  for (let i = limit - 1; i >= 0; i--) res = (res << 8n) | BigInt(data.charCodeAt(at + (little ? i : size - 1 - i)))
  if (size < 8) {
    if (signed) {
      const mask = 1n << BigInt(size * 8 - 1)
      res = (res ^ mask) - mask
    }
  } else if (size > 8) {
    const mask = !signed || BigInt.asIntN(64, res) >= 0n ? 0 : 0xff
    for (let i = limit; i < size; i++)
      if (data.charCodeAt(at + (little ? i : size - 1 - i)) !== mask)
        throw libError(`${size}-byte integer does not fit into Lua Integer`)
  }
  return normaliseInteger(res)
}

/** `string.unpack(fmt, s, pos)`: the values, then the position after them. */
export const unpack = (fmtValue: LuaValue, s: LuaValue, init: LuaValue, n: number): Array<LuaValue> => {
  const h = header(checkString(fmtValue, 1, "string.unpack", n >= 1), "string.unpack")
  const data = checkString(s, 2, "string.unpack", n >= 2)
  const ld = data.length
  const start = optPosition(init, 3, "string.unpack", 1)
  let pos = (start > 0 ? start : start === 0 || start < -ld ? 1 : ld + start + 1) - 1
  if (pos > ld) throw argError(3, "string.unpack", "initial position out of string")
  const out: Array<LuaValue> = []
  while (h.at < h.fmt.length) {
    const [opt, size, pad] = getDetails(h, pos)
    if (pad + size > ld - pos) throw argError(2, "string.unpack", "data string too short")
    pos += pad
    if (out.length >= MAX_RESULTS) throw libError("stack overflow (too many results)")
    const view = () => {
      const b = new DataView(new ArrayBuffer(8))
      for (let i = 0; i < size; i++) b.setUint8(i, data.charCodeAt(pos + i))
      return b
    }
    switch (opt) {
      case K.Int:
      case K.Uint:
        out.push(readInt(data, pos, h.little, size, opt === K.Int))
        break
      case K.Float:
        out.push(makeFloat(view().getFloat32(0, h.little)))
        break
      case K.Number:
      case K.Double:
        out.push(makeFloat(view().getFloat64(0, h.little)))
        break
      case K.Char:
        out.push(data.slice(pos, pos + size))
        break
      case K.String: {
        const len = Number(readInt(data, pos, h.little, size, false))
        if (!(len >= 0 && len <= ld - pos - size)) throw argError(2, "string.unpack", "data string too short")
        out.push(data.slice(pos + size, pos + size + len))
        pos += len
        break
      }
      case K.Zstr: {
        const end = data.indexOf("\0", pos)
        if (end < 0) throw argError(2, "string.unpack", "unfinished string for format 'z'")
        out.push(data.slice(pos, end))
        pos = end + 1
        break
      }
      default:
        break
    }
    pos += size
  }
  charge(1 + pos)
  out.push(pos + 1)
  return out
}
