/**
 * Classes: a class definition compiles to a plan (its heritage, constructor, elements and private names) that a
 * driver evaluates in the order the language specifies: the heritage, then each element's key in source order,
 * then the static fields and blocks. The plain driver is here; `resumable/classes.ts` drives the same plan when a
 * heritage or computed key contains `await`/`yield`.
 */
import type { Node } from "../parse.js"
import { throwTypeError } from "../runtime/errors.js"
import { call, hostGetter, hostSetter, isConstructor, isObject, NO_ARGS, type Value } from "../runtime/functions.js"
import { FIELDS, META, registerPrivateName, type FunctionMeta } from "../runtime/internals.js"
import { toPropertyKey } from "../runtime/operators.js"
import type { Location } from "@codemode/core/sandbox"
import { readResolved } from "./bindings.js"
import type { CompileContext, Env, Expr } from "./context.js"
import { classCallError, defaultConstruct, defaultConstruct3 } from "./entries.js"
import { definitionSource, type FunctionTemplate, functionTemplate, type MethodKind, methodName } from "./functions.js"
import { keyName, propertyKeyName } from "./literals.js"
import { type ClassElement, defineMethodProperty } from "./ops.js"
import { scopeEnter } from "./scopes.js"

/** Defines one element of a class being created, given its evaluated key. */
export type ElementDefiner = (c: ClassUnderConstruction, key: PropertyKey) => void

/** One element of a class definition: where its key comes from and how it is defined. */
export interface ClassElementPlan {
  /** The node of a computed key (evaluated by the driver), or undefined. */
  readonly computedKey: Node | undefined
  /** The key when it is not computed (a name, or a private name's symbol read from the class scope). */
  readonly fixedKey: Expr | undefined
  readonly define: ElementDefiner
}

/** A compiled class definition. */
export interface ClassPlan {
  readonly enter: (env: Env) => Env
  readonly privateSlots: ReadonlyArray<{ readonly slot: number; readonly name: string }>
  readonly innerSlot: number
  readonly heritage: Node | undefined
  readonly loc: Location
  readonly ctor: FunctionTemplate
  readonly elements: ReadonlyArray<ClassElementPlan>
}

/** Compile a class definition into its plan. */
export const classPlan = (ctx: CompileContext, n: Node, name: string): ClassPlan => {
  const scope = ctx.analysis.scopes.get(n)!
  const loc = ctx.loc(n)
  const ctorNode = n.body.body.find((el: Node) => el.type === "MethodDefinition" && el.kind === "constructor")
  const ctor = ctorNode
    ? functionTemplate(ctx, ctorNode.value, ctx.analysis.functions.get(ctorNode.value)!, name, "constructor", n)
    : defaultConstructor(ctx, name, !!n.superClass, loc, definitionSource(ctx, n))
  const elements: ClassElementPlan[] = []
  for (const el of n.body.body) {
    if (el.type === "MethodDefinition" && el.kind !== "constructor") elements.push(methodElement(ctx, el))
    else if (el.type === "PropertyDefinition") elements.push(fieldElement(ctx, el))
    else if (el.type === "StaticBlock") elements.push(staticBlock(ctx, el))
  }
  return {
    enter: scopeEnter(scope),
    privateSlots: [...scope.bindings.values()]
      .filter((b) => b.kind === "private")
      .map((b) => ({ slot: b.slot, name: b.name })),
    innerSlot: n.id ? scope.bindings.get(n.id.name)!.slot : -1,
    heritage: n.superClass ?? undefined,
    loc,
    ctor,
    elements,
  }
}

/** The key of an element that is not computed: its name, or its private name's symbol. */
const fixedKeyOf = (ctx: CompileContext, el: Node): Expr | undefined => {
  if (el.key.type === "PrivateIdentifier") return readResolved(ctx, el.key)
  if (el.computed) return undefined
  const name = propertyKeyName(el.key, false)!
  return () => name
}

