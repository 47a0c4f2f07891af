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
const ranked = (query: string, rt = runtime) => paths(rt.search({ query, limit: 100 }))

describe("search ranking", () => {
  it("puts the tool whose name and summary are the query first, and finds namespace and input text", () => {
    // `order` is also the exact path of a tool, which returns that tool alone
    expect(ranked("order")).toEqual(["order"])
    expect(ranked("orders")[0]).toBe("order")
    expect(ranked("orders").slice(1, 4).sort()).toEqual(["orders.list", "orders.lookup", "orders.lookup-by-email"])
    expect(ranked("list invoices")[0]).toBe("billing.invoices.list")
    expect(ranked("look up an order")[0]).toBe("orders.lookup")
    // only in the namespace's description
    expect(ranked("shipment").sort()).toEqual(["orders.list", "orders.lookup", "orders.lookup-by-email"])
    // only in an input property's doc
    expect(ranked("filter")).toEqual(["orders.list"])
  })

  it("matches whole words and word beginnings, never a letter inside a word", () => {
    expect(ranked("e")).toEqual([])
    expect(ranked("rder")).toEqual([])
    expect(ranked("ook")).toEqual([])
    expect(ranked("nvoices")).toEqual([])
    // a word of four letters or more matches the words it begins
    expect(ranked("inv")).toEqual([])
    expect(ranked("invo")).toEqual(["billing.invoices.list"])
  })

  it("splits names on / - _ . and camelCase, and folds plurals, inflections and abbreviations", () => {
    const rt = CodeMode.make({
      language: lineLanguage(),
      tools: {
        "repos/get": tool("Get a repository"),
        "pulls/list-for_repo": tool("List pull requests"),
        "issues.createComment": tool("Create an issue comment"),
        "orgs/list-members": tool("List organization members"),
        "HTMLParser.run": tool("Parse markup"),
        "repos/delete": tool("Delete a repository"),
      },
    })
    expect(ranked("get the repositories", rt)[0]).toBe("repos/get")
    expect(ranked("repository", rt).slice(0, 3).sort()).toEqual(["pulls/list-for_repo", "repos/delete", "repos/get"])
    expect(ranked("pull request list", rt)[0]).toBe("pulls/list-for_repo")
    expect(ranked("created comments", rt)[0]).toBe("issues.createComment")
    expect(ranked("members of an org", rt)[0]).toBe("orgs/list-members")
    expect(ranked("html parser", rt)[0]).toBe("HTMLParser.run")
    // a related verb counts, less than the word itself
    expect(ranked("remove a repo", rt)[0]).toBe("repos/delete")
  })

  it("ignores stopwords", () => {
    expect(ranked("the")).toEqual([])
    expect(ranked("of a for")).toEqual([])
    expect(ranked("list of the invoices")).toEqual(ranked("list invoices"))
  })

  it("breaks ties toward the shorter path, and ranks deprecated tools lower", () => {
    const rt = CodeMode.make({
      language: lineLanguage(),
      tools: {
        alpha: { get: tool("Get a widget") },
        be: { get: tool("Get a widget") },
        old: { get: tool("Deprecated.\nGet a gadget") },
        new: { get: tool("Get a gadget") },
      },
    })
    expect(ranked("widget", rt)).toEqual(["be.get", "alpha.get"])
    expect(ranked("gadget", rt)).toEqual(["new.get", "old.get"])
  })

  it("is deterministic", () => {
    const again = CodeMode.make({ language: lineLanguage(), tools })
    for (const query of ["order", "list", "lookup email", "customer name", "shipment"])
      expect(ranked(query, again)).toEqual(ranked(query))
  })
})

