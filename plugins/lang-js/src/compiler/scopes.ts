/**
 * Entering block scopes: a scope gets its own environment only when the analysis says so (a closure captures one
 * of its bindings inside a loop); otherwise its bindings live in the enclosing environment and entering it only
 * resets their TDZ markers and instantiates its hoisted function declarations.
 */
import type { Scope } from "./analyze.js"
import { tdzSlots } from "./bindings.js"
import type { CompileContext, Env, Stmt } from "./context.js"
import { blankEnvironment } from "./frames.js"
import { hoistedFunctions } from "./functions.js"
import { TDZ } from "./shared.js"

/** The environment a scope runs in: a new one (for scopes with their own environment) or the current one. */
export const scopeEnter = (scope: Scope | undefined): ((env: Env) => Env) => {
  if (scope === undefined) return (env) => env
  const tdz = tdzSlots(scope)
  if (scope.hasEnv) {
    const size = scope.size
    return (env) => {
      const e = blankEnvironment(size, env)
      for (let i = 0; i < tdz.length; i++) e[tdz[i]] = TDZ
      return e
    }
  }
  if (tdz.length === 0) return (env) => env
  return (env) => {
    for (let i = 0; i < tdz.length; i++) env[tdz[i]] = TDZ
    return env
  }
}

/** Entering a block or `switch` scope: its environment plus its hoisted function declarations. */
export const blockEnter = (ctx: CompileContext, scope: Scope | undefined): ((env: Env) => Env) => {
  const enter = scopeEnter(scope)
  if (scope === undefined || scope.functionDeclarations.length === 0) return enter
  const functions = hoistedFunctions(ctx, scope)
  return (env) => {
    const e = enter(env)
    functions(e)
    return e
  }
}

/** Wrap code running in a block scope: new environment if needed, TDZ markers, hoisted functions. */
export const withScope = (ctx: CompileContext, scope: Scope | undefined, inner: Stmt): Stmt => {
  if (scope === undefined) return inner
  const tdz = tdzSlots(scope)
  const hasFunctions = scope.functionDeclarations.length > 0
  const functions = hoistedFunctions(ctx, scope)
  if (scope.hasEnv) {
    const size = scope.size
    return (env) => {
      const e = blankEnvironment(size, env)
      for (let i = 0; i < tdz.length; i++) e[tdz[i]] = TDZ
      functions(e)
      return inner(e)
    }
  }
  if (tdz.length === 0 && !hasFunctions) return inner
  return (env) => {
    for (let i = 0; i < tdz.length; i++) env[tdz[i]] = TDZ
    functions(env)
    return inner(env)
  }
}
