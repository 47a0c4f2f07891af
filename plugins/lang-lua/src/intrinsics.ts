/**
 * What generated code calls: the general paths of the operations it inlines only for the common case (field and
 * index access, stores, calls of non-functions, concatenation), numeric `for` preparation, generic `for` iteration,
 * table constructors, and multiple results. The compiler hands {@link INTRINSICS} to the generated program, which
 * binds each entry to a `$name` constant once.
 */
import { ipairsIterator, next } from "./lib/base.js"
import { arith, intAdd, lessEqual, lessThan, normaliseKey, type Op, stringToNumber, type LuaNumber } from "./numbers.js"
import { floatMod, floatPow } from "./floats.js"
import {
  addAny,
  convertedArith,
  floatArith,
  floatValue,
  addNN,
  divAny,
  divNN,
  idivAny,
  idivNN,
  luaEq,
  modAny,
  modNN,
  mulAny,
  mulNN,
  powAny,
  powNN,
  subAny,
  subNN,
} from "./operators.js"
import { callError, concatValues, index, indexError, length, setIndex, stringMeta, tableFull } from "./ops.js"
import {
  callDepthError,
  callSites,
  checkStringLength,
  errorAt,
  MAX_CALL_DEPTH,
  MAX_STRING_BYTES,
  meter,
  rt,
  warnAt,
} from "./runtime.js"
import {
  EMPTY,
  Fields,
  LuaFloat,
  LuaTable,
  MAX_TABLE_ENTRIES,
  makeFloat,
  MAX_INTEGER,
  MIN_INTEGER,
  normaliseInteger,
  RECORD_FIELDS,
  type LuaFunction,
  type LuaValue,
  shownType,
} from "./value.js"

/** The first value of a call's results (one value, or a JS array of values). */
const first = (r: LuaValue | Array<LuaValue>): LuaValue => (Array.isArray(r) ? r[0] : r)

/** Append a call's results (or `...`) to `out`; returns `out`. */
const spread = (out: Array<LuaValue>, r: LuaValue | Array<LuaValue>): Array<LuaValue> => {
  if (Array.isArray(r)) for (let i = 0; i < r.length; i++) out.push(r[i])
  else out.push(r)
  return out
}

/** Value `i` of a call's results. */
const nth = (r: LuaValue | Array<LuaValue>, i: number): LuaValue => (Array.isArray(r) ? r[i] : i === 0 ? r : undefined)

/** Raise "attempt to call" (generated code evaluates the arguments first, as Lua does). */
const callFail = (fn: LuaValue, desc: string, site: number): never => {
  throw callError(fn, desc, site)
}

/** `t.name` after the inline path found nothing: guards, string methods, nil, or the index error. */
const fieldMiss = (t: LuaValue, name: string, site: number, desc: string): LuaValue =>
  t instanceof LuaTable ? (t.guard === undefined ? undefined : t.guard(name, site, desc)) : index(t, name, site, desc)

/** A Lua function's entry in compact code (small programs inline it): the call depth, its call site, one unit of work. */
const enter = (): void => {
  if (++rt.depth > MAX_CALL_DEPTH) throw callDepthError(rt.site)
  callSites[rt.depth] = rt.site
  if (--rt.budget <= 0) meter(rt.site)
}

/** Whether a value counts as true in a condition (compact code; small programs inline the test). */
const truthy = (v: LuaValue): boolean => v !== undefined && v !== false

/**
 * Calls with up to three arguments in compact code (small programs inline them): the call site is recorded, then
 * the callee is called, or Lua's error raised for a value that is no function.
 */
const call0 = (f: LuaValue, desc: string, site: number): LuaValue | Array<LuaValue> => {
  rt.site = site
  return typeof f === "function" ? f() : callFail(f, desc, site)
}
const call1 = (f: LuaValue, desc: string, site: number, a: LuaValue): LuaValue | Array<LuaValue> => {
  rt.site = site
  return typeof f === "function" ? f(a) : callFail(f, desc, site)
}
const call2 = (f: LuaValue, desc: string, site: number, a: LuaValue, b: LuaValue): LuaValue | Array<LuaValue> => {
  rt.site = site
  return typeof f === "function" ? f(a, b) : callFail(f, desc, site)
}
const call3 = (
  f: LuaValue,
  desc: string,
  site: number,
  a: LuaValue,
  b: LuaValue,
  c: LuaValue,
): LuaValue | Array<LuaValue> => {
  rt.site = site
  return typeof f === "function" ? f(a, b, c) : callFail(f, desc, site)
}

