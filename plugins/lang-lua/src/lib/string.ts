/**
 * The string library. `find`, `match`, `gmatch`, `gsub` and `format` delegate to the pattern matcher and formatter
 * in `lstrings/`; the rest is here. Strings are byte strings; case mapping is ASCII-only (the C locale).
 */
import { find, FormatError, format, GmatchState, gsub, match, PatternError, type Capture } from "../lstrings/index.js"
import type { LuaNumberValue } from "../lstrings/index.js"
import { toNumeric } from "../numbers.js"
import { stringAddressOf, tostring } from "../ops.js"
import { isAscii } from "../utf8.js"
import { charge, checkStringLength, errorAt, libError, MAX_RESULTS, rt } from "../runtime.js"
import { EMPTY, LuaFloat, LuaTable, typeName, type LuaFunction, type LuaValue, shownType } from "../value.js"
import { argError, checkInteger, checkPosition, checkString, optPosition } from "./args.js"
import { pack, packsize, unpack } from "./pack.js"

/** The pattern matcher's meter: work is charged, results are bounded by the string length bound. */
const meter = { charge, checkLength: (length: number) => checkStringLength(length) }

/** A pattern or format operation's error `e` as the Lua error raised at the call site (other errors as they are). */
const translated = (e: unknown, fname: string, site: number): unknown => {
  if (e instanceof PatternError) return errorAt(e.message, site)
  if (e instanceof FormatError)
    return errorAt(rt.site < 0 ? e.message.replace(" to 'format' ", " to 'string.format' ") : e.message, site)
  if (e instanceof RangeError && /string length/i.test(e.message))
    return errorAt(`resulting string too large in '${fname}'`, site)
  return e
}

/** Run a pattern or format operation, turning its errors into Lua errors at the call site. */
const guarded = <T>(fname: string, site: number, op: () => T): T => {
  try {
    return op()
  } catch (e) {
    throw translated(e, fname, site)
  }
}

/** The bytes of `s` in reverse order, built a chunk of character codes at a time. */
const reverseBytes = (s: string): string => {
  const CHUNK = 8192
  const codes = new Array<number>(Math.min(CHUNK, s.length))
  let out = ""
  for (let end = s.length; end > 0; end -= CHUNK) {
    const n = Math.min(CHUNK, end)
    if (codes.length !== n) codes.length = n
    for (let k = 0; k < n; k++) codes[k] = s.charCodeAt(end - 1 - k)
    out += String.fromCharCode.apply(null, codes)
  }
  return out
}

/** Lua's translation of a relative string position (negative counts from the end). */
const startIndex = (i: number, len: number): number => (i > 0 ? i : i === 0 ? 1 : i < -len ? 1 : len + i + 1)
const endIndex = (j: number, len: number): number => (j > len ? len : j >= 0 ? j : j < -len ? 0 : len + j + 1)

const captureValue = (c: Capture): LuaValue => c

const formatAdapter = {
  toNumber(v: unknown): LuaNumberValue | null {
    const n = toNumeric(v as LuaValue)
    if (n === undefined) return null
    if (typeof n === "bigint") return { int: n }
    if (n instanceof LuaFloat) return { float: n.n }
    return Number.isSafeInteger(n) ? { int: n } : { float: n }
  },
  numeric(v: unknown): number | bigint | null {
    const n = typeof v === "number" ? v : toNumeric(v as LuaValue)
    return n === undefined ? null : n instanceof LuaFloat ? n.n : n
  },
  tostring: (v: unknown) => tostring(v as LuaValue),
  typeName: (v: unknown) => typeName(v as LuaValue),
  stringAddress: stringAddressOf,
  checkLength: (length: number) => checkStringLength(length),
}

/** Convert a `gsub` replacement result (from a table or function) to the replacement text. */
const replacementText = (v: LuaValue, site: number): string | null => {
  if (v === undefined || v === false) return null
  if (typeof v === "string") return v
  if (typeof v === "number" || typeof v === "bigint" || v instanceof LuaFloat) return tostring(v)
  throw errorAt(`invalid replacement value (a ${shownType(v)})`, site)
}

