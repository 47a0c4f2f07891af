/**
 * The language's conversions and operators over program values.
 *
 * On primitives the host's own operators already follow the language exactly and run no program code, so every
 * operator converts objects to primitives first (calling the program's `valueOf`/`toString`/`Symbol.toPrimitive`)
 * and then lets the host operate on primitives.
 */
import { MAX_STRING_LENGTH } from "../limits.js"
import { throwTypeError } from "./errors.js"
import {
  boundTargetOf,
  call,
  hasPrototypeProperty,
  isCallable,
  isObject,
  shortDescription,
  type Value,
} from "./functions.js"
import { CALL } from "./internals.js"
import { CHAR_BYTES, reserveHeap, stringTooLong } from "./memory.js"

/** The program's `typeof`. */
export const typeOf = (v: Value): string => {
  const t = typeof v
  if (t === "object") return v === null ? "object" : v[CALL] !== undefined ? "function" : "object"
  return t
}

/** Strings at least this long are checked against the heap as they grow (the host flattens them in one piece). */
const CHECKED_STRING = 1 << 21

/** Concatenate two strings within the string bound. */
export const concat = (a: string, b: string): string => {
  const length = a.length + b.length
  if (length >= CHECKED_STRING) {
    if (length > MAX_STRING_LENGTH) stringTooLong(length)
    if (length >>> 16 !== Math.max(a.length, b.length) >>> 16) reserveHeap(length * CHAR_BYTES)
  }
  return a + b
}

/** `ToPrimitive(v, hint)`. */
export const toPrimitive = (v: Value, hint: "default" | "number" | "string"): Value => {
  if (typeof v !== "object" || v === null) return v
  const exotic = v[Symbol.toPrimitive]
  if (exotic !== undefined && exotic !== null) {
    const r = call(exotic, v, [hint])
    if (isObject(r)) throwTypeError("Cannot convert object to primitive value")
    return r
  }
  const first = hint === "string" ? "toString" : "valueOf"
  const second = hint === "string" ? "valueOf" : "toString"
  const m1 = v[first]
  if (isCallable(m1)) {
    const r = call(m1, v, [])
    if (!isObject(r)) return r
  }
  const m2 = v[second]
  if (isCallable(m2)) {
    const r = call(m2, v, [])
    if (!isObject(r)) return r
  }
  return throwTypeError("Cannot convert object to primitive value")
}

/** `ToNumber(v)`. */
export const toNumber = (v: Value): number => {
  switch (typeof v) {
    case "number":
      return v
    case "string":
      return Number(v)
    case "boolean":
      return v ? 1 : 0
    case "undefined":
      return NaN
    case "symbol":
      return throwTypeError("Cannot convert a Symbol value to a number")
    case "bigint":
      return throwTypeError("Cannot convert a BigInt value to a number")
    default:
      return v === null ? 0 : toNumber(toPrimitive(v, "number"))
  }
}

/** `ToIntegerOrInfinity(v)`. */
export const toInteger = (v: Value): number => {
  const n = typeof v === "number" ? v : toNumber(v)
  if (n !== n) return 0
  return Math.trunc(n) + 0
}

/** `ToString(v)`. */
export const toStr = (v: Value): string => {
  switch (typeof v) {
    case "string":
      return v
    case "number":
    case "boolean":
    case "undefined":
    case "bigint":
      return String(v)
    case "symbol":
      return throwTypeError("Cannot convert a Symbol value to a string")
    default:
      return v === null ? "null" : toStr(toPrimitive(v, "string"))
  }
}

/** `ToPropertyKey(v)`: strings, numbers (as the host accepts them) and symbols pass unchanged. */
export const toPropertyKey = (v: Value): string | number | symbol => {
  const t = typeof v
  if (t === "string" || t === "number" || t === "symbol") return v
  const p = toPrimitive(v, "string")
  return typeof p === "symbol" ? p : toStr(p)
}

