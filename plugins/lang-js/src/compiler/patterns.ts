/**
 * Patterns: binding and assignment targets, including object and array destructuring with defaults and rest.
 *
 * A destructuring pattern compiles to a plan: its elements, where each one's value goes (a binding, a member
 * reference, a nested pattern) and its default. A driver walks the plan in the order the language specifies:
 * for each element the computed key, then the target's object and key (an assignment to `o[k]` evaluates `o` and
 * `k` before the value is read), then the value (the next iterator step, or the property), then the default when the
 * value is `undefined`, then the store. If anything throws before the iterator is done, the iterator is closed.
 * The plain driver is here; `resumable/patterns.ts` walks the same plan when a default or key suspends.
 */
import type { Node } from "../parse.js"
import type { Location } from "@codemode/core/sandbox"
import { throwTypeError } from "../runtime/errors.js"
import type { Value } from "../runtime/functions.js"
import { notIterableValue, valueText } from "../runtime/generators.js"
import { arrayIterationIsPristine, DONE, getIterator, type Iter } from "../runtime/iterators.js"
import { toPropertyKey } from "../runtime/operators.js"
import { copyDataProperties, getPrimitiveProp } from "../runtime/properties.js"
import { rt } from "../runtime/state.js"
import { assignTarget, type Reference, reference } from "./assignments.js"
import { assignWriter, initWriter } from "./bindings.js"
import type { BindMode, CompileContext, Env, Expr, Writer } from "./context.js"
import { propertyKeyName } from "./literals.js"
import { closeQuietly, restArray } from "./ops.js"
import { notIterableText, printExpression } from "./printer.js"
import { unsupported } from "./shared.js"

/** Where one destructured value goes. */
export type TargetPlan =
  /** A variable (resolving it has no effects, so nothing is evaluated before the value). */
  | { readonly kind: "binding"; readonly node: Node }
  /** A member expression (assignment patterns): its object and key are evaluated before the value. */
  | { readonly kind: "member"; readonly node: Node }
  /** A nested pattern. */
  | { readonly kind: "pattern"; readonly pattern: PatternPlan }

/** One element of a pattern: its target and its default. */
export interface ElementPlan {
  readonly target: TargetPlan
  /** The default value's expression, used when the value is `undefined`. */
  readonly init: Node | undefined
  /** The name an anonymous function default takes (the bound identifier's). */
  readonly name: string | undefined
}

/** An object pattern's property: a fixed key or a computed one. */
export interface PropertyPlan {
  readonly key: string | undefined
  readonly computedKey: Node | undefined
  readonly element: ElementPlan
}

/** A destructuring pattern. */
export type PatternPlan =
  | {
      readonly kind: "object"
      readonly node: Node
      readonly properties: ReadonlyArray<PropertyPlan>
      readonly rest: TargetPlan | undefined
    }
  | {
      readonly kind: "array"
      readonly node: Node
      /** `null` for a hole. */
      readonly elements: ReadonlyArray<ElementPlan | null>
      readonly rest: TargetPlan | undefined
    }

/** How the destructured value is named in messages: the expression it came from, or only its value. */
export type ValueSource = Node | undefined

const targetPlan = (ctx: CompileContext, p: Node): TargetPlan => {
  if (p.type === "ObjectPattern" || p.type === "ArrayPattern") return { kind: "pattern", pattern: patternPlan(ctx, p) }
  if (p.type === "MemberExpression") return { kind: "member", node: p }
  if (p.type === "Identifier") return { kind: "binding", node: p }
  return unsupported(p, `${p.type} is not a valid binding target`, "Bind to names, objects or arrays")
}

const elementPlan = (ctx: CompileContext, e: Node): ElementPlan => {
  if (e.type === "AssignmentPattern") {
    return {
      target: targetPlan(ctx, e.left),
      init: e.right,
      name: e.left.type === "Identifier" ? e.left.name : undefined,
    }
  }
  return { target: targetPlan(ctx, e), init: undefined, name: undefined }
}

