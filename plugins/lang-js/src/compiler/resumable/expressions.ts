/**
 * Expressions in resumable form: a host generator per expression that contains `await` or `yield` of its own
 * function, so evaluation can suspend in the middle of it and resume later. Sub-expressions without a suspension
 * point stay plain closures (lifted). The operations themselves are the plain form's (`operators.ts`,
 * `members.ts`...); only the order of evaluation with suspensions in between is written here.
 */
import type { Node } from "../../parse.js"
import { throwTypeError } from "../../runtime/errors.js"
import { construct, hostGetter, hostSetter, type Value } from "../../runtime/functions.js"
import { CALL, CONSTRUCT } from "../../runtime/internals.js"
import { delegateYield } from "../../runtime/generators.js"
import { concat, toNumber, toPrimitive, toPropertyKey, toStr, typeOf } from "../../runtime/operators.js"
import { copyDataProperties, createDataProperty, getPrimitiveProp } from "../../runtime/properties.js"
import { rt } from "../../runtime/state.js"
import { memberReference } from "../assignments.js"
import { assignWriter, identifier } from "../bindings.js"
import { readComputed } from "../members.js"
import { templateStrings } from "../calls.js"
import type { CompileContext, Env, GExpr } from "../context.js"
import { functionTemplate, type MethodKind, methodName } from "../functions.js"
import { keyName, propertyKeyName } from "../literals.js"
import { importPromise } from "../modules.js"
import { binaryOperator, logicalShortCircuits, unaryOperator } from "../operators.js"
import { defineMethodProperty, notFunction, setPrototype, spreadArgumentNotIterable, spreadInto } from "../ops.js"
import { notIterableText, printExpression } from "../printer.js"
import { liftExpr, SHORT, unsupported } from "../shared.js"
import { gClassExpression } from "./classes.js"

