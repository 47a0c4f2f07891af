/**
 * The general paths of Lua operations that compiled code inlines only for the common case: indexing, assignment to
 * fields, calls of non-functions, concatenation, length, and `tostring`.
 */
import { errorAt, checkStringLength, fatalAt } from "./runtime.js"
import { normaliseKey, numberToString } from "./numbers.js"
import { jsonNullRef, LuaFloat, LuaTable, MAX_TABLE_ENTRIES, resetKeyLists, shownType, type LuaValue } from "./value.js"
import type { LuaFatal } from "./errors.js"

/** The table strings index (`("x"):upper()` finds `upper` here); set when the standard library is built. */
export const stringMeta: { methods: LuaTable } = { methods: new LuaTable() }

/** `t[k]` for any `t` and `k`: tables (with key normalisation and guards), strings (their methods), or an error. */
export const index = (t: LuaValue, k: LuaValue, site: number, desc: string): LuaValue => {
  if (t instanceof LuaTable) {
    const v = t.get(normaliseKey(k))
    if (v !== undefined || t.guard === undefined) return v
    return t.guard(k, site, desc)
  }
  if (typeof t === "string") return typeof k === "string" ? stringMeta.methods.getStr(k) : undefined
  throw errorAt(`attempt to index a ${shownType(t)} value${desc}`, site)
}

/** `t[k] = v` for any `t` and `k`, with Lua's errors for nil and NaN keys and the table entry bound. */
export const setIndex = (t: LuaValue, k: LuaValue, v: LuaValue, site: number, desc: string): void => {
  if (!(t instanceof LuaTable)) throw errorAt(`attempt to index a ${shownType(t)} value${desc}`, site)
  if (k === undefined) throw errorAt("table index is nil", site)
  const key = normaliseKey(k)
  if (typeof key === "number" && Number.isNaN(key)) throw errorAt("table index is NaN", site)
  if (!t.set(key, v)) throw tableFull(site)
}

/** The fatal error for a table that would grow beyond its entry bound. */
export const tableFull = (site: number): LuaFatal =>
  fatalAt(`table grew beyond the limit of ${MAX_TABLE_ENTRIES.toLocaleString("en-US")} entries`, site)

/** The error for calling a value that is not a function (a missing one that other languages have gets a hint). */
export const callError = (fn: LuaValue, desc: string, site: number) => {
  const name = fn === undefined ? /^ \((?:method|field|global) '([A-Za-z_]+)'\)$/.exec(desc)?.[1] : undefined
  const hint = name === undefined ? undefined : CALL_HINTS.get(name)
  return errorAt(`attempt to call a ${shownType(fn)} value${desc}${hint === undefined ? "" : `; ${hint}`}`, site)
}

/** What Lua uses instead of functions a model may expect from other languages. */
const CALL_HINTS: ReadonlyMap<string, string> = new Map([
  ["split", 'Lua strings have no split: iterate the parts with `for part in s:gmatch("[^,]+") do ... end`'],
  ["trim", 'Lua strings have no trim: use `s:match("^%s*(.-)%s*$")`'],
  ["strip", 'Lua strings have no strip: use `s:match("^%s*(.-)%s*$")`'],
  ["join", "Lua has no join: use `table.concat(list, separator)`"],
  ["getn", "Lua 5.4 has no table.getn: use `#t`"],
  ["startswith", "use `s:sub(1, #prefix) == prefix`"],
  ["startsWith", "use `s:sub(1, #prefix) == prefix`"],
  ["endswith", 'use `suffix == "" or s:sub(-#suffix) == suffix`'],
  ["endsWith", 'use `suffix == "" or s:sub(-#suffix) == suffix`'],
  ["replace", "use `s:gsub(pattern, replacement)` (Lua patterns; `%` escapes)"],
  ["includes", "use `s:find(text, 1, true)` for strings, a loop for tables"],
  ["contains", "use `s:find(text, 1, true)` for strings, a loop for tables"],
  ["push", "use `table.insert(t, v)` or `t[#t + 1] = v`"],
  ["append", "use `table.insert(t, v)` or `t[#t + 1] = v`"],
  ["toUpperCase", "use `s:upper()`"],
  ["toLowerCase", "use `s:lower()`"],
  ["length", "use `#t` or `#s`"],
  ["keys", "iterate with `for k, v in pairs(t) do ... end`"],
  ["map", "Lua has no map: build a new table in a `for` loop"],
  ["filter", "Lua has no filter: build a new table in a `for` loop"],
  ["forEach", "iterate with `for i, v in ipairs(t) do ... end`"],
  ["unpack", "unpack is not a global in Lua 5.4: use table.unpack"],
])

