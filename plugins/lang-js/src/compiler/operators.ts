/**
 * Operators: binary, unary, logical and conditional expressions. The binary operators read their operands inline
 * (see `operand.ts`) and try the number (and string) case before the generic conversion.
 */
import type { Node } from "../parse.js"
import type { Value } from "../runtime/functions.js"
import {
  add,
  arithmetic,
  compare,
  hasProperty,
  instanceOf,
  looseEquals,
  toNumber,
  typeOf,
  unary,
} from "../runtime/operators.js"
import { bindingOf, readBinding, readGlobal, readResolved } from "./bindings.js"
import type { CompileContext, Expr } from "./context.js"
import { deleteExpression } from "./members.js"
import { OperandKind as K, type Operand, operand } from "./operand.js"
import { privateIn } from "./ops.js"
import { type Env, unsupported } from "./shared.js"

const numberFast = (op: string): ((a: number, b: number) => Value) | undefined => {
  switch (op) {
    case "-":
      return (a, b) => a - b
    case "*":
      return (a, b) => a * b
    case "/":
      return (a, b) => a / b
    case "%":
      return (a, b) => a % b
    case "**":
      return (a, b) => a ** b
    case "&":
      return (a, b) => a & b
    case "|":
      return (a, b) => a | b
    case "^":
      return (a, b) => a ^ b
    case "<<":
      return (a, b) => a << b
    case ">>":
      return (a, b) => a >> b
    case ">>>":
      return (a, b) => a >>> b
  }
  return undefined
}

/** The function implementing a binary operator on any two values. */
export const binaryOperator = (op: string): ((a: Value, b: Value) => Value) => {
  switch (op) {
    case "+":
      return (a, b) => (typeof a === "number" && typeof b === "number" ? a + b : add(a, b))
    case "-":
      return (a, b) => (typeof a === "number" && typeof b === "number" ? a - b : arithmetic("-", a, b))
    case "*":
      return (a, b) => (typeof a === "number" && typeof b === "number" ? a * b : arithmetic("*", a, b))
    case "/":
      return (a, b) => (typeof a === "number" && typeof b === "number" ? a / b : arithmetic("/", a, b))
    case "%":
      return (a, b) => (typeof a === "number" && typeof b === "number" ? a % b : arithmetic("%", a, b))
    case "**":
    case "&":
    case "|":
    case "^":
    case "<<":
    case ">>":
    case ">>>": {
      const fast = numberFast(op)!
      return (a, b) => (typeof a === "number" && typeof b === "number" ? fast(a, b) : arithmetic(op, a, b))
    }
    case "<":
      return (a, b) =>
        (typeof a === "number" && typeof b === "number") || (typeof a === "string" && typeof b === "string")
          ? a < b
          : compare("<", a, b)
    case ">":
      return (a, b) =>
        (typeof a === "number" && typeof b === "number") || (typeof a === "string" && typeof b === "string")
          ? a > b
          : compare(">", a, b)
    case "<=":
      return (a, b) =>
        (typeof a === "number" && typeof b === "number") || (typeof a === "string" && typeof b === "string")
          ? a <= b
          : compare("<=", a, b)
    case ">=":
      return (a, b) =>
        (typeof a === "number" && typeof b === "number") || (typeof a === "string" && typeof b === "string")
          ? a >= b
          : compare(">=", a, b)
    case "===":
      return (a, b) => a === b
    case "!==":
      return (a, b) => a !== b
    case "==":
      return (a, b) => (typeof a === typeof b && typeof a !== "object" ? a === b : looseEquals(a, b))
    case "!=":
      return (a, b) => !(typeof a === typeof b && typeof a !== "object" ? a === b : looseEquals(a, b))
    case "in":
      return (a, b) => hasProperty(a, b)
    case "instanceof":
      return (a, b) => instanceOf(a, b)
  }
  throw new Error(`internal: unknown operator ${op}`)
}

