import { describe, expect, it } from "vitest"
import { chunkText, encodeResponse, type WireStep } from "../src/fake-llm/SseEncoder.js"
import * as Llm from "../src/Llm.js"

const context = {
  id: "chatcmpl-test",
  model: "simulated",
  created: 1,
  offeredTools: ["bash", "read"],
  promptTokens: 10,
}

const events = (steps: ReadonlyArray<WireStep>) =>
  steps.filter((step) => step.kind === "event").map((step) => (step.kind === "event" ? step.data : ""))

const deltas = (steps: ReadonlyArray<WireStep>) =>
  events(steps)
    .filter((data) => data !== "[DONE]")
    .map((data) => JSON.parse(data))
    .filter((chunk) => chunk.choices.length > 0)
    .map((chunk) => ({ delta: chunk.choices[0].delta, finish: chunk.choices[0].finish_reason }))

describe("chunkText", () => {
  it("keeps the text whole without a chunk size", () => {
    expect(chunkText("hello world", undefined)).toEqual(["hello world"])
  })
  it("splits by code points and never inside a surrogate pair", () => {
    expect(chunkText("ab😀cd", 3)).toEqual(["ab😀", "cd"])
    expect(chunkText("abcdef", 2)).toEqual(["ab", "cd", "ef"])
  })
  it("yields one empty piece for empty text", () => {
    expect(chunkText("", 4)).toEqual([""])
  })
})

describe("encodeResponse", () => {
  it("maps text to content deltas, the first with the assistant role, then stop, usage and [DONE]", () => {
    const steps = encodeResponse([Llm.text("The value is 1.")], context)
    expect(deltas(steps)).toEqual([
      { delta: { role: "assistant", content: "The value is 1." }, finish: null },
      { delta: {}, finish: "stop" },
    ])
    const all = events(steps)
    expect(all[all.length - 1]).toBe("[DONE]")
    const usage = JSON.parse(all[all.length - 2])
    expect(usage.choices).toEqual([])
    expect(usage.usage.prompt_tokens).toBe(10)
    expect(usage.id).toBe("chatcmpl-test")
    expect(usage.object).toBe("chat.completion.chunk")
  })

  it("streams text in chunks with delays between them", () => {
    const steps = encodeResponse([Llm.text("abcdefg", { chunkSize: 3, delay: 5 })], context)
    const kinds = steps.map((step) => (step.kind === "sleep" ? `sleep ${step.milliseconds}` : step.kind))
    expect(kinds.slice(0, 5)).toEqual(["event", "sleep 5", "event", "sleep 5", "event"])
    expect(deltas(steps).map((d) => d.delta.content)).toEqual(["abc", "def", "g", undefined])
  })

  it("maps reasoning to reasoning_content and pauses to sleeps", () => {
    const steps = encodeResponse(
      [Llm.reasoning("thinking"), Llm.pause(20), Llm.text("done"), Llm.finish("stop")],
      context,
    )
    expect(steps[1]).toEqual({ kind: "sleep", milliseconds: 20 })
    expect(deltas(steps)[0].delta).toEqual({ role: "assistant", reasoning_content: "thinking" })
    expect(deltas(steps)[1].delta).toEqual({ content: "done" })
  })

  it("emits an atomic tool call and translates the canonical shell name to the offered bash", () => {
    const steps = encodeResponse(
      [Llm.toolCall({ index: 0, id: "call_1", name: "shell", input: { command: "ls" } }), Llm.finish("tool-calls")],
      context,
    )
    expect(deltas(steps)).toEqual([
      {
        delta: {
          role: "assistant",
          tool_calls: [
            { index: 0, id: "call_1", type: "function", function: { name: "bash", arguments: '{"command":"ls"}' } },
          ],
        },
        finish: null,
      },
      { delta: {}, finish: "tool_calls" },
    ])
  })

  it("keeps a tool name the request offers and leaves unknown names alone", () => {
    const read = encodeResponse([Llm.toolCall({ index: 0, id: "c", name: "read", input: {} })], context)
    expect(deltas(read)[0].delta.tool_calls[0].function.name).toBe("read")
    const unknown = encodeResponse([Llm.toolCall({ index: 0, id: "c", name: "shell", input: {} })], {
      ...context,
      offeredTools: ["shell"],
    })
    expect(deltas(unknown)[0].delta.tool_calls[0].function.name).toBe("shell")
  })

  it("streams tool input in argument chunks when stream options are given", () => {
    const steps = encodeResponse(
      [Llm.toolCall({ index: 1, id: "call_p", name: "read", input: { filePath: "/a" } }, { chunkSize: 5, delay: 2 })],
      context,
    )
    const calls = deltas(steps)
      .filter((d) => d.delta.tool_calls)
      .map((d) => d.delta.tool_calls[0])
    expect(calls[0]).toEqual({ index: 1, id: "call_p", type: "function", function: { name: "read", arguments: "" } })
    expect(
      calls
        .slice(1)
        .map((c) => c.function.arguments)
        .join(""),
    ).toBe('{"filePath":"/a"}')
    expect(calls.slice(1).every((c) => c.id === undefined && c.index === 1)).toBe(true)
    expect(steps.filter((s) => s.kind === "sleep").length).toBe(calls.length - 2)
  })

  it("finishes with stop when there is no terminal output, and maps every finish reason", () => {
    expect(deltas(encodeResponse([Llm.text("x")], context)).at(-1)!.finish).toBe("stop")
    const reasons: Record<Llm.FinishReason, string> = {
      stop: "stop",
      length: "length",
      "tool-calls": "tool_calls",
      "content-filter": "content_filter",
      other: "other",
    }
    for (const [reason, wire] of Object.entries(reasons)) {
      expect(deltas(encodeResponse([Llm.finish(reason as Llm.FinishReason)], context)).at(-1)!.finish).toBe(wire)
    }
  })

  it("drops the stream on disconnect without finishing", () => {
    const steps = encodeResponse([Llm.text("partial"), Llm.disconnect()], context)
    expect(steps.at(-1)).toEqual({ kind: "disconnect" })
    expect(events(steps)).not.toContain("[DONE]")
  })

  it("sends raw data verbatim or as JSON", () => {
    const steps = encodeResponse([Llm.raw("not json"), Llm.raw({ custom: 1 }), Llm.finish()], context)
    expect(events(steps).slice(0, 2)).toEqual(["not json", '{"custom":1}'])
  })
})
