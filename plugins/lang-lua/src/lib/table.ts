/**
 * The table library: `insert`, `remove`, `concat`, `sort`, `unpack`, `pack`, `move`. Sorting follows the reference
 * implementation's quicksort step by step, so results for consistent comparators match it, and an inconsistent
 * comparator is reported as "invalid order function for sorting" where it would be; only arrays of plain numbers or
 * of strings without a comparator, whose sorted order is unique, take the engine's sort.
 */
import { lessThan } from "../numbers.js"
import { concatPiece, tableFull } from "../ops.js"
import { charge, checkStringLength, errorAt, libError, MAX_RESULTS, MAX_STRING_BYTES, rt } from "../runtime.js"
import {
  EMPTY,
  LuaTable,
  MAX_INTEGER,
  MAX_TABLE_ENTRIES,
  normaliseInteger,
  type LuaFunction,
  type LuaValue,
  shownType,
} from "../value.js"
import { argError, checkFunction, checkInteger, checkPosition, checkTable, optString } from "./args.js"

/** Build the table library table. */
export const createTableLib = (): LuaTable => {
  const T = new LuaTable()
  const def = (name: string, fn: LuaFunction) => T.setStr(name, fn)

  def("insert", function (t: LuaValue, a: LuaValue, b: LuaValue) {
    const table = checkTable(t, 1, "table.insert", arguments.length >= 1)
    const n = table.arr.length
    if (arguments.length === 2) {
      if (!table.setInt(n + 1, a)) throw tableFull(rt.site)
      return EMPTY
    }
    if (arguments.length !== 3) throw libError("wrong number of arguments to 'insert'")
    const pos = checkPosition(a, 2, "table.insert")
    if (pos < 1 || pos > n + 1) throw argError(2, "table.insert", "position out of bounds")
    charge(1 + (n - pos))
    if (!table.insertAt(pos, b)) throw tableFull(rt.site)
    return EMPTY
  })

  def("remove", function (t: LuaValue, p: LuaValue) {
    const table = checkTable(t, 1, "table.remove", arguments.length >= 1)
    const size = table.arr.length
    const pos = p === undefined ? size : checkInteger(p, 2, "table.remove")
    // Lua 5.4.4 (the reference here) names argument #1 in this message.
    if (pos !== size && !(pos >= 1 && pos <= size + 1)) throw argError(1, "table.remove", "position out of bounds")
    const at = Number(pos)
    if (at >= 1 && at <= size) {
      charge(1 + (size - at))
      return table.removeAt(at)
    }
    const v = table.get(pos)
    table.set(pos, undefined)
    return v
  })

  def("concat", function (t: LuaValue, sep: LuaValue, i: LuaValue, j: LuaValue) {
    const table = checkTable(t, 1, "table.concat", arguments.length >= 1)
    const separator = optString(sep, 2, "table.concat", "")
    const first = i === undefined ? 1 : checkInteger(i, 3, "table.concat")
    const last = j === undefined ? table.arr.length : checkInteger(j, 4, "table.concat")
    if (first > last) return ""
    const n = count(first, last)
    if (n > MAX_TABLE_ENTRIES) throw libError("resulting string too large")
    const arr = table.arr
    if (typeof first === "number" && typeof last === "number" && first >= 1 && last <= arr.length) {
      // Items of the array part that are all strings are joined where they are (no copy of them is made); at the
      // first other item, the general loop below starts over (it converts numbers and raises the errors).
      let total = 0
      let k = first - 1
      for (; k < last; k++) {
        const v = arr[k]
        if (typeof v !== "string") break
        total += v.length + separator.length
        if (total > MAX_STRING_BYTES + separator.length) checkStringLength(total - separator.length)
      }
      if (k === last) {
        checkStringLength(total - separator.length)
        charge(1 + n * 4 + total)
        return (first === 1 && last === arr.length ? arr : arr.slice(first - 1, last)).join(separator)
      }
    }
    const pieces = new Array<string>(n)
    let total = 0
    for (let k = 0; k < n; k++) {
      const key = offset(first, k)
      const v = table.get(key)
      const piece = concatPiece(v)
      if (piece === undefined)
        throw libError(`invalid value (${shownType(v)}) at index ${String(key)} in table for 'concat'`)
      pieces[k] = piece
      total += piece.length + separator.length
      if (total > MAX_STRING_BYTES + separator.length) checkStringLength(total - separator.length)
    }
    checkStringLength(total - separator.length)
    charge(1 + pieces.length * 4 + total)
    return pieces.join(separator)
  })

  def("unpack", function (t: LuaValue, i: LuaValue, j: LuaValue) {
    const table = checkTable(t, 1, "table.unpack", arguments.length >= 1)
    const first = i === undefined ? 1 : checkInteger(i, 2, "table.unpack")
    const last = j === undefined ? table.arr.length : checkInteger(j, 3, "table.unpack")
    if (first > last) return EMPTY
    const n = count(first, last)
    if (n > MAX_RESULTS) throw libError("too many results to unpack")
    charge(1 + n)
    if (first === 1 && last === table.arr.length) return table.arr.slice()
    const out = new Array<LuaValue>(n)
    for (let k = 0; k < n; k++) out[k] = table.get(offset(first, k))
    return out
  })

  def("pack", function (...args: Array<LuaValue>) {
    charge(1 + args.length)
    const t = new LuaTable()
    t.arr = args
    let n = args.length
    while (n > 0 && args[n - 1] === undefined) n--
    if (n < args.length) args.length = n
    t.setStr("n", arguments.length)
    return t
  })

  def("move", function (a1: LuaValue, f: LuaValue, e: LuaValue, t: LuaValue, a2: LuaValue) {
    const src = checkTable(a1, 1, "table.move", arguments.length >= 1)
    const from = BigInt(checkInteger(f, 2, "table.move", arguments.length >= 2))
    const end = BigInt(checkInteger(e, 3, "table.move", arguments.length >= 3))
    const to = BigInt(checkInteger(t, 4, "table.move", arguments.length >= 4))
    const dst = a2 === undefined ? src : checkTable(a2, 5, "table.move")
    if (end >= from) {
      // Lua 5.4's checks, on 64-bit integers.
      if (!(from > 0n || end < MAX_INTEGER + from)) throw argError(3, "table.move", "too many elements to move")
      const n = end - from
      if (to > MAX_INTEGER - n) throw argError(4, "table.move", "destination wrap around")
      const site = rt.site
      const forward = to > end || to <= from || dst !== src
      // Every element moved is charged (in chunks): a range far larger than any table ends at the work bound.
      for (let k = 0n; k <= n; k++) {
        if ((k & 0xffn) === 0n) charge(256)
        const d = forward ? k : n - k
        const key = normaliseInteger(from + d)
        const target = normaliseInteger(to + d)
        if (!dst.set(target, src.get(key))) throw tableFull(site)
      }
    }
    return dst
  })

  def("sort", function (t: LuaValue, comp: LuaValue) {
    const table = checkTable(t, 1, "table.sort", arguments.length >= 1)
    const site = rt.site
    const n = table.arr.length
    if (n > 1) {
      const cmp = comp === undefined ? undefined : checkFunction(comp, 2, "table.sort")
      if (cmp === undefined && sortUniform(table.arr)) return EMPTY
      const less: (a: LuaValue, b: LuaValue) => boolean =
        cmp === undefined
          ? (a, b) => {
              if (typeof a === "number" && typeof b === "number") return a < b
              if (typeof a === "string" && typeof b === "string") {
                // comparing long strings reads up to the shorter one's length
                if (a.length > 256 && b.length > 256) charge(Math.min(a.length, b.length) >> 4)
                return a < b
              }
              return lessThan(a, b, -Math.abs(site))
            }
          : (a, b) => {
              rt.site = site
              const r = cmp(a, b)
              const v = Array.isArray(r) ? r[0] : r
              return v !== undefined && v !== false
            }
      sortArray(table.arr, less, site)
      if (table.arr[n - 1] === undefined) table.setInt(n, undefined)
    }
    return EMPTY
  })

  return T
}

