import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Parameter from "../src/Parameter.js"
import { OpenAPI } from "../src/index.js"
import { doc, failure, ok, run, toolAt } from "./support/spec.js"
import { start, type TestServer } from "./support/server.js"

const plan = (p: Partial<Parameter.Plan> & Pick<Parameter.Plan, "in" | "style" | "explode">): Parameter.Plan => ({
  name: "color",
  required: false,
  allowReserved: false,
  json: false,
  ...p,
})

const primitive = "blue"
const array = ["blue", "black", "brown"]
const object = { R: 100, G: 200, B: 150 }

describe("path styles (the OpenAPI style table)", () => {
  const cases: Array<[Parameter.Style, boolean, string, string, string]> = [
    ["simple", false, "blue", "blue,black,brown", "R,100,G,200,B,150"],
    ["simple", true, "blue", "blue,black,brown", "R=100,G=200,B=150"],
    ["label", false, ".blue", ".blue,black,brown", ".R,100,G,200,B,150"],
    ["label", true, ".blue", ".blue.black.brown", ".R=100.G=200.B=150"],
    ["matrix", false, ";color=blue", ";color=blue,black,brown", ";color=R,100,G,200,B,150"],
    ["matrix", true, ";color=blue", ";color=blue;color=black;color=brown", ";R=100;G=200;B=150"],
  ]
  for (const [style, explode, p, a, o] of cases) {
    it(`${style} explode=${explode}`, () => {
      const param = plan({ in: "path", style, explode })
      expect(Parameter.pathSegment(param, primitive)).toBe(p)
      expect(Parameter.pathSegment(param, array)).toBe(a)
      expect(Parameter.pathSegment(param, object)).toBe(o)
    })
  }

  it("percent-encodes path values, including slashes", () => {
    const param = plan({ in: "path", style: "simple", explode: false })
    expect(Parameter.pathSegment(param, "a/b c?d#e%f")).toBe("a%2Fb%20c%3Fd%23e%25f")
    expect(Parameter.pathSegment(param, "it's (x)*!")).toBe("it%27s%20%28x%29%2A%21")
    expect(Parameter.pathSegment(param, 42)).toBe("42")
    expect(Parameter.pathSegment(param, true)).toBe("true")
  })

  it("rejects null and nested values with the parameter's name", () => {
    const param = plan({ in: "path", style: "simple", explode: false, name: "id" })
    expect(() => Parameter.pathSegment(param, null)).toThrow(
      'parameter "id" is part of the URL path and cannot be null',
    )
    expect(() => Parameter.pathSegment(param, [["x"]])).toThrow('parameter "id": item 1 is an array')
    expect(() => Parameter.pathSegment(param, { a: { b: 1 } })).toThrow('parameter "id": property "a" is an object')
  })
})

describe("query styles (the OpenAPI style table)", () => {
  const cases: Array<[Parameter.Style, boolean, string[], string[], string[]]> = [
    ["form", false, ["color=blue"], ["color=blue,black,brown"], ["color=R,100,G,200,B,150"]],
    ["form", true, ["color=blue"], ["color=blue", "color=black", "color=brown"], ["R=100", "G=200", "B=150"]],
    ["spaceDelimited", false, ["color=blue"], ["color=blue%20black%20brown"], ["color=R%20100%20G%20200%20B%20150"]],
    ["pipeDelimited", false, ["color=blue"], ["color=blue|black|brown"], ["color=R|100|G|200|B|150"]],
  ]
  for (const [style, explode, p, a, o] of cases) {
    it(`${style} explode=${explode}`, () => {
      const param = plan({ in: "query", style, explode })
      expect(Parameter.queryPieces(param, primitive)).toEqual(p)
      expect(Parameter.queryPieces(param, array)).toEqual(a)
      expect(Parameter.queryPieces(param, object)).toEqual(o)
    })
  }

  it("deepObject", () => {
    const param = plan({ in: "query", style: "deepObject", explode: true })
    expect(Parameter.queryPieces(param, object)).toEqual(["color[R]=100", "color[G]=200", "color[B]=150"])
    expect(Parameter.queryPieces(param, { "a b": "c&d" })).toEqual(["color[a%20b]=c%26d"])
    expect(() => Parameter.queryPieces(param, "blue")).toThrow(
      'parameter "color" (style deepObject) must be an object, not string',
    )
    expect(() => Parameter.queryPieces(param, array)).toThrow("must be an object, not an array")
    expect(() => Parameter.queryPieces(param, { R: { x: 1 } })).toThrow('property "R" is an object')
  })

  it("empty values and null", () => {
    const param = plan({ in: "query", style: "form", explode: true })
    expect(Parameter.queryPieces(param, "")).toEqual(["color="])
    expect(Parameter.queryPieces(param, null)).toEqual(["color="])
    expect(Parameter.queryPieces(param, [])).toEqual([])
    expect(Parameter.queryPieces(plan({ in: "query", style: "form", explode: false }), [])).toEqual(["color="])
  })

  it("encodes reserved characters unless allowReserved", () => {
    const strict = plan({ in: "query", style: "form", explode: true })
    const reserved = plan({ in: "query", style: "form", explode: true, allowReserved: true })
    expect(Parameter.queryPieces(strict, "a/b?c=d&e")).toEqual(["color=a%2Fb%3Fc%3Dd%26e"])
    expect(Parameter.queryPieces(reserved, "a/b?c=d&e [x]#")).toEqual(["color=a/b?c=d&e%20[x]%23"])
  })

  it("JSON content parameters are sent as JSON text", () => {
    const param = plan({ in: "query", style: "form", explode: true, json: true, name: "filter" })
    expect(Parameter.queryPieces(param, { a: [1, 2] })).toEqual([`filter=${encodeURIComponent('{"a":[1,2]}')}`])
  })
})

