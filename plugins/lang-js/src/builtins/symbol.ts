/**
 * `Symbol`: program symbols are host symbols (primitives that cannot reach anything); `Symbol.for` has a registry
 * per execution.
 */
import { throwTypeError } from "../runtime/errors.js"
import {
  arg,
  defineBuiltinAccessor,
  defineMethod,
  defineValue,
  isObject,
  linkConstructor,
  makeNative,
  defineTag,
} from "../runtime/functions.js"
import { Brand, SLOT, brandOf } from "../runtime/internals.js"
import { toStr } from "../runtime/operators.js"
import type { Realm } from "../runtime/realm.js"

const wellKnown = [
  "iterator",
  "asyncIterator",
  "hasInstance",
  "toPrimitive",
  "toStringTag",
  "species",
  "isConcatSpreadable",
  "unscopables",
  "match",
  "matchAll",
  "replace",
  "search",
  "split",
  "dispose",
  "asyncDispose",
] as const

/** Install `Symbol`. */
export const installSymbol = (realm: Realm): void => {
  const proto = realm.newObject()
  realm.SymbolProto = proto
  const ctor = makeNative("Symbol", 0, (_t, a) => {
    const d = arg(a, 0)
    return d === undefined ? Symbol() : Symbol(toStr(d))
  })
  linkConstructor(ctor, proto)
  for (const name of wellKnown) {
    const symbol = (Symbol as unknown as Record<string, symbol | undefined>)[name]
    if (symbol !== undefined) defineValue(ctor, name, symbol, false)
  }
  defineMethod(ctor, "for", 1, (_t, a) => {
    const key = toStr(arg(a, 0))
    let s = realm.symbolRegistry.get(key)
    if (s === undefined) {
      s = Symbol(key)
      realm.symbolRegistry.set(key, s)
      realm.registeredSymbols.add(s)
    }
    return s
  })
  defineMethod(ctor, "keyFor", 1, (_t, a) => {
    const s = arg(a, 0)
    if (typeof s !== "symbol") return throwTypeError(`${String(s)} is not a symbol`)
    for (const [k, v] of realm.symbolRegistry) if (v === s) return k
    return undefined
  })
  const thisSymbol = (t: unknown, name: string): symbol => {
    if (typeof t === "symbol") return t
    if (isObject(t) && brandOf(t as object) === Brand.Symbol) return (t as Record<symbol, symbol>)[SLOT]
    return throwTypeError(`Symbol.prototype.${name} requires that 'this' be a Symbol`)
  }
  defineMethod(proto, "toString", 0, (t) => thisSymbol(t, "toString").toString())
  defineMethod(proto, "valueOf", 0, (t) => thisSymbol(t, "valueOf"))
  const toPrimitive = defineMethod(proto, Symbol.toPrimitive, 1, (t) => thisSymbol(t, "[Symbol.toPrimitive]"))
  Object.defineProperty(proto, Symbol.toPrimitive, {
    value: toPrimitive,
    writable: false,
    enumerable: false,
    configurable: true,
  })
  defineBuiltinAccessor(proto, "description", (t) => thisSymbol(t, "description").description)
  defineTag(proto, "Symbol")
  realm.defineGlobal("Symbol", ctor)
}
