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
  hostGetter,
  hostSetter,
  isCallable,
  isConstructor,
  isObject,
  isUnmaterialized,
  linkConstructor,
  makeNative,
  NO_ARGS,
  noteBoundFunction,
  setVirtualPrototype,
  type Value,
  virtualFunctionProperty,
  virtualPrototype,
} from "../runtime/functions.js"
import { CALL, CALL3, MATERIALIZED, META, type FunctionMeta } from "../runtime/internals.js"
import { reserveElements } from "../runtime/memory.js"
import { charge } from "../runtime/meter.js"
import { ordinaryHasInstance, toInteger } from "../runtime/operators.js"
import type { Realm } from "../runtime/realm.js"
import { argumentsOf } from "../runtime/functions.js"
import { giveEntry3, listEntry } from "./entry3.js"

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
  // Function.prototype is itself a function: it accepts any arguments and returns undefined.
  proto[CALL] = () => undefined
  proto[META] = { name: "", length: 0, constructorKind: "none", protoKind: "none", display: "function" } as FunctionMeta
  proto[MATERIALIZED] = true
  const refuse = () =>
    throwUnsupported("The Function constructor is not supported: functions cannot be created from strings")
  const ctor = makeNative("Function", 1, refuse, refuse)
  realm.Function = ctor
  linkConstructor(ctor, proto)

  const callMethod = defineMethod(proto, "call", 1, (t, a) => call(t, arg(a, 0), a.slice(1)))
  // `f.call(thisArg, x, y)` without argument lists: the arguments after `thisArg` go to `f`'s own list-free entry.
  giveEntry3(callMethod, (t, a0, a1, a2, _self, count) => {
    if (count === 0 || !isCallable(t)) return listEntry(callMethod)(t, argumentsOf(count, a0, a1, a2), callMethod)
    const c3 = t[CALL3]
    if (c3 !== undefined) return c3(a0, a1, a2, undefined, t, count - 1)
    return t[CALL](a0, count === 1 ? NO_ARGS : count === 2 ? [a1] : [a1, a2], t)
  })
  defineMethod(proto, "apply", 2, (t, a) => call(t, arg(a, 0), argumentList(arg(a, 1))))
  defineMethod(proto, "bind", 1, (t, a) => {
    if (!isCallable(t)) return throwTypeError("Bind must be called on a function")
    const target = t
    const boundThis = arg(a, 0)
    const boundArgs = a.slice(1)
    // SetFunctionLength from the target's own length; SetFunctionName from its name ("" unless a string).
    let length = 0
    if (isUnmaterialized(target)) length = Math.max(0, (target[META] as FunctionMeta).length - boundArgs.length)
    else if (Object.prototype.hasOwnProperty.call(target, "length")) {
      const targetLength = target.length
      if (typeof targetLength === "number") {
        if (targetLength === Infinity) length = Infinity
        else if (targetLength !== -Infinity) length = Math.max(0, toInteger(targetLength) - boundArgs.length)
      }
    }
    const targetName = isUnmaterialized(target) ? (target[META] as FunctionMeta).name : target.name
    const bound = new realm.SF(
      (_t, args) => call(target, boundThis, boundArgs.length === 0 ? args : [...boundArgs, ...args]),
      isConstructor(target)
        ? (args, newTarget) => construct(target, [...boundArgs, ...args], newTarget === bound ? target : newTarget)
        : undefined,
      undefined,
      {
        name: `bound ${typeof targetName === "string" ? targetName : ""}`,
        length,
        constructorKind: isConstructor(target) ? "native" : "none",
        protoKind: "none",
        display: "bound function",
      },
      undefined,
    )
    const targetProto = Object.getPrototypeOf(target)
    if (targetProto !== proto) Object.setPrototypeOf(bound, targetProto)
    noteBoundFunction(bound, target)
    return bound
  })
  defineMethod(proto, "toString", 0, (t) => {
    if (!isCallable(t)) return throwTypeError("Function.prototype.toString requires that 'this' be a Function")
    const meta = metaOf(t)
    if (meta?.source !== undefined) return meta.source
    if (meta?.display === "bound function") return "function () { [native code] }"
    return `function ${functionName(t)}() { [native code] }`
  })
  const hasInstance = defineMethod(proto, Symbol.hasInstance, 1, (t, a) => ordinaryHasInstance(t, arg(a, 0)))
  Object.defineProperty(proto, Symbol.hasInstance, {
    value: hasInstance,
    writable: false,
    enumerable: false,
    configurable: false,
  })
  // Answer for functions whose own `name`, `length` and `prototype` are not materialized yet (reflection shows
  // `Function.prototype` itself with `name` and `length` data properties and no `prototype`).
  defineBuiltinAccessor(proto, "name", (t) => virtualFunctionProperty(t, "name"))
  defineBuiltinAccessor(proto, "length", (t) => virtualFunctionProperty(t, "length"))
  defineBuiltinAccessor(proto, "prototype", virtualPrototype, setVirtualPrototype)
  // %ThrowTypeError%: one function for both accessors of `caller` and `arguments`.
  const thrower = makeNative("", 0, () =>
    throwTypeError(
      "'caller', 'callee', and 'arguments' properties may not be accessed on strict mode functions or the arguments objects for calls to them",
    ),
  )
  Object.defineProperty(thrower, "length", { value: 0, writable: false, enumerable: false, configurable: false })
  Object.defineProperty(thrower, "name", { value: "", writable: false, enumerable: false, configurable: false })
  Object.preventExtensions(thrower)
  realm.throwTypeErrorAccessor = { get: hostGetter(thrower), set: hostSetter(thrower) }
  for (const key of ["caller", "arguments"]) {
    Object.defineProperty(proto, key, { ...realm.throwTypeErrorAccessor, enumerable: false, configurable: true })
  }
}