/** An expression in resumable form (plain expressions are lifted). */
export const gExpression = (ctx: CompileContext, n: Node, name?: string): GExpr => {
  if (!ctx.suspends(n)) return liftExpr(ctx.expr(n, name))
  switch (n.type) {
    case "AwaitExpression": {
      // An operand that does not suspend is evaluated in place (no host generator per evaluation).
      if (!ctx.suspends(n.argument)) {
        const plain = ctx.expr(n.argument)
        return function* (env) {
          const v = plain(env)
          rt.awaiting = true
          return yield v
        }
      }
      const a = ctx.gexpr(n.argument)
      return function* (env) {
        const v = yield* a(env)
        rt.awaiting = true
        return yield v
      }
    }
    case "YieldExpression":
      return n.delegate ? yieldStar(ctx, n) : yieldExpression(ctx, n)
    case "BinaryExpression": {
      if (n.left.type === "PrivateIdentifier") {
        return unsupported(n, "`await` in a private `in` check", "Await the value in a separate statement first")
      }
      const l = ctx.gexpr(n.left)
      const r = ctx.gexpr(n.right)
      const f = binaryOperator(n.operator)
      return function* (env) {
        const a = yield* l(env)
        const b = yield* r(env)
        return f(a, b)
      }
    }
    case "LogicalExpression": {
      const l = ctx.gexpr(n.left)
      const r = ctx.gexpr(n.right)
      const op = n.operator
      return function* (env) {
        const v = yield* l(env)
        if (logicalShortCircuits(op, v)) return v
        return yield* r(env)
      }
    }
    case "ConditionalExpression": {
      const t = ctx.gexpr(n.test)
      const a = ctx.gexpr(n.consequent, name)
      const b = ctx.gexpr(n.alternate, name)
      return function* (env) {
        return (yield* t(env)) ? yield* a(env) : yield* b(env)
      }
    }
    case "SequenceExpression": {
      const parts = n.expressions.map((x: Node) => ctx.gexpr(x))
      return function* (env) {
        let v: Value
        for (const p of parts) v = yield* p(env)
        return v
      }
    }
    case "UnaryExpression": {
      const op = n.operator
      if (op === "delete")
        return unsupported(n, "`delete` with `await`", "Await the value in a separate statement first")
      const a = ctx.gexpr(n.argument)
      const f = op === "typeof" ? typeOf : unaryOperator(op)!
      return function* (env) {
        return f(yield* a(env))
      }
    }
    case "TemplateLiteral": {
      const quasis: string[] = n.quasis.map((q: Node) => q.value.cooked)
      const exprs = n.expressions.map((x: Node) => ctx.gexpr(x))
      return function* (env) {
        let s = quasis[0]
        for (let i = 0; i < exprs.length; i++) {
          const v = yield* exprs[i](env)
          s = concat(concat(s, typeof v === "string" ? v : toStr(v)), quasis[i + 1])
        }
        return s
      }
    }
    case "ArrayExpression": {
      const parts = n.elements.map((e: Node | null) =>
        e === null
          ? null
          : e.type === "SpreadElement"
            ? { spread: true, e: ctx.gexpr(e.argument), notIterable: () => notIterableText(e.argument) }
            : { spread: false, e: ctx.gexpr(e), notIterable: undefined },
      )
      const SA = ctx.realm.SA
      return function* (env) {
        const r = new SA()
        for (const p of parts) {
          if (p === null) r.length++
          else if (p.spread) spreadInto(r, yield* p.e(env), p.notIterable)
          else r[r.length] = yield* p.e(env)
        }
        return r
      }
    }
    case "ObjectExpression":
      return gObjectLiteral(ctx, n)
    case "AssignmentExpression":
      return gAssignment(ctx, n)
    case "UpdateExpression":
      return gUpdate(ctx, n)
    case "MemberExpression":
      return gMember(ctx, n, false)
    case "ChainExpression": {
      const inner = gChainLink(ctx, n.expression)
      return function* (env) {
        const v = yield* inner(env)
        return v === SHORT ? undefined : v
      }
    }
    case "CallExpression":
      return gCall(ctx, n, false)
    case "NewExpression": {
      const f = ctx.gexpr(n.callee)
      const args = gArguments(ctx, n.arguments)
      const loc = ctx.loc(n)
      const text = printExpression(n.callee)
      return function* (env) {
        const fn = yield* f(env)
        const a = yield* args(env)
        rt.loc = loc
        if (typeof fn !== "object" || fn === null || fn[CONSTRUCT] === undefined)
          return throwTypeError(`${text} is not a constructor`, loc)
        return construct(fn, a)
      }
    }
    case "TaggedTemplateExpression": {
      const tag = ctx.gexpr(n.tag)
      const strings = templateStrings(n.quasi)
      const exprs = n.quasi.expressions.map((x: Node) => ctx.gexpr(x))
      const loc = ctx.loc(n)
      const text = printExpression(n.tag)
      return function* (env) {
        const f = yield* tag(env)
        const args: Value[] = [strings()]
        for (const e of exprs) args.push(yield* e(env))
        rt.loc = loc
        return typeof f === "object" && f !== null && f[CALL] !== undefined
          ? f[CALL](undefined, args, f)
          : notFunction(text, f, loc)
      }
    }
    case "ImportExpression": {
      const source = ctx.gexpr(n.source)
      const loc = ctx.loc(n)
      return function* (env) {
        return importPromise(ctx, yield* source(env), loc)
      }
    }
    case "ClassExpression":
      return gClassExpression(ctx, n, n.id?.name ?? name ?? "")
    case "ParenthesizedExpression":
      return ctx.gexpr(n.expression, name)
    default:
      return unsupported(
        n,
        `\`await\`/\`yield\` inside ${n.type} is not supported`,
        "Await the value in a separate statement first",
      )
  }
}

const yieldExpression = (ctx: CompileContext, n: Node): GExpr => {
  if (n.argument && !ctx.suspends(n.argument)) {
    const plain = ctx.expr(n.argument)
    return function* (env) {
      const v = plain(env)
      rt.awaiting = false
      return yield v
    }
  }
  const a = n.argument ? ctx.gexpr(n.argument) : undefined
  return function* (env) {
    const v = a ? yield* a(env) : undefined
    rt.awaiting = false
    return yield v
  }
}

const yieldStar = (ctx: CompileContext, n: Node): GExpr => {
  const a = ctx.gexpr(n.argument)
  const loc = ctx.loc(n)
  const isAsync = ctx.resumableFunction?.isAsync ?? false
  return function* (env) {
    const iterable = yield* a(env)
    rt.loc = loc
    return yield* delegateYield(iterable, isAsync, loc)
  }
}

