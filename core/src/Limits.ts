/**
 * Execution limits and their validation. Each language's definition carries its defaults.
 */
import { checkKeys } from "./Options.js"

/** The configurable limits. `Infinity` means unlimited. */
export interface Limits {
  /** Total execution time in milliseconds. */
  readonly timeoutMs: number
  /** Host call attempts (Lua: tools, search and extensions) or admitted tool calls (JavaScript: tools and search). */
  readonly maxToolCalls: number
  /** Retained result value and logs, in UTF-8 bytes; warnings get a separate budget of the same size. */
  readonly maxOutputBytes: number
}

const ranges: Record<keyof Limits, { readonly min: number; readonly max: number }> = {
  timeoutMs: { min: 1, max: 2_147_483_647 },
  maxToolCalls: { min: 0, max: 1_000_000_000 },
  maxOutputBytes: { min: 256, max: 1_073_741_824 },
}

/**
 * Merge `given` over `defaults`, throwing `RangeError` naming the limit and its accepted range when a value is
 * invalid, and `TypeError` naming an unknown limit.
 */
export const resolve = (given: Partial<Limits> | undefined, defaults: Limits): Limits => {
  if (given === undefined) return defaults
  checkKeys("limits", given, Object.keys(ranges))
  const out: Record<string, number> = { ...defaults }
  for (const key of Object.keys(ranges) as Array<keyof Limits>) {
    const value = given[key]
    if (value === undefined) continue
    const { min, max } = ranges[key]
    const valid =
      value === Infinity || (typeof value === "number" && Number.isInteger(value) && value >= min && value <= max)
    if (!valid)
      throw new RangeError(
        `limits.${key} must be a whole number from ${min} to ${max}, or Infinity for no limit (got ${String(value)})`,
      )
    out[key] = value
  }
  return out as unknown as Limits
}
