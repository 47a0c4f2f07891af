/**
 * The number × number paths of Lua's arithmetic operators, which generated code calls after checking both operands
 * are JS numbers (V8 inlines them), and raw equality.
 */
import { floatMod, floatPow } from "./floats.js"
import { arith, equalSlow, intAdd, intIDiv, intMul, intSub, type LuaNumber, Op } from "./numbers.js"
import { chargeAt } from "./runtime.js"
import { LuaFloat, type LuaValue, toDouble } from "./value.js"

// ------------------------------------------------------------------------------------------------ number × number

/** A float result: boxed when its value would read as a safe integer. */
export const box = (r: number): LuaValue => (Number.isSafeInteger(r) ? new LuaFloat(r) : r)

/** `a + b` for two JS numbers (integers or floats), with wrap-around and float boxing. */
export const addNN = (a: number, b: number): LuaValue => {
  const r = a + b
  if (Number.isSafeInteger(a) && Number.isSafeInteger(b)) return Number.isSafeInteger(r) ? r : intAdd(a, b)
  return Number.isSafeInteger(r) ? new LuaFloat(r) : r
}

/** `a - b` for two JS numbers. */
export const subNN = (a: number, b: number): LuaValue => {
  const r = a - b
  if (Number.isSafeInteger(a) && Number.isSafeInteger(b)) return Number.isSafeInteger(r) ? r : intSub(a, b)
  return Number.isSafeInteger(r) ? new LuaFloat(r) : r
}

/** `a * b` for two JS numbers. */
export const mulNN = (a: number, b: number): LuaValue => {
  const r = a * b
  if (Number.isSafeInteger(a) && Number.isSafeInteger(b)) return Number.isSafeInteger(r) ? r + 0 : intMul(a, b)
  return Number.isSafeInteger(r) ? new LuaFloat(r) : r
}

/** `a / b` for two JS numbers (always a float). */
export const divNN = (a: number, b: number): LuaValue => {
  const r = a / b
  return Number.isSafeInteger(r) ? new LuaFloat(r) : r
}

/** `a % b` for two JS numbers; `undefined` for an integer modulo by zero (the caller raises the error). */
export const modNN = (a: number, b: number): LuaValue => {
  if ((a | 0) === a && (b | 0) === b && b !== 0) {
    // int32 operands: V8 can use integer division instead of fmod.
    const r = (a | 0) % (b | 0)
    return r !== 0 && r < 0 !== b < 0 ? r + b : r + 0
  }
  if (Number.isSafeInteger(a) && Number.isSafeInteger(b)) {
    if (b === 0) return undefined
    const r = a % b
    return r !== 0 && r < 0 !== b < 0 ? r + b : r + 0
  }
  const m = floatMod(a, b)
  return Number.isSafeInteger(m) ? new LuaFloat(m) : m
}

/** `a // b` for two JS numbers; `undefined` for an integer division by zero. */
export const idivNN = (a: number, b: number): LuaValue => {
  if ((a | 0) === a && (b | 0) === b && b !== 0 && !(a === -2147483648 && b === -1)) {
    const q = ((a | 0) / (b | 0)) | 0
    return q * b !== a && a < 0 !== b < 0 ? q - 1 : q
  }
  if (Number.isSafeInteger(a) && Number.isSafeInteger(b)) return b === 0 ? undefined : intIDiv(a, b)
  const r = Math.floor(a / b)
  return Number.isSafeInteger(r) ? new LuaFloat(r) : r
}

/** `a ^ b` for two JS numbers (always a float). */
export const powNN = (a: number, b: number): LuaValue => {
  const r = floatPow(a, b)
  return Number.isSafeInteger(r) ? new LuaFloat(r) : r
}

// ------------------------------------------------------------------------------------------------ boxed floats

// The paths generated code takes when an operand is not a JS number. An integral float (`2.0`, a boxed LuaFloat)
// with a number or another integral float is common in float code (`n * 0.5` of an even `n`), so it is handled
// first; everything else (bigints, strings, errors) goes to the general `arith`.

/** `a + b` when an operand is not a JS number. */
export const addAny = (a: LuaValue, b: LuaValue, site: number, descA: string, descB: string): LuaValue => {
  if (typeof a === "number" && typeof b === "number") return addNN(a, b)
  if (a instanceof LuaFloat) {
    if (typeof b === "number") return box(a.n + b)
    if (b instanceof LuaFloat) return box(a.n + b.n)
  } else if (typeof a === "number" && b instanceof LuaFloat) return box(a + b.n)
  return arith(Op.Add, a, b, site, descA, descB)
}

/** `a - b` when an operand is not a JS number. */
export const subAny = (a: LuaValue, b: LuaValue, site: number, descA: string, descB: string): LuaValue => {
  if (typeof a === "number" && typeof b === "number") return subNN(a, b)
  if (a instanceof LuaFloat) {
    if (typeof b === "number") return box(a.n - b)
    if (b instanceof LuaFloat) return box(a.n - b.n)
  } else if (typeof a === "number" && b instanceof LuaFloat) return box(a - b.n)
  return arith(Op.Sub, a, b, site, descA, descB)
}

/** `a * b` when an operand is not a JS number. */
export const mulAny = (a: LuaValue, b: LuaValue, site: number, descA: string, descB: string): LuaValue => {
  if (typeof a === "number" && typeof b === "number") return mulNN(a, b)
  if (a instanceof LuaFloat) {
    if (typeof b === "number") return box(a.n * b)
    if (b instanceof LuaFloat) return box(a.n * b.n)
  } else if (typeof a === "number" && b instanceof LuaFloat) return box(a * b.n)
  return arith(Op.Mul, a, b, site, descA, descB)
}