const compareAny = (op: string, a: Value, b: Value): boolean => {
  if (typeof a === "string" && typeof b === "string") {
    return op === "<" ? a < b : op === ">" ? a > b : op === "<=" ? a <= b : a >= b
  }
  return compare(op, a, b)
}

/** The function implementing a unary operator other than `typeof` and `delete`. */
export const unaryOperator = (op: string): ((v: Value) => Value) | undefined => {
  switch (op) {
    case "!":
      return (v) => !v
    case "void":
      return () => undefined
    case "-":
      return (v) => (typeof v === "number" ? -v : unary("-", v))
    case "+":
      return (v) => (typeof v === "number" ? v : toNumber(v))
    case "~":
      return (v) => (typeof v === "number" ? ~v : unary("~", v))
    case "typeof":
      return typeOf
  }
  return undefined
}

/** True when a logical operator returns its left value `v` without evaluating the right side. */
export const logicalShortCircuits = (op: string, v: Value): boolean =>
  op === "&&" ? !v : op === "||" ? !!v : v !== undefined && v !== null

/** A binary operator: operands read inline, number (and string) fast paths first. */
export const binary = (ctx: CompileContext, n: Node): Expr => {
  const op: string = n.operator
  if (n.left.type === "PrivateIdentifier") {
    const sym = readResolved(ctx, n.left)
    const r = ctx.expr(n.right)
    const loc = ctx.loc(n)
    return (env) => privateIn(sym(env), r(env), loc)
  }
  const A = operand(ctx, n.left)
  const B = operand(ctx, n.right)
  const compared = COMPARISONS.indexOf(op)
  if (compared >= 0) {
    const e = comparison(op, A, B)
    comparisons.set(e, { op: compared, A, B, slow: binaryOperator(op) })
    return e
  }
  return arithmeticBinary(op, A, B)
}

/** The comparison operators a branch reads inline (see `branch`), by their index. */
const COMPARISONS = ["<", "<=", ">", ">=", "===", "!=="]
const enum Cmp {
  Lt = 0,
  Le = 1,
  Gt = 2,
  Ge = 3,
  Eq = 4,
}

/** A compiled comparison: its operator (an index in `COMPARISONS`), operands and generic implementation. */
interface Comparison {
  readonly op: number
  readonly A: Operand
  readonly B: Operand
  readonly slow: (a: Value, b: Value) => Value
}

/** The comparisons `binary` compiled, by their closure, so that a branch testing one can read its operands. */
const comparisons = new WeakMap<Expr, Comparison>()

/**
 * `test ? yes(env) : no(env)` (with `no` absent, `undefined`), where `test` is compiled already. When the test is a
 * comparison, its operands are read and compared inline: one closure call less per branch taken.
 */
export const branch = <R>(test: Expr, yes: (env: Env) => R, no: ((env: Env) => R) | undefined): ((env: Env) => R) => {
  const c = comparisons.get(test)
  if (c === undefined) {
    if (no === undefined) return (env) => (test(env) ? yes(env) : (undefined as R))
    return (env) => (test(env) ? yes(env) : no(env))
  }
  const { op, slow } = c
  const ak = c.A.kind
  const as = c.A.slot
  const av = c.A.value
  const ae = c.A.expr
  const bk = c.B.kind
  const bs = c.B.slot
  const bv = c.B.value
  const be = c.B.expr
  if (no === undefined) {
    return (env) => {
      const a = ak === K.Local ? env[as] : ak === K.Constant ? av : ak === K.Parent ? env[0][as] : ae(env)
      const b = bk === K.Local ? env[bs] : bk === K.Constant ? bv : bk === K.Parent ? env[0][bs] : be(env)
      const t =
        typeof a === "number" && typeof b === "number"
          ? op === Cmp.Lt
            ? a < b
            : op === Cmp.Le
              ? a <= b
              : op === Cmp.Gt
                ? a > b
                : op === Cmp.Ge
                  ? a >= b
                  : op === Cmp.Eq
                    ? a === b
                    : a !== b
          : slow(a, b)
      return t ? yes(env) : (undefined as R)
    }
  }
  return (env) => {
    const a = ak === K.Local ? env[as] : ak === K.Constant ? av : ak === K.Parent ? env[0][as] : ae(env)
    const b = bk === K.Local ? env[bs] : bk === K.Constant ? bv : bk === K.Parent ? env[0][bs] : be(env)
    const t =
      typeof a === "number" && typeof b === "number"
        ? op === Cmp.Lt
          ? a < b
          : op === Cmp.Le
            ? a <= b
            : op === Cmp.Gt
              ? a > b
              : op === Cmp.Ge
                ? a >= b
                : op === Cmp.Eq
                  ? a === b
                  : a !== b
        : slow(a, b)
    return t ? yes(env) : no(env)
  }
}

