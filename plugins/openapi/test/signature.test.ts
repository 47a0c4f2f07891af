import { CodeMode } from "@codemode/core"
import { describe, expect, it } from "vitest"
import { OpenAPI } from "../src/index.js"
import { doc } from "./support/spec.js"

/** A runtime used only for its catalog and search: the worker module is never loaded. */
const catalogOf = (tools: OpenAPI.Api["tools"], language: "lua" | "javascript" = "lua") =>
  CodeMode.make({ language, tools: { store: tools } })

const spec = doc(
  {
    "/pets": {
      post: {
        operationId: "pets.create",
        summary: "Add a pet",
        requestBody: {
          required: true,
          content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" } } },
        },
        responses: {
          "201": { description: "", content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" } } } },
        },
      },
    },
    "/pets/{petId}": {
      get: {
        operationId: "pets.get",
        parameters: [
          { name: "petId", in: "path", required: true, description: "The pet's id", schema: { type: "integer" } },
        ],
        responses: {
          "200": { description: "", content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" } } } },
        },
      },
    },
  },
  {
    servers: [{ url: "http://127.0.0.1:9" }],
    components: {
      schemas: {
        Pet: {
          type: "object",
          required: ["name"],
          properties: {
            id: { type: "integer", readOnly: true },
            name: { type: "string" },
            secret: { type: "string", writeOnly: true },
            owner: { $ref: "#/components/schemas/Owner" },
          },
        },
        Owner: {
          type: "object",
          properties: { id: { type: "integer", readOnly: true }, pin: { type: "string", writeOnly: true } },
        },
      },
    },
  },
)

describe("signatures", () => {
  it("request signatures omit readOnly properties, response signatures omit writeOnly ones, at every depth", () => {
    const runtime = catalogOf(OpenAPI.fromSpec({ spec }).tools)
    const create = runtime.catalog.find((c) => c.path === "store.pets.create")!
    const [input, output] = create.signature.split("->")
    expect(input).toContain("name")
    expect(input).toContain("secret")
    expect(input).toContain("pin")
    expect(input).not.toMatch(/\bid\b/)
    expect(output).toMatch(/\bid\b/)
    expect(output).not.toContain("secret")
    expect(output).not.toContain("pin")
  })

  it("render in Lua and JavaScript with paths, descriptions and parameter docs", () => {
    const api = OpenAPI.fromSpec({ spec })
    const lua = catalogOf(api.tools, "lua").catalog.find((c) => c.path === "store.pets.get")!
    expect(lua.signature).toMatch(/^tools\.store\.pets\.get\(/)
    expect(lua.signature).toContain("petId: integer")
    expect(lua.signature).toContain("The pet's id")
    expect(lua.description).toBe("GET /pets/{petId}")
    const js = catalogOf(api.tools, "javascript").catalog.find((c) => c.path === "store.pets.get")!
    expect(js.signature).toContain("petId: number")
    expect(js.signature).toContain("Promise<")
  })

  it("search finds tools by words of their path and description", () => {
    const runtime = catalogOf(OpenAPI.fromSpec({ spec }).tools)
    expect(runtime.search({ query: "add pet" }).items[0].path).toBe("store.pets.create")
  })
})
