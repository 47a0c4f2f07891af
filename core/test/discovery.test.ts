import { CodeMode, Namespace, Search, Tool } from "@codemode/core"
import { Signature, TypeModel } from "@codemode/core/plugin"
import { Effect, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { dialect, lineLanguage } from "./language.js"

const tool = (description: string, input: unknown = { type: "object" }, output?: unknown) =>
  Tool.make({ description, input, ...(output ? { output } : {}), execute: () => Effect.succeed(null) } as any)

const tools = {
  orders: Namespace.make({
    description: "Purchases, fulfillment, and shipment tracking",
    tools: {
      lookup: tool("Look up an order by ID", { type: "object", properties: { id: { type: "string" } } }),
      list: tool("List recent orders", {
        type: "object",
        properties: { customerId: { type: "string", description: "Filter by customer" } },
      }),
      "lookup-by-email": tool("Find orders for an email address"),
    },
  }),
  customers: {
    get: tool("Get a customer profile"),
    search: tool("Search customers by name"),
  },
  order: tool("Place an order"),
  billing: { invoices: { list: tool("List invoices") } },
}

const runtime = CodeMode.make({ language: lineLanguage(), tools })
const paths = (page: Search.Page) => page.items.map((i) => i.path)

describe("search", () => {
  it("exact path lookup comes first", () => {
    expect(paths(runtime.search({ query: "orders.lookup" }))[0]).toBe("orders.lookup")
  })
  it("ranks name matches above path words, substrings, descriptions and context", () => {
    // "order": `order` is a last segment (100); `orders.*` have the word `order` after plural folding (40)
    expect(paths(runtime.search({ query: "order" }))).toEqual([
      "order",
      "orders.list",
      "orders.lookup",
      "orders.lookup-by-email",
    ])
    // "invoices": folded word of billing.invoices.list
    expect(paths(runtime.search({ query: "invoices" }))).toEqual(["billing.invoices.list"])
    // "shipment" only appears in the namespace description
    expect(paths(runtime.search({ query: "shipment" }))).toEqual([
      "orders.list",
      "orders.lookup",
      "orders.lookup-by-email",
    ])
    // property names and descriptions count too
    expect(paths(runtime.search({ query: "filter" }))).toEqual(["orders.list"])
  })
  it("adds scores across terms and breaks ties by path", () => {
    // `lookup` is the last segment of orders.lookup (100); lookup-by-email has both path words (40 + 40)
    expect(paths(runtime.search({ query: "lookup email" }))).toEqual(["orders.lookup", "orders.lookup-by-email"])
    expect(paths(runtime.search({ query: "email address" }))).toEqual(["orders.lookup-by-email"])
    expect(paths(runtime.search({ query: "list" }))).toEqual(["billing.invoices.list", "orders.list"])
  })
  it("scopes to a namespace and browses in path order with an empty query", () => {
    expect(paths(runtime.search({ query: "", namespace: "orders" }))).toEqual([
      "orders.list",
      "orders.lookup",
      "orders.lookup-by-email",
    ])
    expect(paths(runtime.search({ query: "" }))).toEqual(runtime.catalog.map((c) => c.path))
  })
  it("pages with limit, offset, remaining and next", () => {
    const first = runtime.search({ query: "", limit: 3 })
    expect(first).toMatchObject({ remaining: 4, next: 3 })
    const last = runtime.search({ query: "", limit: 3, offset: 5 })
    expect(last).toMatchObject({ remaining: 0, next: null })
    expect(paths(last)).toHaveLength(2)
  })
  it("rejects bad requests with a clear message", () => {
    expect(Search.parseRequest({ limit: 0 } as any)).toMatch(/limit must be a whole number from 1 to 100/)
    expect(Search.parseRequest({ query: 1 } as any)).toMatch(/query must be a string/)
    expect(Search.parseRequest({ q: "x" } as any)).toMatch(/does not accept "q"/)
  })
  it("folds plurals naively", () => {
    expect(["orders", "categories", "boxes", "class", "bus"].map(Search.fold)).toEqual([
      "order",
      "category",
      "box",
      "class",
      "bus",
    ])
  })
  it("returns signatures in the program's language", async () => {
    const result = await Effect.runPromise(runtime.execute(`search {"query":"orders.lookup","limit":1}`))
    expect(result).toMatchObject({
      ok: true,
      value: {
        items: [
          {
            path: "orders.lookup",
            description: "Look up an order by ID",
            signature: "tools.orders.lookup({ id?: string }) -> nil",
          },
        ],
        remaining: 3,
        next: 1,
      },
    })
  })
})

describe("type model and signatures", () => {
  const render = (schema: unknown, language: "javascript" | "lua" = "javascript") =>
    Signature.renderType(TypeModel.fromSchema(schema), dialect(language))

  it("renders Effect Schemas", () => {
    const input = Schema.Struct({
      id: Schema.String.annotate({ description: "The order ID" }),
      limit: Schema.optionalKey(Schema.Int.check(Schema.isGreaterThanOrEqualTo(1))),
      status: Schema.Literals(["open", "closed"]),
      note: Schema.NullOr(Schema.String),
      tags: Schema.Array(Schema.String),
      price: Schema.Number,
    })
    expect(render(input)).toBe(
      [
        "{",
        "  /** The order ID */",
        "  id: string;",
        "  /**",
        "   * minimum: 1",
        "   * integer",
        "   */",
        "  limit?: number;",
        '  status: "open" | "closed";',
        "  note: string | null;",
        "  tags: string[];",
        "  price: number;",
        "}",
      ].join("\n"),
    )
    expect(render(input, "lua")).toBe(
      [
        "{",
        "  id: string, -- The order ID",
        "  limit?: integer, -- minimum: 1",
        '  status: "open" | "closed",',
        "  note: string | json.null,",
        "  tags: string[],",
        "  price: number,",
        "}",
      ].join("\n"),
    )
  })

  it("follows $ref, allOf, anyOf/oneOf, enum/const, nullable and recursive refs", () => {
    const schema = {
      $defs: {
        Pet: { type: "object", properties: { name: { type: "string" }, kind: { const: "pet" } }, required: ["name"] },
        Node: { type: "object", properties: { next: { $ref: "#/$defs/Node" } } },
      },
      type: "object",
      properties: {
        pet: { $ref: "#/$defs/Pet" },
        both: {
          allOf: [
            { $ref: "#/$defs/Pet" },
            { type: "object", properties: { age: { type: "integer" } }, required: ["age"] },
          ],
        },
        either: { oneOf: [{ type: "string" }, { type: "number" }] },
        color: { enum: ["red", "green"] },
        maybe: { type: "string", nullable: true },
        multi: { type: ["string", "null"] },
        list: { $ref: "#/$defs/Node" },
      },
      required: ["pet"],
    }
    const text = render(schema)
    expect(text).toContain('pet: { name: string; kind?: "pet" }')
    expect(text).toContain('both?: {\n    name: string;\n    kind?: "pet";\n    /** integer */\n    age: number;\n  };')
    expect(text).toContain("either?: string | number")
    expect(text).toContain('color?: "red" | "green"')
    expect(text).toContain("maybe?: string | null")
    expect(text).toContain("multi?: string | null")
    expect(text).toContain("list?: { next?: Node }")
  })

  it("omits readOnly properties from requests and writeOnly properties from responses", () => {
    const schema = {
      type: "object",
      properties: {
        id: { type: "string", readOnly: true },
        password: { type: "string", writeOnly: true },
        name: { type: "string" },
      },
    }
    const model = TypeModel.fromSchema(schema)
    expect(Signature.renderType(TypeModel.project(model, "request"), dialect("javascript"))).toBe(
      "{ password?: string; name?: string }",
    )
    expect(Signature.renderType(TypeModel.project(model, "response"), dialect("javascript"))).toBe(
      "{ id?: string; name?: string }",
    )
  })

  it("reads readOnly/writeOnly through a property's $ref", () => {
    const schema = {
      $defs: { Id: { type: "string", readOnly: true } },
      type: "object",
      properties: { id: { $ref: "#/$defs/Id" }, name: { type: "string" } },
    }
    const model = TypeModel.fromSchema(schema)
    expect(Signature.renderType(TypeModel.project(model, "request"), dialect("javascript"))).toBe("{ name?: string }")
  })

  it("joins Lua doc lines readably", () => {
    const text = render(
      { type: "object", properties: { since: { type: "string", format: "date", description: "First order date." } } },
      "lua",
    )
    expect(text).toBe("{\n  since?: string, -- First order date. format: date\n}")
  })

  it("documents constraints such as format, default and pattern", () => {
    const text = render({
      type: "object",
      properties: {
        at: { type: "string", format: "date-time", description: "When" },
        n: { type: "integer", default: 10, maximum: 100 },
      },
    })
    expect(text).toContain("/**\n   * When\n   * format: date-time\n   */\n  at?: string;")
    expect(text).toContain("maximum: 100")
    expect(text).toContain("default: 10")
  })

  it("renders whole signatures, including tools without output", () => {
    const rt = CodeMode.make({ language: lineLanguage({ dialect: dialect("javascript") }), tools })
    expect(rt.catalog.find((c) => c.path === "orders.lookup-by-email")!.signature).toBe(
      'tools.orders["lookup-by-email"](input: Record<string, unknown>): Promise<void>',
    )
    const output = Signature.renderSignature(
      "a.b",
      TypeModel.fromSchema(Schema.Struct({ id: Schema.String })),
      TypeModel.fromSchema(Schema.Struct({ ok: Schema.Boolean })),
      dialect("javascript"),
    )
    expect(output).toBe("tools.a.b(input: { id: string }): Promise<{ ok: boolean }>")
    expect(CodeMode.searchSignature).toMatch(/^search\(input: \{ query\?: string/)
    expect(CodeMode.luaSearchSignature).toMatch(/^search\(\{ query\?: string/)
  })
})
