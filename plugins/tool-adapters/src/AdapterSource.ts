/**
 * Generated adapter files. A custom tool file `.opencode/tools/<name>.ts` whose name is a built-in's replaces
 * that built-in in OpenCode 1.x. The generated file keeps the built-in's input shape (declared with the zod that
 * `@opencode-ai/plugin` exports as `tool.schema`; OpenCode installs that package into `.opencode/` on first
 * start) and, on `execute`, reports the call to Drive's control channel (see `Protocol.ts`): it streams progress
 * into `context.metadata`, returns the result (output plus metadata, which OpenCode keeps on the tool part), throws a failure (so the model sees a failed tool call),
 * reports `context.abort`, and retries a dropped connection with the same invocation id and last progress seq.
 * The channel URL and token come from the OpenCode server's environment, never from the file.
 */
import { type ArgSpec, builtinTools } from "./BuiltinTools.js"
import { tokenVariable, urlVariable } from "./Protocol.js"
import { canonicalName, opencodeName } from "./ToolNames.js"

const renderArg = (spec: ArgSpec): string => {
  let expression =
    spec.type === "string"
      ? "tool.schema.string()"
      : spec.type === "enum"
        ? `tool.schema.enum(${JSON.stringify(spec.values ?? [])})`
        : spec.type === "integer"
          ? "tool.schema.number().int()"
          : "tool.schema.number()"
  if (spec.positive) expression += ".positive()"
  if (spec.default !== undefined) expression += `.default(${JSON.stringify(spec.default)})`
  else if (spec.optional) expression += ".optional()"
  return `${expression}.describe(${JSON.stringify(spec.description)})`
}

/** The client half of the protocol, shared verbatim by every generated file (plain JavaScript, valid TypeScript). */
const runtime = `
const RETRY_LIMIT = 30
const RETRY_DELAYS_MS = [50, 100, 200, 400, 800, 1000]

class DriveToolFailure extends Error {}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

function showProgress(context, input, output, data) {
  let text = typeof data === "string" ? data : undefined
  const extra = {}
  if (data !== null && typeof data === "object" && ("content" in data || "structured" in data)) {
    if (data.structured !== undefined) extra.structured = data.structured
    const parts = Array.isArray(data.content) ? data.content.filter((part) => part && part.type === "text" && typeof part.text === "string") : []
    if (parts.length > 0) text = parts.map((part) => part.text).join("")
    else {
      context.metadata({ metadata: extra })
      return output
    }
  }
  if (text !== undefined) {
    const next = output + text
    context.metadata({ metadata: Object.assign({ output: next, description: input && input.description }, extra) })
    return next
  }
  if (data !== null && typeof data === "object" && ("title" in data || "metadata" in data)) context.metadata(data)
  else context.metadata({ metadata: { progress: data } })
  return output
}

async function callDrive(toolName, input, context) {
  const url = process.env.${urlVariable}
  const token = process.env.${tokenVariable}
  if (!url || !token) {
    throw new Error("Drive's " + toolName + " adapter has no channel: the OpenCode server was started without ${urlVariable} and ${tokenVariable}")
  }
  const callID = context.callID
  if (typeof callID !== "string" || callID === "") {
    throw new Error("OpenCode passed no tool call id (context.callID) to Drive's " + toolName + " adapter; this OpenCode version cannot be driven with static tool adapters")
  }
  const id = globalThis.crypto.randomUUID()
  const headers = { "content-type": "application/json", authorization: "Bearer " + token }
  const signal = context.abort
  const reportAbort = () => {
    fetch(url + "/abort", { method: "POST", headers, body: JSON.stringify({ id }) }).catch(() => undefined)
  }
  const aborted = () => new Error("The " + toolName + " call " + callID + " was aborted")
  if (signal.aborted) {
    reportAbort()
    throw aborted()
  }
  signal.addEventListener("abort", reportAbort, { once: true })
  let after = 0
  let failures = 0
  let problem = ""
  let output = ""
  try {
    while (true) {
      if (signal.aborted) throw aborted()
      const body = JSON.stringify({ id, tool: toolName, callID, sessionID: context.sessionID, messageID: context.messageID, input, after })
      let response
      try {
        response = await fetch(url + "/invoke", { method: "POST", headers, body, signal })
      } catch (error) {
        response = undefined
        problem = String(error)
      }
      if (response !== undefined && response.status !== 200) {
        const text = await response.text().catch(() => "")
        throw new Error("Drive's tool channel refused the " + toolName + " call " + callID + " (HTTP " + response.status + "): " + text)
      }
      if (response !== undefined && response.body) {
        const reader = response.body.getReader()
        const decoder = new TextDecoder()
        let buffer = ""
        try {
          while (true) {
            const chunk = await reader.read()
            if (chunk.done) break
            buffer += decoder.decode(chunk.value, { stream: true })
            let newline = buffer.indexOf("\\n")
            while (newline >= 0) {
              const text = buffer.slice(0, newline).trim()
              buffer = buffer.slice(newline + 1)
              newline = buffer.indexOf("\\n")
              if (text === "") continue
              const line = JSON.parse(text)
              if (line.type === "progress") {
                if (line.seq <= after) continue
                after = line.seq
                failures = 0
                output = showProgress(context, input, output, line.data)
              } else if (line.type === "result") {
                const metadata = Object.assign({ output: line.output, description: input && input.description }, line.metadata)
                if (line.exit !== undefined) metadata.exit = line.exit
                return { title: (input && input.description) || "", output: line.output, metadata }
              } else if (line.type === "error") {
                throw new DriveToolFailure(line.message)
              }
            }
          }
          problem = "the response stream ended without a result"
        } catch (error) {
          if (error instanceof DriveToolFailure) throw error
          problem = String(error)
        }
      }
      if (signal.aborted) throw aborted()
      failures += 1
      if (failures > RETRY_LIMIT) {
        throw new Error("Lost Drive's tool channel during the " + toolName + " call " + callID + ": " + problem)
      }
      await sleep(RETRY_DELAYS_MS[Math.min(failures - 1, RETRY_DELAYS_MS.length - 1)])
    }
  } finally {
    signal.removeEventListener("abort", reportAbort)
  }
}
`

