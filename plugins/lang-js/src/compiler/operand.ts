/**
 * Operands: how the hot closures (binary operators, member reads, calls, counting loops) read a sub-expression.
 *
 * A local slot (a variable or `this`), a slot of the parent environment or a constant is read inline; anything else calls its compiled
 * closure. The reads are written out at each use (`kind === OperandKind.Local ? env[slot] : ...`) instead of going
 * through a shared helper: the host JIT keeps one call-site profile per closure literal, and a shared helper would
 * merge the profiles of every operator into one polymorphic call.
 *
 * An operand compiles its node exactly once, and a caller that needs the node both as an operand and as a closure
 * uses the operand's `expr`: compiling a node twice (once for a fast path, once for a fallback) makes compile time
 * exponential in the nesting depth.
 */
import type { Node } from "../parse.js"
import type { Value } from "../runtime/functions.js"
import { bindingOf, hopsOf } from "./bindings.js"
import type { CompileContext, Expr } from "./context.js"

/** How an operand is read. */
export const enum OperandKind {
  /** A slot of the current environment: `env[slot]`. */
  Local = 0,
  /** A constant: `value`. */
  Constant = 1,
  /** Any other expression: `expr(env)`. */
  Computed = 2,
  /** A slot of the parent environment: `env[0][slot]`. */
  Parent = 3,
}

/** An operand: its kind, the slot or constant it reads inline, and its compiled closure (valid for every kind). */
export interface Operand {
  readonly kind: OperandKind
  readonly slot: number
  readonly value: Value
  readonly expr: Expr
}

/** Compile a node as an operand. */
export const operand = (ctx: CompileContext, n: Node): Operand => {
  if (n.type === "Identifier" || n.type === "ThisExpression") {
    const b = n.type === "Identifier" ? bindingOf(ctx, n) : ctx.analysis.refs.get(n)!
    if (b !== null && !b.tdz) {
      const hops = hopsOf(ctx, n, b)
      if (hops === 0) return { kind: OperandKind.Local, slot: b.slot, value: undefined, expr: ctx.expr(n) }
      if (hops === 1) return { kind: OperandKind.Parent, slot: b.slot, value: undefined, expr: ctx.expr(n) }
    }
  }
  if (n.type === "Literal" && !n.regex && n.bigint === undefined)
    return { kind: OperandKind.Constant, slot: -1, value: n.value, expr: ctx.expr(n) }
  return { kind: OperandKind.Computed, slot: -1, value: undefined, expr: ctx.expr(n) }
}

/** A node as an operand; an anonymous function or class among its values is named `name`. */
export const namedOperand = (ctx: CompileContext, n: Node, name: string | undefined): Operand =>
  name !== undefined &&
  (n.type === "FunctionExpression" || n.type === "ArrowFunctionExpression" || n.type === "ClassExpression")
    ? computed(ctx.expr(n, name))
    : operand(ctx, n)

/** An already compiled closure as an operand. */
export const computed = (expr: Expr): Operand => ({ kind: OperandKind.Computed, slot: -1, value: undefined, expr })

/** The operand of a missing argument. */
export const UNDEFINED_OPERAND: Operand = {
  kind: OperandKind.Constant,
  slot: -1,
  value: undefined,
  expr: () => undefined,
}
