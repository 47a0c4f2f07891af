/**
 * Error stacks. A program error gets an own `stack` when it is created, as in the host engine, whose text is made
 * when it is first read (so a `message` changed before then shows): `Name: message` and the program location where
 * the error was created. No host frame ever appears. Until it is read the property is an accessor; reflection shows
 * (and makes) the data property the engine has.
 */
import { errorHead, originOf } from "./errors.js"
import type { Value } from "./functions.js"
import { rt } from "./state.js"
import { toStr } from "./operators.js"

/** The text of an error's stack, from its current name and message. */
const stackText = (o: Value): string => {
  const name = o.name
  const message = o.message
  const head = errorHead(name === undefined ? "Error" : toStr(name), message === undefined ? "" : toStr(message))
  const loc = originOf(o)
  return loc ? `${head}\n    at <program>:${loc.line}:${loc.column}` : head
}

const setStack = (o: Value, value: Value): void => {
  // The setter can run on any receiver (an object whose prototype is an error).
  rt.realm.noteChangeOf(o)
  Object.defineProperty(o, "stack", { value, writable: true, enumerable: false, configurable: true })
}

/** The accessor a new error's `stack` starts as: the first read makes the text and the data property. */
const lazyStackGetter = function (this: Value): Value {
  const text = stackText(this)
  setStack(this, text)
  return text
}
const lazyStackSetter = function (this: Value, value: Value): void {
  setStack(this, value)
}

/** Give a new error its own `stack` (made when first read). */
export const defineLazyStack = (o: Value): void => {
  Object.defineProperty(o, "stack", {
    get: lazyStackGetter,
    set: lazyStackSetter,
    enumerable: false,
    configurable: true,
  })
}

/** The data property an error's lazy `stack` accessor stands for, made now; `d` when it is something else. */
export const settledStack = (o: Value, d: PropertyDescriptor): PropertyDescriptor => {
  if (d.get !== lazyStackGetter) return d
  lazyStackGetter.call(o)
  return Object.getOwnPropertyDescriptor(o, "stack")!
}
