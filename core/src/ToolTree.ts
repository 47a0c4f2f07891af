/**
 * Flattening a tool tree into paths, with the checks that make names unambiguous.
 */
import * as Namespace from "./Namespace.js"
import type { ToolShape } from "./sandbox/protocol.js"
import * as Tool from "./Tool.js"
import * as TypeModel from "./TypeModel.js"

/** One tool at its path, with what discovery needs. */
export interface Entry {
  /** The dotted path, e.g. `orders.lookup-by-id`. */
  readonly path: string
  readonly segments: ReadonlyArray<string>
  readonly tool: Tool.Any
  /** Descriptions of enclosing `Namespace` values, outermost first. */
  readonly namespaceDescriptions: ReadonlyArray<string>
  /** Request-side input type (readOnly properties omitted). */
  readonly inputType: TypeModel.Type
  /** Response-side output type (writeOnly properties omitted); `void` when the tool declares no output. */
  readonly outputType: TypeModel.Type
}

/** An entry whose type models are built on first use: large catalogs (thousands of tools) stay cheap to make. */
const makeEntry = (
  path: string,
  segments: ReadonlyArray<string>,
  tool: Tool.Any,
  namespaceDescriptions: ReadonlyArray<string>,
): Entry => {
  let input: TypeModel.Type | undefined
  let output: TypeModel.Type | undefined
  return {
    path,
    segments,
    tool,
    namespaceDescriptions,
    get inputType() {
      return (input ??= TypeModel.project(TypeModel.fromSchema(tool.input), "request"))
    },
    get outputType() {
      return (output ??=
        tool.output === undefined ? { kind: "void" } : TypeModel.project(TypeModel.fromSchema(tool.output), "response"))
    },
  }
}

/** Flatten `tree` into entries sorted by path. Throws `TypeError` for an empty name segment or a duplicate path. */
export const flatten = (tree: Namespace.Tree): ReadonlyArray<Entry> => {
  const entries = new Map<string, Entry>()
  const namespaces = new Set<string>()
  const visit = (node: unknown, prefix: ReadonlyArray<string>, descriptions: ReadonlyArray<string>) => {
    if (Tool.isTool(node)) {
      const path = prefix.join(".")
      if (prefix.length === 0) throw new TypeError("tools must be a record of tools and namespaces, not a single tool")
      if (entries.has(path) || namespaces.has(path)) throw new TypeError(`tool path "${path}" is defined twice`)
      for (let i = 1; i < prefix.length; i++) {
        const parent = prefix.slice(0, i).join(".")
        if (entries.has(parent))
          throw new TypeError(`"${parent}" is a tool and cannot also be a namespace of "${path}"`)
        namespaces.add(parent)
      }
      entries.set(path, makeEntry(path, prefix, node, descriptions))
      return
    }
    if (Namespace.isNamespace(node)) {
      visit(node.tools, prefix, node.description ? [...descriptions, node.description] : descriptions)
      return
    }
    if (typeof node !== "object" || node === null || Array.isArray(node)) {
      const where = prefix.length ? `"${prefix.join(".")}"` : "tools"
      throw new TypeError(`${where} must be a tool (Tool.make), a Namespace.make value or a record of them`)
    }
    for (const key of Object.keys(node)) {
      const segments = key.split(".")
      if (segments.some((s) => s === "")) {
        const shown = [...prefix, key].join(".")
        throw new TypeError(
          `tool name "${shown}" has an empty segment; names are dot-separated and each part must be non-empty`,
        )
      }
      visit((node as Record<string, unknown>)[key], [...prefix, ...segments], descriptions)
    }
  }
  visit(tree, [], [])
  return [...entries.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
}

/** The shape of the tree as the sandbox sees it (no functions, no schemas). */
export const shape = (entries: ReadonlyArray<Entry>): ToolShape => {
  const root: Record<string, true | Record<string, unknown>> = {}
  for (const entry of entries) {
    let node = root
    entry.segments.forEach((segment, i) => {
      if (i === entry.segments.length - 1) node[segment] = true
      else node = (node[segment] ??= {}) as Record<string, true | Record<string, unknown>>
    })
  }
  return root as ToolShape
}
