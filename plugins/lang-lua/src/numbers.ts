/**
 * Lua 5.4 number semantics on the value representation of `value.ts`: the general (slow) paths of arithmetic,
 * bitwise operators and comparisons, string ↔ number conversion, and integer/float conversions. Compiled code
 * handles the common cases inline and calls here for everything else.
 */
import { floatMod, floatPow, scaleToDouble } from "./floats.js"
import { formatFloat14g } from "./lstrings/numfmt.js"
import { chargeAt, errorAt } from "./runtime.js"
import { floatToInteger, LuaFloat, makeFloat, normaliseInteger, type LuaValue, shownType } from "./value.js"

/** A Lua number in any representation. */
export type LuaNumber = number | bigint | LuaFloat

/** Binary and unary arithmetic operators, in the order of {@link opNames}. */
export const enum Op {
  Add,
  Sub,
  Mul,
  Mod,
  Pow,
  Div,
  IDiv,
  BAnd,
  BOr,
  BXor,
  Shl,
  Shr,
  Unm,
  BNot,
}

/** The event names Lua uses in "attempt to add a 'string' with a 'nil'". */
const opNames = ["add", "sub", "mul", "mod", "pow", "div", "idiv", "band", "bor", "bxor", "shl", "shr", "unm", "bnot"]

const WHITESPACE = /^[ \t\n\v\f\r]+|[ \t\n\v\f\r]+$/g
const DECIMAL_INT = /^[+-]?[0-9]+$/
const DECIMAL_FLOAT = /^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/
const HEX_INT = /^([+-]?)0[xX]([0-9a-fA-F]+)$/
const HEX_FLOAT = /^([+-]?)0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?(?:[pP]([+-]?[0-9]+))?$/

/**
 * Convert a string to a number the way Lua's `luaO_str2num` does: decimal and hexadecimal integers (hexadecimal ones
 * wrap around; decimal ones too large for 64 bits become floats), decimal and hexadecimal floats, surrounding
 * whitespace allowed. Returns `undefined` when the string is not a numeral.
 */
export const stringToNumber = (s: string): LuaNumber | undefined => {
  const t = s.replace(WHITESPACE, "")
  if (t.length === 0) return undefined
  if (DECIMAL_INT.test(t)) {
    const n = Number(t)
    if (Number.isSafeInteger(n)) return n === 0 ? 0 : n
    const b = BigInt(t)
    if (b >= -0x8000000000000000n && b <= 0x7fffffffffffffffn) return normaliseInteger(b)
    return makeFloat(n)
  }
  if (DECIMAL_FLOAT.test(t)) return makeFloat(Number(t))
  let m = HEX_INT.exec(t)
  if (m !== null) {
    const b = BigInt("0x" + m[2])
    return normaliseInteger(m[1] === "-" ? -b : b)
  }
  m = HEX_FLOAT.exec(t)
  if (m !== null && (m[2].length > 0 || (m[3] !== undefined && m[3].length > 0))) {
    const v = hexFloat(m[2], m[3] ?? "", m[4])
    return makeFloat(m[1] === "-" ? -v : v)
  }
  return undefined
}

/**
 * A hexadecimal float from its integer digits, fraction digits and binary exponent, rounded once as C's `strtod`
 * does: at most 32 significant digits are kept, the rest fold into a sticky bit.
 */
const hexFloat = (int: string, frac: string, exp: string | undefined): number => {
  let digits = (int + frac).replace(/^0+/, "")
  let e = -4 * frac.length + (exp === undefined ? 0 : Math.max(-100000, Math.min(100000, Number(exp))))
  if (digits.length === 0) return 0
  let sticky = 0n
  if (digits.length > 32) {
    if (/[^0]/.test(digits.slice(32))) sticky = 1n
    e += 4 * (digits.length - 32)
    digits = digits.slice(0, 32)
  }
  const n = (BigInt("0x" + digits) << 1n) | sticky
  return scaleToDouble(n, e - 1)
}

