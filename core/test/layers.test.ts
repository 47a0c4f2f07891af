import { CodeMode, Contributions, Extension, Language, Tool, ToolSource } from "@codemode/core"
import { Effect, Layer, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { lineLanguage } from "./language.js"

const echo = Tool.make({
  description: "Echo the input",
  input: Schema.Struct({ text: Schema.String }),
  output: Schema.String,
  execute: ({ text }) => Effect.succeed(text),
})

describe("layer form", () => {
  it("merges language, several tool sources and extensions into one CodeMode service", async () => {
    const env = Layer.mergeAll(
      Language.layer(lineLanguage()),
      ToolSource.layer("orders", { echo }),
      ToolSource.layer("", { top: echo }),
      Extension.layer(Extension.make({ name: "clock", globals: { now: () => 42 } })),
    )
    const program = Effect.gen(function* () {
      const codemode = yield* CodeMode.CodeMode
      const catalog = codemode.catalog.map((c) => c.path)
      const result = yield* codemode.execute(`call orders.echo {"text":"hi"}\next clock now []\nreturn $`)
      return { catalog, result }
    })
    const { catalog, result } = await Effect.runPromise(
      program.pipe(Effect.provide(CodeMode.layer().pipe(Layer.provide(env), Layer.provide(Contributions.layer)))),
    )
    expect(catalog).toEqual(["orders.echo", "top"])
    expect(result).toMatchObject({ ok: true, value: 42 })
  })

  it("fails with a typed error when no language is provided", async () => {
    const error = await Effect.runPromise(
      Effect.service(CodeMode.CodeMode).pipe(
        Effect.provide(CodeMode.layer({ language: "lua" }).pipe(Layer.provide(Contributions.layer))),
        Effect.flip,
      ),
    )
    expect(error).toBeInstanceOf(Language.LanguageNotProvided)
    expect(error.message).toMatch(/lua is not provided; provide the layer from @codemode\/lang-lua/)
  })
})

describe("language resolution", () => {
  it("names the package to install for a language that is not installed, and rejects unknown names", () => {
    expect(Language.packageOf("lua")).toBe("@codemode/lang-lua")
    expect(Language.packageOf("javascript")).toBe("@codemode/lang-js")
    expect(() => Language.resolve("cobol")).toThrow(/unknown language "cobol"/)
    for (const name of ["lua", "javascript"] as const) {
      const found = Language.find(name)
      if (found) expect(found.workerModule).toMatch(/^file:/)
      else expect(() => Language.resolve(name)).toThrow(`install ${Language.packageOf(name)}`)
    }
  })
})
