/**
 * How Lua values are held in JavaScript.
 *
 * - `nil` is `undefined`; booleans are JS booleans.
 * - Strings are JS strings whose code units are bytes (0–255). UTF-8 is decoded and encoded only where a string
 *   crosses to the host.
 * - An integer is a JS number that is a safe integer, or a `bigint` for an integer outside the safe range. A bigint
 *   is always normalised: one that fits the safe range becomes a number. Integers wrap as 64-bit two's complement.
 * - A float is any JS number that is not a safe integer (fractions, NaN, ±Infinity, huge values). An integral float
 *   that would look like a safe integer (`2.0`, `-0.0`, `1e15`) is boxed as a {@link LuaFloat}.
 * - Tables are {@link LuaTable}; functions (Lua closures and native functions alike) are JS functions that take their
 *   arguments positionally and return one value, or a JS array holding any other number of values.
 */

/** An integral float whose value would otherwise read as a safe integer, such as `2.0` or `-0.0`. */
export class LuaFloat {
  constructor(readonly n: number) {}
}

/** A Lua function: takes Lua values positionally, returns one value or a JS array of values (see {@link Results}). */
export type LuaFunction = (...args: Array<LuaValue>) => LuaValue | Results

/**
 * What a function call returns: a single Lua value, or a JS array holding zero, two or more values. No Lua value is a
 * JS array, so `Array.isArray` tells the two apart.
 */
export type Results = Array<LuaValue>

/** The results of a function that returns nothing (shared, frozen). */
export const EMPTY: Array<LuaValue> = Object.freeze([]) as unknown as Array<LuaValue>

/** Any Lua value. */
export type LuaValue = undefined | boolean | number | bigint | string | LuaFloat | LuaTable | LuaFunction

/** The largest Lua integer, 2^63 - 1. */
export const MAX_INTEGER = 0x7fffffffffffffffn
/** The smallest Lua integer, -2^63. */
export const MIN_INTEGER = -0x8000000000000000n

/** Turn a 64-bit integer held as a bigint into its canonical form: a number when it fits the safe range. */
export const normaliseInteger = (b: bigint): number | bigint => {
  const w = BigInt.asIntN(64, b)
  return w >= -9007199254740991n && w <= 9007199254740991n ? Number(w) : w
}

/** Make a float value from a JS number, boxing it when it would read as a safe integer. */
export const makeFloat = (n: number): number | LuaFloat => (Number.isSafeInteger(n) ? new LuaFloat(n) : n)

/** The numeric value of a Lua number as a JS double (integers beyond 2^53 are rounded as C's cast would). */
export const toDouble = (v: number | bigint | LuaFloat): number =>
  typeof v === "number" ? v : typeof v === "bigint" ? Number(v) : v.n

/**
 * Convert a float to the integer with the same value, or `undefined` when it has a fraction or lies outside the
 * 64-bit range (Lua's `lua_Number` → `lua_Integer` conversion without rounding).
 */
export const floatToInteger = (f: number): number | bigint | undefined => {
  if (!Number.isFinite(f) || Math.floor(f) !== f) return undefined
  if (Number.isSafeInteger(f)) return f === 0 ? 0 : f
  if (f >= -9223372036854775808 && f < 9223372036854775808) return normaliseInteger(BigInt(f))
  return undefined
}

/** The run's `json.null` table (set with it, in ops.ts): messages name it "json.null", not "table". */
export const jsonNullRef: { value: LuaTable | undefined } = { value: undefined }

/** A value's type as error messages name it: its Lua type, but "json.null" for `json.null`. */
export const shownType = (v: LuaValue): string =>
  v !== undefined && v === jsonNullRef.value ? "json.null" : typeName(v)

/** Lua's `type()` name of a value. */
export const typeName = (v: LuaValue): string => {
  switch (typeof v) {
    case "undefined":
      return "nil"
    case "boolean":
      return "boolean"
    case "number":
    case "bigint":
      return "number"
    case "string":
      return "string"
    case "function":
      return "function"
    default:
      return v instanceof LuaFloat ? "number" : "table"
  }
}

