/**
 * The arrays that array built-ins create and fill: sized and checked before they are filled, elements defined the
 * way the language creates arrays (no setter inherited from a prototype ever runs), dense while they fit the
 * element bound and sparse past it.
 */
import { MAX_ARRAY_LENGTH } from "../limits.js"
import { CHECKED_INDEX, setArrayLength } from "../runtime/arrays.js"
import type { Value } from "../runtime/functions.js"
import { checkListGrowth } from "../runtime/iterators.js"
import { arrayTooLong, reserveElements } from "../runtime/memory.js"
import { noteElementWrite } from "../runtime/properties.js"
import type { Realm } from "../runtime/realm.js"

/** Bytes per element reserved for a result filled in place: the backing store and one growth copy. */
const RESULT_ELEMENT_BYTES = 12

/** `CreateDataPropertyOrThrow(o, key, v)`. */
export const defineElement = (o: Value, key: PropertyKey, v: Value): void => {
  Object.defineProperty(o, key, { value: v, writable: true, enumerable: true, configurable: true })
}

/**
 * A new array being filled by a built-in. While the realm's prototypes have no elements it is a realm array filled
 * by assignment (host speed); otherwise it is a host list, adopted by `finish`, so an inherited setter never runs.
 * Nothing else may see the array before `finish`.
 */
export class ArrayResult {
  out: Value[]
  /** True while `out` is a host list (to be adopted). */
  private host: boolean
  private sparse = false
  /** Indices below this have room (a result this small needs no check: it is far below `LARGE_ALLOCATION`). */
  private reserved = CHECKED_INDEX

  /** `SA` is the realm's array class, passed by callers that captured it (a constructor read from a property per
   * call keeps the host from inlining the allocation). */
  constructor(
    private readonly realm: Realm,
    private readonly SA: new (length?: number) => Value[],
  ) {
    this.host = realm.protoElements
    this.out = this.host ? [] : new SA()
  }

  /** Make room for the indices below `end` before they are written: checked dense storage, or sparse past the bound. */
  room(end: number): void {
    if (end <= this.reserved || this.sparse) {
      if (!this.sparse) this.presize(end)
      return
    }
    if (end <= MAX_ARRAY_LENGTH) {
      // Checked in steps of at least 64 Ki elements, so that making room one element at a time stays cheap.
      const target = Math.min(MAX_ARRAY_LENGTH, Math.max(end, this.reserved + 65536))
      reserveElements(target, RESULT_ELEMENT_BYTES)
      this.reserved = target
      this.presize(end)
      return
    }
    // Past the bound the result can only be sparse: one already holding many elements is dense, and refused.
    if (this.out.length > CHECKED_INDEX) arrayTooLong(end)
    const out = this.adopted()
    setArrayLength(out, end)
    this.out = out
    this.sparse = true
  }

  /**
   * Size a dense result before a large fill: a store past the end of an array whose prototype is not the host's is
   * several times slower than one inside it. Small steps (one element at a time) are left to the stores themselves,
   * which grow the storage geometrically.
   */
  private presize(end: number): void {
    if (end <= 2 * this.out.length + 16) return
    // A new array sized by its constructor is several times faster to make than one whose length is then set.
    if (this.out.length === 0) this.out = this.host ? new Array(end) : new this.SA(end)
    else this.out.length = end
  }

  /** Write element `i` (inside the room made for it). */
  put(i: number, v: Value): void {
    if (!this.sparse) {
      this.out[i] = v
      return
    }
    noteElementWrite(this.out, i)
    if (this.realm.protoElements) defineElement(this.out, i, v)
    else this.out[i] = v
  }

  /** Append `v` to a compact result, checking growth as it goes. */
  push(v: Value): void {
    const out = this.out
    const n = out.length
    if ((n & 0xffff) === 0 && n > 0) checkListGrowth(n)
    out[n] = v
  }

  /** The finished program array, `length` long (default: as filled). */
  finish(length?: number): Value[] {
    const out = this.adopted()
    if (length !== undefined && out.length !== length) setArrayLength(out, length)
    return out
  }

  private adopted(): Value[] {
    if (!this.host) return this.out
    this.host = false
    this.out = this.realm.adoptArray(this.out)
    return this.out
  }
}
