/**
 * Classes in resumable form: a class whose heritage or computed keys contain `await`/`yield` (of the enclosing
 * function). The plan and the steps are the plain driver's (`classes.ts`); only the evaluations that may suspend
 * are delegated to their generators.
 */
import type { Node } from "../../parse.js"
import { toPropertyKey } from "../../runtime/operators.js"
import { classPlan, createClass, defineElement, enterClass, finishClass } from "../classes.js"
import type { CompileContext, Env, GExpr } from "../context.js"
import { liftExpr } from "../shared.js"

/** A class declaration or expression whose definition suspends. */
export const gClassExpression = (ctx: CompileContext, n: Node, name: string): GExpr => {
  const plan = classPlan(ctx, n, name)
  const heritage = plan.heritage ? ctx.gexpr(plan.heritage) : undefined
  const keys: GExpr[] = plan.elements.map((el) => {
    if (el.fixedKey !== undefined) return liftExpr(el.fixedKey)
    const k = ctx.gexpr(el.computedKey)
    return function* (env: Env) {
      return toPropertyKey(yield* k(env))
    }
  })
  return function* (outer) {
    const env = enterClass(plan, outer)
    const c = createClass(ctx, plan, env, heritage ? yield* heritage(env) : undefined)
    for (let i = 0; i < plan.elements.length; i++) defineElement(c, plan.elements[i], yield* keys[i](env))
    return finishClass(plan, c)
  }
}