/** `a / b` when an operand is not a JS number. */
export const divAny = (a: LuaValue, b: LuaValue, site: number, descA: string, descB: string): LuaValue => {
  if (typeof a === "number" && typeof b === "number") return divNN(a, b)
  if (a instanceof LuaFloat) {
    if (typeof b === "number") return box(a.n / b)
    if (b instanceof LuaFloat) return box(a.n / b.n)
  } else if (typeof a === "number" && b instanceof LuaFloat) return box(a / b.n)
  return arith(Op.Div, a, b, site, descA, descB)
}

/** `a % b` when an operand is not a JS number. */
export const modAny = (a: LuaValue, b: LuaValue, site: number, descA: string, descB: string): LuaValue => {
  if (a instanceof LuaFloat) {
    if (typeof b === "number") return box(floatMod(a.n, b))
    if (b instanceof LuaFloat) return box(floatMod(a.n, b.n))
  } else if (typeof a === "number" && b instanceof LuaFloat) return box(floatMod(a, b.n))
  return arith(Op.Mod, a, b, site, descA, descB)
}

/** `a // b` when an operand is not a JS number. */
export const idivAny = (a: LuaValue, b: LuaValue, site: number, descA: string, descB: string): LuaValue => {
  if (a instanceof LuaFloat) {
    if (typeof b === "number") return box(Math.floor(a.n / b))
    if (b instanceof LuaFloat) return box(Math.floor(a.n / b.n))
  } else if (typeof a === "number" && b instanceof LuaFloat) return box(Math.floor(a / b.n))
  return arith(Op.IDiv, a, b, site, descA, descB)
}

/** `a ^ b` when an operand is not a JS number. */
export const powAny = (a: LuaValue, b: LuaValue, site: number, descA: string, descB: string): LuaValue => {
  if (a instanceof LuaFloat) {
    if (typeof b === "number") return box(floatPow(a.n, b))
    if (b instanceof LuaFloat) return box(floatPow(a.n, b.n))
  } else if (typeof a === "number" && b instanceof LuaFloat) return box(floatPow(a, b.n))
  return arith(Op.Pow, a, b, site, descA, descB)
}

/**
 * A float-typed operation (see codegen) whose operands are not both JS numbers, as a double: its result is a float.
 * `raws` says which operands are a float-typed one's double (1: `a`, 2: `b`): such a number is a float even when it
 * looks like an integer, and is boxed for the general path (numeric strings, errors).
 */
export const floatArith = (
  op: Op,
  a: LuaValue,
  b: LuaValue,
  site: number,
  descA: string,
  descB: string,
  raws = 0,
): number => {
  const x = typeof a === "number" ? a : a instanceof LuaFloat ? a.n : undefined
  const y = typeof b === "number" ? b : b instanceof LuaFloat ? b.n : undefined
  if (x !== undefined && y !== undefined)
    switch (op) {
      case Op.Add:
        return x + y
      case Op.Sub:
        return x - y
      case Op.Mul:
        return x * y
      case Op.Div:
        return x / y
      case Op.Mod:
        return floatMod(x, y)
      case Op.Pow:
        return floatPow(x, y)
      case Op.IDiv:
        return Math.floor(x / y)
    }
  const r = arith(op, raws & 1 ? box(a as number) : a, raws & 2 ? box(b as number) : b, site, descA, descB)
  return typeof r === "number" ? r : (r as LuaFloat).n
}

/**
 * `a + b`, `a - b` or `a * b` whose result goes straight into float arithmetic (see codegen `converted`), as a
 * double: compact code's path, and the inline path's for a boxed float operand, integers whose result wraps,
 * strings and errors.
 */
export const convertedArith = (
  op: Op,
  a: LuaValue,
  b: LuaValue,
  site: number,
  descA: string,
  descB: string,
): number => {
  if (typeof a === "number" && typeof b === "number") {
    const r = op === Op.Add ? a + b : op === Op.Sub ? a - b : a * b
    // Integers: exact while the result is a safe integer (a product's -0 is 0); wrap-around takes the general path.
    if (!Number.isSafeInteger(a) || !Number.isSafeInteger(b)) return r
    if (Number.isSafeInteger(r)) return r + 0
  } else if (a instanceof LuaFloat || b instanceof LuaFloat) {
    const x = a instanceof LuaFloat ? a.n : a
    const y = b instanceof LuaFloat ? b.n : b
    if (typeof x === "number" && typeof y === "number") return op === Op.Add ? x + y : op === Op.Sub ? x - y : x * y
  }
  return toDouble(arith(op, a, b, site, descA, descB) as LuaNumber)
}

/** The double of a value known to be a float (a JS number or a boxed integral float). */
export const floatValue = (v: LuaValue): number => (typeof v === "number" ? v : (v as LuaFloat).n)

// ------------------------------------------------------------------------------------------------ equality

/** `a == b` (raw equality). Comparing two long strings of one length reads them: that is charged. */
export const luaEq = (a: LuaValue, b: LuaValue, site: number): boolean => {
  if (typeof a === "string") {
    if (typeof b === "string" && a.length > LONG_STRING && a.length === b.length) chargeAt(a.length >> 4, site)
    return a === b
  }
  return (
    a === b ||
    ((typeof a === "object" || typeof b === "object" || typeof a === "bigint" || typeof b === "bigint") &&
      equalSlow(a, b))
  )
}

/** Strings longer than this are charged for the bytes a comparison may read. */
const LONG_STRING = 256