/** `t.name` in compact code (see codegen/emit.ts): the table's field, else what {@link fieldMiss} finds. */
const getField = (t: LuaValue, name: string, site: number, desc: string): LuaValue => {
  if (t instanceof LuaTable) {
    const v = t.fields[name]
    if (v !== undefined) return v
  }
  return fieldMiss(t, name, site, desc)
}

/** The method `name` of `o` for `o:name(...)`: table fields (with guards), string methods, or the index error. */
const method = (o: LuaValue, name: string, site: number, desc: string): LuaValue => {
  if (o instanceof LuaTable) {
    const v = o.fields[name]
    return v !== undefined || o.guard === undefined ? v : o.guard(name, site, desc)
  }
  if (typeof o === "string") return stringMeta.methods.getStr(name)
  throw indexError(o, desc, site)
}

/** `t[k]` after the inline array path missed. */
const indexAny = (t: LuaValue, k: LuaValue, site: number, desc: string): LuaValue => {
  if (t instanceof LuaTable) {
    if (typeof k === "string") {
      const v = t.fields[k]
      return v !== undefined || t.guard === undefined ? v : t.guard(k, site, desc)
    }
    if (typeof k === "number") {
      if (t.jsonObject) warnAt("InvalidDataValue", objectIndexWarning(k), site)
      else if (k === 0 && t.arr.length > 0)
        warnAt("InvalidDataValue", "t[0] is nil: Lua arrays start at 1 (the first item is t[1], the last t[#t])", site)
    }
  }
  return index(t, k, site, desc)
}

const objectIndexWarning = (k: number): string =>
  `indexing a table that came from a JSON object with the number ${k} gives nil: its keys are strings (iterate it with pairs, or index the field that holds the array)`

/** `#t` of a table whose array part is empty: 0, with a warning when the table came from a JSON object. */
const objectLength = (t: LuaTable, site: number): number => {
  if (t.jsonObject)
    warnAt(
      "InvalidDataValue",
      "#t is 0 for a table that came from a JSON object: its keys are strings, it has no items 1..n (iterate it with pairs, or take # of the field that holds the array)",
      site,
    )
  return 0
}

/** `#v` after the inline path (a table with items) missed: an empty array part, a string, or the error. */
const lengthOf = (v: LuaValue, site: number, desc: string): number =>
  v instanceof LuaTable && v.arr.length === 0 ? objectLength(v, site) : length(v, site, desc)

/** `t.name = v` after the inline overwrite path missed. */
const setField = (t: LuaValue, name: string, v: LuaValue, site: number, desc: string): void => {
  if (!(t instanceof LuaTable)) throw indexError(t, desc, site)
  if (!t.setStr(name, v)) throw tableFull(site)
}

/** `t[k] = v` after the inline array overwrite path missed. */
const setAny = (t: LuaValue, k: LuaValue, v: LuaValue, site: number, desc: string): void => {
  if (t instanceof LuaTable) {
    if (typeof k === "number" && Number.isSafeInteger(k)) {
      if (!t.setInt(k, v)) throw tableFull(site)
      return
    }
    if (typeof k === "string") {
      if (!t.setStr(k, v)) throw tableFull(site)
      return
    }
  }
  setIndex(t, k, v, site, desc)
}

/** Assignment to a global after the inline overwrite path missed. */
const setGlobal = (G: LuaTable, name: string, v: LuaValue, site: number): void => {
  if (!G.setStr(name, v)) throw tableFull(site)
}

/** Reading a global that is absent on purpose: its value if the program defined it, else the explanation. */
const absentGlobal = (v: LuaValue, message: string, site: number): LuaValue => {
  if (v === undefined) throw errorAt(message, site)
  return v
}

/** `a .. b` for two strings. */
const cat = (a: string, b: string, site: number): string => {
  const n = a.length + b.length
  if (n > MAX_STRING_BYTES) checkStringLength(n, site)
  return a + b
}

/** `a .. b` when one operand is not a string: integers inline, everything else through the general path. */
const concatPair = (a: LuaValue, b: LuaValue, site: number, descA: string, descB: string): string => {
  const x = typeof a === "string" ? a : typeof a === "number" && Number.isSafeInteger(a) ? String(a) : undefined
  const y = typeof b === "string" ? b : typeof b === "number" && Number.isSafeInteger(b) ? String(b) : undefined
  return x !== undefined && y !== undefined ? cat(x, y, site) : concatValues([a, b], [descA, descB], site)
}

