/**
 * The program's way out: tools, `search`, extension globals, `import`/`require`, and how host failures surface.
 */
import { describe, expect, it } from "vitest"
import type { DataValue } from "@codemode/core/sandbox"
import { evaluate, failure, type FakeOptions, runJs } from "./harness.js"

const orders: FakeOptions = {
  tools: {
    "orders.lookup": (input) => ({ value: { id: (input as { id: string }).id, status: "open", lines: [] } }),
    "orders.list": () => ({ value: [{ id: "a" }, { id: "b" }] }),
    "orders.denied": () => ({ fail: "Denied by the before hook" }),
    "orders.limited": () => ({ fail: "Tool call limit of 2 exceeded", kind: "ToolCallLimitExceeded", fatal: true }),
    "ctx7.resolve-library-id": () => ({ value: "lib" }),
    "deep.a.b.c": () => ({ value: 1 }),
  },
  search: (input) => ({
    value: { items: [{ path: "orders.lookup", query: (input as { query?: string }).query ?? null }], remaining: 0 },
  }),
}

describe("tools", () => {
  it("calls a tool with data input and receives data output", () =>
    expect(
      evaluate(
        "const o = await tools.orders.lookup({ id: 'order_42' }); ({ id: o.id, attention: o.status !== 'complete' })",
        orders,
      ),
    ).toEqual({
      id: "order_42",
      attention: true,
    }))
  it("passes the input as data to the host", () => {
    const r = runJs("await tools.orders.lookup({ id: 'x', n: 1, nested: [true, null], drop: undefined })", orders)
    expect(r.calls).toEqual([{ kind: "tool", path: "orders.lookup", input: { id: "x", n: 1, nested: [true, null] } }])
  })
  it("sends null when called without input", () => {
    const r = runJs("await tools.orders.list()", orders)
    expect(r.calls[0]).toEqual({ kind: "tool", path: "orders.list", input: null })
  })
  it("reaches names that need bracket notation and nested namespaces", () => {
    expect(evaluate("await tools.ctx7['resolve-library-id']({})", orders)).toBe("lib")
    expect(evaluate("await tools.deep.a.b.c()", orders)).toBe(1)
  })
  it("returns a promise that starts at once", () => {
    const r = runJs(
      "const p = tools.orders.list(); const started = p instanceof Promise; [started, (await p).length]",
      orders,
    )
    expect(r.value).toEqual([true, 2])
  })
  it("output objects are ordinary program objects", () =>
    expect(
      evaluate(
        "const list = await tools.orders.list(); list.map((o) => o.id.toUpperCase()).concat(Object.keys(list[0]))",
        orders,
      ),
    ).toEqual(["A", "B", "id"]))
  it("keeps empty arrays and empty objects apart", () =>
    expect(
      evaluate("const o = await tools.orders.lookup({ id: '1' }); [Array.isArray(o.lines), o.lines.length]", orders),
    ).toEqual([true, 0]))
  it("a denied call rejects with a catchable error that has the host's message and kind", () =>
    expect(evaluate("try { await tools.orders.denied({}) } catch (e) { return [e.message, e.kind] }", orders)).toEqual([
      "Denied by the before hook",
      "ToolFailure",
    ]))
  it("an uncaught denial fails the execution with the host's kind and the call site", () =>
    expect(failure("const x = 1\nawait tools.orders.denied({})", orders)).toEqual({
      kind: "ToolFailure",
      message: "Denied by the before hook",
      location: { line: 2, column: 7 },
    }))
  it("invalid input is rejected before reaching the host", () => {
    const r = runJs("try { await tools.orders.lookup({ f() {} }) } catch (e) { return [e.kind, e.message] }", orders)
    expect(r.value).toEqual([
      "InvalidToolInput",
      "Invalid input for tools.orders.lookup: a function (f) is not data at input.f",
    ])
    expect(r.calls).toEqual([])
  })
  it("a missing tool is an ordinary TypeError", () =>
    expect(failure("tools.orders.nope({})", orders)).toMatchObject({
      kind: "ExecutionFailure",
      message: expect.stringContaining("tools.orders.nope is not a function"),
    }))
  it("the tool tree can be explored", () =>
    expect(evaluate("Object.keys(tools.orders)", orders)).toEqual(["lookup", "list", "denied", "limited"]))
})

