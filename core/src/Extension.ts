/**
 * Extensions: host functions a program calls directly as globals (such as `fetch` or `fs.readFile`), and the layer
 * through which a runtime built from layers receives them.
 */
import type { Layer } from "effect"
import * as Contributions from "./Contributions.js"
import { checkKeys } from "./Options.js"
import type { ExtensionShape, GlobalShape } from "./sandbox/protocol.js"

const asyncMark: unique symbol = Symbol.for("@codemode/core/Extension/async")

/** A host function a program may call. It may return a value, a Promise or an Effect. */
export type HostFunction = (...args: ReadonlyArray<any>) => unknown

/** A global: a host function or an object of globals. */
export type Global = HostFunction | { readonly [name: string]: Global }

/** An extension: a named set of globals. `language: "lua"` marks `Extension.lua` extensions. */
export interface Extension {
  readonly _tag: "Extension"
  readonly name: string
  readonly language: "any" | "lua"
  readonly globals: { readonly [name: string]: Global }
}

const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/

/** Mark a plain function that returns a Promise or an Effect as asynchronous for JavaScript programs. */
export const async = <F extends HostFunction>(fn: F): F => {
  if (typeof fn !== "function") throw new TypeError("Extension.async expects a function")
  Object.defineProperty(fn, asyncMark, { value: true })
  return fn
}

/** True when JavaScript programs should see `fn` as asynchronous (an `async` function or marked with `async`). */
export const isAsync = (fn: HostFunction): boolean =>
  (fn as unknown as Record<symbol, unknown>)[asyncMark] === true || fn.constructor?.name === "AsyncFunction"

const validate = (what: string, options: unknown) => {
  if (typeof options !== "object" || options === null) throw new TypeError(`${what} expects { name, globals }`)
  checkKeys(what, options, ["name", "globals"])
  const { name, globals } = options as { name: unknown; globals: unknown }
  if (typeof name !== "string" || name.trim() === "") throw new TypeError(`${what}: name must be a non-empty string`)
  if (typeof globals !== "object" || globals === null || Array.isArray(globals))
    throw new TypeError(`${what} "${name}": globals must be a record of functions or objects of functions`)
  const walk = (value: unknown, path: string) => {
    if (typeof value === "function") return
    if (typeof value !== "object" || value === null || Array.isArray(value))
      throw new TypeError(`${what} "${name}": global "${path}" must be a function or an object of functions`)
    for (const key of Object.keys(value)) walk((value as Record<string, unknown>)[key], `${path}.${key}`)
  }
  for (const key of Object.keys(globals)) {
    if (!identifier.test(key)) throw new TypeError(`${what} "${name}": global name "${key}" is not an identifier`)
    walk((globals as Record<string, unknown>)[key], key)
  }
}

/** Define an extension whose globals are available to every language. */
export const make = (options: {
  readonly name: string
  readonly globals: { readonly [name: string]: Global }
}): Extension => {
  validate("Extension.make", options)
  return { _tag: "Extension", name: options.name, language: "any", globals: options.globals }
}

/** Define Lua globals: each function returns an Effect (or value or Promise) producing JSON data or `undefined`. */
export const lua = (options: {
  readonly name: string
  readonly globals: { readonly [name: string]: Global }
}): Extension => {
  validate("Extension.lua", options)
  return { _tag: "Extension", name: options.name, language: "lua", globals: options.globals }
}

/** The shape the sandbox sees: which names exist and how JavaScript calls them. */
export const shape = (extension: Extension): ExtensionShape => {
  const walk = (value: Global): GlobalShape => {
    if (typeof value === "function") return isAsync(value) ? "async" : "sync"
    const out: Record<string, GlobalShape> = {}
    for (const key of Object.keys(value)) out[key] = walk(value[key])
    return out
  }
  const globals: Record<string, GlobalShape> = {}
  for (const key of Object.keys(extension.globals)) globals[key] = walk(extension.globals[key])
  return { name: extension.name, language: extension.language, globals }
}

/** Find the host function at a dotted `name` inside an extension's globals. */
export const lookup = (extension: Extension, name: string): HostFunction | undefined => {
  let node: Global | undefined = { ...extension.globals }
  for (const segment of name.split(".")) {
    if (typeof node !== "object" || node === null || !Object.hasOwn(node, segment)) return undefined
    node = (node as Record<string, Global>)[segment]
  }
  return typeof node === "function" ? node : undefined
}

/** A layer contributing `extension` to a runtime built from layers (`CodeMode.layer`). */
export const layer = (extension: Extension): Layer.Layer<never, never, Contributions.Contributions> => {
  if (extension?._tag !== "Extension")
    throw new TypeError("Extension.layer expects an extension made with Extension.make or Extension.lua")
  return Contributions.contribute((registry) => registry.addExtension(extension))
}