/** `a .. b .. c ...` (three or more operands, evaluated left to right into `values`). */
const concatMany = (values: Array<LuaValue>, descs: ReadonlyArray<string>, site: number): string => {
  let s = ""
  for (let i = 0; i < values.length; i++) {
    const v = values[i]
    let piece: string
    if (typeof v === "string") piece = v
    else if (typeof v === "number" && Number.isSafeInteger(v)) piece = String(v)
    else return concatValues(values, descs, site)
    if (s.length + piece.length > MAX_STRING_BYTES) checkStringLength(s.length + piece.length, site)
    s += piece
  }
  return s
}

/** A table from a list of positional values (`{a, b, f()}`): trailing nils dropped, the entry bound checked. */
const arrayTable = (items: Array<LuaValue>, site: number): LuaTable => {
  if (items.length > MAX_TABLE_ENTRIES) throw tableFull(site)
  let n = items.length
  while (n > 0 && items[n - 1] === undefined) n--
  const t = new LuaTable()
  if (n === 0) return t
  items.length = n
  t.arr = items
  return t
}

/** A table from a record constructor's string-keyed part, already filled with `count` non-nil values. */
const recordTable = (fields: Fields, count: number): LuaTable => {
  const t = new LuaTable()
  t.fields = fields
  t.nfields = count
  return t
}

/** One keyed field of a general table constructor (`[k] = v` or `name = v`). */
const tableSet = (t: LuaTable, k: LuaValue, v: LuaValue, site: number): void => {
  if (k === undefined) throw errorAt("table index is nil", site)
  const key = normaliseKey(k)
  if (typeof key === "number" && Number.isNaN(key)) throw errorAt("table index is NaN", site)
  if (!t.set(key, v)) throw tableFull(site)
}

/** The positional items of a general table constructor, stored last (as Lua's SETLIST does). */
const tableItems = (t: LuaTable, items: Array<LuaValue>, site: number): LuaTable => {
  if (items.length + t.size() > MAX_TABLE_ENTRIES) throw tableFull(site)
  for (let i = 0; i < items.length; i++) t.set(i + 1, items[i])
  return t
}

// ------------------------------------------------------------------------------------------------ numeric for

/** A numeric `for` whose control values do not fit the plain-number paths: 64-bit integers beyond 2^53. */
class BigLoop {
  value: number | bigint
  private left: bigint
  private started = false
  constructor(
    start: number | bigint,
    private readonly step: number | bigint,
    count: bigint,
  ) {
    this.value = start
    this.left = count
  }
  /** Advance; false when the loop is over. */
  more(): boolean {
    if (this.started) {
      if (this.left === 0n) return false
      this.left--
      this.value = intAdd(this.value, this.step)
    }
    this.started = true
    return true
  }
}

/**
 * Where {@link forPrep} leaves a numeric loop's plan: mode 0 counts plain integers `i` from `i` to `lim` by `step`,
 * mode 1 does the same with float values, mode 2 walks `big`.
 */
const FP = { i: 0, lim: 0, step: 1, big: undefined as BigLoop | undefined }

/** Clear the scratch state generated code shares (at the start of every run). */
export const resetIntrinsics = (): void => {
  FP.i = 0
  FP.lim = 0
  FP.step = 1
  FP.big = undefined
}

const isNumber = (v: LuaValue): v is LuaNumber =>
  typeof v === "number" || typeof v === "bigint" || v instanceof LuaFloat
const isInt = (v: LuaValue) => typeof v === "bigint" || (typeof v === "number" && Number.isSafeInteger(v))