/** What a guarded table calls for a key it does not hold (see {@link LuaTable.guard}). */
export type Guard = (key: LuaValue, site: number, desc?: string) => LuaValue

/** The most entries one table may hold (array part plus hash part). */
export const MAX_TABLE_ENTRIES = 1_000_000

/** The string-keyed part of a table: a plain object whose prototype chain holds no properties. */
export type Fields = Record<string, LuaValue>

/**
 * Makes the string-keyed part of a table. Objects made this way are ordinary fast-mode objects (records with the
 * same keys share a hidden class, so field reads are cheap), and their prototype is an empty object with a null
 * prototype, so no key (not even `__proto__` or `toString`) finds anything inherited.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const Fields: new () => Fields = function Fields(this: any) {} as any
Fields.prototype = Object.create(null)

/**
 * Makes a constructor of string-keyed parts sized for records of exactly `slots` fields (`{ x = 1, y = 2 }`), so
 * that a small record does not carry the ten in-object slots of a {@link Fields} object. V8 sizes the objects of a
 * constructor by the properties its first objects receive (in-object slack tracking), so each constructor is trained
 * here, before any program runs, with objects that receive exactly `slots` properties. Its objects share the
 * prototype of {@link Fields}: no key finds anything inherited.
 */
const sizedFields = (slots: number): (new () => Fields) => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const F: new () => Fields = function SizedFields(this: any) {} as any
  F.prototype = Fields.prototype
  for (let i = 0; i < 8; i++) {
    const o = new F()
    for (let j = 0; j < slots; j++) o[`f${j}`] = undefined
  }
  return F
}

/**
 * `RECORD_FIELDS[n]` makes the string-keyed part of a record constructor with `n` distinct names (1 to 8; larger
 * records use {@link Fields}).
 */
export const RECORD_FIELDS: ReadonlyArray<new () => Fields> = [Fields, 1, 2, 3, 4, 5, 6, 7, 8].map((n) =>
  typeof n === "number" ? sizedFields(n) : n,
)

/**
 * The string-keyed part of every table that has none: frozen and shared, so that reading `t.fields.x` needs no test
 * for a missing part; the first string key gives the table its own {@link Fields}.
 */
export const NO_FIELDS: Fields = Object.freeze(new Fields())

/**
 * The array part of every table that has no items: frozen and shared, so that a table of string keys allocates no
 * array; the first item gives the table its own array.
 */
export const NO_ITEMS: Array<LuaValue> = Object.freeze([]) as unknown as Array<LuaValue>

/**
 * `arr` (fewer than 4 items) with `value` appended, as a new array of exactly that length. The engine grows an
 * array by at least 16 slots, so a table of 2 or 3 items built by appending would carry 17 slots; small arrays are
 * copied instead, and grow in place from 4 items on.
 */
const grown = (arr: Array<LuaValue>, value: LuaValue): Array<LuaValue> => {
  switch (arr.length) {
    case 0:
      return [value]
    case 1:
      return [arr[0], value]
    case 2:
      return [arr[0], arr[1], value]
    default:
      return [arr[0], arr[1], arr[2], value]
  }
}

/** From this many string keys on, a table keeps the list of its keys between traversals (see {@link LuaTable.keys}). */
const LISTED_FROM = 32

/** A kept list of a string-keyed part's keys, valid while the part has `count` keys and no key was removed since. */
interface KeyList {
  readonly keys: ReadonlyArray<string>
  readonly count: number
  readonly removals: number
}

/** The kept key lists, by string-keyed part (weakly: a list goes with its table). */
let keyLists = new WeakMap<Fields, KeyList>()
/** How many string keys have been removed from any table this run: a removal makes every kept list stale. */
let removals = 0

/** Forget the kept key lists (at the start of every run). */
export const resetKeyLists = (): void => {
  keyLists = new WeakMap()
  removals = 0
}

