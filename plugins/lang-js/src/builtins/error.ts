/**
 * The error constructors. A program error's `stack` is made from its name, message and the program location where it
 * was created: it never shows host frames.
 */
import type { ErrorName } from "../runtime/errors.js"
import { errorHead, noteCreation, throwTypeError } from "../runtime/errors.js"
import { defineLazyStack } from "../runtime/stacks.js"
import {
  arg,
  defineMethod,
  defineValue,
  isObject,
  linkConstructor,
  makeNative,
  type Value,
} from "../runtime/functions.js"
import { BRAND, Brand } from "../runtime/internals.js"
import { iterateToList } from "../runtime/iterators.js"
import { toStr } from "../runtime/operators.js"
import type { Realm } from "../runtime/realm.js"

const names: ErrorName[] = ["TypeError", "RangeError", "SyntaxError", "ReferenceError", "EvalError", "URIError"]

/** Install `Error`, its subclasses and `AggregateError`. */
export const installErrors = (realm: Realm): void => {
  const base = realm.newObject()
  realm.ErrorProto = base
  realm.errorProtos.Error = base

  const init = (o: Value, message: Value, options: Value): Value => {
    o[BRAND] = Brand.Error
    noteCreation(o)
    defineLazyStack(o)
    if (message !== undefined) {
      Object.defineProperty(o, "message", {
        value: toStr(message),
        writable: true,
        enumerable: false,
        configurable: true,
      })
    }
    if (isObject(options) && "cause" in options) {
      Object.defineProperty(o, "cause", { value: options.cause, writable: true, enumerable: false, configurable: true })
    }
    return o
  }

  const define = (name: ErrorName, proto: Value, parentCtor: Value | undefined): Value => {
    const make = (a: Value[], newTarget: Value) => {
      const p = newTarget !== undefined && isObject(newTarget.prototype) ? newTarget.prototype : proto
      const o = Object.create(p)
      if (name === "AggregateError") {
        init(o, arg(a, 1), arg(a, 2))
        Object.defineProperty(o, "errors", {
          value: realm.newArray(iterateToList(arg(a, 0))),
          writable: true,
          enumerable: false,
          configurable: true,
        })
        return o
      }
      return init(o, arg(a, 0), arg(a, 1))
    }
    const ctor = makeNative(
      name,
      name === "AggregateError" ? 2 : 1,
      (_t, a) => make(a, undefined),
      (a, nt) => make(a, nt),
    )
    linkConstructor(ctor, proto)
    defineValue(proto, "name", name)
    defineValue(proto, "message", "")
    if (parentCtor) Object.setPrototypeOf(ctor, parentCtor)
    realm.errorConstructors[name] = ctor
    realm.errorProtos[name] = proto
    realm.defineGlobal(name, ctor)
    return ctor
  }

  const ErrorCtor = define("Error", base, undefined)
  defineMethod(base, "toString", 0, (t) => {
    if (!isObject(t)) return throwTypeError("Error.prototype.toString requires that 'this' be an Object")
    const name = t.name === undefined ? "Error" : toStr(t.name)
    const message = t.message === undefined ? "" : toStr(t.message)
    return errorHead(name, message)
  })
  defineMethod(ErrorCtor, "captureStackTrace", 2, (_t, a) => {
    const o = arg(a, 0)
    if (!isObject(o)) return throwTypeError("Invalid argument")
    // A non-enumerable `stack` on any object, a built-in even.
    realm.noteChangeOf(o)
    noteCreation(o)
    defineLazyStack(o)
    return undefined
  })
  for (const name of names) define(name, Object.create(base), ErrorCtor)
  define("AggregateError", Object.create(base), ErrorCtor)
}
