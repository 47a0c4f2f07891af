/**
 * Assignments and updates: `=`, compound (`+=` ...), logical (`&&=` `||=` `??=`), `++`/`--`, and member
 * references (a member target evaluates its object and key once, then reads and writes through them).
 */
import type { Node } from "../parse.js"
import type { Location } from "@codemode/core/sandbox"
import type { Value } from "../runtime/functions.js"
import { add, toNumber, toPrimitive, toPropertyKey } from "../runtime/operators.js"
import { throwTypeError } from "../runtime/errors.js"
import { getProp, setComputed, setProp } from "../runtime/properties.js"
import { assignWriter, identifier, plainLocalSlot, readResolved } from "./bindings.js"
import type { CompileContext, Env, Expr, Writer } from "./context.js"
import { memberKey, superParts } from "./members.js"
import { OperandKind as K, operand } from "./operand.js"
import { binaryOperator, logicalShortCircuits } from "./operators.js"
import { privateGet, privateSet, superGet, superSet } from "./ops.js"
import { unconvertedKeyText } from "./printer.js"
import { unsupported } from "./shared.js"

/** A member target whose object and key have been evaluated. */
export interface Reference {
  get(): Value
  set(v: Value): void
}

/**
 * The reference `obj[key]`: the key is converted once, when the reference is first read or written and only
 * after the object was found not to be `null` or `undefined` (so `null[k] += 1` fails before `k.toString` runs,
 * and `o[k] += 1` converts `k` once).
 */
export const memberReference = (obj: Value, rawKey: Value, loc: Location): Reference => {
  let key: PropertyKey | undefined
  return {
    get: () => {
      if (obj === undefined || obj === null)
        throwTypeError(`Cannot read properties of ${obj} (reading '${unconvertedKeyText(rawKey)}')`, loc)
      if (key === undefined) key = toPropertyKey(rawKey)
      return getProp(obj, key, loc)
    },
    set: (v) => {
      if (obj === undefined || obj === null)
        throwTypeError(`Cannot set properties of ${obj} (setting '${unconvertedKeyText(rawKey)}')`, loc)
      if (key === undefined) key = toPropertyKey(rawKey)
      setProp(obj, key, v, loc)
    },
  }
}

/**
 * A member expression as an assignment target: evaluates the object and key once and returns get/set
 * accessors (used by compound assignments, updates and destructuring).
 */
export const reference = (ctx: CompileContext, target: Node): ((env: Env) => Reference) => {
  if (target.type !== "MemberExpression") {
    return unsupported(target, "Invalid assignment target", "Assign to a variable or a property")
  }
  const loc = ctx.loc(target)
  if (target.object.type === "Super") {
    const { home, self } = superParts(ctx, target.object)
    const k = memberKey(ctx, target)
    return (env) => {
      const h = home(env)
      const t = self(env)
      const key = k(env)
      return { get: () => superGet(h, key, t), set: (v) => superSet(h, key, v, t) }
    }
  }
  const o = ctx.expr(target.object)
  if (target.property.type === "PrivateIdentifier") {
    const sym = readResolved(ctx, target.property)
    const name = target.property.name
    return (env) => {
      const obj = o(env)
      const s = sym(env)
      return { get: () => privateGet(obj, s, name, loc), set: (v) => privateSet(obj, s, name, v, loc) }
    }
  }
  if (!target.computed) {
    const name: string = target.property.name
    return (env) => memberReference(o(env), name, loc)
  }
  const k = ctx.expr(target.property)
  return (env) => {
    const obj = o(env)
    return memberReference(obj, k(env), loc)
  }
}

/** A writer for any assignment target (identifier, member, pattern). */
export const assignTarget = (ctx: CompileContext, target: Node): Writer => {
  if (target.type === "Identifier") return assignWriter(ctx, target)
  if (target.type === "MemberExpression") {
    const ref = reference(ctx, target)
    return (env, v) => ref(env).set(v)
  }
  return ctx.pattern(target, "assign")
}

/** `target.key = value` for a member target. */
export const memberAssignment = (ctx: CompileContext, target: Node, valueNode: Node): Expr => {
  const loc = ctx.loc(target)
  if (target.object.type === "Super" || target.property.type === "PrivateIdentifier") {
    const ref = reference(ctx, target)
    const v = ctx.expr(valueNode)
    return (env) => {
      const r = ref(env)
      const value = v(env)
      r.set(value)
      return value
    }
  }
  if (!target.computed && target.property.name !== "length") {
    const key: string = target.property.name
    const O = operand(ctx, target.object)
    const V = operand(ctx, valueNode)
    const ok = O.kind
    const os = O.slot
    const oe = O.expr
    const vk = V.kind
    const vs = V.slot
    const vv = V.value
    const ve = V.expr
    return (env) => {
      const obj = ok === K.Local ? env[os] : ok === K.Parent ? env[0][os] : oe(env)
      const value = vk === K.Local ? env[vs] : vk === K.Constant ? vv : vk === K.Parent ? env[0][vs] : ve(env)
      if (typeof obj === "object" && obj !== null) obj[key] = value
      else setProp(obj, key, value, loc)
      return value
    }
  }
  const o = ctx.expr(target.object)
  if (!target.computed) {
    // An array's length converts its value and is checked before the array grows: `setProp` does both.
    const v = ctx.expr(valueNode)
    return (env) => {
      const obj = o(env)
      const value = v(env)
      setProp(obj, "length", value, loc)
      return value
    }
  }
  const k = ctx.expr(target.property)
  const v = ctx.expr(valueNode)
  return (env) => {
    const obj = o(env)
    const key = k(env)
    const value = v(env)
    if (obj === undefined || obj === null)
      throwTypeError(`Cannot set properties of ${obj} (setting '${unconvertedKeyText(key)}')`, loc)
    setComputed(obj, key, value, loc)
    return value
  }
}

