/**
 * End to end against the real OpenCode (the `opencode-ai` package installed in the workspace): `opencode serve`
 * loads the generated adapter files, a tiny scripted OpenAI-compatible endpoint plays the model, and the test
 * drives the intercepted calls through `tools.control`. Checks: the adapters load with the built-in's input shape;
 * two parallel `bash` calls are taken by call ID and settled in the opposite order, and both results reach the next
 * model request as the right tool messages, with progress shown live on the running tool part; an undeclared tool (`read`) runs for real beside them; a failed
 * invocation reaches the model as a failed call; aborting the session completes `awaitInterrupted()`.
 */
import * as ChildProcess from "node:child_process"
import * as Fs from "node:fs"
import * as Http from "node:http"
import { createRequire } from "node:module"
import * as Os from "node:os"
import * as Path from "node:path"
import { Effect, Exit, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as ToolAdapters from "../src/ToolAdapters.js"

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

const opencodeBinary = (): string => {
  const require = createRequire(import.meta.url)
  const manifest = require.resolve("opencode-ai/package.json")
  const bin = (JSON.parse(Fs.readFileSync(manifest, "utf8")) as { bin: { opencode: string } }).bin.opencode
  return Path.join(Path.dirname(manifest), bin)
}

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

let root: string
let scope: Scope.Closeable
let adapters: ToolAdapters.Adapters
let model: Awaited<ReturnType<typeof startModel>>
let server: ChildProcess.ChildProcess
let serverUrl: string
let log = ""
const password = "adapters-e2e"
const authorization = `Basic ${Buffer.from(`opencode:${password}`).toString("base64")}`

const api = async (method: string, path: string, body?: unknown): Promise<unknown> => {
  const response = await fetch(`${serverUrl}${path}`, {
    method,
    headers: { authorization, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await response.text()
  if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${text}\n${log.slice(-3000)}`)
  return text === "" ? undefined : JSON.parse(text)
}

beforeAll(async () => {
  root = Fs.mkdtempSync(Path.join(Os.tmpdir(), "tool-adapters-e2e-"))
  const project = Path.join(root, "project")
  const home = Path.join(root, "home")
  Fs.mkdirSync(project, { recursive: true })
  Fs.mkdirSync(home, { recursive: true })
  Fs.writeFileSync(Path.join(project, "NOTES.md"), "The answer is 42.\n")

  scope = Effect.runSync(Scope.make())
  adapters = await Effect.runPromise(
    Scope.provide(ToolAdapters.make({ declared: ["shell", "webfetch", "websearch", "write"] }), scope),
  )
  for (const [path, source] of Object.entries(adapters.files)) {
    const file = Path.join(project, ".opencode", path)
    Fs.mkdirSync(Path.dirname(file), { recursive: true })
    Fs.writeFileSync(file, source)
  }
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
  server = ChildProcess.spawn(opencodeBinary(), ["serve", "--hostname", "127.0.0.1", "--port", "0", "--print-logs"], {
    cwd: project,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      PATH: process.env.PATH ?? "",
      HOME: home,
      XDG_CONFIG_HOME: Path.join(home, ".config"),
      XDG_DATA_HOME: Path.join(home, ".local", "share"),
      XDG_CACHE_HOME: Path.join(home, ".cache"),
      XDG_STATE_HOME: Path.join(home, ".local", "state"),
      OPENCODE_SERVER_PASSWORD: password,
      OPENCODE_CONFIG_CONTENT: JSON.stringify(config),
      OPENCODE_DISABLE_AUTOUPDATE: "1",
      OPENCODE_DISABLE_MODELS_FETCH: "1",
      OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
      OPENCODE_DISABLE_SHARE: "1",
      OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
      OPENCODE_DISABLE_CLAUDE_CODE: "1",
      ...adapters.env,
    },
  })
  serverUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`opencode serve did not listen within 30 s:\n${log}`)), 30_000)
    const record = (chunk: Buffer) => {
      log += chunk.toString("utf8")
      const match = /listening on (http:\/\/[^\s]+)/.exec(log)
      if (match) {
        clearTimeout(timer)
        resolve(match[1].replace(/\/$/, ""))
      }
    }
    server.stdout!.on("data", record)
    server.stderr!.on("data", record)
    server.on("exit", (code) => reject(new Error(`opencode serve exited with ${code}:\n${log}`)))
  })
  // The first request bootstraps the project instance: OpenCode installs @opencode-ai/plugin into .opencode/ and
  // loads the custom tools. It can take a while on a busy machine; the tests below start after it.
  await api("GET", "/experimental/tool/ids")
  await Effect.runPromise(adapters.showProgressIn({ url: serverUrl, authorization }))
}, 180_000)

afterAll(async () => {
  if (server?.pid !== undefined && server.exitCode === null) {
    const exited = new Promise((resolve) => server.once("exit", resolve))
    process.kill(-server.pid, "SIGTERM")
    const killer = setTimeout(() => server.pid !== undefined && process.kill(-server.pid, "SIGKILL"), 5_000)
    await exited
    clearTimeout(killer)
  }
  await model?.close()
  if (scope) await Effect.runPromise(Scope.close(scope, Exit.void))
  if (root) Fs.rmSync(root, { recursive: true, force: true })
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
          { id: "call_read", name: "read", input: { filePath: Path.join(root, "project", "NOTES.md") } },
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
