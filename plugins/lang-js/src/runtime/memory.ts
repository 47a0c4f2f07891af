/**
 * Allocation checks: the interpreter refuses, before it allocates on a program's behalf, anything past its bounds or
 * past what the sandbox heap can still hold.
 *
 * A worker's heap limit is no boundary by itself: when an isolate runs out of heap inside one large allocation (the
 * backing store of an array of millions of elements, a long flat string, a hash table that doubles), the host engine
 * aborts the whole process instead of ending the worker. So every operation that allocates a large block for a
 * program first checks that the heap has room for it, and ends the execution with a located diagnostic otherwise;
 * the room is measured (live data only) against the same budget at which the work meter stops a program that fills
 * the heap one small object at a time. Smaller allocations are left to that meter and to the engine's own heap
 * limit, which ends the sandbox cleanly.
 */
import { heapHasRoom, outOfMemoryMessage } from "@codemode/core/sandbox"
import { MAX_ARRAY_LENGTH, MAX_STRING_LENGTH } from "../limits.js"
import { fatal, throwRangeError } from "./errors.js"
import { rt } from "./state.js"

/** Allocations smaller than this (in bytes) are not checked: the engine's own heap limit handles them. */
export const LARGE_ALLOCATION = 4 * 1024 * 1024

const MIB = 1024 * 1024

/** Bytes an array element takes in a backing store. */
export const ELEMENT_BYTES = 8

/** Bytes a string code unit takes in the worst case (two-byte strings). */
export const CHAR_BYTES = 2

/** Bytes one element of a sparse (dictionary) array or one entry of a hash table takes, growth included. */
export const ENTRY_BYTES = 56

/**
 * The host engine's longest string. A longer result is the language's own `RangeError` ("Invalid string length"),
 * catchable, exactly where Node throws it; results between the interpreter's bound and this one are refused by the
 * bound.
 */
export const HOST_MAX_STRING_LENGTH = 2 ** 29 - 24

/** The largest array length the language allows (`2 ** 32 - 1`). */
export const MAX_ARRAY_INDEX_LENGTH = 4294967295

/**
 * Fail unless the sandbox heap can take an allocation of `bytes` bytes (small allocations are not checked), measured
 * by core's `heapHasRoom`: the budget at which the work meter stops a program, live data only (it collects the heap
 * once before it says no).
 */
export const reserveHeap = (bytes: number): void => {
  if (bytes < LARGE_ALLOCATION || heapHasRoom(bytes)) return
  fatal(
    "ExecutionFailure",
    `${outOfMemoryMessage} (one operation needed about ${Math.ceil(bytes / MIB)} MiB more)`,
    rt.loc,
  )
}

/** Fail when an array would hold more elements than the interpreter allows. */
export const arrayTooLong = (length: number): never =>
  fatal("ExecutionFailure", `Array length limit exceeded: ${length} > ${MAX_ARRAY_LENGTH} elements`, rt.loc)

/** Fail when a string grows past the interpreter's bound. */
export const stringTooLong = (length: number): never =>
  fatal("ExecutionFailure", `String length limit exceeded: ${length} > ${MAX_STRING_LENGTH} characters`, rt.loc)

/** Check, before allocating, an array (or list) of `count` elements of `bytesEach` bytes. */
export const reserveElements = (count: number, bytesEach: number = ELEMENT_BYTES): void => {
  if (count > MAX_ARRAY_LENGTH) arrayTooLong(count)
  reserveHeap(count * bytesEach)
}

/**
 * Check, before building it, a string of `length` code units: past the host's longest string it is the language's
 * `RangeError`, past the interpreter's bound a fatal failure.
 */
export const reserveChars = (length: number): void => {
  if (length > HOST_MAX_STRING_LENGTH) throwRangeError("Invalid string length")
  if (length > MAX_STRING_LENGTH) stringTooLong(length)
  reserveHeap(length * CHAR_BYTES)
}