/** Build the string library table. */
export const createStringLib = (): LuaTable => {
  const S = new LuaTable()
  const def = (name: string, fn: LuaFunction) => S.setStr(name, fn)

  def("len", function (s: LuaValue) {
    return checkString(s, 1, "string.len", arguments.length >= 1).length
  })

  def("sub", function (s: LuaValue, i: LuaValue, j: LuaValue) {
    const str = checkString(s, 1, "string.sub", arguments.length >= 1)
    const len = str.length
    const a = startIndex(optPosition(i, 2, "string.sub", 1), len)
    const b = endIndex(optPosition(j, 3, "string.sub", -1), len)
    if (a > b) return ""
    // V8 shares the text of a long substring with its source instead of copying it
    charge(1 + ((b - a) >> 4))
    return str.slice(a - 1, b)
  })

  def("upper", function (s: LuaValue) {
    const str = checkString(s, 1, "string.upper", arguments.length >= 1)
    charge(1 + str.length)
    return isAscii(str)
      ? // JS case mapping equals the C locale's when there are no bytes >= 0x80
        str.toUpperCase()
      : str.replace(/[a-z]+/g, (m) => m.toUpperCase())
  })

  def("lower", function (s: LuaValue) {
    const str = checkString(s, 1, "string.lower", arguments.length >= 1)
    charge(1 + str.length)
    return isAscii(str)
      ? // JS case mapping equals the C locale's when there are no bytes >= 0x80
        str.toLowerCase()
      : str.replace(/[A-Z]+/g, (m) => m.toLowerCase())
  })

  def("rep", function (s: LuaValue, n: LuaValue, sep: LuaValue) {
    const str = checkString(s, 1, "string.rep", arguments.length >= 1)
    const count = checkPosition(n, 2, "string.rep", arguments.length >= 2)
    const separator = sep === undefined ? "" : checkString(sep, 3, "string.rep")
    if (count <= 0) return ""
    const total = str.length * count + separator.length * (count - 1)
    checkStringLength(total)
    charge(1 + total)
    if (separator.length === 0) return str.repeat(count)
    return (str + separator).repeat(count - 1) + str
  })

  def("reverse", function (s: LuaValue) {
    const str = checkString(s, 1, "string.reverse", arguments.length >= 1)
    charge(1 + str.length)
    return reverseBytes(str)
  })

  def("byte", function (s: LuaValue, i: LuaValue, j: LuaValue) {
    const str = checkString(s, 1, "string.byte", arguments.length >= 1)
    const len = str.length
    const pi = optPosition(i, 2, "string.byte", 1)
    const a = startIndex(pi, len)
    // The end defaults to the start as given, before it is made relative (so `byte(s, 0)` is empty, as in Lua).
    const b = endIndex(j === undefined ? pi : checkPosition(j, 3, "string.byte"), len)
    if (a > b) return []
    if (b - a >= MAX_RESULTS) throw libError("stack overflow (string slice too long)")
    if (a === b) return str.charCodeAt(a - 1)
    charge(1 + b - a)
    const out = new Array<LuaValue>(b - a + 1)
    for (let k = a; k <= b; k++) out[k - a] = str.charCodeAt(k - 1)
    return out
  })

  def("char", function (...codes: Array<LuaValue>) {
    checkStringLength(codes.length)
    charge(1 + codes.length)
    let out = ""
    for (let i = 0; i < codes.length; i++) {
      const c = checkInteger(codes[i], i + 1, "string.char")
      if (c < 0 || c > 255) throw argError(i + 1, "string.char", "value out of range")
      out += String.fromCharCode(Number(c))
    }
    return out
  })

  def("pack", function (fmt: LuaValue, ...args: Array<LuaValue>) {
    return pack(fmt, args, arguments.length >= 1)
  })

  def("packsize", function (fmt: LuaValue) {
    return packsize(fmt, arguments.length >= 1)
  })

  def("unpack", function (fmt: LuaValue, s: LuaValue, init: LuaValue) {
    return unpack(fmt, s, init, arguments.length)
  })

  def("format", function (fmt: LuaValue, ...args: Array<LuaValue>) {
    const site = rt.site
    const f = checkString(fmt, 1, "string.format", arguments.length >= 1)
    const out = guarded("format", site, () => format(f, args, formatAdapter))
    checkStringLength(out.length, site)
    charge(1 + f.length + out.length)
    return out
  })

  def("find", function (s: LuaValue, p: LuaValue, init: LuaValue, plain: LuaValue) {
    const site = rt.site
    const str = checkString(s, 1, "string.find", arguments.length >= 1)
    const pat = checkString(p, 2, "string.find", arguments.length >= 2)
    const i = init === undefined ? undefined : checkInteger(init, 3, "string.find")
    const r = guarded("find", site, () => find(str, pat, i, plain !== undefined && plain !== false, meter))
    if (r === null) return undefined
    return [r.start, r.end, ...r.captures.map(captureValue)]
  })

  def("match", function (s: LuaValue, p: LuaValue, init: LuaValue) {
    const site = rt.site
    const str = checkString(s, 1, "string.match", arguments.length >= 1)
    const pat = checkString(p, 2, "string.match", arguments.length >= 2)
    const i = init === undefined ? undefined : checkInteger(init, 3, "string.match")
    const r = guarded("match", site, () => match(str, pat, i, meter))
    if (r === null) return undefined
    return r.length === 1 ? r[0] : r
  })

  def("gmatch", function (s: LuaValue, p: LuaValue, init: LuaValue) {
    const site = rt.site
    const str = checkString(s, 1, "string.gmatch", arguments.length >= 1)
    const pat = checkString(p, 2, "string.gmatch", arguments.length >= 2)
    const i = init === undefined ? undefined : checkInteger(init, 3, "string.gmatch")
    const state = guarded("gmatch", site, () => new GmatchState(str, pat, meter, i))
    // A match of one value (one capture, or the whole match) is returned as itself, not in an array.
    return function () {
      try {
        if (!state.next()) return EMPTY
        return state.count() === 1 ? state.value(0) : state.values()
      } catch (e) {
        throw translated(e, "gmatch", rt.site)
      }
    }
  })

  def("gsub", function (s: LuaValue, p: LuaValue, repl: LuaValue, n: LuaValue) {
    const site = rt.site
    const str = checkString(s, 1, "string.gsub", arguments.length >= 1)
    const pat = checkString(p, 2, "string.gsub", arguments.length >= 2)
    const maxN = n === undefined ? undefined : checkInteger(n, 4, "string.gsub")
    let replacement: string | ((captures: Array<Capture>) => string | null)
    if (typeof repl === "string" || typeof repl === "number" || typeof repl === "bigint" || repl instanceof LuaFloat)
      replacement = checkString(repl, 3, "string.gsub")
    else if (repl instanceof LuaTable) {
      const t = repl
      replacement = (captures) => replacementText(t.get(captures[0]), site)
    } else if (typeof repl === "function") {
      const fn = repl
      let produced = 0
      replacement = (captures) => {
        const r = fn(...captures)
        rt.site = site
        const text = replacementText(Array.isArray(r) ? r[0] : r, site)
        if (text !== null) {
          produced += text.length
          checkStringLength(produced, site)
        }
        return text
      }
    } else
      throw argError(
        3,
        "string.gsub",
        `string/function/table expected, got ${arguments.length >= 3 ? shownType(repl) : "no value"}`,
      )
    const [out, count] = guarded("gsub", site, () => gsub(str, pat, replacement, maxN, meter))
    checkStringLength(out.length, site)
    // the matcher charged the scan; the result is written once more
    if (out !== str) charge(1 + out.length)
    return [out, count]
  })

  return S
}
