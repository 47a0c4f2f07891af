/**
 * The compiler's promise about the JavaScript it generates: no program text reaches it except field and global
 * names that are plain identifiers, and those only as property names after a dot. Strings, odd keys, local names
 * and labels never appear, so a program cannot write JavaScript.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { COMPACT_FROM } from "../src/codegen/emit.js"
import { generatedSource, setRunOnceCompact } from "../src/compile.js"
import { runLua } from "./support/host.js"

/** Every occurrence of `word` in `source` as a whole word is a property name after a dot. */
const onlyAsProperty = (source: string, word: string): boolean => {
  const re = new RegExp(`(^|[^A-Za-z0-9_$])${word.replace(/\$/g, "\\$")}(?![A-Za-z0-9_$])`, "g")
  for (const m of source.matchAll(re)) if (m[1] !== ".") return false
  return true
}

const payloads = [
  '"); process.exit(1); ("',
  "'; while (true) {}; '",
  "*/ throw 1 /*",
  "`${globalThis.process}`",
  "\u2028\u2029",
  "</script>",
  "\\",
]

// Small programs inline operations' common cases outside their run-once code (or everywhere, when asked); large
// ones call intrinsics (compact): all keep the rule.
const modes: Array<[string, string, boolean]> = [
  ["inline", "", true],
  ["inline everywhere", "", false],
  ["compact", `\n--${"x".repeat(COMPACT_FROM)}`, true],
]

for (const [mode, padding, onceCompact] of modes)
  describe(`generated source (${mode})`, () => {
    beforeAll(() => setRunOnceCompact(onceCompact))
    afterAll(() => setRunOnceCompact(true))

    it("holds no string from the program", () => {
      for (const p of payloads) {
        const lua = p.replace(/\\/g, "\\\\").replace(/'/g, "\\'").replace(/\n/g, "\\n")
        const code = `local s = '${lua}' local t = { ['${lua}'] = s } t.k = t['${lua}'] .. '${lua}' return #t.k`
        const source = generatedSource(code + padding)
        expect(source).not.toContain(p)
        const { outcome } = runLua(code + padding)
        expect(outcome).toEqual({ ok: true, value: 2 * Buffer.byteLength(p) })
      }
    })

    it("names locals, labels and functions by number", () => {
      const names = [
        "process",
        "globalThis",
        "eval",
        "Function",
        "require",
        "constructor",
        "rt",
        "G",
        "K",
        "va",
        "t0",
        "k0",
        "v1",
        "L1",
        "F1",
        "B1",
      ]
      const code = [
        `local ${names.join(", ")} = ${names.map((_, i) => i).join(", ")}`,
        "local function process2(constructor) return constructor end",
        "goto process ::process::",
        `return ${names.join(" + ")} + process2(1)`,
      ].join("\n")
      const source = generatedSource(code + padding)
      for (const n of ["process", "globalThis", "eval", "Function", "require", "constructor", "process2"])
        expect(onlyAsProperty(source, n), n).toBe(true)
      expect(runLua(code + padding).outcome).toEqual({ ok: true, value: (names.length * (names.length - 1)) / 2 + 1 })
    })

    it("writes field and global names only after a dot", () => {
      const code =
        "process = {} process.mainModule = 1 local t = { constructor = 2, eval = 3 } return process.mainModule + t.constructor + t.eval"
      const source = generatedSource(code + padding)
      for (const n of ["process", "mainModule", "constructor", "eval"]) expect(onlyAsProperty(source, n), n).toBe(true)
      expect(runLua(code + padding).outcome).toEqual({ ok: true, value: 6 })
    })

    it("keeps random byte strings out of the source", () => {
      let seed = 12345
      const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648)
      for (let n = 0; n < 50; n++) {
        const bytes = Array.from({ length: 8 + (random() % 24) }, () => random() % 256)
        const escaped = bytes.map((b) => `\\${b}`).join("")
        const code = `local s = "${escaped}" local t = {} t["${escaped}"] = s return #t["${escaped}"] .. ":" .. s:byte(1)`
        const source = generatedSource(code + padding)
        const text = String.fromCharCode(...bytes)
        expect(source).not.toContain(text)
        expect(runLua(code + padding).outcome).toEqual({ ok: true, value: `${bytes.length}:${bytes[0]}` })
      }
    })
  })

describe("the size of large programs' generated source", () => {
  // A program near the source bound must compile in well under 2 s: its generated source stays a small multiple of
  // it (small programs' inline paths take 110 to 350 characters for each of the first four statements).
  const statements: Array<[string, number]> = [
    ["x = x + 1", 48],
    ["x = t[#t]", 64],
    ["a.b = c.d", 64],
    ["t[x] = a.b", 64],
    ["y = x < t[1] and -x or x .. 's'", 240],
  ]
  for (const [statement, most] of statements)
    it(`${statement}: at most ${most} characters a statement`, () => {
      const count = Math.ceil((2 * COMPACT_FROM) / (statement.length + 1))
      const code = `local x, t, a, c = 0, {1}, {}, {d = 1}\n${`${statement}\n`.repeat(count)}return x`
      expect(generatedSource(code).length / count).toBeLessThanOrEqual(most)
    })
})
