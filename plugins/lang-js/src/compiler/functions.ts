/**
 * Functions: the template shared by every closure of one function definition (its entries, its metadata), the
 * environment setup (parameters, `this`, `arguments`, implicit bindings, hoisted declarations) and the body, in
 * plain or resumable form.
 */
import type { Node } from "../parse.js"
import type { Call3Impl, CallImpl, CallNImpl, Construct3Impl, ConstructImpl, Value } from "../runtime/functions.js"
import { ENV, HOME, type FunctionMeta } from "../runtime/internals.js"
import type { Body } from "../runtime/generators.js"
import { rt } from "../runtime/state.js"
import type { FunctionInfo, Scope } from "./analyze.js"
import { bindingOf, initWriter, tdzSlots } from "./bindings.js"
import type { CompileContext, Env, Expr, Writer } from "./context.js"
import {
  asyncCall,
  classCallError,
  classConstruct,
  derivedFrameConstruct,
  derivedFrameConstruct3,
  generatorCall,
  genericCall,
  frameCall,
  frameCall3,
  frameCallN,
  frameConstruct,
  frameConstruct3,
  ordinaryConstruct,
  plainAsyncCall,
  type Setup,
} from "./entries.js"
import { binderOf, blankEnvironment, type Frame, framePrologue } from "./frames.js"
import { createArguments, restArray } from "./ops.js"
import { RETURN, TDZ } from "./shared.js"
import { computed, operand, UNDEFINED_OPERAND } from "./operand.js"
import { valueBranch } from "./operators.js"

/** Everything needed to create closures of one function definition. */
export interface FunctionTemplate {
  readonly call: CallImpl
  readonly construct: ConstructImpl | undefined
  readonly meta: FunctionMeta
  /** The argument-list-free entry, for functions with at most three plain parameters. */
  readonly call3?: Call3Impl
  /** The argument-list-free `new` entry, for constructors with fast frames of at most three parameters. */
  readonly construct3?: Construct3Impl
  /** The entry that takes its environment from the call site, for functions of more than three plain parameters. */
  readonly callN?: CallNImpl
}

/** How a method is defined: a method, a getter or a setter. */
export type MethodKind = "method" | "get" | "set"

/** What a function definition is. */
export type TemplateKind = "function" | "arrow" | MethodKind | "field" | "static" | "constructor"

/** The name of a method, getter (`get x`) or setter (`set x`) defined under `key`. */
export const methodName = (kind: MethodKind, key: string): string => (kind === "method" ? key : `${kind} ${key}`)

/** Give a function the name only known at run time (an anonymous function under a computed key). */
export const renamed = (f: Value, name: string): Value => {
  Object.defineProperty(f, "name", { value: name, writable: false, enumerable: false, configurable: true })
  return f
}

/** A function or arrow expression: creates a closure over the current environment. */
export const functionExpression = (ctx: CompileContext, n: Node, name: string): Expr => {
  const info = ctx.analysis.functions.get(n)!
  const t = functionTemplate(ctx, n, info, name, n.type === "ArrowFunctionExpression" ? "arrow" : "function")
  const SF = ctx.realm.SF
  return (env) => new SF(t.call, t.construct, env, t.meta, undefined, t.call3, t.construct3, t.callN)
}

/** Instantiate the function declarations hoisted to the start of a scope. */
export const hoistedFunctions = (ctx: CompileContext, scope: Scope): ((env: Env) => void) => {
  const decls = scope.functionDeclarations
  if (decls.length === 0) return () => {}
  const makers = decls.map((d) => {
    const write = initWriter(ctx, d.id)
    const make = functionExpression(ctx, d, d.id.name)
    return (env: Env) => write(env, make(env))
  })
  return (env) => {
    for (let i = 0; i < makers.length; i++) makers[i](env)
  }
}

/** The number of parameters before the first default or rest (a function's `length`). */
const expectedArgs = (params: Node[]): number => {
  let n = 0
  for (const p of params) {
    if (p.type === "AssignmentPattern" || p.type === "RestElement") break
    n++
  }
  return n
}

