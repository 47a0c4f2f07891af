import { CodeMode, Data, Extension, Language, Namespace, SandboxPool, Tool } from "@codemode/core"
import { Effect, Schema } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { lineLanguage } from "./language.js"

const pool = new SandboxPool({ keepIdle: 2 })
afterAll(() => pool.close())

const lookup = Tool.make({
  description: "Look up an order by ID",
  input: Schema.Struct({ id: Schema.String, count: Schema.optionalKey(Schema.NumberFromString) }),
  output: Schema.Struct({ id: Schema.String, status: Schema.String }),
  execute: ({ id }) => Effect.succeed({ id, status: id === "bad" ? 42 : "open", extra: "kept?" } as any),
})
const jsonTool = Tool.make({
  description: "JSON schema tool",
  input: { type: "object", properties: { q: { type: "string" } } },
  output: { type: "object" },
  execute: (input) => Effect.succeed({ echoed: input, when: new Date(0) } as unknown),
})
const silent = Tool.make({
  description: "Returns nothing visible",
  input: { type: "object" },
  execute: () => Effect.succeed({ secret: 1 }),
})
const failing = Tool.make({
  description: "Always fails",
  input: { type: "object" },
  output: { type: "object" },
  execute: () => Effect.fail(new Error("backend down", { cause: new Error("connection refused") })),
})

const run = (code: string, options: Partial<CodeMode.Options<any, any>> = {}) =>
  Effect.runPromise(
    CodeMode.make({
      language: lineLanguage(),
      pool,
      tools: { orders: { lookup }, jsonTool, silent, failing },
      ...options,
    }).execute(code) as Effect.Effect<CodeMode.Result>,
  )

describe("Tool.make", () => {
  it("decodes Effect Schema input before execute and reports invalid input", async () => {
    expect(await run(`call orders.lookup {"id":"o1"}\nreturn $`)).toMatchObject({
      ok: true,
      value: { id: "o1", status: "open" },
    })
    const bad = await run(`call orders.lookup {"id":7}`)
    expect(bad).toMatchObject({ ok: false, error: { kind: "InvalidToolInput", location: { line: 1, column: 1 } } })
    expect(bad.ok === false && bad.error.message).toContain("invalid input for orders.lookup")
  })
  it("decodes Effect Schema output: extra fields dropped, invalid output reported", async () => {
    const ok = await run(`call orders.lookup {"id":"o1"}\nreturn $`)
    expect(ok.ok && ok.value).toEqual({ id: "o1", status: "open" })
    const bad = await run(`call orders.lookup {"id":"bad"}`)
    expect(bad).toMatchObject({ ok: false, error: { kind: "InvalidToolOutput" } })
  })
  it("JSON Schema only shapes the signature; output must still be plain data", async () => {
    const bad = await run(`call jsonTool {"q":"x"}`)
    expect(bad).toMatchObject({ ok: false, error: { kind: "InvalidToolOutput" } })
    expect(bad.ok === false && bad.error.message).toMatch(/Date/)
  })
  it("without output the program receives null", async () => {
    expect(await run(`call silent {}\nreturn $`)).toMatchObject({ ok: true, value: null })
  })
  it("a failing tool is a ToolFailure with its message and cause, catchable by the program", async () => {
    const result = await run(`call failing {}`)
    expect(result).toMatchObject({ ok: false, error: { kind: "ToolFailure" } })
    expect(result.ok === false && result.error.message).toBe("failing failed: backend down (cause: connection refused)")
    const caught = await run(`try call failing {}\nreturn $`)
    expect(caught).toMatchObject({ ok: true, value: { kind: "ToolFailure" } })
    expect(caught.toolCalls).toMatchObject([{ name: "failing", status: "failure" }])
  })
  it("rejects malformed definitions", () => {
    expect(() => Tool.make({ description: 1 as any, input: {}, execute: () => Effect.void })).toThrow(TypeError)
    expect(() => Tool.make({ description: "x", input: 5 as any, execute: () => Effect.void })).toThrow(/input/)
  })
})

