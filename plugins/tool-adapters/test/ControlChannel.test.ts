import { Effect, Exit, Fiber, Scope } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import * as ControlChannel from "../src/ControlChannel.js"
import * as Invocations from "../src/Invocations.js"
import { tokenVariable, urlVariable, type Line } from "../src/Protocol.js"

/** Open channels of the current test, closed afterwards. */
const scopes: Array<Scope.Closeable> = []
afterEach(async () => {
  for (const scope of scopes.splice(0)) await Effect.runPromise(Scope.close(scope, Exit.void))
})

const start = async (options: Partial<Invocations.HubOptions> = {}) => {
  const hub = Invocations.make({ declared: ["shell", "webfetch"], ...options })
  const scope = Effect.runSync(Scope.make())
  scopes.push(scope)
  const channel = await Effect.runPromise(Scope.provide(ControlChannel.make(hub), scope))
  return { hub, channel, scope }
}

const invoke = (channel: ControlChannel.ControlChannel, body: Record<string, unknown>, init: RequestInit = {}) =>
  fetch(`${channel.url}/invoke`, {
    method: "POST",
    headers: { authorization: `Bearer ${channel.token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
    ...init,
  })

/** Read NDJSON lines from a response until it ends or `count` lines arrived. */
const readLines = async (response: Response, count = Infinity): Promise<Array<Line>> => {
  const reader = response.body!.getReader()
  const decoder = new TextDecoder()
  const lines: Array<Line> = []
  let buffer = ""
  while (lines.length < count) {
    const { value, done } = await reader.read()
    if (done) break
    buffer += decoder.decode(value, { stream: true })
    const parts = buffer.split("\n")
    buffer = parts.pop() ?? ""
    for (const part of parts) if (part.trim() !== "") lines.push(JSON.parse(part) as Line)
  }
  if (lines.length >= count) await reader.cancel()
  return lines.slice(0, count)
}

const call = (id: string, callID: string, extra: Record<string, unknown> = {}) => ({
  id,
  tool: "shell",
  callID,
  sessionID: "ses_1",
  messageID: "msg_1",
  input: { command: "npm test" },
  ...extra,
})

describe("the control channel over loopback HTTP", () => {
  it("listens on 127.0.0.1 and hands the address and token to OpenCode through the environment", async () => {
    const { channel } = await start()
    expect(channel.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(channel.token.length).toBeGreaterThanOrEqual(32)
    expect(channel.env).toEqual({ [urlVariable]: channel.url, [tokenVariable]: channel.token })
  })

  it("answers 401 to a wrong or missing bearer token and records nothing", async () => {
    const { channel, hub } = await start()
    const wrong = await fetch(`${channel.url}/invoke`, {
      method: "POST",
      headers: { authorization: "Bearer not-the-token" },
      body: JSON.stringify(call("a", "call_1")),
    })
    expect(wrong.status).toBe(401)
    expect(await wrong.json()).toEqual({ error: expect.stringMatching(/bearer token/) })
    const missing = await fetch(`${channel.url}/invoke`, { method: "POST", body: JSON.stringify(call("a", "call_1")) })
    expect(missing.status).toBe(401)
    await missing.text()
    expect(hub.pending()).toEqual([])
  })

  it("answers 400 with the reason to a body that is not an invocation", async () => {
    const { channel } = await start()
    const notJson = await invoke(channel, {}, { body: "{nope" })
    expect(notJson.status).toBe(400)
    expect(((await notJson.json()) as { error: string }).error).toMatch(/not JSON/)
    const noCallID = await invoke(channel, { id: "a", tool: "shell", input: {} })
    expect(noCallID.status).toBe(400)
    expect(((await noCallID.json()) as { error: string }).error).toMatch(/callID/)
  })

  it("streams progress and the result as NDJSON", async () => {
    const { channel, hub } = await start()
    const responsePromise = invoke(channel, call("a", "call_build"))
    const shells = await Effect.runPromise(hub.control("shell"))
    const invocation = await Effect.runPromise(shells.take("call_build"))
    expect(invocation.input).toEqual({ command: "npm test" })
    expect(invocation.sessionID).toBe("ses_1")
    const response = await responsePromise
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toBe("application/x-ndjson")
    await Effect.runPromise(invocation.progress("compiling\n"))
    await Effect.runPromise(invocation.succeed({ output: "Build passed\n", exit: 0 }))
    expect(await readLines(response)).toEqual([
      { type: "progress", seq: 1, data: "compiling\n" },
      { type: "result", output: "Build passed\n", exit: 0 },
    ])
    await Effect.runPromise(hub.settle)
  })

  it("an undeclared tool gets an error line", async () => {
    const { channel } = await start()
    const response = await invoke(channel, { ...call("a", "call_1"), tool: "write" })
    expect(await readLines(response)).toEqual([
      { type: "error", message: expect.stringMatching(/"write" is not intercepted/) },
    ])
  })

  it("deduplicates a replay after a dropped connection and resumes after the last seen progress", async () => {
    const { channel, hub } = await start()
    const first = invoke(channel, call("a", "call_1"))
    const invocation = await Effect.runPromise(Effect.flatMap(hub.control("shell"), (c) => c.take()))
    await Effect.runPromise(invocation.progress("one"))
    await Effect.runPromise(invocation.progress("two"))
    expect(await readLines(await first, 1)).toEqual([{ type: "progress", seq: 1, data: "one" }])
    const replay = await invoke(channel, call("a", "call_1", { after: 1 }))
    await Effect.runPromise(invocation.succeed({ output: "done" }))
    expect(await readLines(replay)).toEqual([
      { type: "progress", seq: 2, data: "two" },
      { type: "result", output: "done" },
    ])
    expect(hub.pending()).toEqual([])
    const shells = await Effect.runPromise(hub.control("shell"))
    const other = Effect.runFork(shells.take())
    await new Promise((resolve) => setImmediate(resolve))
    expect(other.pollUnsafe()).toBeUndefined()
    await Effect.runPromise(Fiber.interrupt(other))
  })

  it("POST /abort completes awaitInterrupted and ends the open stream with an error", async () => {
    const { channel, hub } = await start()
    const responsePromise = invoke(channel, call("a", "call_1"))
    const invocation = await Effect.runPromise(Effect.flatMap(hub.control("shell"), (c) => c.take("call_1")))
    const aborted = await fetch(`${channel.url}/abort`, {
      method: "POST",
      headers: { authorization: `Bearer ${channel.token}` },
      body: JSON.stringify({ id: "a" }),
    })
    expect(aborted.status).toBe(204)
    await Effect.runPromise(invocation.awaitInterrupted())
    expect(await readLines(await responsePromise)).toEqual([
      { type: "error", message: "OpenCode aborted call call_1 (shell)" },
    ])
    await Effect.runPromise(hub.settle)
  })

  it("a broken transport that is not replayed interrupts the call", async () => {
    const { channel, hub } = await start({ reconnectGraceMs: 20 })
    const controller = new AbortController()
    const responsePromise = invoke(channel, call("a", "call_1"), { signal: controller.signal })
    const invocation = await Effect.runPromise(Effect.flatMap(hub.control("shell"), (c) => c.take()))
    await responsePromise
    controller.abort()
    await Effect.runPromise(invocation.awaitInterrupted())
    expect(hub.pending()).toEqual([])
  })

  it("scope closure fails blocked takes, interrupts unresolved calls, ends their streams and stops listening", async () => {
    const { channel, hub, scope } = await start()
    const responsePromise = invoke(channel, call("a", "call_1"))
    const shells = await Effect.runPromise(hub.control("shell"))
    const invocation = await Effect.runPromise(shells.take())
    const blocked = Effect.runFork(shells.take("call_2"))
    const response = await responsePromise
    await Effect.runPromise(Scope.close(scope, Exit.void))
    const exit = await Effect.runPromiseExit(Fiber.join(blocked))
    expect(Exit.isFailure(exit) && String(exit.cause)).toMatch(/take\("call_2"\) was still waiting when the run ended/)
    await Effect.runPromise(invocation.awaitInterrupted())
    expect(await readLines(response)).toEqual([
      { type: "error", message: "Drive's run ended before call call_1 (shell) was settled" },
    ])
    await expect(invoke(channel, call("b", "call_3"))).rejects.toThrow()
  })
})
