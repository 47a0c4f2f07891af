/**
 * Calling an operation: input object → HTTP request through the host's `HttpClient` → decoded response.
 *
 * Every failure is an `OpenApiRequestError` whose message names the method, the path, and what went wrong (status and
 * a size-capped body for error responses), or an `InputError` when the input was refused before anything was sent.
 * Credentials never reach a result or a message: everything a server sends back is redacted (see `Redact`)
 * before it is cut or returned. Interrupting the Effect (the execution's timeout) aborts the request in flight.
 */
import { Data, Effect } from "effect"
import type { HttpClient, HttpClientError } from "effect/http"
import * as Auth from "./Auth.js"
import * as Input from "./Input.js"
import { isJsonMediaType, type Plan } from "./Operation.js"
import * as Parameter from "./Parameter.js"
import * as Redact from "./Redact.js"
import * as Target from "./Target.js"
import * as Transport from "./Transport.js"

/** A failed tool call (a `ToolFailure` for the program). `status` is set when the server answered. */
export class RequestError extends Data.TaggedError("OpenApiRequestError")<{
  readonly message: string
  readonly method: string
  readonly path: string
  readonly status?: number | undefined
}> {}

/**
 * An input refused before anything was sent: an unknown or misplaced key, a missing parameter, a value its style
 * cannot send or that would move the request. Its tag is the one core reads as `InvalidToolInput`, so a program is
 * told to fix its call rather than retry it.
 */
export class InputError extends Data.TaggedError("InvalidToolInput")<{
  readonly message: string
  readonly method: string
  readonly path: string
}> {}

/** Runtime options shared by every tool of a document. */
export interface Options<R> {
  readonly auth: Auth.Options<R> | undefined
  /**
   * Headers sent with every request (programs cannot set these; credentials are applied after them). Those that hold
   * credentials are redacted like `auth`'s (see `Auth.hostSecrets`).
   */
  readonly headers: { readonly [name: string]: string }
  /** Largest response body read, in bytes. */
  readonly maxResponseBytes: number
  /** Longest excerpt of an error response kept in a failure message, in characters. */
  readonly maxErrorBodyChars: number
}

/** Longest filled-in path shown in a failure message (the values come from the program). */
const maxShownPath = 500

/** Largest error body read to build a failure message (`maxErrorBodyChars` cannot exceed it). */
export const errorBodyCap = 64 * 1024

