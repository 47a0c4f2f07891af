/**
 * Run-time operations that compiled code calls when the inline fast paths do not apply.
 */
import type { Location } from "@codemode/core/sandbox"
import { throwReferenceError, throwTypeError } from "../runtime/errors.js"
import { argumentsOf, call, construct, isConstructor, isObject, NO_ARGS, type Value } from "../runtime/functions.js"
import { BRAND, Brand, CALL, CALL3, CALLN, CONSTRUCT, CONSTRUCT3, FIELDS } from "../runtime/internals.js"
import { checkListGrowth, getIterator, DONE } from "../runtime/iterators.js"
import { charge } from "../runtime/meter.js"
import { createDataProperty, noteAccessor, notePrototype } from "../runtime/properties.js"
import { rt } from "../runtime/state.js"

/** `ReferenceError` for a binding read or written before its declaration ran. */
export const tdzError = (name: string, location: Location): never => {
  if (name === "%this") {
    return throwReferenceError(
      "Must call super constructor in derived class before accessing 'this' or returning from derived constructor",
      location,
    )
  }
  return throwReferenceError(`Cannot access '${name}' before initialization`, location)
}

/** `TypeError` for assigning to a `const` (or an import, or a class's own name). */
export const constAssignError = (location: Location): never =>
  throwTypeError("Assignment to constant variable.", location)

/** `TypeError` for calling something that is not a function; `text` names the callee the way V8 does. */
export const notFunction = (text: string, value: Value, location: Location): never => {
  const hint =
    text.startsWith("tools.") && value === undefined ? "; use search({ query }) to find the available tools" : ""
  return throwTypeError(`${text} is not a function${hint}`, location)
}

/** Check a value can be destructured. */
export const requireDestructurable = (v: Value, location: Location): void => {
  if (v === undefined || v === null) throwTypeError(`Cannot destructure '${v}' as it is ${v}.`, location)
}

/**
 * The `arguments` object of a call (functions are strict, so it is unmapped): an ordinary object inheriting from
 * `Object.prototype` with the arguments as elements, its own `length`, `Symbol.iterator` (`Array.prototype.values`)
 * and a `callee` accessor that throws.
 */
export const createArguments = (args: Value[]): Value => {
  const realm = rt.realm
  const a = realm.newObject()
  a[BRAND] = Brand.Arguments
  const n = args.length
  // An element setter a program gave `Object.prototype` must not run.
  if (realm.protoElements)
    for (let i = 0; i < n; i++)
      Object.defineProperty(a, i, { value: args[i], writable: true, enumerable: true, configurable: true })
  else for (let i = 0; i < n; i++) a[i] = args[i]
  Object.defineProperty(a, "length", { value: n, writable: true, enumerable: false, configurable: true })
  const thrower = realm.throwTypeErrorAccessor
  Object.defineProperty(a, "callee", { get: thrower.get, set: thrower.set, enumerable: false, configurable: false })
  Object.defineProperty(a, Symbol.iterator, {
    value: realm.arrayValues,
    writable: true,
    enumerable: false,
    configurable: true,
  })
  return a
}

/** A rest parameter or rest element: the arguments from `start` on, as a program array. */
export const restArray = (args: ArrayLike<Value>, start: number): Value[] => {
  const a = new rt.realm.SA()
  for (let i = start; i < args.length; i++) a[i - start] = args[i]
  return a
}

/** The keys a `for-in` loop visits (enumerable string keys along the prototype chain), snapshotted. */
export const forInKeys = (o: Value): string[] => {
  if (o === undefined || o === null) return []
  if (typeof o === "string") return Array.from({ length: o.length }, (_, i) => String(i))
  if (typeof o !== "object") return []
  const keys: string[] = []
  for (const k in o) keys.push(k)
  charge(keys.length)
  return keys
}

/** Append the values of an iterable to a list (spread in calls and array literals; `notIterable` names it). */
export const spreadInto = (list: Value[], iterable: Value, notIterable?: () => string): void => {
  const it = getIterator(iterable, notIterable)
  for (;;) {
    const v = it.next()
    if (v === DONE) return
    checkListGrowth(list.length)
    if (--rt.fuel < 0) charge(0)
    list[list.length] = v
  }
}

