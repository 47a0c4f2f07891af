import { describe, expect, it } from "vitest"
import { encodeKey, modifierParameter, parseCombination } from "../src/tui/Keys.js"

const bytes = (...args: Parameters<typeof encodeKey>) => {
  const result = encodeKey(...args)
  if (!result.ok) throw new Error(result.error)
  return result.bytes
}

describe("encodeKey", () => {
  it("encodes plain characters and shifted letters", () => {
    expect(bytes("a")).toBe("a")
    expect(bytes("a", { shift: true })).toBe("A")
    expect(bytes("é")).toBe("é")
  })

  it("encodes control characters", () => {
    expect(bytes("c", { ctrl: true })).toBe("\x03")
    expect(bytes("C", { ctrl: true })).toBe("\x03")
    expect(bytes("[", { ctrl: true })).toBe("\x1b")
    expect(bytes("@", { ctrl: true })).toBe("\x00")
    expect(bytes("?", { ctrl: true })).toBe("\x7f")
  })

  it("prefixes ESC for alt and meta", () => {
    expect(bytes("x", { alt: true })).toBe("\x1bx")
    expect(bytes("x", { meta: true })).toBe("\x1bx")
    expect(bytes("x", { ctrl: true, alt: true })).toBe("\x1b\x18")
  })

  it("uses modifyOtherKeys for combinations legacy encoding cannot express", () => {
    expect(bytes("1", { ctrl: true })).toBe("\x1b[27;5;49~")
    expect(bytes("enter", { shift: true })).toBe("\x1b[27;2;13~")
    expect(bytes("enter", { ctrl: true })).toBe("\x1b[27;5;13~")
    expect(bytes("tab", { ctrl: true })).toBe("\x1b[27;5;9~")
    expect(bytes("a", { ctrl: true, shift: true })).toBe("\x1b[27;6;97~")
  })

  it("encodes named keys", () => {
    expect(bytes("enter")).toBe("\r")
    expect(bytes("Return")).toBe("\r")
    expect(bytes("tab")).toBe("\t")
    expect(bytes("tab", { shift: true })).toBe("\x1b[Z")
    expect(bytes("escape")).toBe("\x1b")
    expect(bytes("esc")).toBe("\x1b")
    expect(bytes("backspace")).toBe("\x7f")
    expect(bytes("backspace", { ctrl: true })).toBe("\x08")
    expect(bytes("space")).toBe(" ")
    expect(bytes(" ")).toBe(" ")
    expect(bytes("enter", { alt: true })).toBe("\x1b\r")
  })

  it("encodes cursor keys in normal and application mode, and with modifiers", () => {
    expect(bytes("up")).toBe("\x1b[A")
    expect(bytes("ArrowLeft")).toBe("\x1b[D")
    expect(bytes("down", {}, { applicationCursorKeys: true })).toBe("\x1bOB")
    expect(bytes("right", { ctrl: true })).toBe("\x1b[1;5C")
    expect(bytes("home")).toBe("\x1b[H")
    expect(bytes("end", { shift: true })).toBe("\x1b[1;2F")
  })

  it("encodes tilde and function keys", () => {
    expect(bytes("delete")).toBe("\x1b[3~")
    expect(bytes("pageup")).toBe("\x1b[5~")
    expect(bytes("pagedown", { shift: true })).toBe("\x1b[6;2~")
    expect(bytes("f1")).toBe("\x1bOP")
    expect(bytes("f4", { alt: true })).toBe("\x1b[1;3S")
    expect(bytes("f5")).toBe("\x1b[15~")
    expect(bytes("f12", { ctrl: true })).toBe("\x1b[24;5~")
  })

  it("accepts combination strings, and a lone plus is the plus key", () => {
    expect(bytes("ctrl+c")).toBe("\x03")
    expect(bytes("ctrl+shift+up")).toBe("\x1b[1;6A")
    expect(bytes("+")).toBe("+")
    expect(bytes("ctrl++")).toBe("\x1b[27;5;43~")
    expect(parseCombination("alt+x")).toEqual({ key: "x", modifiers: { alt: true } })
  })

  it("rejects unknown keys with the list of names", () => {
    const result = encodeKey("hyperspace")
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.error).toContain("enter, tab, escape")
  })

  it("computes xterm modifier parameters", () => {
    expect(modifierParameter({})).toBe(1)
    expect(modifierParameter({ shift: true })).toBe(2)
    expect(modifierParameter({ alt: true })).toBe(3)
    expect(modifierParameter({ ctrl: true })).toBe(5)
    expect(modifierParameter({ ctrl: true, alt: true, shift: true, meta: true })).toBe(16)
  })
})