describe("fatal host failures", () => {
  it("end the execution with the host's kind and the call site", () =>
    expect(failure("let a = 1\n  await tools.orders.limited({})", orders)).toEqual({
      kind: "ToolCallLimitExceeded",
      message: "Tool call limit of 2 exceeded",
      location: { line: 2, column: 9 },
    }))
  it("cannot be caught", () =>
    expect(failure("try { await tools.orders.limited({}) } catch (e) { return 'caught' }", orders).kind).toBe(
      "ToolCallLimitExceeded",
    ))
  it("do not run finally blocks or later callbacks", () => {
    const r = runJs("try { await tools.orders.limited({}) } finally { console.log('finally ran') }", orders)
    expect(r.outcome.ok).toBe(false)
    expect(r.logs).toEqual([])
  })
  it("end the execution even when nobody awaits the call", () => {
    const r = runJs("tools.orders.limited({}).catch(() => {}); await tools.orders.list(); 'unreachable'", {
      ...orders,
      tools: { ...orders.tools, "orders.list": () => ({ value: [], delay: 5 }) },
    })
    expect(r.outcome.ok).toBe(false)
  })
  it("a fatal search failure is fatal too", () => {
    const opts: FakeOptions = {
      search: () => ({ fail: "Tool call limit of 1 exceeded", kind: "ToolCallLimitExceeded", fatal: true }),
    }
    expect(failure("try { search({ query: 'x' }) } catch { 'caught' }", opts)).toEqual({
      kind: "ToolCallLimitExceeded",
      message: "Tool call limit of 1 exceeded",
      location: { line: 1, column: 7 },
    })
  })
})

describe("search", () => {
  it("returns its result directly", () =>
    expect(evaluate("search({ query: 'order' }).items[0].path", orders)).toBe("orders.lookup"))
  it("can be awaited", () => expect(evaluate("(await search({ query: 'q' })).items[0].query", orders)).toBe("q"))
  it("can be chained with then", () =>
    expect(evaluate("await search({ query: 'z' }).then((r) => r.items.length)", orders)).toBe(1))
  it("can be chained with catch and finally", () => {
    const r = runJs(
      "const v = await search({}).catch(() => 'no').finally(() => console.log('fin')); v.items.length",
      orders,
    )
    expect(r.value).toBe(1)
    expect(r.logs).toEqual(["fin"])
  })
  it("keeps then/catch/finally out of the data", () => {
    expect(evaluate("const r = search({}); [Object.keys(r), JSON.stringify(r)]", orders)).toEqual([
      ["items", "remaining"],
      '{"items":[{"path":"orders.lookup","query":null}],"remaining":0}',
    ])
    expect(evaluate("search({})", orders)).toEqual({ items: [{ path: "orders.lookup", query: null }], remaining: 0 })
  })
  it("is a blocking host call", () =>
    expect(runJs("search({ query: 'a' }); search({ query: 'b' })", orders).calls).toEqual([
      { kind: "search", input: { query: "a" } },
      { kind: "search", input: { query: "b" } },
    ]))
  it("a failed search throws synchronously", () => {
    const opts: FakeOptions = { search: () => ({ fail: "bad query" }) }
    expect(evaluate("try { search({}) } catch (e) { return [e.message, e.kind] }", opts)).toEqual([
      "bad query",
      "ToolFailure",
    ])
  })
})

const fsLike: FakeOptions = {
  extensions: {
    echo: { kind: "sync", fn: (...args: DataValue[]) => ({ value: args }) },
    later: { kind: "async", fn: (x) => ({ value: `later:${x}`, delay: 3 }) },
    refuse: { kind: "sync", fn: () => ({ fail: "Denied by extension.before" }) },
    refuseAsync: { kind: "async", fn: () => ({ fail: "Denied async" }) },
    fs: {
      members: {
        readFile: { kind: "sync", fn: (p) => ({ value: `contents of ${p}` }) },
        promises: { members: { readFile: { kind: "async", fn: (p) => ({ value: `async contents of ${p}` }) } } },
      },
    },
    crypto: { members: { randomUUID: { kind: "sync", fn: () => ({ value: "uuid-1" }) } } },
  },
}

