/**
 * Function objects: calling, constructing, built-in (native) functions and accessor bridging.
 *
 * A program's function is a plain host object (an instance of the realm's function class, whose prototype is the
 * realm's `Function.prototype`) carrying its behaviour under internal symbols: `CALL(thisValue, args, self)` and,
 * for constructors, `CONSTRUCT(args, newTarget, self)`. Host functions never become program values.
 */
import { throwTypeError } from "./errors.js"
import { Brand, CALL, CALL3, CONSTRUCT, MATERIALIZED, META, type FunctionMeta, brandOf } from "./internals.js"
import { rt } from "./state.js"

/** A program value. The interpreter is dynamically typed; this alias marks where program values flow. */
export type Value = any

/** How a function object is called. */
export type CallImpl = (thisValue: Value, args: Value[], self: Value) => Value
/**
 * How a function object is called with at most three arguments, without an argument list: `count` is how many the
 * call passed (the rest are `undefined`); program functions ignore it, built-ins with a variable arity read it.
 */
export type Call3Impl = (thisValue: Value, a0: Value, a1: Value, a2: Value, self: Value, count: number) => Value
/** The `CALLN` entry: the call site's fresh `[unused, a0, a1, ...]` becomes the callee's environment. */
export type CallNImpl = (thisValue: Value, env: Value[], self: Value) => Value
/** How a function object is constructed. */
export type ConstructImpl = (args: Value[], newTarget: Value, self: Value) => Value
/** The list-free `CONSTRUCT3` entry of a constructor: up to three arguments and their count. */
export type Construct3Impl = (a0: Value, a1: Value, a2: Value, newTarget: Value, self: Value, count: number) => Value

/** An empty argument list to pass when there are no arguments (never mutated). */
export const NO_ARGS: Value[] = []

/** The argument list of a list-free call (or construction) of `count` arguments. */
export const argumentsOf = (count: number, a0: Value, a1: Value, a2: Value): Value[] =>
  count === 0 ? NO_ARGS : count === 1 ? [a0] : count === 2 ? [a0, a1] : [a0, a1, a2]

/** True when `v` is an object of the program (including functions). */
export const isObject = (v: Value): boolean => typeof v === "object" && v !== null

/** True when `v` is a function of the program. */
export const isCallable = (v: Value): boolean => typeof v === "object" && v !== null && v[CALL] !== undefined

/** True when `v` can be used with `new`. */
export const isConstructor = (v: Value): boolean => typeof v === "object" && v !== null && v[CONSTRUCT] !== undefined

/** Call a program function; a non-function is a `TypeError`. */
export const call = (f: Value, thisValue: Value, args: Value[]): Value => {
  if (typeof f === "object" && f !== null) {
    const c = f[CALL]
    if (c !== undefined) return c(thisValue, args, f)
  }
  return throwTypeError(`${shortDescription(f)} is not a function`)
}

/** `new f(...args)` with an explicit `newTarget`. */
export const construct = (f: Value, args: Value[], newTarget: Value = f): Value => {
  if (typeof f === "object" && f !== null) {
    const c = f[CONSTRUCT]
    if (c !== undefined) return c(args, newTarget, f)
  }
  return throwTypeError(`${shortDescription(f)} is not a constructor`)
}

/** Longest text of a string or function source an error message quotes. */
const MAX_DESCRIBED = 100

const clip = (text: string): string => (text.length > MAX_DESCRIBED ? `${text.slice(0, MAX_DESCRIBED)}...` : text)

/** The name of the constructor an object's prototype chain names (data properties only: nothing runs). */
const constructorNameOf = (o: Value): string | undefined => {
  for (let p = o; p !== null; p = Object.getPrototypeOf(p)) {
    const d = Object.getOwnPropertyDescriptor(p, "constructor")
    if (d === undefined) continue
    const c = "value" in d ? d.value : undefined
    if (typeof c === "object" && c !== null && c[CALL] !== undefined) {
      const name = functionName(c)
      return name === "" ? undefined : name
    }
    return undefined
  }
  return undefined
}

/**
 * A value as V8 names it in a built-in's error message (`5`, `abc`, `#<Object>`, `[object Array]`,
 * `Error: boom`, the source of a function), without running program code; long texts are cut.
 */
export const shortDescription = (v: Value): string => {
  switch (typeof v) {
    case "string":
      return clip(v)
    case "symbol":
      return v.toString()
    case "object": {
      if (v === null) return "null"
      if (v[CALL] !== undefined) {
        const source = (v[META] as FunctionMeta | undefined)?.source
        return clip(source ?? `function ${functionName(v)}() { [native code] }`)
      }
      if (Array.isArray(v)) return "[object Array]"
      switch (brandOf(v)) {
        case Brand.RegExp:
          return "[object RegExp]"
        case Brand.Date:
          return "[object Date]"
        case Brand.Error: {
          const name = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(v) ?? {}, "name")?.value
          const message = Object.getOwnPropertyDescriptor(v, "message")?.value
          return clip(
            `${typeof name === "string" ? name : "Error"}${typeof message === "string" && message !== "" ? `: ${message}` : ""}`,
          )
        }
      }
      const name = constructorNameOf(v)
      return name === undefined ? "[object Object]" : `#<${name}>`
    }
    default:
      return String(v)
  }
}

