/**
 * Generation against real public documents shipped in npm packages: the GitHub REST description and the ReadMe
 * example collection (OpenAPI 3.0, 3.1 and Swagger 2.0).
 */
import SwaggerParser from "@apidevtools/swagger-parser"
import { CodeMode } from "@codemode/core"
import { readdirSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { describe, expect, it } from "vitest"
import { OpenAPI } from "../src/index.js"
import { deref, methods, type Document } from "../src/Document.js"

const require = createRequire(import.meta.url)
const examples = dirname(require.resolve("@readme/oas-examples/package.json"))
const github = join(dirname(require.resolve("@octokit/openapi/package.json")), "generated", "api.github.com.json")

/** Count the operations of a document independently of the generator. */
const countOperations = (spec: Document): number => {
  let n = 0
  for (const item of Object.values(spec.paths ?? {})) {
    const resolved = deref(spec, item) as Record<string, unknown>
    for (const method of methods) if (resolved?.[method]) n++
  }
  return n
}

/** Check the accounting and that every signature renders; returns the API. */
const checkDocument = (spec: Document, baseUrl?: string) => {
  const api = OpenAPI.fromSpec({ spec, baseUrl })
  expect(api.operations.length + api.skipped.length).toBe(countOperations(spec))
  for (const skipped of api.skipped) {
    expect(skipped.method).toMatch(/^[A-Z]+$/)
    expect(skipped.path.startsWith("/")).toBe(true)
    expect(skipped.reason.length).toBeGreaterThan(10)
  }
  const runtime = CodeMode.make({
    language: "lua",
    tools: { api: api.tools },
  })
  expect(runtime.catalog.length).toBe(api.operations.length)
  for (const entry of runtime.catalog) {
    expect(entry.signature.startsWith("tools.api")).toBe(true)
    expect(entry.signature).toContain(") -> ")
  }
  return api
}

const readJson = (path: string) => JSON.parse(readFileSync(path, "utf8")) as Document

describe("the GitHub REST description", () => {
  it("becomes tools, with the three operations that need other encodings skipped", () => {
    const spec = readJson(github)
    const api = checkDocument(spec)
    expect(api.operations.length).toBeGreaterThan(1000)
    const skipped = Object.fromEntries(api.skipped.map((s) => [s.operationId, s.reason]))
    expect(skipped["markdown/render-raw"]).toBe(
      "the request body is text/plain, text/x-markdown; only JSON request bodies are supported",
    )
    expect(skipped["repos/upload-release-asset"]).toBe(
      "the request body is application/octet-stream; only JSON request bodies are supported",
    )
    expect(skipped["meta/get-octocat"]).toBe(
      "response 200 is application/octocat-stream: binary responses are not supported (only JSON and text)",
    )
    expect(api.operations.find((o) => o.tool === "repos/get")).toEqual({
      tool: "repos/get",
      method: "GET",
      path: "/repos/{owner}/{repo}",
    })
  })
})

describe("the ReadMe OpenAPI examples", () => {
  for (const version of ["3.0", "3.1"]) {
    const dir = join(examples, version, "json")
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".json"))) {
      it(`${version}/${file}: every operation is a tool or skipped with a reason; signatures render`, () => {
        const spec = readJson(join(dir, file))
        checkDocument(spec)
        checkDocument(spec, "http://127.0.0.1:9")
      })
    }
  }

  it("documents dereferenced in place (recursive schemas as object cycles) still render", async () => {
    for (const file of ["schema-circular", "circular-request-bodies", "circular-paths", "circular", "petstore"]) {
      const spec = (await SwaggerParser.dereference(
        join(examples, "3.0", "json", `${file}.json`),
      )) as unknown as Document
      const api = checkDocument(spec, "http://127.0.0.1:9")
      expect(api.operations.length).toBeGreaterThan(0)
    }
    const spec = (await SwaggerParser.dereference(
      join(examples, "3.0", "json", "schema-circular.json"),
    )) as unknown as Document
    const api = OpenAPI.fromSpec({ spec, baseUrl: "http://127.0.0.1:9" })
    const input = JSON.stringify(api.tools.postNotQuiteCircular.input)
    expect(input).toContain('"$ref":"#/$defs/Recursive"')
  })

  it("the 3.0 and 3.1 petstores: 18 tools, the form and upload operations skipped", () => {
    for (const version of ["3.0", "3.1"]) {
      const api = OpenAPI.fromSpec({
        spec: readJson(join(examples, version, "json", "petstore.json")),
        baseUrl: "http://127.0.0.1:9",
      })
      expect(api.operations.length).toBe(18)
      expect(api.skipped.map((s) => `${s.method} ${s.path}`)).toEqual([
        "POST /pet/{petId}",
        "POST /pet/{petId}/uploadImage",
      ])
      expect(api.operations.map((o) => o.tool)).toContain("findPetsByStatus")
    }
  })

  it("YAML documents load to the same tools as their JSON twins", async () => {
    for (const file of ["petstore", "train-travel", "schema-types", "security", "readme"]) {
      const fromYaml = OpenAPI.fromSpec({
        spec: await OpenAPI.load(join(examples, "3.1", "yaml", `${file}.yaml`)),
        baseUrl: "http://127.0.0.1:9",
      })
      const fromJson = OpenAPI.fromSpec({
        spec: readJson(join(examples, "3.1", "json", `${file}.json`)),
        baseUrl: "http://127.0.0.1:9",
      })
      expect(fromYaml.operations).toEqual(fromJson.operations)
      expect(fromYaml.skipped).toEqual(fromJson.skipped)
    }
  })

  it("Swagger 2.0 documents are rejected with a clear message", async () => {
    const dir = join(examples, "2.0", "json")
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".json"))) {
      expect(() => OpenAPI.fromSpec({ spec: readJson(join(dir, file)) })).toThrow(
        "this is a Swagger 2.0 document; only OpenAPI 3.0 and 3.1 are supported",
      )
      await expect(OpenAPI.load(join(dir, file))).rejects.toThrow("this is a Swagger 2.0 document")
    }
  })
})
