/**
 * The utf8 library over byte strings: `char`, `charpattern`, `codepoint`, `len`, `offset`, `codes`, with Lua 5.4's
 * strict (default) and lax decoding.
 */
import { charge, checkStringLength, libError, MAX_RESULTS } from "../runtime.js"
import { LuaTable, type LuaFunction, type LuaValue } from "../value.js"
import { argError, checkInteger, checkPosition, checkString, optPosition } from "./args.js"

const MAX_UTF = 0x7fffffff
const MAX_UNICODE = 0x10ffff
const LIMITS = [Infinity, 0x80, 0x800, 0x10000, 0x200000, 0x4000000]

/** Decode the sequence at `i`: `[codepoint, index after it]`, or undefined when invalid. */
const decode = (s: string, i: number, strict: boolean): [number, number] | undefined => {
  let c = s.charCodeAt(i)
  if (c < 0x80) return [c, i + 1]
  let res = 0
  let count = 0
  for (; c & 0x40; c = (c << 1) & 0xff) {
    const cc = i + count + 1 < s.length ? s.charCodeAt(i + count + 1) : 0
    if ((cc & 0xc0) !== 0x80) return undefined
    count++
    res = res * 64 + (cc & 0x3f)
  }
  res += (c & 0x7f) * 2 ** (count * 5)
  if (count > 5 || res > MAX_UTF || res < LIMITS[count]) return undefined
  if (strict && (res > MAX_UNICODE || (res >= 0xd800 && res <= 0xdfff))) return undefined
  return [res, i + count + 1]
}

/** Encode one code point (up to 0x7FFFFFFF, as Lua does) as a byte string. */
export const encodeCodepoint = (x: number): string => {
  if (x < 0x80) return String.fromCharCode(x)
  const bytes: Array<number> = []
  let mfb = 0x3f
  let v = x
  do {
    bytes.push(0x80 | (v & 0x3f))
    v = Math.floor(v / 64)
    mfb >>= 1
  } while (v > mfb)
  bytes.push(((~mfb << 1) & 0xff) | v)
  return String.fromCharCode(...bytes.reverse())
}

const isCont = (s: string, i: number): boolean => i < s.length && (s.charCodeAt(i) & 0xc0) === 0x80

/** Lua's `u_posrelat`. */
const posrelat = (pos: number, len: number): number => (pos >= 0 ? pos : -pos > len ? 0 : len + pos + 1)

/** Build the utf8 library table. */
export const createUtf8Lib = (): LuaTable => {
  const U = new LuaTable()
  const def = (name: string, fn: LuaFunction) => U.setStr(name, fn)
  U.setStr("charpattern", "[\x00-\x7F\xC2-\xFD][\x80-\xBF]*")

  def("char", function (...codes: Array<LuaValue>) {
    charge(1 + codes.length * 2)
    let out = ""
    for (let i = 0; i < codes.length; i++) {
      const c = checkInteger(codes[i], i + 1, "utf8.char")
      if (c < 0 || c > MAX_UTF) throw argError(i + 1, "utf8.char", "value out of range")
      const piece = encodeCodepoint(Number(c))
      checkStringLength(out.length + piece.length)
      out += piece
    }
    return out
  })

  def("codepoint", function (s: LuaValue, i: LuaValue, j: LuaValue, lax: LuaValue) {
    const str = checkString(s, 1, "utf8.codepoint", arguments.length >= 1)
    const len = str.length
    const posi = posrelat(optPosition(i, 2, "utf8.codepoint", 1), len)
    const pose = posrelat(j === undefined ? posi : checkPosition(j, 3, "utf8.codepoint"), len)
    if (posi < 1) throw argError(2, "utf8.codepoint", "out of bounds")
    if (pose > len) throw argError(3, "utf8.codepoint", "out of bounds")
    if (posi > pose) return []
    if (pose - posi >= MAX_RESULTS) throw libError("stack overflow (string slice too long)")
    charge(1 + (pose - posi) * 2)
    const out: Array<LuaValue> = []
    for (let k = posi - 1; k < pose; ) {
      const d = decode(str, k, lax === undefined || lax === false)
      if (d === undefined) throw libError("invalid UTF-8 code")
      out.push(d[0])
      k = d[1]
    }
    return out.length === 1 ? out[0] : out
  })

  def("len", function (s: LuaValue, i: LuaValue, j: LuaValue, lax: LuaValue) {
    const str = checkString(s, 1, "utf8.len", arguments.length >= 1)
    const len = str.length
    let posi = posrelat(optPosition(i, 2, "utf8.len", 1), len)
    let posj = posrelat(optPosition(j, 3, "utf8.len", -1), len)
    if (!(1 <= posi && --posi <= len)) throw argError(2, "utf8.len", "initial position out of bounds")
    if (!(--posj < len)) throw argError(3, "utf8.len", "final position out of bounds")
    charge(1 + (posj - posi) * 2)
    let n = 0
    while (posi <= posj) {
      const d = decode(str, posi, lax === undefined || lax === false)
      if (d === undefined) return [undefined, posi + 1]
      posi = d[1]
      n++
    }
    return n
  })

  def("offset", function (s: LuaValue, nArg: LuaValue, i: LuaValue) {
    const str = checkString(s, 1, "utf8.offset", arguments.length >= 1)
    const len = str.length
    let n = checkPosition(nArg, 2, "utf8.offset", arguments.length >= 2)
    let posi = posrelat(optPosition(i, 3, "utf8.offset", n >= 0 ? 1 : len + 1), len)
    if (!(1 <= posi && --posi <= len)) throw argError(3, "utf8.offset", "position out of bounds")
    const from = posi
    if (n === 0) {
      while (posi > 0 && isCont(str, posi)) posi--
    } else {
      if (isCont(str, posi)) throw libError("initial position is a continuation byte")
      if (n < 0) {
        while (n < 0 && posi > 0) {
          do posi--
          while (posi > 0 && isCont(str, posi))
          n++
        }
      } else {
        n--
        while (n > 0 && posi < len) {
          do posi++
          while (isCont(str, posi))
          n--
        }
      }
    }
    charge(1 + Math.abs(posi - from))
    return n === 0 ? posi + 1 : undefined
  })

  const iterator = (strict: boolean): LuaFunction =>
    function (s: LuaValue, control: LuaValue) {
      const str = checkString(s, 1, "utf8.codes")
      const len = str.length
      let n = typeof control === "number" ? control : 0
      if (n < 0) return undefined
      while (n < len && isCont(str, n)) n++
      if (n >= len) return undefined
      const d = decode(str, n, strict)
      if (d === undefined || isCont(str, d[1])) throw libError("invalid UTF-8 code")
      return [n + 1, d[0]]
    }
  const strictIterator = iterator(true)
  const laxIterator = iterator(false)
  def("codes", function (s: LuaValue, lax: LuaValue) {
    const str = checkString(s, 1, "utf8.codes", arguments.length >= 1)
    if (isCont(str, 0)) throw argError(1, "utf8.codes", "invalid UTF-8 code")
    return [lax === undefined || lax === false ? strictIterator : laxIterator, str, 0]
  })

  return U
}
