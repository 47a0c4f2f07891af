/**
 * Calls: `f(...)`, `o.m(...)`, optional calls, `new`, `super(...)` and tagged templates.
 *
 * A call site with at most three plain arguments reads them inline and calls the callee's `CALL3` entry when it
 * has one (program functions with plain parameters), so no argument list is allocated; otherwise it builds the
 * list and calls `CALL`.
 */
import type { Node } from "../parse.js"
import type { Location } from "@codemode/core/sandbox"
import { throwReferenceError, throwTypeError } from "../runtime/errors.js"
import { appendOne } from "../runtime/arrays.js"
import { argumentsOf, NO_ARGS, type Value } from "../runtime/functions.js"
import { CALL, CALL3, CALLN, CONSTRUCT, CONSTRUCT3 } from "../runtime/internals.js"
import { getPrimitiveProp } from "../runtime/properties.js"
import { rt } from "../runtime/state.js"
import { envOf, readBinding, readResolved } from "./bindings.js"
import type { CompileContext, Env, Expr } from "./context.js"
import { memberKey, readComputed, superParts } from "./members.js"
import { OperandKind as K, type Operand, operand, UNDEFINED_OPERAND } from "./operand.js"
import {
  initializeInstance,
  notFunction,
  privateGet,
  spreadArgumentNotIterable,
  spreadInto,
  superConstruct,
  superConstruct3,
  superGet,
  templateObject,
} from "./ops.js"
import { printExpression } from "./printer.js"
import { SHORT, TDZ } from "./shared.js"

/** Up to three call arguments as inline operands, for calls that skip the argument list. */
export interface DirectArguments {
  readonly n: number
  readonly k0: K
  readonly s0: number
  readonly v0: Value
  readonly e0: Expr
  readonly k1: K
  readonly s1: number
  readonly v1: Value
  readonly e1: Expr
  readonly k2: K
  readonly s2: number
  readonly v2: Value
  readonly e2: Expr
}

/** A compiled argument list: the list builder, and the inline form when there are at most three plain arguments. */
export interface Arguments {
  readonly list: (env: Env) => Value[]
  readonly direct: DirectArguments | undefined
  /** The arguments as operands, when none is spread. */
  readonly operands: Operand[] | undefined
}

/** Compile call arguments (each argument once). */
export const argumentList = (ctx: CompileContext, nodes: Node[]): Arguments => {
  if (nodes.some((a) => a.type === "SpreadElement")) {
    const parts = nodes.map((a) =>
      a.type === "SpreadElement" ? { spread: true, e: ctx.expr(a.argument) } : { spread: false, e: ctx.expr(a) },
    )
    const list = (env: Env): Value[] => {
      const out: Value[] = []
      for (const p of parts) {
        if (p.spread) {
          const v = p.e(env)
          spreadInto(out, v, () => spreadArgumentNotIterable(v))
        } else out.push(p.e(env))
      }
      return out
    }
    return { list, direct: undefined, operands: undefined }
  }
  const ops = nodes.map((a) => operand(ctx, a))
  return { list: listOf(ops), direct: ops.length <= 3 ? directOf(ops) : undefined, operands: ops }
}

