/**
 * Modules: `import` declarations and `import()` take an extension global by its Node module name (the host bridge
 * resolves the specifier); there is nothing to export.
 */
import type { Node } from "../parse.js"
import type { Location } from "@codemode/core/sandbox"
import { caught, throwValue } from "../runtime/errors.js"
import { isObject, type Value } from "../runtime/functions.js"
import { toStr } from "../runtime/operators.js"
import { promiseResolve, rejectedPromise } from "../runtime/promises.js"
import { rt } from "../runtime/state.js"
import { initWriter } from "./bindings.js"
import type { CompileContext, Env, Expr } from "./context.js"

/** The namespace object of a module (`import * as m`, dynamic `import()`): its properties plus `default`. */
export const namespaceObject = (module: Value): Value => {
  const ns = Object.create(null)
  if (isObject(module)) for (const k of Object.keys(module)) ns[k] = module[k]
  ns.default = module
  return ns
}

/** `import x, { a as b }, * as ns from "m"`: resolves the module and initializes the bindings. */
export const importDeclaration = (ctx: CompileContext, s: Node): ((env: Env) => void) => {
  const specifier = String(s.source.value)
  const loc = ctx.loc(s)
  const writers = s.specifiers.map((spec: Node) => {
    const write = initWriter(ctx, spec.local)
    switch (spec.type) {
      case "ImportDefaultSpecifier":
        return (env: Env, module: Value) => write(env, module)
      case "ImportNamespaceSpecifier":
        return (env: Env, module: Value) => write(env, namespaceObject(module))
      default: {
        const name = spec.imported.type === "Identifier" ? spec.imported.name : String(spec.imported.value)
        if (name === "default") return (env: Env, module: Value) => write(env, module)
        return (env: Env, module: Value) => {
          const v = isObject(module) ? module[name] : undefined
          if (v === undefined) {
            throwValue(
              rt.realm.makeError("SyntaxError", `The module '${specifier}' does not provide an export named '${name}'`),
              loc,
            )
          }
          write(env, v)
        }
      }
    }
  })
  return (env) => {
    const module = ctx.resolveModule(specifier, loc)
    for (const w of writers) w(env, module)
  }
}

/** The promise `import(specifier)` returns. */
export const importPromise = (ctx: CompileContext, specifier: Value, loc: Location): Value => {
  const spec = toStr(specifier)
  try {
    return promiseResolve(namespaceObject(ctx.resolveModule(spec, loc))).object
  } catch (e) {
    return rejectedPromise(caught(e))
  }
}

/** `import(specifier)`. */
export const dynamicImport = (ctx: CompileContext, n: Node): Expr => {
  const source = ctx.expr(n.source)
  const loc = ctx.loc(n)
  return (env) => importPromise(ctx, source(env), loc)
}
