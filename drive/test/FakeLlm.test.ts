import { Effect, Exit, Fiber, Scope, Stream } from "effect"
import { describe, expect, it } from "vitest"
import * as FakeLlm from "../src/fake-llm/FakeLlm.js"
import * as Llm from "../src/Llm.js"

const titleBody = {
  model: "simulated",
  messages: [
    { role: "system", content: "You are a title generator. You output ONLY a thread title." },
    { role: "user", content: "Generate a title for this conversation:\n" },
    { role: "user", content: "Read src/example.ts please" },
  ],
  stream: true,
}

const modelBody = (text: string) => ({
  model: "simulated",
  messages: [
    { role: "system", content: "You are opencode" },
    { role: "user", content: text },
  ],
  tools: [
    { type: "function", function: { name: "bash", description: "Run a command", parameters: { type: "object" } } },
  ],
  stream: true,
})

interface Sse {
  readonly status: number
  readonly events: ReadonlyArray<string>
  readonly done: boolean
}

const post = (llm: FakeLlm.FakeLlm, body: unknown, apiKey = llm.apiKey): Promise<Sse> =>
  fetch(`${llm.baseUrl}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${apiKey}` },
    body: JSON.stringify(body),
  }).then(
    async (response) => {
      let text = ""
      try {
        text = await response.text()
      } catch {
        // a dropped stream
      }
      const events = text
        .split("\n\n")
        .filter((block) => block.startsWith("data: "))
        .map((block) => block.slice(6))
      return { status: response.status, events, done: events.at(-1) === "[DONE]" }
    },
    () => ({ status: 0, events: [], done: false }),
  )

const content = (sse: Sse) =>
  sse.events
    .filter((data) => data !== "[DONE]")
    .map((data) => JSON.parse(data))
    .flatMap((chunk) => chunk.choices.map((choice: { delta: { content?: string } }) => choice.delta.content ?? ""))
    .join("")

/** Run a test body with a fresh fake LLM in its own scope. */
const withLlm = <A, E>(body: (llm: FakeLlm.FakeLlm) => Effect.Effect<A, E>) =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const llm = yield* FakeLlm.make
        return yield* body(llm)
      }),
    ),
  )

const promise = <A>(thunk: () => Promise<A>) => Effect.promise(thunk)