/** The `TypeError` of a built-in method given a `this` it cannot work on (V8's wording). */
export const incompatibleReceiver = (method: string, receiver: Value): never =>
  throwTypeError(`Method ${method} called on incompatible receiver ${shortDescription(receiver)}`)

const ownDataValue = (o: object, key: string): unknown => {
  const d = Object.getOwnPropertyDescriptor(o, key)
  return d && "value" in d ? d.value : undefined
}

const hasOwn = Object.prototype.hasOwnProperty

/** True for a function object whose `length`, `name` and `prototype` are not own properties yet. */
export const isUnmaterialized = (v: Value): boolean =>
  typeof v === "object" && v !== null && hasOwn.call(v, META) && !hasOwn.call(v, MATERIALIZED)

/** The name of a function object (its own `name` data property, else its static name). */
export const functionName = (f: Value): string => {
  const own = ownDataValue(f, "name")
  if (typeof own === "string") return own
  if (!isUnmaterialized(f)) return ""
  const meta = f[META] as FunctionMeta | undefined
  return meta?.name ?? ""
}

/** The prototype object a function's `prototype` property starts with. */
const newPrototype = (f: Value, meta: FunctionMeta): Value => {
  const realm = rt.realm
  if (meta.protoKind === "generator") return Object.create(realm.GeneratorProto)
  if (meta.protoKind === "asyncGenerator") return Object.create(realm.AsyncGeneratorProto)
  const p = realm.newObject()
  Object.defineProperty(p, "constructor", { value: f, writable: true, enumerable: false, configurable: true })
  return p
}

/**
 * Give a function its own `length`, `name` and (for constructors and generators) `prototype`, in the language's
 * order. A function is created without them, because defining three properties costs far more than creating the
 * function: until then `Function.prototype`'s accessors answer for them, and every reflective operation (property
 * listings and descriptors, `hasOwnProperty`, `defineProperty`, `delete`, `freeze`...) materializes them first.
 * Properties the program added in the meantime move behind them, where the language puts them.
 */
export const materialize = (f: Value): void => {
  if (!isUnmaterialized(f)) return
  const meta = f[META] as FunctionMeta
  f[MATERIALIZED] = true
  const saved = new Map<string, PropertyDescriptor>()
  for (const k of Object.getOwnPropertyNames(f)) {
    const d = Object.getOwnPropertyDescriptor(f, k)!
    if (!d.configurable) continue
    saved.set(k, d)
    delete f[k]
  }
  const own = (key: string, value: Value, writable: boolean, configurable: boolean) => {
    const d = saved.get(key)
    if (d !== undefined) saved.delete(key)
    Object.defineProperty(f, key, d ?? { value, writable, enumerable: false, configurable })
  }
  if (!hasOwn.call(f, "length")) own("length", meta.length, false, true)
  if (!hasOwn.call(f, "name")) own("name", meta.name, false, true)
  if (meta.protoKind !== "none" && !hasOwn.call(f, "prototype") && !saved.has("prototype")) {
    own("prototype", newPrototype(f, meta), true, false)
  }
  for (const [k, d] of saved) Object.defineProperty(f, k, d)
}

/** The value `f.name` or `f.length` has while it is not materialized, for `Function.prototype`'s accessors. */
export const virtualFunctionProperty = (receiver: Value, key: "name" | "length"): Value => {
  const functionProto = rt.realm.FunctionProto
  for (let p = receiver; typeof p === "object" && p !== null; p = Object.getPrototypeOf(p)) {
    if (p === functionProto) break
    if (isUnmaterialized(p)) return (p[META] as FunctionMeta)[key]
  }
  if (rt.realm.deletedFunctionProtoKeys.has(key)) return undefined
  return key === "name" ? "" : 0
}

/** True for a function that will have an own `prototype` once materialized. */
const hasVirtualPrototype = (p: Value): boolean => isUnmaterialized(p) && (p[META] as FunctionMeta).protoKind !== "none"

/** `f.prototype` read through `Function.prototype` before it is materialized. */
export const virtualPrototype = (receiver: Value): Value => {
  const functionProto = rt.realm.FunctionProto
  for (let p = receiver; typeof p === "object" && p !== null; p = Object.getPrototypeOf(p)) {
    if (p === functionProto) break
    if (hasVirtualPrototype(p)) {
      materialize(p)
      return Object.getOwnPropertyDescriptor(p, "prototype")!.value
    }
  }
  return undefined
}

/** `receiver.prototype = v` arriving at `Function.prototype`: the function's own `prototype`, else a new property. */
export const setVirtualPrototype = (receiver: Value, v: Value): void => {
  if (typeof receiver !== "object" || receiver === null) {
    throwTypeError("Cannot create property 'prototype' on a primitive")
  }
  if (hasVirtualPrototype(receiver)) {
    materialize(receiver)
    Object.defineProperty(receiver, "prototype", { value: v })
    return
  }
  materialize(receiver)
  Object.defineProperty(receiver, "prototype", { value: v, writable: true, enumerable: true, configurable: true })
}

