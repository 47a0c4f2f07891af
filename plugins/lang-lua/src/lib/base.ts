/**
 * The basic library: `print`, `type`, `tostring`, `tonumber`, `pcall`, `xpcall`, `error`, `assert`, `select`,
 * `ipairs`, `pairs`, `next`, `rawequal`, `rawlen`, `rawget`, `rawset`.
 */
import { LuaError } from "../errors.js"
import { intAdd, luaEquals, normaliseKey, stringToNumber } from "../numbers.js"
import { index, setIndex, tostring } from "../ops.js"
import { callSites, charge, checkStringLength, errorAt, locationOf, rt, warnAt, where } from "../runtime.js"
import {
  EMPTY,
  normaliseInteger,
  LuaFloat,
  LuaTable,
  typeName,
  type LuaFunction,
  type LuaValue,
  shownType,
} from "../value.js"
import { argError, checkAny, checkInteger, checkTable } from "./args.js"

/** `ipairs`' iterator; generic `for` recognises it and walks the table directly. */
export const ipairsIterator: LuaFunction = function (t: LuaValue, i: LuaValue) {
  const k = typeof i === "number" && i < Number.MAX_SAFE_INTEGER ? i + 1 : intAdd(checkInteger(i, 2, "ipairs"), 1)
  const v = t instanceof LuaTable ? t.get(k) : index(t, k, rt.site, "")
  return v === undefined ? undefined : [k, v]
}

/** The last `next` traversal of a string-keyed part, so that a `while`-loop over `next` stays linear. */
const cursor: { table: LuaTable | undefined; keys: ReadonlyArray<string>; index: number } = {
  table: undefined,
  keys: [],
  index: 0,
}

/** Forget the last traversal (at the start of every run: no table of an earlier run stays reachable). */
export const resetNext = (): void => {
  cursor.table = undefined
  cursor.keys = []
  cursor.index = 0
}

/** The error `error(v, level)` raises: `v`, a message string prefixed with the position `level` names. */
const raised = (v: LuaValue, level: LuaValue): LuaError => {
  const site = rt.site
  const lvl = level === undefined ? 1 : Number(checkInteger(level, 2, "error"))
  // Level 1 is the function that called error: a library function (pcall, xpcall) when the site is negative,
  // which has no position; then the running Lua function (at its current line), then its callers.
  const viaLibrary = site < 0 ? 1 : 0
  const j = lvl - viaLibrary
  let at = 0
  if (j === 1) at = Math.abs(site)
  else if (j >= 2) {
    const d = rt.depth - j + 2
    at = d >= 1 && d <= rt.depth ? callSites[d] : 0
  }
  const value = typeof v === "string" && lvl > 0 ? where(at) + v : v
  return new LuaError(value, locationOf(at) ?? locationOf(site))
}

/** Lua's `next`: the entry after `key`: the array part first, then string keys, then other keys. */
export const next: LuaFunction = function (t: LuaValue, key: LuaValue) {
  const table = checkTable(t, 1, "next", arguments.length >= 1)
  const arr = table.arr
  let i = 0
  if (key !== undefined) {
    const k = normaliseKey(key)
    if (typeof k === "string") return nextField(table, k)
    if (typeof k === "number" && Number.isSafeInteger(k) && k >= 1 && k <= arr.length) i = k
    else return nextInHash(table, k)
  }
  for (; i < arr.length; i++) if (arr[i] !== undefined) return [i + 1, arr[i]]
  cursor.table = undefined // a traversal of the string keys starts here: take a fresh snapshot
  return fieldFrom(table, fieldKeys(table), 0)
}

const fieldKeys = (table: LuaTable): ReadonlyArray<string> => {
  if (cursor.table === table) return cursor.keys
  const keys = table.keys()
  charge(1 + keys.length)
  cursor.table = table
  cursor.keys = keys
  cursor.index = 0
  return keys
}

/** The first string key at or after position `from` of `keys` that still has a value, else the hash part. */
const fieldFrom = (table: LuaTable, keys: ReadonlyArray<string>, from: number): LuaValue | Array<LuaValue> => {
  const fields = table.fields
  for (let i = from; i < keys.length; i++) {
    const v = fields[keys[i]]
    if (v !== undefined) {
      cursor.index = i
      return [keys[i], v]
    }
  }
  return firstInHash(table)
}

