import { describe, expect, it } from "vitest"
import * as Cycles from "../src/Cycles.js"

describe("breaking object cycles", () => {
  it("returns acyclic schemas as they are, even when subtrees are shared", () => {
    const shared = { type: "string" }
    const schema = { type: "object", properties: { a: shared, b: shared, c: { type: "array", items: shared } } }
    expect(Cycles.breakCycles(schema, Cycles.memo())).toBe(schema)
  })

  it("turns every node referred back to into a $defs entry named after its title", () => {
    const node: Record<string, unknown> = { title: "Tree Node", type: "object", properties: {} }
    ;(node.properties as Record<string, unknown>).children = { type: "array", items: node }
    const schema = {
      type: "object",
      properties: { root: node, other: { title: "Tree Node", type: "object", properties: { self: {} } } },
    }
    ;((schema.properties.other.properties as Record<string, unknown>).self as Record<string, unknown>) =
      schema.properties.other
    const out = Cycles.breakCycles(schema, Cycles.memo())
    expect(JSON.parse(JSON.stringify(out))).toEqual({
      type: "object",
      properties: { root: { $ref: "#/$defs/TreeNode" }, other: { $ref: "#/$defs/TreeNode2" } },
      $defs: {
        TreeNode: {
          title: "Tree Node",
          type: "object",
          properties: { children: { type: "array", items: { $ref: "#/$defs/TreeNode" } } },
        },
        TreeNode2: { title: "Tree Node", type: "object", properties: { self: { $ref: "#/$defs/TreeNode2" } } },
      },
    })
  })

  it("handles a root that refers to itself", () => {
    const root: Record<string, unknown> = { type: "object" }
    root.properties = { next: root }
    const out = Cycles.breakCycles(root, Cycles.memo())
    expect(JSON.parse(JSON.stringify(out))).toEqual({
      $ref: "#/$defs/Recursive",
      $defs: { Recursive: { type: "object", properties: { next: { $ref: "#/$defs/Recursive" } } } },
    })
  })
})