/** `tostring` of a number: integers in decimal, floats with `%.14g` (and `.0` when they look like integers). */
export const numberToString = (v: LuaNumber): string => {
  if (typeof v === "number") return Number.isSafeInteger(v) ? String(v) : formatFloat14g(v)
  if (typeof v === "bigint") return String(v)
  return formatFloat14g(v.n)
}

/** The value of a number or numeric string, or `undefined` (Lua's `tonumber` coercion for arithmetic). */
export const toNumeric = (v: LuaValue): LuaNumber | undefined => {
  if (typeof v === "number" || typeof v === "bigint" || v instanceof LuaFloat) return v
  if (typeof v === "string") return stringToNumber(v)
  return undefined
}

/** True when `v` is an integer in either representation. */
const isInt = (v: LuaNumber): v is number | bigint =>
  typeof v === "bigint" || (typeof v === "number" && Number.isSafeInteger(v))

/** The double value of a number. */
const dbl = (v: LuaNumber): number => (typeof v === "number" ? v : typeof v === "bigint" ? Number(v) : v.n)

/** Integer addition with 64-bit wrap-around. */
export const intAdd = (a: number | bigint, b: number | bigint): number | bigint => {
  if (typeof a === "number" && typeof b === "number") {
    const r = a + b
    if (Number.isSafeInteger(r)) return r
  }
  return normaliseInteger(BigInt(a) + BigInt(b))
}

/** Integer subtraction with 64-bit wrap-around. */
export const intSub = (a: number | bigint, b: number | bigint): number | bigint => {
  if (typeof a === "number" && typeof b === "number") {
    const r = a - b
    if (Number.isSafeInteger(r)) return r
  }
  return normaliseInteger(BigInt(a) - BigInt(b))
}

/** Integer multiplication with 64-bit wrap-around. */
export const intMul = (a: number | bigint, b: number | bigint): number | bigint => {
  if (typeof a === "number" && typeof b === "number") {
    const r = a * b
    if (Number.isSafeInteger(r)) return r === 0 ? 0 : r
  }
  return normaliseInteger(BigInt(a) * BigInt(b))
}

/** Floor division of integers (`b` nonzero). */
export const intIDiv = (a: number | bigint, b: number | bigint): number | bigint => {
  if (typeof a === "number" && typeof b === "number") {
    const r = a % b
    let q = (a - r) / b
    if (r !== 0 && r < 0 !== b < 0) q -= 1
    return q === 0 ? 0 : q
  }
  const x = BigInt(a)
  const y = BigInt(b)
  let q = x / y
  if (x % y !== 0n && x < 0n !== y < 0n) q -= 1n
  return normaliseInteger(q)
}

/** Modulo of integers with the sign of the divisor (`b` nonzero). */
export const intMod = (a: number | bigint, b: number | bigint): number | bigint => {
  if (typeof a === "number" && typeof b === "number") {
    const r = a % b
    if (r === 0) return 0
    return r < 0 !== b < 0 ? r + b : r
  }
  const x = BigInt(a)
  const y = BigInt(b)
  const r = x % y
  return normaliseInteger(r !== 0n && r < 0n !== y < 0n ? r + y : r)
}

/** Convert a number to an integer for bitwise operators, or throw "number has no integer representation". */
const bitOperand = (v: LuaNumber, site: number, desc: string): number | bigint => {
  if (typeof v === "number" && Number.isSafeInteger(v)) return v
  if (typeof v === "bigint") return v
  const i = floatToInteger(typeof v === "number" ? v : v.n)
  if (i === undefined) throw errorAt(`number${desc} has no integer representation`, site)
  return i
}

const INT32_MIN = -0x80000000
const INT32_MAX = 0x7fffffff
const isInt32 = (v: number | bigint): v is number => typeof v === "number" && v >= INT32_MIN && v <= INT32_MAX

/** Logical shift left of a 64-bit integer (negative shifts go right). */
export const shiftLeft = (a: number | bigint, n: number | bigint): number | bigint => {
  if (typeof n === "bigint" || n <= -64 || n >= 64) return 0
  if (n < 0) return shiftRight(a, -n)
  if (typeof a === "number") {
    const r = a * Math.pow(2, n)
    if (Number.isSafeInteger(r)) return r === 0 ? 0 : r
  }
  return normaliseInteger(BigInt(a) << BigInt(n))
}