/** True when `"prototype" in o` holds: some object on the chain has it, or will once materialized. */
export const hasPrototypeProperty = (o: Value): boolean => {
  const functionProto = rt.realm.FunctionProto
  for (let p = o; typeof p === "object" && p !== null; p = Object.getPrototypeOf(p)) {
    if (p === functionProto) continue
    if (hasOwn.call(p, "prototype") || hasVirtualPrototype(p)) return true
  }
  return false
}

/** Facts for a built-in function. */
const nativeMeta = (name: string, length: number, constructable: boolean): FunctionMeta => ({
  name,
  length,
  constructorKind: constructable ? "native" : "none",
  protoKind: "none",
  display: "function",
})

/** Make a built-in function. `impl` receives `(thisValue, args)`; `construct` makes it usable with `new`. */
export const makeNative = (name: string, length: number, impl: CallImpl, construct?: ConstructImpl): Value =>
  new rt.realm.SF(impl, construct, undefined, nativeMeta(name, length, construct !== undefined), undefined)

const boundTargets = new WeakMap<object, Value>()

/** Remember the target of a bound function (`instanceof` looks through it). */
export const noteBoundFunction = (bound: Value, target: Value): void => {
  boundTargets.set(bound, target)
}

/** The target of a bound function, or undefined. */
export const boundTargetOf = (f: Value): Value =>
  typeof f === "object" && f !== null ? boundTargets.get(f) : undefined

const accessorFunctions = new WeakMap<object, Value>()

/** The program function behind a host accessor function (for `Object.getOwnPropertyDescriptor`). */
export const programAccessor = (hostFunction: unknown): Value =>
  typeof hostFunction === "function" ? accessorFunctions.get(hostFunction) : undefined

/** A host getter that runs the program function `fn` with the receiver as `this`. */
export const hostGetter = (fn: Value): (() => Value) => {
  const c3: Call3Impl | undefined = fn[CALL3]
  const getter =
    c3 !== undefined
      ? function (this: Value): Value {
          return c3(this, undefined, undefined, undefined, fn, 0)
        }
      : function (this: Value): Value {
          return call(fn, this, NO_ARGS)
        }
  accessorFunctions.set(getter, fn)
  return getter
}

/** A host setter that runs the program function `fn` with the receiver as `this`. */
export const hostSetter = (fn: Value): ((v: Value) => void) => {
  const c3: Call3Impl | undefined = fn[CALL3]
  const setter =
    c3 !== undefined
      ? function (this: Value, v: Value): void {
          c3(this, v, undefined, undefined, fn, 1)
        }
      : function (this: Value, v: Value): void {
          call(fn, this, [v])
        }
  accessorFunctions.set(setter, fn)
  return setter
}

/** Define a built-in accessor property implemented by host functions that run without a call frame. */
export const defineBuiltinAccessor = (
  target: object,
  name: string | symbol,
  get: (self: Value) => Value,
  set?: (self: Value, v: Value) => void,
): void => {
  const label = typeof name === "symbol" ? `[${name.description}]` : name
  const hostGet = function (this: Value): Value {
    return get(this)
  }
  accessorFunctions.set(
    hostGet,
    makeNative(`get ${label}`, 0, (t) => get(t)),
  )
  let hostSet: ((v: Value) => void) | undefined
  if (set) {
    hostSet = function (this: Value, v: Value): void {
      set(this, v)
    }
    accessorFunctions.set(
      hostSet,
      makeNative(`set ${label}`, 1, (t, a) => set(t, a[0])),
    )
  }
  Object.defineProperty(target, name, { get: hostGet, set: hostSet, enumerable: false, configurable: true })
}

/** Define a built-in method (non-enumerable, like the language's own). Returns the function object. */
export const defineMethod = (target: object, name: string | symbol, length: number, impl: CallImpl): Value => {
  const label = typeof name === "symbol" ? `[${name.description}]` : name
  const fn = makeNative(label, length, impl)
  Object.defineProperty(target, name, { value: fn, writable: true, enumerable: false, configurable: true })
  return fn
}

/** Define a non-enumerable data property (constants, prototype links). */
export const defineValue = (target: object, name: string | symbol, value: Value, writable = true): void => {
  Object.defineProperty(target, name, { value, writable, enumerable: false, configurable: writable })
}

/** Define `Symbol.toStringTag` the way the language's built-ins have it (not writable, configurable). */
export const defineTag = (target: object, tag: string): void => {
  Object.defineProperty(target, Symbol.toStringTag, {
    value: tag,
    writable: false,
    enumerable: false,
    configurable: true,
  })
}

/** Argument `i`, or `undefined` when absent. */
export const arg = (args: Value[], i: number): Value => (i < args.length ? args[i] : undefined)

/** Make a constructor's `prototype` link both ways, as the language does for built-ins. */
export const linkConstructor = (ctor: Value, proto: object): void => {
  Object.defineProperty(ctor, "prototype", { value: proto, writable: false, enumerable: false, configurable: false })
  defineValue(proto, "constructor", ctor)
}

export { CALL, CONSTRUCT }
