/**
 * Closures for arithmetic and comparison operators, specialised by operand shape.
 *
 * V8 shares the feedback of a closure's code among every closure made from it, so in a real program the call
 * `left(f)` inside an operator closure sees many targets and is not inlined. Reading a local slot or a constant
 * directly instead of calling a child closure removes most of those calls from hot code. The number × number cases
 * are module-level functions (one call target each), which V8 inlines.
 */
import { arith, intAdd, intIDiv, intMul, intSub, lessEqual, lessThan, equalSlow, floatMod, Op } from "./numbers.js"
import { index } from "./ops.js"
import { LuaFloat, LuaTable, type LuaValue } from "./value.js"

/* eslint-disable @typescript-eslint/no-explicit-any */
type Frame = Array<any>
type Ev = (f: Frame) => LuaValue
type Test = (f: Frame) => boolean

/** How an operand is read: a plain local's slot, a constant, or a closure. */
export type Operand =
  | { readonly kind: "slot"; readonly slot: number }
  | { readonly kind: "const"; readonly value: LuaValue }
  | { readonly kind: "ev"; readonly ev: Ev }
  /** A field of a plain local (`r.price`): `site` and `desc` locate and name the base for index errors. */
  | { readonly kind: "field"; readonly slot: number; readonly name: string; readonly site: number; readonly desc: string }

/** The operand as a closure (for the general variants). */
export const operandEv = (o: Operand): Ev => {
  if (o.kind === "ev") return o.ev
  if (o.kind === "field") {
    const { slot, name, site, desc } = o
    return (f) => {
      const t = f[slot]
      const v = t instanceof LuaTable && t.fields !== undefined ? t.fields[name] : undefined
      return v !== undefined ? v : fieldMiss(t, name, site, desc)
    }
  }
  if (o.kind === "slot") {
    const s = o.slot
    return (f) => f[s]
  }
  const v = o.value
  return () => v
}

/** The rest of `t.name` after the fast path found nothing: guards, string methods, nil, or the index error. */
export const fieldMiss = (t: LuaValue, name: string, site: number, desc: string): LuaValue =>
  t instanceof LuaTable ? (t.guard === undefined ? undefined : t.guard(name, site)) : index(t, name, site, desc)

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
  const r = Math.pow(a, b)
  return Number.isSafeInteger(r) ? new LuaFloat(r) : r
}

/** Number × number for every binary arithmetic operator; `undefined` sends the operation to the general path. */
export const binNN = (op: Op, a: number, b: number): LuaValue => {
  switch (op) {
    case Op.Add:
      return addNN(a, b)
    case Op.Sub:
      return subNN(a, b)
    case Op.Mul:
      return mulNN(a, b)
    case Op.Div:
      return divNN(a, b)
    case Op.Mod:
      return modNN(a, b)
    case Op.IDiv:
      return idivNN(a, b)
    case Op.Pow:
      return powNN(a, b)
    case Op.BAnd:
      return (a | 0) === a && (b | 0) === b ? a & b : undefined
    case Op.BOr:
      return (a | 0) === a && (b | 0) === b ? a | b : undefined
    case Op.BXor:
      return (a | 0) === a && (b | 0) === b ? a ^ b : undefined
    default:
      return undefined
  }
}

// ------------------------------------------------------------------------------------------------ arithmetic

/** The value of a numeric (JS number) constant operand, or undefined. */
const numConst = (o: Operand): number | undefined =>
  o.kind === "const" && typeof o.value === "number" ? o.value : undefined

