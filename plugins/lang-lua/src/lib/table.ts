/**
 * The table library: `insert`, `remove`, `concat`, `sort`, `unpack`, `pack`, `move`. Sorting follows the reference
 * implementation's quicksort step by step, so results for consistent comparators match it, and an inconsistent
 * comparator is reported as "invalid order function for sorting" where it would be.
 */
import { lessThan } from "../numbers.js"
import { concatPiece, tableFull } from "../ops.js"
import { charge, checkStringLength, errorAt, libError, rt } from "../runtime.js"
import { LuaTable, MAX_TABLE_ENTRIES, typeName, type LuaFunction, type LuaValue } from "../value.js"
import { argError, checkFunction, checkPosition, checkTable, optPosition, optString } from "./args.js"

/** Build the table library table. */
export const createTableLib = (): LuaTable => {
  const T = new LuaTable()
  const def = (name: string, fn: LuaFunction) => T.setStr(name, fn)

  def("insert", function (t: LuaValue, a: LuaValue, b: LuaValue) {
    const table = checkTable(t, 1, "insert", arguments.length >= 1)
    const n = table.arr.length
    if (arguments.length === 2) {
      if (!table.setInt(n + 1, a)) throw tableFull(rt.site)
      return undefined
    }
    if (arguments.length !== 3) throw libError("wrong number of arguments to 'insert'")
    const pos = checkPosition(a, 2, "insert")
    if (pos < 1 || pos > n + 1) throw argError(2, "insert", "position out of bounds")
    charge(1 + ((n - pos) >> 4))
    if (!table.insertAt(pos, b)) throw tableFull(rt.site)
    return undefined
  })

  def("remove", function (t: LuaValue, p: LuaValue) {
    const table = checkTable(t, 1, "remove", arguments.length >= 1)
    const size = table.arr.length
    const pos = optPosition(p, 2, "remove", size)
    if (p !== undefined && pos !== size && (pos < 1 || pos > size + 1))
      throw argError(2, "remove", "position out of bounds")
    if (pos >= 1 && pos <= size) {
      charge(1 + ((size - pos) >> 4))
      return table.removeAt(pos)
    }
    const v = table.get(pos)
    table.set(pos, undefined)
    return v
  })

  def("concat", function (t: LuaValue, sep: LuaValue, i: LuaValue, j: LuaValue) {
    const table = checkTable(t, 1, "concat", arguments.length >= 1)
    const separator = optString(sep, 2, "concat", "")
    const first = optPosition(i, 3, "concat", 1)
    const last = optPosition(j, 4, "concat", table.arr.length)
    if (first > last) return ""
    if (last - first >= MAX_TABLE_ENTRIES) throw libError("resulting string too large")
    const pieces = new Array<string>(last - first + 1)
    let total = 0
    for (let k = first; k <= last; k++) {
      const v = table.getInt(k)
      const p = concatPiece(v)
      if (p === undefined) throw libError(`invalid value (${typeName(v)}) at index ${k} in table for 'concat'`)
      pieces[k - first] = p
      total += p.length + separator.length
    }
    checkStringLength(total - separator.length)
    charge(1 + (pieces.length >> 3) + (total >> 8))
    return pieces.join(separator)
  })

  def("unpack", function (t: LuaValue, i: LuaValue, j: LuaValue) {
    const table = checkTable(t, 1, "unpack", arguments.length >= 1)
    const first = optPosition(i, 2, "unpack", 1)
    const last = optPosition(j, 3, "unpack", table.arr.length)
    if (first > last) return []
    if (last - first >= MAX_TABLE_ENTRIES) throw libError("too many results to unpack")
    charge(1 + ((last - first) >> 4))
    if (first === 1 && last === table.arr.length) return table.arr.slice()
    const out = new Array<LuaValue>(last - first + 1)
    for (let k = first; k <= last; k++) out[k - first] = table.getInt(k)
    return out
  })

  def("pack", function (...args: Array<LuaValue>) {
    const t = new LuaTable()
    t.arr = args
    let n = args.length
    while (n > 0 && args[n - 1] === undefined) n--
    args.length = n
    t.setStr("n", arguments.length)
    return t
  })

  def("move", function (a1: LuaValue, f: LuaValue, e: LuaValue, t: LuaValue, a2: LuaValue) {
    const src = checkTable(a1, 1, "move", arguments.length >= 1)
    const from = checkPosition(f, 2, "move", arguments.length >= 2)
    const end = checkPosition(e, 3, "move", arguments.length >= 3)
    const to = checkPosition(t, 4, "move", arguments.length >= 4)
    const dst = a2 === undefined ? src : checkTable(a2, 5, "move")
    if (end >= from) {
      if (!(from > 0 || end < Number.MAX_SAFE_INTEGER + from)) throw argError(3, "move", "too many elements to move")
      const count = end - from + 1
      if (to > Number.MAX_SAFE_INTEGER - count + 1) throw argError(4, "move", "destination wrap around")
      charge(1 + (count >> 4))
      const site = rt.site
      if (to > end || to <= from || dst !== src) {
        for (let k = 0; k < count; k++) if (!dst.set(to + k, src.getInt(from + k))) throw tableFull(site)
      } else {
        for (let k = count - 1; k >= 0; k--) if (!dst.set(to + k, src.getInt(from + k))) throw tableFull(site)
      }
    }
    return dst
  })

  def("sort", function (t: LuaValue, comp: LuaValue) {
    const table = checkTable(t, 1, "sort", arguments.length >= 1)
    const site = rt.site
    const n = table.arr.length
    if (n > 1) {
      const cmp = comp === undefined ? undefined : checkFunction(comp, 2, "sort")
      const less: (a: LuaValue, b: LuaValue) => boolean =
        cmp === undefined
          ? (a, b) => {
              if (typeof a === "number" && typeof b === "number") return a < b
              if (typeof a === "string" && typeof b === "string") return a < b
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
    return undefined
  })

  return T
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