/** Call arguments in resumable form. */
export const gArguments = (ctx: CompileContext, nodes: Node[]): ((env: Env) => Generator<Value, Value[], Value>) => {
  const parts = nodes.map((a) =>
    a.type === "SpreadElement" ? { spread: true, e: ctx.gexpr(a.argument) } : { spread: false, e: ctx.gexpr(a) },
  )
  return function* (env) {
    const list: Value[] = []
    for (const p of parts) {
      if (p.spread) {
        const v = yield* p.e(env)
        spreadInto(list, v, () => spreadArgumentNotIterable(v))
      } else list.push(yield* p.e(env))
    }
    return list
  }
}

const gChainLink = (ctx: CompileContext, n: Node): GExpr => {
  if (n.type === "MemberExpression") return gMember(ctx, n, true)
  if (n.type === "CallExpression") return gCall(ctx, n, true)
  return ctx.gexpr(n)
}

const gMember = (ctx: CompileContext, n: Node, chain: boolean): GExpr => {
  if (n.object.type === "Super" || n.property.type === "PrivateIdentifier") {
    return unsupported(
      n,
      "`await` in a `super` or private member access",
      "Await the value in a separate statement first",
    )
  }
  const o = chain ? gChainLink(ctx, n.object) : ctx.gexpr(n.object)
  const k = n.computed ? ctx.gexpr(n.property) : undefined
  const key = n.computed ? undefined : n.property.name
  const optional = n.optional
  const loc = ctx.loc(n)
  return function* (env) {
    const obj = yield* o(env)
    if (chain && (obj === SHORT || (optional && (obj === undefined || obj === null)))) return SHORT
    const kv = k ? yield* k(env) : key
    return readComputed(obj, kv, loc)
  }
}

const gCall = (ctx: CompileContext, n: Node, chain: boolean): GExpr => {
  const callee = n.callee
  if (callee.type === "Super") return unsupported(n, "`await` in a `super(...)` call", "Await the arguments first")
  const loc = ctx.loc(n)
  const text = printExpression(callee)
  const optionalCall = n.optional
  if (
    callee.type === "MemberExpression" &&
    callee.object.type !== "Super" &&
    callee.property.type !== "PrivateIdentifier"
  ) {
    const o = chain ? gChainLink(ctx, callee.object) : ctx.gexpr(callee.object)
    const k = callee.computed ? ctx.gexpr(callee.property) : undefined
    const key = callee.computed ? undefined : callee.property.name
    const args = gArguments(ctx, n.arguments)
    const optionalMember = callee.optional
    const memberLoc = ctx.loc(callee)
    return function* (env) {
      const obj = yield* o(env)
      if (chain && (obj === SHORT || (optionalMember && (obj === undefined || obj === null)))) return SHORT
      const f = k
        ? readComputed(obj, yield* k(env), memberLoc)
        : typeof obj === "object" && obj !== null
          ? obj[key]
          : getPrimitiveProp(obj, key, memberLoc)
      if (chain && optionalCall && (f === undefined || f === null)) return SHORT
      const a = yield* args(env)
      rt.loc = loc
      return typeof f === "object" && f !== null && f[CALL] !== undefined
        ? f[CALL](obj, a, f)
        : notFunction(text, f, loc)
    }
  }
  const fe = chain ? gChainLink(ctx, callee) : ctx.gexpr(callee)
  const args = gArguments(ctx, n.arguments)
  return function* (env) {
    const f = yield* fe(env)
    if (chain && (f === SHORT || (optionalCall && (f === undefined || f === null)))) return SHORT
    const a = yield* args(env)
    rt.loc = loc
    return typeof f === "object" && f !== null && f[CALL] !== undefined
      ? f[CALL](undefined, a, f)
      : notFunction(text, f, loc)
  }
}

