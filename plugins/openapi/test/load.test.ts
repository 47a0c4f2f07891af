import { CodeMode, Contributions } from "@codemode/core"
import { Cause, Effect, Exit, Layer } from "effect"
import { readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { OpenAPI } from "../src/index.js"
import { json, start, type TestServer } from "./support/server.js"
import { run, toolAt } from "./support/spec.js"

const fixtures = join(dirname(fileURLToPath(import.meta.url)), "fixtures", "external")

let server: TestServer
beforeAll(async () => {
  server = await start((req, res) => {
    if (req.url.startsWith("/docs/")) {
      try {
        const text = readFileSync(join(fixtures, req.url.slice("/docs/".length)), "utf8")
        res.writeHead(200, { "content-type": "application/yaml" })
        res.end(text)
      } catch {
        json(res, 404, { error: "not found" })
      }
      return
    }
    json(res, 200, { id: "p1", name: "Lamp", path: req.url })
  })
})
afterAll(() => server.close())

const minimal = {
  openapi: "3.1.0",
  info: { title: "t", version: "1" },
  paths: { "/a": { get: { operationId: "a", responses: {} } } },
}

describe("OpenAPI.load", () => {
  it("loads a split YAML document from a file, bundling external $refs (cycles included)", async () => {
    const spec = await OpenAPI.load(join(fixtures, "main.yaml"))
    const api = OpenAPI.fromSpec({ spec, baseUrl: server.url })
    expect(api.operations.map((o) => o.tool)).toEqual(["products.get", "products.create"])
    const runtime = CodeMode.make({ language: "lua", tools: api.tools })
    const create = runtime.catalog.find((c) => c.path === "products.create")!.signature
    expect(create).toContain("name: string")
    expect(create.split("->")[0]).not.toMatch(/\bid\b/)
    expect(await run(toolAt(api.tools, "products.get"), { id: "a b" })).toEqual({
      id: "p1",
      name: "Lamp",
      path: "/products/a%20b",
    })
  })

  it("loads from a loopback URL and resolves relative servers against it", async () => {
    const spec = await OpenAPI.load(`${server.url}/docs/main.yaml`)
    const api = OpenAPI.fromSpec({ spec })
    expect(api.skipped).toEqual([])
    expect(await run(toolAt(api.tools, "products.get"), { id: "7" })).toEqual({
      id: "p1",
      name: "Lamp",
      path: "/api/products/7",
    })
  })

  it("loads JSON and YAML text and objects", async () => {
    expect((await OpenAPI.load(JSON.stringify(minimal))).paths).toEqual(minimal.paths)
    const yamlText = "openapi: 3.0.3\ninfo: { title: t, version: '1' }\npaths:\n  /a:\n    get:\n      responses: {}\n"
    expect(Object.keys((await OpenAPI.load(yamlText)).paths!)).toEqual(["/a"])
    expect((await OpenAPI.load(minimal)).openapi).toBe("3.1.0")
  })

  it("fails with one clear line for bad sources", async () => {
    await expect(OpenAPI.load("does/not/exist.yaml")).rejects.toThrow("OpenAPI document not found: does/not/exist.yaml")
    await expect(OpenAPI.load(fixtures)).rejects.toThrow("not a file")
    await expect(OpenAPI.load('{"openapi": "3.1.0",')).rejects.toThrow(/^the document is not valid JSON: /)
    await expect(OpenAPI.load("openapi: [3.1\n")).rejects.toThrow(/^the document is not valid YAML: /)
    await expect(OpenAPI.load("openapi: 3.2.0\npaths: {}\n")).rejects.toThrow(
      "the document text: OpenAPI version 3.2.0 is not supported",
    )
    await expect(OpenAPI.load("openapi: 3.1\npaths: {}\n")).rejects.toThrow(
      'the "openapi" version must be a string such as "3.1.0", not the number 3.1',
    )
    await expect(OpenAPI.load("openapi: 3.1.0\ninfo: {}\n")).rejects.toThrow(
      'the document text: the document has no "paths"',
    )
    await expect(OpenAPI.load(join(fixtures, "schemas.yaml"))).rejects.toThrow(/schemas\.yaml/)
    await expect(OpenAPI.load(`${server.url}/docs/missing.yaml`)).rejects.toThrow(
      /^cannot load http:\/\/127\.0\.0\.1:\d+\/docs\/missing\.yaml: /,
    )
    await expect(OpenAPI.load("ftp://example.test/x.yaml")).rejects.toThrow(
      "only file paths and http(s) URLs are supported",
    )
    await expect(OpenAPI.load("")).rejects.toThrow("no OpenAPI document given")
  })
})

describe("OpenAPI.layer", () => {
  it("contributes the tools as a ToolSource, from a spec or a source to load", async () => {
    const fromSpec = OpenAPI.layer({ spec: minimal, baseUrl: server.url, mount: "mini" })
    const fromSource = OpenAPI.layer({ source: join(fixtures, "main.yaml"), baseUrl: server.url, mount: "store" })
    const sources = await Effect.runPromise(
      Effect.gen(function* () {
        const registry = yield* Effect.service(Contributions.Contributions)
        yield* Layer.build(Layer.mergeAll(fromSpec, fromSource))
        return registry.toolSources
      }).pipe(Effect.scoped, Effect.provide(Contributions.layer)),
    )
    expect(sources.map((s) => [s.mount, Object.keys(s.tools)])).toEqual([
      ["mini", ["a"]],
      ["store", ["products.get", "products.create"]],
    ])
  })

  it("fails to build with a DocumentError for a bad source", async () => {
    const exit = await Effect.runPromiseExit(
      Layer.build(OpenAPI.layer({ source: "missing.yaml" })).pipe(Effect.scoped, Effect.provide(Contributions.layer)),
    )
    expect(Exit.isFailure(exit) && (Cause.squash(exit.cause) as Error).message).toBe(
      "OpenAPI document not found: missing.yaml",
    )
  })
})