/** A closure for `L op R`. `dl`/`dr` name the operands for error messages. */
export const arithmetic = (op: Op, L: Operand, R: Operand, site: number, dl: string, dr: string): Ev => {
  if (op === Op.Add) return add(L, R, site, dl, dr)
  if (op === Op.Sub) return sub(L, R, site, dl, dr)
  const c = numConst(R)
  if (L.kind === "slot") {
    const ls = L.slot
    if (c !== undefined)
      return (f) => {
        const a = f[ls]
        if (typeof a === "number") {
          const r = binNN(op, a, c)
          if (r !== undefined) return r
        }
        return arith(op, a, c, site, dl, dr)
      }
    if (R.kind === "slot") {
      const rs = R.slot
      return (f) => {
        const a = f[ls]
        const b = f[rs]
        if (typeof a === "number" && typeof b === "number") {
          const r = binNN(op, a, b)
          if (r !== undefined) return r
        }
        return arith(op, a, b, site, dl, dr)
      }
    }
    const right = operandEv(R)
    return (f) => {
      const a = f[ls]
      const b = right(f)
      if (typeof a === "number" && typeof b === "number") {
        const r = binNN(op, a, b)
        if (r !== undefined) return r
      }
      return arith(op, a, b, site, dl, dr)
    }
  }
  const left = operandEv(L)
  if (c !== undefined)
    return (f) => {
      const a = left(f)
      if (typeof a === "number") {
        const r = binNN(op, a, c)
        if (r !== undefined) return r
      }
      return arith(op, a, c, site, dl, dr)
    }
  if (R.kind === "slot") {
    const rs = R.slot
    return (f) => {
      const a = left(f)
      const b = f[rs]
      if (typeof a === "number" && typeof b === "number") {
        const r = binNN(op, a, b)
        if (r !== undefined) return r
      }
      return arith(op, a, b, site, dl, dr)
    }
  }
  const right = operandEv(R)
  return (f) => {
    const a = left(f)
    const b = right(f)
    if (typeof a === "number" && typeof b === "number") {
      const r = binNN(op, a, b)
      if (r !== undefined) return r
    }
    return arith(op, a, b, site, dl, dr)
  }
}

/** `+` with its own variants: the most common operator. */
const add = (L: Operand, R: Operand, site: number, dl: string, dr: string): Ev => {
  const c = numConst(R)
  if (L.kind === "slot") {
    const ls = L.slot
    if (c !== undefined)
      return (f) => {
        const a = f[ls]
        return typeof a === "number" ? addNN(a, c) : arith(Op.Add, a, c, site, dl, dr)
      }
    if (R.kind === "slot") {
      const rs = R.slot
      return (f) => {
        const a = f[ls]
        const b = f[rs]
        return typeof a === "number" && typeof b === "number" ? addNN(a, b) : arith(Op.Add, a, b, site, dl, dr)
      }
    }
    const right = operandEv(R)
    return (f) => {
      const a = f[ls]
      const b = right(f)
      return typeof a === "number" && typeof b === "number" ? addNN(a, b) : arith(Op.Add, a, b, site, dl, dr)
    }
  }
  const left = operandEv(L)
  if (c !== undefined)
    return (f) => {
      const a = left(f)
      return typeof a === "number" ? addNN(a, c) : arith(Op.Add, a, c, site, dl, dr)
    }
  if (R.kind === "slot") {
    const rs = R.slot
    return (f) => {
      const a = left(f)
      const b = f[rs]
      return typeof a === "number" && typeof b === "number" ? addNN(a, b) : arith(Op.Add, a, b, site, dl, dr)
    }
  }
  const right = operandEv(R)
  return (f) => {
    const a = left(f)
    const b = right(f)
    return typeof a === "number" && typeof b === "number" ? addNN(a, b) : arith(Op.Add, a, b, site, dl, dr)
  }
}

/** `-` with its own variants. */
const sub = (L: Operand, R: Operand, site: number, dl: string, dr: string): Ev => {
  const c = numConst(R)
  if (L.kind === "slot") {
    const ls = L.slot
    if (c !== undefined)
      return (f) => {
        const a = f[ls]
        return typeof a === "number" ? subNN(a, c) : arith(Op.Sub, a, c, site, dl, dr)
      }
    if (R.kind === "slot") {
      const rs = R.slot
      return (f) => {
        const a = f[ls]
        const b = f[rs]
        return typeof a === "number" && typeof b === "number" ? subNN(a, b) : arith(Op.Sub, a, b, site, dl, dr)
      }
    }
    const right = operandEv(R)
    return (f) => {
      const a = f[ls]
      const b = right(f)
      return typeof a === "number" && typeof b === "number" ? subNN(a, b) : arith(Op.Sub, a, b, site, dl, dr)
    }
  }
  const left = operandEv(L)
  if (c !== undefined)
    return (f) => {
      const a = left(f)
      return typeof a === "number" ? subNN(a, c) : arith(Op.Sub, a, c, site, dl, dr)
    }
  const right = operandEv(R)
  return (f) => {
    const a = left(f)
    const b = right(f)
    return typeof a === "number" && typeof b === "number" ? subNN(a, b) : arith(Op.Sub, a, b, site, dl, dr)
  }
}

