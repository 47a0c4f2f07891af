/**
 * The data boundary: program values to host data (results, tool inputs, extension arguments) and back.
 *
 * Going out follows `JSON.stringify`'s view of a value (`toJSON` applies, `undefined` properties are dropped) but
 * refuses what JSON would silently change: `NaN`/`Infinity`, cycles, functions, symbols, `undefined` array slots, and
 * objects that are not plain (Maps, class instances...). The error names the path of the offending value.
 */
import { dataProblems, indexPath, keyPath } from "@codemode/core/sandbox"
import { MAX_DATA_BYTES, MAX_DATA_DEPTH } from "../limits.js"
import type { DataValue } from "@codemode/core/sandbox"
import { call, functionName, isCallable, type Value } from "./functions.js"
import { Brand, CALL, brandOf } from "./internals.js"
import { charge } from "./meter.js"
import { createDataProperty } from "./properties.js"
import { rt } from "./state.js"

/** Why a value could not cross as data, and where. */
export class DataConversionError extends Error {
  constructor(
    readonly reason: string,
    readonly path: string,
  ) {
    super(`${reason} at ${path}`)
  }
}

const brandNames: Record<number, string> = {
  [Brand.Map]: "a Map",
  [Brand.Set]: "a Set",
  [Brand.WeakMap]: "a WeakMap",
  [Brand.WeakSet]: "a WeakSet",
  [Brand.Promise]: "a Promise",
  [Brand.RegExp]: "a RegExp",
  [Brand.Date]: "a Date",
  [Brand.Error]: "an Error",
  [Brand.Generator]: "a generator",
  [Brand.AsyncGenerator]: "an async generator",
  [Brand.URL]: "a URL",
  [Brand.URLSearchParams]: "a URLSearchParams",
}

const describeObject = (v: Value): string => {
  if (v[CALL] !== undefined) return `a function (${functionName(v) || "anonymous"})`
  const brand = brandOf(v)
  if (brand !== undefined && brandNames[brand]) return brandNames[brand]
  const proto = Object.getPrototypeOf(v)
  const ctor = proto && Object.getOwnPropertyDescriptor(proto, "constructor")?.value
  const name = ctor && ctor[CALL] !== undefined ? functionName(ctor) : ""
  return name ? `a ${name} instance` : "a non-plain object"
}

/** Convert a program value to host data. `undefined` at the top becomes `null`. */
export const toData = (value: Value, root = "$"): DataValue => {
  let size = 0
  const seen = new Set<Value>()
  const realm = rt.realm
  const grow = (n: number, path: string) => {
    size += n
    if (size > MAX_DATA_BYTES) throw new DataConversionError(dataProblems.tooLarge(), path)
  }
  const visit = (v0: Value, key: string, path: string, depth: number): DataValue | undefined => {
    let v = v0
    if (typeof v === "object" && v !== null && v[CALL] === undefined) {
      const toJSON = v.toJSON
      if (isCallable(toJSON)) v = call(toJSON, v, [key])
    }
    switch (typeof v) {
      case "undefined":
        return undefined
      case "string":
        grow(v.length + 2, path)
        return v
      case "boolean":
        grow(5, path)
        return v
      case "number":
        if (!Number.isFinite(v)) throw new DataConversionError(`${v} is not a finite number`, path)
        grow(8, path)
        return v
      case "symbol":
        throw new DataConversionError("a symbol is not data", path)
      case "bigint":
        throw new DataConversionError("a bigint is not data", path)
    }
    if (v === null) {
      grow(4, path)
      return null
    }
    if (v[CALL] !== undefined) throw new DataConversionError(`${describeObject(v)} is not data`, path)
    if (depth >= MAX_DATA_DEPTH) throw new DataConversionError(dataProblems.tooDeep(), path)
    if (seen.has(v)) throw new DataConversionError(dataProblems.cycle, path)
    seen.add(v)
    try {
      if (Array.isArray(v)) {
        grow(2, path)
        charge(v.length)
        const out: DataValue[] = new Array(v.length)
        for (let i = 0; i < v.length; i++) {
          const p = indexPath(path, i)
          const item = visit(v[i], String(i), p, depth + 1)
          if (item === undefined) throw new DataConversionError("undefined is not data (use null)", p)
          out[i] = item
        }
        return out
      }
      const proto = Object.getPrototypeOf(v)
      if ((proto !== realm.ObjectProto && proto !== null) || brandOf(v) !== undefined) {
        throw new DataConversionError(`${describeObject(v)} is not data`, path)
      }
      grow(2, path)
      const out: Record<string, DataValue> = {}
      const keys = Object.keys(v)
      charge(keys.length)
      for (const k of keys) {
        const p = keyPath(path, k)
        const item = visit(v[k], k, p, depth + 1)
        if (item === undefined) continue
        grow(k.length + 3, path)
        Object.defineProperty(out, k, { value: item, writable: true, enumerable: true, configurable: true })
      }
      return out
    } finally {
      seen.delete(v)
    }
  }
  const out = visit(value, "", root, 0)
  return out === undefined ? null : out
}

/** Convert host data into program values (fresh objects and arrays of the realm). */
export const fromData = (value: DataValue | undefined): Value => {
  if (value === null || value === undefined || typeof value !== "object") return value ?? null
  const realm = rt.realm
  if (Array.isArray(value)) {
    charge(value.length)
    const out = new realm.SA()
    for (let i = 0; i < value.length; i++) out[i] = fromData(value[i])
    return out
  }
  const out = new realm.SO()
  const keys = Object.keys(value)
  charge(keys.length)
  for (const k of keys) createDataProperty(out, k, fromData((value as Record<string, DataValue>)[k]))
  return out
}