/** The key of a private name for the current class evaluation. */
const privateKey = (sym: Value): symbol => sym as symbol

/** `o.#x`. */
export const privateGet = (o: Value, sym: Value, name: string, location: Location): Value => {
  if (!isObject(o) || !Object.prototype.hasOwnProperty.call(o, privateKey(sym))) {
    return throwTypeError(`Cannot read private member #${name} from an object whose class did not declare it`, location)
  }
  const v = o[sym]
  if (v === undefined) {
    const d = Object.getOwnPropertyDescriptor(o, privateKey(sym))!
    if (!("value" in d) && d.get === undefined) throwTypeError(`'#${name}' was defined without a getter`, location)
  }
  return v
}

/** `o.#x = v`: private methods cannot be assigned, accessors need a setter. */
export const privateSet = (o: Value, sym: Value, name: string, v: Value, location: Location): void => {
  const key = privateKey(sym)
  if (!isObject(o) || !Object.prototype.hasOwnProperty.call(o, key)) {
    throwTypeError(`Cannot write private member #${name} to an object whose class did not declare it`, location)
  }
  try {
    o[sym] = v
  } catch (e) {
    // The host refuses (strict mode) a write to a method or to an accessor without a setter.
    const d = Object.getOwnPropertyDescriptor(o, key)!
    if ("value" in d) {
      if (!d.writable) throwTypeError(`Private method '#${name}' is not writable`, location)
    } else if (d.set === undefined) throwTypeError(`'#${name}' was defined without a setter`, location)
    throw e
  }
}

/** `#x in o`. */
export const privateIn = (sym: Value, o: Value, location: Location): boolean => {
  if (!isObject(o))
    return throwTypeError("Cannot use 'in' operator to search for a private field in a non-object", location)
  return Object.prototype.hasOwnProperty.call(o, privateKey(sym))
}

/** `super[key]` with the method's home object and `this`. */
export const superGet = (home: Value, key: Value, thisValue: Value): Value => {
  const proto = Object.getPrototypeOf(home)
  if (proto === null) return undefined
  return Reflect.get(proto, key, thisValue)
}

/** `super[key] = v`. */
export const superSet = (home: Value, key: Value, v: Value, thisValue: Value): void => {
  const proto = Object.getPrototypeOf(home)
  // A property `this` does not have is created on it (any key, a symbol too).
  if (isObject(thisValue)) rt.realm.noteChangeOf(thisValue)
  if (!Reflect.set(proto ?? rt.realm.ObjectProto, key, v, thisValue)) {
    throwTypeError(`Cannot assign to read only property '${String(key)}' of object`)
  }
}

/** One instance element of a class: a field (with an initializer function) or a private method/accessor. */
export interface ClassElement {
  readonly kind: "field" | "method" | "accessor"
  readonly key: PropertyKey
  readonly isPrivate: boolean
  readonly init?: Value
  /** Accessors: a private getter and setter of one name share the element. */
  get?: Value
  set?: Value
}

/** Install a class's instance elements on a new instance (private methods first, then fields in order). */
export const initializeInstance = (ctor: Value, instance: Value): void => {
  const elements = ctor[FIELDS] as ClassElement[] | undefined
  if (elements === undefined) return
  // A base constructor may have returned an existing object, a built-in even.
  rt.realm.noteChangeOf(instance)
  for (const el of elements) {
    if (el.kind === "field") continue
    if (Object.prototype.hasOwnProperty.call(instance, el.key))
      throwTypeError("Cannot initialize private methods twice on the same object")
    if (el.kind === "method")
      Object.defineProperty(instance, el.key, {
        value: el.init,
        writable: false,
        enumerable: false,
        configurable: false,
      })
    else Object.defineProperty(instance, el.key, { get: el.get, set: el.set, enumerable: false, configurable: false })
  }
  for (const el of elements) {
    if (el.kind !== "field") continue
    const value = el.init === undefined ? undefined : call(el.init, instance, NO_ARGS)
    if (el.isPrivate) {
      if (Object.prototype.hasOwnProperty.call(instance, el.key))
        throwTypeError("Cannot initialize a private field twice on the same object")
      Object.defineProperty(instance, el.key, { value, writable: true, enumerable: false, configurable: false })
    } else {
      Object.defineProperty(instance, el.key, { value, writable: true, enumerable: true, configurable: true })
    }
  }
}