const listOf = (ops: Operand[]): ((env: Env) => Value[]) => {
  switch (ops.length) {
    case 0:
      return () => NO_ARGS
    case 1: {
      const [A] = ops
      const ak = A.kind
      const as = A.slot
      const av = A.value
      const ae = A.expr
      return (env) => [ak === K.Local ? env[as] : ak === K.Constant ? av : ak === K.Parent ? env[0][as] : ae(env)]
    }
    case 2: {
      const [A, B] = ops
      const ak = A.kind
      const as = A.slot
      const av = A.value
      const ae = A.expr
      const bk = B.kind
      const bs = B.slot
      const bv = B.value
      const be = B.expr
      return (env) => [
        ak === K.Local ? env[as] : ak === K.Constant ? av : ak === K.Parent ? env[0][as] : ae(env),
        bk === K.Local ? env[bs] : bk === K.Constant ? bv : bk === K.Parent ? env[0][bs] : be(env),
      ]
    }
    case 3: {
      const [A, B, C] = ops
      const ak = A.kind
      const as = A.slot
      const av = A.value
      const ae = A.expr
      const bk = B.kind
      const bs = B.slot
      const bv = B.value
      const be = B.expr
      const ck = C.kind
      const cs = C.slot
      const cv = C.value
      const ce = C.expr
      return (env) => [
        ak === K.Local ? env[as] : ak === K.Constant ? av : ak === K.Parent ? env[0][as] : ae(env),
        bk === K.Local ? env[bs] : bk === K.Constant ? bv : bk === K.Parent ? env[0][bs] : be(env),
        ck === K.Local ? env[cs] : ck === K.Constant ? cv : ck === K.Parent ? env[0][cs] : ce(env),
      ]
    }
    default: {
      // Locals and constants are read inline here too: a call with many arguments mostly passes variables.
      const kinds = ops.map((o) => o.kind)
      const slots = ops.map((o) => o.slot)
      const values = ops.map((o) => o.value)
      const items = ops.map((o) => o.expr)
      const count = ops.length
      return (env) => {
        const list = new Array(count)
        for (let i = 0; i < count; i++) {
          const k = kinds[i]
          list[i] = k === K.Local ? env[slots[i]] : k === K.Constant ? values[i] : items[i](env)
        }
        return list
      }
    }
  }
}

const directOf = (ops: Operand[]): DirectArguments => {
  const [A, B, C] = [0, 1, 2].map((i) => (i < ops.length ? ops[i] : UNDEFINED_OPERAND))
  return {
    n: ops.length,
    k0: A.kind,
    s0: A.slot,
    v0: A.value,
    e0: A.expr,
    k1: B.kind,
    s1: B.slot,
    v1: B.value,
    e1: B.expr,
    k2: C.kind,
    s2: C.slot,
    v2: C.value,
    e2: C.expr,
  }
}

/** Evaluate a callee and the `this` it should be called with (tagged templates, private and `super` methods). */
export const calleeAndThis = (ctx: CompileContext, callee: Node, chain: boolean): ((env: Env) => [Value, Value]) => {
  if (callee.type === "MemberExpression" && callee.object.type === "Super") {
    const { home, self } = superParts(ctx, callee.object)
    const k = memberKey(ctx, callee)
    return (env) => {
      const t = self(env)
      return [superGet(home(env), k(env), t), t]
    }
  }
  if (callee.type === "MemberExpression") {
    const loc = ctx.loc(callee)
    const o = chain ? ctx.chain(callee.object) : ctx.expr(callee.object)
    if (callee.property.type === "PrivateIdentifier") {
      const sym = readResolved(ctx, callee.property)
      const name = callee.property.name
      return (env) => {
        const obj = o(env)
        return [privateGet(obj, sym(env), name, loc), obj]
      }
    }
    const k = memberKey(ctx, callee)
    return (env) => {
      const obj = o(env)
      return [readComputed(obj, k(env), loc), obj]
    }
  }
  const f = ctx.expr(callee)
  return (env) => [f(env), undefined]
}