/**
 * `test ? yes : no` as a value, where `test` is compiled already and the two values are operands: a local, a
 * parent's slot or a constant is read inline (a guard clause `if (n < 2) return n` reads `n` without a call), and a
 * comparison test is read and compared inline as in `branch`.
 */
export const valueBranch = (test: Expr, Y: Operand, N: Operand): Expr => {
  const yk = Y.kind
  const ys = Y.slot
  const yv = Y.value
  const ye = Y.expr
  const nk = N.kind
  const ns = N.slot
  const nv = N.value
  const ne = N.expr
  const c = comparisons.get(test)
  if (c === undefined) {
    return (env) =>
      test(env)
        ? yk === K.Local
          ? env[ys]
          : yk === K.Constant
            ? yv
            : yk === K.Parent
              ? env[0][ys]
              : ye(env)
        : nk === K.Local
          ? env[ns]
          : nk === K.Constant
            ? nv
            : nk === K.Parent
              ? env[0][ns]
              : ne(env)
  }
  const { op, slow } = c
  const ak = c.A.kind
  const as = c.A.slot
  const av = c.A.value
  const ae = c.A.expr
  const bk = c.B.kind
  const bs = c.B.slot
  const bv = c.B.value
  const be = c.B.expr
  return (env) => {
    const a = ak === K.Local ? env[as] : ak === K.Constant ? av : ak === K.Parent ? env[0][as] : ae(env)
    const b = bk === K.Local ? env[bs] : bk === K.Constant ? bv : bk === K.Parent ? env[0][bs] : be(env)
    const t =
      typeof a === "number" && typeof b === "number"
        ? op === Cmp.Lt
          ? a < b
          : op === Cmp.Le
            ? a <= b
            : op === Cmp.Gt
              ? a > b
              : op === Cmp.Ge
                ? a >= b
                : op === Cmp.Eq
                  ? a === b
                  : a !== b
        : slow(a, b)
    if (t) return yk === K.Local ? env[ys] : yk === K.Constant ? yv : yk === K.Parent ? env[0][ys] : ye(env)
    return nk === K.Local ? env[ns] : nk === K.Constant ? nv : nk === K.Parent ? env[0][ns] : ne(env)
  }
}