// ------------------------------------------------------------------------------------------------ comparisons

/** `a == b` (raw equality). */
export const luaEq = (a: LuaValue, b: LuaValue): boolean =>
  a === b ||
  ((typeof a === "object" || typeof b === "object" || typeof a === "bigint" || typeof b === "bigint") &&
    equalSlow(a, b))

/** A condition closure for `L op R` with op one of `== ~= < <= > >=`. */
export const comparison = (op: string, L: Operand, R: Operand, site: number): Test => {
  if (L.kind === "field") {
    const fused = fieldComparison(op, L, R, site)
    if (fused !== undefined) return fused
  }
  switch (op) {
    case "==":
    case "~=":
      return equality(op === "==", L, R)
    case "<":
      return less(L, R, site)
    case "<=":
      return lessOrEqual(L, R, site)
    case ">":
      return greater(L, R, site)
    default:
      return greaterOrEqual(L, R, site)
  }
}

const equality = (eq: boolean, L: Operand, R: Operand): Test => {
  // Constants compared by identity: strings, booleans, nil (numbers may be boxed floats, so not them).
  if (R.kind === "const" && (typeof R.value === "string" || typeof R.value === "boolean" || R.value === undefined)) {
    const c = R.value
    if (L.kind === "slot") {
      const ls = L.slot
      return eq ? (f) => f[ls] === c : (f) => f[ls] !== c
    }
    const left = operandEv(L)
    return eq ? (f) => left(f) === c : (f) => left(f) !== c
  }
  if (L.kind === "slot" && R.kind === "const") {
    const ls = L.slot
    const c = R.value
    return eq ? (f) => luaEq(f[ls], c) : (f) => !luaEq(f[ls], c)
  }
  const left = operandEv(L)
  const right = operandEv(R)
  return eq ? (f) => luaEq(left(f), right(f)) : (f) => !luaEq(left(f), right(f))
}

const less = (L: Operand, R: Operand, site: number): Test => {
  const c = numConst(R)
  if (L.kind === "slot") {
    const ls = L.slot
    if (c !== undefined)
      return (f) => {
        const a = f[ls]
        return typeof a === "number" ? a < c : lessThan(a, c, site)
      }
    if (R.kind === "slot") {
      const rs = R.slot
      return (f) => {
        const a = f[ls]
        const b = f[rs]
        return typeof a === "number" && typeof b === "number" ? a < b : lessThan(a, b, site)
      }
    }
  }
  const left = operandEv(L)
  if (c !== undefined)
    return (f) => {
      const a = left(f)
      return typeof a === "number" ? a < c : lessThan(a, c, site)
    }
  const right = operandEv(R)
  return (f) => {
    const a = left(f)
    const b = right(f)
    if (typeof a === "number" && typeof b === "number") return a < b
    if (typeof a === "string" && typeof b === "string") return a < b
    return lessThan(a, b, site)
  }
}

const lessOrEqual = (L: Operand, R: Operand, site: number): Test => {
  const c = numConst(R)
  if (L.kind === "slot") {
    const ls = L.slot
    if (c !== undefined)
      return (f) => {
        const a = f[ls]
        return typeof a === "number" ? a <= c : lessEqual(a, c, site)
      }
    if (R.kind === "slot") {
      const rs = R.slot
      return (f) => {
        const a = f[ls]
        const b = f[rs]
        return typeof a === "number" && typeof b === "number" ? a <= b : lessEqual(a, b, site)
      }
    }
  }
  const left = operandEv(L)
  if (c !== undefined)
    return (f) => {
      const a = left(f)
      return typeof a === "number" ? a <= c : lessEqual(a, c, site)
    }
  const right = operandEv(R)
  return (f) => {
    const a = left(f)
    const b = right(f)
    if (typeof a === "number" && typeof b === "number") return a <= b
    if (typeof a === "string" && typeof b === "string") return a <= b
    return lessEqual(a, b, site)
  }
}