const methodElement = (ctx: CompileContext, el: Node): ClassElementPlan => {
  const isPrivate = el.key.type === "PrivateIdentifier"
  const kind: MethodKind = el.kind
  const staticName = isPrivate ? `#${el.key.name}` : propertyKeyName(el.key, el.computed)
  const t = functionTemplate(
    ctx,
    el.value,
    ctx.analysis.functions.get(el.value)!,
    staticName === undefined ? "" : methodName(kind, staticName),
    kind,
    el,
  )
  const isStatic: boolean = el.static
  const SF = ctx.realm.SF
  const define: ElementDefiner = (c, k) => {
    const meta: FunctionMeta = staticName === undefined ? { ...t.meta, name: methodName(kind, keyName(k)) } : t.meta
    const home = isStatic ? c.F : c.proto
    const fn = new SF(t.call, t.construct, c.env, meta, home, t.call3)
    if (isPrivate && !isStatic) {
      if (kind === "method") {
        c.instance.push({ kind: "method", key: k, isPrivate: true, init: fn })
        return
      }
      const accessor = kind === "get" ? hostGetter(fn) : hostSetter(fn)
      const existing = c.privateAccessors.get(k)
      if (existing !== undefined) existing[kind] = accessor
      else {
        const element: ClassElement = { kind: "accessor", key: k, isPrivate: true, [kind]: accessor }
        c.privateAccessors.set(k, element)
        c.instance.push(element)
      }
      return
    }
    if (isPrivate) {
      // A static private method or accessor: like an instance's, never writable or reconfigurable.
      if (kind === "method")
        Object.defineProperty(home, k, { value: fn, writable: false, enumerable: false, configurable: false })
      else {
        const existing = Object.getOwnPropertyDescriptor(home, k)
        Object.defineProperty(home, k, {
          get: kind === "get" ? hostGetter(fn) : existing?.get,
          set: kind === "set" ? hostSetter(fn) : existing?.set,
          enumerable: false,
          configurable: true,
        })
      }
      return
    }
    defineMethodProperty(home, k, kind, fn, false, hostGetter, hostSetter)
  }
  const fixedKey = fixedKeyOf(ctx, el)
  return { computedKey: fixedKey === undefined ? el.key : undefined, fixedKey, define }
}

const fieldElement = (ctx: CompileContext, el: Node): ClassElementPlan => {
  const isPrivate = el.key.type === "PrivateIdentifier"
  const isStatic: boolean = el.static
  const info = ctx.analysis.functions.get(el)
  const staticName = isPrivate ? `#${el.key.name}` : propertyKeyName(el.key, el.computed)
  const t = info ? functionTemplate(ctx, el, info, staticName ?? "", "field") : undefined
  const SF = ctx.realm.SF
  const define: ElementDefiner = (c, k) => {
    const F = c.F
    const init = t ? new SF(t.call, undefined, c.env, t.meta, isStatic ? F : c.proto) : undefined
    if (!isStatic) {
      c.instance.push({ kind: "field", key: k, isPrivate, init })
      return
    }
    c.statics.push(() => {
      const value = init ? call(init, F, NO_ARGS) : undefined
      if (isPrivate) Object.defineProperty(F, k, { value, writable: true, enumerable: false, configurable: false })
      else Object.defineProperty(F, k, { value, writable: true, enumerable: true, configurable: true })
    })
  }
  const fixedKey = fixedKeyOf(ctx, el)
  return { computedKey: fixedKey === undefined ? el.key : undefined, fixedKey, define }
}

const staticBlock = (ctx: CompileContext, el: Node): ClassElementPlan => {
  const t = functionTemplate(ctx, el, ctx.analysis.functions.get(el)!, "", "static")
  const SF = ctx.realm.SF
  const define: ElementDefiner = (c) => {
    const F = c.F
    const fn = new SF(t.call, undefined, c.env, t.meta, F)
    c.statics.push(() => call(fn, F, NO_ARGS))
  }
  return { computedKey: undefined, fixedKey: () => "", define }
}

/** The constructor of a class that declares none. */
const defaultConstructor = (
  ctx: CompileContext,
  name: string,
  derived: boolean,
  loc: Location,
  source: string,
): FunctionTemplate => {
  const meta: FunctionMeta = {
    name,
    length: 0,
    constructorKind: derived ? "derived" : "base",
    protoKind: "none",
    display: "class",
    source,
  }
  return {
    call: classCallError(name, loc),
    construct: defaultConstruct(ctx.realm, derived, loc),
    meta,
    construct3: defaultConstruct3(ctx.realm, derived, loc),
  }
}

