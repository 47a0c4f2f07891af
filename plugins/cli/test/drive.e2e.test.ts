/**
 * The two products proving each other: the real OpenCode, driven by Drive, with `codemode mcp` over the demo store
 * configured as a local MCP server in its `mcp` config. The fake LLM calls the server's `execute` tool with a Lua
 * program; the program's answer comes back through OpenCode to the model, whose reply shows in the TUI.
 */
import { fileURLToPath } from "node:url"
import { Effect, Stream } from "effect"
import { type LlmRequest, Llm, OpenCodeDriver } from "opencode-drive"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

const root = fileURLToPath(new URL("../../../", import.meta.url))
const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url))
const document = `${root}examples/store/openapi.yaml`
const token = "drive-e2e-staff-token"

const program = `
local found = tools.store.products.search({ q = "lamp" })
local names = {}
for _, product in ipairs(found.items) do names[#names + 1] = product.name end
table.sort(names)
return { answer = found.total .. " lamps, first " .. names[1] }
`

let store: { url: string; close(): Promise<void> }
beforeAll(async () => {
  const { startStore } = await import(`${root}examples/store/server.mjs`)
  store = await startStore({ port: 0, token })
})
afterAll(async () => {
  await store?.close()
})

const text = (content: unknown): string =>
  typeof content === "string"
    ? content
    : Array.isArray(content)
      ? content.map((part) => (typeof part?.text === "string" ? part.text : "")).join("")
      : ""

/** The model: call `execute` first; once the tool's answer is in the conversation, report the program's value. */
const model = (request: LlmRequest) => {
  const answer = request.messages.find((message) => message.role === "tool")
  if (answer === undefined) {
    const execute = request.tools.find((tool) => tool.name.endsWith("execute") && tool.description.includes("Lua"))
    if (!execute)
      return Stream.make(Llm.text(`no execute tool among ${request.tools.map((tool) => tool.name).join(", ")}`))
    return Stream.make(
      Llm.toolCall({ index: 0, id: "call_execute", name: execute.name, input: { code: program } }),
      Llm.finish("tool-calls"),
    )
  }
  const json = /\{.*\}/s.exec(text(answer.content))?.[0] ?? "{}"
  const result = JSON.parse(json) as { ok?: boolean; value?: { answer?: string }; error?: { message?: string } }
  return Stream.make(
    Llm.text(result.ok ? `The store program says: ${result.value?.answer}.` : `failed: ${result.error?.message}`),
  )
}

describe("OpenCode with codemode mcp as a local MCP server", () => {
  it("the fake LLM runs a Lua program over the store through execute, and its answer shows in the TUI", async () => {
    const value = await Effect.runPromise(
      OpenCodeDriver.use(
        {
          config: {
            mcp: {
              store: {
                type: "local",
                command: [
                  process.execPath,
                  cli,
                  "mcp",
                  "--openapi",
                  document,
                  "--base-url",
                  store.url,
                  "--namespace",
                  "store",
                  "--bearer-env",
                  "STORE_TOKEN",
                ],
                environment: { STORE_TOKEN: token },
                enabled: true,
                timeout: 60_000,
              },
            },
          },
          tui: { viewport: { cols: 120, rows: 36 } },
        },
        ({ ui, llm }) =>
          Effect.gen(function* () {
            yield* llm.serve(model)
            yield* ui.submit("How many lamps does the store sell?")
            yield* ui.waitFor("The store program says: 4 lamps, first", { timeout: 90_000 })
            const requests = (yield* llm.requests).filter((request) => request.kind === "model")
            return { screen: yield* ui.text(), requests }
          }),
      ),
    )
    expect(value.screen).toMatch(/The store program says: 4 lamps, first \S/)
    const offered = value.requests[0].tools.map((tool) => tool.name)
    expect(offered).toContain("store_execute")
    expect(offered).toContain("store_search")
    const toolAnswer = value.requests.at(-1)!.messages.find((message) => message.role === "tool")
    expect(text(toolAnswer?.content)).toContain('"ok":true')
  }, 240_000)
})