describe("search requests", () => {
  it("an exact path, written any way a program writes it, returns that one tool", () => {
    for (const query of [
      "orders.lookup",
      " orders.lookup ",
      "tools.orders.lookup",
      'tools.orders["lookup"]',
      "tools['orders']['lookup']",
      'tools["orders"].lookup',
      "tools.orders[ 'lookup' ]",
      "tools.orders.lookup()",
    ])
      expect(runtime.search({ query })).toEqual({
        items: [{ path: "orders.lookup", description: "Look up an order by ID", signature: expect.any(String) }],
        remaining: 0,
        next: null,
      })
    expect(paths(runtime.search({ query: 'tools.orders["lookup-by-email"]' }))).toEqual(["orders.lookup-by-email"])
    // relative to the namespace searched
    expect(paths(runtime.search({ query: "lookup", namespace: "orders" }))).toEqual(["orders.lookup"])
    // a namespace written as an expression browses it
    expect(paths(runtime.search({ query: "tools.billing" }))).toEqual(["billing.invoices.list"])
  })

  it("an exact path whose signature is long returns it in parts, one a page, that put it back together", () => {
    const properties = Object.fromEntries(
      Array.from({ length: 400 }, (_, i) => [
        `field_${i}`,
        { type: "string", description: `What field ${i} holds, described at some length. `.repeat(2) },
      ]),
    )
    const wide = { type: "object", properties }
    const rt = CodeMode.make({ language: lineLanguage(), tools: { wide: tool("A wide record", wide, wide) } })
    const whole = rt.catalog[0].signature
    expect(whole.length).toBeGreaterThan(3 * Search.maxExactSignature)
    const parts: string[] = []
    let offset: number | undefined = 0
    while (offset !== undefined) {
      const page: Search.Page = rt.search({ query: "wide", offset })
      expect(page.items).toHaveLength(1)
      expect(page.items[0].path).toBe("wide")
      expect(page.items[0].description).toBe(offset === 0 ? "A wide record" : "")
      const signature = page.items[0].signature
      expect(signature.length).toBeLessThanOrEqual(Search.maxExactSignature)
      parts.push(signature)
      expect(page.remaining).toBe(page.next ? page.remaining : 0)
      offset = page.next?.offset
    }
    expect(parts.length).toBeGreaterThan(3)
    // Every part but the last ends with a line that says how to read on; without those lines, the parts are the whole.
    const note = /\n\S+ signature part (\d+) of (\d+): search for the same path with offset (\d+) for part \d+$/
    for (const [i, part] of parts.slice(0, -1).entries())
      expect(part.match(note)?.slice(1)).toEqual([`${i + 1}`, `${parts.length}`, `${i + 1}`])
    expect(parts.map((p, i) => (i < parts.length - 1 ? p.replace(note, "\n") : p)).join("")).toBe(whole)
    expect(rt.search({ query: "wide", offset: parts.length })).toEqual({ items: [], remaining: 0, next: null })
    // A short signature is one page, as before.
    expect(runtime.search({ query: "orders.lookup", offset: 1 })).toEqual({ items: [], remaining: 0, next: null })
    // A line longer than a part is cut inside it.
    const cut = Search.signatureParts(`${"x".repeat(40_000)}\ny`, 16_000)
    expect(cut.join("")).toBe(`${"x".repeat(40_000)}\ny`)
    expect(Math.max(...cut.map((p) => p.length))).toBeLessThanOrEqual(16_000)
  })

  it("a plain string is the query", () => {
    expect(runtime.search("order lookup")).toEqual(runtime.search({ query: "order lookup" }))
    expect(Search.parseRequest("order lookup")).toEqual({ query: "order lookup", limit: 10, offset: 0 })
  })

  it("scopes to a namespace and browses in path order with an empty query", () => {
    expect(paths(runtime.search({ query: "", namespace: "orders" }))).toEqual([
      "orders.list",
      "orders.lookup",
      "orders.lookup-by-email",
    ])
    expect(paths(runtime.search({ query: "", namespace: "tools.orders" }))).toEqual(
      paths(runtime.search({ query: "", namespace: "orders" })),
    )
    expect(paths(runtime.search({ query: "" }))).toEqual(runtime.catalog.map((c) => c.path))
    expect(paths(runtime.search({ query: "order", namespace: "orders" })).every((p) => p.startsWith("orders."))).toBe(
      true,
    )
  })

  it("pages: next is { offset } or null", () => {
    const first = runtime.search({ query: "", limit: 3 })
    expect(first).toMatchObject({ remaining: 4, next: { offset: 3 } })
    const second = runtime.search({ query: "", limit: 3, ...first.next })
    expect(second).toMatchObject({ remaining: 1, next: { offset: 6 } })
    const last = runtime.search({ query: "", limit: 3, ...second.next })
    expect(last).toMatchObject({ remaining: 0, next: null })
    expect(paths(last)).toHaveLength(1)
    const all = [...paths(first), ...paths(second), ...paths(last)]
    expect(all).toEqual(runtime.catalog.map((c) => c.path))
  })

  it("rejects bad requests with a clear message", () => {
    expect(Search.parseRequest({ limit: 0 } as any)).toMatch(/limit must be a whole number from 1 to 100/)
    expect(Search.parseRequest({ query: 1 } as any)).toMatch(/query must be a string/)
    expect(Search.parseRequest({ q: "x" } as any)).toMatch(/does not accept "q"/)
    expect(Search.parseRequest(7 as any)).toMatch(/expects a query string or \{ query\?/)
  })

  it("bounds the query before any work: length and number of words", () => {
    expect(Search.parseRequest("a".repeat(Search.maxQueryLength))).toMatchObject({ limit: 10 })
    expect(Search.parseRequest("A".repeat(1_000_000))).toBe(
      "search: the query has 1000000 characters; at most 1000 are accepted. Use a few keywords or an exact path",
    )
    expect(Search.parseRequest({ query: "x".repeat(1001) })).toMatch(/at most 1000 are accepted/)
    expect(Search.parseRequest({ namespace: "x".repeat(1001) })).toMatch(/namespace has 1001 characters/)
    const words = Array.from({ length: 33 }, (_, i) => `word${i}`).join(" ")
    expect(Search.parseRequest(words)).toMatch(/33 different words; at most 32/)
    expect(() => runtime.search("A".repeat(1_000_000))).toThrow(TypeError)
    // an upper-case run is tokenized in one pass (the old splitter backtracked quadratically on it)
    expect(runtime.search("A".repeat(Search.maxQueryLength)).items).toEqual([])
  })

  it("refuses a too-long query in a program with InvalidToolInput", async () => {
    const result = await Effect.runPromise(
      runtime.execute(`search ${JSON.stringify({ query: "A".repeat(1_000_000) })}`),
    )
    expect(result).toMatchObject({
      ok: false,
      error: { kind: "InvalidToolInput", message: expect.stringContaining("at most 1000 are accepted") },
    })
  })

  it("returns signatures in the program's language", async () => {
    const result = await Effect.runPromise(runtime.execute(`search {"query":"lookup","namespace":"orders","limit":1}`))
    expect(result).toMatchObject({
      ok: true,
      value: {
        items: [{ path: "orders.lookup", signature: "tools.orders.lookup({ id?: string }) -> nil" }],
        remaining: 0,
        next: null,
      },
    })
  })
})

describe("tools.search", () => {
  const small = { orders: { lookup: tool("Look up an order by ID"), list: tool("List recent orders") } }
  it("is search(...) in Lua and JavaScript when no tool owns the name", async () => {
    for (const [language, code] of [
      ["lua", 'return { a = tools.search({ query = "orders.lookup" }), b = tools.search("recent orders") }'],
      ["javascript", '({ a: await tools.search({ query: "orders.lookup" }), b: await tools.search("recent orders") })'],
    ] as const) {
      const rt = CodeMode.make({ language, tools: small })
      const result = await Effect.runPromise(rt.execute(code))
      expect(result).toMatchObject({
        ok: true,
        value: {
          a: { items: [{ path: "orders.lookup" }], next: null },
          b: { items: [{ path: "orders.list" }, { path: "orders.lookup" }] },
        },
      })
      expect(result.toolCalls.map((c) => [c.kind, c.name])).toEqual([
        ["search", "search"],
        ["search", "search"],
      ])
    }
  })
  it("calls the tool when one owns the root name search", async () => {
    const own = Tool.make({
      description: "A tool named search",
      input: { type: "object" },
      output: { type: "object" },
      execute: () => Effect.succeed({ mine: true }),
    })
    const rt = CodeMode.make({ language: "lua", tools: { search: own, ...small } })
    const result = await Effect.runPromise(rt.execute("return tools.search({})"))
    expect(result).toMatchObject({ ok: true, value: { mine: true } })
    expect(result.toolCalls[0]).toMatchObject({ kind: "tool", name: "search" })
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

  it("renders what an Effect Schema accepts: optional is no null, nullish is", async () => {
    const input = Schema.Struct({
      a: Schema.optional(Schema.String),
      b: Schema.UndefinedOr(Schema.Number),
      c: Schema.NullishOr(Schema.String),
      d: Schema.optional(Schema.NullOr(Schema.String)),
    })
    expect(render(input, "lua")).toBe("{ a?: string, b: number, c: string | json.null, d?: string | json.null }")
    expect(render(input)).toBe("{ a?: string; b: number; c: string | null; d?: string | null }")
    // and the rendering is right: the schema refuses null where the signature has none
    const decode = Schema.decodeUnknownSync(input)
    expect(() => decode({ a: null, b: 1, c: null })).toThrow()
    expect(decode({ b: 1, c: null, d: null })).toEqual({ b: 1, c: null, d: null })
  })

  it("puts a union in parentheses inside an array, a tuple rest and an intersection", () => {
    const schema = {
      $defs: {
        Cat: { type: "object", properties: { meow: { type: "boolean" } }, required: ["meow"] },
        Dog: { type: "object", properties: { bark: { type: "boolean" } }, required: ["bark"] },
        Pet: { oneOf: [{ $ref: "#/$defs/Cat" }, { $ref: "#/$defs/Dog" }] },
      },
      type: "object",
      properties: {
        pets: { type: "array", items: { $ref: "#/$defs/Pet" } },
        names: { type: "array", items: { type: "string", nullable: true } },
        codes: { type: "array", items: { enum: ["a", "b"] } },
        rest: { type: "array", prefixItems: [{ type: "string" }], items: { type: ["string", "number"] } },
        both: { allOf: [{ $ref: "#/$defs/Pet" }, { type: "object", additionalProperties: { type: "string" } }] },
      },
      required: ["pets", "names", "codes", "rest", "both"],
    }
    expect(render(schema, "lua")).toBe(
      [
        "{",
        "  pets: ({ meow: boolean } | { bark: boolean })[],",
        "  names: (string | json.null)[],",
        '  codes: ("a" | "b")[],',
        "  rest: { string, ...(string | number)[] },",
        "  both: ({ meow: boolean } | { bark: boolean }) & { [string]: string },",
        "}",
      ].join("\n"),
    )
    expect(render(schema)).toContain("pets: ({ meow: boolean } | { bark: boolean })[];")
    expect(render(schema)).toContain("rest: [string, ...(string | number)[]];")
  })

  it("keeps an object's index signature on one line", () => {
    const schema = { type: "object", properties: { a: { type: "string" } }, additionalProperties: { type: "number" } }
    expect(render(schema)).toBe("{ a?: string; [key: string]: number }")
    expect(render(schema, "lua")).toBe("{ a?: string, [string]: number }")
  })

  it("says what a Lua program receives: a null result is nil, a null inside a table json.null", () => {
    const nullable = {
      anyOf: [{ type: "object", properties: { a: { type: "string", nullable: true } } }, { type: "null" }],
    }
    const signature = (output: unknown, language: "lua" | "javascript") =>
      Signature.renderSignature("t", TypeModel.fromSchema({}), TypeModel.fromSchema(output), dialect(language))
    expect(signature(nullable, "lua")).toBe("tools.t(any) -> { a?: string | json.null } | nil")
    expect(signature({ type: "null" }, "lua")).toBe("tools.t(any) -> nil")
    expect(signature(nullable, "javascript")).toBe("tools.t(input: unknown): Promise<{ a?: string | null } | null>")
  })

  it("writes a named output type used more than once, or in a cycle, once after the signature", () => {
    const output = {
      $defs: {
        User: {
          type: "object",
          properties: { login: { type: "string" }, name: { type: "string" }, email: { type: "string" } },
        },
        Node: { type: "object", properties: { value: { type: "string" }, next: { $ref: "#/$defs/Node" } } },
        Tag: { type: "object", properties: { name: { type: "string" } } },
      },
      type: "object",
      properties: {
        author: { $ref: "#/$defs/User" },
        editors: { type: "array", items: { $ref: "#/$defs/User" } },
        head: { $ref: "#/$defs/Node" },
        tags: { type: "array", items: { $ref: "#/$defs/Tag" } },
        tag: { $ref: "#/$defs/Tag" },
      },
    }
    const signature = (language: "lua" | "javascript") =>
      Signature.renderSignature("t", { kind: "void" }, TypeModel.fromSchema(output), dialect(language))
    expect(signature("lua")).toBe(
      [
        "tools.t({}) -> {",
        "  author?: User,",
        "  editors?: User[],",
        "  head?: Node,",
        "  tags?: { name?: string }[],",
        "  tag?: { name?: string },",
        "}",
        "User = { login?: string, name?: string, email?: string }",
        "Node = { value?: string, next?: Node }",
      ].join("\n"),
    )
    expect(signature("javascript")).toContain("\ntype User = { login?: string; name?: string; email?: string }\n")
    // a bounded rendering writes everything in place
    expect(
      Signature.renderDetailed("t", { kind: "void" }, TypeModel.fromSchema(output), dialect("lua"), {
        output: { depth: 2 },
      }).text,
    ).not.toContain("User =")
  })

  it("says a nullable integer is an integer in JavaScript", () => {
    const schema = { type: "object", properties: { n: { type: ["integer", "null"] } } }
    expect(render(schema)).toBe("{\n  /** integer */\n  n?: number | null;\n}")
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
        nothing: { not: {} },
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
    expect(text).toContain("nothing?: never")
  })

  it("shares each resolved $ref instead of expanding it again", () => {
    const schema = {
      $defs: { User: { type: "object", properties: { login: { type: "string" } } } },
      type: "object",
      properties: { a: { $ref: "#/$defs/User" }, b: { $ref: "#/$defs/User" } },
    }
    const model = TypeModel.fromSchema(schema) as Extract<TypeModel.Type, { kind: "object" }>
    expect(model.properties[0].type).toEqual(model.properties[1].type)
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
    expect(CodeMode.searchSignature).toMatch(/^search\(input: string \| \{ query\?: string/)
    expect(CodeMode.searchSignature).toContain("next: { offset: number } | null")
    expect(CodeMode.luaSearchSignature).toMatch(/^search\(query: string \| \{ query\?: string/)
    expect(CodeMode.luaSearchSignature).toContain("next: { offset: integer } | json.null")
  })

  it("summarises a large output on a page, keeps the input complete and says how to get the rest", () => {
    const fields = (prefix: string, n: number) =>
      Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, { type: "string", description: "x" }]))
    const big = {
      type: "object",
      properties: { ...fields("field", 40), nested: { type: "object", properties: fields("deep", 40) } },
    }
    const input = { type: "object", properties: fields("in", 12), required: ["in0"] }
    const rt = CodeMode.make({ language: "lua", tools: { reports: { get: tool("Get a report", input, big) } } })
    const page = rt.search("report")
    const summary = page.items[0].signature
    const full = rt.search("reports.get").items[0].signature
    expect(full).toBe(rt.catalog[0].signature)
    expect(summary.length).toBeLessThan(full.length)
    expect(summary.length).toBeLessThanOrEqual(Search.maxPageSignature + 120)
    for (let i = 0; i < 12; i++) expect(summary).toContain(`in${i}`)
    expect(summary).toContain("... (also ")
    expect(summary.split("\n").at(-1)).toBe('-- summarised: search("reports.get") gives the full signature')
    expect(full).toContain("deep39?: string, -- x")
  })
})

describe("instructions", () => {
  it("a small catalog is COMPLETE: the guide, every namespace, every full signature", () => {
    const rt = CodeMode.make({ language: "lua", tools })
    const text = rt.instructions()
    expect(text).toMatch(/^Write a Lua 5\.4 program\./)
    expect(text).toContain("7 tools in 4 groups. This list is COMPLETE")
    expect(text).toContain("- tools.orders: 3 tools — Purchases, fulfillment, and shipment tracking")
    expect(text).toContain("- tools.billing.invoices: 1 tool")
    for (const entry of rt.catalog) expect(text).toContain(entry.signature)
    expect(text.length / 4).toBeLessThanOrEqual(2000)
    expect(CodeMode.make({ language: "javascript", tools }).instructions()).toMatch(/^Write a JavaScript program/)
  })

  it("a large catalog is PARTIAL within the budget: every group, signatures round-robin, search for the rest", () => {
    const many: Record<string, unknown> = {}
    for (const ns of ["alpha", "beta", "gamma", "delta", "epsilon"])
      many[ns] = Namespace.make({
        description: `The ${ns} service`,
        tools: Object.fromEntries(
          Array.from({ length: 60 }, (_, i) => [
            `op${i}`,
            tool(`Operation ${i} of ${ns}`, { type: "object", properties: { id: { type: "string" } } }),
          ]),
        ),
      })
    const rt = CodeMode.make({ language: "javascript", tools: many as any })
    for (const budgetTokens of [1200, 2000, 4000]) {
      const text = rt.instructions({ budgetTokens })
      expect(text.length / 4).toBeLessThanOrEqual(budgetTokens)
      expect(text).toContain("300 tools in 5 groups. This list is PARTIAL")
      expect(text).toContain('search("what you need") inside the program')
      for (const ns of ["alpha", "beta", "gamma", "delta", "epsilon"])
        expect(text).toContain(`- tools.${ns}: 60 tools — The ${ns} service`)
      const listed = text.split("\n").filter((l) => l.startsWith("tools."))
      const first = listed.slice(0, 5).map((l) => l.split(".")[1])
      if (listed.length >= 5) expect(new Set(first).size).toBe(5)
    }
    expect(rt.instructions({ budgetTokens: 4000 }).length).toBeGreaterThan(
      rt.instructions({ budgetTokens: 2000 }).length,
    )
  })

  it("always has the guide and the catalog's header, even over a tiny budget", () => {
    const text = runtime.instructions({ budgetTokens: 10 })
    expect(text.startsWith("One command per line.")).toBe(true)
    expect(text).toContain("7 tools in 4 groups. This list is PARTIAL: 0 of them have a signature below.")
    expect(text).not.toContain("Signatures")
  })

  it("refuses bad options", () => {
    expect(() => runtime.instructions({ budgetTokens: 0 })).toThrow(RangeError)
    expect(() => runtime.instructions({ budgetTokens: 1.5 })).toThrow(RangeError)
    expect(() => runtime.instructions({ budget: 10 } as any)).toThrow(/budget/)
  })
})

describe("the guides' examples run as they say", () => {
  const orders = {
    orders: {
      lookup: Tool.make({
        description: "Look up an order by ID",
        input: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
        output: { type: "object" },
        execute: (input: any) => Effect.succeed({ id: input.id, status: "complete", note: null }),
      }),
      "lookup-by-id": Tool.make({
        description: "Look up an order by its ID",
        input: { type: "object" },
        output: { type: "object" },
        execute: (input: any) => Effect.succeed({ id: input.id }),
      }),
    },
    x: {
      fail: Tool.make({
        description: "Always fails",
        input: { type: "object" },
        execute: () => Effect.fail(new Error("no such x")),
      }),
      get: Tool.make({
        description: "Get an x",
        input: { type: "object" },
        output: { type: "object" },
        execute: (input: any) => Effect.succeed({ id: input.id }),
      }),
    },
  }
  const run = async (language: "lua" | "javascript", code: string) => {
    const result = await Effect.runPromise(CodeMode.make({ language, tools: orders }).execute(code))
    if (!result.ok) throw new Error(`${result.error.kind}: ${result.error.message}`)
    return result.value
  }

  it("Lua", async () => {
    const guide = CodeMode.make({ language: "lua", tools: orders }).instructions()
    for (const phrase of ["under `body`", "x == json.null", 'search("order lookup")', "`{ offset = n }`"])
      expect(guide).toContain(phrase)
    expect(
      await run(
        "lua",
        `local page = search("order lookup")
         local one = search("orders.lookup")
         local first = search({ query = "", limit = 1 })
         local o = tools.orders["lookup-by-id"]({ id = "42" })
         local v = tools.orders.lookup({ id = "42" }).note
         local name = (v ~= nil and v ~= json.null) and v or "none"
         local parts = {}
         for p in string.gmatch("a, b ,c", "[^,]+") do
           if p == " b " then goto continue end
           parts[#parts + 1] = p:match("^%s*(.-)%s*$")
           ::continue::
         end
         return { best = page.items[1].path, one = #one.items, next = first.next, o = o.id, name = name,
                  null = v == json.null, parts = table.concat(parts, "+"), empty = json.array() }`,
      ),
    ).toEqual({
      best: "orders.lookup",
      one: 1,
      next: { offset: 1 },
      o: "42",
      name: "none",
      null: true,
      parts: "a+c",
      empty: [],
    })
  })

  it("JavaScript", async () => {
    const guide = CodeMode.make({ language: "javascript", tools: orders }).instructions()
    for (const phrase of ["under `body`", "Promise.all", 'search("order lookup")', "not a tool", "REPL"])
      expect(guide).toContain(phrase)
    expect(
      await run(
        "javascript",
        `const o = await tools.orders.lookup({ id: "42" })
         const [a, b] = await Promise.all([tools.x.get({ id: 1 }), tools.x.get({ id: 2 })])
         const page = search("order lookup")
         const awaited = await search({ query: "orders.lookup" })
         let kind = null
         try { await tools.x.fail({}) } catch (e) { kind = e.kind }
         ;({ id: o.id, done: o.status === "complete", a: a.id, b: b.id, best: page.items[0].path,
             one: awaited.items.length, next: search({ query: "", limit: 1 }).next, kind })`,
      ),
    ).toEqual({
      id: "42",
      done: true,
      a: 1,
      b: 2,
      best: "orders.lookup",
      one: 1,
      next: { offset: 1 },
      kind: "ToolFailure",
    })
  })
})