/** `f(...)`, `o.m(...)`, `o?.m(...)`, `f?.(...)`. With `chain`, a short-circuit propagates as `SHORT`. */
export const callExpression = (ctx: CompileContext, n: Node, chain: boolean): Expr => {
  const callee = n.callee
  if (callee.type === "Super") return superCall(ctx, n)
  if (
    callee.type === "MemberExpression" &&
    callee.object.type !== "Super" &&
    callee.property.type !== "PrivateIdentifier"
  )
    return methodCall(ctx, n, chain)
  const loc = ctx.loc(n)
  const text = printExpression(callee)
  const optionalCall: boolean = n.optional
  if (callee.type === "MemberExpression") {
    const ct = calleeAndThis(ctx, callee, chain)
    const args = argumentList(ctx, n.arguments).list
    return (env) => {
      const [f, thisValue] = ct(env)
      if (chain && optionalCall && (f === undefined || f === null)) return SHORT
      const a = args(env)
      rt.loc = loc
      return typeof f === "object" && f !== null && f[CALL] !== undefined
        ? f[CALL](thisValue, a, f)
        : notFunction(text, f, loc)
    }
  }
  if (chain) {
    const fe = ctx.chain(callee)
    const args = argumentList(ctx, n.arguments).list
    return (env) => {
      const f = fe(env)
      if (f === SHORT || (optionalCall && (f === undefined || f === null))) return SHORT
      const a = args(env)
      rt.loc = loc
      if (typeof f === "object" && f !== null) {
        const c = f[CALL]
        if (c !== undefined) return c(undefined, a, f)
      }
      return notFunction(text, f, loc)
    }
  }
  const F = operand(ctx, callee)
  const fk = F.kind
  const fs = F.slot
  const fe = F.expr
  const { list: args, direct, operands } = argumentList(ctx, n.arguments)
  if (direct) return plainDirectCall(F, direct, text, loc)
  if (operands !== undefined && operands.length <= MAX_WIDE) return plainWideCall(F, operands, args, text, loc)
  return (env) => {
    const f = fk === K.Local ? env[fs] : fk === K.Parent ? env[0][fs] : fe(env)
    const a = args(env)
    rt.loc = loc
    if (typeof f === "object" && f !== null) {
      const c = f[CALL]
      if (c !== undefined) return c(undefined, a, f)
    }
    return notFunction(text, f, loc)
  }
}

/** `o.m(...)` and `o[k](...)`: the object is `this`. */
const methodCall = (ctx: CompileContext, n: Node, chain: boolean): Expr => {
  const callee = n.callee
  const loc = ctx.loc(n)
  const memberLoc = ctx.loc(callee)
  const text = printExpression(callee)
  const optionalCall: boolean = n.optional
  const optionalMember: boolean = callee.optional
  if (chain || callee.computed) {
    const o = chain ? ctx.chain(callee.object) : ctx.expr(callee.object)
    const key: string | undefined = callee.computed ? undefined : callee.property.name
    const k = callee.computed ? ctx.expr(callee.property) : undefined
    const args = argumentList(ctx, n.arguments).list
    return (env) => {
      const obj = o(env)
      if (chain && (obj === SHORT || (optionalMember && (obj === undefined || obj === null)))) return SHORT
      const f =
        k !== undefined
          ? readComputed(obj, k(env), memberLoc)
          : typeof obj === "object" && obj !== null
            ? obj[key!]
            : getPrimitiveProp(obj, key, memberLoc)
      if (chain && optionalCall && (f === undefined || f === null)) return SHORT
      const a = args(env)
      rt.loc = loc
      if (typeof f === "object" && f !== null) {
        const c = f[CALL]
        if (c !== undefined) return c(obj, a, f)
      }
      return notFunction(text, f, loc)
    }
  }
  const key: string = callee.property.name
  const O = operand(ctx, callee.object)
  const ok = O.kind
  const os = O.slot
  const oe = O.expr
  const { list: args, direct } = argumentList(ctx, n.arguments)
  if (direct && direct.n === 1 && key === "push") return pushCall(ctx, O, direct, text, loc, memberLoc)
  if (direct) return methodDirectCall(O, key, direct, text, loc, memberLoc)
  return (env) => {
    const obj = ok === K.Local ? env[os] : ok === K.Parent ? env[0][os] : oe(env)
    const f = typeof obj === "object" && obj !== null ? obj[key] : getPrimitiveProp(obj, key, memberLoc)
    const a = args(env)
    rt.loc = loc
    if (typeof f === "object" && f !== null) {
      const c = f[CALL]
      if (c !== undefined) return c(obj, a, f)
    }
    return notFunction(text, f, loc)
  }
}

/**
 * `f(a0, ...)` with at most three plain arguments, one closure per argument count: the callee's `CALL3` entry when it
 * has one, else `CALL` with a list built here.
 */