/** `a > b` is `b < a` after evaluating `a` first (so Lua's error message names the types in that order). */
const greater = (L: Operand, R: Operand, site: number): Test => {
  const c = numConst(R)
  if (L.kind === "slot") {
    const ls = L.slot
    if (c !== undefined)
      return (f) => {
        const a = f[ls]
        return typeof a === "number" ? a > c : lessThan(c, a, site)
      }
    if (R.kind === "slot") {
      const rs = R.slot
      return (f) => {
        const a = f[ls]
        const b = f[rs]
        return typeof a === "number" && typeof b === "number" ? a > b : lessThan(b, a, site)
      }
    }
  }
  const left = operandEv(L)
  if (c !== undefined)
    return (f) => {
      const a = left(f)
      return typeof a === "number" ? a > c : lessThan(c, a, site)
    }
  const right = operandEv(R)
  return (f) => {
    const a = left(f)
    const b = right(f)
    if (typeof a === "number" && typeof b === "number") return a > b
    if (typeof a === "string" && typeof b === "string") return a > b
    return lessThan(b, a, site)
  }
}

const greaterOrEqual = (L: Operand, R: Operand, site: number): Test => {
  const c = numConst(R)
  if (L.kind === "slot") {
    const ls = L.slot
    if (c !== undefined)
      return (f) => {
        const a = f[ls]
        return typeof a === "number" ? a >= c : lessEqual(c, a, site)
      }
    if (R.kind === "slot") {
      const rs = R.slot
      return (f) => {
        const a = f[ls]
        const b = f[rs]
        return typeof a === "number" && typeof b === "number" ? a >= b : lessEqual(b, a, site)
      }
    }
  }
  const left = operandEv(L)
  if (c !== undefined)
    return (f) => {
      const a = left(f)
      return typeof a === "number" ? a >= c : lessEqual(c, a, site)
    }
  const right = operandEv(R)
  return (f) => {
    const a = left(f)
    const b = right(f)
    if (typeof a === "number" && typeof b === "number") return a >= b
    if (typeof a === "string" && typeof b === "string") return a >= b
    return lessEqual(b, a, site)
  }
}

/** A statement closure for `local = L op R`: the operator and the store to slot `dst` in one closure. */
export const arithmeticStore = (
  dst: number,
  op: Op,
  L: Operand,
  R: Operand,
  site: number,
  dl: string,
  dr: string,
): ((f: Frame) => number) => {
  const c = numConst(R)
  if (L.kind === "slot") {
    const ls = L.slot
    if (c !== undefined)
      return (f) => {
        const a = f[ls]
        const r = typeof a === "number" ? binNN(op, a, c) : undefined
        f[dst] = r !== undefined ? r : arith(op, a, c, site, dl, dr)
        return 0
      }
    if (R.kind === "slot") {
      const rs = R.slot
      return (f) => {
        const a = f[ls]
        const b = f[rs]
        const r = typeof a === "number" && typeof b === "number" ? binNN(op, a, b) : undefined
        f[dst] = r !== undefined ? r : arith(op, a, b, site, dl, dr)
        return 0
      }
    }
    const right = operandEv(R)
    return (f) => {
      const a = f[ls]
      const b = right(f)
      const r = typeof a === "number" && typeof b === "number" ? binNN(op, a, b) : undefined
      f[dst] = r !== undefined ? r : arith(op, a, b, site, dl, dr)
      return 0
    }
  }
  const left = operandEv(L)
  if (c !== undefined)
    return (f) => {
      const a = left(f)
      const r = typeof a === "number" ? binNN(op, a, c) : undefined
      f[dst] = r !== undefined ? r : arith(op, a, c, site, dl, dr)
      return 0
    }
  const right = operandEv(R)
  return (f) => {
    const a = left(f)
    const b = right(f)
    const r = typeof a === "number" && typeof b === "number" ? binNN(op, a, b) : undefined
    f[dst] = r !== undefined ? r : arith(op, a, b, site, dl, dr)
    return 0
  }
}

