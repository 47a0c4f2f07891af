/**
 * Statements: a statement compiles to `(env) => signal`, where `undefined` is normal completion and a `Signal` is
 * `break`, `continue` or `return` (the returned value in `rt.ret`). Statement lists stop at the first signal.
 */
import type { Node } from "../parse.js"
import { caught, throwValue } from "../runtime/errors.js"
import type { Value } from "../runtime/functions.js"
import { refuel } from "../runtime/meter.js"
import { toNumber, toPrimitive } from "../runtime/operators.js"
import { rt } from "../runtime/state.js"
import { bindingOf, hopsOf, initWriter, plainLocalSlot } from "./bindings.js"
import { classExpression } from "./classes.js"
import type { CompileContext, Env, Stmt } from "./context.js"
import { doWhileStatement, forInStatement, forOfStatement, forStatement, whileStatement } from "./loops.js"
import { blockEnter, scopeEnter, withScope } from "./scopes.js"
import { BREAK, CONTINUE, RETURN, type Signal, unsupported } from "./shared.js"
import { OperandKind as K, namedOperand } from "./operand.js"
import { branch } from "./operators.js"

const EMPTY_STATEMENT: Stmt = () => undefined

/** True for the statements a label's `continue` can target. */
export const isLoop = (n: Node): boolean =>
  n.type === "ForStatement" ||
  n.type === "ForInStatement" ||
  n.type === "ForOfStatement" ||
  n.type === "WhileStatement" ||
  n.type === "DoWhileStatement"

/** Compile a statement. `labels` are the labels directly applied to it (for loops). */
export const statement = (ctx: CompileContext, n: Node, labels: string[]): Stmt => {
  switch (n.type) {
    case "ExpressionStatement":
      return effect(ctx, n.expression)
    case "VariableDeclaration":
      return variableDeclaration(ctx, n)
    case "FunctionDeclaration":
      return EMPTY_STATEMENT
    case "ClassDeclaration": {
      const write = initWriter(ctx, n.id)
      const make = classExpression(ctx, n, n.id.name)
      return (env) => {
        write(env, make(env))
        return undefined
      }
    }
    case "ReturnStatement": {
      if (!n.argument) {
        return () => {
          rt.ret = undefined
          return RETURN
        }
      }
      const a = ctx.expr(n.argument)
      return (env) => {
        rt.ret = a(env)
        return RETURN
      }
    }
    case "IfStatement": {
      const t = ctx.expr(n.test)
      const c = ctx.statement(n.consequent)
      return branch(t, c, n.alternate ? ctx.statement(n.alternate) : undefined)
    }
    case "BlockStatement":
      return withScope(ctx, ctx.analysis.scopes.get(n), ctx.statementList(n.body, false))
    case "ForStatement":
      return forStatement(ctx, n, labels)
    case "ForOfStatement":
      if (n.await)
        return unsupported(
          n,
          "`for await` outside an async function",
          "Use it inside an async function or at top level",
        )
      return forOfStatement(ctx, n, labels)
    case "ForInStatement":
      return forInStatement(ctx, n, labels)
    case "WhileStatement":
      return whileStatement(ctx, n, labels)
    case "DoWhileStatement":
      return doWhileStatement(ctx, n, labels)
    case "BreakStatement": {
      const s = n.label ? ctx.labelSignal(n.label.name).break : BREAK
      return () => s
    }
    case "ContinueStatement": {
      const s = n.label ? ctx.labelSignal(n.label.name).continue : CONTINUE
      return () => s
    }
    case "ThrowStatement": {
      const a = ctx.expr(n.argument)
      const loc = ctx.loc(n)
      return (env) => throwValue(a(env), loc)
    }
    case "TryStatement":
      return tryStatement(ctx, n)
    case "SwitchStatement":
      return switchStatement(ctx, n)
    case "LabeledStatement": {
      const all = [...labels, n.label.name]
      const body = n.body
      if (isLoop(body) || body.type === "LabeledStatement") return ctx.statement(body, all)
      const inner = ctx.statement(body)
      const breaks = all.map((l) => ctx.labelSignal(l).break)
      return (env) => {
        const s = inner(env)
        return s !== undefined && breaks.includes(s) ? undefined : s
      }
    }
    case "EmptyStatement":
    case "DebuggerStatement":
      return EMPTY_STATEMENT
    case "ImportDeclaration":
      return unsupported(n, "`import` must be at the top level", "Move the import to the start of the program")
    case "ExportNamedDeclaration":
    case "ExportDefaultDeclaration":
    case "ExportAllDeclaration":
      return unsupported(
        n,
        "`export` is not supported",
        "Programs are not modules that export: return the value instead",
      )
    default:
      return unsupported(
        n,
        `${n.type} is not supported`,
        "Rewrite this statement with the supported subset (see SUPPORT.md)",
      )
  }
}