const plainDirectCall = (F: Operand, direct: DirectArguments, text: string, loc: Location): Expr => {
  const fk = F.kind
  const fs = F.slot
  const fe = F.expr
  const { k0, s0, v0, e0, k1, s1, v1, e1, k2, s2, v2, e2 } = direct
  switch (direct.n) {
    case 0:
      return (env) => {
        const f = fk === K.Local ? env[fs] : fk === K.Parent ? env[0][fs] : fe(env)
        rt.loc = loc
        if (typeof f === "object" && f !== null) {
          const c3 = f[CALL3]
          if (c3 !== undefined) return c3(undefined, undefined, undefined, undefined, f, 0)
          const c = f[CALL]
          if (c !== undefined) return c(undefined, NO_ARGS, f)
        }
        return notFunction(text, f, loc)
      }
    case 1:
      return (env) => {
        const f = fk === K.Local ? env[fs] : fk === K.Parent ? env[0][fs] : fe(env)
        const a0 = k0 === K.Local ? env[s0] : k0 === K.Constant ? v0 : k0 === K.Parent ? env[0][s0] : e0(env)
        rt.loc = loc
        if (typeof f === "object" && f !== null) {
          const c3 = f[CALL3]
          if (c3 !== undefined) return c3(undefined, a0, undefined, undefined, f, 1)
          const c = f[CALL]
          if (c !== undefined) return c(undefined, [a0], f)
        }
        return notFunction(text, f, loc)
      }
    case 2:
      return (env) => {
        const f = fk === K.Local ? env[fs] : fk === K.Parent ? env[0][fs] : fe(env)
        const a0 = k0 === K.Local ? env[s0] : k0 === K.Constant ? v0 : k0 === K.Parent ? env[0][s0] : e0(env)
        const a1 = k1 === K.Local ? env[s1] : k1 === K.Constant ? v1 : k1 === K.Parent ? env[0][s1] : e1(env)
        rt.loc = loc
        if (typeof f === "object" && f !== null) {
          const c3 = f[CALL3]
          if (c3 !== undefined) return c3(undefined, a0, a1, undefined, f, 2)
          const c = f[CALL]
          if (c !== undefined) return c(undefined, [a0, a1], f)
        }
        return notFunction(text, f, loc)
      }
    default:
      return (env) => {
        const f = fk === K.Local ? env[fs] : fk === K.Parent ? env[0][fs] : fe(env)
        const a0 = k0 === K.Local ? env[s0] : k0 === K.Constant ? v0 : k0 === K.Parent ? env[0][s0] : e0(env)
        const a1 = k1 === K.Local ? env[s1] : k1 === K.Constant ? v1 : k1 === K.Parent ? env[0][s1] : e1(env)
        const a2 = k2 === K.Local ? env[s2] : k2 === K.Constant ? v2 : k2 === K.Parent ? env[0][s2] : e2(env)
        rt.loc = loc
        if (typeof f === "object" && f !== null) {
          const c3 = f[CALL3]
          if (c3 !== undefined) return c3(undefined, a0, a1, a2, f, 3)
          const c = f[CALL]
          if (c !== undefined) return c(undefined, [a0, a1, a2], f)
        }
        return notFunction(text, f, loc)
      }
  }
}

/** The most arguments a call passes as its callee's environment (`CALLN`). */
const MAX_WIDE = 6

/**
 * `f(a0, ..., an)` with four to six plain arguments: they are read into `[unused, a0, ...]`, which a callee with a
 * `CALLN` entry takes as its environment; any other callee gets the argument list.
 */