/**
 * A Lua table: an array part (`arr[i]` holds `t[i + 1]`), the string keys in `fields`, and every other key in
 * `hash`. Keys are normalised (integral floats are stored as integers), and `hash` never holds the key
 * `arr.length + 1` (appending migrates following keys into the array part), so `arr.length` (after trailing nils are
 * trimmed) is always a border.
 */
export class LuaTable {
  /**
   * The array part: `arr[i]` is `t[i + 1]`. May contain `undefined` holes, never a trailing `undefined`.
   * {@link NO_ITEMS} until the first item.
   */
  arr: Array<LuaValue> = NO_ITEMS
  /** The string keys ({@link NO_FIELDS} until the first one). Never holds `undefined` values. */
  fields: Fields = NO_FIELDS
  /** How many keys `fields` holds. */
  nfields = 0
  /** Keys that are neither strings nor in the array part, created on first use. Never holds `undefined` values. */
  hash: Map<LuaValue, LuaValue> | undefined = undefined
  /**
   * What is rare about the table, in one slot (every table carries it): where its shape came from (0 the program, 1
   * a JSON array or `json.array()`, 2 a JSON object), or its {@link guard}. Only library tables have a guard; their
   * origin is the program's.
   */
  private special: number | Guard = 0

  /**
   * For the few library tables that must not answer `nil` for a missing key (`tools`, `os`, ...): called with the
   * key when a lookup finds nothing; returns the value to use or throws.
   */
  get guard(): Guard | undefined {
    const g = this.special
    return typeof g === "function" ? g : undefined
  }
  set guard(g: Guard | undefined) {
    this.special = g ?? 0
  }

  /** True when the table came from a JSON array (or `json.array()`), so that it leaves as an array even when empty. */
  get jsonArray(): boolean {
    return this.special === 1
  }
  set jsonArray(v: boolean) {
    this.setOrigin(v ? 1 : 0)
  }

  /** True when the table came from a JSON object (its keys are strings: `#t`, `ipairs` and `t[1]` find nothing). */
  get jsonObject(): boolean {
    return this.special === 2
  }
  set jsonObject(v: boolean) {
    this.setOrigin(v ? 2 : 0)
  }

  /** Record where the table's shape came from; a guarded (library) table keeps its guard. */
  private setOrigin(origin: number): void {
    if (typeof this.special !== "function") this.special = origin
  }

  /** `#t`: the border of the array part. */
  length(): number {
    return this.arr.length
  }

  /**
   * The string keys, in the order a traversal visits them (insertion order). The list is shared and must not be
   * changed. A large part keeps its list between traversals: a key set that only had values changed (no key added
   * or removed) is the same list in the same order, so a loop over `pairs(t)` does not list a dictionary of
   * thousands of keys again on every pass.
   */
  keys(): ReadonlyArray<string> {
    const o = this.fields
    if (this.nfields < LISTED_FROM) return Object.keys(o)
    const known = keyLists.get(o)
    if (known !== undefined && known.count === this.nfields && known.removals === removals) return known.keys
    const keys = Object.keys(o)
    keyLists.set(o, { keys, count: this.nfields, removals })
    return keys
  }

  /** Raw get with an already-normalised key (see `normaliseKey`). */
  get(key: LuaValue): LuaValue {
    if (typeof key === "string") return this.fields[key]
    if (typeof key === "number") {
      const i = key - 1
      if (i >= 0 && i < this.arr.length && (i | 0) === i) return this.arr[i]
    }
    return this.hash === undefined ? undefined : this.hash.get(key)
  }

  /** Raw get of an integer key held as a number. */
  getInt(key: number): LuaValue {
    const i = key - 1
    if (i >= 0 && i < this.arr.length) return this.arr[i]
    return this.hash === undefined ? undefined : this.hash.get(key)
  }

  /** Raw get of a string key. */
  getStr(key: string): LuaValue {
    return this.fields[key]
  }

  /**
   * Raw set with an already-normalised, non-nil, non-NaN key. Returns false (and changes nothing) when a new key would
   * grow the table beyond {@link MAX_TABLE_ENTRIES}; callers turn that into a located error.
   */
  set(key: LuaValue, value: LuaValue): boolean {
    if (typeof key === "string") return this.setStr(key, value)
    return typeof key === "number" && Number.isSafeInteger(key) ? this.setInt(key, value) : this.setHash(key, value)
  }

