/**
 * Keeps SUPPORT.md true: every checklist line with an example runs, and must succeed (`[x]`) or fail with the
 * diagnostic kind the line names (`[ ]`).
 */
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { runJs } from "./harness.js"

const text = readFileSync(new URL("../SUPPORT.md", import.meta.url), "utf8")

interface Entry {
  readonly supported: boolean
  readonly title: string
  readonly example: string
  readonly kind?: string
}

const entries: Entry[] = []
for (const line of text.split("\n")) {
  const m = /^- \[( |x)\] (.*?) — (`+) ?(.*?) ?\3$/.exec(line)
  if (!m) continue
  const kind = /→ (\w+)/.exec(m[2])?.[1]
  entries.push({ supported: m[1] === "x", title: m[2], example: m[4], kind })
}

describe("SUPPORT.md", () => {
  it("has examples for every checklist line", () => {
    const lines = text.split("\n").filter((l) => /^- \[( |x)\]/.test(l))
    expect(entries.length).toBe(lines.length)
    expect(entries.length).toBeGreaterThan(40)
  })
  it.each(entries.filter((e) => e.supported))("supported: $title", ({ example }) => {
    const r = runJs(example, { extensions: {} })
    if (!r.outcome.ok) throw new Error(`${r.outcome.error.kind}: ${r.outcome.error.message}`)
  })
  it.each(entries.filter((e) => !e.supported))("not supported: $title", ({ example, kind }) => {
    const r = runJs(example)
    expect(r.outcome.ok).toBe(false)
    if (!r.outcome.ok) expect(r.outcome.error.kind).toBe(kind)
  })
})
