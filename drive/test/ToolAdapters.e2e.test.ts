/**
 * `@codemode/tool-adapters` without Drive's TUIs, end to end against the real OpenCode: `opencode serve` (started
 * the way every test here starts OpenCode, by `opencode-drive/testing`) loads the generated adapter files, a tiny scripted OpenAI-compatible endpoint plays the model, and the test
 * drives the intercepted calls through `tools.control`. Checks: the adapters load with the built-in's input shape;
 * two parallel `bash` calls are taken by call ID and settled in the opposite order, and both results reach the next
 * model request as the right tool messages, with progress shown live on the running tool part; an undeclared tool (`read`) runs for real beside them; a failed
 * invocation reaches the model as a failed call; aborting the session completes `awaitInterrupted()`.
 */
import * as Fs from "node:fs"
import * as Http from "node:http"
import * as Path from "node:path"
import * as ToolAdapters from "@codemode/tool-adapters"
import { Effect, Exit, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startServer, type TestServer } from "../src/testing.js"

interface ChatMessage {
  readonly role: string
  readonly content?: unknown
  readonly tool_call_id?: string
}
interface ChatRequest {
  readonly messages: ReadonlyArray<ChatMessage>
  readonly tools?: ReadonlyArray<{ readonly function: { readonly name: string } }>
}
interface ToolCall {
  readonly id: string
  readonly name: string
  readonly input: unknown
}
type Reply = { readonly toolCalls: ReadonlyArray<ToolCall> } | { readonly text: string }

const textOf = (content: unknown): string =>
  typeof content === "string"
    ? content
    : Array.isArray(content)
      ? content.map((part) => (typeof part?.text === "string" ? part.text : "")).join("")
      : ""

/** A scripted model: each non-title request takes the next reply. Every request is recorded. */
const startModel = async () => {
  const replies: Array<Reply> = []
  const requests: Array<ChatRequest> = []
  const sse = (res: Http.ServerResponse, delta: Record<string, unknown>, finish: string) => {
    const chunk = (choice: Record<string, unknown>) =>
      `data: ${JSON.stringify({ id: "chatcmpl-1", object: "chat.completion.chunk", created: 0, model: "simulated", choices: [choice] })}\n\n`
    res.writeHead(200, { "content-type": "text/event-stream" })
    res.write(chunk({ index: 0, delta: { role: "assistant", ...delta }, finish_reason: null }))
    res.write(chunk({ index: 0, delta: {}, finish_reason: finish }))
    res.end("data: [DONE]\n\n")
  }
  const server = Http.createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as ChatRequest
      const system = body.messages
        .filter((m) => m.role === "system")
        .map((m) => textOf(m.content))
        .join("\n")
      if (/title generator/i.test(system)) return sse(res, { content: "Adapters" }, "stop")
      requests.push(body)
      const reply = replies.shift()
      if (reply === undefined) return sse(res, { content: "(no scripted reply)" }, "stop")
      if ("text" in reply) return sse(res, { content: reply.text }, "stop")
      sse(
        res,
        {
          tool_calls: reply.toolCalls.map((call, index) => ({
            index,
            id: call.id,
            type: "function",
            function: { name: call.name, arguments: JSON.stringify(call.input) },
          })),
        },
        "tool_calls",
      )
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`
  return { url, replies, requests, close: () => new Promise((resolve) => server.close(resolve)) }
}

let scope: Scope.Closeable
let adapters: ToolAdapters.Prepared
let model: Awaited<ReturnType<typeof startModel>>
let server: TestServer

const api = async (method: string, path: string, body?: unknown): Promise<unknown> => {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: server.authorization, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await response.text()
  if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${text}\n${server.logTail(60)}`)
  return text === "" ? undefined : JSON.parse(text)
}

const projectFile = (relative: string) => Path.join(server.paths.files, relative)