const plainWideCall = (
  F: Operand,
  operands: Operand[],
  args: (env: Env) => Value[],
  text: string,
  loc: Location,
): Expr => {
  const fk = F.kind
  const fs = F.slot
  const fe = F.expr
  const [A, B, C, D, E, G] = [0, 1, 2, 3, 4, 5].map((i) => (i < operands.length ? operands[i] : UNDEFINED_OPERAND))
  const [k0, k1, k2, k3, k4, k5] = [A.kind, B.kind, C.kind, D.kind, E.kind, G.kind]
  const [s0, s1, s2, s3, s4, s5] = [A.slot, B.slot, C.slot, D.slot, E.slot, G.slot]
  const [v0, v1, v2, v3, v4, v5] = [A.value, B.value, C.value, D.value, E.value, G.value]
  const [e0, e1, e2, e3, e4, e5] = [A.expr, B.expr, C.expr, D.expr, E.expr, G.expr]
  const count = operands.length
  return (env) => {
    const f = fk === K.Local ? env[fs] : fk === K.Parent ? env[0][fs] : fe(env)
    const cn = typeof f === "object" && f !== null ? f[CALLN] : undefined
    if (cn === undefined) {
      const a = args(env)
      rt.loc = loc
      if (typeof f === "object" && f !== null) {
        const c = f[CALL]
        if (c !== undefined) return c(undefined, a, f)
      }
      return notFunction(text, f, loc)
    }
    const a0 = k0 === K.Local ? env[s0] : k0 === K.Constant ? v0 : k0 === K.Parent ? env[0][s0] : e0(env)
    const a1 = k1 === K.Local ? env[s1] : k1 === K.Constant ? v1 : k1 === K.Parent ? env[0][s1] : e1(env)
    const a2 = k2 === K.Local ? env[s2] : k2 === K.Constant ? v2 : k2 === K.Parent ? env[0][s2] : e2(env)
    const a3 = k3 === K.Local ? env[s3] : k3 === K.Constant ? v3 : k3 === K.Parent ? env[0][s3] : e3(env)
    if (count === 4) {
      rt.loc = loc
      return cn(undefined, [undefined, a0, a1, a2, a3], f)
    }
    const a4 = k4 === K.Local ? env[s4] : k4 === K.Constant ? v4 : k4 === K.Parent ? env[0][s4] : e4(env)
    if (count === 5) {
      rt.loc = loc
      return cn(undefined, [undefined, a0, a1, a2, a3, a4], f)
    }
    const a5 = k5 === K.Local ? env[s5] : k5 === K.Constant ? v5 : k5 === K.Parent ? env[0][s5] : e5(env)
    rt.loc = loc
    return cn(undefined, [undefined, a0, a1, a2, a3, a4, a5], f)
  }
}

/** `o.m(a0, ...)` with at most three plain arguments, one closure per argument count (see `plainDirectCall`). */
const methodDirectCall = (
  O: Operand,
  key: string,
  direct: DirectArguments,
  text: string,
  loc: Location,
  memberLoc: Location,
): Expr => {
  const ok = O.kind
  const os = O.slot
  const oe = O.expr
  const { k0, s0, v0, e0, k1, s1, v1, e1, k2, s2, v2, e2 } = direct
  switch (direct.n) {
    case 0:
      return (env) => {
        const obj = ok === K.Local ? env[os] : ok === K.Parent ? env[0][os] : oe(env)
        const f = typeof obj === "object" && obj !== null ? obj[key] : getPrimitiveProp(obj, key, memberLoc)
        rt.loc = loc
        if (typeof f === "object" && f !== null) {
          const c3 = f[CALL3]
          if (c3 !== undefined) return c3(obj, undefined, undefined, undefined, f, 0)
          const c = f[CALL]
          if (c !== undefined) return c(obj, NO_ARGS, f)
        }
        return notFunction(text, f, loc)
      }
    case 1:
      return (env) => {
        const obj = ok === K.Local ? env[os] : ok === K.Parent ? env[0][os] : oe(env)
        const f = typeof obj === "object" && obj !== null ? obj[key] : getPrimitiveProp(obj, key, memberLoc)
        const a0 = k0 === K.Local ? env[s0] : k0 === K.Constant ? v0 : k0 === K.Parent ? env[0][s0] : e0(env)
        rt.loc = loc
        if (typeof f === "object" && f !== null) {
          const c3 = f[CALL3]
          if (c3 !== undefined) return c3(obj, a0, undefined, undefined, f, 1)
          const c = f[CALL]
          if (c !== undefined) return c(obj, [a0], f)
        }
        return notFunction(text, f, loc)
      }
    case 2:
      return (env) => {
        const obj = ok === K.Local ? env[os] : ok === K.Parent ? env[0][os] : oe(env)
        const f = typeof obj === "object" && obj !== null ? obj[key] : getPrimitiveProp(obj, key, memberLoc)
        const a0 = k0 === K.Local ? env[s0] : k0 === K.Constant ? v0 : k0 === K.Parent ? env[0][s0] : e0(env)
        const a1 = k1 === K.Local ? env[s1] : k1 === K.Constant ? v1 : k1 === K.Parent ? env[0][s1] : e1(env)
        rt.loc = loc
        if (typeof f === "object" && f !== null) {
          const c3 = f[CALL3]
          if (c3 !== undefined) return c3(obj, a0, a1, undefined, f, 2)
          const c = f[CALL]
          if (c !== undefined) return c(obj, [a0, a1], f)
        }
        return notFunction(text, f, loc)
      }
    default:
      return (env) => {
        const obj = ok === K.Local ? env[os] : ok === K.Parent ? env[0][os] : oe(env)
        const f = typeof obj === "object" && obj !== null ? obj[key] : getPrimitiveProp(obj, key, memberLoc)
        const a0 = k0 === K.Local ? env[s0] : k0 === K.Constant ? v0 : k0 === K.Parent ? env[0][s0] : e0(env)
        const a1 = k1 === K.Local ? env[s1] : k1 === K.Constant ? v1 : k1 === K.Parent ? env[0][s1] : e1(env)
        const a2 = k2 === K.Local ? env[s2] : k2 === K.Constant ? v2 : k2 === K.Parent ? env[0][s2] : e2(env)
        rt.loc = loc
        if (typeof f === "object" && f !== null) {
          const c3 = f[CALL3]
          if (c3 !== undefined) return c3(obj, a0, a1, a2, f, 3)
          const c = f[CALL]
          if (c !== undefined) return c(obj, [a0, a1, a2], f)
        }
        return notFunction(text, f, loc)
      }
  }
}

