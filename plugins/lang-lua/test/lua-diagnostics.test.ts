/**
 * What a model gets wrong on its first try, and what it is told: each row is the exact warning or diagnostic.
 */
import { describe, expect, it } from "vitest"
import { runLua } from "./support/host.js"

const warnings = (code: string) => runLua(code).host.warnings.map((w) => w.message)
const failure = (code: string) => {
  const { outcome } = runLua(code)
  if (outcome.ok) throw new Error(`expected a failure, got ${JSON.stringify(outcome.value)}`)
  return outcome.error
}

describe("tables that came from a JSON object", () => {
  it("#t warns, with the location", () => {
    const { outcome, host } = runLua("local r = tools.ns.echo({ a = 1 })\nreturn #r")
    expect(outcome).toEqual({ ok: true, value: 0 })
    expect(host.warnings).toEqual([
      {
        kind: "InvalidDataValue",
        message:
          "input:2: #t is 0 for a table that came from a JSON object: its keys are strings, it has no items 1..n (iterate it with pairs, or take # of the field that holds the array)",
        location: { line: 2, column: 8 },
      },
    ])
  })
  it("ipairs warns", () =>
    expect(warnings("local r = tools.ns.emptyObject({})\nfor i, v in ipairs(r) do end\nreturn 1")).toEqual([
      "input:2: ipairs over a table that came from a JSON object yields nothing: its keys are strings, it has no items 1..n (use pairs)",
    ]))
  it("a numeric index warns", () =>
    expect(warnings("local r = tools.ns.echo({ a = 1 })\nreturn r[1]")).toEqual([
      "input:2: indexing a table that came from a JSON object with the number 1 gives nil: its keys are strings (iterate it with pairs, or index the field that holds the array)",
    ]))
  it("tables from JSON arrays and the program's own tables do not warn", () =>
    expect(
      warnings("local r = tools.ns.emptyArray({})\nlocal t = {}\nreturn #r + #t + (r[1] or 0) + #tools.ns.records({})"),
    ).toEqual([]))
  it("each site warns once", () =>
    expect(
      warnings("local r = tools.ns.echo({ a = 1 })\nlocal n = 0\nfor i = 1, 5 do n = n + #r end\nreturn n"),
    ).toHaveLength(1))
})

describe("index 0", () => {
  it("indexing what t[0] gave says arrays start at 1", () =>
    expect(failure("local items = { { name = 'a' } }\nreturn items[0].name").message).toBe(
      "input:2: attempt to index a nil value (field 'integer index'); Lua arrays start at 1, so t[0] is nil",
    ))
  it("t[0] of an array warns", () =>
    expect(warnings("local t = { 1, 2 }\nlocal i = 0\nreturn t[i]")).toEqual([
      "input:3: t[0] is nil: Lua arrays start at 1 (the first item is t[1], the last t[#t])",
    ]))
})

describe("json.null is named in every error", () => {
  const nulls = "local r = tools.ns.nulls({})\n"
  it("concatenation", () =>
    expect(failure(`${nulls}return 'x' .. r.a`).message).toBe(
      "input:2: attempt to concatenate a json.null value (field 'a')",
    ))
  it("arithmetic", () =>
    expect(failure(`${nulls}return r.a + 1`).message).toBe(
      "input:2: attempt to perform arithmetic on a json.null value (field 'a')",
    ))
  it("comparison", () =>
    expect(failure(`${nulls}return r.a < 1`).message).toBe("input:2: attempt to compare json.null with number"))
  it("a call", () =>
    expect(failure(`${nulls}return r.a()`).message).toBe("input:2: attempt to call a json.null value (field 'a')"))
  it("indexing", () =>
    expect(failure(`${nulls}return r.a.b`).message).toBe(
      "input:2: attempt to index a json.null value (field 'a') with 'b': a JSON null has no fields (test for it with `v == json.null`)",
    ))
  it("a library argument", () =>
    expect(failure(`${nulls}return string.upper(r.a)`).message).toBe(
      "input:2: bad argument #1 to 'upper' (string expected, got json.null)",
    ))
  it("type() still says table", () =>
    expect(runLua(`${nulls}return type(r.a)`).outcome).toEqual({ ok: true, value: "table" }))
})

describe("results", () => {
  it("a program that calls tools and ends without return warns", () => {
    const { outcome, host } = runLua("local r = tools.ns.echo({ a = 1 })")
    expect(outcome).toEqual({ ok: true, value: null })
    expect(host.warnings).toEqual([
      {
        kind: "ExecutionFailure",
        message:
          "the program called tools but ended without `return`, so its result is null: end it with `return <value>`",
      },
    ])
  })
  it("return nil, or no tool calls, does not warn", () => {
    expect(warnings("local r = tools.ns.echo({}) return nil")).toEqual([])
    expect(warnings("local x = 1")).toEqual([])
  })
  it("an empty table returned warns that json.array() makes an empty array", () =>
    expect(warnings("local out = {}\nreturn out")).toEqual([
      "the result is an empty table, which is returned as the empty object {}: use json.array() for an empty array",
    ]))
  it("an empty table in a field of the result warns", () =>
    expect(warnings("return { items = {}, ok = true }")).toEqual([
      "$.items is an empty table, which is returned as the empty object {}: use json.array() for an empty array",
    ]))
  it("json.array() and empty objects from tools do not warn", () =>
    expect(warnings("return { a = json.array(), b = tools.ns.emptyObject({}) }")).toEqual([]))
})

describe("what other languages have, and what Lua uses instead", () => {
  const cases: Array<[string, string]> = [
    [
      "for i = 1, 3 do\n  if i == 2 then continue end\nend",
      "input:2: '=' expected near 'end'; Lua has no continue statement: put a label `::continue::` at the end of the loop body and write `goto continue`",
    ],
    ["local a, b = 1, 2\nif a != b then end", "input:2: unexpected symbol '!' near 'a'; Lua writes not-equal as `~=`"],
    [
      "// a comment\nreturn 1",
      "input:1: unexpected symbol '//' near 'a'; Lua comments start with `--` (`//` is floor division)",
    ],
    [
      "local x = 1\nx += 2",
      "input:2: '=' expected near '+'; Lua has no compound assignment or `++`: write `x = x + 1`",
    ],
    [
      "local s = 'a,b'\nreturn s:split(',')",
      "input:2: attempt to call a nil value (method 'split'); Lua strings have no split: iterate the parts with `for part in s:gmatch(\"[^,]+\") do ... end`",
    ],
    [
      "local s = ' a '\nreturn s:trim()",
      "input:2: attempt to call a nil value (method 'trim'); Lua strings have no trim: use `s:match(\"^%s*(.-)%s*$\")`",
    ],
    [
      "return table.join({ 1, 2 }, ',')",
      "input:1: attempt to call a nil value (field 'join'); Lua has no join: use `table.concat(list, separator)`",
    ],
    [
      "return table.getn({})",
      "input:1: attempt to call a nil value (field 'getn'); Lua 5.4 has no table.getn: use `#t`",
    ],
  ]
  for (const [code, message] of cases) it(code.split("\n").pop()!, () => expect(failure(code).message).toBe(message))
})
