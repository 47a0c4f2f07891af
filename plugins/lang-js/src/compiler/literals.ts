/**
 * Literals: primitives, regular expressions, template literals, array and object literals (with spread, computed
 * keys, `__proto__`, methods and accessors). Small literals get unrolled constructors.
 */
import type { Node } from "../parse.js"
import { hostGetter, hostSetter, type Value } from "../runtime/functions.js"
import { flatIfShort } from "../runtime/flat.js"
import { concat, toPropertyKey, toStr } from "../runtime/operators.js"
import { copyDataProperties, createDataProperty, objectProtoRedefined } from "../runtime/properties.js"
import { rt } from "../runtime/state.js"
import type { CompileContext, Env, Expr } from "./context.js"
import { functionTemplate, type MethodKind, methodName, renamed } from "./functions.js"
import { defineMethodProperty, setPrototype, spreadInto } from "./ops.js"
import { notIterableText } from "./printer.js"
import { unsupported } from "./shared.js"

/** The name a property key gives a function (`[description]` for symbols). */
export const keyName = (key: PropertyKey): string =>
  typeof key === "symbol" ? (key.description === undefined ? "" : `[${key.description}]`) : String(key)

/** The key of a property written as an identifier or literal; for computed keys only a literal's. */
export const propertyKeyName = (key: Node, computed: boolean): string | undefined => {
  if (computed)
    return key.type === "Literal" && (typeof key.value === "string" || typeof key.value === "number")
      ? String(key.value)
      : undefined
  if (key.type === "Identifier") return key.name
  if (key.type === "Literal") return String(key.value)
  return undefined
}

/** An anonymous function or class expression, which takes its name from where it is defined. */
export const isAnonymousFunctionDefinition = (n: Node): boolean =>
  ((n.type === "FunctionExpression" || n.type === "ClassExpression") && !n.id) || n.type === "ArrowFunctionExpression"

/** A literal: a primitive, or a regular expression (a new object each evaluation). */
export const literal = (ctx: CompileContext, n: Node): Expr => {
  if (n.regex) {
    const pattern: string = n.regex.pattern
    const flags: string = n.regex.flags
    const loc = ctx.loc(n)
    const make = ctx.realm.makeRegExp
    try {
      new RegExp(pattern, flags)
    } catch (e) {
      return unsupported(
        n,
        `Invalid regular expression /${pattern}/${flags}: ${(e as Error).message}`,
        "Fix the pattern",
      )
    }
    return () => {
      rt.loc = loc
      return make(pattern, flags)
    }
  }
  if (n.bigint !== undefined) {
    return unsupported(n, "BigInt literals are not supported", "Use ordinary numbers (integers up to 2^53 are exact)")
  }
  const v = n.value
  return () => v
}

/**
 * A template literal: the parts are converted with `ToString` and joined within the string bound; a short result
 * is made flat (see `flat.ts`: templates mostly make values that are kept, rows and keys).
 */
export const template = (ctx: CompileContext, n: Node): Expr => {
  const quasis: string[] = n.quasis.map((q: Node) => q.value.cooked)
  const exprs: Expr[] = n.expressions.map((x: Node) => ctx.expr(x))
  if (exprs.length === 0) {
    const s = quasis[0]
    return () => s
  }
  if (exprs.length === 1) {
    const [q0, q1] = quasis
    const e0 = exprs[0]
    return (env) => {
      const v = e0(env)
      return flatIfShort(concat(concat(q0, typeof v === "string" ? v : toStr(v)), q1))
    }
  }
  return (env) => {
    let s = quasis[0]
    for (let i = 0; i < exprs.length; i++) {
      const v = exprs[i](env)
      s = concat(concat(s, typeof v === "string" ? v : toStr(v)), quasis[i + 1])
    }
    return flatIfShort(s)
  }
}

/** An array literal. */
export const arrayLiteral = (ctx: CompileContext, n: Node): Expr => {
  const realm = ctx.realm
  const SA = realm.SA
  const elements: Node[] = n.elements
  const hasSpread = elements.some((e) => e && e.type === "SpreadElement")
  const hasHole = elements.some((e) => e === null)
  if (!hasSpread && !hasHole) {
    const items = elements.map((e) => ctx.expr(e))
    // While a prototype of arrays has elements (realm.protoElements), a literal's elements are defined, never
    // assigned: they are built in a host list (whose prototype has none) and the list is adopted.
    const defining = (env: Env): Value => {
      const list = new Array(items.length)
      for (let i = 0; i < items.length; i++) list[i] = items[i](env)
      return realm.adoptArray(list)
    }
    switch (items.length) {
      case 0:
        return () => new SA()
      case 1: {
        const [a] = items
        return (env) => {
          if (realm.protoElements) return defining(env)
          const r = new SA()
          r[0] = a(env)
          return r
        }
      }
      case 2: {
        const [a, b] = items
        return (env) => {
          if (realm.protoElements) return defining(env)
          const r = new SA()
          r[0] = a(env)
          r[1] = b(env)
          return r
        }
      }
      default:
        return (env) => {
          if (realm.protoElements) return defining(env)
          const r = new SA()
          for (let i = 0; i < items.length; i++) r[i] = items[i](env)
          return r
        }
    }
  }
  const parts = elements.map((e) =>
    e === null
      ? null
      : e.type === "SpreadElement"
        ? { spread: true, e: ctx.expr(e.argument), notIterable: () => notIterableText(e.argument) }
        : { spread: false, e: ctx.expr(e), notIterable: undefined },
  )
  return (env) => {
    const defining = realm.protoElements
    const r = defining ? [] : new SA()
    for (const p of parts) {
      if (p === null) r.length++
      else if (p.spread) spreadInto(r, p.e(env), p.notIterable)
      else r[r.length] = p.e(env)
    }
    return defining ? realm.adoptArray(r) : r
  }
}