/** A comparison operator's closure, operands read inline. */
const comparison = (op: string, A: Operand, B: Operand): Expr => {
  const ak = A.kind
  const as = A.slot
  const av = A.value
  const ae = A.expr
  const bk = B.kind
  const bs = B.slot
  const bv = B.value
  const be = B.expr
  switch (op) {
    case "<":
      return (env) => {
        const a = ak === K.Local ? env[as] : ak === K.Constant ? av : ak === K.Parent ? env[0][as] : ae(env)
        const b = bk === K.Local ? env[bs] : bk === K.Constant ? bv : bk === K.Parent ? env[0][bs] : be(env)
        return typeof a === "number" && typeof b === "number" ? a < b : compareAny("<", a, b)
      }
    case "<=":
      return (env) => {
        const a = ak === K.Local ? env[as] : ak === K.Constant ? av : ak === K.Parent ? env[0][as] : ae(env)
        const b = bk === K.Local ? env[bs] : bk === K.Constant ? bv : bk === K.Parent ? env[0][bs] : be(env)
        return typeof a === "number" && typeof b === "number" ? a <= b : compareAny("<=", a, b)
      }
    case ">":
      return (env) => {
        const a = ak === K.Local ? env[as] : ak === K.Constant ? av : ak === K.Parent ? env[0][as] : ae(env)
        const b = bk === K.Local ? env[bs] : bk === K.Constant ? bv : bk === K.Parent ? env[0][bs] : be(env)
        return typeof a === "number" && typeof b === "number" ? a > b : compareAny(">", a, b)
      }
    case ">=":
      return (env) => {
        const a = ak === K.Local ? env[as] : ak === K.Constant ? av : ak === K.Parent ? env[0][as] : ae(env)
        const b = bk === K.Local ? env[bs] : bk === K.Constant ? bv : bk === K.Parent ? env[0][bs] : be(env)
        return typeof a === "number" && typeof b === "number" ? a >= b : compareAny(">=", a, b)
      }
    case "===":
      return (env) => {
        const a = ak === K.Local ? env[as] : ak === K.Constant ? av : ak === K.Parent ? env[0][as] : ae(env)
        const b = bk === K.Local ? env[bs] : bk === K.Constant ? bv : bk === K.Parent ? env[0][bs] : be(env)
        return a === b
      }
    case "!==":
      return (env) => {
        const a = ak === K.Local ? env[as] : ak === K.Constant ? av : ak === K.Parent ? env[0][as] : ae(env)
        const b = bk === K.Local ? env[bs] : bk === K.Constant ? bv : bk === K.Parent ? env[0][bs] : be(env)
        return a !== b
      }
  }
  throw new Error(`internal: ${op} is not a comparison`)
}

/** An arithmetic, bitwise or other binary operator's closure, operands read inline. */
const arithmeticBinary = (op: string, A: Operand, B: Operand): Expr => {
  const ak = A.kind
  const as = A.slot
  const av = A.value
  const ae = A.expr
  const bk = B.kind
  const bs = B.slot
  const bv = B.value
  const be = B.expr
  switch (op) {
    case "+":
      return (env) => {
        const a = ak === K.Local ? env[as] : ak === K.Constant ? av : ak === K.Parent ? env[0][as] : ae(env)
        const b = bk === K.Local ? env[bs] : bk === K.Constant ? bv : bk === K.Parent ? env[0][bs] : be(env)
        return typeof a === "number" && typeof b === "number" ? a + b : add(a, b)
      }
    case "-":
      return (env) => {
        const a = ak === K.Local ? env[as] : ak === K.Constant ? av : ak === K.Parent ? env[0][as] : ae(env)
        const b = bk === K.Local ? env[bs] : bk === K.Constant ? bv : bk === K.Parent ? env[0][bs] : be(env)
        return typeof a === "number" && typeof b === "number" ? a - b : arithmetic("-", a, b)
      }
    case "*":
      return (env) => {
        const a = ak === K.Local ? env[as] : ak === K.Constant ? av : ak === K.Parent ? env[0][as] : ae(env)
        const b = bk === K.Local ? env[bs] : bk === K.Constant ? bv : bk === K.Parent ? env[0][bs] : be(env)
        return typeof a === "number" && typeof b === "number" ? a * b : arithmetic("*", a, b)
      }
    case "/":
      return (env) => {
        const a = ak === K.Local ? env[as] : ak === K.Constant ? av : ak === K.Parent ? env[0][as] : ae(env)
        const b = bk === K.Local ? env[bs] : bk === K.Constant ? bv : bk === K.Parent ? env[0][bs] : be(env)
        return typeof a === "number" && typeof b === "number" ? a / b : arithmetic("/", a, b)
      }
    case "%":
      return (env) => {
        const a = ak === K.Local ? env[as] : ak === K.Constant ? av : ak === K.Parent ? env[0][as] : ae(env)
        const b = bk === K.Local ? env[bs] : bk === K.Constant ? bv : bk === K.Parent ? env[0][bs] : be(env)
        return typeof a === "number" && typeof b === "number" ? a % b : arithmetic("%", a, b)
      }
    case "&":
      return (env) => {
        const a = ak === K.Local ? env[as] : ak === K.Constant ? av : ak === K.Parent ? env[0][as] : ae(env)
        const b = bk === K.Local ? env[bs] : bk === K.Constant ? bv : bk === K.Parent ? env[0][bs] : be(env)
        return typeof a === "number" && typeof b === "number" ? a & b : arithmetic("&", a, b)
      }
    case "|":
      return (env) => {
        const a = ak === K.Local ? env[as] : ak === K.Constant ? av : ak === K.Parent ? env[0][as] : ae(env)
        const b = bk === K.Local ? env[bs] : bk === K.Constant ? bv : bk === K.Parent ? env[0][bs] : be(env)
        return typeof a === "number" && typeof b === "number" ? a | b : arithmetic("|", a, b)
      }
  }
  const f = binaryOperator(op)
  return (env) =>
    f(
      ak === K.Local ? env[as] : ak === K.Constant ? av : ak === K.Parent ? env[0][as] : ae(env),
      bk === K.Local ? env[bs] : bk === K.Constant ? bv : bk === K.Parent ? env[0][bs] : be(env),
    )
}

