/**
 * Bindings: reading and writing variables. The analysis resolved every reference to a binding (or to a global), so
 * a read is an environment walk of a known number of hops to a known slot; bindings that a read could reach
 * before their declaration ran carry a temporal-dead-zone check.
 */
import type { Node } from "../parse.js"
import { throwReferenceError, throwUnsupported } from "../runtime/errors.js"
import { type Binding, hopsTo, type Scope } from "./analyze.js"
import type { CompileContext, Expr, Writer } from "./context.js"
import { constAssignError, tdzError } from "./ops.js"
import { type Env, TDZ } from "./shared.js"
import { unsupportedGlobalHint } from "./unsupportedGlobals.js"

/** The binding a reference resolved to, or `null` for a global. */
export const bindingOf = (ctx: CompileContext, node: Node): Binding | null => {
  const b = ctx.analysis.refs.get(node)
  if (b === undefined) throw new Error(`internal: unresolved reference ${node.name ?? node.type} at ${node.start}`)
  return b
}

/** Environment hops from a reference to the environment holding its binding. */
export const hopsOf = (ctx: CompileContext, node: Node, b: Binding): number =>
  hopsTo(ctx.analysis.refScopes.get(node)!, b)

/** Slots of a scope's bindings that need a TDZ marker when the scope is entered. */
export const tdzSlots = (scope: Scope): number[] => {
  const out: number[] = []
  for (const b of scope.bindings.values()) {
    if (
      b.tdz &&
      (b.kind === "let" || b.kind === "const" || b.kind === "class" || b.kind === "classInner" || b.kind === "param")
    )
      out.push(b.slot)
  }
  return out
}

/** Read a binding from the environment of the reference's scope. */
export const readBinding = (ctx: CompileContext, node: Node, b: Binding): Expr => {
  const hops = hopsOf(ctx, node, b)
  const slot = b.slot
  if (b.tdz) {
    const name = b.name
    const loc = ctx.loc(node)
    switch (hops) {
      case 0:
        return (env) => {
          const v = env[slot]
          return v === TDZ ? tdzError(name, loc) : v
        }
      case 1:
        return (env) => {
          const v = env[0][slot]
          return v === TDZ ? tdzError(name, loc) : v
        }
      default:
        return (env) => {
          let e = env
          for (let i = 0; i < hops; i++) e = e[0]
          const v = e[slot]
          return v === TDZ ? tdzError(name, loc) : v
        }
    }
  }
  switch (hops) {
    case 0:
      return (env) => env[slot]
    case 1:
      return (env) => env[0][slot]
    case 2:
      return (env) => env[0][0][slot]
    case 3:
      return (env) => env[0][0][0][slot]
    default:
      return (env) => {
        let e = env
        for (let i = 0; i < hops; i++) e = e[0]
        return e[slot]
      }
  }
}

/** Read the implicit binding a node resolved to (`this`, `new.target`, a private name). */
export const readResolved = (ctx: CompileContext, node: Node): Expr =>
  readBinding(ctx, node, ctx.analysis.refs.get(node)!)

/** A function that returns the environment holding a binding. */
export const envOf = (ctx: CompileContext, node: Node, b: Binding): ((env: Env) => Env) => {
  const hops = hopsOf(ctx, node, b)
  switch (hops) {
    case 0:
      return (env) => env
    case 1:
      return (env) => env[0]
    case 2:
      return (env) => env[0][0]
    default:
      return (env) => {
        let e = env
        for (let i = 0; i < hops; i++) e = e[0]
        return e
      }
  }
}

/** Read a global variable (a realm cell, or a `globalThis` property created by the program). */
export const readGlobal = (ctx: CompileContext, node: Node, name: string, forTypeof: boolean): Expr => {
  if (name === "undefined") return () => undefined
  const cell = ctx.realm.cells.get(name)
  if (cell) return () => cell.value
  const g = ctx.realm.globalObject
  if (forTypeof) return () => g[name]
  const loc = ctx.loc(node)
  const hint = unsupportedGlobalHint(name)
  return () => {
    const v = g[name]
    if (v !== undefined || name in g) return v
    if (hint !== undefined) return throwUnsupported(`${name} is not available: ${hint}`, loc)
    return throwReferenceError(`${name} is not defined`, loc)
  }
}

/** Read the variable an identifier names. */
export const identifier = (ctx: CompileContext, node: Node): Expr => {
  const b = bindingOf(ctx, node)
  if (b === null) return readGlobal(ctx, node, node.name, false)
  return readBinding(ctx, node, b)
}

/** A writer that initializes a declared binding (declarations, parameters, imports). */
export const initWriter = (ctx: CompileContext, node: Node): Writer => {
  const b = bindingOf(ctx, node)
  if (b === null) throw new Error(`internal: declaration ${node.name} has no binding`)
  const slot = b.slot
  if (hopsOf(ctx, node, b) === 0) {
    return (env, v) => {
      env[slot] = v
    }
  }
  const target = envOf(ctx, node, b)
  return (env, v) => {
    target(env)[slot] = v
  }
}

/** A writer for assigning to an identifier (checks `const`, TDZ; globals must exist). */
export const assignWriter = (ctx: CompileContext, node: Node): Writer => {
  const b = bindingOf(ctx, node)
  const loc = ctx.loc(node)
  if (b === null) {
    const name = node.name
    const cell = ctx.realm.cells.get(name)
    if (cell) {
      return (_env, v) => {
        cell.value = v
      }
    }
    const g = ctx.realm.globalObject
    return (_env, v) => {
      if (!(name in g)) throwReferenceError(`${name} is not defined`, loc)
      g[name] = v
    }
  }
  if (b.immutable) {
    const read = b.tdz ? readBinding(ctx, node, b) : undefined
    return (env) => {
      if (read) read(env)
      constAssignError(loc)
    }
  }
  const slot = b.slot
  const target = envOf(ctx, node, b)
  if (b.tdz) {
    const name = b.name
    return (env, v) => {
      const e = target(env)
      if (e[slot] === TDZ) tdzError(name, loc)
      e[slot] = v
    }
  }
  if (hopsOf(ctx, node, b) === 0) {
    return (env, v) => {
      env[slot] = v
    }
  }
  return (env, v) => {
    target(env)[slot] = v
  }
}

/** The slot of a local binding a fast path may read and write directly (no TDZ, mutable, in this environment). */
export const plainLocalSlot = (ctx: CompileContext, node: Node): number => {
  if (node.type !== "Identifier") return -1
  const b = bindingOf(ctx, node)
  if (b === null || b.tdz || b.immutable || hopsOf(ctx, node, b) !== 0) return -1
  return b.slot
}