/** Compile each parameter into a writer (a rest parameter's writer receives the list of the remaining arguments). */
const parameterWriters = (ctx: CompileContext, params: Node[]): Writer[] =>
  params.map((p) => (p.type === "RestElement" ? ctx.pattern(p.argument, "init") : ctx.pattern(p, "init")))

/** A binder `(env, args) => void` of the parameters (`rest`: whether the last one is a rest parameter). */
const parameters = (writers: Writer[], rest: boolean): ((env: Env, args: Value[]) => void) | undefined => {
  if (writers.length === 0) return undefined
  const binders = writers.map((w, i): ((env: Env, args: Value[]) => void) =>
    rest && i === writers.length - 1
      ? (env, args) => w(env, restArray(args, i))
      : (env, args) => w(env, i < args.length ? args[i] : undefined),
  )
  return (env, args) => {
    for (let i = 0; i < binders.length; i++) binders[i](env, args)
  }
}

/**
 * The source text `Function.prototype.toString` gives: a method's from its name (or `get`, `async`, `*`), without
 * `static`; a class constructor's is the whole class.
 */
export const definitionSource = (ctx: CompileContext, definition: Node): string => {
  let start: number = definition.start
  if (definition.static) {
    start += "static".length
    while (/\s/.test(ctx.source[start])) start++
  }
  return ctx.source.slice(start, definition.end)
}

/**
 * Build the call/construct behaviour shared by all closures of one function definition. `definition` is the node
 * whose text is the function's source when it is not `n` itself (a method's definition, a constructor's class).
 */
export const functionTemplate = (
  ctx: CompileContext,
  n: Node,
  info: FunctionInfo,
  name: string,
  kind: TemplateKind,
  definition: Node = n,
): FunctionTemplate => {
  const start = ctx.compiledNodes
  try {
    return template(ctx, n, info, name, kind, definition, start)
  } finally {
    // The enclosing code counts a nested function as one node: its body is charged when it is called.
    ctx.compiledNodes = start + 1
  }
}

