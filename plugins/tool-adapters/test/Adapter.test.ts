/**
 * The generated adapter files, executed for real against a real control channel. OpenCode is replaced here only
 * by the tool context it passes to `execute` and by a minimal `@opencode-ai/plugin` (its `tool` helper returns the
 * definition; `tool.schema` accepts any zod call chain). The end-to-end test checks the same files inside OpenCode.
 */
import * as Fs from "node:fs"
import * as Net from "node:net"
import * as Os from "node:os"
import * as Path from "node:path"
import { pathToFileURL } from "node:url"
import { Effect, Exit, Fiber, Scope } from "effect"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import * as AdapterSource from "../src/AdapterSource.js"
import * as ControlChannel from "../src/ControlChannel.js"
import * as Invocations from "../src/Invocations.js"
import { tokenVariable, urlVariable } from "../src/Protocol.js"

interface Definition {
  readonly description: string
  readonly args: Record<string, unknown>
  readonly execute: (
    args: unknown,
    context: unknown,
  ) => Promise<{ title: string; output: string; metadata: Record<string, unknown> }>
}

let directory: string
const adapters: Record<string, Definition> = {}

beforeAll(async () => {
  directory = Fs.mkdtempSync(Path.join(Os.tmpdir(), "tool-adapters-"))
  const plugin = Path.join(directory, "node_modules", "@opencode-ai", "plugin")
  Fs.mkdirSync(plugin, { recursive: true })
  Fs.writeFileSync(
    Path.join(plugin, "package.json"),
    JSON.stringify({ name: "@opencode-ai/plugin", type: "module", main: "index.js" }),
  )
  Fs.writeFileSync(
    Path.join(plugin, "index.js"),
    [
      "const chain = new Proxy(function () {}, { get: (_, key) => (key === 'then' ? undefined : chain), apply: () => chain })",
      "export const tool = Object.assign((definition) => definition, { schema: chain })",
    ].join("\n"),
  )
  for (const [path, source] of Object.entries(AdapterSource.files(["shell", "write"]))) {
    const file = Path.join(directory, path)
    Fs.mkdirSync(Path.dirname(file), { recursive: true })
    Fs.writeFileSync(file, source)
    adapters[Path.basename(path, ".ts")] = ((await import(pathToFileURL(file).href)) as { default: Definition }).default
  }
})
afterAll(() => Fs.rmSync(directory, { recursive: true, force: true }))

const scopes: Array<Scope.Closeable> = []
afterEach(async () => {
  for (const scope of scopes.splice(0)) await Effect.runPromise(Scope.close(scope, Exit.void))
  delete process.env[urlVariable]
  delete process.env[tokenVariable]
})

/** Start a hub and channel, and point the adapters at `url` (the channel itself unless a proxy is given). */
const start = async (options: { readonly via?: (channel: ControlChannel.ControlChannel) => Promise<string> } = {}) => {
  const hub = Invocations.make({ declared: ["shell", "write"], reconnectGraceMs: 10_000 })
  const scope = Effect.runSync(Scope.make())
  scopes.push(scope)
  const channel = await Effect.runPromise(Scope.provide(ControlChannel.make(hub), scope))
  process.env[urlVariable] = options.via ? await options.via(channel) : channel.url
  process.env[tokenVariable] = channel.token
  return { hub, channel }
}

/** The context OpenCode passes to `execute`, recording `metadata` calls. */
const context = (callID: string) => {
  const controller = new AbortController()
  const metadata: Array<unknown> = []
  return {
    controller,
    metadata,
    value: {
      callID,
      sessionID: "ses_1",
      messageID: "msg_1",
      directory,
      abort: controller.signal,
      metadata: (m: unknown) => void metadata.push(m),
    },
  }
}

const take = (hub: Invocations.Hub, name: string, callID?: string) =>
  Effect.runPromise(Effect.flatMap(hub.control(name), (c) => c.take(callID)))

describe("generated adapter source", () => {
  it("keeps the built-in's argument names and optionality", () => {
    const bash = AdapterSource.render("shell")
    expect(AdapterSource.adapterPath("shell")).toBe("tools/bash.ts")
    expect(bash).toContain('"command": tool.schema.string().describe(')
    expect(bash).toContain('"timeout": tool.schema.number().int().positive().optional().describe(')
    expect(bash).toContain('"workdir": tool.schema.string().optional().describe(')
    expect(bash).toContain('callDrive("shell", args, context)')
    expect(AdapterSource.render("webfetch")).toContain(
      '"format": tool.schema.enum(["text","markdown","html"]).default("markdown")',
    )
    expect(AdapterSource.render("write")).toContain('"filePath": tool.schema.string().describe(')
    expect(bash).not.toMatch(/127\.0\.0\.1|Bearer [A-Za-z0-9]/)
  })

  it("shell and bash share one file, and an unknown tool is refused with the list of interceptable tools", () => {
    expect(Object.keys(AdapterSource.files(["shell", "bash", "websearch"]))).toEqual([
      "tools/bash.ts",
      "tools/websearch.ts",
    ])
    expect(() => AdapterSource.render("read")).toThrow(
      /no static adapter exists for tool "read".*bash, webfetch, websearch, write/,
    )
  })
})

