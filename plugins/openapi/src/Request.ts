/**
 * Calling an operation: input object → HTTP request through the host's `HttpClient` → decoded response.
 *
 * Every failure is an `OpenApiRequestError` whose message names the method, the path, and what went wrong (status and
 * a size-capped body for error responses). Credentials are never part of a message. Interrupting the Effect (the
 * execution's timeout) aborts the request in flight.
 */
import { Data, Effect, Stream } from "effect"
import { HttpClient, HttpClientRequest, type HttpClientError, type HttpClientResponse } from "effect/http"
import * as Auth from "./Auth.js"
import { isObject } from "./Document.js"
import { bodyKey, isJsonMediaType, type Plan } from "./Operation.js"
import * as Parameter from "./Parameter.js"

/** A failed tool call. `status` is set when the server answered. */
export class RequestError extends Data.TaggedError("OpenApiRequestError")<{
  readonly message: string
  readonly method: string
  readonly path: string
  readonly status?: number | undefined
}> {}

/** Runtime options shared by every tool of a document. */
export interface Options<R> {
  readonly auth: Auth.Options<R> | undefined
  /** Headers sent with every request (before parameters and credentials). */
  readonly headers: { readonly [name: string]: string }
  /** Largest response body read, in bytes. */
  readonly maxResponseBytes: number
  /** Longest excerpt of an error response kept in a failure message, in characters. */
  readonly maxErrorBodyChars: number
}

const describeValue = (value: unknown): string =>
  Array.isArray(value) ? "an array" : value === null ? "null" : typeof value === "object" ? "an object" : typeof value

const excerpt = (text: string, max: number): string => {
  const trimmed = text.trim()
  return trimmed.length <= max ? trimmed : `${trimmed.slice(0, max)}… (${trimmed.length - max} more characters)`
}

/** Read the input object and check its keys against the plan. */
const readInput = (plan: Plan, input: unknown): { values: Record<string, unknown> } | { error: string } => {
  if (input === undefined || input === null) input = {}
  if (!isObject(input)) return { error: `expected an input object (a table), got ${describeValue(input)}` }
  const known = new Set(plan.parameters.map((p) => p.name))
  if (plan.body) known.add(bodyKey)
  const unknown = Object.keys(input).filter((key) => !known.has(key))
  if (unknown.length > 0) {
    const expected = known.size
      ? `expected ${[...known].map((k) => `"${k}"`).join(", ")}`
      : "this operation takes no input"
    return { error: `unknown input ${unknown.map((k) => `"${k}"`).join(", ")}; ${expected}` }
  }
  for (const p of plan.parameters)
    if (p.required && input[p.name] === undefined) return { error: `missing required ${p.in} parameter "${p.name}"` }
  if (plan.body?.required && input[bodyKey] === undefined)
    return { error: `missing required input "${bodyKey}" (the request body)` }
  return { values: input as Record<string, unknown> }
}

interface Built {
  readonly request: HttpClientRequest.HttpClientRequest
  /** The path with values filled in, without the query (safe to show). */
  readonly shownPath: string
}