/** `ToNumeric` of an updated value and the value after adding `delta`. */
const bump = (old: Value, delta: number): [Value, Value] => {
  const num = typeof old === "number" ? old : toNumber(toPrimitive(old, "number"))
  return [num, num + delta]
}

/** `++x`, `x--`, `o.k++`... */
export const update = (ctx: CompileContext, n: Node): Expr => {
  const delta = n.operator === "++" ? 1 : -1
  const prefix: boolean = n.prefix
  const target = n.argument
  if (target.type === "Identifier") {
    const slot = plainLocalSlot(ctx, target)
    if (slot >= 0) {
      return prefix
        ? (env) => {
            const v = env[slot]
            return (env[slot] = typeof v === "number" ? v + delta : bump(v, delta)[1])
          }
        : (env) => {
            const v = env[slot]
            if (typeof v === "number") {
              env[slot] = v + delta
              return v
            }
            const [old, next] = bump(v, delta)
            env[slot] = next
            return old
          }
    }
    const read = identifier(ctx, target)
    const write = assignWriter(ctx, target)
    return (env) => {
      const [old, next] = bump(read(env), delta)
      write(env, next)
      return prefix ? next : old
    }
  }
  const ref = reference(ctx, target)
  return (env) => {
    const r = ref(env)
    const [old, next] = bump(r.get(), delta)
    r.set(next)
    return prefix ? next : old
  }
}

/** `=`, compound and logical assignment. */
export const assignment = (ctx: CompileContext, n: Node): Expr => {
  const op: string = n.operator
  const target = n.left
  if (op === "=") {
    if (target.type === "Identifier") {
      const write = assignWriter(ctx, target)
      const v = ctx.expr(n.right, target.name)
      return (env) => {
        const value = v(env)
        write(env, value)
        return value
      }
    }
    if (target.type === "MemberExpression") return memberAssignment(ctx, target, n.right)
    const bind = ctx.pattern(target, "assign", n.right)
    const v = ctx.expr(n.right)
    return (env) => {
      const value = v(env)
      bind(env, value)
      return value
    }
  }
  if (op === "&&=" || op === "||=" || op === "??=") return logicalAssignment(ctx, n)
  const binop = op.slice(0, -1)
  const v = ctx.expr(n.right)
  if (target.type === "Identifier") {
    const slot = plainLocalSlot(ctx, target)
    if (slot >= 0) {
      if (binop === "+") {
        return (env) => {
          const a = env[slot]
          const c = v(env)
          return (env[slot] = typeof a === "number" && typeof c === "number" ? a + c : add(a, c))
        }
      }
      const f = binaryOperator(binop)
      return (env) => (env[slot] = f(env[slot], v(env)))
    }
    const read = identifier(ctx, target)
    const write = assignWriter(ctx, target)
    const f = binaryOperator(binop)
    return (env) => {
      const value = f(read(env), v(env))
      write(env, value)
      return value
    }
  }
  const ref = reference(ctx, target)
  const f = binaryOperator(binop)
  return (env) => {
    const r = ref(env)
    const value = f(r.get(), v(env))
    r.set(value)
    return value
  }
}

/** `a &&= b`, `a ||= b`, `a ??= b`: assigns only when the operator does not short-circuit. */
const logicalAssignment = (ctx: CompileContext, n: Node): Expr => {
  const op: string = n.operator.slice(0, -1)
  const target = n.left
  if (target.type === "Identifier") {
    const read = identifier(ctx, target)
    const write = assignWriter(ctx, target)
    const v = ctx.expr(n.right, target.name)
    return (env) => {
      const cur = read(env)
      if (logicalShortCircuits(op, cur)) return cur
      const value = v(env)
      write(env, value)
      return value
    }
  }
  const ref = reference(ctx, target)
  const v = ctx.expr(n.right)
  return (env) => {
    const r = ref(env)
    const cur = r.get()
    if (logicalShortCircuits(op, cur)) return cur
    const value = v(env)
    r.set(value)
    return value
  }
}
