/**
 * Lua values ↔ JSON data, the only things that cross between a program and its host.
 *
 * Out: contiguous integer keys from 1 → array; string keys → object; `{}` → object; a table from a JSON array (or
 * `json.array()`) → array even when empty; `json.null` → null; integers and floats → numbers; strings must be valid
 * UTF-8. Mixed keys, sparse arrays, cycles, functions, NaN and infinities are refused with the path where they were
 * found (`$.items[3]`, Lua's 1-based index). In: arrays and objects become tables that remember their shape, null
 * becomes `json.null` inside containers, integral safe numbers become integers.
 */
import { dataBounds, dataProblems, indexPath, keyPath } from "@codemode/core/sandbox"
import { JSON_NULL } from "./ops.js"
import type { DataValue } from "@codemode/core/sandbox"
import { utf8Decode, utf8Encode } from "./utf8.js"
import { Fields, LuaFloat, LuaTable, makeFloat, MAX_TABLE_ENTRIES, RECORD_FIELDS, type LuaValue } from "./value.js"

/** The deepest data a copy may hold (the data contract's bound). */
export const MAX_DATA_DEPTH = dataBounds.maxDepth
/** The largest data a copy may hold, counted as the length of its JSON text (the data contract's bound). */
export const MAX_DATA_BYTES = dataBounds.maxBytes

/** Why a value is not data: `bound` is set when a copy bound (depth or size) was exceeded. */
export class DataProblem {
  constructor(
    readonly reason: string,
    readonly path: string,
    readonly bound: boolean,
  ) {}

  /** "`reason` at `path`". */
  get message(): string {
    return `${this.reason} at ${this.path}`
  }
}

const describeKey = (k: LuaValue): string =>
  typeof k === "string"
    ? JSON.stringify(k)
    : k instanceof LuaFloat
      ? String(k.n)
      : typeof k === "object" || typeof k === "function"
        ? `a ${typeof k === "function" ? "function" : "table"}`
        : String(k)

/** Convert a Lua value to JSON data, or throw a {@link DataProblem}. `nil` becomes null. */
export const toData = (value: LuaValue, root = "$"): DataValue => {
  let size = 0
  const seen = new Set<LuaTable>()
  const grow = (n: number, path: string) => {
    size += n
    if (size > MAX_DATA_BYTES) throw new DataProblem(dataProblems.tooLarge(), path, true)
  }
  const visit = (v: LuaValue, path: string, depth: number): DataValue => {
    switch (typeof v) {
      case "undefined":
        grow(4, path)
        return null
      case "boolean":
        grow(5, path)
        return v
      case "number":
        if (!Number.isFinite(v)) throw new DataProblem(`${numberName(v)} is not a finite number`, path, false)
        grow(8, path)
        return v
      case "bigint":
        grow(20, path)
        return Number(v)
      case "string": {
        const s = utf8Decode(v)
        if (s === undefined) throw new DataProblem("a string that is not valid UTF-8", path, false)
        grow(s.length + 2, path)
        return s
      }
      case "function":
        throw new DataProblem("a function is not data", path, false)
      default:
        break
    }
    if (v instanceof LuaFloat) {
      grow(8, path)
      return v.n === 0 ? 0 : v.n
    }
    if (v === JSON_NULL) {
      grow(4, path)
      return null
    }
    const t = v as LuaTable
    if (depth >= MAX_DATA_DEPTH) throw new DataProblem(dataProblems.tooDeep(), path, true)
    if (seen.has(t)) throw new DataProblem("a cycle (the table contains itself)", path, false)
    seen.add(t)
    const h = t.hash
    const arr = t.arr
    if (h !== undefined && h.size > 0) {
      for (const k of h.keys()) {
        const why =
          typeof k === "number" && Number.isSafeInteger(k) && k > 0
            ? `a sparse array (key ${k} without ${arr.length + 1}; arrays need keys 1..n)`
            : `a table key that is not a string (${describeKey(k)})`
        throw new DataProblem(why, path, false)
      }
    }
    let result: DataValue
    if (t.nfields === 0) {
      if (arr.length === 0) {
        grow(2, path)
        result = t.jsonArray ? [] : {}
      } else {
        grow(2 + arr.length, path)
        const out = new Array<DataValue>(arr.length)
        for (let i = 0; i < arr.length; i++) {
          const item = arr[i]
          if (item === undefined)
            throw new DataProblem(
              `a sparse array (item ${i + 1} is nil; use json.null to keep a null)`,
              indexPath(path, i + 1),
              false,
            )
          out[i] = visit(item, indexPath(path, i + 1), depth + 1)
        }
        result = out
      }
    } else {
      if (arr.length > 0)
        throw new DataProblem("a table that mixes array items (keys 1..n) and string keys", path, false)
      grow(2, path)
      const out: Record<string, DataValue> = {}
      const fields = t.fields
      for (const k in fields) {
        const item = fields[k]
        const key = utf8Decode(k)
        if (key === undefined) throw new DataProblem("a key that is not valid UTF-8", path, false)
        grow(key.length + 3, path)
        Object.defineProperty(out, key, {
          value: visit(item, keyPath(path, key), depth + 1),
          enumerable: true,
          writable: true,
          configurable: true,
        })
      }
      result = out
    }
    seen.delete(t)
    return result
  }
  return visit(value, root, 0)
}

