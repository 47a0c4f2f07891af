/**
 * Tool control end to end, through Drive's public API only: a run declares `tools: ["shell"]`, Drive composes
 * `@codemode/tool-adapters` (loaded at run time), the real OpenCode calls the generated `bash` adapter, and the
 * script takes and settles each call with `tools.control("shell")`. What the model sees afterwards is read from
 * the next request the fake LLM received. One OpenCode run covers all cases (each run costs 10-20 s of CPU): its
 * first part is the seed's build-and-test example and a failed call beside a real one, its second a webfetch and a
 * user interrupt; each test checks its part of what the run recorded.
 */
import * as Path from "node:path"
import { Effect, Option } from "effect"
import { beforeAll, describe, expect, it } from "vitest"
import { Llm, OpenCodeDriver } from "../src/index.js"

const answer = { timeout: 150_000 }
const testTimeout = 420_000

interface Message {
  readonly role: string
  readonly content?: unknown
  readonly tool_call_id?: string
  readonly tool_calls?: ReadonlyArray<{
    readonly id: string
    readonly function: { readonly name: string; readonly arguments: string }
  }>
}

const toolMessages = (messages: ReadonlyArray<Message>) =>
  new Map(
    messages
      .filter((message) => message.role === "tool")
      .map((message) => [message.tool_call_id, String(message.content)]),
  )

/** What the shared run recorded: the model requests of each part, the tool calls, OpenCode's tool parts. */
const toolControlRun = () =>
  Effect.runPromise(
    OpenCodeDriver.useReport(
      {
        project: { git: true, files: { "notes.md": "the secret word is tangerine\n" } },
        tools: ["shell", "webfetch"],
        tui: { viewport: { cols: 110, rows: 40 }, recording: false },
      },
      ({ tools, llm, ui, paths, opencode }) =>
        Effect.gen(function* () {
          const shells = yield* tools.control("shell")

          // 1 + 2: the seed's example, with progress on screen, settled in the opposite order.
          yield* llm.queue(
            Llm.toolCall({
              index: 0,
              id: "call_build",
              name: "shell",
              input: { command: "bun run build", description: "Build the project" },
            }),
            Llm.toolCall({
              index: 1,
              id: "call_test",
              name: "shell",
              input: { command: "bun run test", description: "Run the tests" },
            }),
            Llm.finish("tool-calls"),
          )
          yield* llm.queue(Llm.text("Build and tests both passed."))
          yield* ui.submit("Build and test")

          const build = yield* shells.take("call_build")
          const test = yield* shells.take("call_test")
          yield* test.progress("running 3 suites\n")
          yield* ui.waitFor("running 3 suites", answer)
          yield* test.succeed({ output: "Tests passed\n", exit: 0 })
          yield* build.succeed({ output: "Build passed\n", exit: 0 })
          yield* ui.waitFor("Build and tests both passed.", answer)

          // 3 + 4: an intercepted call that fails beside an undeclared `read` that runs for real.
          yield* llm.queue(
            Llm.toolCall({
              index: 0,
              id: "call_fail",
              name: "shell",
              input: { command: "make deploy", description: "Deploy" },
            }),
            Llm.toolCall({
              index: 1,
              id: "call_read",
              name: "read",
              input: { filePath: Path.join(paths.files, "notes.md") },
            }),
            Llm.finish("tool-calls"),
          )
          yield* llm.queue(Llm.text("Deploy failed, but I read the notes."))
          yield* ui.submit("Deploy and read the notes")
          const failing = yield* shells.take()
          yield* failing.fail(new Error("boom"))
          yield* ui.waitFor("Deploy failed, but I read the notes.", answer)

          // OpenCode's own record of the calls: the session's tool parts, by model call id.
          const sessions = yield* opencode.session.list()
          const parts: Record<string, unknown> = {}
          for (const session of sessions) {
            const messages = yield* opencode.session.messages({ sessionID: session.id })
            for (const message of messages) {
              for (const part of message.parts)
                if (part.type === "tool") parts[part.callID] = { tool: part.tool, state: part.state }
            }
          }
          const firstPart = yield* llm.requests

          // The second part. A `.invalid` host never resolves: only the adapter can answer this call.
          yield* llm.queue(
            Llm.toolCall({
              index: 0,
              id: "call_fetch",
              name: "webfetch",
              input: { url: "https://docs.example.invalid/guide", format: "text" },
            }),
            Llm.finish("tool-calls"),
          )
          yield* llm.queue(Llm.text("The guide says to use version 7."))
          yield* ui.submit("What does the guide say?")
          const fetches = yield* tools.control("webfetch")
          const fetch = yield* fetches.take("call_fetch")
          yield* fetch.succeed({ output: "Use version 7 of the widget.\n" })
          yield* ui.waitFor("The guide says to use version 7.", answer)

          yield* llm.queue(
            Llm.toolCall({
              index: 0,
              id: "call_long",
              name: "shell",
              input: { command: "sleep 600", description: "Wait a long time" },
            }),
            Llm.finish("tool-calls"),
          )
          yield* ui.submit("Wait a long time")
          const long = yield* shells.take("call_long")
          // OpenCode interrupts a busy session on the second escape within a short window; on a loaded machine two
          // presses a fixed time apart can miss it, so press again until the call is interrupted.
          let interrupted = false
          for (let press = 0; press < 40 && !interrupted; press++) {
            yield* ui.press("escape")
            const done = yield* long.awaitInterrupted().pipe(Effect.timeoutOption("1500 millis"))
            interrupted = Option.isSome(done)
          }
          const late = interrupted ? (yield* Effect.flip(long.succeed({ output: "too late\n" }))).message : ""
          const all = yield* llm.requests
          const models = (requests: typeof all) => requests.filter((request) => request.kind === "model")
          return {
            first: {
              parts,
              models: models(firstPart),
              inputs: { build: build.input, test: test.input, failing: failing.input },
              ids: {
                build: [build.callID, build.tool],
                test: [test.callID, test.tool],
                failing: [failing.callID, failing.tool],
              },
            },
            second: {
              models: models(all).slice(models(firstPart).length),
              fetchInput: fetch.input,
              interrupted,
              late,
            },
          }
        }),
    ),
  )