/** An expression evaluated only for its effects, as a statement (updates and assignments skip the value). */
const effect = (ctx: CompileContext, e: Node): Stmt => {
  if (e.type === "UpdateExpression") {
    const slot = plainLocalSlot(ctx, e.argument)
    if (slot >= 0) {
      const delta = e.operator === "++" ? 1 : -1
      return (env) => {
        const v = env[slot]
        env[slot] = typeof v === "number" ? v + delta : toNumber(toPrimitive(v, "number")) + delta
        return undefined
      }
    }
  }
  if (e.type === "AssignmentExpression" && e.operator === "=") {
    const slot = plainLocalSlot(ctx, e.left)
    if (slot >= 0) {
      const v = ctx.expr(e.right, e.left.name)
      return (env) => {
        env[slot] = v(env)
        return undefined
      }
    }
  }
  const x = ctx.expr(e)
  return (env) => {
    x(env)
    return undefined
  }
}

/** Compile a statement list; at top level, expression statements record the REPL-style completion value. */
export const statementList = (ctx: CompileContext, statements: Node[], topLevel: boolean): Stmt => {
  const list: Stmt[] = statements
    .filter((s) => s.type !== "FunctionDeclaration" && s.type !== "EmptyStatement")
    .map((s) => {
      if (topLevel && s.type === "ExpressionStatement") {
        const e = ctx.expr(s.expression)
        return (env: Env) => {
          rt.completion = e(env)
          return undefined
        }
      }
      return ctx.statement(s)
    })
  switch (list.length) {
    case 0:
      return EMPTY_STATEMENT
    case 1:
      return list[0]
    case 2: {
      const [a, b] = list
      return (env) => {
        const s = a(env)
        return s !== undefined ? s : b(env)
      }
    }
    case 3: {
      const [a, b, c] = list
      return (env) => {
        let s = a(env)
        if (s !== undefined) return s
        s = b(env)
        return s !== undefined ? s : c(env)
      }
    }
    default:
      return (env) => {
        for (let i = 0; i < list.length; i++) {
          const s = list[i](env)
          if (s !== undefined) return s
        }
        return undefined
      }
  }
}

/** The slot of a declared binding in the current environment, or -1 when it lives in another one. */
const localSlot = (ctx: CompileContext, id: Node): number => {
  const b = bindingOf(ctx, id)
  return b !== null && hopsOf(ctx, id, b) === 0 ? b.slot : -1
}

