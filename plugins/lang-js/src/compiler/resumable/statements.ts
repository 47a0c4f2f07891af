/**
 * Statements in resumable form: host generators that return the statement's signal. Only statements that contain
 * `await`/`yield` of their own function take this form; the others are compiled as plain closures and run
 * directly from the resumable statement list.
 */
import type { Node } from "../../parse.js"
import { caught, throwValue } from "../../runtime/errors.js"
import { GeneratorReturn } from "../../runtime/generators.js"
import { refuel } from "../../runtime/meter.js"
import { rt } from "../../runtime/state.js"
import { initWriter } from "../bindings.js"
import { gClassExpression } from "./classes.js"
import { type ResumableTarget, resumableTarget } from "./patterns.js"
import type { CompileContext, GStmt, Stmt } from "../context.js"
import { gForAwaitStatement, gForInStatement, gForOfStatement, gForStatement } from "../loops.js"
import { blockEnter, scopeEnter } from "../scopes.js"
import { isLoop } from "../statements.js"
import { BREAK, liftStmt, RETURN, type Signal, unsupported } from "../shared.js"

/** A statement list in resumable form; plain statements in it run directly. */
export const gStatementList = (ctx: CompileContext, statements: Node[], topLevel: boolean): GStmt => {
  const items = statements
    .filter((s) => s.type !== "FunctionDeclaration" && s.type !== "EmptyStatement")
    .map((s): { p?: Stmt; g?: GStmt } => {
      if (topLevel && s.type === "ExpressionStatement") {
        if (ctx.suspends(s)) {
          const e = ctx.gexpr(s.expression)
          return {
            g: function* (env) {
              rt.completion = yield* e(env)
              return undefined
            },
          }
        }
        const e = ctx.expr(s.expression)
        return {
          p: (env) => {
            rt.completion = e(env)
            return undefined
          },
        }
      }
      return ctx.suspends(s) ? { g: ctx.gstatement(s) } : { p: ctx.statement(s) }
    })
  // A list of one resumable statement is that statement (one host generator fewer at every suspension).
  if (items.length === 1 && items[0].g !== undefined) return items[0].g
  return function* (env) {
    for (let i = 0; i < items.length; i++) {
      const it = items[i]
      const s = it.p !== undefined ? it.p(env) : yield* it.g!(env)
      if (s !== undefined) return s
    }
    return undefined
  }
}

/** A statement in resumable form (plain statements are lifted). */
export const gStatement = (ctx: CompileContext, n: Node, labels: string[]): GStmt => {
  if (!ctx.suspends(n)) return liftStmt(ctx.statement(n, labels))
  switch (n.type) {
    case "ExpressionStatement": {
      const x = n.expression
      // `await v;` and `yield v;` whose operand does not suspend: one host generator, not one for the statement and
      // one for the expression.
      if (
        (x.type === "AwaitExpression" || (x.type === "YieldExpression" && !x.delegate)) &&
        !ctx.suspends(x.argument)
      ) {
        ctx.charge(x)
        const plain = x.argument ? ctx.expr(x.argument) : undefined
        const awaiting = x.type === "AwaitExpression"
        return function* (env) {
          const v = plain !== undefined ? plain(env) : undefined
          rt.awaiting = awaiting
          yield v
          return undefined
        }
      }
      const e = ctx.gexpr(n.expression)
      return function* (env) {
        yield* e(env)
        return undefined
      }
    }
    case "VariableDeclaration":
      return gVariableDeclaration(ctx, n)
    case "ReturnStatement": {
      const a = ctx.gexpr(n.argument)
      return function* (env) {
        rt.ret = yield* a(env)
        return RETURN
      }
    }
    case "ThrowStatement": {
      const a = ctx.gexpr(n.argument)
      const loc = ctx.loc(n)
      return function* (env) {
        return throwValue(yield* a(env), loc)
      }
    }
    case "IfStatement": {
      const t = ctx.gexpr(n.test)
      const a = ctx.gstatement(n.consequent)
      const b = n.alternate ? ctx.gstatement(n.alternate) : undefined
      return function* (env) {
        if (yield* t(env)) return yield* a(env)
        return b ? yield* b(env) : undefined
      }
    }
    case "BlockStatement": {
      const enter = blockEnter(ctx, ctx.analysis.scopes.get(n))
      const list = ctx.gstatementList(n.body, false)
      return function* (env) {
        return yield* list(enter(env))
      }
    }
    case "LabeledStatement": {
      const all = [...labels, n.label.name]
      const body = n.body
      if (isLoop(body) || body.type === "LabeledStatement") return ctx.gstatement(body, all)
      const inner = ctx.gstatement(body)
      const breaks = all.map((l) => ctx.labelSignal(l).break)
      return function* (env) {
        const s = yield* inner(env)
        return s !== undefined && breaks.includes(s) ? undefined : s
      }
    }
    case "WhileStatement":
    case "DoWhileStatement":
    case "ForStatement":
      return gForStatement(ctx, n, labels)
    case "ForOfStatement":
      return n.await ? gForAwaitStatement(ctx, n, labels) : gForOfStatement(ctx, n, labels)
    case "ForInStatement":
      return gForInStatement(ctx, n, labels)
    case "TryStatement":
      return gTryStatement(ctx, n)
    case "SwitchStatement":
      return gSwitchStatement(ctx, n)
    case "ClassDeclaration": {
      const write = initWriter(ctx, n.id)
      const make = gClassExpression(ctx, n, n.id.name)
      return function* (env) {
        write(env, yield* make(env))
        return undefined
      }
    }
    default:
      return unsupported(
        n,
        `${n.type} with \`await\`/\`yield\` is not supported`,
        "Await the value in a separate statement first",
      )
  }
}