/** The plan of an object or array pattern. */
export const patternPlan = (ctx: CompileContext, p: Node): PatternPlan => {
  if (p.type === "ObjectPattern") {
    const properties: PropertyPlan[] = []
    let rest: TargetPlan | undefined
    for (const prop of p.properties) {
      if (prop.type === "RestElement") rest = targetPlan(ctx, prop.argument)
      else
        properties.push({
          key: prop.computed ? undefined : propertyKeyName(prop.key, false),
          computedKey: prop.computed ? prop.key : undefined,
          element: elementPlan(ctx, prop.value),
        })
    }
    return { kind: "object", node: p, properties, rest }
  }
  let rest: TargetPlan | undefined
  const elements: Array<ElementPlan | null> = []
  for (const e of p.elements) {
    if (e === null) elements.push(null)
    else if (e.type === "RestElement") rest = targetPlan(ctx, e.argument)
    else elements.push(elementPlan(ctx, e))
  }
  return { kind: "array", node: p, elements, rest }
}

/**
 * `null`/`undefined` cannot be destructured by an object pattern. At the top, V8 names the expression the value
 * came from (`Cannot destructure property 'a' of 'o' as it is null.`); nested, it reports the property read.
 */
export const requireObjectCoercible = (
  v: Value,
  plan: PatternPlan & { kind: "object" },
  source: ValueSource | null,
  loc: Location,
): void => {
  if (v !== undefined && v !== null) return
  const first = plan.properties[0]?.key
  if (source === null && first !== undefined) throwTypeError(`Cannot read properties of ${v} (reading '${first}')`, loc)
  const what = source ? printExpression(source) : valueText(v)
  if (first !== undefined) throwTypeError(`Cannot destructure property '${first}' of '${what}' as it is ${v}.`, loc)
  throwTypeError(`Cannot destructure '${what}' as it is ${v}.`, loc)
}

/** The message for a value an array pattern cannot iterate. */
export const notIterableMessage = (v: Value, source: ValueSource | null): string =>
  source ? notIterableText(source) : notIterableValue(v)

/** Start iterating the value of an array pattern (V8 names the source only in declarations). */
export const patternIterator = (v: Value, source: ValueSource | null, mode: BindMode, loc: Location): Iter => {
  rt.loc = loc
  const named = mode === "init" ? source : undefined
  if (v === undefined || v === null) throwTypeError(notIterableMessage(v, named), loc)
  return getIterator(v, () => notIterableMessage(v, named))
}

/** The keys an object rest must leave out, as property keys. */
export const restExclusions = (used: PropertyKey[]): PropertyKey[] =>
  used.map((k) => (typeof k === "number" ? String(k) : k))

// -----------------------------------------------------------------------------------------------------------------
// The plain driver
// -----------------------------------------------------------------------------------------------------------------

/** A compiled target: `ref` evaluates a member target ahead of its value; otherwise `write` stores directly. */
interface Target {
  readonly ref: ((env: Env) => Reference) | undefined
  readonly write: Writer
}

const compileTarget = (ctx: CompileContext, t: TargetPlan, mode: BindMode): Target => {
  switch (t.kind) {
    case "binding":
      return { ref: undefined, write: mode === "init" ? initWriter(ctx, t.node) : assignWriter(ctx, t.node) }
    case "member":
      return { ref: reference(ctx, t.node), write: () => undefined }
    case "pattern":
      return { ref: undefined, write: compilePattern(ctx, t.pattern, mode, null) }
  }
}

interface Element {
  readonly target: Target
  readonly init: Expr | undefined
}

const compileElement = (ctx: CompileContext, e: ElementPlan, mode: BindMode): Element => ({
  target: compileTarget(ctx, e.target, mode),
  init: e.init ? ctx.expr(e.init, e.name) : undefined,
})

/** Store `v` through a target whose reference (if any) was taken before. */
const store = (t: Target, env: Env, ref: Reference | undefined, v: Value): void => {
  if (ref !== undefined) ref.set(v)
  else t.write(env, v)
}