describe("a generated adapter talking to the channel", () => {
  it("reports the call, forwards progress to metadata and returns the result's output", async () => {
    const { hub } = await start()
    const ctx = context("call_build")
    const result = adapters.bash.execute({ command: "npm run build" }, ctx.value)
    const invocation = await take(hub, "shell", "call_build")
    expect(invocation).toMatchObject({ tool: "shell", callID: "call_build", sessionID: "ses_1", messageID: "msg_1" })
    expect(invocation.input).toEqual({ command: "npm run build" })
    await Effect.runPromise(invocation.progress("compiling\n"))
    await Effect.runPromise(invocation.progress({ title: "Linking" }))
    await Effect.runPromise(invocation.succeed({ output: "Build passed\n", exit: 0 }))
    expect(await result).toEqual({
      title: "",
      output: "Build passed\n",
      metadata: { output: "Build passed\n", description: undefined, exit: 0 },
    })
    expect(ctx.metadata).toEqual([
      { metadata: { output: "compiling\n", description: undefined } },
      { title: "Linking" },
    ])
    await Effect.runPromise(hub.settle)
  })

  it("throws a failure so OpenCode reports a failed tool call", async () => {
    const { hub } = await start()
    const result = adapters.write.execute({ filePath: "/x", content: "y" }, context("call_write").value)
    const invocation = await take(hub, "write")
    await Effect.runPromise(invocation.fail(new Error("permission denied: /x")))
    await expect(result).rejects.toThrow("permission denied: /x")
  })

  it("reports context.abort, which completes awaitInterrupted", async () => {
    const { hub } = await start()
    const ctx = context("call_slow")
    const result = adapters.bash.execute({ command: "sleep 100" }, ctx.value)
    const invocation = await take(hub, "shell", "call_slow")
    const interrupted = Effect.runFork(invocation.awaitInterrupted())
    ctx.controller.abort()
    await expect(result).rejects.toThrow("The shell call call_slow was aborted")
    await Effect.runPromise(Fiber.join(interrupted))
    await Effect.runPromise(hub.settle)
  })

  it("refuses to run without a channel, saying which variables are missing", async () => {
    await expect(adapters.bash.execute({ command: "ls" }, context("call_1").value)).rejects.toThrow(
      new RegExp(`started without ${urlVariable} and ${tokenVariable}`),
    )
  })

  it("surfaces a wrong token as a refused call instead of retrying", async () => {
    await start()
    process.env[tokenVariable] = "wrong"
    await expect(adapters.bash.execute({ command: "ls" }, context("call_1").value)).rejects.toThrow(
      /refused the shell call call_1 \(HTTP 401\)/,
    )
  })

  it("retries a dropped connection with the same invocation and without repeating progress", async () => {
    const sockets: Array<Net.Socket> = []
    let connections = 0
    const proxy = Net.createServer()
    const { hub } = await start({
      via: (channel) =>
        new Promise((resolve) => {
          const port = Number(new URL(channel.url).port)
          proxy.on("connection", (client) => {
            connections += 1
            const drop = connections === 1
            const upstream = Net.connect(port, "127.0.0.1")
            sockets.push(client, upstream)
            client.pipe(upstream)
            upstream.on("data", (chunk: Buffer) => {
              client.write(chunk)
              if (drop && chunk.toString().includes('"seq":1')) {
                client.destroy()
                upstream.destroy()
              }
            })
            client.on("error", () => undefined)
            upstream.on("error", () => undefined)
            upstream.on("close", () => client.destroy())
          })
          proxy.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(proxy.address() as Net.AddressInfo).port}`))
        }),
    })
    try {
      const ctx = context("call_flaky")
      const result = adapters.bash.execute({ command: "make" }, ctx.value)
      const invocation = await take(hub, "shell", "call_flaky")
      await Effect.runPromise(invocation.progress("one"))
      while (connections < 2) await new Promise((resolve) => setTimeout(resolve, 10))
      await Effect.runPromise(invocation.progress("two"))
      await Effect.runPromise(invocation.succeed({ output: "made" }))
      expect(await result).toMatchObject({ output: "made" })
      expect(ctx.metadata).toEqual([
        { metadata: { output: "one", description: undefined } },
        { metadata: { output: "onetwo", description: undefined } },
      ])
      expect(connections).toBeGreaterThanOrEqual(2)
      expect(hub.pending()).toEqual([])
      const another = Effect.runFork(Effect.flatMap(hub.control("shell"), (c) => c.take()))
      await new Promise((resolve) => setImmediate(resolve))
      expect(another.pollUnsafe()).toBeUndefined()
      await Effect.runPromise(Fiber.interrupt(another))
    } finally {
      for (const socket of sockets) socket.destroy()
      await new Promise((resolve) => proxy.close(resolve))
    }
  })
})
