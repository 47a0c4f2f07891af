/**
 * Memory pressure inside the sandbox. Near its heap limit V8 spends seconds in repeated full collections before it
 * gives up, so an interpreter that looks at this when it looks at the clock ends a memory bomb in about the time it
 * takes to fill the heap, with a located diagnostic, instead of waiting for the engine to abort its process.
 */
import { getHeapStatistics } from "node:v8"
import { resourceLimits } from "node:worker_threads"

/** The share of the old generation's limit past which a program is stopped. */
export const HEAP_PRESSURE_SHARE = 0.8

const MB = 1024 * 1024
/** The old generation's limit: the sandbox thread's own when it has one, else the process's heap limit. */
const limit = (() => {
  const old = resourceLimits.maxOldGenerationSizeMb
  return typeof old === "number" && old > 0 ? old * MB : getHeapStatistics().heap_size_limit
})()

/** The full collection the sandbox process exposes (`--expose-gc`); absent elsewhere. */
const collect = (globalThis as { gc?: () => void }).gc

const inUse = (): number => {
  const s = getHeapStatistics()
  return s.used_heap_size + s.external_memory
}

/**
 * True when the heap (with the memory of array buffers) is nearly full of live data. About a microsecond; call it
 * rarely. The used heap counts garbage too (another execution's, or this one's), so past the share the heap is
 * collected once and measured again: only what is still reachable stops a program.
 */
export const memoryNearlyFull = (): boolean => !heapHasRoom(0)

/**
 * True when `bytes` more fit in the heap before it is nearly full, counting live data only: when they do not fit at
 * first sight, the heap is collected once and measured again. For an interpreter's check before a large allocation.
 */
export const heapHasRoom = (bytes: number): boolean => {
  const budget = limit * HEAP_PRESSURE_SHARE
  if (inUse() + bytes <= budget) return true
  if (collect === undefined) return false
  collect()
  return inUse() + bytes <= budget
}

/** The share of the heap limit past which a run's garbage is collected before the next run starts. */
const BETWEEN_RUNS_SHARE = 0.25

/** True when {@link collectBetweenRuns} would collect now. */
export const collectionDue = (): boolean => collect !== undefined && inUse() > limit * BETWEEN_RUNS_SHARE

/**
 * Collect the garbage a finished run left when it is a large part of the heap, so that the next run on this sandbox
 * starts with the room an empty sandbox has (an allocation check measures the used heap, garbage included).
 */
export const collectBetweenRuns = (): void => {
  if (collectionDue()) collect!()
}

/** The message interpreters give when {@link memoryNearlyFull} stops a program. */
export const outOfMemoryMessage =
  "the program ran out of memory (the sandbox's heap is nearly full); work on less data at a time"
