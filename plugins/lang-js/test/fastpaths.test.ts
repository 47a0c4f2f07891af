/**
 * The interpreter's fast paths keep the language's semantics: `o.push(x)` appended inline, branches that compare
 * their test's operands themselves, `+` of a string and a number. Each case is checked against Node.
 */
import { describe, expect, it } from "vitest"
import { failure } from "./harness.js"
import { sameAsNode } from "./node.js"

describe("o.push(x) appended at the call site", () => {
  it("returns the new length and appends in order, holes and all", () => {
    sameAsNode(
      "const a = []; const r = [a.push(1), a.push(null), a.push([2])]; const h = [1, , 3]; h.push(4); return [r, a, h.length, 1 in h, a.length]",
    )
  })

  it("calls a replaced push, on the prototype or on the array", () => {
    sameAsNode(`const seen = []
const original = Array.prototype.push
Array.prototype.push = function (x) { seen[seen.length] = "proto:" + x; return -1 }
const a = []
const r1 = a.push(1)
Array.prototype.push = original
const b = []
b.push = function (x) { seen[seen.length] = "own:" + x; return -2 }
const r2 = b.push(2)
return [r1, r2, a.length, b.length, seen]`)
  })

  it("takes the general path for array-likes, strings and arrays whose length is not plain", () => {
    sameAsNode(`const o = { length: 2, push: Array.prototype.push }
const n = o.push("x")
const args = (function () { arguments.push = Array.prototype.push; arguments.push(9); return [arguments.length, arguments[1]] })(7)
let err = ""
try { "abc".push(1) } catch (e) { err = e.constructor.name }
const fixed = Object.defineProperty([1], "length", { writable: false })
let err2 = ""
try { fixed.push(2) } catch (e) { err2 = e.constructor.name }
return [n, o.length, o[2], args, err, err2, fixed.length]`)
  })

  it("refuses to grow a frozen array with the language's TypeError", () => {
    sameAsNode(`const a = Object.freeze([1])
try { a.push(2); return "pushed" } catch (e) { return [e instanceof TypeError, a.length] }`)
  })

  it("still meets the array-length bound", () => {
    const d = failure("const a = []; a.length = 8388608; a.push(1)")
    expect(d.message).toMatch(/array|length|elements/i)
  })

  it("evaluates the receiver, then the callee, then the argument", () => {
    sameAsNode(`const log = []
const box = { get a() { log.push("recv"); return { get push() { log.push("callee"); return Array.prototype.push } } } }
box.a.push((log.push("arg"), 1))
return log`)
  })
})

describe("branches on comparisons", () => {
  it("compare numbers, strings, mixed values and objects as the operators do", () => {
    sameAsNode(`const out = []
const values = [1, 2, "10", "9", "a", NaN, null, undefined, true, -0, 0, { valueOf() { return 3 } }, [4]]
for (const x of values) for (const y of values) {
  out.push([x < y ? 1 : 0, x <= y ? 1 : 0, x > y ? 1 : 0, x >= y ? 1 : 0, x === y ? 1 : 0, x !== y ? 1 : 0].join(""))
  if (x < y) out.push("lt")
  if (x === y) out.push("eq"); else out.push("ne")
}
function g(n) { if (n < 2) return n; if (n === 5) return "five"; return g(n - 1) }
return [out.join(","), g(7), g(1), g("3")]`)
  })

  it("convert each operand once, left first", () => {
    sameAsNode(`const log = []
const a = { valueOf() { log.push("a"); return 1 } }
const b = { valueOf() { log.push("b"); return 2 } }
const r = a < b ? "yes" : "no"
if (b > a) log.push("then")
return [r, log]`)
  })
})

describe("+ of a string and a number", () => {
  it("concatenates with the number's text", () => {
    sameAsNode(
      `return ["a" + 1, 1 + "a", "x" + -0, 0.1 + "", "" + 1e21, "n" + NaN, "i" + -Infinity, 2 + 3 + "4", "4" + 2 + 3]`,
    )
  })
})