describe("names and namespaces", () => {
  it("dotted keys create nested paths; other characters need brackets", () => {
    const rt = CodeMode.make({
      language: lineLanguage(),
      tools: {
        "a.b": silent,
        ctx: { "resolve-library-id": silent },
        orders: Namespace.make({ description: "Purchases", tools: { lookup } }),
      },
    })
    expect(rt.catalog.map((c) => c.path)).toEqual(["a.b", "ctx.resolve-library-id", "orders.lookup"])
    expect(CodeMode.toolExpression("ctx.resolve-library-id")).toBe('tools.ctx["resolve-library-id"]')
    expect(CodeMode.toolExpression("ctx.resolve-library-id", "lua")).toBe('tools.ctx["resolve-library-id"]')
    expect(CodeMode.toolExpression("a.end", "lua")).toBe('tools.a["end"]')
    expect(CodeMode.toolExpression("a.end")).toBe("tools.a.end")
  })
  it("an empty segment is a TypeError at make; so are duplicates and tool/namespace clashes", () => {
    expect(() => CodeMode.make({ language: lineLanguage(), tools: { "a..b": silent } })).toThrow(/empty segment/)
    expect(() => CodeMode.make({ language: lineLanguage(), tools: { ".a": silent } })).toThrow(TypeError)
    expect(() => CodeMode.make({ language: lineLanguage(), tools: { "a.b": silent, a: { b: silent } } })).toThrow(
      /twice/,
    )
    expect(() => CodeMode.make({ language: lineLanguage(), tools: { a: silent, "a.b": silent } })).toThrow(TypeError)
  })
  it("an unknown tool is an UnknownTool diagnostic", async () => {
    expect(await run(`call orders.nope {}`)).toMatchObject({ ok: false, error: { kind: "UnknownTool" } })
  })
})

describe("hooks", () => {
  it("before receives decoded input; a failing before denies and the tool never runs", async () => {
    let ran = 0
    const counted = Tool.make({
      description: "Count",
      input: Schema.Struct({ n: Schema.NumberFromString }),
      output: Schema.Number,
      execute: ({ n }) => Effect.sync(() => ++ran + n),
    })
    const seen: unknown[] = []
    const after: string[] = []
    const result = await run(`try call counted {"n":"5"}\nreturn $`, {
      tools: { counted },
      hooks: {
        "tool.before": (call: any) => {
          seen.push(call)
          return Effect.fail(new Error("not allowed"))
        },
        "tool.after": (_c: any, o: any) => void after.push(o.status),
      },
    })
    expect(seen).toEqual([{ name: "counted", input: { n: 5 } }])
    expect(ran).toBe(0)
    expect(after).toEqual([])
    expect(result).toMatchObject({ ok: true, value: { kind: "ToolFailure", error: "counted was denied: not allowed" } })
    expect(result.toolCalls).toMatchObject([{ name: "counted", status: "denied" }])
  })
  it("after receives success with the value and failure with the error", async () => {
    const outcomes: unknown[] = []
    await run(`call orders.lookup {"id":"o1"}\ntry call failing {}\nreturn 1`, {
      hooks: {
        "tool.after": (call: any, outcome: any) =>
          void outcomes.push([call.name, outcome.status, outcome.value ?? outcome.error?.message]),
      },
    })
    expect(outcomes).toEqual([
      ["orders.lookup", "success", { id: "o1", status: "open" }],
      ["failing", "failure", "failing failed: backend down (cause: connection refused)"],
    ])
  })
  it("search passes through the tool hooks", async () => {
    const names: string[] = []
    await run(`search {"query":"order"}`, { hooks: { "tool.before": (call: any) => void names.push(call.name) } })
    expect(names).toEqual(["search"])
  })
})