const nextField = (table: LuaTable, key: string): LuaValue | Array<LuaValue> => {
  let keys = fieldKeys(table)
  let at = keys[cursor.index] === key ? cursor.index : keys.indexOf(key)
  if (at < 0) {
    cursor.table = undefined
    keys = fieldKeys(table)
    at = keys.indexOf(key)
    if (at < 0) throw errorAt("invalid key to 'next'", -Math.abs(rt.site))
  }
  return fieldFrom(table, keys, at + 1)
}

const firstInHash = (table: LuaTable): LuaValue | Array<LuaValue> => {
  const h = table.hash
  if (h !== undefined) for (const [k, v] of h) if (v !== undefined) return [k, v]
  return undefined
}

const nextInHash = (table: LuaTable, key: LuaValue): LuaValue | Array<LuaValue> => {
  const h = table.hash
  if (h !== undefined) {
    // the hash part is searched from its start for the key: every entry passed is charged
    let found = false
    let scanned = 0
    for (const [k, v] of h) {
      scanned++
      if (found && v !== undefined) {
        charge(scanned)
        return [k, v]
      }
      if (luaEquals(k, key)) found = true
    }
    charge(1 + scanned)
    if (found) return undefined
  }
  throw errorAt("invalid key to 'next'", -Math.abs(rt.site))
}

/** Lua's `lisspace`: space, tab, newline, vertical tab, form feed, carriage return. */
const isSpace = (c: number): boolean => c === 32 || (c >= 9 && c <= 13)

/**
 * The value of a decimal integer numeral of at most 15 digits (an optional sign, surrounding whitespace allowed), the
 * usual argument of `tonumber`, read without a regular expression; undefined for any other string (which
 * {@link stringToNumber} then reads).
 */
const shortDecimal = (s: string): number | undefined => {
  const len = s.length
  let i = 0
  while (i < len && isSpace(s.charCodeAt(i))) i++
  const sign = s.charCodeAt(i)
  if (sign === 45 || sign === 43) i++
  const from = i
  let n = 0
  for (; i < len; i++) {
    const d = s.charCodeAt(i) - 48
    if (d < 0 || d > 9) break
    n = n * 10 + d
  }
  if (i === from || i - from > 15) return undefined
  while (i < len && isSpace(s.charCodeAt(i))) i++
  if (i !== len) return undefined
  return sign === 45 && n !== 0 ? -n : n
}

/** `tonumber(s, base)` for an explicit base: digits and letters, an optional minus, wrapping at 64 bits. */
const toNumberInBase = (s: string, base: number): LuaValue => {
  const t = s.replace(/^[ \t\n\v\f\r]+|[ \t\n\v\f\r]+$/g, "")
  const neg = t.startsWith("-")
  const digits = neg || t.startsWith("+") ? t.slice(1) : t
  if (digits.length === 0) return undefined
  let n = 0n
  const b = BigInt(base)
  for (const ch of digits.toLowerCase()) {
    const d = ch >= "0" && ch <= "9" ? ch.charCodeAt(0) - 48 : ch >= "a" && ch <= "z" ? ch.charCodeAt(0) - 87 : 99
    if (d >= base) return undefined
    n = BigInt.asUintN(64, n * b + BigInt(d))
  }
  return normaliseInteger(neg ? -n : n)
}

/** The error of `pcall(v)` for a value that is not a function: Lua gives no position (pcall is a C function). */
const notCallable = (fn: LuaValue, site: number): LuaError =>
  new LuaError(`attempt to call a ${shownType(fn)} value`, locationOf(site))

/** `true` and the results `r` of a protected call that returned. */
const succeeded = (r: LuaValue | Array<LuaValue>): Array<LuaValue> => {
  if (!Array.isArray(r)) return [true, r]
  const out = new Array<LuaValue>(r.length + 1)
  out[0] = true
  for (let i = 0; i < r.length; i++) out[i + 1] = r[i]
  return out
}

