import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { defineScript, isScript } from "../src/Script.js"

describe("defineScript", () => {
  it("defines an Effect-only script and keeps the driver options", () => {
    const script = defineScript({
      tui: { viewport: { cols: 118, rows: 34 } },
      run: ({ ui }) => ui.screenshot("home").pipe(Effect.asVoid),
    })
    expect(isScript(script)).toBe(true)
    expect(script.options).toEqual({ tui: { viewport: { cols: 118, rows: 34 } } })
  })

  it("rejects async callbacks with a message showing the Effect shape", () => {
    const define = () =>
      defineScript({
        // @ts-expect-error a Promise-returning run is not an Effect
        run: async () => undefined,
      })
    expect(define).toThrow(
      /run must return an Effect, not an async function returning a Promise; there is no Promise adapter. Write it as run: \(\{ ui, llm \}\) => Effect\.gen/,
    )
    expect(() =>
      defineScript({
        // @ts-expect-error a Promise-returning setup is not an Effect
        setup: async () => undefined,
        run: () => Effect.void,
      }),
    ).toThrow(/setup must return an Effect/)
  })

  it("requires run", () => {
    // @ts-expect-error run is required
    expect(() => defineScript({})).toThrow(/run is required/)
  })
})