/** `super(...args)` inside a derived constructor whose function object is `func`. */
export const superConstruct = (func: Value, args: Value[], newTarget: Value, location: Location): Value => {
  const parent = Object.getPrototypeOf(func)
  if (!isConstructor(parent)) return throwTypeError("Super constructor is not a constructor", location)
  rt.loc = location
  return construct(parent, args, newTarget)
}

/**
 * `super(a0, a1, a2)` (`count` arguments) inside a derived constructor whose function object is `func`: through the
 * parent's list-free entry when it has one.
 */
export const superConstruct3 = (
  func: Value,
  a0: Value,
  a1: Value,
  a2: Value,
  count: number,
  newTarget: Value,
  location: Location,
): Value => {
  const parent = Object.getPrototypeOf(func)
  if (!isConstructor(parent)) return throwTypeError("Super constructor is not a constructor", location)
  rt.loc = location
  const c3 = parent[CONSTRUCT3]
  if (c3 !== undefined) return c3(a0, a1, a2, newTarget, parent, count)
  return parent[CONSTRUCT](argumentsOf(count, a0, a1, a2), newTarget, parent)
}

/** `[[Prototype]]` to use for a new object built for `newTarget` (falls back to `fallback`). */
export const prototypeFor = (newTarget: Value, fallback: Value): Value => {
  const p = newTarget.prototype
  return isObject(p) ? p : fallback
}

/** Set an object's prototype for `{ __proto__: v }` and `Object.setPrototypeOf`. */
export const setPrototype = (o: Value, proto: Value): void => {
  if (proto !== null && !isObject(proto)) return
  Object.setPrototypeOf(o, proto)
  notePrototype(proto)
  // An object inheriting from a function is not callable itself: shadow the inherited behaviour.
  if (proto !== null && proto[CALL] !== undefined && !Object.prototype.hasOwnProperty.call(o, CALL)) {
    o[CALL] = undefined
    o[CALL3] = undefined
    o[CALLN] = undefined
    o[CONSTRUCT] = undefined
    o[CONSTRUCT3] = undefined
  }
}

/** The object a template literal tag receives (created once per call site). */
export const templateObject = (cooked: ReadonlyArray<string | undefined>, raw: ReadonlyArray<string>): Value => {
  const realm = rt.realm
  const strings = realm.newArray(cooked)
  const rawArray = Object.freeze(realm.newArray(raw))
  Object.defineProperty(strings, "raw", { value: rawArray, writable: false, enumerable: false, configurable: false })
  return Object.freeze(strings)
}

/** Define a method/getter/setter of an object literal or class on `target`. */
export const defineMethodProperty = (
  target: Value,
  key: PropertyKey,
  kind: "method" | "get" | "set",
  fn: Value,
  enumerable: boolean,
  hostGetter: (f: Value) => () => Value,
  hostSetter: (f: Value) => (v: Value) => void,
): void => {
  if (kind === "method") {
    if (enumerable) createDataProperty(target, key, fn)
    else Object.defineProperty(target, key, { value: fn, writable: true, enumerable: false, configurable: true })
    return
  }
  // A literal's accessors are enumerable (its object is being filled), a class's are not.
  noteAccessor(target, enumerable)
  const existing = Object.getOwnPropertyDescriptor(target, key)
  const d: PropertyDescriptor = { enumerable, configurable: true }
  if (kind === "get") {
    d.get = hostGetter(fn)
    if (existing && existing.set) d.set = existing.set
  } else {
    d.set = hostSetter(fn)
    if (existing && existing.get) d.get = existing.get
  }
  Object.defineProperty(target, key, d)
}

/** Close an iterator while an exception propagates (a failure to close never hides the exception). */
export const closeQuietly = (it: { close(): void }): void => {
  if (rt.dead) return
  try {
    it.close()
  } catch (e) {
    if (rt.dead) throw e
  }
}

/** V8's message for a call argument spread over a value that is not iterable. */
export const spreadArgumentNotIterable = (v: Value): string =>
  v === undefined || v === null
    ? `${v} is not iterable (cannot read property ${v})`
    : "Spread syntax requires ...iterable[Symbol.iterator] to be a function"
