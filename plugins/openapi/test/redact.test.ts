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

  it("a credential echoed in upper, lower or mixed case is redacted, raw, percent-encoded or as base64", () => {
    const token = "Qz9-XKWV+tqjx/vbzp=hkcf_7Y3mW8rL"
    const redact = Redact.make([token])
    for (const folded of [token.toUpperCase(), token.toLowerCase(), "qZ9-xkwv+TQJX/VBZP=HKCF_7y3Mw8Rl"]) {
      expect(redact.text(`INVALID TOKEN ${folded}!`)).toBe("INVALID TOKEN [redacted]!")
      expect(redact.text(encodeURIComponent(folded))).toBe("[redacted]")
    }
    for (const folded of [token.toUpperCase(), token.toLowerCase()])
      expect(redact.text(Buffer.from(`Bearer ${folded}`).toString("base64"))).not.toContain(
        Buffer.from(folded).toString("base64").slice(8, 16),
      )
    // A case mapping that changes the length ("ß" upper-cases to "SS").
    const german = Redact.make(["straße-9f3k"])
    expect(german.text("STRASSE-9F3K")).toBe("[redacted]")
    expect(german.text("no: strasse-9f3")).toBe("no: strasse-9f3")
  })

  it("a numeric credential is redacted as a JSON number, also without its leading zeros or past 2^53", () => {
    const redact = Redact.make(["83920174"])
    expect(redact.value(JSON.parse('{"client": 83920174, "near": 83920175, "in": [183920174.5]}'))).toEqual({
      client: "[redacted]",
      near: 83920175,
      in: ["[redacted]"],
    })
    expect(redact.value(83920174)).toBe("[redacted]")
    expect(redact.value(JSON.parse("8.3920174e7"))).toBe("[redacted]")
    const zeros = Redact.make(["0083920174"])
    expect(zeros.value(JSON.parse('{"k": 83920174}'))).toEqual({ k: "[redacted]" })
    expect(zeros.text("unknown key 83920174.")).toBe("unknown key [redacted].")
    expect(zeros.text("83920174")).toBe("[redacted]")
    expect(zeros.value(["5", "83920174", 5, "x"])).toEqual(["5", "[redacted]", 5, "x"])
    expect(zeros.text("unknown key 183920174")).toBe("unknown key 183920174")
    const long = "12345678901234567891"
    expect(Redact.make([long]).value(JSON.parse(`[${long}]`))).toEqual(["[redacted]"])
  })

  it("a credential split across keys, values and numbers of a JSON value is redacted in every piece", () => {
    const token = "Qz9-XKWV+tqjx/vbzp=hkcf_7Y3mW8rL"
    const redact = Redact.make([token, "83920174"])
    expect(redact.value({ "Qz9-XKWV": "+tqjx/vbzp=hkcf_7Y3mW8rL", other: "kept" })).toEqual({
      "[redacted]": "[redacted]",
      other: "kept",
    })
    expect(redact.value(["Bearer Qz9-XK", "WV+tqjx/vbzp=hkcf_7Y", "3mW8rL ok"])).toEqual([
      "Bearer [redacted]",
      "[redacted]",
      "[redacted] ok",
    ])
    const pieces = token.match(/.{1,2}/g)!
    expect(redact.value({ chars: pieces })).toEqual({ chars: pieces.map(() => "[redacted]") })
    expect(redact.value({ id: [8392, "0174", 1] })).toEqual({ id: ["[redacted]", "[redacted]", 1] })
  })

  it("a split credential is found wherever it falls, also across the windows a large value is matched in", () => {
    const token = "Qz9-XKWV+tqjx/vbzp=hkcf_7Y3mW8rL"
    const redact = Redact.make([token])
    for (const filler of [65_530, 65_536 + 3, 65_536 + 40, 200_000]) {
      const value = [..."x".repeat(filler).match(/.{1,7}/g)!, token.slice(0, 10), token.slice(10), "end"]
      redact.value(value)
      expect(value.slice(-3)).toEqual(["[redacted]", "[redacted]", "end"])
      expect(value.slice(0, -3).join("")).toBe("x".repeat(filler))
    }
    const one = ["y".repeat(300_000), token.slice(0, 5), token.slice(5)]
    redact.value(one)
    expect(one).toEqual(["y".repeat(300_000), "[redacted]", "[redacted]"])
  })

  it("whatever the value, no credential survives in a leaf or across leaves (random values, seeded)", () => {
    const token = "Qz9-XKWV+tqjx/vbzp=hkcf_7Y3mW8rL"
    const redact = Redact.make([token, "83920174"])
    let seed = 42
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31
      return seed % n
    }
    const secretText = () => {
      const whole = [token, token.toUpperCase(), encodeURIComponent(token), "83920174"][random(4)]!
      const cut = random(whole.length)
      return [whole.slice(0, cut), whole.slice(cut)]
    }
    /** Document-order text of a value: keys, strings and numbers. */
    const leaves = (value: unknown): string =>
      typeof value === "string" || typeof value === "number"
        ? String(value)
        : Array.isArray(value)
          ? value.map(leaves).join("")
          : typeof value === "object" && value !== null
            ? Object.entries(value)
                .map(([k, v]) => k + leaves(v))
                .join("")
            : ""
    for (let round = 0; round < 150; round++) {
      const pieces: unknown[] = []
      const count = random(4) === 0 ? 3_000 + random(30_000) : random(40)
      for (let i = 0; i < count; i++) {
        const kind = random(20)
        if (kind === 0) pieces.push(...secretText())
        else if (kind === 1) {
          const [a, b] = secretText()
          pieces.push({ [a!]: b })
        } else if (kind === 2) pieces.push(random(1e6))
        else pieces.push("abcdefgh".slice(random(8)))
      }
      const value = random(2) === 0 ? pieces : { data: pieces }
      redact.value(value)
      const text = leaves(value)
      expect(redact.text(text), `round ${round}`).toBe(text)
    }
  })
})