describe("header style", () => {
  it("simple, exploded or not, unencoded", () => {
    expect(Parameter.headerValue(plan({ in: "header", style: "simple", explode: false }), "a b/c")).toBe("a b/c")
    expect(Parameter.headerValue(plan({ in: "header", style: "simple", explode: false }), array)).toBe(
      "blue,black,brown",
    )
    expect(Parameter.headerValue(plan({ in: "header", style: "simple", explode: false }), object)).toBe(
      "R,100,G,200,B,150",
    )
    expect(Parameter.headerValue(plan({ in: "header", style: "simple", explode: true }), object)).toBe(
      "R=100,G=200,B=150",
    )
    expect(Parameter.headerValue(plan({ in: "header", style: "simple", explode: false, json: true }), { a: 1 })).toBe(
      '{"a":1}',
    )
  })
  it("refuses line breaks", () => {
    expect(() =>
      Parameter.headerValue(plan({ in: "header", style: "simple", explode: false, name: "X-Id" }), "a\r\nB: c"),
    ).toThrow('header parameter "X-Id" cannot contain line breaks')
  })
})

describe("parameters on the wire", () => {
  let server: TestServer
  beforeAll(async () => {
    server = await start()
  })
  afterAll(() => server.close())

  const spec = () =>
    doc(
      {
        "/colors/{color}/{label}/{matrix}": {
          parameters: [{ name: "X-Trace", in: "header", schema: { type: "string" } }],
          get: {
            operationId: "colors.get",
            parameters: [
              { name: "color", in: "path", required: true, schema: { type: "string" } },
              { name: "label", in: "path", required: true, style: "label", schema: { type: "array" } },
              {
                name: "matrix",
                in: "path",
                required: true,
                style: "matrix",
                explode: true,
                schema: { type: "object" },
              },
              { name: "tags", in: "query", schema: { type: "array", items: { type: "string" } } },
              { name: "ids", in: "query", style: "form", explode: false, schema: { type: "array" } },
              { name: "sizes", in: "query", style: "pipeDelimited", schema: { type: "array" } },
              { name: "words", in: "query", style: "spaceDelimited", schema: { type: "array" } },
              { name: "filter", in: "query", style: "deepObject", explode: true, schema: { type: "object" } },
              { name: "point", in: "query", schema: { type: "object" } },
              { name: "where", in: "query", content: { "application/json": { schema: { type: "object" } } } },
              { name: "X-Tenant", in: "header", required: true, schema: { type: "integer" } },
              { name: "Accept", in: "header", schema: { type: "string" } },
            ],
            responses: ok(),
          },
        },
      },
      { servers: [{ url: server.url + "/v1/" }] },
    )

  it("sends every style as the document describes", async () => {
    const api = OpenAPI.fromSpec({ spec: spec() })
    expect(api.skipped).toEqual([])
    const result = (await run(toolAt(api.tools, "colors.get"), {
      color: "navy blue/x",
      label: ["a", "b"],
      matrix: { r: 1, g: 2 },
      tags: ["x", "y z"],
      ids: [1, 2, 3],
      sizes: ["s", "m"],
      words: ["hello", "world"],
      filter: { status: "open", "min price": 5 },
      point: { x: 1, y: 2 },
      where: { name: { eq: "a&b" } },
      "X-Tenant": 7,
      "X-Trace": "t-1",
    })) as { url: string; headers: Record<string, string> }
    expect(result.url).toBe(
      "/v1/colors/navy%20blue%2Fx/.a,b/;r=1;g=2" +
        "?tags=x&tags=y%20z&ids=1,2,3&sizes=s|m&words=hello%20world" +
        "&filter[status]=open&filter[min%20price]=5&x=1&y=2" +
        `&where=${encodeURIComponent('{"name":{"eq":"a&b"}}')}`,
    )
    expect(result.headers["x-tenant"]).toBe("7")
    expect(result.headers["x-trace"]).toBe("t-1")
    expect(result.headers.accept).toBe("application/json")
  })

  it("leaves out optional parameters that are not given, and fails on missing required ones", async () => {
    const api = OpenAPI.fromSpec({ spec: spec() })
    const tool = toolAt(api.tools, "colors.get")
    const result = (await run(tool, { color: "c", label: "l", matrix: "m", "X-Tenant": 1 })) as { url: string }
    expect(result.url).toBe("/v1/colors/c/.l/;matrix=m")
    expect(await failure(tool, { color: "c", label: "l", matrix: "m" })).toBe(
      'GET /colors/{color}/{label}/{matrix}: missing required header parameter "X-Tenant"',
    )
    expect(await failure(tool, { label: "l", matrix: "m", "X-Tenant": 1 })).toBe(
      'GET /colors/{color}/{label}/{matrix}: missing required path parameter "color"',
    )
  })

  it("reports a value its style cannot encode", async () => {
    const api = OpenAPI.fromSpec({ spec: spec() })
    expect(
      await failure(toolAt(api.tools, "colors.get"), {
        color: "c",
        label: "l",
        matrix: "m",
        "X-Tenant": 1,
        filter: { a: [1] },
      }),
    ).toBe(
      'GET /colors/{color}/{label}/{matrix}: parameter "filter": property "a" is an array; style deepObject can only send flat objects of strings, numbers and booleans',
    )
  })
})