/** A class being created: the constructor, its prototype and the elements collected so far. */
export interface ClassUnderConstruction {
  readonly env: Env
  readonly F: Value
  readonly proto: Value
  readonly instance: ClassElement[]
  /** The private accessors among `instance`, by private name (a getter and a setter share one element). */
  readonly privateAccessors: Map<PropertyKey, ClassElement>
  readonly statics: Array<() => void>
}

/** How V8 shows a heritage value that is not a constructor. */
const extendsValueText = (v: Value): string => {
  if (typeof v === "symbol") return v.toString()
  if (typeof v !== "object" || v === null) return String(v)
  if (Array.isArray(v)) return "[object Array]"
  const source = (v[META] as FunctionMeta | undefined)?.source
  return source ?? "#<Object>"
}

/** Enter the class scope: a fresh private name for every `#x` of this evaluation. */
export const enterClass = (plan: ClassPlan, outer: Env): Env => {
  const env = plan.enter(outer)
  for (const p of plan.privateSlots) {
    const sym = Symbol(p.name)
    registerPrivateName(sym)
    env[p.slot] = sym
  }
  return env
}

/** Create the constructor and prototype once the heritage is known (`undefined` when the class has none). */
export const createClass = (ctx: CompileContext, plan: ClassPlan, env: Env, parent: Value): ClassUnderConstruction => {
  const realm = ctx.realm
  let protoParent: Value = realm.ObjectProto
  let ctorParent: Value = realm.FunctionProto
  if (plan.heritage !== undefined) {
    if (parent === null) {
      protoParent = null
    } else {
      if (!isConstructor(parent)) {
        throwTypeError(`Class extends value ${extendsValueText(parent)} is not a constructor or null`, plan.loc)
      }
      const pp = parent.prototype
      if (pp !== null && !isObject(pp))
        throwTypeError(`Class extends value does not have valid prototype property`, plan.loc)
      protoParent = pp
      ctorParent = parent
    }
  }
  const proto = Object.create(protoParent)
  const ctor = plan.ctor
  const F = new realm.SF(ctor.call, ctor.construct, env, ctor.meta, proto, undefined, ctor.construct3)
  if (ctorParent !== realm.FunctionProto) Object.setPrototypeOf(F, ctorParent)
  Object.defineProperty(F, "prototype", { value: proto, writable: false, enumerable: false, configurable: false })
  Object.defineProperty(proto, "constructor", { value: F, writable: true, enumerable: false, configurable: true })
  return { env, F, proto, instance: [], privateAccessors: new Map(), statics: [] }
}

/** Define one element with its evaluated key. */
export const defineElement = (c: ClassUnderConstruction, el: ClassElementPlan, key: PropertyKey): void =>
  el.define(c, key)

/** Finish the class: instance elements, the inner name binding, then static fields and blocks in order. */
export const finishClass = (plan: ClassPlan, c: ClassUnderConstruction): Value => {
  c.F[FIELDS] = c.instance.length > 0 ? c.instance : undefined
  if (plan.innerSlot >= 0) c.env[plan.innerSlot] = c.F
  for (const s of c.statics) s()
  return c.F
}

/** A class declaration or expression, evaluated by the plain driver. */
export const classExpression = (ctx: CompileContext, n: Node, name: string): Expr => {
  const plan = classPlan(ctx, n, name)
  const heritage = plan.heritage ? ctx.expr(plan.heritage) : undefined
  const keys: Expr[] = plan.elements.map((el) => {
    if (el.fixedKey !== undefined) return el.fixedKey
    const k = ctx.expr(el.computedKey)
    return (env: Env) => toPropertyKey(k(env))
  })
  return (outer) => {
    const env = enterClass(plan, outer)
    const c = createClass(ctx, plan, env, heritage ? heritage(env) : undefined)
    for (let i = 0; i < plan.elements.length; i++) defineElement(c, plan.elements[i], keys[i](env))
    return finishClass(plan, c)
  }
}