beforeAll(async () => {
  scope = Effect.runSync(Scope.make())
  model = await startModel()
  const config = {
    autoupdate: false,
    share: "disabled",
    enabled_providers: ["scripted"],
    provider: {
      scripted: {
        npm: "@ai-sdk/openai-compatible",
        name: "Scripted",
        options: { baseURL: model.url, apiKey: "unused" },
        models: { simulated: { name: "Simulated", tool_call: true, limit: { context: 100_000, output: 8_000 } } },
      },
    },
    model: "scripted/simulated",
    small_model: "scripted/simulated",
    permission: { read: "allow", bash: "allow", webfetch: "allow" },
  }
  // The adapters are prepared in the run's project before the server starts: prepare gives `.opencode/` the
  // plugin package, the files go there and the channel's environment goes to the server.
  let prepared: ToolAdapters.Prepared | undefined
  const running = await Effect.runPromise(
    Scope.provide(
      startServer({ config, files: { "NOTES.md": "The answer is 42.\n" } }, (paths) =>
        Effect.gen(function* () {
          prepared = yield* ToolAdapters.prepare({
            declared: ["shell", "webfetch", "websearch", "write"],
            projectDir: paths.files,
            logsDir: paths.logs,
            env: {},
          })
          for (const [path, source] of Object.entries(prepared.files)) {
            const file = Path.join(paths.files, ".opencode", path)
            Fs.mkdirSync(Path.dirname(file), { recursive: true })
            Fs.writeFileSync(file, source)
          }
          return { env: prepared.env }
        }),
      ),
      scope,
    ),
  )
  adapters = prepared!
  server = running
  // The first request bootstraps the project instance and loads the custom tools.
  await api("GET", "/experimental/tool/ids")
  await Effect.runPromise(adapters.showProgressIn!({ url: server.url, authorization: server.authorization }))
}, 180_000)

afterAll(async () => {
  if (scope) await Effect.runPromise(Scope.close(scope, Exit.void))
  await model?.close()
}, 30_000)

const control = (name: string) => Effect.runPromise(adapters.tools.control(name))
const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromise(effect)
const toolMessages = (request: ChatRequest | undefined) =>
  Object.fromEntries(
    (request?.messages ?? []).filter((m) => m.role === "tool").map((m) => [m.tool_call_id, textOf(m.content)]),
  )