/** `var`/`let`/`const` declarations (`let x;` initializes to `undefined`, `var x;` leaves the value). */
const variableDeclaration = (ctx: CompileContext, n: Node): Stmt => {
  const parts: Stmt[] = []
  for (const d of n.declarations) {
    if (d.id.type === "Identifier") {
      const slot = localSlot(ctx, d.id)
      if (d.init && slot >= 0) {
        // A binding of this environment is written in place, its value read inline when it is an operand.
        const V = namedOperand(ctx, d.init, d.id.name)
        const vk = V.kind
        const vs = V.slot
        const vv = V.value
        const ve = V.expr
        parts.push((env) => {
          env[slot] = vk === K.Local ? env[vs] : vk === K.Constant ? vv : vk === K.Parent ? env[0][vs] : ve(env)
          return undefined
        })
        continue
      }
      const write = initWriter(ctx, d.id)
      if (d.init) {
        const v = ctx.expr(d.init, d.id.name)
        parts.push((env) => {
          write(env, v(env))
          return undefined
        })
      } else if (n.kind !== "var") {
        parts.push((env) => {
          write(env, undefined)
          return undefined
        })
      }
    } else {
      const bind = ctx.pattern(d.id, "init", d.init ?? undefined)
      const v = d.init ? ctx.expr(d.init) : () => undefined
      parts.push((env) => {
        bind(env, v(env))
        return undefined
      })
    }
  }
  if (parts.length === 1) return parts[0]
  return (env) => {
    for (let i = 0; i < parts.length; i++) parts[i](env)
    return undefined
  }
}

/** `try`/`catch`/`finally`: a fatal failure is never caught and skips the `finally` blocks. */
const tryStatement = (ctx: CompileContext, n: Node): Stmt => {
  const block = ctx.statement(n.block)
  const handler = n.handler ? catchClause(ctx, n.handler) : undefined
  const finalizer = n.finalizer ? ctx.statement(n.finalizer) : undefined
  if (finalizer === undefined) {
    return (env) => {
      const depth = rt.depth
      try {
        return block(env)
      } catch (e) {
        const v = caught(e)
        rt.depth = depth
        return handler!(env, v)
      }
    }
  }
  return (env) => {
    const depth = rt.depth
    try {
      try {
        return block(env)
      } catch (e) {
        const v = caught(e)
        rt.depth = depth
        if (handler === undefined) throw v
        return handler(env, v)
      }
    } finally {
      if (!rt.dead) {
        rt.depth = depth
        const saved = rt.ret
        const s = finalizer(env)
        if (s !== undefined) return s
        rt.ret = saved
      }
    }
  }
}

/** A catch clause: binds the exception and runs the handler body. */
const catchClause = (ctx: CompileContext, h: Node): ((env: Env, thrown: Value) => Signal | undefined) => {
  const enter = scopeEnter(ctx.analysis.scopes.get(h))
  const bind = h.param
    ? h.param.type === "Identifier"
      ? initWriter(ctx, h.param)
      : ctx.pattern(h.param, "init")
    : undefined
  const body = ctx.statement(h.body)
  return (env, thrown) => {
    const e = enter(env)
    if (bind) bind(e, thrown)
    return body(e)
  }
}

/** `switch`: cases compare with `===` in order, then fall through from the first match (or `default`). */
const switchStatement = (ctx: CompileContext, n: Node): Stmt => {
  const discriminant = ctx.expr(n.discriminant)
  const cases = n.cases.map((c: Node) => ({
    test: c.test ? ctx.expr(c.test) : undefined,
    body: ctx.statementList(c.consequent, false),
  }))
  const enter = blockEnter(ctx, ctx.analysis.scopes.get(n))
  const defaultIndex = n.cases.findIndex((c: Node) => !c.test)
  const loc = ctx.loc(n)
  return (env) => {
    const d = discriminant(env)
    const e = enter(env)
    let start = -1
    let i = 0
    for (; i < cases.length; i++) {
      const t = cases[i].test
      if (t !== undefined && t(e) === d) {
        start = i
        break
      }
    }
    // Each case tested is a step of work (a switch with many cases inside a loop is no free lunch).
    rt.fuel -= i
    if (rt.fuel < 0) refuel(loc)
    if (start < 0) start = defaultIndex
    if (start < 0) return undefined
    for (let i = start; i < cases.length; i++) {
      const s = cases[i].body(e)
      if (s !== undefined) return s === BREAK ? undefined : s
    }
    return undefined
  }
}