/** `a op b` (op `< <= > >=`) for two numbers or two strings. */
const cmpPrim = (op: string, a: number | string, b: number | string): boolean =>
  op === "<" ? a < b : op === "<=" ? a <= b : op === ">" ? a > b : a >= b

/** The general path of `a op b` (op `< <= > >=`); `a > b` is `b < a` so errors name the types in Lua's order. */
const cmpSlow = (op: string, a: LuaValue, b: LuaValue, site: number): boolean =>
  op === "<" ? lessThan(a, b, site) : op === "<=" ? lessEqual(a, b, site) : op === ">" ? lessThan(b, a, site) : lessEqual(b, a, site)

/**
 * An `if` statement whose condition is `local op constant` or `local op local` (op `< <= > >=`), with the
 * comparison inside the statement's closure; undefined for other shapes.
 */
export const ifCompare = (
  op: string,
  L: Operand,
  R: Operand,
  site: number,
  then: (f: Frame) => number,
  other: ((f: Frame) => number) | undefined,
): ((f: Frame) => number) | undefined => {
  if (L.kind !== "slot" || !(op === "<" || op === "<=" || op === ">" || op === ">=")) return undefined
  const ls = L.slot
  const c = numConst(R)
  if (c !== undefined) {
    if (other === undefined) {
      switch (op) {
        case "<":
          return (f) => {
            const a = f[ls]
            return (typeof a === "number" ? a < c : lessThan(a, c, site)) ? then(f) : 0
          }
        case "<=":
          return (f) => {
            const a = f[ls]
            return (typeof a === "number" ? a <= c : lessEqual(a, c, site)) ? then(f) : 0
          }
        case ">":
          return (f) => {
            const a = f[ls]
            return (typeof a === "number" ? a > c : lessThan(c, a, site)) ? then(f) : 0
          }
        default:
          return (f) => {
            const a = f[ls]
            return (typeof a === "number" ? a >= c : lessEqual(c, a, site)) ? then(f) : 0
          }
      }
    }
    return (f) => {
      const a = f[ls]
      return (typeof a === "number" ? cmpPrim(op, a, c) : cmpSlow(op, a, c, site)) ? then(f) : other(f)
    }
  }
  if (R.kind !== "slot") return undefined
  const rs = R.slot
  if (other === undefined)
    return (f) => {
      const a = f[ls]
      const b = f[rs]
      return (typeof a === "number" && typeof b === "number") || (typeof a === "string" && typeof b === "string")
        ? cmpPrim(op, a, b) ? then(f) : 0
        : cmpSlow(op, a, b, site) ? then(f) : 0
    }
  return (f) => {
    const a = f[ls]
    const b = f[rs]
    return (typeof a === "number" && typeof b === "number") || (typeof a === "string" && typeof b === "string")
      ? cmpPrim(op, a, b) ? then(f) : other(f)
      : cmpSlow(op, a, b, site) ? then(f) : other(f)
  }
}

/**
 * Comparisons of a field of a local with a constant or another field (`r.price > 10`, `a.k < b.k`): both reads
 * happen inside the comparison's closure. Undefined for other shapes.
 */