/** Plan a numeric `for` as Lua 5.4 does (errors for non-numbers and a zero step); see {@link FP}. */
const forPrep = (a: LuaValue, b: LuaValue, c: LuaValue, site: number): number => {
  FP.big = undefined
  if (typeof a === "number" && typeof c === "number" && Number.isSafeInteger(a) && Number.isSafeInteger(c) && c !== 0) {
    let lim = typeof b === "number" ? b : b instanceof LuaFloat ? b.n : NaN
    if (!Number.isSafeInteger(lim) && !Number.isNaN(lim)) {
      lim = c > 0 ? Math.floor(lim) : Math.ceil(lim)
      // Beyond the safe range the loop cannot finish within the work bound; clamp when that is certain.
      if (Math.abs(a) < 2 ** 51 && Math.abs(c) < 2 ** 20) {
        if (lim > 2 ** 52) lim = 2 ** 52
        else if (lim < -(2 ** 52)) lim = -(2 ** 52)
      }
    }
    if (Number.isSafeInteger(lim) && Number.isSafeInteger(lim + c)) {
      FP.i = a
      FP.lim = lim
      FP.step = c
      return 0
    }
  }
  if (isInt(a) && isInt(c)) {
    // Lua 5.4's integer loop: the step is checked, then the limit is converted (a float limit is floored or
    // ceiled; one beyond the integers either skips the loop or is clamped).
    const ia = a as number | bigint
    const ic = c as number | bigint
    // eslint-disable-next-line eqeqeq
    if (ic == 0) throw errorAt("'for' step is zero", site)
    const limit = typeof b === "string" ? stringToNumber(b) : isNumber(b) ? b : undefined
    if (limit === undefined) throw errorAt(`bad 'for' limit (number expected, got ${shownType(b)})`, site)
    let lim: number | bigint
    if (isInt(limit)) lim = limit as number | bigint
    else {
      const d = limit instanceof LuaFloat ? limit.n : (limit as number)
      const fl = ic > 0 ? Math.floor(d) : Math.ceil(d)
      if (fl >= -9223372036854775808 && fl < 9223372036854775808) lim = normaliseInteger(BigInt(fl))
      else if (d > 0) {
        if (ic < 0) return skip()
        lim = MAX_INTEGER
      } else {
        if (ic > 0) return skip()
        lim = MIN_INTEGER
      }
    }
    if (ic > 0 ? ia > lim : ia < lim) return skip()
    // The iteration count, computed without overflow as Lua 5.4 does.
    const count = ic > 0 ? (BigInt(lim) - BigInt(ia)) / BigInt(ic) : (BigInt(ia) - BigInt(lim)) / -BigInt(ic)
    FP.big = new BigLoop(ia, ic, count)
    FP.i = 0
    FP.lim = 0
    FP.step = 1
    return 2
  }
  // A float loop; strings are converted (the limit first, then the step, then the initial value, as Lua does).
  const fb = forFloat(b, "limit", site)
  const fc = forFloat(c, "step", site)
  const fa = forFloat(a, "initial value", site)
  if (fc === 0) throw errorAt("'for' step is zero", site)
  FP.i = fa
  FP.lim = fb
  FP.step = fc
  return 1
}

/** A `for` control value as a float (numbers and numeric strings), or Lua's error naming it. */
const forFloat = (v: LuaValue, what: string, site: number): number => {
  const n = typeof v === "string" ? stringToNumber(v) : isNumber(v) ? v : undefined
  if (n === undefined) throw errorAt(`bad 'for' ${what} (number expected, got ${shownType(v)})`, site)
  return n instanceof LuaFloat ? n.n : Number(n)
}

/** A plan that runs no iteration. */
const skip = (): number => {
  FP.i = 1
  FP.lim = 0
  FP.step = 1
  return 0
}

// ------------------------------------------------------------------------------------------------ generic for

/** The state of a generic `for`: `more()` advances and leaves the loop variables in `a`, `b` and `at(j)`. */
abstract class Iteration {
  a: LuaValue = undefined
  b: LuaValue = undefined
  abstract more(): boolean
  /** Loop variable `j` (0-based) beyond the second. */
  at(_j: number): LuaValue {
    return undefined
  }
}

/** `pairs(t)`: the array part, then the string keys, then the other keys. */
class TableIteration extends Iteration {
  private phase = 0
  private i = 0
  private keys: ReadonlyArray<string> | undefined
  private entries: Array<[LuaValue, LuaValue]> | undefined
  constructor(private readonly t: LuaTable) {
    super()
  }
  more(): boolean {
    const t = this.t
    for (;;) {
      if (this.phase === 0) {
        const arr = t.arr
        while (this.i < arr.length) {
          const v = arr[this.i++]
          if (v !== undefined) {
            this.a = this.i
            this.b = v
            return true
          }
        }
        this.phase = 1
        this.i = 0
        this.keys = t.keys()
      }
      if (this.phase === 1) {
        const keys = this.keys!
        const o = t.fields
        while (this.i < keys.length) {
          const k = keys[this.i++]
          const v = o[k]
          if (v !== undefined) {
            this.a = k
            this.b = v
            return true
          }
        }
        this.phase = 2
        this.i = 0
        this.entries = t.hash === undefined ? [] : [...t.hash]
      }
      const entries = this.entries!
      while (this.i < entries.length) {
        const k = entries[this.i++][0]
        // A key removed during the traversal is skipped; a changed value is seen.
        const v = t.hash === undefined ? undefined : t.hash.get(k)
        if (v !== undefined) {
          this.a = k
          this.b = v
          return true
        }
      }
      return false
    }
  }
}