const gAssignment = (ctx: CompileContext, n: Node): GExpr => {
  const target = n.left
  const op: string = n.operator
  if (target.type !== "Identifier" && target.type !== "MemberExpression") {
    const bind = ctx.gpattern(target, "assign", n.right)
    const v = ctx.gexpr(n.right)
    return function* (env) {
      const value = yield* v(env)
      yield* bind(env, value)
      return value
    }
  }
  if (
    target.type === "MemberExpression" &&
    (target.object.type === "Super" || target.property.type === "PrivateIdentifier")
  ) {
    return unsupported(
      n,
      "`await` in an assignment to a `super` or private member",
      "Await the value in a separate statement first",
    )
  }
  const logical = op === "&&=" || op === "||=" || op === "??="
  const f = op === "=" || logical ? undefined : binaryOperator(op.slice(0, -1))
  const lop = logical ? op.slice(0, -1) : ""
  const loc = ctx.loc(target)
  if (target.type === "Identifier") {
    const read = op === "=" ? undefined : identifier(ctx, target)
    const write = assignWriter(ctx, target)
    const v = ctx.gexpr(n.right, target.name)
    return function* (env) {
      if (read) {
        const cur = read(env)
        if (logical) {
          if (logicalShortCircuits(lop, cur)) return cur
          const value = yield* v(env)
          write(env, value)
          return value
        }
        const value = f!(cur, yield* v(env))
        write(env, value)
        return value
      }
      const value = yield* v(env)
      write(env, value)
      return value
    }
  }
  const o = ctx.gexpr(target.object)
  const k = target.computed ? ctx.gexpr(target.property) : undefined
  const key = target.computed ? undefined : target.property.name
  const v = ctx.gexpr(n.right)
  return function* (env) {
    const obj = yield* o(env)
    const ref = memberReference(obj, k ? yield* k(env) : key, loc)
    if (op === "=") {
      const value = yield* v(env)
      ref.set(value)
      return value
    }
    const cur = ref.get()
    if (logical) {
      if (logicalShortCircuits(lop, cur)) return cur
      const value = yield* v(env)
      ref.set(value)
      return value
    }
    const value = f!(cur, yield* v(env))
    ref.set(value)
    return value
  }
}

const gUpdate = (ctx: CompileContext, n: Node): GExpr => {
  const target = n.argument
  if (
    target.type !== "MemberExpression" ||
    target.object.type === "Super" ||
    target.property.type === "PrivateIdentifier"
  ) {
    return unsupported(n, "`await` inside this update expression", "Await the value in a separate statement first")
  }
  const o = ctx.gexpr(target.object)
  const k = target.computed ? ctx.gexpr(target.property) : undefined
  const key = target.computed ? undefined : target.property.name
  const delta = n.operator === "++" ? 1 : -1
  const prefix = n.prefix
  const loc = ctx.loc(target)
  return function* (env) {
    const obj = yield* o(env)
    const ref = memberReference(obj, k ? yield* k(env) : key, loc)
    const cur = ref.get()
    const old = typeof cur === "number" ? cur : toNumber(toPrimitive(cur, "number"))
    const next = old + delta
    ref.set(next)
    return prefix ? next : old
  }
}

const gObjectLiteral = (ctx: CompileContext, n: Node): GExpr => {
  const SO = ctx.realm.SO
  const SF = ctx.realm.SF
  type Part = (env: Env, o: Value) => Generator<Value, void, Value>
  const parts: Part[] = n.properties.map((p: Node): Part => {
    if (p.type === "SpreadElement") {
      const e = ctx.gexpr(p.argument)
      return function* (env, o) {
        copyDataProperties(o, yield* e(env))
      }
    }
    const k = p.computed ? ctx.gexpr(p.key) : undefined
    const staticKey = p.computed ? undefined : propertyKeyName(p.key, false)
    if (p.kind === "init" && !p.method) {
      const v = ctx.gexpr(p.value, staticKey)
      const isProto = !p.computed && !p.shorthand && staticKey === "__proto__"
      return function* (env, o) {
        const key = k ? toPropertyKey(yield* k(env)) : staticKey!
        const value = yield* v(env)
        if (isProto) setPrototype(o, value)
        else createDataProperty(o, key, value)
      }
    }
    const kind: MethodKind = p.kind === "init" ? "method" : p.kind
    const t = functionTemplate(
      ctx,
      p.value,
      ctx.analysis.functions.get(p.value)!,
      staticKey === undefined ? "" : methodName(kind, staticKey),
      kind,
      p,
    )
    return function* (env, o) {
      const key = k ? toPropertyKey(yield* k(env)) : staticKey!
      const meta = k ? { ...t.meta, name: methodName(kind, keyName(key)) } : t.meta
      const fn = new SF(t.call, t.construct, env, meta, o, t.call3)
      defineMethodProperty(o, key, kind, fn, true, hostGetter, hostSetter)
    }
  })
  return function* (env) {
    const o = new SO()
    for (const p of parts) yield* p(env, o)
    return o
  }
}