/**
 * `o.push(x)`: when `o.push` is the realm's own `Array.prototype.push` (as it was when the program was compiled) and
 * `o` a program array, the value is appended here (`appendOne`: the same growth check and store as the built-in),
 * without building an argument list; any other callee is called as usual.
 */
const pushCall = (
  ctx: CompileContext,
  O: Operand,
  direct: DirectArguments,
  text: string,
  loc: Location,
  memberLoc: Location,
): Expr => {
  const push = ctx.realm.ArrayProto.push
  const ok = O.kind
  const os = O.slot
  const oe = O.expr
  const { k0, s0, v0, e0 } = direct
  return (env) => {
    const obj = ok === K.Local ? env[os] : ok === K.Parent ? env[0][os] : oe(env)
    const f = typeof obj === "object" && obj !== null ? obj.push : getPrimitiveProp(obj, "push", memberLoc)
    const a0 = k0 === K.Local ? env[s0] : k0 === K.Constant ? v0 : k0 === K.Parent ? env[0][s0] : e0(env)
    rt.loc = loc
    if (f === push) {
      const length = appendOne(obj, a0)
      if (length >= 0) return length
    }
    if (typeof f === "object" && f !== null) {
      const c3 = f[CALL3]
      if (c3 !== undefined) return c3(obj, a0, undefined, undefined, f, 1)
      const c = f[CALL]
      if (c !== undefined) return c(obj, [a0], f)
    }
    return notFunction(text, f, loc)
  }
}

