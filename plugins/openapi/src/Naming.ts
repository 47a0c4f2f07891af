/**
 * Tool names: where each operation sits in the tool tree.
 *
 * - An `operationId` is the name; its dots create namespaces (`session.list` → `tools.session.list`). Empty dot
 *   segments are dropped (`a..b` → `a.b`). Other characters stay as they are (`repos/get` is one name).
 * - Without an `operationId`, the name is the method and the path in camel case: `GET /products/{id}/reviews` →
 *   `getProductsByIdReviews`, `GET /` → `getRoot`.
 * - Collisions are resolved in document order. A name that is also a namespace of another operation gets the method
 *   appended (`session` next to `session.list` → `session_get`); a name already taken gets `_2`, `_3`, ….
 */
import type { Method } from "./Document.js"

/** What naming needs to know about one operation. */
export interface Operation {
  readonly method: Method
  readonly path: string
  readonly operationId?: string | undefined
}

const words = (text: string): ReadonlyArray<string> => text.split(/[^A-Za-z0-9]+/).filter((w) => w !== "")

const pascal = (text: string): string =>
  words(text)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join("")

/** The name of an operation without an `operationId`: method plus path, in camel case. */
export const fromPath = (method: Method, path: string): string => {
  const parts = path
    .split("/")
    .filter((s) => s !== "")
    .map((segment) => {
      const param = /^\{(.+)\}$/.exec(segment)
      return param ? `By${pascal(param[1])}` : pascal(segment)
    })
    .filter((p) => p !== "")
  return method + (parts.length ? parts.join("") : "Root")
}

/** The name segments an operation asks for, before collisions are resolved. */
export const candidate = (operation: Operation): ReadonlyArray<string> => {
  const id = typeof operation.operationId === "string" ? operation.operationId.trim() : ""
  const segments = id.split(".").filter((s) => s !== "")
  return segments.length ? segments : [fromPath(operation.method, operation.path)]
}

/** Assign every operation a unique path of name segments, in the order given. */
export const assign = (operations: ReadonlyArray<Operation>): ReadonlyArray<ReadonlyArray<string>> => {
  const candidates = operations.map(candidate)
  const namespaces = new Set<string>()
  for (const segments of candidates)
    for (let i = 1; i < segments.length; i++) namespaces.add(segments.slice(0, i).join("."))
  const taken = new Set<string>()
  return candidates.map((segments, index) => {
    const parent = segments.slice(0, -1)
    let last = segments[segments.length - 1]
    const joined = (name: string) => [...parent, name].join(".")
    if (namespaces.has(joined(last))) last = `${last}_${operations[index].method}`
    let name = last
    for (let n = 2; taken.has(joined(name)) || namespaces.has(joined(name)); n++) name = `${last}_${n}`
    taken.add(joined(name))
    return [...parent, name]
  })
}
