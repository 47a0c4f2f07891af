/**
 * The redactor on its own: which forms it catches, what it leaves alone, and that any JSON value is safe to walk.
 */
import { describe, expect, it } from "vitest"
import * as Redact from "../src/Redact.js"

describe("Redact", () => {
  it("a credential of fewer than four characters is redacted as a whole word only", () => {
    const redact = Redact.make(["k9Z"])
    expect(redact.text("x-api-key: k9Z; api_key=k9Z&q=k9Zed%20k9Z")).toBe(
      "x-api-key: [redacted]; api_key=[redacted]&q=k9Zed%20[redacted]",
    )
    expect(redact.text("k%39Z")).toBe("[redacted]")
  })

  it("keys that hold a credential are renamed in place, in order, and __proto__ stays a plain key", () => {
    const redact = Redact.make(["SECRETSECRET"])
    const value = JSON.parse('{"a":1,"SECRETSECRET":2,"__proto__":{"x":"SECRETSECRET"},"z":[["SECRETSECRET"]]}')
    redact.value(value)
    expect(Object.keys(value)).toEqual(["a", "[redacted]", "__proto__", "z"])
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype)
    expect(JSON.stringify(value)).toBe('{"a":1,"[redacted]":2,"__proto__":{"x":"[redacted]"},"z":[["[redacted]"]]}')
  })

  it("walks values of any depth without recursion", () => {
    const depth = 200_000
    const value = JSON.parse(`${"[".repeat(depth)}"SECRETSECRET"${"]".repeat(depth)}`)
    Redact.make(["SECRETSECRET"]).value(value)
    let node = value
    for (let i = 0; i < depth; i++) node = node[0]
    expect(node).toBe("[redacted]")
  })

  it("tail is at least the longest encoded form, so a cut text can drop any prefix of one", () => {
    const secret = "a/b c\u00e9\u{1F600}"
    const redact = Redact.make([secret])
    const longest = [...secret].map((c) => encodeURIComponent(encodeURIComponent(c))).join("")
    expect(redact.tail).toBeGreaterThanOrEqual(longest.length)
    expect(redact.text(longest)).toBe("[redacted]")
    expect(
      redact.text(
        JSON.stringify(secret).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`),
      ),
    ).toBe('"[redacted]"')
  })

  it("an empty list redacts nothing", () => {
    const redact = Redact.make(["", ""])
    expect([redact.active, redact.text("anything"), redact.tail]).toEqual([false, "anything", 0])
  })
})