/** `super(...args)` in a derived constructor: constructs with the parent, binds `this`, installs the fields. */
export const superCall = (ctx: CompileContext, n: Node): Expr => {
  const refs = ctx.analysis.supers.get(n.callee)!
  const func = readBinding(ctx, n.callee, refs.func!)
  const newTarget = readBinding(ctx, n.callee, refs.newTarget!)
  const thisEnv = envOf(ctx, n.callee, refs.this)
  const thisSlot = refs.this.slot
  const { list: args, direct } = argumentList(ctx, n.arguments)
  const loc = ctx.loc(n)
  const bind = (env: Env, f: Value, result: Value): Value => {
    const e = thisEnv(env)
    if (e[thisSlot] !== TDZ) throwReferenceError("Super constructor may only be called once", loc)
    e[thisSlot] = result
    initializeInstance(f, result)
    return result
  }
  if (direct !== undefined) {
    const { n: count, k0, s0, v0, e0, k1, s1, v1, e1, k2, s2, v2, e2 } = direct
    return (env) => {
      const f = func(env)
      const a0 = k0 === K.Local ? env[s0] : k0 === K.Constant ? v0 : k0 === K.Parent ? env[0][s0] : e0(env)
      const a1 = k1 === K.Local ? env[s1] : k1 === K.Constant ? v1 : k1 === K.Parent ? env[0][s1] : e1(env)
      const a2 = k2 === K.Local ? env[s2] : k2 === K.Constant ? v2 : k2 === K.Parent ? env[0][s2] : e2(env)
      return bind(env, f, superConstruct3(f, a0, a1, a2, count, newTarget(env), loc))
    }
  }
  return (env) => {
    const f = func(env)
    const a = args(env)
    return bind(env, f, superConstruct(f, a, newTarget(env), loc))
  }
}

/** `new F(...)`. */
export const newExpression = (ctx: CompileContext, n: Node): Expr => {
  const c = ctx.expr(n.callee)
  const { list: args, direct } = argumentList(ctx, n.arguments)
  const loc = ctx.loc(n)
  const text = printExpression(n.callee)
  if (direct !== undefined) {
    // At most three plain arguments: a constructor with a list-free entry gets them as they are.
    const { n: count, k0, s0, v0, e0, k1, s1, v1, e1, k2, s2, v2, e2 } = direct
    return (env) => {
      const f = c(env)
      const a0 = k0 === K.Local ? env[s0] : k0 === K.Constant ? v0 : k0 === K.Parent ? env[0][s0] : e0(env)
      const a1 = k1 === K.Local ? env[s1] : k1 === K.Constant ? v1 : k1 === K.Parent ? env[0][s1] : e1(env)
      const a2 = k2 === K.Local ? env[s2] : k2 === K.Constant ? v2 : k2 === K.Parent ? env[0][s2] : e2(env)
      rt.loc = loc
      if (typeof f !== "object" || f === null || f[CONSTRUCT] === undefined)
        return throwTypeError(`${text} is not a constructor`, loc)
      const c3 = f[CONSTRUCT3]
      if (c3 !== undefined) return c3(a0, a1, a2, f, f, count)
      return f[CONSTRUCT](argumentsOf(count, a0, a1, a2), f, f)
    }
  }
  return (env) => {
    const f = c(env)
    const a = args(env)
    rt.loc = loc
    if (typeof f !== "object" || f === null || f[CONSTRUCT] === undefined)
      return throwTypeError(`${text} is not a constructor`, loc)
    return f[CONSTRUCT](a, f, f)
  }
}

/**
 * The strings of a tagged template: the cooked and raw parts (the template object is made once per site and
 * execution: compiled code may be kept for later executions, which must not share it).
 */
export const templateStrings = (quasi: Node): (() => Value) => {
  const cooked = quasi.quasis.map((q: Node) => q.value.cooked ?? undefined)
  const raw = quasi.quasis.map((q: Node) => q.value.raw)
  let strings: Value
  let madeIn = -1
  return () => {
    if (madeIn !== rt.execution) {
      strings = templateObject(cooked, raw)
      madeIn = rt.execution
    }
    return strings
  }
}

/** `` tag`...` ``. */
export const taggedTemplate = (ctx: CompileContext, n: Node): Expr => {
  const strings = templateStrings(n.quasi)
  const callee = calleeAndThis(ctx, n.tag, false)
  const exprs: Expr[] = n.quasi.expressions.map((x: Node) => ctx.expr(x))
  const loc = ctx.loc(n)
  const text = printExpression(n.tag)
  return (env) => {
    const [f, thisValue] = callee(env)
    const args: Value[] = [strings()]
    for (let i = 0; i < exprs.length; i++) args.push(exprs[i](env))
    rt.loc = loc
    if (typeof f === "object" && f !== null) {
      const c = f[CALL]
      if (c !== undefined) return c(thisValue, args, f)
    }
    return notFunction(text, f, loc)
  }
}
