/**
 * The compiled-program cache is per runtime: one runtime's programs are never reused by (so never observable in the
 * timing of) another runtime's executions in the same sandbox.
 */
import { describe, expect, it } from "vitest"
import { compile } from "../src/compile.js"

describe("the compile cache", () => {
  it("reuses a program within one runtime's scope and never across scopes", () => {
    const code = "local x = 1\nreturn x + 1"
    const first = compile(code, Infinity, "runtime-a")
    expect(compile(code, Infinity, "runtime-a")).toBe(first)
    expect(compile(code, Infinity, "runtime-b")).not.toBe(first)
  })
})
