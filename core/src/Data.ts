/**
 * The data contract: only JSON data crosses between a program and its host.
 *
 * `null`, booleans, finite numbers, strings, arrays and plain objects. Arrays and objects keep their shape even
 * when empty. Copies are bounded in depth and size so that no program or tool can make the host copy without end.
 */

/** A JSON value that may cross between a program and its host. */
export type DataValue =
  | null
  | boolean
  | number
  | string
  | ReadonlyArray<DataValue>
  | { readonly [key: string]: DataValue }

/** Bounds applied to every copy of data across the sandbox boundary. */
export interface CopyBounds {
  /** Maximum nesting depth of arrays and objects. */
  readonly maxDepth: number
  /** Maximum size of the copy, counted as the length of its JSON text in UTF-16 code units. */
  readonly maxBytes: number
}

/** The bounds no configuration raises: 64 levels and 16 MiB. */
export const defaultCopyBounds: CopyBounds = { maxDepth: 64, maxBytes: 16 * 1024 * 1024 }

/** The words every side of the boundary uses for a value that is not data, so that all languages say the same. */
export const dataProblems = {
  tooLarge: (maxBytes: number = defaultCopyBounds.maxBytes) =>
    `data exceeds the copy limit of ${maxBytes} bytes${maxBytes === 16 * 1024 * 1024 ? " (16 MiB)" : ""}`,
  tooDeep: (maxDepth: number = defaultCopyBounds.maxDepth) => `data is nested deeper than ${maxDepth} levels`,
  cycle: "a cycle (the value contains itself)",
} as const

/** Why a value could not be copied as data, with the path where the problem was found (`$.items[2].name`). */
export class DataError extends Error {
  override readonly name = "DataError"
  constructor(
    readonly reason: string,
    readonly path: string,
  ) {
    super(`${reason} at ${path}`)
  }
}

const describe = (value: unknown): string => {
  if (value === undefined) return "undefined"
  if (typeof value === "function") return "a function"
  if (typeof value === "bigint") return "a bigint"
  if (typeof value === "symbol") return "a symbol"
  if (typeof value === "number") return String(value)
  if (value instanceof Promise) return "a Promise"
  if (value instanceof Date) return "a Date"
  if (value instanceof Map) return "a Map"
  if (value instanceof Set) return "a Set"
  const proto = value === null || typeof value !== "object" ? null : Object.getPrototypeOf(value)
  return proto?.constructor?.name ? `a ${proto.constructor.name} instance` : "a non-data value"
}

/** The path of `key` inside the object at `path`: `$.items` or `$["odd key"]`. */
export const keyPath = (path: string, key: string): string =>
  /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`

/** The path of item `index` inside the array at `path` (languages pass the index their programs use). */
export const indexPath = (path: string, index: number): string => `${path}[${index}]`

/**
 * Where {@link copyData} found a function, when it is allowed to: the function, the plain object or array holding it
 * (`undefined` at the root), and the keys and indices leading to it.
 */
export type FoundFunction = (
  fn: (...args: ReadonlyArray<unknown>) => unknown,
  holder: object | undefined,
  path: ReadonlyArray<string | number>,
) => void

/**
 * Copy `value` as plain data, or throw a `DataError` naming the first offending path.
 *
 * Objects must be plain (prototype `Object.prototype` or `null`); `undefined` properties are dropped like
 * `JSON.stringify` drops them; `toJSON` is not consulted (languages apply their own rules before the boundary).
 * With `functions`, a function is not an error: it is reported there and copied as `null`.
 */
export const copyData = (
  value: unknown,
  bounds: CopyBounds = defaultCopyBounds,
  root = "$",
  functions?: FoundFunction,
): DataValue => {
  let size = 0
  const seen = new Set<object>()
  const charge = (n: number, path: string) => {
    size += n
    if (size > bounds.maxBytes) throw new DataError(dataProblems.tooLarge(bounds.maxBytes), path)
  }
  // The keys and indices to the value being copied, kept only when functions are reported.
  const segments: Array<string | number> = []
  let holder: object | undefined
  const visit = (v: unknown, path: string, depth: number): DataValue => {
    switch (typeof v) {
      case "function":
        if (functions === undefined) throw new DataError(`${describe(v)} is not data`, path)
        functions(v as (...args: ReadonlyArray<unknown>) => unknown, holder, [...segments])
        charge(4, path)
        return null
      case "string":
        charge(v.length + 2, path)
        return v
      case "boolean":
        charge(5, path)
        return v
      case "number":
        if (!Number.isFinite(v)) throw new DataError(`${describe(v)} is not a finite number`, path)
        charge(8, path)
        return v
      case "object": {
        if (v === null) {
          charge(4, path)
          return null
        }
        if (depth >= bounds.maxDepth) throw new DataError(dataProblems.tooDeep(bounds.maxDepth), path)
        if (seen.has(v)) throw new DataError(dataProblems.cycle, path)
        seen.add(v)
        try {
          if (Array.isArray(v)) {
            charge(2, path)
            const out: DataValue[] = new Array(v.length)
            for (let i = 0; i < v.length; i++) {
              const item = v[i]
              if (item === undefined) throw new DataError("undefined is not data (use null)", indexPath(path, i))
              if (functions !== undefined) {
                segments.push(i)
                holder = v
              }
              out[i] = visit(item, indexPath(path, i), depth + 1)
              if (functions !== undefined) segments.pop()
            }
            return out
          }
          const proto = Object.getPrototypeOf(v)
          if (proto !== Object.prototype && proto !== null) throw new DataError(`${describe(v)} is not data`, path)
          charge(2, path)
          const out: Record<string, DataValue> = {}
          for (const key of Object.keys(v)) {
            const item = (v as Record<string, unknown>)[key]
            if (item === undefined) continue
            charge(key.length + 3, path)
            if (functions !== undefined) {
              segments.push(key)
              holder = v
            }
            const copied = visit(item, keyPath(path, key), depth + 1)
            if (functions !== undefined) segments.pop()
            Object.defineProperty(out, key, {
              value: copied,
              enumerable: true,
              writable: true,
              configurable: true,
            })
          }
          return out
        } finally {
          seen.delete(v)
        }
      }
      default:
        throw new DataError(`${describe(v)} is not data`, path)
    }
  }
  return visit(value, root, 0)
}

/** True when `value` is a plain data object (not an array, not null). */
export const isDataObject = (value: unknown): value is { readonly [key: string]: DataValue } =>
  typeof value === "object" && value !== null && !Array.isArray(value)