/** Adds one property of an object literal to the object being built. */
type Part = (env: Env, o: Value) => void

/** An object literal. */
export const objectLiteral = (ctx: CompileContext, n: Node): Expr => {
  const simple = simpleObjectLiteral(ctx, n)
  if (simple !== undefined) return simple
  const SO = ctx.realm.SO
  const parts: Part[] = n.properties.map((p: Node): Part => {
    if (p.type === "SpreadElement") {
      const e = ctx.expr(p.argument)
      return (env, o) => copyDataProperties(o, e(env))
    }
    const staticKey = propertyKeyName(p.key, p.computed)
    const keyExpr = p.computed ? ctx.expr(p.key) : undefined
    const keyOf = keyExpr !== undefined ? (env: Env) => toPropertyKey(keyExpr(env)) : () => staticKey as string
    if (p.kind === "init" && !p.method) {
      if (!p.computed && !p.shorthand && staticKey === "__proto__") {
        const e = ctx.expr(p.value)
        return (env, o) => setPrototype(o, e(env))
      }
      if (p.computed && isAnonymousFunctionDefinition(p.value)) {
        const make = ctx.expr(p.value, "")
        return (env, o) => {
          const key = keyOf(env)
          createDataProperty(o, key, renamed(make(env), keyName(key)))
        }
      }
      const e = ctx.expr(p.value, staticKey)
      return (env, o) => {
        const key = keyOf(env)
        createDataProperty(o, key, e(env))
      }
    }
    const define = methodDefiner(ctx, p)
    return (env, o) => define(env, o, keyOf(env))
  })
  return (env) => {
    const o = new SO()
    for (let i = 0; i < parts.length; i++) parts[i](env, o)
    return o
  }
}

/**
 * The definition of an object literal's method, getter or setter, given its key: the function is compiled once;
 * a computed key only names it.
 */
export const methodDefiner = (ctx: CompileContext, p: Node): ((env: Env, o: Value, key: PropertyKey) => void) => {
  const kind: MethodKind = p.kind === "init" ? "method" : p.kind
  const staticKey = propertyKeyName(p.key, p.computed)
  const t = functionTemplate(
    ctx,
    p.value,
    ctx.analysis.functions.get(p.value)!,
    staticKey === undefined ? "" : methodName(kind, staticKey),
    kind,
    p,
  )
  const SF = ctx.realm.SF
  const computed = staticKey === undefined
  return (env, o, key) => {
    const meta = computed ? { ...t.meta, name: methodName(kind, keyName(key)) } : t.meta
    const fn = new SF(t.call, t.construct, env, meta, o, t.call3)
    defineMethodProperty(o, key, kind, fn, true, hostGetter, hostSetter)
  }
}

/** `{ a, b: 1 }`: only plain `key: value` properties, built with unrolled stores. */
const simpleObjectLiteral = (ctx: CompileContext, n: Node): Expr | undefined => {
  for (const p of n.properties) {
    if (p.type !== "Property" || p.kind !== "init" || p.method || p.computed) return undefined
    if (propertyKeyName(p.key, false) === "__proto__" && !p.shorthand) return undefined
  }
  const k: string[] = n.properties.map((p: Node) => propertyKeyName(p.key, false)!)
  const SO = ctx.realm.objectOfSize(k.length)
  const v: Expr[] = n.properties.map((p: Node, i: number) => ctx.expr(p.value, k[i]))
  // A fresh object inheriting from an `Object.prototype` no program redefined is filled by assignment (no setter
  // can run, no key is read-only: see `definesBySet`); that is checked after each value, whose code may redefine it.
  if (k.includes("__proto__")) {
    return (env) => {
      const o = new SO()
      for (let i = 0; i < k.length; i++) createDataProperty(o, k[i], v[i](env))
      return o
    }
  }
  switch (k.length) {
    case 0:
      return () => new SO()
    case 1: {
      const [k0] = k
      const [v0] = v
      return (env) => {
        const o = new SO()
        const x0 = v0(env)
        if (objectProtoRedefined) createDataProperty(o, k0, x0)
        else o[k0] = x0
        return o
      }
    }
    case 2: {
      const [k0, k1] = k
      const [v0, v1] = v
      return (env) => {
        const o = new SO()
        const x0 = v0(env)
        if (objectProtoRedefined) createDataProperty(o, k0, x0)
        else o[k0] = x0
        const x1 = v1(env)
        if (objectProtoRedefined) createDataProperty(o, k1, x1)
        else o[k1] = x1
        return o
      }
    }
    case 3: {
      const [k0, k1, k2] = k
      const [v0, v1, v2] = v
      return (env) => {
        const o = new SO()
        const x0 = v0(env)
        if (objectProtoRedefined) createDataProperty(o, k0, x0)
        else o[k0] = x0
        const x1 = v1(env)
        if (objectProtoRedefined) createDataProperty(o, k1, x1)
        else o[k1] = x1
        const x2 = v2(env)
        if (objectProtoRedefined) createDataProperty(o, k2, x2)
        else o[k2] = x2
        return o
      }
    }
    default:
      return (env) => {
        const o = new SO()
        for (let i = 0; i < k.length; i++) {
          const x = v[i](env)
          if (objectProtoRedefined) createDataProperty(o, k[i], x)
          else o[k[i]] = x
        }
        return o
      }
  }
}
