/**
 * Array storage, counted by what is really stored.
 *
 * A program array is a host array, and the host engine stores it either densely (a backing store as long as the
 * array, which grows by copying into one half as long again) or, once it has large holes, as a dictionary of the
 * elements present. The interpreter's element bound applies to dense storage: an array cannot grow densely past
 * `MAX_ARRAY_LENGTH` elements, and every growth of a large backing store is checked against the heap first. Holes
 * cost nothing: `a[1e7] = 1` or `a.length = 2 ** 31` makes a sparse array, which the interpreter pins to dictionary
 * storage (the engine would otherwise turn a dense enough dictionary back into one backing store as long as the
 * array, in one allocation); the elements written into sparse arrays are counted per execution against
 * `MAX_SPARSE_ELEMENTS`.
 */
import { MAX_ARRAY_LENGTH } from "../limits.js"
import { fatal, throwRangeError } from "./errors.js"
import type { Value } from "./functions.js"
import {
  arrayTooLong,
  ELEMENT_BYTES,
  ENTRY_BYTES,
  MAX_ARRAY_INDEX_LENGTH,
  reserveElements,
  reserveHeap,
} from "./memory.js"
import { rt } from "./state.js"

/** Element writes below this index are never checked (their storage is small). */
export const CHECKED_INDEX = 1 << 16

/** A write further than this past the end of an array makes the host store it as a dictionary (the host's rule). */
const MAX_GAP = 1024

/** The highest array index; writing it pins an array to dictionary storage. */
const LAST_INDEX = MAX_ARRAY_INDEX_LENGTH - 1

/**
 * Elements one execution may write into sparse arrays (arrays longer than the dense bound). A dictionary element
 * takes about ten times the memory of a dense one, so this many fill a good part of a sandbox heap.
 */
export const MAX_SPARSE_ELEMENTS = 1024 * 1024

let sparseElements = 0
let largeWrites = 0

/** How many elements this execution has written into sparse arrays. */
export const sparseElementCount = (): number => sparseElements

/** Forget the previous execution's counts. */
export const resetArrayStorage = (): void => {
  sparseElements = 0
  largeWrites = 0
}

const hasOwn = Object.prototype.hasOwnProperty

/**
 * Pin `a` to dictionary storage before its length grows past the dense bound. Converting a dense array costs about
 * one dictionary entry per element, checked first.
 */
const makeSparse = (a: Value[], length: number): void => {
  if (hasOwn.call(a, LAST_INDEX) || !Object.isExtensible(a)) return
  if (!Object.getOwnPropertyDescriptor(a, "length")!.writable) return
  if (length <= MAX_ARRAY_LENGTH) reserveHeap(length * ENTRY_BYTES)
  // An element with non-default attributes keeps the engine from ever going back to a dense backing store; shrinking
  // the length removes it again.
  Object.defineProperty(a, LAST_INDEX, { value: undefined, writable: false, enumerable: false, configurable: true })
  a.length = length
}

/** Count a new element of a sparse array. */
const noteSparseElement = (a: Value[], index: number): void => {
  if (hasOwn.call(a, index)) return
  sparseElements++
  if (sparseElements > MAX_SPARSE_ELEMENTS) {
    fatal(
      "ExecutionFailure",
      `Array length limit exceeded: sparse arrays hold more than ${MAX_SPARSE_ELEMENTS} elements in this execution`,
      rt.loc,
    )
  }
  if ((sparseElements & 0xffff) === 0) reserveHeap(sparseElements * ENTRY_BYTES)
}

/**
 * Check `a[index] = v` before it happens, for an `index` of at least `CHECKED_INDEX`: dense growth past the bound is
 * refused, large growth is checked against the heap, a write far past the end makes a sparse array. Keys that are
 * not array indices are ordinary properties and pass.
 */
export const checkArrayWrite = (a: Value[], index: number): void => {
  const length = a.length
  if (index < length) {
    if (length > MAX_ARRAY_LENGTH) noteSparseElement(a, index)
    else if ((++largeWrites & 0xffff) === 0) reserveHeap(length * ELEMENT_BYTES)
    return
  }
  if (!(index < MAX_ARRAY_INDEX_LENGTH) || index % 1 !== 0) return
  if (length > MAX_ARRAY_LENGTH) return noteSparseElement(a, index)
  if (index - length <= MAX_GAP) {
    if (index >= MAX_ARRAY_LENGTH) arrayTooLong(index + 1)
    // A full backing store is copied into one half as long again.
    if (index >>> 16 !== length >>> 16) reserveHeap(index * ELEMENT_BYTES * 1.5)
    return
  }
  if (index >= MAX_ARRAY_LENGTH) makeSparse(a, length)
  else reserveHeap(length * ENTRY_BYTES)
  noteSparseElement(a, index)
}

/** Check that `count` more elements can be appended to `a` (push, unshift, splice) before the host does it. */
export const checkArrayGrowth = (a: Value[], count: number): void => {
  const length = a.length
  if (count <= 0) return
  if (length > MAX_ARRAY_LENGTH) {
    if (length + count > MAX_ARRAY_INDEX_LENGTH) return
    for (let i = 0; i < count; i++) noteSparseElement(a, length + i)
    return
  }
  const end = length + count
  if (end > MAX_ARRAY_LENGTH) arrayTooLong(end)
  if (end >= CHECKED_INDEX && (end >>> 16 !== length >>> 16 || count >= CHECKED_INDEX)) {
    reserveHeap(end * ELEMENT_BYTES * 1.5)
  }
}

/**
 * `Array.prototype.push` of one value onto a program array below the index bound: the growth check, then the store.
 * Returns the new length, or -1 when `a` is not such an array (the caller then takes the built-in's general path).
 */
export const appendOne = (a: Value, v: Value): number => {
  if (!Array.isArray(a)) return -1
  const n = a.length
  if (!(n + 1 < MAX_ARRAY_INDEX_LENGTH)) return -1
  checkArrayGrowth(a, 1)
  a[n] = v
  return a.length
}

/** `ToUint32`-checked array length (`ArraySetLength`'s conversion): a `RangeError` unless `value` is a valid length. */
export const toArrayLength = (value: Value, toNumber: (v: Value) => number): number => {
  const n = typeof value === "number" ? value : toNumber(value)
  const length = n >>> 0
  const again = typeof value === "number" ? n : toNumber(value)
  if (length !== again) return throwRangeError("Invalid array length")
  return length
}

/**
 * Give `a` the length `length` (already a valid array length). Growing below the dense bound allocates the backing
 * store at once (checked); growing past it makes a sparse array, which allocates nothing.
 */
export const setArrayLength = (a: Value[], length: number): void => {
  const current = a.length
  if (length > current) {
    if (length > MAX_ARRAY_LENGTH) makeSparse(a, current)
    else reserveElements(length)
  }
  a.length = length
}

/** A new program array of `length` holes (`new Array(length)`), sparse past the dense bound. */
export const newHoleyArray = (length: number): Value[] => {
  const a = new rt.realm.SA()
  if (length > 0) setArrayLength(a, length)
  return a
}
