/**
 * `Function.prototype` (call, apply, bind, toString, name/length/prototype) and the `Function` constructor, which
 * exists only to refuse: code cannot be created from strings.
 */
import { throwTypeError, throwUnsupported } from "../runtime/errors.js"
import {
  arg,
  call,
  construct,
  defineBuiltinAccessor,
  defineMethod,
  functionName,
  isCallable,
  isConstructor,
  isObject,
  linkConstructor,
  makeNative,
  type Value,
} from "../runtime/functions.js"
import { CALL, META, type FunctionMeta } from "../runtime/internals.js"
import { reserveElements } from "../runtime/memory.js"
import { charge } from "../runtime/meter.js"
import { toInteger } from "../runtime/operators.js"
import type { Realm } from "../runtime/realm.js"

const metaOf = (f: Value): FunctionMeta | undefined => (isObject(f) ? (f[META] as FunctionMeta | undefined) : undefined)

/** `CreateListFromArrayLike(v)`: the values of an array-like, copied into a host list (its length checked first). */
export const listFromArrayLike = (v: Value): Value[] => {
  if (!isObject(v)) return throwTypeError("CreateListFromArrayLike called on non-object")
  const n = Array.isArray(v) ? v.length : Math.min(Math.max(toInteger(v.length), 0), Number.MAX_SAFE_INTEGER)
  reserveElements(n)
  charge(n)
  const out = new Array(n)
  for (let i = 0; i < n; i++) out[i] = v[i]
  return out
}

/** The argument list of `Function.prototype.apply`. */
const argumentList = (v: Value): Value[] => (v === undefined || v === null ? [] : listFromArrayLike(v))

/** Install `Function` and `Function.prototype`. */
export const installFunction = (realm: Realm): void => {
  const proto = realm.FunctionProto
  const refuse = () =>
    throwUnsupported("The Function constructor is not supported: functions cannot be created from strings")
  const ctor = makeNative("Function", 1, refuse, refuse)
  realm.Function = ctor
  linkConstructor(ctor, proto)

  defineMethod(proto, "call", 1, (t, a) => call(t, arg(a, 0), a.slice(1)))
  defineMethod(proto, "apply", 2, (t, a) => call(t, arg(a, 0), argumentList(arg(a, 1))))
  defineMethod(proto, "bind", 1, (t, a) => {
    if (!isCallable(t)) return throwTypeError("Bind must be called on a function")
    const target = t
    const boundThis = arg(a, 0)
    const boundArgs = a.slice(1)
    const targetLength = metaOf(target)?.length ?? 0
    const bound = makeNative(
      `bound ${functionName(target)}`,
      Math.max(0, (typeof target.length === "number" ? target.length : targetLength) - boundArgs.length),
      (_t, args) => call(target, boundThis, boundArgs.length === 0 ? args : [...boundArgs, ...args]),
      isConstructor(target)
        ? (args, newTarget) => construct(target, [...boundArgs, ...args], newTarget === bound ? target : newTarget)
        : undefined,
    )
    return bound
  })
  defineMethod(proto, "toString", 0, (t) => {
    if (!isCallable(t)) return throwTypeError("Function.prototype.toString requires that 'this' be a Function")
    const meta = metaOf(t)
    if (meta?.source !== undefined) return meta.source
    return `function ${functionName(t)}() { [native code] }`
  })
  defineMethod(proto, Symbol.hasInstance, 1, (t, a) => {
    const v = arg(a, 0)
    if (!isCallable(t) || !isObject(v)) return false
    const p = t.prototype
    if (!isObject(p)) return throwTypeError("Function has non-object prototype in instanceof check")
    let q = Object.getPrototypeOf(v)
    while (q !== null) {
      if (q === p) return true
      q = Object.getPrototypeOf(q)
    }
    return false
  })
  defineBuiltinAccessor(proto, "name", (t) => (isObject(t) && t[CALL] !== undefined ? (metaOf(t)?.name ?? "") : ""))
  defineBuiltinAccessor(proto, "length", (t) => (isObject(t) && t[CALL] !== undefined ? (metaOf(t)?.length ?? 0) : 0))
  defineBuiltinAccessor(
    proto,
    "prototype",
    (t) => {
      const meta = metaOf(t)
      if (meta === undefined || meta.protoKind === "none") return undefined
      const p =
        meta.protoKind === "generator"
          ? Object.create(realm.GeneratorProto)
          : meta.protoKind === "asyncGenerator"
            ? Object.create(realm.AsyncGeneratorProto)
            : realm.newObject()
      if (meta.protoKind === "object")
        Object.defineProperty(p, "constructor", { value: t, writable: true, enumerable: false, configurable: true })
      Object.defineProperty(t, "prototype", { value: p, writable: true, enumerable: false, configurable: false })
      return p
    },
    (t, v) => {
      if (isObject(t))
        Object.defineProperty(t, "prototype", { value: v, writable: true, enumerable: false, configurable: false })
    },
  )
}