const gVariableDeclaration = (ctx: CompileContext, n: Node): GStmt => {
  const isVar = n.kind === "var"
  const parts = n.declarations.map((d: Node): GStmt => {
    const target: ResumableTarget =
      d.id.type === "Identifier"
        ? { plain: initWriter(ctx, d.id), resumable: undefined }
        : resumableTarget(ctx, d.id, "init", d.init ?? undefined)
    const init = d.init
    // `const r = await v` whose operand does not suspend (a tool call): one host generator for the declaration.
    if (init?.type === "AwaitExpression" && target.plain !== undefined && !ctx.suspends(init.argument)) {
      ctx.charge(init)
      const operand = ctx.expr(init.argument)
      const write = target.plain
      return function* (env) {
        const v = operand(env)
        rt.awaiting = true
        write(env, yield v)
        return undefined
      }
    }
    const v = init ? ctx.gexpr(init, d.id.type === "Identifier" ? d.id.name : undefined) : undefined
    if (v === undefined && isVar) return liftStmt(() => undefined)
    return function* (env) {
      const value = v ? yield* v(env) : undefined
      if (target.plain !== undefined) target.plain(env, value)
      else yield* target.resumable!(env, value)
      return undefined
    }
  })
  if (parts.length === 1) return parts[0]
  return function* (env) {
    for (let i = 0; i < parts.length; i++) yield* parts[i](env)
    return undefined
  }
}

const gTryStatement = (ctx: CompileContext, n: Node): GStmt => {
  const block = ctx.gstatement(n.block)
  const h = n.handler
  const enterCatch = h ? scopeEnter(ctx.analysis.scopes.get(h)) : undefined
  const bind: ResumableTarget | undefined =
    h && h.param
      ? h.param.type === "Identifier"
        ? { plain: initWriter(ctx, h.param), resumable: undefined }
        : resumableTarget(ctx, h.param, "init")
      : undefined
  const handler = h ? ctx.gstatement(h.body) : undefined
  const finalizer = n.finalizer ? ctx.gstatement(n.finalizer) : undefined
  return function* (env) {
    try {
      try {
        return yield* block(env)
      } catch (e) {
        // A generator's return() in flight is not an exception: only the finally blocks see it.
        if (e instanceof GeneratorReturn) throw e
        const v = caught(e)
        rt.depth = rt.base
        if (handler === undefined) throw v
        const ce = enterCatch!(env)
        if (bind?.plain !== undefined) bind.plain(ce, v)
        else if (bind !== undefined) yield* bind.resumable!(ce, v)
        return yield* handler(ce)
      }
    } finally {
      if (finalizer !== undefined && !rt.dead) {
        rt.depth = rt.base
        const saved = rt.ret
        const s = yield* finalizer(env)
        if (s !== undefined) return s
        rt.ret = saved
      }
    }
  }
}

const gSwitchStatement = (ctx: CompileContext, n: Node): GStmt => {
  const discriminant = ctx.gexpr(n.discriminant)
  const enter = blockEnter(ctx, ctx.analysis.scopes.get(n))
  const cases = n.cases.map((k: Node) => ({
    test: k.test ? ctx.gexpr(k.test) : undefined,
    body: ctx.gstatementList(k.consequent, false),
  }))
  const defaultIndex = n.cases.findIndex((k: Node) => !k.test)
  const loc = ctx.loc(n)
  return function* (env) {
    const d = yield* discriminant(env)
    const e = enter(env)
    let start = -1
    let i = 0
    for (; i < cases.length; i++) {
      const t = cases[i].test
      if (t !== undefined && (yield* t(e)) === d) {
        start = i
        break
      }
    }
    rt.fuel -= i
    if (rt.fuel < 0) refuel(loc)
    if (start < 0) start = defaultIndex
    if (start < 0) return undefined
    for (let i = start; i < cases.length; i++) {
      const s: Signal | undefined = yield* cases[i].body(e)
      if (s !== undefined) return s === BREAK ? undefined : s
    }
    return undefined
  }
}