describe("extensions", () => {
  const fsExt = Extension.make({
    name: "fs",
    globals: {
      fs: {
        readFile: (path: string) => `contents of ${path}`,
        promises: { readFile: Extension.async(async (path: string) => `async ${path}`) },
      },
      fail: () => {
        throw new Error("nope")
      },
      effectful: () => Effect.succeed({ from: "effect" }),
    },
  })
  it("calls object-of-function globals with their path as name and fires hooks", async () => {
    const calls: unknown[] = []
    const result = await run(`ext fs fs.readFile ["a.txt"]\nreturn $`, {
      extensions: [fsExt],
      hooks: { "extension.before": (call: any) => void calls.push(call) },
    })
    expect(result).toMatchObject({ ok: true, value: "contents of a.txt" })
    expect(calls).toEqual([{ extension: "fs", name: "fs.readFile", args: ["a.txt"] }])
    expect(await run(`ext fs fs.promises.readFile ["b"]\nreturn $`, { extensions: [fsExt] })).toMatchObject({
      value: "async b",
    })
    expect(await run(`ext fs effectful []\nreturn $`, { extensions: [fsExt] })).toMatchObject({
      value: { from: "effect" },
    })
    expect(await run(`try ext fs fail []\nreturn $`, { extensions: [fsExt] })).toMatchObject({
      value: { error: "fail failed: nope" },
    })
  })
  it("a denied extension call never reaches the host function", async () => {
    let called = false
    const ext = Extension.make({ name: "x", globals: { touch: () => void (called = true) } })
    const result = await run(`try ext x touch []\nreturn $`, {
      extensions: [ext],
      hooks: { "extension.before": () => Promise.reject(new Error("denied by policy")) },
    })
    expect(called).toBe(false)
    expect(result).toMatchObject({ ok: true, value: { error: "touch was denied: denied by policy" } })
  })
  it("shadowing a built-in or another extension throws at make", () => {
    const a = Extension.make({ name: "a", globals: { fetch: () => 1 } })
    const b = Extension.make({ name: "b", globals: { fetch: () => 2 } })
    expect(() => CodeMode.make({ language: lineLanguage(), extensions: [a, b] })).toThrow(
      /already provided by extension "a"/,
    )
    const bad = Extension.make({ name: "c", globals: { print: () => 1 } })
    expect(() => CodeMode.make({ language: lineLanguage(), extensions: [bad] })).toThrow(/shadow/)
    expect(() => Extension.make({ name: "d", globals: { "not-id": () => 1 } as any })).toThrow(/identifier/)
    const luaOnly = Extension.lua({ name: "l", globals: { f: () => 1 } })
    expect(() => CodeMode.make({ language: lineLanguage({ name: "javascript" }), extensions: [luaOnly] })).toThrow(
      /Extension.lua/,
    )
  })
  it("marks async globals", () => {
    expect(Extension.isAsync(async () => 1)).toBe(true)
    expect(Extension.isAsync(Extension.async(() => Promise.resolve(1)))).toBe(true)
    expect(Extension.isAsync(() => 1)).toBe(false)
    expect(Extension.shape(fsExt).globals).toEqual({
      fs: { readFile: "sync", promises: { readFile: "async" } },
      fail: "sync",
      effectful: "sync",
    })
  })
})

describe("limits", () => {
  it("validates at make with RangeError naming the limit and range", () => {
    expect(() => CodeMode.make({ language: lineLanguage(), limits: { timeoutMs: 0 } })).toThrow(RangeError)
    expect(() => CodeMode.make({ language: lineLanguage(), limits: { timeoutMs: -1 } })).toThrow(
      /limits.timeoutMs must be a whole number from 1 to 2147483647/,
    )
    expect(() => CodeMode.make({ language: lineLanguage(), limits: { maxToolCalls: 1.5 } })).toThrow(/maxToolCalls/)
    expect(() => CodeMode.make({ language: lineLanguage(), limits: { maxOutputBytes: 10 } })).toThrow(/maxOutputBytes/)
    expect(() => CodeMode.make({ language: lineLanguage(), limits: { bogus: 1 } as any })).toThrow(
      /limits: unknown option "bogus"/,
    )
    expect(CodeMode.make({ language: lineLanguage(), limits: { timeoutMs: Infinity } }).limits.timeoutMs).toBe(Infinity)
  })
  it("has the seed's defaults per language", () => {
    expect(Language.find("lua")!.defaults).toEqual({ timeoutMs: 120000, maxToolCalls: 128, maxOutputBytes: 65536 })
    expect(Language.find("javascript")!.defaults).toEqual({
      timeoutMs: Infinity,
      maxToolCalls: Infinity,
      maxOutputBytes: Infinity,
    })
  })
  it("maxToolCalls ends the program with ToolCallLimitExceeded, uncatchable, keeping admitted calls", async () => {
    const code = [`call silent {}`, `call silent {}`, `try call silent {}`, `return 1`].join("\n")
    const result = await run(code, { limits: { maxToolCalls: 2 } })
    expect(result).toMatchObject({ ok: false, error: { kind: "ToolCallLimitExceeded", location: { line: 3 } } })
    expect(result.toolCalls).toHaveLength(2)
  })
  it("search counts toward maxToolCalls; extensions only when the language says so", async () => {
    const ext = Extension.make({ name: "e", globals: { f: () => 1 } })
    expect(await run(`search {}\nsearch {}`, { limits: { maxToolCalls: 1 } })).toMatchObject({
      error: { kind: "ToolCallLimitExceeded" },
    })
    expect(await run(`ext e f []\nreturn 1`, { extensions: [ext], limits: { maxToolCalls: 0 } })).toMatchObject({
      error: { kind: "ToolCallLimitExceeded" },
    })
    expect(
      await run(`ext e f []\nreturn 1`, {
        language: lineLanguage({ extensionsCountTowardLimit: false }),
        extensions: [ext],
        limits: { maxToolCalls: 0 },
      }),
    ).toMatchObject({ ok: true, value: 1 })
  })
})

