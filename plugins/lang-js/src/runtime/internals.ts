/**
 * Internal slots of interpreter objects.
 *
 * Interpreter objects are host objects whose whole prototype chain belongs to the execution's realm. Their internal
 * state lives under these symbols, which a program can never name: every reflective built-in (`Reflect.ownKeys`,
 * `Object.getOwnPropertySymbols`, `Object.assign`, spread...) filters them out through `isInternalKey`.
 */

/** How to call a function object: `(thisValue, args, self) => result`. */
export const CALL: unique symbol = Symbol("call")
/**
 * How to call a program function with at most three arguments without building an argument list:
 * `(thisValue, a0, a1, a2, self) => result`. Only functions with plain parameters and no `arguments` have it; call
 * sites and built-ins use it when present and fall back to `CALL`.
 */
export const CALL3: unique symbol = Symbol("call3")
/**
 * How to call a program function with four to six arguments given as its environment: `(thisValue, env, self)`,
 * where the call site made `env` as `[unused, a0, a1, ...]`, a fresh array the callee may keep. Only functions whose
 * environment is exactly their plain parameters have it; call sites fall back to `CALL`.
 */
export const CALLN: unique symbol = Symbol("callN")
/** How to construct with a function object: `(args, newTarget, self) => object`; absent when not a constructor. */
export const CONSTRUCT: unique symbol = Symbol("construct")
/**
 * How to construct with at most three arguments without building an argument list:
 * `(a0, a1, a2, newTarget, self, count) => object`. Only program constructors with fast frames have it; `new` and
 * `super(...)` use it when present (after finding `CONSTRUCT`) and fall back to `CONSTRUCT`.
 */
export const CONSTRUCT3: unique symbol = Symbol("construct3")
/** The environment a closure captured. */
export const ENV: unique symbol = Symbol("env")
/** Static facts about a function (name, length, kind). */
export const META: unique symbol = Symbol("meta")
/** The object a method was defined on, for `super`. */
export const HOME: unique symbol = Symbol("home")
/** The host state behind a built-in object (a Map's host map, a Date's time value, a promise's record...). */
export const SLOT: unique symbol = Symbol("slot")
/** Which kind of built-in object carries the slot (see `Brand`). */
export const BRAND: unique symbol = Symbol("brand")
/** A class constructor's instance elements (fields, private methods), installed on every new instance. */
export const FIELDS: unique symbol = Symbol("fields")
/** Present on a function whose `length`, `name` and `prototype` are real own properties (see `materialize`). */
export const MATERIALIZED: unique symbol = Symbol("materialized")

const internal = new Set<PropertyKey>([
  CALL,
  CALL3,
  CALLN,
  CONSTRUCT,
  CONSTRUCT3,
  ENV,
  META,
  HOME,
  SLOT,
  BRAND,
  FIELDS,
  MATERIALIZED,
])
const privateNames = new Set<PropertyKey>()

/** Private names (`#x`) are symbols too; they are registered here so reflection never lists them. */
export const registerPrivateName = (symbol: symbol): void => {
  privateNames.add(symbol)
}

/** Forget the private names of the previous execution (its objects are gone). */
export const resetPrivateNames = (): void => {
  privateNames.clear()
}

/** True when `key` is an interpreter-internal key that a program must never see. */
export const isInternalKey = (key: PropertyKey): boolean =>
  typeof key === "symbol" && (internal.has(key) || privateNames.has(key))

/** The kinds of built-in objects that carry host state under `SLOT`. */
export const Brand = {
  Map: 1,
  Set: 2,
  WeakMap: 3,
  WeakSet: 4,
  Date: 5,
  RegExp: 6,
  Promise: 7,
  Error: 8,
  Boolean: 9,
  Number: 10,
  String: 11,
  Symbol: 12,
  Generator: 13,
  AsyncGenerator: 14,
  ArrayIterator: 15,
  MapIterator: 16,
  SetIterator: 17,
  StringIterator: 18,
  RegExpStringIterator: 19,
  URL: 20,
  URLSearchParams: 21,
  TextEncoder: 22,
  TextDecoder: 23,
  Arguments: 24,
} as const

/** One of the `Brand` values. */
export type Brand = (typeof Brand)[keyof typeof Brand]

const hasOwn = Object.prototype.hasOwnProperty

/**
 * The brand of `v`'s own slot, or undefined. Internal slots are never inherited: an object whose prototype is a Date
 * is not a Date (a Date method called on it throws, as in Node), and a built-in method never writes a slot onto an
 * object that only inherits one (that write would outlive the execution on a built-in the restore does not expect
 * to carry state).
 */
export const brandOf = (v: object): Brand | undefined => {
  const brand = (v as { [BRAND]?: Brand })[BRAND]
  return brand === undefined || hasOwn.call(v, BRAND) ? brand : undefined
}

/** Facts about a function that do not change between its closures. */
export interface FunctionMeta {
  name: string
  length: number
  /** True for functions that may be called with `new` and have a lazily created `prototype`. */
  readonly constructorKind: "none" | "base" | "derived" | "native"
  /** The prototype's prototype for lazily created `prototype` objects (generators use their own). */
  readonly protoKind: "object" | "generator" | "asyncGenerator" | "none"
  /** Class constructors only: instance field initializers, run when an instance is created. */
  fields?: ReadonlyArray<unknown>
  /** Human readable kind for `console.log`: "function", "class", "async function"... */
  readonly display: string
  /** The function's source text (program functions), for `toString()`. */
  readonly source?: string
}
