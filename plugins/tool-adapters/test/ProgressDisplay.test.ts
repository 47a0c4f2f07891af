import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import * as Invocations from "../src/Invocations.js"
import * as ProgressDisplay from "../src/ProgressDisplay.js"
import type { Line } from "../src/Protocol.js"

describe("progress views", () => {
  it("strings append to the live output; title/metadata objects pass through; anything else is wrapped", () => {
    const first = ProgressDisplay.view("a\n", "", { command: "x", description: "Build" })
    expect(first).toEqual({ view: { metadata: { output: "a\n", description: "Build" } }, output: "a\n" })
    const second = ProgressDisplay.view("b\n", first.output, { command: "x" })
    expect(second).toEqual({ view: { metadata: { output: "a\nb\n" } }, output: "a\nb\n" })
    expect(ProgressDisplay.view({ title: "Linking", metadata: { step: 2 } }, "a\n", {})).toEqual({
      view: { title: "Linking", metadata: { step: 2 } },
      output: "a\n",
    })
    expect(ProgressDisplay.view(42, "", {}).view).toEqual({ metadata: { progress: 42 } })
  })

  it("updates in the spec's form append their text parts to the live output and keep the structured value", () => {
    const update = { structured: { phase: "searching" }, content: [{ type: "text", text: "Searching\n" }] }
    const first = ProgressDisplay.view(update, "a\n", { description: "Look up" })
    expect(first).toEqual({
      view: { metadata: { output: "a\nSearching\n", description: "Look up", structured: { phase: "searching" } } },
      output: "a\nSearching\n",
    })
    const parts = {
      content: [
        { type: "text", text: "1" },
        { type: "image", url: "x" },
        { type: "text", text: "2" },
      ],
    }
    expect(ProgressDisplay.view(parts, "", {}).output).toBe("12")
    expect(ProgressDisplay.view({ structured: { n: 1 } }, "kept", {})).toEqual({
      view: { metadata: { structured: { n: 1 } } },
      output: "kept",
    })
  })

  it("a disconnected display skips updates without failing", async () => {
    await ProgressDisplay.make().show({ sessionID: "ses", messageID: "msg", callID: "call_1" }, { metadata: {} })
  })
})

describe("the hub with a display", () => {
  it("shows each update in order and delivers the result only after every update was shown", async () => {
    const shown: Array<unknown> = []
    const releases: Array<() => void> = []
    const display: ProgressDisplay.ProgressDisplay = {
      connect: () => undefined,
      show: (part, update) =>
        new Promise<void>((resolve) => {
          shown.push({ part, update })
          releases.push(resolve)
        }),
    }
    const hub = Invocations.make({ declared: ["shell"], display })
    const lines: Array<Line> = []
    hub.arrive(
      { id: "a", tool: "shell", callID: "call_1", sessionID: "ses", messageID: "msg", input: { command: "make" } },
      { write: (line) => void lines.push(line), end: () => undefined },
    )
    const invocation = await Effect.runPromise(Effect.flatMap(hub.control("shell"), (c) => c.take()))
    await Effect.runPromise(invocation.progress("one\n"))
    await Effect.runPromise(invocation.progress("two\n"))
    await Effect.runPromise(invocation.succeed({ output: "done" }))
    const flush = () => new Promise((resolve) => setImmediate(resolve))
    await flush()
    expect(shown).toEqual([
      { part: { sessionID: "ses", messageID: "msg", callID: "call_1" }, update: { metadata: { output: "one\n" } } },
    ])
    expect(lines.map((l) => l.type)).toEqual(["progress", "progress"])
    releases[0]()
    await flush()
    expect(shown).toHaveLength(2)
    expect((shown[1] as { update: unknown }).update).toEqual({ metadata: { output: "one\ntwo\n" } })
    expect(lines.map((l) => l.type)).toEqual(["progress", "progress"])
    releases[1]()
    await flush()
    expect(lines.at(-1)).toEqual({ type: "result", output: "done" })
    expect(hub.pending()).toEqual([])
  })
})
