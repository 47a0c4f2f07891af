/**
 * Patterns in resumable form: destructuring whose defaults, computed keys or member targets contain
 * `await`/`yield`. The same plan as the plain driver's (`patterns.ts`), walked in the same order, with each
 * evaluation that may suspend delegated to its generator.
 */
import type { Node } from "../../parse.js"
import type { Value } from "../../runtime/functions.js"
import { GeneratorReturn } from "../../runtime/generators.js"
import { arrayIterationIsPristine, DONE } from "../../runtime/iterators.js"
import { toPropertyKey } from "../../runtime/operators.js"
import { copyDataProperties, getPrimitiveProp } from "../../runtime/properties.js"
import { memberReference, type Reference, reference } from "../assignments.js"
import { assignWriter, initWriter } from "../bindings.js"
import type { BindMode, CompileContext, Env, GExpr, GWriter, Writer } from "../context.js"
import { closeQuietly, restArray } from "../ops.js"
import {
  type ElementPlan,
  type PatternPlan,
  patternIterator,
  patternPlan,
  requireObjectCoercible,
  restExclusions,
  type TargetPlan,
  type ValueSource,
} from "../patterns.js"
import { unsupported } from "../shared.js"

/** A compiled target: `ref` evaluates a member target ahead of its value; otherwise `write` stores directly. */
interface Target {
  readonly ref: ((env: Env) => Generator<Value, Reference, Value>) | undefined
  readonly write: GWriter
}

const NO_WRITE: GWriter = function* () {}

/** A member target whose object or key suspends. */
const gReference = (ctx: CompileContext, n: Node): ((env: Env) => Generator<Value, Reference, Value>) => {
  if (!ctx.suspends(n)) {
    const ref = reference(ctx, n)
    return function* (env) {
      return ref(env)
    }
  }
  if (n.object.type === "Super" || n.property.type === "PrivateIdentifier")
    return unsupported(n, "`await` in an assignment to a `super` or private member", "Await the value first")
  const o = ctx.gexpr(n.object)
  const k = n.computed ? ctx.gexpr(n.property) : undefined
  const name: string | undefined = n.computed ? undefined : n.property.name
  const loc = ctx.loc(n)
  return function* (env) {
    const obj = yield* o(env)
    return memberReference(obj, k ? yield* k(env) : name, loc)
  }
}

const compileTarget = (ctx: CompileContext, t: TargetPlan, mode: BindMode): Target => {
  switch (t.kind) {
    case "binding": {
      const write = mode === "init" ? initWriter(ctx, t.node) : assignWriter(ctx, t.node)
      return {
        ref: undefined,
        write: function* (env, v) {
          write(env, v)
        },
      }
    }
    case "member":
      return { ref: gReference(ctx, t.node), write: NO_WRITE }
    case "pattern":
      return { ref: undefined, write: compilePattern(ctx, t.pattern, mode, null) }
  }
}

interface Element {
  readonly target: Target
  readonly init: GExpr | undefined
}

const compileElement = (ctx: CompileContext, e: ElementPlan, mode: BindMode): Element => ({
  target: compileTarget(ctx, e.target, mode),
  init: e.init ? ctx.gexpr(e.init, e.name) : undefined,
})

function* store(t: Target, env: Env, ref: Reference | undefined, v: Value): Generator<Value, void, Value> {
  if (ref !== undefined) ref.set(v)
  else yield* t.write(env, v)
}

const compilePattern = (ctx: CompileContext, plan: PatternPlan, mode: BindMode, source: ValueSource | null): GWriter =>
  plan.kind === "object" ? objectPattern(ctx, plan, mode, source) : arrayPattern(ctx, plan, mode, source)

const objectPattern = (
  ctx: CompileContext,
  plan: PatternPlan & { kind: "object" },
  mode: BindMode,
  source: ValueSource | null,
): GWriter => {
  const loc = ctx.loc(plan.node)
  const SO = ctx.realm.SO
  const props = plan.properties.map((p) => ({
    key: p.key,
    computed: p.computedKey ? ctx.gexpr(p.computedKey) : undefined,
    element: compileElement(ctx, p.element, mode),
  }))
  const rest = plan.rest ? compileTarget(ctx, plan.rest, mode) : undefined
  return function* (env, v) {
    requireObjectCoercible(v, plan, source, loc)
    const used: PropertyKey[] | undefined = rest ? [] : undefined
    for (const p of props) {
      const k: PropertyKey = p.computed ? toPropertyKey(yield* p.computed(env)) : p.key!
      used?.push(k)
      const el = p.element
      const ref = el.target.ref ? yield* el.target.ref(env) : undefined
      let x = typeof v === "object" ? v[k] : getPrimitiveProp(v, k, loc)
      if (x === undefined && el.init !== undefined) x = yield* el.init(env)
      yield* store(el.target, env, ref, x)
    }
    if (rest) {
      const ref = rest.ref ? yield* rest.ref(env) : undefined
      const r = new SO()
      copyDataProperties(r, v, restExclusions(used!))
      yield* store(rest, env, ref, r)
    }
  }
}

