import { describe, expect, it } from "vitest"
import { typescriptCandidates } from "../src/cli/ts-hooks.js"
import { paletteColor, x11Color } from "../src/tui/TerminalQueries.js"
import { toOffered } from "../src/fake-llm/ToolNames.js"
import { isTitleRequest, titleFor } from "../src/fake-llm/Requests.js"

describe("TypeScript import fallbacks", () => {
  it("map missing JavaScript specifiers to TypeScript sources", () => {
    expect(typescriptCandidates("./util.js")).toEqual(["./util.ts"])
    expect(typescriptCandidates("./util.mjs")).toEqual(["./util.mts"])
    expect(typescriptCandidates("./dir/util")).toEqual(["./dir/util.ts", "./dir/util/index.ts"])
    expect(typescriptCandidates("./data.json")).toEqual([])
  })
})

describe("terminal query answers", () => {
  it("use the xterm palette and X11 color syntax", () => {
    expect(paletteColor(1)).toBe(0xcd0000)
    expect(paletteColor(16)).toBe(0x000000)
    expect(paletteColor(231)).toBe(0xffffff)
    expect(paletteColor(196)).toBe(0xff0000)
    expect(paletteColor(232)).toBe(0x080808)
    expect(x11Color(0x12ab00)).toBe("rgb:1212/abab/0000")
  })
})

describe("tool names", () => {
  it("translate canonical names to the names OpenCode offers", () => {
    expect(toOffered("shell", ["bash", "read"])).toBe("bash")
    expect(toOffered("bash", ["shell"])).toBe("shell")
    expect(toOffered("read", ["bash", "read"])).toBe("read")
    expect(toOffered("patch", ["edit"])).toBe("patch")
  })
})

describe("title requests", () => {
  it("are recognised by the system prompt or the first user message", () => {
    expect(
      isTitleRequest([{ role: "system", content: "You are a title generator. You output ONLY a thread title." }]),
    ).toBe(true)
    expect(
      isTitleRequest([
        { role: "user", content: [{ type: "text", text: "Generate a title for this conversation:\n" }] },
      ]),
    ).toBe(true)
    expect(
      isTitleRequest([
        { role: "system", content: "You are opencode" },
        { role: "user", content: "hi" },
      ]),
    ).toBe(false)
  })
  it("get a short title from the last user message", () => {
    expect(
      titleFor([
        { role: "user", content: "Generate a title for this conversation:\n" },
        { role: "user", content: "Read src/example.ts" },
      ]),
    ).toBe("Read src/example.ts")
    expect(titleFor([{ role: "user", content: "x".repeat(80) }]).length).toBeLessThanOrEqual(40)
  })
})
