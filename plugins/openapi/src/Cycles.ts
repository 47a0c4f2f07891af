/**
 * Self-referencing schemas. A document whose references were resolved in place (e.g. by a dereferencing parser) holds
 * recursive schemas as JavaScript object cycles, which no JSON Schema reader can walk. Before such a schema is handed
 * out, every node that an enclosing node refers back to becomes a `$defs` entry and each use of it a `$ref`.
 */
import { isObject, type JsonObject } from "./Document.js"

/** What is known about the nodes of one document, shared by all of its schemas. */
export interface Memo {
  /** Nodes from which no cycle can be reached. */
  readonly acyclic: WeakSet<object>
}

/** A fresh memo for one document. */
export const memo = (): Memo => ({ acyclic: new WeakSet() })

const children = (node: object): ReadonlyArray<unknown> => (Array.isArray(node) ? node : Object.values(node))

/** The nodes reached from `root` that are targets of a back edge (a reference to an enclosing node). */
const backEdgeTargets = (root: object, known: Memo): Set<object> => {
  const targets = new Set<object>()
  const onStack = new Set<object>()
  const finished = new Set<object>()
  const visit = (node: object): boolean => {
    if (known.acyclic.has(node) || finished.has(node)) return known.acyclic.has(node)
    if (onStack.has(node)) {
      targets.add(node)
      return false
    }
    onStack.add(node)
    let clean = true
    for (const child of children(node)) if (typeof child === "object" && child !== null && !visit(child)) clean = false
    onStack.delete(node)
    finished.add(node)
    if (clean) known.acyclic.add(node)
    return clean
  }
  visit(root)
  return targets
}

/**
 * `schema` itself when no cycle can be reached from it; otherwise a copy in which each node referred to by one of its
 * descendants is defined once under `$defs` (named after its `title` when it has one) and used through `$ref`.
 */
export const breakCycles = (schema: JsonObject, known: Memo): JsonObject => {
  if (known.acyclic.has(schema)) return schema
  const targets = backEdgeTargets(schema, known)
  if (targets.size === 0) return schema
  const names = new Map<object, string>()
  const used = new Set<string>()
  for (const target of targets) {
    const title =
      isObject(target) && typeof target.title === "string" ? target.title.replace(/[^A-Za-z0-9_.-]/g, "") : ""
    let name = title || "Recursive"
    for (let n = 2; used.has(name); n++) name = `${title || "Recursive"}${n}`
    used.add(name)
    names.set(target, name)
  }
  const definitions: Record<string, unknown> = {}
  const copies = new Map<object, unknown>()
  const copy = (node: unknown, defining?: object): unknown => {
    if (typeof node !== "object" || node === null) return node
    if (known.acyclic.has(node)) return node
    const name = names.get(node)
    if (name !== undefined && node !== defining) {
      if (!(name in definitions)) {
        definitions[name] = {}
        definitions[name] = copy(node, node)
      }
      return { $ref: `#/$defs/${name}` }
    }
    const done = copies.get(node)
    if (done !== undefined) return done
    const out: unknown = Array.isArray(node)
      ? node.map((child) => copy(child))
      : Object.fromEntries(Object.entries(node).map(([key, child]) => [key, copy(child)]))
    copies.set(node, out)
    return out
  }
  const root = copy(schema) as Record<string, unknown>
  return { ...root, $defs: { ...(isObject(root.$defs) ? root.$defs : {}), ...definitions } }
}