const template = (
  ctx: CompileContext,
  n: Node,
  info: FunctionInfo,
  name: string,
  kind: TemplateKind,
  definition: Node,
  start: number,
): FunctionTemplate => {
  const params: Node[] = kind === "field" || kind === "static" ? [] : n.params
  const loc = ctx.loc(n)
  const scope = info.scope
  const size = scope.hasEnv ? scope.size : 0
  const isOrdinary = kind === "function" && !info.isAsync && !info.isGenerator
  const meta: FunctionMeta = {
    name,
    length: expectedArgs(params),
    constructorKind: kind === "constructor" ? (info.derived ? "derived" : "base") : isOrdinary ? "base" : "none",
    protoKind: info.isGenerator ? (info.isAsync ? "asyncGenerator" : "generator") : isOrdinary ? "object" : "none",
    display:
      kind === "constructor"
        ? "class"
        : `${info.isAsync ? "async " : ""}${info.isGenerator ? "generator " : ""}function`,
    source: kind === "field" || kind === "static" ? undefined : definitionSource(ctx, definition),
  }
  const bodyScope = info.bodyScope
  const tdz = bodyScope ? [...tdzSlots(scope), ...tdzSlots(bodyScope)] : tdzSlots(scope)
  // A body `var` named like a parameter starts with the parameter's value (they are separate bindings when the
  // parameters contain expressions).
  const copies: number[] = []
  if (bodyScope) {
    for (const b of bodyScope.bindings.values()) {
      const param = scope.bindings.get(b.name)
      if (b.kind === "var" && param?.kind === "param") copies.push(b.slot, param.slot)
    }
  }
  const bodyFunctions = bodyScope ? hoistedFunctions(ctx, bodyScope) : undefined
  const thisSlot = info.thisBinding ? info.thisBinding.slot : -1
  const argsSlot = info.argumentsBinding ? info.argumentsBinding.slot : -1
  const funcSlot = info.funcBinding ? info.funcBinding.slot : -1
  const homeSlot = info.homeBinding ? info.homeBinding.slot : -1
  const newTargetSlot = info.newTargetBinding ? info.newTargetBinding.slot : -1
  const derived = info.derived
  const simpleParams = params.every((p) => p.type === "Identifier")
  const paramSlots = simpleParams ? params.map((p) => bindingOf(ctx, p)!.slot) : []
  const hasRest = params.length > 0 && params[params.length - 1].type === "RestElement"
  const writers = simpleParams ? [] : parameterWriters(ctx, params)
  const bindParams = simpleParams ? undefined : parameters(writers, hasRest)
  const hasFunctions = scope.functionDeclarations.length > 0
  const functions = hoistedFunctions(ctx, scope)
  const setup: Setup = (thisValue, args, self, newTarget) => {
    let env: Env
    if (size === 0) env = self[ENV]
    else env = blankEnvironment(size, self[ENV])
    for (let i = 0; i < tdz.length; i++) env[tdz[i]] = TDZ
    if (thisSlot >= 0) env[thisSlot] = derived ? TDZ : thisValue
    if (argsSlot >= 0) env[argsSlot] = createArguments(args)
    if (funcSlot >= 0) env[funcSlot] = self
    if (homeSlot >= 0) env[homeSlot] = self[HOME]
    if (newTargetSlot >= 0) env[newTargetSlot] = newTarget
    if (bindParams) bindParams(env, args)
    else for (let i = 0; i < paramSlots.length; i++) env[paramSlots[i]] = i < args.length ? args[i] : undefined
    if (hasFunctions) functions(env)
    if (bodyFunctions !== undefined) {
      for (let i = 0; i < copies.length; i += 2) env[copies[i]] = env[copies[i + 1]]
      bodyFunctions(env)
    }
    return env
  }
  if (info.isGenerator || (info.isAsync && info.suspends)) {
    const body = resumableFunctionBody(ctx, n, info, kind, name)
    const steps = ctx.stepsSince(start)
    const call = info.isGenerator
      ? generatorCall(ctx.realm, info.isAsync, setup, body, steps)
      : asyncCall(setup, body, steps)
    return { call, construct: undefined, meta }
  }
  const body = functionBody(ctx, n, kind, name)
  const steps = ctx.stepsSince(start)
  if (info.isAsync) return { call: plainAsyncCall(setup, body, steps), construct: undefined, meta }
  // A fast frame: plain parameters in slots 1..np, or up to three patterns or defaults bound by their writers; no
  // `arguments` or rest parameter, `this` bound on entry (see `frames.ts`).
  const plain = simpleParams && paramSlots.every((slot, i) => slot === i + 1)
  const patterned = !simpleParams && !hasRest && writers.length <= 3
  const later =
    hasFunctions || bodyFunctions !== undefined
      ? (env: Env) => {
          if (hasFunctions) functions(env)
          if (bodyFunctions !== undefined) {
            for (let i = 0; i < copies.length; i += 2) env[copies[i]] = env[copies[i + 1]]
            bodyFunctions(env)
          }
        }
      : undefined
  // A derived constructor's frame starts with `this` uninitialized; it has no call entries.
  const frame: Frame | undefined =
    argsSlot >= 0 || (derived && kind !== "constructor") || !(plain || patterned)
      ? undefined
      : {
          size,
          np: paramSlots.length,
          thisSlot,
          prologue: framePrologue(tdz, funcSlot, homeSlot, newTargetSlot, plain ? later : undefined),
          bind: patterned ? binderOf(writers) : undefined,
          epilogue: patterned ? later : undefined,
        }
  const listFree = frame !== undefined && frame.np <= 3
  if (kind === "constructor") {
    if (frame === undefined)
      return {
        call: classCallError(name, loc),
        construct: classConstruct(ctx.realm, derived, thisSlot, loc, setup, body, steps),
        meta,
      }
    return {
      call: classCallError(name, loc),
      construct: derived
        ? derivedFrameConstruct(frame, loc, body, steps)
        : frameConstruct(ctx.realm, true, frame, body, steps),
      meta,
      construct3: !listFree
        ? undefined
        : derived
          ? derivedFrameConstruct3(frame, loc, body, steps)
          : frameConstruct3(ctx.realm, true, frame, body, steps),
    }
  }
  if (frame === undefined) {
    const construct = isOrdinary ? ordinaryConstruct(ctx.realm, setup, body, steps) : undefined
    return { call: genericCall(setup, body, steps), construct, meta }
  }
  const call = frameCall(frame, body, steps)
  // Exactly the parameters: more than three, `this` unread, nothing else to set up.
  const exact =
    frame.np > 3 && size === frame.np + 1 && thisSlot < 0 && frame.prologue === undefined && frame.bind === undefined
  return {
    call,
    construct: isOrdinary ? frameConstruct(ctx.realm, false, frame, body, steps) : undefined,
    meta,
    callN: exact ? frameCallN(size, body, steps, call) : undefined,
    call3: listFree ? frameCall3(frame, body, steps) : undefined,
    construct3: isOrdinary && listFree ? frameConstruct3(ctx.realm, false, frame, body, steps) : undefined,
  }
}

