/**
 * Live progress on OpenCode's tool part. OpenCode 1.18.33 hands custom tools a `context.metadata` that does not
 * update the running tool part (it returns an internal effect nobody runs), so the adapter's own `metadata` calls
 * show nothing there. Drive therefore writes progress into the part itself through the server's public API: it
 * reads the assistant message, finds the tool part by the model's call ID, and patches the running part's
 * `title`/`metadata` (what the TUI renders, e.g. the shell tool's live `output`). Best effort: a part that is
 * gone or no longer running is left alone, and a failed request only skips that update.
 */

/** How to reach the OpenCode server. */
export interface ServerAccess {
  /** `http://127.0.0.1:<port>` */
  readonly url: string
  /** The `Authorization` header value (basic auth of `opencode serve`). */
  readonly authorization: string
  /** The project directory, sent as `?directory=` (optional when the server runs in it). */
  readonly directory?: string
}

/** What one progress update shows on the tool part. */
export interface ProgressView {
  readonly title?: string
  readonly metadata: Readonly<Record<string, unknown>>
}

/** Where an invocation's tool part lives. */
export interface PartAddress {
  readonly sessionID: string | undefined
  readonly messageID: string | undefined
  readonly callID: string
}

/** The text of an update's display content (`[{ type: "text", text }]`), or `undefined` when it has none. */
const contentText = (content: unknown): string | undefined => {
  if (!Array.isArray(content)) return undefined
  const texts = content
    .filter(
      (part) => typeof part === "object" && part !== null && part.type === "text" && typeof part.text === "string",
    )
    .map((part) => (part as { text: string }).text)
  return texts.length === 0 ? undefined : texts.join("")
}

/**
 * The view of one progress update, given the output accumulated so far. A string, and the text parts of an update
 * in the spec's form (`{ structured, content: [{ type: "text", text }] }`), append to the live output; the
 * structured value is kept in the part's metadata as `structured`. `{ title, metadata }` sets those directly.
 */
export const view = (
  data: unknown,
  output: string,
  input: unknown,
): { readonly view: ProgressView; readonly output: string } => {
  const description =
    typeof input === "object" && input !== null ? (input as { description?: unknown }).description : undefined
  const appended = (text: string, extra: Readonly<Record<string, unknown>>) => {
    const next = output + text
    return {
      view: { metadata: { output: next, ...(typeof description === "string" ? { description } : {}), ...extra } },
      output: next,
    }
  }
  if (typeof data === "string") return appended(data, {})
  if (typeof data === "object" && data !== null && ("content" in data || "structured" in data)) {
    const { structured, content } = data as { structured?: unknown; content?: unknown }
    const extra = structured === undefined ? {} : { structured }
    const text = contentText(content)
    return text === undefined ? { view: { metadata: { ...extra } }, output } : appended(text, extra)
  }
  if (typeof data === "object" && data !== null && ("title" in data || "metadata" in data)) {
    const { title, metadata } = data as { title?: unknown; metadata?: unknown }
    return {
      view: {
        ...(typeof title === "string" ? { title } : {}),
        metadata: typeof metadata === "object" && metadata !== null ? (metadata as Record<string, unknown>) : {},
      },
      output,
    }
  }
  return { view: { metadata: { progress: data } }, output }
}

const requestTimeoutMs = 5_000

/** Patches progress into tool parts once the server is known. */
export interface ProgressDisplay {
  /** Start showing progress on this server. */
  readonly connect: (server: ServerAccess) => void
  /** Show `update` on the invocation's tool part; resolves when done (or skipped), never rejects. */
  readonly show: (part: PartAddress, update: ProgressView) => Promise<void>
}

/** A display that does nothing until `connect` is called. */
export const make = (): ProgressDisplay => {
  let server: ServerAccess | undefined

  const request = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const target = server!
    const query = target.directory === undefined ? "" : `?directory=${encodeURIComponent(target.directory)}`
    const response = await fetch(`${target.url}${path}${query}`, {
      method,
      headers: { authorization: target.authorization, "content-type": "application/json" },
      signal: AbortSignal.timeout(requestTimeoutMs),
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status}`)
    return response.json()
  }

  const show = async (address: PartAddress, update: ProgressView): Promise<void> => {
    if (server === undefined || address.sessionID === undefined || address.messageID === undefined) return
    try {
      const base = `/session/${encodeURIComponent(address.sessionID)}/message/${encodeURIComponent(address.messageID)}`
      const message = (await request("GET", base)) as { parts?: Array<Record<string, any>> }
      const part = message.parts?.find((p) => p.type === "tool" && p.callID === address.callID)
      if (part === undefined || part.state?.status !== "running") return
      const state = {
        ...part.state,
        ...(update.title === undefined ? {} : { title: update.title }),
        metadata: { ...part.state.metadata, ...update.metadata },
      }
      await request("PATCH", `${base}/part/${encodeURIComponent(part.id)}`, { ...part, state })
    } catch {
      // Best effort: the next update or the final result shows the state.
    }
  }

  return { connect: (access) => void (server = access), show }
}