/** The number of integers from `first` to `last` (`first <= last`), capped just past any bound that uses it. */
const count = (first: number | bigint, last: number | bigint): number => {
  if (typeof first === "number" && typeof last === "number") return last - first + 1
  const n = BigInt(last) - BigInt(first) + 1n
  return n > 0x7fffffffn ? 0x7fffffff : Number(n)
}

/** The table key `first + k` as a normalised integer. */
const offset = (first: number | bigint, k: number): number | bigint =>
  typeof first === "number" && Number.isSafeInteger(first + k) ? first + k : normaliseInteger(BigInt(first) + BigInt(k))

/**
 * Sort `a` in place with the engine's own sort when every item is a plain number (no NaN) or every item is a string,
 * and say whether it did. For such items `<` is a total order under which equal items are the same value, so every
 * correct sort, Lua's quicksort included, gives the same result. The work charged is what a quicksort's comparisons
 * cost: `n log2 n` steps, and for strings longer than 256 bytes the bytes a comparison reads, as the general path
 * charges them.
 */
const sortUniform = (a: Array<LuaValue>): boolean => {
  const n = a.length
  const kind = typeof a[0]
  if (kind !== "number" && kind !== "string") return false
  let long = 0
  for (let i = 0; i < n; i++) {
    const v = a[i]
    if (typeof v !== kind || v !== v) return false
    if (kind === "string" && (v as string).length > 256) long += (v as string).length >> 4
  }
  const rounds = Math.ceil(Math.log2(n))
  charge(n * rounds + long * rounds)
  if (kind === "string") {
    a.sort()
    return true
  }
  const sorted = Float64Array.from(a as Array<number>).sort()
  for (let i = 0; i < n; i++) a[i] = sorted[i]
  return true
}