describe("tool control against the real OpenCode", () => {
  let run: ReturnType<typeof toolControlRun>
  beforeAll(() => {
    run = toolControlRun()
    // Each test awaits it; an early failure is reported there, not as an unhandled rejection.
    run.catch(() => undefined)
  })

  it(
    "runs the seed's build-and-test example, shows progress, reports a failed call to the model and runs an undeclared tool for real",
    async () => {
      const { value, report } = await run
      const { first } = value

      expect(first.ids).toEqual({
        build: ["call_build", "shell"],
        test: ["call_test", "shell"],
        failing: ["call_fail", "shell"],
      })
      expect(first.inputs.build).toMatchObject({ command: "bun run build" })
      expect(first.inputs.test).toMatchObject({ command: "bun run test" })
      expect(first.inputs.failing).toMatchObject({ command: "make deploy" })

      const models = first.models
      expect(models).toHaveLength(4)
      expect(models[0].tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["bash", "read"]))

      // The request after the build-and-test response carries both results, each under its own call id.
      const afterBuild = models[1].messages as ReadonlyArray<Message>
      const assistant = afterBuild.find(
        (message) => message.role === "assistant" && (message.tool_calls?.length ?? 0) > 0,
      )
      expect(assistant?.tool_calls?.map((call) => [call.id, call.function.name])).toEqual([
        ["call_build", "bash"],
        ["call_test", "bash"],
      ])
      const results = toolMessages(afterBuild)
      expect(results.get("call_build")).toContain("Build passed")
      expect(results.get("call_test")).toContain("Tests passed")
      expect(results.get("call_build")).not.toContain("Tests passed")
      expect(results.get("call_test")).not.toContain("Build passed")

      // The failed call reaches the model as an error; the undeclared read ran against the real file.
      const afterDeploy = toolMessages(models[3].messages as ReadonlyArray<Message>)
      expect(afterDeploy.get("call_fail")).toContain("boom")
      expect(afterDeploy.get("call_fail")).not.toContain("Build passed")
      expect(afterDeploy.get("call_read")).toContain("the secret word is tangerine")

      // OpenCode recorded the failure as a failed tool call (the chat format has no error flag on tool messages),
      // the successes with their exit codes, and the read as a completed call of its real tool.
      expect(first.parts["call_fail"]).toMatchObject({
        tool: "bash",
        state: { status: "error", error: expect.stringContaining("boom") },
      })
      expect(first.parts["call_build"]).toMatchObject({
        tool: "bash",
        state: { status: "completed", output: "Build passed\n", metadata: { exit: 0 } },
      })
      expect(first.parts["call_test"]).toMatchObject({
        tool: "bash",
        state: { status: "completed", output: "Tests passed\n", metadata: { exit: 0 } },
      })
      expect(first.parts["call_read"]).toMatchObject({ tool: "read", state: { status: "completed" } })

      // Four model requests in this part, three in the second; every one answered by a queued response.
      expect(report.llm).toMatchObject({ modelRequests: 4 + 3, responsesStreamed: 4 + 3 })
    },
    testTimeout,
  )

  it(
    "intercepts webfetch without any network and completes awaitInterrupted() when the user interrupts a running shell call",
    async () => {
      const { value, report } = await run
      const { second } = value
      expect(second.fetchInput).toMatchObject({ url: "https://docs.example.invalid/guide", format: "text" })
      expect(second.models).toHaveLength(3)
      expect(toolMessages(second.models[1].messages as ReadonlyArray<Message>).get("call_fetch")).toContain(
        "Use version 7 of the widget.",
      )
      expect(second.interrupted).toBe(true)
      expect(second.late).toContain("interrupted")
      expect(report.llm).toMatchObject({ modelRequests: 4 + 3, responsesStreamed: 4 + 3 })
    },
    testTimeout,
  )
})
