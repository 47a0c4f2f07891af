/**
 * `Math`: the host's functions applied to the program's numeric conversions of the arguments; `random` is the
 * execution's own generator (see `random.ts`).
 */
import { defineMethod, defineValue, defineTag } from "../runtime/functions.js"
import { charge } from "../runtime/meter.js"
import { toNumber } from "../runtime/operators.js"
import type { Realm } from "../runtime/realm.js"
import { argumentsOf } from "../runtime/functions.js"
import { giveEntry3, listEntry } from "./entry3.js"
import { random } from "./random.js"

const unaryNames = [
  "abs",
  "acos",
  "acosh",
  "asin",
  "asinh",
  "atan",
  "atanh",
  "cbrt",
  "ceil",
  "clz32",
  "cos",
  "cosh",
  "exp",
  "expm1",
  "floor",
  "fround",
  "log",
  "log1p",
  "log10",
  "log2",
  "round",
  "sign",
  "sin",
  "sinh",
  "sqrt",
  "tan",
  "tanh",
  "trunc",
] as const

/** Install `Math`. */
export const installMath = (realm: Realm): void => {
  const math = realm.newObject()
  for (const k of ["E", "LN10", "LN2", "LOG10E", "LOG2E", "PI", "SQRT1_2", "SQRT2"] as const)
    defineValue(math, k, Math[k], false)
  for (const name of unaryNames) {
    const f = Math[name] as (x: number) => number
    const fn = defineMethod(math, name, 1, (_t, a) => {
      const x = a.length > 0 ? a[0] : undefined
      return f(typeof x === "number" ? x : toNumber(x))
    })
    giveEntry3(fn, (_t, x) => f(typeof x === "number" ? x : toNumber(x)))
  }
  const num = (x: unknown) => (typeof x === "number" ? x : toNumber(x))
  defineMethod(math, "atan2", 2, (_t, a) => Math.atan2(num(a[0]), num(a[1])))
  defineMethod(math, "pow", 2, (_t, a) => Math.pow(num(a[0]), num(a[1])))
  defineMethod(math, "imul", 2, (_t, a) => Math.imul(num(a[0]), num(a[1])))
  const max = defineMethod(math, "max", 2, (_t, a) => {
    if (a.length === 2 && typeof a[0] === "number" && typeof a[1] === "number") return Math.max(a[0], a[1])
    charge(a.length)
    let m = -Infinity
    for (const v of a) {
      const x = num(v)
      if (x !== x) m = NaN
      else if (x > m || (x === 0 && m === 0 && Object.is(m, -0))) m = x
    }
    return m
  })
  const min = defineMethod(math, "min", 2, (_t, a) => {
    if (a.length === 2 && typeof a[0] === "number" && typeof a[1] === "number") return Math.min(a[0], a[1])
    charge(a.length)
    let m = Infinity
    for (const v of a) {
      const x = num(v)
      if (x !== x) m = NaN
      else if (x < m || (x === 0 && m === 0 && Object.is(x, -0))) m = x
    }
    return m
  })
  for (const [fn, pick] of [
    [max, Math.max],
    [min, Math.min],
  ] as const) {
    const list = listEntry(fn)
    giveEntry3(fn, (t, a0, a1, a2, self, count) =>
      count === 2 && typeof a0 === "number" && typeof a1 === "number"
        ? pick(a0, a1)
        : list(t, argumentsOf(count, a0, a1, a2), self),
    )
  }
  defineMethod(math, "hypot", 2, (_t, a) => Math.hypot(...a.map(num)))
  defineMethod(math, "random", 0, () => random())
  defineTag(math, "Math")
  realm.defineGlobal("Math", math)
}
