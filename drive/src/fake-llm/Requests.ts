/**
 * What OpenCode sent to the fake LLM: parsing of Chat Completions request bodies into `LlmRequest` records,
 * recognition of title requests, and the short titles Drive answers them with.
 */

/** One chat message as OpenCode sent it (OpenAI Chat Completions shape). */
export interface ChatMessage {
  readonly role: string
  readonly content: unknown
  readonly tool_calls?: ReadonlyArray<unknown>
  readonly tool_call_id?: string
  readonly [key: string]: unknown
}

/** A tool OpenCode offered the model. */
export interface ToolDefinition {
  readonly name: string
  readonly description: string
  readonly parameters: unknown
}

/** One request OpenCode made to the simulated model. */
export interface LlmRequest {
  /** Arrival order among all requests, from 0. */
  readonly index: number
  /** `title` for OpenCode's title-generation requests (they never consume queued responses). */
  readonly kind: "model" | "title"
  readonly model: string
  readonly messages: ReadonlyArray<ChatMessage>
  readonly tools: ReadonlyArray<ToolDefinition>
  /** The complete JSON body. */
  readonly body: Readonly<Record<string, unknown>>
  /** Milliseconds since the epoch. */
  readonly receivedAt: number
}

/** The text of a message's content (string content, or the text parts of an array content). */
export const messageText = (message: ChatMessage | undefined): string => {
  if (message === undefined) return ""
  const { content } = message
  if (typeof content === "string") return content
  if (Array.isArray(content)) {
    return content
      .map((part) => (part && typeof part === "object" && typeof part.text === "string" ? part.text : ""))
      .join("")
  }
  return ""
}

/**
 * Whether a request is OpenCode's title generation: a system prompt starting "You are a title generator", or a
 * first user message starting "Generate a title for this conversation:".
 */
export const isTitleRequest = (messages: ReadonlyArray<ChatMessage>): boolean => {
  const system = messages.find((m) => m.role === "system")
  if (messageText(system).trimStart().startsWith("You are a title generator")) return true
  const firstUser = messages.find((m) => m.role === "user")
  return messageText(firstUser).trimStart().startsWith("Generate a title for this conversation:")
}

/** A short deterministic title: the first words of the last user message, at most 40 characters. */
export const titleFor = (messages: ReadonlyArray<ChatMessage>): string => {
  const users = messages.filter((m) => m.role === "user").map(messageText)
  const source = (users[users.length - 1] ?? "").replace(/\s+/g, " ").trim()
  if (source === "" || source.startsWith("Generate a title")) return "Simulated session"
  return source.length <= 40 ? source : `${source.slice(0, 39).trimEnd()}…`
}

/** Parse a request body; fails with a description when it is not a Chat Completions request. */
export const parseRequest = (
  raw: string,
  index: number,
  receivedAt: number,
): { readonly ok: true; readonly request: LlmRequest } | { readonly ok: false; readonly error: string } => {
  let body: unknown
  try {
    body = JSON.parse(raw)
  } catch {
    return { ok: false, error: "request body is not JSON" }
  }
  if (!body || typeof body !== "object" || !Array.isArray((body as { messages?: unknown }).messages)) {
    return { ok: false, error: "request body has no messages array" }
  }
  const record = body as Record<string, unknown>
  const messages = record.messages as ReadonlyArray<ChatMessage>
  const tools = Array.isArray(record.tools)
    ? (record.tools as ReadonlyArray<{ function?: { name?: unknown; description?: unknown; parameters?: unknown } }>)
        .filter((tool) => typeof tool?.function?.name === "string")
        .map((tool) => ({
          name: tool.function!.name as string,
          description: typeof tool.function!.description === "string" ? (tool.function!.description as string) : "",
          parameters: tool.function!.parameters,
        }))
    : []
  return {
    ok: true,
    request: {
      index,
      kind: isTitleRequest(messages) ? "title" : "model",
      model: typeof record.model === "string" ? record.model : "",
      messages,
      tools,
      body: record,
      receivedAt,
    },
  }
}

/** A one-line description of a request for error messages: its index and last user or tool message. */
export const describeRequest = (request: LlmRequest): string => {
  const last = request.messages[request.messages.length - 1]
  const text = messageText(last).replace(/\s+/g, " ").trim()
  const excerpt = text.length > 60 ? `${text.slice(0, 57)}...` : text
  return `request #${request.index} (last ${last?.role ?? "no"} message: ${JSON.stringify(excerpt)})`
}