/** The file name (relative to `.opencode/`) of the adapter for a canonical tool name, e.g. `tools/bash.ts`. */
export const adapterPath = (canonical: string): string => `tools/${opencodeName(canonical)}.ts`

/**
 * The source text of the adapter for a canonical tool name (`shell`/`bash`, `webfetch`, `websearch`, `write`).
 * Throws when the name has no static adapter.
 */
export const render = (canonical: string): string => {
  const name = opencodeName(canonical)
  const builtin = builtinTools[name]
  if (builtin === undefined) {
    throw new Error(
      `no static adapter exists for tool "${canonical}"; interceptable tools are ${Object.keys(builtinTools).join(", ")} (and shell for bash)`,
    )
  }
  const args = Object.entries(builtin.args)
    .map(([arg, spec]) => `    ${JSON.stringify(arg)}: ${renderArg(spec)},`)
    .join("\n")
  return `// Generated by @codemode/tool-adapters for opencode-drive. It replaces OpenCode's built-in "${name}" tool:
// every call is reported to the Drive script over its loopback tool channel, which decides the result.
import { tool } from "@opencode-ai/plugin"

export default tool({
  description: ${JSON.stringify(builtin.description)},
  args: {
${args}
  },
  async execute(args, context) {
    return await callDrive(${JSON.stringify(canonicalName(name))}, args, context)
  },
})
${runtime}`
}

/** The adapter files for a set of canonical names, keyed by path relative to `.opencode/` (aliases share a file). */
export const files = (declared: ReadonlyArray<string>): Readonly<Record<string, string>> =>
  Object.fromEntries(declared.map((name) => [adapterPath(name), render(name)]))

/**
 * Environment switches the OpenCode server needs so that it offers the adapters to the model. OpenCode 1.x offers
 * its `websearch` tool (and so an adapter replacing it) only with its own provider or when a web-search backend is
 * enabled; `OPENCODE_ENABLE_EXA` enables it for any provider, and the adapter then answers instead of the backend.
 */
export const environment = (declared: ReadonlyArray<string>): Readonly<Record<string, string>> =>
  declared.some((name) => opencodeName(name) === "websearch") ? { OPENCODE_ENABLE_EXA: "1" } : {}