/** A unary operator (`typeof` of an undeclared name is `"undefined"`, not an error). */
export const unaryExpression = (ctx: CompileContext, n: Node): Expr => {
  const op: string = n.operator
  if (op === "typeof") {
    if (n.argument.type === "Identifier") {
      const b = bindingOf(ctx, n.argument)
      const read = b === null ? readGlobal(ctx, n.argument, n.argument.name, true) : readBinding(ctx, n.argument, b)
      return (env) => typeOf(read(env))
    }
    const a = ctx.expr(n.argument)
    return (env) => typeOf(a(env))
  }
  if (op === "delete") return deleteExpression(ctx, n)
  const a = ctx.expr(n.argument)
  switch (op) {
    case "!":
      return (env) => !a(env)
    case "void":
      return (env) => {
        a(env)
        return undefined
      }
    case "-":
      return (env) => {
        const v = a(env)
        return typeof v === "number" ? -v : unary("-", v)
      }
    case "+":
      return (env) => {
        const v = a(env)
        return typeof v === "number" ? v : toNumber(v)
      }
    case "~":
      return (env) => {
        const v = a(env)
        return typeof v === "number" ? ~v : unary("~", v)
      }
  }
  return unsupported(n, `The ${op} operator is not supported`, "Use a supported operator")
}

/** `&&`, `||` and `??`. */
export const logical = (ctx: CompileContext, n: Node): Expr => {
  const l = ctx.expr(n.left)
  const r = ctx.expr(n.right)
  switch (n.operator) {
    case "&&":
      return (env) => {
        const v = l(env)
        return v ? r(env) : v
      }
    case "||":
      return (env) => {
        const v = l(env)
        return v ? v : r(env)
      }
    default:
      return (env) => {
        const v = l(env)
        return v === undefined || v === null ? r(env) : v
      }
  }
}

/** `test ? a : b` (a function in either branch stays anonymous: `const f = c ? () => 1 : g` names nothing). */
export const conditional = (ctx: CompileContext, n: Node): Expr => {
  const t = ctx.expr(n.test)
  return valueBranch(t, operand(ctx, n.consequent), operand(ctx, n.alternate))
}

/** `a, b, c`. */
export const sequence = (ctx: CompileContext, n: Node): Expr => {
  const parts: Expr[] = n.expressions.map((x: Node) => ctx.expr(x))
  const last = parts.pop()!
  return (env) => {
    for (let i = 0; i < parts.length; i++) parts[i](env)
    return last(env)
  }
}