/** The `+` operator when the operands are not both numbers. */
export const add = (a: Value, b: Value): Value => {
  if (typeof a === "string") {
    if (typeof b === "string") return concat(a, b)
    if (typeof b === "number") return concat(a, String(b))
  } else if (typeof a === "number" && typeof b === "string") return concat(String(a), b)
  const pa = toPrimitive(a, "default")
  const pb = toPrimitive(b, "default")
  if (typeof pa === "string" || typeof pb === "string") {
    if (typeof pa === "symbol" || typeof pb === "symbol") throwTypeError("Cannot convert a Symbol value to a string")
    return concat(toStr(pa), toStr(pb))
  }
  return pa + pb
}

/** Arithmetic and bitwise operators (`-`, `*`, `/`, `%`, `**`, `&`, `|`, `^`, `<<`, `>>`, `>>>`) on any values. */
export const arithmetic = (op: string, a: Value, b: Value): Value => {
  const x = typeof a === "number" ? a : toPrimitive(a, "number")
  const y = typeof b === "number" ? b : toPrimitive(b, "number")
  switch (op) {
    case "-":
      return x - y
    case "*":
      return x * y
    case "/":
      return x / y
    case "%":
      return x % y
    case "**":
      return x ** y
    case "&":
      return x & y
    case "|":
      return x | y
    case "^":
      return x ^ y
    case "<<":
      return x << y
    case ">>":
      return x >> y
    case ">>>":
      return x >>> y
  }
  return throwTypeError(`Unknown operator ${op}`)
}

/** Relational operators (`<`, `>`, `<=`, `>=`) on any values. */
export const compare = (op: string, a: Value, b: Value): boolean => {
  const x = toPrimitive(a, "number")
  const y = toPrimitive(b, "number")
  switch (op) {
    case "<":
      return x < y
    case ">":
      return x > y
    case "<=":
      return x <= y
    default:
      return x >= y
  }
}

/** The `==` operator. */
export const looseEquals = (a: Value, b: Value): boolean => {
  const oa = typeof a === "object" && a !== null
  const ob = typeof b === "object" && b !== null
  if (oa && ob) return a === b
  if (!oa && !ob) return a == b
  const prim = oa ? b : a
  if (prim === undefined || prim === null) return false
  return oa ? toPrimitive(a, "default") == b : a == toPrimitive(b, "default")
}

/** Unary `-`, `+`, `~` on any value. */
export const unary = (op: string, v: Value): Value => {
  const p = typeof v === "number" ? v : toPrimitive(v, "number")
  switch (op) {
    case "-":
      return -p
    case "+":
      return +p
    default:
      return ~p
  }
}

/** The `in` operator. */
export const hasProperty = (key: Value, o: Value): boolean => {
  if (typeof o !== "object" || o === null) {
    return throwTypeError(
      `Cannot use 'in' operator to search for '${typeof key === "symbol" ? key.toString() : toStr(key)}' in ${shortDescription(o)}`,
    )
  }
  const k = toPropertyKey(key)
  // `Function.prototype` carries a `prototype` accessor only to answer for unmaterialized functions.
  if (k === "prototype") return hasPrototypeProperty(o)
  return k in o
}

/** The `instanceof` operator. */
export const instanceOf = (v: Value, ctor: Value): boolean => {
  if (typeof ctor !== "object" || ctor === null) {
    return throwTypeError(`Right-hand side of 'instanceof' is not callable`)
  }
  const custom = ctor[Symbol.hasInstance]
  if (custom !== undefined && custom !== null) return !!call(custom, ctor, [v])
  if (ctor[CALL] === undefined) return throwTypeError(`Right-hand side of 'instanceof' is not callable`)
  return ordinaryHasInstance(ctor, v)
}

/** `OrdinaryHasInstance(C, O)`. */
export const ordinaryHasInstance = (ctor: Value, v: Value): boolean => {
  if (!isCallable(ctor)) return false
  const target = boundTargetOf(ctor)
  if (target !== undefined) return instanceOf(v, target)
  if (typeof v !== "object" || v === null) return false
  const proto = ctor.prototype
  if (typeof proto !== "object" || proto === null) {
    return throwTypeError("Function has non-object prototype in instanceof check")
  }
  let p = Object.getPrototypeOf(v)
  while (p !== null) {
    if (p === proto) return true
    p = Object.getPrototypeOf(p)
  }
  return false
}

/** `SameValueZero(a, b)`. */
export const sameValueZero = (a: Value, b: Value): boolean => a === b || (a !== a && b !== b)