/** How often an error in an `xpcall` handler goes back to the handler before "error in error handling". */
const MAX_HANDLER_ERRORS = 200

/** Build the basic library into `G`. `log` receives `print`'s lines. */
export const installBase = (G: LuaTable, log: (line: string) => void): void => {
  const def = (name: string, fn: LuaFunction) => G.setStr(name, fn)

  def("print", function (...args: Array<LuaValue>) {
    let line = ""
    for (let i = 0; i < args.length; i++) {
      const piece = tostring(args[i])
      checkStringLength(line.length + piece.length + 1)
      line += (i > 0 ? "\t" : "") + piece
    }
    charge(1 + line.length)
    log(line)
    return EMPTY
  })

  // warn: off until "@on", as in the standalone lua; when on, a warning is a log line.
  let warnings = false
  def("warn", function (...args: Array<LuaValue>) {
    if (args.length === 0) throw argError(1, "warn", "string expected, got no value")
    let message = ""
    for (let i = 0; i < args.length; i++) {
      const a = args[i]
      if (typeof a !== "string" && typeof a !== "number" && typeof a !== "bigint" && !(a instanceof LuaFloat))
        throw argError(i + 1, "warn", `string expected, got ${shownType(a)}`)
      message += tostring(a)
    }
    if (args.length === 1 && message === "@on") warnings = true
    else if (args.length === 1 && message === "@off") warnings = false
    else if (warnings && !(args.length === 1 && message.startsWith("@"))) log(`Lua warning: ${message}`)
    return EMPTY
  })

  def("type", function (v: LuaValue) {
    checkAny(arguments.length >= 1, 1, "type")
    return typeName(v)
  })

  def("tostring", function (v: LuaValue) {
    checkAny(arguments.length >= 1, 1, "tostring")
    return tostring(v)
  })

  def("tonumber", function (v: LuaValue, base: LuaValue) {
    if (base === undefined) {
      checkAny(arguments.length >= 1, 1, "tonumber")
      if (typeof v === "number" || typeof v === "bigint" || v instanceof LuaFloat) return v
      if (typeof v !== "string") return undefined
      charge(1 + v.length)
      const n = shortDecimal(v)
      return n !== undefined ? n : stringToNumber(v)
    }
    const b = checkInteger(base, 2, "tonumber")
    if (typeof v !== "string") throw argError(1, "tonumber", `string expected, got ${shownType(v)}`)
    if (b < 2 || b > 36) throw argError(2, "tonumber", "base out of range")
    charge(1 + v.length)
    return toNumberInBase(v, Number(b))
  })

  // The arguments after the function are read from `arguments` (no array of them is made for up to three).
  def("pcall", function (fn: LuaValue) {
    const n = arguments.length
    checkAny(n >= 1, 1, "pcall")
    const depth = rt.depth
    const site = rt.site
    try {
      if (typeof fn !== "function") throw notCallable(fn, site)
      // The function is called by pcall, not by Lua code: its errors get no position prefix (see locationOf).
      rt.site = -Math.abs(site)
      let r: LuaValue | Array<LuaValue>
      if (n === 1) r = fn()
      else if (n === 2) r = fn(arguments[1])
      else if (n === 3) r = fn(arguments[1], arguments[2])
      else if (n === 4) r = fn(arguments[1], arguments[2], arguments[3])
      else {
        const args = new Array<LuaValue>(n - 1)
        for (let i = 1; i < n; i++) args[i - 1] = arguments[i]
        r = fn(...args)
      }
      return succeeded(r)
    } catch (e) {
      if (!(e instanceof LuaError)) throw e
      rt.depth = depth
      if (e.location === undefined) e.location = locationOf(site)
      return [false, e.value]
    }
  })

  def("xpcall", function (fn: LuaValue, handler: LuaValue, ...args: Array<LuaValue>) {
    if (typeof handler !== "function")
      throw argError(2, "xpcall", `function expected, got ${arguments.length >= 2 ? shownType(handler) : "no value"}`)
    const depth = rt.depth
    const site = rt.site
    try {
      if (typeof fn !== "function") throw notCallable(fn, site)
      rt.site = -Math.abs(site)
      return succeeded(fn(...args))
    } catch (e) {
      if (!(e instanceof LuaError)) throw e
      // The handler gets the error; an error in the handler goes to the handler again, as in Lua, until Lua would
      // run out of C stack and report "error in error handling".
      let value = e.value
      for (let attempt = 0; attempt < MAX_HANDLER_ERRORS; attempt++) {
        rt.depth = depth
        rt.site = -Math.abs(site)
        try {
          const r = handler(value)
          rt.site = site
          return [false, Array.isArray(r) ? r[0] : r]
        } catch (again) {
          if (!(again instanceof LuaError)) throw again
          value = again.value
        }
      }
      rt.depth = depth
      rt.site = site
      return [false, "error in error handling"]
    }
  })

  // `error` only throws what `raised` makes: V8 gives a function type feedback (and optimises it) as it returns, so
  // one that always throws would run unoptimised and without inline caches for as long as the program runs.
  def("error", function (v: LuaValue, level: LuaValue) {
    throw raised(v, level)
  })

  def("assert", function (...args: Array<LuaValue>) {
    if (args.length === 0) throw argError(1, "assert", "value expected")
    const v = args[0]
    if (v !== undefined && v !== false) return args.length === 1 ? v : args
    const message = args.length >= 2 ? args[1] : "assertion failed!"
    const site = rt.site
    throw new LuaError(typeof message === "string" ? where(site) + message : message, locationOf(site))
  })

  // The values after `n` are read from `arguments` (no array of them is made); a single result is returned as
  // itself, not in an array.
  def("select", function (n: LuaValue) {
    const count = arguments.length > 0 ? arguments.length - 1 : 0
    charge(1 + count)
    if (n === "#") return count
    const i = checkInteger(n, 1, "select", arguments.length >= 1)
    let from: number
    if (i < 0) {
      if (-i > count) throw argError(1, "select", "index out of range")
      from = count + Number(i) + 1
    } else {
      if (i === 0) throw argError(1, "select", "index out of range")
      if (i > count) return EMPTY
      from = Number(i)
    }
    if (from === count) return arguments[count]
    const out = new Array<LuaValue>(count + 1 - from)
    for (let k = from; k <= count; k++) out[k - from] = arguments[k]
    return out
  })

  def("ipairs", function (t: LuaValue) {
    checkAny(arguments.length >= 1, 1, "ipairs")
    checkTable(t, 1, "ipairs")
    if ((t as LuaTable).jsonObject)
      warnAt(
        "InvalidDataValue",
        "ipairs over a table that came from a JSON object yields nothing: its keys are strings, it has no items 1..n (use pairs)",
        rt.site,
      )
    return [ipairsIterator, t, 0]
  })

  def("pairs", function (t: LuaValue) {
    checkTable(t, 1, "pairs", arguments.length >= 1)
    return [next, t, undefined]
  })

  def("next", next)

  def("rawequal", function (a: LuaValue, b: LuaValue) {
    checkAny(arguments.length >= 1, 1, "rawequal")
    checkAny(arguments.length >= 2, 2, "rawequal")
    return luaEquals(a, b)
  })

  def("rawlen", function (v: LuaValue) {
    if (v instanceof LuaTable) return v.arr.length
    if (typeof v === "string") return v.length
    throw argError(1, "rawlen", `table or string expected, got ${arguments.length >= 1 ? shownType(v) : "no value"}`)
  })

  def("rawget", function (t: LuaValue, k: LuaValue) {
    const table = checkTable(t, 1, "rawget", arguments.length >= 1)
    checkAny(arguments.length >= 2, 2, "rawget")
    return table.get(normaliseKey(k))
  })

  def("rawset", function (t: LuaValue, k: LuaValue, v: LuaValue) {
    const table = checkTable(t, 1, "rawset", arguments.length >= 1)
    checkAny(arguments.length >= 2, 2, "rawset")
    checkAny(arguments.length >= 3, 3, "rawset")
    setIndex(table, k, v, rt.site, "")
    return table
  })
}