/** An excerpt of already redacted text; `unread` says the body went on past what was read. */
const excerpt = (text: string, max: number, unread = false): string => {
  const trimmed = text.trim()
  const more = unread ? "; the rest was not read" : ""
  if (trimmed.length <= max) return unread ? `${trimmed}… (${more.slice(2)})` : trimmed
  const shown = Input.clip(trimmed, max)
  return `${shown} (${trimmed.length - shown.length + 1} more characters${more})`
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

const decoder = new TextDecoder("utf-8")

/**
 * A redirect that was not followed, as a message shows it. A location that holds a credential is not shown at all:
 * URL parsing changes what it quotes (a host is percent-decoded, lower-cased, IDNA-encoded), past what redaction
 * recognizes.
 */
const redirectMessage = (failure: Transport.Failure & { readonly _tag: "Redirect" }, redact: Redact.Redactor) =>
  failure.location !== undefined && redact.text(failure.location) !== failure.location
    ? "the server redirected to a location that holds a credential of the request (not shown); it was not followed"
    : redact.text(failure.message)

/**
 * An error body as a message shows it, redacted: a JSON body is decoded first (so that a credential inside a JSON
 * string is found whatever escapes it went through) and shown compact; any other body is redacted as text.
 */
const redactBody = (text: string, redact: Redact.Redactor): string => {
  if (!redact.active) return text
  try {
    return redact.text(JSON.stringify(redact.value(JSON.parse(text))))
  } catch {
    return redact.text(text)
  }
}

/** Decode a successful response by its content type. */
const decode = (
  plan: Plan,
  contentType: string,
  text: string,
  redact: Redact.Redactor,
): { value: unknown } | { error: string } => {
  if (text.length === 0) return { value: null }
  const expectsJson =
    plan.response.accept !== undefined && plan.response.accept.split(",").some((t) => isJsonMediaType(t))
  if (isJsonMediaType(contentType) || (contentType === "" && expectsJson)) {
    try {
      return { value: redact.value(JSON.parse(text)) }
    } catch (error) {
      // The parser's own message quotes a cut piece of the text, so only its position is kept.
      const position = /position (\d+)/.exec((error as Error).message)
      const where = position ? ` (at character ${Number(position[1]) + 1})` : ""
      return { error: `the response is not valid JSON${where}; it starts with: ${excerpt(redact.text(text), 200)}` }
    }
  }
  if (contentType === "" || contentType.toLowerCase().startsWith("text/")) return { value: redact.text(text) }
  return { error: `the response has content type ${redact.text(contentType)}, which is neither JSON nor text` }
}

/**
 * The Effect of calling `plan` with `input`: checks the input, resolves credentials, sends the request through
 * `HttpClient` (following same-origin redirects only), and decodes and redacts the response.
 */
export const call = <R>(
  plan: Plan,
  tool: string,
  options: Options<R>,
  input: unknown,
): Effect.Effect<unknown, RequestError | InputError, HttpClient.HttpClient | R> =>
  Effect.gen(function* () {
    const method = plan.method.toUpperCase()
    const fail = (message: string, path: string = plan.path, status?: number) =>
      Effect.fail(new RequestError({ message: `${method} ${path}: ${message}`, method, path, status }))
    const refuse = (message: string) =>
      Effect.fail(new InputError({ message: `${method} ${plan.path}: ${message}`, method, path: plan.path }))

    const read = Input.read(plan, input)
    if ("error" in read) return yield* refuse(read.error)

    const applied = yield* Auth.resolve(plan.security, options.auth, { method, path: plan.path, tool }).pipe(
      Effect.mapError((error) => new RequestError({ message: error.message, method, path: plan.path })),
    )
    const redact = Redact.make([...applied.secrets, ...Auth.hostSecrets(options.headers)])

    let built: Target.Built
    try {
      built = Target.build(plan, read.values, applied, options.headers)
    } catch (error) {
      if (error instanceof Parameter.EncodingError) return yield* refuse(redact.text(error.message))
      if (error instanceof Target.TargetError) return yield* fail(error.message)
      throw error
    }
    const shown = Input.clip(built.shownPath, maxShownPath)

    const response = yield* Transport.send(built.outgoing).pipe(
      Effect.catch((failure: Transport.Failure) =>
        fail(
          failure._tag === "Redirect"
            ? redirectMessage(failure, redact)
            : `request failed: ${redact.text(transportMessage(failure.error))}`,
          shown,
        ),
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

    const body = yield* Transport.readBody(response, ok ? options.maxResponseBytes : errorBodyCap).pipe(
      Effect.catch((error: HttpClientError.HttpClientError) =>
        fail(`reading the response failed: ${redact.text(transportMessage(error))}`, shown, status),
      ),
    )

    if (!ok) {
      let text = decoder.decode(body.bytes)
      // A body cut while reading may end in the first characters of a credential: drop what could hold one.
      if (body.overflow) text = text.slice(0, Math.max(0, text.length - redact.tail))
      const shownText = redactBody(text, redact)
      const detail = shownText.trim()
        ? `: ${excerpt(shownText, options.maxErrorBodyChars, body.overflow)}`
        : body.overflow
          ? " (the body was not read)"
          : " (empty body)"
      return yield* fail(`HTTP ${status}${detail}`, shown, status)
    }
    if (body.overflow)
      return yield* fail(`the response is over the ${options.maxResponseBytes}-byte limit`, shown, status)

    const decoded = decode(plan, contentType, decoder.decode(body.bytes), redact)
    if ("error" in decoded) return yield* fail(decoded.error, shown, status)
    return decoded.value
  })