const arrayPattern = (
  ctx: CompileContext,
  plan: PatternPlan & { kind: "array" },
  mode: BindMode,
  source: ValueSource | null,
): GWriter => {
  const loc = ctx.loc(plan.node)
  const SA = ctx.realm.SA
  const elements = plan.elements.map((e) => (e === null ? null : compileElement(ctx, e, mode)))
  const rest = plan.rest ? compileTarget(ctx, plan.rest, mode) : undefined
  return function* (env, v) {
    if (Array.isArray(v) && arrayIterationIsPristine(v)) {
      for (let i = 0; i < elements.length; i++) {
        const el = elements[i]
        if (el === null) continue
        const ref = el.target.ref ? yield* el.target.ref(env) : undefined
        let x = v[i]
        if (x === undefined && el.init !== undefined) x = yield* el.init(env)
        yield* store(el.target, env, ref, x)
      }
      if (rest) {
        const ref = rest.ref ? yield* rest.ref(env) : undefined
        yield* store(rest, env, ref, restArray(v, elements.length))
      }
      return
    }
    const it = patternIterator(v, source, mode, loc)
    let done = false
    try {
      for (const el of elements) {
        const ref = el?.target.ref ? yield* el.target.ref(env) : undefined
        let x: Value
        if (!done) {
          done = true
          x = it.next()
          if (x === DONE) x = undefined
          else done = false
        }
        if (el === null) continue
        if (x === undefined && el.init !== undefined) x = yield* el.init(env)
        yield* store(el.target, env, ref, x)
      }
      if (rest) {
        const ref = rest.ref ? yield* rest.ref(env) : undefined
        const r = new SA()
        while (!done) {
          done = true
          const x = it.next()
          if (x !== DONE) {
            done = false
            r[r.length] = x
          }
        }
        yield* store(rest, env, ref, r)
      }
    } catch (e) {
      if (!done) {
        // A generator's return() closes like a `return` (the iterator's failures count); a throw closes quietly.
        if (e instanceof GeneratorReturn) it.close()
        else closeQuietly(it)
      }
      throw e
    }
    if (!done) it.close()
  }
}

/**
 * A target inside resumable code: the plain writer when nothing in it suspends (no generator per store), else
 * the resumable one.
 */
export interface ResumableTarget {
  readonly plain: Writer | undefined
  readonly resumable: GWriter | undefined
}

/** Compile a target for resumable code (see `ResumableTarget`). */
export const resumableTarget = (ctx: CompileContext, p: Node, mode: BindMode, source?: Node): ResumableTarget =>
  ctx.suspends(p)
    ? { plain: undefined, resumable: ctx.gpattern(p, mode, source) }
    : { plain: ctx.pattern(p, mode, source), resumable: undefined }

/** A binding or assignment target in resumable form (plain targets are lifted). */
export const gPattern = (ctx: CompileContext, p: Node, mode: BindMode, source?: Node): GWriter => {
  if (!ctx.suspends(p)) {
    const write = ctx.pattern(p, mode, source)
    return function* (env, v) {
      write(env, v)
    }
  }
  switch (p.type) {
    case "AssignmentPattern": {
      const inner = ctx.gpattern(p.left, mode)
      const d = ctx.gexpr(p.right, p.left.type === "Identifier" ? p.left.name : undefined)
      return function* (env, v) {
        yield* inner(env, v === undefined ? yield* d(env) : v)
      }
    }
    case "MemberExpression": {
      const ref = gReference(ctx, p)
      return function* (env, v) {
        const r = yield* ref(env)
        r.set(v)
      }
    }
    case "ObjectPattern":
    case "ArrayPattern":
      return compilePattern(ctx, patternPlan(ctx, p), mode, source)
    default:
      return unsupported(
        p,
        `${p.type} with \`await\`/\`yield\` is not a valid binding target`,
        "Bind to names, objects or arrays",
      )
  }
}
