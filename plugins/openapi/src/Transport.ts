/**
 * Sending a built request through the host's `HttpClient`: redirects are followed here, never by the client, and only
 * within the server's origin; response bodies are read with a hard cap.
 *
 * Why: a client that follows redirects itself sends the request's headers (an API key among them) wherever the
 * server points. `fetch` follows by default, so every request carries `redirect: "manual"` for `FetchHttpClient`.
 * A same-origin redirect is followed (at most `maxRedirects` times) with the same headers, since credentials are
 * scoped to an origin anyway; a redirect to another origin (another host, port or scheme) fails the call without
 * sending anything there.
 */
import { Effect, Option, Stream } from "effect"
import {
  FetchHttpClient,
  HttpClient,
  type HttpClientError,
  HttpClientRequest,
  type HttpClientResponse,
} from "effect/http"

/** A request ready to send. */
export interface Outgoing {
  readonly method: string
  readonly url: string
  readonly headers: { readonly [name: string]: string }
  readonly body?: { readonly text: string; readonly mediaType: string } | undefined
}

/** Most same-origin redirects followed for one call. */
export const maxRedirects = 5

/**
 * A failure to send: a transport error, or a redirect that is not followed (with the server's `location` when the
 * message quotes it or its origin, so the caller can tell whether it holds a credential).
 */
export type Failure =
  | { readonly _tag: "Transport"; readonly error: HttpClientError.HttpClientError }
  | { readonly _tag: "Redirect"; readonly message: string; readonly location?: string }

const redirectStatuses = new Set([301, 302, 303, 307, 308])

/** Largest redirect body read (and discarded) to release its connection. */
const discardCap = 16 * 1024

const toRequest = (outgoing: Outgoing): HttpClientRequest.HttpClientRequest => {
  const request = HttpClientRequest.make(outgoing.method as "GET")(outgoing.url, { headers: outgoing.headers })
  return outgoing.body ? HttpClientRequest.bodyText(request, outgoing.body.text, outgoing.body.mediaType) : request
}

/** The request a redirect asks for: 303 (and 301/302 after a POST) turn into a GET without a body. */
const redirected = (outgoing: Outgoing, status: number, url: string): Outgoing => {
  const toGet =
    (status === 303 && outgoing.method !== "GET" && outgoing.method !== "HEAD") ||
    ((status === 301 || status === 302) && outgoing.method === "POST")
  return toGet ? { method: "GET", url, headers: outgoing.headers } : { ...outgoing, url }
}

const originOf = (url: string): string => new URL(url).origin

/**
 * Send `outgoing`, following same-origin redirects. Fails with `Redirect` when the server points at another origin,
 * redirects too often, or the host's client followed a redirect to another origin on its own.
 */
export const send = (
  outgoing: Outgoing,
): Effect.Effect<HttpClientResponse.HttpClientResponse, Failure, HttpClient.HttpClient> =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    const init = yield* Effect.serviceOption(FetchHttpClient.RequestInit)
    const manual = { ...Option.getOrElse(init, () => ({})), redirect: "manual" as const }
    const origin = originOf(outgoing.url)
    let current = outgoing
    for (let hop = 0; ; hop++) {
      const response = yield* client.execute(toRequest(current)).pipe(
        Effect.provideService(FetchHttpClient.RequestInit, manual),
        Effect.mapError((error): Failure => ({ _tag: "Transport", error })),
      )
      const answered = safeOrigin(response.request.url)
      if (answered !== origin)
        return yield* Effect.fail<Failure>({
          _tag: "Redirect",
          message: `the HTTP client followed a redirect to another origin (${answered}); provide a client that does not follow redirects`,
        })
      const location = response.headers.location
      if (!redirectStatuses.has(response.status) || location === undefined) return response
      yield* readBody(response, discardCap).pipe(Effect.ignore)
      let target: URL
      try {
        target = new URL(location, current.url)
      } catch {
        return yield* Effect.fail<Failure>({
          _tag: "Redirect",
          message: `the server redirected (HTTP ${response.status}) to an invalid location "${location}"`,
          location,
        })
      }
      if (target.origin !== origin)
        return yield* Effect.fail<Failure>({
          _tag: "Redirect",
          message: `the server redirected to another origin (${target.origin}); redirects are followed only within ${origin}`,
          location,
        })
      if (hop >= maxRedirects)
        return yield* Effect.fail<Failure>({
          _tag: "Redirect",
          message: `the server redirected more than ${maxRedirects} times`,
        })
      target.hash = ""
      current = redirected(current, response.status, target.href)
    }
  })

const safeOrigin = (url: string): string => {
  try {
    return originOf(url)
  } catch {
    return url
  }
}

/** A body read with a cap: `overflow` is true when the body was longer (and reading stopped at the cap). */
export interface Body {
  readonly bytes: Uint8Array
  readonly overflow: boolean
}

/** Read at most `cap` bytes of the body; reading stops (and the rest is never buffered) past the cap. */
export const readBody = (
  response: HttpClientResponse.HttpClientResponse,
  cap: number,
): Effect.Effect<Body, HttpClientError.HttpClientError> =>
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