describe("extension globals", () => {
  it("sync globals return their value directly", () =>
    expect(evaluate("echo(1, 'a', [true], { k: null })", fsLike)).toEqual([1, "a", [true], { k: null }]))
  it("async globals return promises", () =>
    expect(evaluate("const p = later(5); [p instanceof Promise, await p]", fsLike)).toEqual([true, "later:5"]))
  it("objects of functions call with their path as name", () => {
    const r = runJs("[fs.readFile('/a'), await fs.promises.readFile('/b')]", fsLike)
    expect(r.value).toEqual(["contents of /a", "async contents of /b"])
    expect(r.calls).toEqual([
      { kind: "extension", extension: "test", name: "fs.readFile", args: ["/a"] },
      { kind: "extension", extension: "test", name: "fs.promises.readFile", args: ["/b"] },
    ])
  })
  it("a denied sync call throws", () =>
    expect(evaluate("try { refuse() } catch (e) { return [e.message, e.kind] }", fsLike)).toEqual([
      "Denied by extension.before",
      "ToolFailure",
    ]))
  it("a denied async call rejects", () =>
    expect(evaluate("await refuseAsync().catch((e) => 'rejected: ' + e.message)", fsLike)).toBe(
      "rejected: Denied async",
    ))
  it("arguments must be data", () =>
    expect(evaluate("try { echo(new Map()) } catch (e) { return [e.kind, e.message] }", fsLike)).toEqual([
      "InvalidDataValue",
      "Invalid argument for echo: a Map is not data at arguments[0]",
    ]))
  it("undefined arguments cross as null", () => expect(evaluate("echo(undefined)", fsLike)).toEqual([null]))
})

describe("import and require", () => {
  it("import takes an extension global by module name, with or without node:", () =>
    expect(
      evaluate(
        "import fs, { readFile } from 'node:fs'\nimport * as again from 'fs'\n[readFile('/x'), fs === again.default, typeof again.readFile]",
        fsLike,
      ),
    ).toEqual(["contents of /x", true, "function"]))
  it("require returns the global", () =>
    expect(evaluate("const crypto = require('crypto'); crypto.randomUUID()", fsLike)).toBe("uuid-1"))
  it("require accepts node: too", () =>
    expect(evaluate("require('node:fs').readFile('/r')", fsLike)).toBe("contents of /r"))
  it("fs/promises resolves to fs.promises", () =>
    expect(evaluate("import { readFile } from 'fs/promises'\nawait readFile('/p')", fsLike)).toBe(
      "async contents of /p",
    ))
  it("dynamic import resolves to a namespace with default", () =>
    expect(
      evaluate("const { default: same, readFile } = await import('fs'); [same === fs, readFile('/d')]", fsLike),
    ).toEqual([true, "contents of /d"]))
  it("url and util resolve to the globals that provide them", () =>
    expect(
      evaluate(
        "import { URL as U } from 'url'\nconst { TextEncoder: TE } = require('node:util'); [U === URL, TE === TextEncoder]",
        fsLike,
      ),
    ).toEqual([true, true]))
  it("anything else throws, naming what is available", () => {
    const d = failure("import x from 'lodash'", fsLike)
    expect(d.kind).toBe("ExecutionFailure")
    expect(d.message).toContain("Cannot find module 'lodash'")
    expect(d.message).toContain("available: echo, later, refuse, refuseAsync, fs, crypto, url, util")
    expect(d.location).toEqual({ line: 1, column: 1 })
  })
  it("a failed require can be caught", () =>
    expect(
      evaluate(
        "try { require('child_process') } catch (e) { return e.message.startsWith('Cannot find module') }",
        fsLike,
      ),
    ).toBe(true))
  it("a failed dynamic import rejects", () =>
    expect(evaluate("await import('net').then(() => 'no', () => 'rejected')", fsLike)).toBe("rejected"))
  it("a named import that does not exist is a SyntaxError", () =>
    expect(failure("import { nothing } from 'fs'", fsLike).message).toContain(
      "does not provide an export named 'nothing'",
    ))
  it("buffer needs a Buffer global", () =>
    expect(evaluate("try { require('buffer') } catch (e) { return 'missing' }", fsLike)).toBe("missing"))
})