/** `ipairs(t)`: `t[1]`, `t[2]`, ... up to the first nil. */
class ArrayIteration extends Iteration {
  private i = 0
  constructor(private readonly t: LuaTable) {
    super()
  }
  more(): boolean {
    const v = this.t.getInt(++this.i)
    if (v === undefined) return false
    this.a = this.i
    this.b = v
    return true
  }
}

/** Any other iterator function, called as Lua does: `f(state, control)` until its first result is nil. */
class CallIteration extends Iteration {
  private r: LuaValue | Array<LuaValue> = undefined
  constructor(
    private readonly fn: LuaFunction,
    private readonly state: LuaValue,
    private control: LuaValue,
    private readonly site: number,
  ) {
    super()
  }
  more(): boolean {
    rt.site = this.site
    const r = this.fn(this.state, this.control)
    this.r = r
    const a = Array.isArray(r) ? r[0] : r
    if (a === undefined) return false
    this.a = a
    this.b = Array.isArray(r) ? r[1] : undefined
    this.control = a
    return true
  }
  override at(j: number): LuaValue {
    return Array.isArray(this.r) ? this.r[j] : undefined
  }
}

/** Start a generic `for` over `f, s, c` (the explist adjusted to three values). */
const forIn = (f: LuaValue, s: LuaValue, c: LuaValue, site: number): Iteration => {
  if (f === next && s instanceof LuaTable && c === undefined) return new TableIteration(s)
  if (f === ipairsIterator && s instanceof LuaTable && c === 0) return new ArrayIteration(s)
  if (typeof f !== "function") throw errorAt(`attempt to call a ${shownType(f)} value`, site)
  return new CallIteration(f, s, c, site)
}

/** {@link forIn} for an explist that is one multi-valued expression (`pairs(t)`). */
const forInResults = (r: LuaValue | Array<LuaValue>, site: number): Iteration =>
  Array.isArray(r) ? forIn(r[0], r[1], r[2], site) : forIn(r, undefined, undefined, site)

/** `x - 0` for a constant 0 as PUC Lua computes it, `x + 0` (so `-0.0 - 0` is `0.0`); strings subtract. */
const subZero = (op: Op, a: LuaValue, b: LuaValue, site: number, descA: string, descB: string): LuaValue => {
  const r = arith(op, a, b, site, descA, descB)
  return typeof a !== "string" && r instanceof LuaFloat && r.n === 0 ? new LuaFloat(0) : r
}

/** Everything generated code may call, by the name it uses (`$name`). */
export const INTRINSICS = {
  rt,
  meter,
  callSites,
  callDepthError,
  EMPTY,
  LuaTable,
  Fields,
  Fields1: RECORD_FIELDS[1],
  Fields2: RECORD_FIELDS[2],
  Fields3: RECORD_FIELDS[3],
  Fields4: RECORD_FIELDS[4],
  Fields5: RECORD_FIELDS[5],
  Fields6: RECORD_FIELDS[6],
  Fields7: RECORD_FIELDS[7],
  Fields8: RECORD_FIELDS[8],
  FP,
  first,
  spread,
  nth,
  callFail,
  fieldMiss,
  call0,
  call1,
  call2,
  call3,
  enter,
  truthy,
  getField,
  method,
  indexAny,
  setField,
  setAny,
  setGlobal,
  absentGlobal,
  cat,
  concatPair,
  concatMany,
  lengthOf,
  arrayTable,
  recordTable,
  tableSet,
  tableItems,
  forPrep,
  makeFloat,
  forIn,
  forInResults,
  arith,
  subZero,
  lessThan,
  lessEqual,
  luaEq,
  addNN,
  subNN,
  mulNN,
  divNN,
  modNN,
  idivNN,
  powNN,
  addAny,
  subAny,
  mulAny,
  divAny,
  modAny,
  idivAny,
  powAny,
  isInt: Number.isSafeInteger,
  convertedArith,
  floatArith,
  floatValue,
  floatMod,
  floatPow,
  LuaFloat,
}