const compilePattern = (ctx: CompileContext, plan: PatternPlan, mode: BindMode, source: ValueSource | null): Writer =>
  plan.kind === "object" ? objectPattern(ctx, plan, mode, source) : arrayPattern(ctx, plan, mode, source)

const objectPattern = (
  ctx: CompileContext,
  plan: PatternPlan & { kind: "object" },
  mode: BindMode,
  source: ValueSource | null,
): Writer => {
  const loc = ctx.loc(plan.node)
  const SO = ctx.realm.SO
  const props = plan.properties.map((p) => {
    const computed = p.computedKey ? ctx.expr(p.computedKey) : undefined
    return { key: p.key, computed, element: compileElement(ctx, p.element, mode) }
  })
  const rest = plan.rest ? compileTarget(ctx, plan.rest, mode) : undefined
  return (env, v) => {
    requireObjectCoercible(v, plan, source, loc)
    const used: PropertyKey[] | undefined = rest ? [] : undefined
    for (let i = 0; i < props.length; i++) {
      const p = props[i]
      const k: PropertyKey = p.computed ? toPropertyKey(p.computed(env)) : p.key!
      used?.push(k)
      const el = p.element
      const ref = el.target.ref?.(env)
      let x = typeof v === "object" ? v[k] : getPrimitiveProp(v, k, loc)
      if (x === undefined && el.init !== undefined) x = el.init(env)
      store(el.target, env, ref, x)
    }
    if (rest) {
      const ref = rest.ref?.(env)
      const r = new SO()
      copyDataProperties(r, v, restExclusions(used!))
      store(rest, env, ref, r)
    }
  }
}

const arrayPattern = (
  ctx: CompileContext,
  plan: PatternPlan & { kind: "array" },
  mode: BindMode,
  source: ValueSource | null,
): Writer => {
  const loc = ctx.loc(plan.node)
  const SA = ctx.realm.SA
  const elements = plan.elements.map((e) => (e === null ? null : compileElement(ctx, e, mode)))
  const rest = plan.rest ? compileTarget(ctx, plan.rest, mode) : undefined
  return (env, v: Value) => {
    if (Array.isArray(v) && arrayIterationIsPristine(v)) {
      for (let i = 0; i < elements.length; i++) {
        const el = elements[i]
        if (el === null) continue
        const ref = el.target.ref?.(env)
        let x = v[i]
        if (x === undefined && el.init !== undefined) x = el.init(env)
        store(el.target, env, ref, x)
      }
      if (rest) {
        const ref = rest.ref?.(env)
        store(rest, env, ref, restArray(v, elements.length))
      }
      return
    }
    const it = patternIterator(v, source, mode, loc)
    let done = false
    try {
      for (let i = 0; i < elements.length; i++) {
        const el = elements[i]
        const ref = el?.target.ref?.(env)
        let x: Value
        if (!done) {
          done = true
          x = it.next()
          if (x === DONE) x = undefined
          else done = false
        }
        if (el === null) continue
        if (x === undefined && el.init !== undefined) x = el.init(env)
        store(el.target, env, ref, x)
      }
      if (rest) {
        const ref = rest.ref?.(env)
        const r = new SA()
        while (!done) {
          done = true
          const x = it.next()
          if (x !== DONE) {
            done = false
            r[r.length] = x
          }
        }
        store(rest, env, ref, r)
      }
    } catch (e) {
      if (!done) closeQuietly(it)
      throw e
    }
    if (!done) it.close()
  }
}

/**
 * Compile a binding or assignment target into a writer. `source` is the expression whose value it receives (for
 * messages), when there is one.
 */
export const pattern = (ctx: CompileContext, p: Node, mode: BindMode, source?: Node): Writer => {
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
    case "ArrayPattern":
      return compilePattern(ctx, patternPlan(ctx, p), mode, source)
    default:
      return unsupported(p, `${p.type} is not a valid binding target`, "Bind to names, objects or arrays")
  }
}