describe("static adapters inside the real OpenCode", () => {
  let sessionID: string

  it("load in place of the built-ins, keeping their input shape", async () => {
    const ids = (await api("GET", "/experimental/tool/ids")) as Array<string>
    expect(ids).toEqual(expect.arrayContaining(["bash", "webfetch", "websearch", "write", "read"]))
    const tools = (await api("GET", "/experimental/tool?provider=scripted&model=simulated")) as Array<{
      id: string
      description: string
      parameters: { properties: Record<string, unknown>; required?: Array<string> }
    }>
    const ours: Record<string, string> = {
      bash: "Run a shell command",
      webfetch: "Fetch a web page",
      websearch: "Search the web",
      write: "Write a file",
    }
    for (const [name, opening] of Object.entries(ours)) {
      const entries = tools.filter((t) => t.id === name)
      const adapter = entries.find((t) => t.description.startsWith(opening))
      const builtin = entries.find((t) => t !== adapter)
      expect(adapter, `the generated ${name} adapter is listed`).toBeDefined()
      if (name === "bash" || name === "write") expect(builtin, `OpenCode lists its built-in ${name} too`).toBeDefined()
      if (builtin !== undefined) {
        expect(Object.keys(adapter!.parameters.properties).sort()).toEqual(
          Object.keys(builtin.parameters.properties).sort(),
        )
        expect([...(adapter!.parameters.required ?? [])].sort()).toEqual(
          [...(builtin.parameters.required ?? [])].sort(),
        )
      }
    }
  }, 30_000)

  it("delivers parallel calls by call ID, settled in any order, with live progress, beside a real read", async () => {
    sessionID = ((await api("POST", "/session", {})) as { id: string }).id
    model.replies.push(
      {
        toolCalls: [
          { id: "call_build", name: "bash", input: { command: "npm run build" } },
          { id: "call_test", name: "bash", input: { command: "npm test" } },
          { id: "call_read", name: "read", input: { filePath: projectFile("NOTES.md") } },
        ],
      },
      { text: "Both passed." },
    )
    const prompt = api("POST", `/session/${sessionID}/message`, { parts: [{ type: "text", text: "Build and test" }] })
    const shells = await control("shell")
    const build = await run(shells.take("call_build"))
    const test = await run(shells.take("call_test"))
    expect(build.input).toEqual({ command: "npm run build" })
    expect(test.sessionID).toBe(sessionID)
    await run(test.progress("running 3 suites\n"))
    // The progress shows on OpenCode's running tool part (what the TUI renders) before the call completes.
    const toolPart = async (callID: string) =>
      ((await api("GET", `/session/${sessionID}/message`)) as Array<{ parts: Array<Record<string, any>> }>)
        .flatMap((m) => m.parts)
        .find((p) => p.type === "tool" && p.callID === callID)
    let running = await toolPart("call_test")
    while (running?.state?.metadata?.output !== "running 3 suites\n") {
      await new Promise((resolve) => setTimeout(resolve, 100))
      running = await toolPart("call_test")
    }
    expect(running.state.status).toBe("running")
    await run(test.succeed({ output: "Tests passed\n", exit: 0 }))
    await run(build.succeed({ output: "Build passed\n", exit: 0 }))
    await prompt
    expect((await toolPart("call_test"))?.state).toMatchObject({
      status: "completed",
      output: "Tests passed\n",
      metadata: { output: "Tests passed\n", exit: 0 },
    })
    const results = toolMessages(model.requests[1])
    expect(results.call_build).toContain("Build passed")
    expect(results.call_test).toContain("Tests passed")
    expect(results.call_read).toContain("The answer is 42.")
    await run(adapters.settle)
  }, 60_000)

  it("reports a failed invocation to the model as a failed call, with no network for webfetch", async () => {
    model.replies.push(
      { toolCalls: [{ id: "call_fetch", name: "webfetch", input: { url: "https://example.invalid/" } }] },
      { text: "It failed." },
    )
    const before = model.requests.length
    const prompt = api("POST", `/session/${sessionID}/message`, { parts: [{ type: "text", text: "Fetch it" }] })
    const fetches = await control("webfetch")
    const fetch = await run(fetches.take())
    expect(fetch.callID).toBe("call_fetch")
    expect(fetch.input).toMatchObject({ url: "https://example.invalid/" })
    await run(fetch.fail("example.invalid did not resolve"))
    await prompt
    expect(toolMessages(model.requests[before + 1]).call_fetch).toContain("example.invalid did not resolve")
    const messages = (await api("GET", `/session/${sessionID}/message`)) as Array<{ parts: Array<Record<string, any>> }>
    const part = messages.flatMap((m) => m.parts).find((p) => p.type === "tool" && p.callID === "call_fetch")
    expect(part?.state?.status).toBe("error")
    await run(adapters.settle)
  }, 60_000)

  it("completes awaitInterrupted when the session is aborted", async () => {
    model.replies.push({ toolCalls: [{ id: "call_hang", name: "bash", input: { command: "sleep 1000" } }] })
    const prompt = api("POST", `/session/${sessionID}/message`, {
      parts: [{ type: "text", text: "Wait forever" }],
    }).catch((error: unknown) => error)
    const hang = await run(Effect.flatMap(adapters.tools.control("bash"), (c) => c.take("call_hang")))
    await api("POST", `/session/${sessionID}/abort`)
    await run(hang.awaitInterrupted())
    await prompt
    await run(adapters.settle)
  }, 60_000)
})