const fieldComparison = (
  op: string,
  L: Extract<Operand, { kind: "field" }>,
  R: Operand,
  site: number,
): Test | undefined => {
  const { slot: ls, name: ln, site: lsite, desc: ldesc } = L
  if (R.kind === "const") {
    const c = R.value
    if (op === "==" || op === "~=") {
      const eq = op === "=="
      return (f) => {
        const t = f[ls]
        let a = t instanceof LuaTable && t.fields !== undefined ? t.fields[ln] : undefined
        if (a === undefined) a = fieldMiss(t, ln, lsite, ldesc)
        return luaEq(a, c) === eq
      }
    }
    if (typeof c !== "number") return undefined
    switch (op) {
      case "<":
        return (f) => {
          const t = f[ls]
          let a = t instanceof LuaTable && t.fields !== undefined ? t.fields[ln] : undefined
          if (a === undefined) a = fieldMiss(t, ln, lsite, ldesc)
          return typeof a === "number" ? a < c : lessThan(a, c, site)
        }
      case "<=":
        return (f) => {
          const t = f[ls]
          let a = t instanceof LuaTable && t.fields !== undefined ? t.fields[ln] : undefined
          if (a === undefined) a = fieldMiss(t, ln, lsite, ldesc)
          return typeof a === "number" ? a <= c : lessEqual(a, c, site)
        }
      case ">":
        return (f) => {
          const t = f[ls]
          let a = t instanceof LuaTable && t.fields !== undefined ? t.fields[ln] : undefined
          if (a === undefined) a = fieldMiss(t, ln, lsite, ldesc)
          return typeof a === "number" ? a > c : lessThan(c, a, site)
        }
      default:
        return (f) => {
          const t = f[ls]
          let a = t instanceof LuaTable && t.fields !== undefined ? t.fields[ln] : undefined
          if (a === undefined) a = fieldMiss(t, ln, lsite, ldesc)
          return typeof a === "number" ? a >= c : lessEqual(c, a, site)
        }
    }
  }
  if (R.kind !== "field") return undefined
  const { slot: rs, name: rn, site: rsite, desc: rdesc } = R
  switch (op) {
    case "==":
    case "~=": {
      const eq = op === "=="
      return (f) => {
        const t = f[ls]
        let a = t instanceof LuaTable && t.fields !== undefined ? t.fields[ln] : undefined
        if (a === undefined) a = fieldMiss(t, ln, lsite, ldesc)
        const u = f[rs]
        let b = u instanceof LuaTable && u.fields !== undefined ? u.fields[rn] : undefined
        if (b === undefined) b = fieldMiss(u, rn, rsite, rdesc)
        return luaEq(a, b) === eq
      }
    }
    case "<":
      return (f) => {
        const t = f[ls]
        let a = t instanceof LuaTable && t.fields !== undefined ? t.fields[ln] : undefined
        if (a === undefined) a = fieldMiss(t, ln, lsite, ldesc)
        const u = f[rs]
        let b = u instanceof LuaTable && u.fields !== undefined ? u.fields[rn] : undefined
        if (b === undefined) b = fieldMiss(u, rn, rsite, rdesc)
        return (typeof a === "number" && typeof b === "number") || (typeof a === "string" && typeof b === "string")
          ? a < b
          : lessThan(a, b, site)
      }
    case "<=":
      return (f) => {
        const t = f[ls]
        let a = t instanceof LuaTable && t.fields !== undefined ? t.fields[ln] : undefined
        if (a === undefined) a = fieldMiss(t, ln, lsite, ldesc)
        const u = f[rs]
        let b = u instanceof LuaTable && u.fields !== undefined ? u.fields[rn] : undefined
        if (b === undefined) b = fieldMiss(u, rn, rsite, rdesc)
        return (typeof a === "number" && typeof b === "number") || (typeof a === "string" && typeof b === "string")
          ? a <= b
          : lessEqual(a, b, site)
      }
    case ">":
      return (f) => {
        const t = f[ls]
        let a = t instanceof LuaTable && t.fields !== undefined ? t.fields[ln] : undefined
        if (a === undefined) a = fieldMiss(t, ln, lsite, ldesc)
        const u = f[rs]
        let b = u instanceof LuaTable && u.fields !== undefined ? u.fields[rn] : undefined
        if (b === undefined) b = fieldMiss(u, rn, rsite, rdesc)
        return (typeof a === "number" && typeof b === "number") || (typeof a === "string" && typeof b === "string")
          ? a > b
          : lessThan(b, a, site)
      }
    default:
      return (f) => {
        const t = f[ls]
        let a = t instanceof LuaTable && t.fields !== undefined ? t.fields[ln] : undefined
        if (a === undefined) a = fieldMiss(t, ln, lsite, ldesc)
        const u = f[rs]
        let b = u instanceof LuaTable && u.fields !== undefined ? u.fields[rn] : undefined
        if (b === undefined) b = fieldMiss(u, rn, rsite, rdesc)
        return (typeof a === "number" && typeof b === "number") || (typeof a === "string" && typeof b === "string")
          ? a >= b
          : lessEqual(b, a, site)
      }
  }
}