/** Logical (unsigned) shift right of a 64-bit integer (negative shifts go left). */
export const shiftRight = (a: number | bigint, n: number | bigint): number | bigint => {
  if (typeof n === "bigint" || n <= -64 || n >= 64) return 0
  if (n < 0) return shiftLeft(a, -n)
  if (typeof a === "number" && a >= 0) return Math.floor(a / Math.pow(2, n))
  return normaliseInteger(BigInt.asUintN(64, BigInt(a)) >> BigInt(n))
}

/** Integer bitwise operation. */
const bitwise = (op: Op, a: number | bigint, b: number | bigint): number | bigint => {
  switch (op) {
    case Op.BAnd:
      return isInt32(a) && isInt32(b) ? a & b : normaliseInteger(BigInt(a) & BigInt(b))
    case Op.BOr:
      return isInt32(a) && isInt32(b) ? a | b : normaliseInteger(BigInt(a) | BigInt(b))
    case Op.BXor:
      return isInt32(a) && isInt32(b) ? a ^ b : normaliseInteger(BigInt(a) ^ BigInt(b))
    case Op.Shl:
      return shiftLeft(a, b)
    case Op.Shr:
      return shiftRight(a, b)
    default:
      return isInt32(a) ? ~a : normaliseInteger(~BigInt(a))
  }
}

/** Arithmetic on two numbers already known to be numbers. */
/** True for the bitwise operators. */
const isBitwise = (op: Op): boolean => (op >= Op.BAnd && op <= Op.Shr) || op === Op.BNot

export const arithNumbers = (op: Op, a: LuaNumber, b: LuaNumber, site: number, descA = "", descB = ""): LuaValue => {
  if (isBitwise(op)) return bitwise(op, bitOperand(a, site, descA), bitOperand(b, site, descB))
  if (op !== Op.Pow && op !== Op.Div && isInt(a) && isInt(b)) {
    switch (op) {
      case Op.Add:
        return intAdd(a, b)
      case Op.Sub:
        return intSub(a, b)
      case Op.Mul:
        return intMul(a, b)
      case Op.Mod:
        if (b === 0) throw errorAt("attempt to perform 'n%0'", site)
        return intMod(a, b)
      case Op.IDiv:
        if (b === 0) throw errorAt("attempt to divide by zero", site)
        return intIDiv(a, b)
      case Op.Unm:
        return intSub(0, a)
    }
  }
  const x = dbl(a)
  const y = dbl(b)
  switch (op) {
    case Op.Add:
      return makeFloat(x + y)
    case Op.Sub:
      return makeFloat(x - y)
    case Op.Mul:
      return makeFloat(x * y)
    case Op.Div:
      return makeFloat(x / y)
    case Op.Mod:
      return makeFloat(floatMod(x, y))
    case Op.Pow:
      return makeFloat(floatPow(x, y))
    case Op.IDiv:
      return makeFloat(Math.floor(x / y))
    default:
      return makeFloat(-x)
  }
}

/**
 * The general path of every arithmetic and bitwise operator, with Lua's string coercion and error messages.
 * `descA`/`descB` name the operands for messages (`" (local 'x')"`, or "").
 */
export const arith = (op: Op, a: LuaValue, b: LuaValue, site: number, descA = "", descB = ""): LuaValue => {
  const bitwiseOp = isBitwise(op)
  const isNum = (v: LuaValue) => typeof v === "number" || typeof v === "bigint" || v instanceof LuaFloat
  if (isNum(a) && isNum(b)) return arithNumbers(op, a as LuaNumber, b as LuaNumber, site, descA, descB)
  if (!bitwiseOp && (typeof a === "string" || typeof b === "string")) {
    const x = toNumeric(a)
    const y = toNumeric(b)
    // Lua does arithmetic on strings in the string library's metamethods: their errors (`'n%%0'`) carry no position.
    if (x !== undefined && y !== undefined) return arithNumbers(op, x, y, -Math.abs(site))
    throw errorAt(`attempt to ${opNames[op]} a '${shownType(a)}' with a '${shownType(b)}'`, site)
  }
  const badFirst = !isNum(a)
  const bad = badFirst ? a : b
  const desc = badFirst ? descA : descB
  const what = bitwiseOp ? "perform bitwise operation on" : "perform arithmetic on"
  throw errorAt(`attempt to ${what} a ${shownType(bad)} value${desc}`, site)
}