describe("output bounding", () => {
  it("an oversized value becomes a string with an in-band marker", async () => {
    const big = JSON.stringify({ text: "x".repeat(1000) })
    const result = await run(`return ${big}`, { limits: { maxOutputBytes: 300 } })
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(typeof result.value).toBe("string")
    expect(Buffer.byteLength(result.value as string)).toBeLessThanOrEqual(300)
    expect(result.value).toMatch(/^\{"text":"xxx/)
    expect(result.value).toMatch(/…\[truncated: the value was 1011 bytes of JSON; maxOutputBytes is 300\]$/)
    expect(result.truncated).toBe(true)
  })
  it("logs are cut with a marker line; warnings have their own budget and a Truncated warning", async () => {
    const lines = Array.from({ length: 50 }, (_, i) => `log line ${i} ${"y".repeat(20)}`)
    const warns = Array.from({ length: 30 }, (_, i) => `warn warning ${i} ${"z".repeat(20)}`)
    const result = await run([...lines, ...warns, "return 1"].join("\n"), { limits: { maxOutputBytes: 400 } })
    expect(result).toMatchObject({ ok: true, value: 1, truncated: true })
    if (!result.ok) return
    expect(result.logs!.at(-1)).toMatch(/^…\[truncated: \d+ more log lines omitted\]$/)
    expect(result.logs!.length).toBeLessThan(50)
    expect(result.warnings!.at(-1)).toMatchObject({ kind: "Truncated" })
    expect(result.warnings!.length).toBeLessThan(31)
  })
  it("without truncation there is no flag", async () => {
    const result = await run(`log hi\nreturn 1`)
    expect(result).toEqual({ ok: true, value: 1, logs: ["hi"], toolCalls: [] })
  })
})

describe("data contract", () => {
  it("copies plain data and keeps empty arrays and objects apart", () => {
    expect(Data.copyData({ a: [], b: {}, c: [1, "x", null, true] })).toEqual({ a: [], b: {}, c: [1, "x", null, true] })
    expect(Array.isArray((Data.copyData({ a: [] }) as any).a)).toBe(true)
  })
  it("names the path of cycles, non-data, non-finite numbers and depth", () => {
    const cyclic: any = { a: [1] }
    cyclic.a.push(cyclic)
    expect(() => Data.copyData(cyclic)).toThrow("a cycle (the value contains itself) at $.a[1]")
    expect(() => Data.copyData({ f: () => 1 })).toThrow("a function is not data at $.f")
    expect(() => Data.copyData({ n: NaN })).toThrow("NaN is not a finite number at $.n")
    expect(() => Data.copyData({ m: new Map() })).toThrow("a Map is not data at $.m")
    expect(() => Data.copyData({ "odd key": [undefined] })).toThrow(
      'undefined is not data (use null) at $["odd key"][0]',
    )
    let deep: any = 1
    for (let i = 0; i < 70; i++) deep = [deep]
    expect(() => Data.copyData(deep)).toThrow(/nested deeper than 64 levels/)
    expect(() => Data.copyData("x".repeat(100), { maxDepth: 64, maxBytes: 50 })).toThrow(/copy limit of 50 bytes/)
  })
  it("reports functions, their holders and paths when asked, copying them as null", () => {
    const inc = () => 1
    const page = { rows: [{ id: 1, remove: inc }], next: inc }
    const found: Array<[unknown, unknown, ReadonlyArray<string | number>]> = []
    const copy = Data.copyData(
      page,
      Data.defaultCopyBounds,
      "$",
      (fn, holder, path) => void found.push([fn, holder, path]),
    )
    expect(copy).toEqual({ rows: [{ id: 1, remove: null }], next: null })
    expect(found).toEqual([
      [inc, page.rows[0], ["rows", 0, "remove"]],
      [inc, page, ["next"]],
    ])
    const root: Array<ReadonlyArray<string | number>> = []
    expect(Data.copyData(inc, Data.defaultCopyBounds, "$", (_f, _h, path) => void root.push(path))).toBe(null)
    expect(root).toEqual([[]])
  })
  it("allows the same object twice when it is not a cycle", () => {
    const shared = { a: 1 }
    expect(Data.copyData([shared, shared])).toEqual([{ a: 1 }, { a: 1 }])
  })
  it("a non-data result is InvalidDataValue; the empty source is a ParseError", async () => {
    expect(await run(`   `)).toMatchObject({ ok: false, error: { kind: "ParseError" } })
  })
})
