/**
 * Patterns: binding and assignment targets, including object and array destructuring with defaults and rest.
 */
import type { Node } from "../parse.js"
import type { Value } from "../runtime/functions.js"
import { DONE, arrayIterationIsPristine, getIterator } from "../runtime/iterators.js"
import { toPropertyKey } from "../runtime/operators.js"
import { copyDataProperties, getPrimitiveProp } from "../runtime/properties.js"
import { rt } from "../runtime/state.js"
import { assignTarget } from "./assignments.js"
import { assignWriter, initWriter } from "./bindings.js"
import type { BindMode, CompileContext, Expr, Writer } from "./context.js"
import { closeQuietly, requireDestructurable, restArray } from "./ops.js"
import { propertyKeyName } from "./literals.js"
import { unsupported } from "./shared.js"

/** Compile a binding or assignment pattern into a writer. */
export const pattern = (ctx: CompileContext, p: Node, mode: BindMode): Writer => {
  switch (p.type) {
    case "Identifier":
      return mode === "init" ? initWriter(ctx, p) : assignWriter(ctx, p)
    case "MemberExpression":
      return assignTarget(ctx, p)
    case "AssignmentPattern": {
      const inner = ctx.pattern(p.left, mode)
      const d = ctx.expr(p.right, p.left.type === "Identifier" ? p.left.name : undefined)
      return (env, v) => inner(env, v === undefined ? d(env) : v)
    }
    case "ObjectPattern":
      return objectPattern(ctx, p, mode)
    case "ArrayPattern":
      return arrayPattern(ctx, p, mode)
    default:
      return unsupported(p, `${p.type} is not a valid binding target`, "Bind to names, objects or arrays")
  }
}

const objectPattern = (ctx: CompileContext, p: Node, mode: BindMode): Writer => {
  const loc = ctx.loc(p)
  const SO = ctx.realm.SO
  let rest: Writer | undefined
  const props: Array<{ key: Expr; write: Writer }> = []
  for (const prop of p.properties) {
    if (prop.type === "RestElement") {
      rest = ctx.pattern(prop.argument, mode)
      continue
    }
    let key: Expr
    if (prop.computed) {
      const k = ctx.expr(prop.key)
      key = (env) => toPropertyKey(k(env))
    } else {
      const name = propertyKeyName(prop.key, false)!
      key = () => name
    }
    props.push({ key, write: ctx.pattern(prop.value, mode) })
  }
  return (env, v) => {
    requireDestructurable(v, loc)
    const used: PropertyKey[] | undefined = rest ? [] : undefined
    for (let i = 0; i < props.length; i++) {
      const k = props[i].key(env)
      used?.push(k)
      props[i].write(env, typeof v === "object" ? v[k] : getPrimitiveProp(v, k, loc))
    }
    if (rest) {
      const r = new SO()
      copyDataProperties(
        r,
        v,
        used!.map((k) => (typeof k === "number" ? String(k) : k)),
      )
      rest(env, r)
    }
  }
}

const arrayPattern = (ctx: CompileContext, p: Node, mode: BindMode): Writer => {
  const loc = ctx.loc(p)
  const SA = ctx.realm.SA
  const elements: Array<{ rest: boolean; write: Writer } | null> = p.elements.map((e: Node | null) =>
    e === null
      ? null
      : e.type === "RestElement"
        ? { rest: true, write: ctx.pattern(e.argument, mode) }
        : { rest: false, write: ctx.pattern(e, mode) },
  )
  return (env, v: Value) => {
    if (Array.isArray(v) && arrayIterationIsPristine(v)) {
      for (let i = 0; i < elements.length; i++) {
        const el = elements[i]
        if (el === null) continue
        if (el.rest) el.write(env, restArray(v, i))
        else el.write(env, v[i])
      }
      return
    }
    rt.loc = loc
    const it = getIterator(v)
    let done = false
    try {
      for (const el of elements) {
        if (el !== null && el.rest) {
          const r = new SA()
          while (!done) {
            const x = it.next()
            if (x === DONE) done = true
            else r[r.length] = x
          }
          el.write(env, r)
          continue
        }
        let x: Value
        if (!done) {
          x = it.next()
          if (x === DONE) {
            done = true
            x = undefined
          }
        }
        if (el !== null) el.write(env, x)
      }
    } catch (e) {
      if (!done) closeQuietly(it)
      throw e
    }
    if (!done) it.close()
  }
}
