/**
 * Namespaces: groups of tools with an optional description that search matches for every descendant tool.
 */
import type * as Tool from "./Tool.js"

/** A tool tree: nested records of tools and namespaces. Dots in keys create nested paths. */
export interface Tree {
  readonly [name: string]: Tool.Any | Namespace | Tree
}

/** A described namespace. Its name comes from the record key it is placed under. */
export interface Namespace<T extends Tree = Tree> {
  readonly _tag: "Namespace"
  readonly description?: string
  readonly tools: T
}

/** Describe a namespace; names still come from record keys. */
export const make = <const T extends Tree>(options: {
  readonly description?: string
  readonly tools: T
}): Namespace<T> => {
  if (typeof options !== "object" || options === null || typeof options.tools !== "object" || options.tools === null)
    throw new TypeError("Namespace.make expects { description?, tools }")
  if (options.description !== undefined && typeof options.description !== "string")
    throw new TypeError("Namespace.make: description must be a string")
  return options.description === undefined
    ? { _tag: "Namespace", tools: options.tools }
    : { _tag: "Namespace", description: options.description, tools: options.tools }
}

/** True when `value` was made by `Namespace.make`. */
export const isNamespace = (value: unknown): value is Namespace =>
  typeof value === "object" && value !== null && (value as { _tag?: unknown })._tag === "Namespace"

/** The services every tool of a tree needs. */
export type Services<T> =
  T extends Tool.Tool<any, any, any, infer R>
    ? R
    : T extends Namespace<infer Inner>
      ? Services<Inner>
      : T extends Tree
        ? { [K in keyof T]: Services<T[K]> }[keyof T]
        : never