const numberName = (n: number): string => (Number.isNaN(n) ? "nan" : n > 0 ? "inf" : "-inf")

/**
 * Convert JSON data to a Lua value. A top-level null becomes `nil` when `topNull` is "nil", `json.null` otherwise;
 * nulls inside arrays and objects always become `json.null` so that shapes survive.
 */
export const fromData = (value: DataValue, topNull: "nil" | "json.null" = "nil"): LuaValue => {
  if (value === null) return topNull === "nil" ? undefined : JSON_NULL
  return convert(value, 0)
}

/** Object keys repeat across records: their byte-string forms are cached (up to a bound). */
const keyCache = new Map<string, string>()
const encodeKey = (key: string): string => {
  let k = keyCache.get(key)
  if (k === undefined) {
    k = utf8Encode(key)
    if (keyCache.size < 4096) keyCache.set(key, k)
  }
  return k
}

const tooBig = () => new DataProblem(`data has a container with more than ${MAX_TABLE_ENTRIES} entries`, "$", true)

const convert = (v: DataValue, depth: number): LuaValue => {
  if (v === null) return JSON_NULL
  switch (typeof v) {
    case "boolean":
      return v
    case "number":
      return Number.isSafeInteger(v) ? v + 0 : makeFloat(v)
    case "string":
      return utf8Encode(v)
    default:
      break
  }
  if (depth >= MAX_DATA_DEPTH) throw new DataProblem(dataProblems.tooDeep(), "$", true)
  const t = new LuaTable()
  if (Array.isArray(v)) {
    if (v.length > MAX_TABLE_ENTRIES) throw tooBig()
    const arr = new Array<LuaValue>(v.length)
    for (let i = 0; i < v.length; i++) arr[i] = convert(v[i], depth + 1)
    t.arr = arr
    t.jsonArray = true
    return t
  }
  const o = v as { readonly [key: string]: DataValue }
  // The keys are read by for-in (fast loads, no array of them is made), and their byte-string forms come from the
  // shape they make: records of an array share a few shapes (a row, its nested objects).
  let n = 0
  for (const k in o) {
    if (n === SCRATCH) return convertLarge(t, o, depth)
    scratch[n++] = k
  }
  if (n > 0) {
    const names = shapeNames(n)
    const fields = n < RECORD_FIELDS.length ? new RECORD_FIELDS[n]() : new Fields()
    let i = 0
    for (const k in o) fields[names[i++]] = convert(o[k], depth + 1)
    t.fields = fields
    t.nfields = n
  }
  t.jsonObject = true
  return t
}

/** The rest of {@link convert} for an object of more than {@link SCRATCH} keys (a dictionary rather than a record). */
const convertLarge = (t: LuaTable, o: { readonly [key: string]: DataValue }, depth: number): LuaTable => {
  const keys = Object.keys(o)
  const n = keys.length
  if (n > MAX_TABLE_ENTRIES) throw tooBig()
  const fields = new Fields()
  for (let i = 0; i < n; i++) fields[encodeKey(keys[i])] = convert(o[keys[i]], depth + 1)
  t.fields = fields
  t.nfields = n
  t.jsonObject = true
  return t
}

/** Objects of up to this many keys have their shape looked up (larger ones are converted by {@link convertLarge}). */
const SCRATCH = 64
/** The keys of the object being converted (its first {@link SCRATCH} keys). */
const scratch = new Array<string>(SCRATCH).fill("")

/** A set of object keys in order, and their byte-string forms. */
interface Shape {
  readonly keys: ReadonlyArray<string>
  readonly names: ReadonlyArray<string>
}
/** The shapes seen most recently, newest first (at most {@link SHAPES}). */
const shapes: Array<Shape> = []
const SHAPES = 16

/** The byte-string forms of the `n` keys in {@link scratch}, from a recent shape with those keys or a new one. */
const shapeNames = (n: number): ReadonlyArray<string> => {
  for (let s = 0; s < shapes.length; s++) {
    const keys = shapes[s].keys
    if (keys.length !== n) continue
    let i = 0
    while (i < n && keys[i] === scratch[i]) i++
    if (i === n) return shapes[s].names
  }
  const keys = scratch.slice(0, n)
  const shape = { keys, names: keys.map(encodeKey) }
  if (shapes.length >= SHAPES) shapes.pop()
  shapes.unshift(shape)
  return shape.names
}