/** The plain (non-resumable) body of a function: returns the function's result. */
export const functionBody = (ctx: CompileContext, n: Node, kind: TemplateKind, name: string): Expr => {
  if (kind === "field") {
    if (!n.value) return () => undefined
    return ctx.expr(n.value, name)
  }
  if (kind === "static") {
    const list = ctx.statementList(n.body, false)
    return (env) => {
      list(env)
      return undefined
    }
  }
  if (n.body.type !== "BlockStatement") return ctx.expr(n.body)
  const statements: Node[] = n.body.body
  const last = statements[statements.length - 1]
  const returnsLast = last !== undefined && last.type === "ReturnStatement" && last.argument
  // Leading guard clauses (`if (c) return x`, function declarations aside) become conditional expressions around
  // the rest of the body.
  const guards: Guard[] = []
  let restStart = 0
  for (; restStart < statements.length - (returnsLast ? 1 : 0); restStart++) {
    const s = statements[restStart]
    if (s.type === "FunctionDeclaration" || s.type === "EmptyStatement") continue
    const g = guardClause(s)
    if (g === undefined) break
    guards.push(g)
  }
  let chain: Expr
  if (returnsLast) {
    const tail = ctx.expr(last.argument)
    const rest = statements.slice(restStart, -1)
    if (rest.every((s) => s.type === "FunctionDeclaration" || s.type === "EmptyStatement")) chain = tail
    else {
      const head = ctx.statementList(rest, false)
      chain = (env) => {
        const s = head(env)
        if (s !== undefined) return rt.ret
        return tail(env)
      }
    }
  } else {
    const list = ctx.statementList(statements.slice(restStart), false)
    chain = (env) => (list(env) === RETURN ? rt.ret : undefined)
  }
  for (let i = guards.length - 1; i >= 0; i--) {
    const test = ctx.expr(guards[i].test)
    const value = guards[i].value
    chain = valueBranch(test, value === undefined ? UNDEFINED_OPERAND : operand(ctx, value), computed(chain))
  }
  return chain
}

/** A guard clause: `if (test) return value` (`value` undefined for a bare `return`). */
interface Guard {
  readonly test: Node
  readonly value: Node | undefined
}

/** `if (test) return value` (without `else`, the return possibly alone in a block) as a guard. */
const guardClause = (s: Node): Guard | undefined => {
  if (s.type !== "IfStatement" || s.alternate) return undefined
  let c = s.consequent
  if (c.type === "BlockStatement" && c.body.length === 1) c = c.body[0]
  if (c.type !== "ReturnStatement") return undefined
  return { test: s.test, value: c.argument ?? undefined }
}

/** The body of an async function or generator: a host generator that returns the function's result. */
const resumableFunctionBody = (
  ctx: CompileContext,
  n: Node,
  info: FunctionInfo,
  kind: TemplateKind,
  name: string,
): ((env: Env) => Body) => {
  if (!info.suspends) {
    const plain = functionBody(ctx, n, kind, name)
    return function* (env) {
      return plain(env)
    }
  }
  ctx.resumableFunctions.push(info)
  try {
    if (n.body.type !== "BlockStatement") {
      const e = ctx.gexpr(n.body)
      return function* (env) {
        return yield* e(env)
      }
    }
    const list = ctx.gstatementList(n.body.body, false)
    return function* (env) {
      const s = yield* list(env)
      return s === RETURN ? rt.ret : undefined
    }
  } finally {
    ctx.resumableFunctions.pop()
  }
}