  /** Raw set of a string key; false when the table is full (see {@link set}). */
  setStr(key: string, value: LuaValue): boolean {
    let o = this.fields
    if (value === undefined) {
      if (o[key] !== undefined) {
        delete o[key]
        this.nfields--
        removals++
      }
      return true
    }
    if (o[key] !== undefined) {
      o[key] = value
      return true
    }
    if (this.size() >= MAX_TABLE_ENTRIES) return false
    if (o === NO_FIELDS) o = this.fields = new Fields()
    o[key] = value
    this.nfields++
    return true
  }

  /** Raw set of an integer key held as a number; false when the table is full (see {@link set}). */
  setInt(key: number, value: LuaValue): boolean {
    const arr = this.arr
    const n = arr.length
    const i = key - 1
    if (i >= 0 && i < n) {
      arr[i] = value
      if (value === undefined && i === n - 1) this.trim()
      return true
    }
    if (i === n) {
      const h = this.hash
      if (value === undefined) {
        if (h !== undefined) h.delete(key)
        return true
      }
      if (this.size() >= MAX_TABLE_ENTRIES) return false
      if (n < 4) this.arr = grown(arr, value)
      else arr.push(value)
      if (h !== undefined && h.size > 0) this.migrate()
      return true
    }
    return this.setHash(key, value)
  }

  /** Raw set of a key that is neither a string nor in the array part; false when the table is full. */
  setHash(key: LuaValue, value: LuaValue): boolean {
    let h = this.hash
    if (value === undefined) {
      if (h !== undefined) h.delete(key)
      return true
    }
    if (h === undefined) h = this.hash = new Map()
    const before = h.size
    h.set(key, value)
    if (h.size > before && this.size() > MAX_TABLE_ENTRIES) {
      h.delete(key)
      return false
    }
    return true
  }

  /** Append `value` at `#t + 1` (`table.insert(t, v)`); false when the table is full. */
  push(value: LuaValue): boolean {
    return this.setInt(this.arr.length + 1, value)
  }

  /**
   * `table.insert(t, pos, v)` for `1 <= pos <= #t + 1`: shift `t[pos..#t]` up by one. False when the table is full.
   */
  insertAt(pos: number, value: LuaValue): boolean {
    if (this.size() >= MAX_TABLE_ENTRIES) return false
    if (this.arr === NO_ITEMS) this.arr = []
    const arr = this.arr
    if (pos === arr.length + 1) arr.push(value)
    else arr.splice(pos - 1, 0, value)
    if (arr[arr.length - 1] === undefined) this.trim()
    else if (this.hash !== undefined && this.hash.size > 0) this.migrate()
    return true
  }

  /** `table.remove(t, pos)` for `1 <= pos <= #t`: shift `t[pos+1..#t]` down by one; returns the removed value. */
  removeAt(pos: number): LuaValue {
    const arr = this.arr
    const v = arr[pos - 1]
    if (pos === arr.length) arr.pop()
    else arr.splice(pos - 1, 1)
    if (arr.length > 0 && arr[arr.length - 1] === undefined) this.trim()
    return v
  }

  /** Number of entries (array slots, string keys and other keys). */
  size(): number {
    return this.arr.length + this.nfields + (this.hash === undefined ? 0 : this.hash.size)
  }

  /** Move keys `#arr + 1, #arr + 2, ...` from the hash part into the array part. */
  private migrate(): void {
    const h = this.hash!
    const arr = this.arr
    for (;;) {
      const k = arr.length + 1
      const v = h.get(k)
      if (v === undefined) return
      h.delete(k)
      arr.push(v)
    }
  }

  /** Drop trailing nils so that the array part ends with a value. */
  private trim(): void {
    const arr = this.arr
    let n = arr.length
    while (n > 0 && arr[n - 1] === undefined) n--
    arr.length = n
  }
}