describe("fake LLM", () => {
  it("streams a queued response and settles cleanly", () =>
    withLlm((llm) =>
      Effect.gen(function* () {
        yield* llm.control.queue(Llm.text("The value is 1."))
        const sse = yield* promise(() => post(llm, modelBody("Read src/example.ts")))
        expect(sse.status).toBe(200)
        expect(content(sse)).toBe("The value is 1.")
        expect(sse.done).toBe(true)
        const summary = yield* llm.settle(1_000)
        expect(summary).toEqual({ modelRequests: 1, titleRequests: 0, responsesStreamed: 1, unansweredRequests: [] })
      }),
    ))

  it("answers title requests with a short title without consuming the queue", () =>
    withLlm((llm) =>
      Effect.gen(function* () {
        yield* llm.control.queue(Llm.text("queued answer"))
        const title = yield* promise(() => post(llm, titleBody))
        expect(content(title)).toBe("Read src/example.ts please")
        const answer = yield* promise(() => post(llm, modelBody("hi")))
        expect(content(answer)).toBe("queued answer")
        const requests = yield* llm.control.requests
        expect(requests.map((request) => request.kind)).toEqual(["title", "model"])
        expect((yield* llm.settle(1_000)).titleRequests).toBe(1)
      }),
    ))

  it("records what OpenCode sent: messages, tools and model", () =>
    withLlm((llm) =>
      Effect.gen(function* () {
        yield* llm.control.queue(Llm.text("ok"))
        yield* promise(() => post(llm, modelBody("list files")))
        const [request] = yield* llm.control.waitForRequests(1, { timeout: 1_000 })
        expect(request.model).toBe("simulated")
        expect(request.messages.at(-1)).toEqual({ role: "user", content: "list files" })
        expect(request.tools.map((tool) => tool.name)).toEqual(["bash"])
        expect(request.tools[0].description).toBe("Run a command")
        yield* llm.settle(1_000)
      }),
    ))

  it("fails settlement naming responses nobody requested", () =>
    withLlm((llm) =>
      Effect.gen(function* () {
        yield* llm.control.queue(Llm.text("first"))
        yield* llm.control.queue(Llm.text("never used"), Llm.finish("stop"))
        yield* promise(() => post(llm, modelBody("one")))
        const error = yield* Effect.flip(llm.settle(1_000))
        expect(error._tag).toBe("LlmSettlementError")
        expect(error.unusedResponses).toEqual(['response #2 [text "never used", finish stop]'])
        expect(error.message).toContain("1 queued response(s) were never requested by OpenCode")
        expect(error.message).toContain('text "never used"')
      }),
    ))

  it("reports requests nothing answered the same whether they came before or during settlement, answering them so nothing hangs", () =>
    withLlm((llm) =>
      Effect.gen(function* () {
        const waiting = post(llm, modelBody("unscripted follow-up"))
        yield* llm.control.waitForRequests(1, { timeout: 1_000 })
        const summary = yield* llm.settle(1_000)
        expect((yield* promise(() => waiting)).status).toBe(503)
        expect((yield* promise(() => post(llm, modelBody("after settlement began")))).status).toBe(503)
        expect(summary.unansweredRequests).toEqual([
          'request #0 (last user message: "unscripted follow-up")',
          'request #1 (last user message: "after settlement began")',
        ])
      }),
    ))

  it("send waits until a request already waiting has been streamed", () =>
    withLlm((llm) =>
      Effect.gen(function* () {
        const waiting = post(llm, modelBody("question first"))
        yield* llm.control.waitForRequests(1, { timeout: 1_000 })
        yield* llm.control.send(Llm.text("late answer", { chunkSize: 2, delay: 1 }))
        expect(content(yield* promise(() => waiting))).toBe("late answer")
        yield* llm.settle(1_000)
      }),
    ))

  it("send completes only after the stream was delivered", () =>
    withLlm((llm) =>
      Effect.gen(function* () {
        const sender = yield* Effect.forkChild(llm.control.send(Llm.text("sent")))
        yield* Effect.sleep(50)
        expect(sender.pollUnsafe()).toBeUndefined()
        const sse = yield* promise(() => post(llm, modelBody("go")))
        yield* Fiber.join(sender)
        expect(content(sse)).toBe("sent")
        yield* llm.settle(1_000)
      }),
    ))

  it("serves requests with a handler stream per request, after the queue", () =>
    withLlm((llm) =>
      Effect.gen(function* () {
        yield* llm.control.queue(Llm.text("queued"))
        yield* llm.control.serve((request, index) =>
          Stream.make(Llm.text(`Response ${index + 1} to ${request.messages.at(-1)?.content}`)),
        )
        expect(content(yield* promise(() => post(llm, modelBody("a"))))).toBe("queued")
        expect(content(yield* promise(() => post(llm, modelBody("b"))))).toBe("Response 2 to b")
        expect(content(yield* promise(() => post(llm, modelBody("c"))))).toBe("Response 3 to c")
        yield* llm.settle(1_000)
      }),
    ))

  it("drops the stream on disconnect", () =>
    withLlm((llm) =>
      Effect.gen(function* () {
        yield* llm.control.queue(Llm.text("partial"), Llm.disconnect())
        const sse = yield* promise(() => post(llm, modelBody("x")))
        expect(sse.done).toBe(false)
        yield* llm.settle(1_000)
      }),
    ))

  it("validates responses: raw objects accepted, invalid outputs and outputs after a terminal rejected", () =>
    withLlm((llm) =>
      Effect.gen(function* () {
        yield* llm.control.queue({ type: "text", text: "raw object" })
        const invalid = yield* Effect.flip(llm.control.queue({ type: "text" } as unknown as Llm.Output))
        expect(invalid._tag).toBe("LlmOutputError")
        expect(invalid.message).toContain("LLM output #1 is not a valid Llm output")
        const afterTerminal = yield* Effect.flip(llm.control.queue(Llm.finish(), Llm.text("late")))
        expect(afterTerminal.message).toContain("ends the response but 1 output(s) follow it")
        const empty = yield* Effect.flip(llm.control.queue())
        expect(empty.message).toContain("at least one output")
        expect(content(yield* promise(() => post(llm, modelBody("x"))))).toBe("raw object")
        yield* llm.settle(1_000)
      }),
    ))

  it("reports a failing handler and a response still streaming, within the settle timeout", () =>
    withLlm((llm) =>
      Effect.gen(function* () {
        yield* llm.control.queue(Llm.text("slow"), Llm.pause(5_000), Llm.text("never"))
        const slow = post(llm, modelBody("slow one"))
        yield* llm.control.waitForRequests(1, { timeout: 1_000 })
        const started = Date.now()
        const error = yield* Effect.flip(llm.settle(200))
        expect(Date.now() - started).toBeLessThan(3_000)
        expect(error.unfinishedResponses[0]).toContain("slow one")
        expect(error.message).toContain("still streaming after 200 ms")
        void slow.catch(() => undefined)
      }),
    ))

  it("reports a handler whose stream fails", () =>
    withLlm((llm) =>
      Effect.gen(function* () {
        yield* llm.control.serve(() => Stream.fail("handler broke"))
        const sse = yield* promise(() => post(llm, modelBody("x")))
        expect(sse.done).toBe(false)
        const error = yield* Effect.flip(llm.settle(1_000))
        expect(error.message).toContain("handler broke")
      }),
    ))

  it("rejects new responses after settlement and requests with a wrong key", () =>
    withLlm((llm) =>
      Effect.gen(function* () {
        expect((yield* promise(() => post(llm, modelBody("x"), "wrong"))).status).toBe(401)
        yield* llm.settle(1_000)
        const error = yield* Effect.flip(llm.control.queue(Llm.text("late")))
        expect(error._tag).toBe("DriverSettledError")
      }),
    ))

  it("closes the server with its scope", async () => {
    const scope = await Effect.runPromise(Scope.make())
    const llm = await Effect.runPromise(Scope.provide(scope)(FakeLlm.make))
    await Effect.runPromise(Scope.close(scope, Exit.void))
    await expect(fetch(`${llm.baseUrl}/models`)).rejects.toThrow()
  })
})