const build = (
  plan: Plan,
  values: Record<string, unknown>,
  applied: Auth.Applied,
  options: Options<unknown>,
): Built => {
  let path = plan.path
  const query: string[] = []
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(options.headers)) headers[name.toLowerCase()] = value
  for (const p of plan.parameters) {
    const value = values[p.name]
    if (value === undefined) continue
    if (p.in === "path") path = path.split(`{${p.name}}`).join(Parameter.pathSegment(p, value))
    else if (p.in === "query") query.push(...Parameter.queryPieces(p, value))
    else headers[p.name.toLowerCase()] = Parameter.headerValue(p, value)
  }
  for (const [name, value] of applied.query) query.push(`${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
  for (const [name, value] of applied.headers) headers[name] = value
  if (plan.response.accept) headers.accept = plan.response.accept
  const url = plan.serverUrl + path + (query.length ? `?${query.join("&")}` : "")
  let request = HttpClientRequest.make(plan.method.toUpperCase() as "GET")(url, { headers })
  const body = values[bodyKey]
  if (plan.body && body !== undefined)
    request = HttpClientRequest.bodyText(request, JSON.stringify(body), plan.body.mediaType)
  return { request, shownPath: path }
}

const transportMessage = (error: HttpClientError.HttpClientError): string => {
  const reason = error.reason as { readonly _tag: string; readonly cause?: unknown; readonly description?: string }
  const cause = reason.cause as
    | { message?: unknown; code?: unknown; errors?: ReadonlyArray<{ message?: unknown }> }
    | undefined
  const parts: string[] = []
  if (reason.description) parts.push(reason.description)
  if (cause && typeof cause.message === "string" && cause.message) parts.push(cause.message)
  else if (cause && Array.isArray(cause.errors) && cause.errors.length)
    parts.push(...cause.errors.map((e) => String(e.message ?? e)))
  if (cause && typeof cause.code === "string" && !parts.some((p) => p.includes(cause.code as string)))
    parts.push(cause.code)
  return parts.length ? parts.join(": ") : reason._tag
}

/** Body bytes read with a cap: `overflow` is true when the body was longer (and reading stopped). */
const readBody = (
  response: HttpClientResponse.HttpClientResponse,
  cap: number,
): Effect.Effect<{ readonly bytes: Uint8Array; readonly overflow: boolean }, HttpClientError.HttpClientError> =>
  Effect.suspend(() => {
    const chunks: Uint8Array[] = []
    let size = 0
    let overflow = false
    return response.stream.pipe(
      Stream.takeWhile((chunk) => {
        if (overflow) return false
        size += chunk.length
        if (size > cap) {
          overflow = true
          chunks.push(chunk.subarray(0, chunk.length - (size - cap)))
          return false
        }
        chunks.push(chunk)
        return true
      }),
      Stream.runDrain,
      Effect.map(() => {
        const total = chunks.reduce((n, c) => n + c.length, 0)
        const bytes = new Uint8Array(total)
        let offset = 0
        for (const c of chunks) {
          bytes.set(c, offset)
          offset += c.length
        }
        return { bytes, overflow }
      }),
    )
  })

const decoder = new TextDecoder("utf-8")

/** Largest error body read to build a failure message. */
const errorBodyCap = 64 * 1024

/** Decode a successful response by its content type. */
const decode = (plan: Plan, contentType: string, text: string): { value: unknown } | { error: string } => {
  if (text.length === 0) return { value: null }
  const expectsJson =
    plan.response.accept !== undefined && plan.response.accept.split(",").some((t) => isJsonMediaType(t))
  if (isJsonMediaType(contentType) || (contentType === "" && expectsJson)) {
    try {
      return { value: JSON.parse(text) }
    } catch (error) {
      return {
        error: `the response is not valid JSON (${(error as Error).message}); it starts with: ${excerpt(text, 200)}`,
      }
    }
  }
  if (contentType === "" || contentType.toLowerCase().startsWith("text/")) return { value: text }
  return { error: `the response has content type ${contentType}, which is neither JSON nor text` }
}

/**
 * The Effect of calling `plan` with `input`: resolves credentials, sends the request through `HttpClient`, and decodes
 * the response.
 */
export const call = <R>(
  plan: Plan,
  tool: string,
  options: Options<R>,
  input: unknown,
): Effect.Effect<unknown, RequestError, HttpClient.HttpClient | R> =>
  Effect.gen(function* () {
    const method = plan.method.toUpperCase()
    const fail = (message: string, path: string = plan.path, status?: number) =>
      Effect.fail(new RequestError({ message: `${method} ${path}: ${message}`, method, path, status }))

    const read = readInput(plan, input)
    if ("error" in read) return yield* fail(read.error)

    const applied = yield* Auth.resolve(plan.security, options.auth, { method, path: plan.path, tool }).pipe(
      Effect.mapError((error) => new RequestError({ message: error.message, method, path: plan.path })),
    )
    const scrub = (text: string) => Auth.scrub(text, applied.secrets)

    let built: Built
    try {
      built = build(plan, read.values, applied, options as Options<unknown>)
    } catch (error) {
      if (error instanceof Parameter.EncodingError) return yield* fail(scrub(error.message))
      throw error
    }
    const shown = built.shownPath

    const client = yield* HttpClient.HttpClient
    const response = yield* client
      .execute(built.request)
      .pipe(
        Effect.catch((error: HttpClientError.HttpClientError) =>
          fail(`request failed: ${scrub(transportMessage(error))}`, shown),
        ),
      )

    const status = response.status
    const contentType = (response.headers["content-type"] ?? "").trim()
    const ok = status >= 200 && status < 300

    const declared = Number(response.headers["content-length"])
    if (ok && Number.isFinite(declared) && declared > options.maxResponseBytes)
      return yield* fail(
        `the response is ${declared} bytes, over the ${options.maxResponseBytes}-byte limit`,
        shown,
        status,
      )

    const body = yield* readBody(response, ok ? options.maxResponseBytes : errorBodyCap).pipe(
      Effect.catch((error: HttpClientError.HttpClientError) =>
        fail(`reading the response failed: ${scrub(transportMessage(error))}`, shown, status),
      ),
    )
    const text = decoder.decode(body.bytes)

    if (!ok) {
      const detail = text.trim() ? `: ${scrub(excerpt(text, options.maxErrorBodyChars))}` : " (empty body)"
      return yield* fail(`HTTP ${status}${detail}`, shown, status)
    }
    if (body.overflow)
      return yield* fail(`the response is over the ${options.maxResponseBytes}-byte limit`, shown, status)

    const decoded = decode(plan, contentType, text)
    if ("error" in decoded) return yield* fail(scrub(decoded.error), shown, status)
    return decoded.value
  })