/** The error for indexing a value that is neither a table nor a string. */
export const indexError = (t: LuaValue, desc: string, site: number) =>
  errorAt(`attempt to index a ${shownType(t)} value${desc}`, site)

/** `#v` for any value. */
export const length = (v: LuaValue, site: number, desc: string): number => {
  if (v instanceof LuaTable) return v.arr.length
  if (typeof v === "string") return v.length
  throw errorAt(`attempt to get length of a ${shownType(v)} value${desc}`, site)
}

/** The string a number or string contributes to a concatenation, or `undefined` for other values. */
export const concatPiece = (v: LuaValue): string | undefined => {
  if (typeof v === "string") return v
  if (typeof v === "number" || typeof v === "bigint" || v instanceof LuaFloat) return numberToString(v)
  return undefined
}

/**
 * Concatenate `values` (already evaluated, left to right) the way Lua does, blaming the operand Lua blames when one
 * is neither a string nor a number. `descs[i]` names operand `i` for the message.
 */
export const concatValues = (values: Array<LuaValue>, descs: ReadonlyArray<string>, site: number): string => {
  const n = values.length
  const pieces = new Array<string>(n)
  let total = 0
  let bad = -1
  for (let i = 0; i < n; i++) {
    const p = concatPiece(values[i])
    if (p === undefined) bad = i
    else {
      pieces[i] = p
      total += p.length
    }
  }
  if (bad >= 0) {
    // Lua concatenates from the right; in the first (rightmost) pair it blames the left operand first.
    const blamed = pieces[n - 2] === undefined ? n - 2 : pieces[n - 1] === undefined ? n - 1 : bad
    throw errorAt(`attempt to concatenate a ${shownType(values[blamed])} value${descs[blamed] ?? ""}`, site)
  }
  checkStringLength(total, site)
  return pieces.join("")
}

/** The first pseudo-address of a run (PUC Lua's addresses on Linux look like this). */
const FIRST_ADDRESS = 0x55a4c0de1000

/**
 * Pseudo-addresses are per run: {@link resetValues} starts every run from the same first address, so `tostring`
 * and `%p` show a program nothing about the runs before it.
 */
let addresses = new WeakMap<object, number>()
let stringAddresses = new Map<string, number>()
let nextAddress = FIRST_ADDRESS

const hex = (a: number): string => "0x" + a.toString(16).padStart(12, "0")

/** A stable pseudo-address for a table or function, for `tostring`. */
export const addressOf = (o: object): string => {
  let a = addresses.get(o)
  if (a === undefined) {
    a = nextAddress
    nextAddress += 0x40
    addresses.set(o, a)
  }
  return hex(a)
}

/** A pseudo-address for a string (`%p`): equal strings share one within a run, different strings differ. */
export const stringAddressOf = (s: string): string => {
  let a = stringAddresses.get(s)
  if (a === undefined) {
    a = nextAddress
    nextAddress += 0x20 + (s.length & ~0xf)
    stringAddresses.set(s, a)
  }
  return hex(a)
}

/**
 * A `json.null` table. It has no fields: reading one is an error that names it (a JSON null the program did not test
 * for), not a silent nil.
 */
function makeJsonNull(): LuaTable {
  const t = new LuaTable()
  t.guard = (key, site, desc = "") => {
    throw errorAt(
      `attempt to index a json.null value${desc} with ${typeof key === "string" ? `'${key}'` : tostring(key)}: a JSON null has no fields (test for it with \`v == json.null\`)`,
      site,
    )
  }
  jsonNullRef.value = t
  return t
}

/**
 * The value JSON `null` is represented by inside Lua (`json.null`). A fresh table every run (see
 * {@link resetValues}), so whatever a program stores in it is gone for the next run.
 */
export let JSON_NULL = makeJsonNull()

/** Start a run's values afresh: a new `json.null`, pseudo-addresses from the first one again. */
export const resetValues = (): void => {
  JSON_NULL = makeJsonNull()
  resetKeyLists()
  addresses = new WeakMap()
  stringAddresses = new Map()
  nextAddress = FIRST_ADDRESS
}

/** Lua's `tostring` (no metamethods: there are none in this sandbox). */
export const tostring = (v: LuaValue): string => {
  switch (typeof v) {
    case "undefined":
      return "nil"
    case "boolean":
      return v ? "true" : "false"
    case "number":
    case "bigint":
      return numberToString(v)
    case "string":
      return v
    case "function":
      return "function: " + addressOf(v)
    default:
      if (v instanceof LuaFloat) return numberToString(v)
      if (v === JSON_NULL) return "json.null"
      return "table: " + addressOf(v)
  }
}
