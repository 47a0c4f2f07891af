/**
 * Function objects: calling, constructing, built-in (native) functions and accessor bridging.
 *
 * A program's function is a plain host object (an instance of the realm's function class, whose prototype is the
 * realm's `Function.prototype`) carrying its behaviour under internal symbols: `CALL(thisValue, args, self)` and,
 * for constructors, `CONSTRUCT(args, newTarget, self)`. Host functions never become program values.
 */
import { throwTypeError } from "./errors.js"
import { CALL, CONSTRUCT, META, type FunctionMeta } from "./internals.js"
import { rt } from "./state.js"

/** A program value. The interpreter is dynamically typed; this alias marks where program values flow. */
export type Value = any

/** How a function object is called. */
export type CallImpl = (thisValue: Value, args: Value[], self: Value) => Value
/** How a function object is called with at most three arguments and no argument list. */
export type Call3Impl = (thisValue: Value, a0: Value, a1: Value, a2: Value, self: Value) => Value
/** How a function object is constructed. */
export type ConstructImpl = (args: Value[], newTarget: Value, self: Value) => Value

/** An empty argument list to pass when there are no arguments (never mutated). */
export const NO_ARGS: Value[] = []

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

/** A short description of a value for error messages (`undefined`, `"text"`, `object`, `function f`). */
export const shortDescription = (v: Value): string => {
  switch (typeof v) {
    case "string":
      return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}...` : v)
    case "symbol":
      return v.toString()
    case "object":
      if (v === null) return "null"
      if (v[CALL] !== undefined) return `function ${functionName(v) || "(anonymous)"}`
      return Array.isArray(v) ? "array" : "object"
    default:
      return String(v)
  }
}

const ownDataValue = (o: object, key: string): unknown => {
  const d = Object.getOwnPropertyDescriptor(o, key)
  return d && "value" in d ? d.value : undefined
}

/** The name of a function object (its own `name` data property, else its static name). */
export const functionName = (f: Value): string => {
  const own = ownDataValue(f, "name")
  if (typeof own === "string") return own
  const meta = f[META] as FunctionMeta | undefined
  return meta?.name ?? ""
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

const accessorFunctions = new WeakMap<object, Value>()

/** The program function behind a host accessor function (for `Object.getOwnPropertyDescriptor`). */
export const programAccessor = (hostFunction: unknown): Value =>
  typeof hostFunction === "function" ? accessorFunctions.get(hostFunction) : undefined

/** A host getter that runs the program function `fn` with the receiver as `this`. */
export const hostGetter = (fn: Value): (() => Value) => {
  const getter = function (this: Value): Value {
    return call(fn, this, NO_ARGS)
  }
  accessorFunctions.set(getter, fn)
  return getter
}

/** A host setter that runs the program function `fn` with the receiver as `this`. */
export const hostSetter = (fn: Value): ((v: Value) => void) => {
  const setter = function (this: Value, v: Value): void {
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

/** Argument `i`, or `undefined` when absent. */
export const arg = (args: Value[], i: number): Value => (i < args.length ? args[i] : undefined)

/** Make a constructor's `prototype` link both ways, as the language does for built-ins. */
export const linkConstructor = (ctor: Value, proto: object): void => {
  Object.defineProperty(ctor, "prototype", { value: proto, writable: false, enumerable: false, configurable: false })
  defineValue(proto, "constructor", ctor)
}

export { CALL, CONSTRUCT }