/** Lua's quicksort over `a` (1-based positions mapped to `a[i - 1]`). */
const sortArray = (a: Array<LuaValue>, less: (x: LuaValue, y: LuaValue) => boolean, site: number): void => {
  const invalid = () => errorAt("invalid order function for sorting", site)
  let seed = 0x2545f491
  const random = () => {
    seed ^= seed << 13
    seed ^= seed >>> 17
    seed ^= seed << 5
    return seed >>> 0
  }
  const swap = (i: number, j: number) => {
    const x = a[i - 1]
    a[i - 1] = a[j - 1]
    a[j - 1] = x
  }
  const cmp = (i: number, j: number) => {
    charge(1)
    return less(a[i - 1], a[j - 1])
  }
  const partition = (lo: number, up: number): number => {
    let i = lo
    let j = up - 1
    const pivot = a[up - 2]
    for (;;) {
      while ((charge(1), less(a[++i - 1], pivot))) {
        if (i === up - 1) throw invalid()
      }
      while ((charge(1), less(pivot, a[--j - 1]))) {
        if (j < i) throw invalid()
      }
      if (j < i) {
        swap(up - 1, i)
        return i
      }
      swap(i, j)
    }
  }
  const auxsort = (lo: number, up: number, rnd: number): void => {
    while (lo < up) {
      if (cmp(up, lo)) swap(lo, up)
      if (up - lo === 1) break
      let p: number
      if (up - lo < 100 || rnd === 0) p = Math.floor((lo + up) / 2)
      else {
        const r4 = Math.floor((up - lo) / 4)
        p = (rnd % (r4 * 2)) + (lo + r4)
      }
      if (cmp(p, lo)) swap(p, lo)
      else if (cmp(up, p)) swap(p, up)
      if (up - lo === 2) break
      swap(p, up - 1)
      p = partition(lo, up)
      let n: number
      if (p - lo < up - p) {
        auxsort(lo, p - 1, rnd)
        n = p - lo
        lo = p + 1
      } else {
        auxsort(p + 1, up, rnd)
        n = up - p
        up = p - 1
      }
      if ((up - lo) / 128 > n) rnd = random()
    }
  }
  auxsort(1, a.length, 0)
}
