/**
 * The number × number paths of Lua's arithmetic operators, which generated code calls after checking both operands
 * are JS numbers (V8 inlines them), and raw equality.
 */
import { floatMod, floatPow } from "./floats.js"
import { equalSlow, intAdd, intIDiv, intMul, intSub } from "./numbers.js"
import { LuaFloat, type LuaValue } from "./value.js"

// ------------------------------------------------------------------------------------------------ number × number

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

// ------------------------------------------------------------------------------------------------ equality

/** `a == b` (raw equality). */
export const luaEq = (a: LuaValue, b: LuaValue): boolean =>
  a === b ||
  ((typeof a === "object" || typeof b === "object" || typeof a === "bigint" || typeof b === "bigint") &&
    equalSlow(a, b))
