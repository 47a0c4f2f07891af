/**
 * Member expressions: `o.k`, `o[k]`, `o.#k`, `super.k`, optional chains and `delete`. Reads of a plain object's
 * property go straight to the host object (the prototype chain belongs to the realm); primitives look their
 * properties up on the realm's prototypes.
 */
import type { Node } from "../parse.js"
import type { Location } from "@codemode/core/sandbox"
import { throwReferenceError, throwTypeError } from "../runtime/errors.js"
import type { Value } from "../runtime/functions.js"
import { notIterableValue } from "../runtime/generators.js"
import { toPropertyKey } from "../runtime/operators.js"
import { deleteProp, getComputed, getPrimitiveProp } from "../runtime/properties.js"
import { readBinding, readResolved } from "./bindings.js"
import type { CompileContext, Env, Expr } from "./context.js"
import { OperandKind as K, operand } from "./operand.js"
import { privateGet, superGet } from "./ops.js"
import { unconvertedKeyText } from "./printer.js"
import { SHORT } from "./shared.js"

/** The bindings a `super.x` needs: the method's home object and `this`. */
export const superParts = (ctx: CompileContext, superNode: Node): { home: Expr; self: Expr } => {
  const refs = ctx.analysis.supers.get(superNode)!
  return { home: readBinding(ctx, superNode, refs.home), self: readBinding(ctx, superNode, refs.this) }
}

/** The (already converted) property key of a member expression. */
export const memberKey = (ctx: CompileContext, target: Node): Expr => {
  if (!target.computed) {
    const name = target.property.name
    return () => name
  }
  const p = target.property
  if (p.type === "Literal" && (typeof p.value === "string" || typeof p.value === "number")) {
    const v = p.value
    return () => v
  }
  const k = ctx.expr(p)
  return (env) => toPropertyKey(k(env))
}

/**
 * `obj[key]` for a key of any type: the object is checked before the key is converted (`null[k]` fails without
 * running `k.toString`).
 */
export const readComputed = (obj: Value, key: Value, loc: Location): Value => {
  if (obj === undefined || obj === null) {
    if (key === Symbol.iterator) return throwTypeError(notIterableValue(obj), loc)
    return throwTypeError(`Cannot read properties of ${obj} (reading '${unconvertedKeyText(key)}')`, loc)
  }
  return getComputed(obj, key, loc)
}

/** True when an optional-chain link short-circuits on `obj`. */
const shorts = (obj: Value, optional: boolean): boolean =>
  obj === SHORT || (optional && (obj === undefined || obj === null))

/** A member read: `o.k`, `o[k]`, `o.#k`, `super.k`. With `chain`, a short-circuited object propagates. */
export const member = (ctx: CompileContext, n: Node, chain: boolean): Expr => {
  const loc = ctx.loc(n)
  if (n.object.type === "Super") {
    const { home, self } = superParts(ctx, n.object)
    const k = memberKey(ctx, n)
    return (env) => superGet(home(env), k(env), self(env))
  }
  const optional: boolean = n.optional
  if (n.property.type === "PrivateIdentifier") {
    const o = chain ? ctx.chain(n.object) : ctx.expr(n.object)
    const sym = readResolved(ctx, n.property)
    const name = n.property.name
    return (env) => {
      const obj = o(env)
      if (chain && shorts(obj, optional)) return SHORT
      return privateGet(obj, sym(env), name, loc)
    }
  }
  if (chain) {
    const o = ctx.chain(n.object)
    if (!n.computed) {
      const key: string = n.property.name
      return (env) => {
        const obj = o(env)
        if (shorts(obj, optional)) return SHORT
        return typeof obj === "object" && obj !== null ? obj[key] : getPrimitiveProp(obj, key, loc)
      }
    }
    const k = ctx.expr(n.property)
    return (env) => {
      const obj = o(env)
      if (shorts(obj, optional)) return SHORT
      return readComputed(obj, k(env), loc)
    }
  }
  const O = operand(ctx, n.object)
  const ok = O.kind
  const os = O.slot
  const oe = O.expr
  if (!n.computed) {
    const key: string = n.property.name
    if (key === "length") {
      return (env) => {
        const obj = ok === K.Local ? env[os] : ok === K.Parent ? env[0][os] : oe(env)
        return typeof obj === "string"
          ? obj.length
          : typeof obj === "object" && obj !== null
            ? obj.length
            : getPrimitiveProp(obj, key, loc)
      }
    }
    return (env) => {
      const obj = ok === K.Local ? env[os] : ok === K.Parent ? env[0][os] : oe(env)
      return typeof obj === "object" && obj !== null ? obj[key] : getPrimitiveProp(obj, key, loc)
    }
  }
  const P = operand(ctx, n.property)
  const pk = P.kind
  const ps = P.slot
  const pv = P.value
  const pe = P.expr
  return (env) => {
    const obj = ok === K.Local ? env[os] : ok === K.Parent ? env[0][os] : oe(env)
    const key = pk === K.Local ? env[ps] : pk === K.Constant ? pv : pk === K.Parent ? env[0][ps] : pe(env)
    if (typeof obj === "object" && obj !== null && typeof key === "number") return obj[key]
    return readComputed(obj, key, loc)
  }
}

/** `delete o.k` / `delete o[k]` (anything else evaluates its operand and is `true`). */
export const deleteExpression = (ctx: CompileContext, n: Node): Expr => {
  let target = n.argument
  if (target.type === "ChainExpression") target = target.expression
  if (target.type !== "MemberExpression") {
    const a = ctx.expr(n.argument)
    return (env) => {
      a(env)
      return true
    }
  }
  const loc = ctx.loc(n)
  if (target.object.type === "Super") return () => throwReferenceError("Unsupported reference to 'super'", loc)
  const o = ctx.expr(target.object)
  const k = target.computed ? ctx.expr(target.property) : constant(target.property.name)
  const optional = target.optional
  return (env) => {
    const obj = o(env)
    if (optional && (obj === undefined || obj === null)) return true
    return deleteProp(obj, k(env), loc)
  }
}

/** A closure returning a constant. */
export const constant =
  (v: Value): Expr =>
  () =>
    v

/** `ChainExpression`: the whole chain, with a short-circuit giving `undefined`. */
export const chainExpression = (ctx: CompileContext, n: Node): Expr => {
  const inner = ctx.chain(n.expression)
  return (env: Env) => {
    const v = inner(env)
    return v === SHORT ? undefined : v
  }
}
