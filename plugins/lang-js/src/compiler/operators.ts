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
import { OperandKind as K, operand } from "./operand.js"
import { privateIn } from "./ops.js"
import { unsupported } from "./shared.js"

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

/** `test ? a : b` (a name given to the expression names anonymous functions in either branch). */
export const conditional = (ctx: CompileContext, n: Node, name?: string): Expr => {
  const t = ctx.expr(n.test)
  const a = ctx.expr(n.consequent, name)
  const b = ctx.expr(n.alternate, name)
  return (env) => (t(env) ? a(env) : b(env))
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