/**
 * The general path of `<`. `site` locates errors; a negative site marks a comparison made by a library function
 * (such as `table.sort`), whose errors carry no position prefix, as in Lua.
 */
export const lessThan = (a: LuaValue, b: LuaValue, site: number): boolean => {
  const x = a instanceof LuaFloat ? a.n : a
  const y = b instanceof LuaFloat ? b.n : b
  if ((typeof x === "number" || typeof x === "bigint") && (typeof y === "number" || typeof y === "bigint")) return x < y
  if (typeof x === "string" && typeof y === "string") return chargeCompare(x, y, site) && x < y
  throw compareError(a, b, site)
}

/** Charge the bytes comparing two long strings may read (true, to chain in a condition). */
const chargeCompare = (x: string, y: string, site: number): boolean => {
  if (x.length > 256 && y.length > 256) chargeAt(Math.min(x.length, y.length) >> 4, Math.abs(site))
  return true
}

/** The general path of `<=`. */
export const lessEqual = (a: LuaValue, b: LuaValue, site: number): boolean => {
  const x = a instanceof LuaFloat ? a.n : a
  const y = b instanceof LuaFloat ? b.n : b
  if ((typeof x === "number" || typeof x === "bigint") && (typeof y === "number" || typeof y === "bigint"))
    return x <= y
  if (typeof x === "string" && typeof y === "string") return chargeCompare(x, y, site) && x <= y
  throw compareError(a, b, site)
}

const compareError = (a: LuaValue, b: LuaValue, site: number) => {
  const ta = shownType(a)
  const tb = shownType(b)
  const message = ta === tb ? `attempt to compare two ${ta} values` : `attempt to compare ${ta} with ${tb}`
  return errorAt(message, site)
}

/** Raw equality (`==` without metamethods), for values that are not `===`. */
export const equalSlow = (a: LuaValue, b: LuaValue): boolean => {
  const x = a instanceof LuaFloat ? a.n : a
  const y = b instanceof LuaFloat ? b.n : b
  if ((typeof x === "number" || typeof x === "bigint") && (typeof y === "number" || typeof y === "bigint"))
    // eslint-disable-next-line eqeqeq
    return x == y
  return false
}

/** Lua equality of any two values. */
export const luaEquals = (a: LuaValue, b: LuaValue): boolean => a === b || equalSlow(a, b)

/**
 * Normalise a table key: integral floats become integers. Returns `undefined` for a NaN key (the caller raises the
 * error) and leaves other values alone.
 */
export const normaliseKey = (k: LuaValue): LuaValue => {
  if (typeof k === "number") {
    if (Number.isSafeInteger(k) || Number.isNaN(k)) return k === 0 ? 0 : k
    const i = floatToInteger(k)
    return i === undefined ? k : i
  }
  if (k instanceof LuaFloat) return k.n === 0 ? 0 : k.n
  return k
}

/** Convert a value to an integer if it has an exact integer value (numbers and numeric strings), else `undefined`. */
export const toIntegerExact = (v: LuaValue): number | bigint | undefined => {
  if (typeof v === "number") return Number.isSafeInteger(v) ? v : floatToInteger(v)
  if (typeof v === "bigint") return v
  if (v instanceof LuaFloat) return v.n === 0 ? 0 : v.n
  if (typeof v === "string") {
    const n = stringToNumber(v)
    return n === undefined ? undefined : toIntegerExact(n)
  }
  return undefined
}
