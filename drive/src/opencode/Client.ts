/**
 * `driver.opencode`: the generated OpenCode SDK client (`@opencode-ai/sdk` v2) with every method returning an
 * `Effect`. A call succeeds with the response's `data` and fails with `OpenCodeApiError` (HTTP status, the
 * server's error body, the operation's name) when the server answers with an error or cannot be reached; an
 * interrupted call aborts its request. Namespaces are the SDK's (`opencode.session.list()`,
 * `opencode.global.health()`); `opencode.health.get()` is the spec's name for the health check, and
 * `opencode.raw` is the SDK's own Promise client.
 */
import type { OpencodeClient } from "@opencode-ai/sdk/v2/client"
import { Effect } from "effect"
import { OpenCodeApiError } from "../Errors.js"

type DataOf<R> = R extends { readonly data: infer D } ? D : never

/** An SDK method as an Effect: the response's `data`, or `OpenCodeApiError`. */
export type EffectMethod<F> = F extends (...args: infer A) => Promise<infer R>
  ? (
      ...args: A
    ) => Effect.Effect<[R] extends [{ readonly data: unknown }] ? Exclude<DataOf<R>, undefined> : R, OpenCodeApiError>
  : F

/** An SDK namespace with every method as an Effect. */
export type EffectApi<T> = {
  readonly [K in keyof T]: T[K] extends (...args: never) => unknown
    ? EffectMethod<T[K]>
    : T[K] extends object
      ? EffectApi<T[K]>
      : T[K]
}

/** The OpenCode client of a driver. */
export type OpenCodeClient = EffectApi<OpencodeClient> & {
  /** The health check in the spec's form (the same as `global.health()`). */
  readonly health: { readonly get: EffectApi<OpencodeClient>["global"]["health"] }
  /** The SDK's Promise client, for code written against `@opencode-ai/sdk` directly. */
  readonly raw: OpencodeClient
}

const statusOf = (result: unknown): number | undefined => {
  const response = (result as { response?: { status?: unknown } } | undefined)?.response
  return typeof response?.status === "number" ? response.status : undefined
}

const describeBody = (body: unknown): string => {
  if (typeof body === "string") return body
  try {
    return JSON.stringify(body)
  } catch {
    return String(body)
  }
}

const call = (operation: string, run: (signal: AbortSignal) => Promise<unknown>) =>
  Effect.tryPromise({
    try: run,
    catch: (cause) =>
      new OpenCodeApiError({
        message: `opencode.${operation}() could not reach the OpenCode server: ${cause instanceof Error ? cause.message : String(cause)}`,
        operation,
        status: undefined,
        body: undefined,
      }),
  }).pipe(
    Effect.flatMap((result) => {
      if (typeof result !== "object" || result === null || !("data" in result || "error" in result)) {
        return Effect.succeed(result)
      }
      const { data, error } = result as { readonly data?: unknown; readonly error?: unknown }
      if (error === undefined) return Effect.succeed(data)
      const status = statusOf(result)
      if (status === undefined) {
        return Effect.fail(
          new OpenCodeApiError({
            message: `opencode.${operation}() could not reach the OpenCode server: ${error instanceof Error ? error.message : describeBody(error)}`,
            operation,
            status,
            body: undefined,
          }),
        )
      }
      return Effect.fail(
        new OpenCodeApiError({
          message: `opencode.${operation}() failed with HTTP ${status}: ${describeBody(error)}`,
          operation,
          status,
          body: error,
        }),
      )
    }),
  )

/**
 * Every SDK method takes its request options (which accept a `signal`) as its last declared parameter:
 * `health(options)`, `get(parameters, options)`. Pass the Effect's signal there, so interruption aborts the
 * request; a signal the caller gave wins.
 */
const withSignal = (
  method: (...args: Array<unknown>) => unknown,
  args: ReadonlyArray<unknown>,
  signal: AbortSignal,
) => {
  const at = Math.max(method.length, 1) - 1
  if (args.length > at + 1) return [...args]
  const copy = [...args]
  while (copy.length <= at) copy.push(undefined)
  const options = copy[at]
  if (options === undefined) copy[at] = { signal }
  else if (typeof options === "object" && options !== null && !("signal" in options)) copy[at] = { ...options, signal }
  return copy
}

const wrap = <T extends object>(target: T, path: string): EffectApi<T> => {
  const cache = new Map<PropertyKey, unknown>()
  return new Proxy(target, {
    get(object, property, receiver) {
      if (typeof property === "symbol") return Reflect.get(object, property, receiver)
      if (cache.has(property)) return cache.get(property)
      const value = Reflect.get(object, property, object) as unknown
      const name = path === "" ? property : `${path}.${property}`
      let wrapped: unknown = value
      if (typeof value === "function") {
        wrapped = (...args: Array<unknown>) =>
          call(name, (signal) =>
            (value as (...args: Array<unknown>) => Promise<unknown>).apply(
              object,
              withSignal(value as (...args: Array<unknown>) => unknown, args, signal),
            ),
          )
      } else if (typeof value === "object" && value !== null) {
        wrapped = wrap(value, name)
      }
      cache.set(property, wrapped)
      return wrapped
    },
  }) as unknown as EffectApi<T>
}

/** The Effect client over an SDK client. */
export const fromSdk = (sdk: OpencodeClient): OpenCodeClient => {
  const api = wrap(sdk, "")
  const health = { get: api.global.health }
  return new Proxy(api as object, {
    get(object, property, receiver) {
      if (property === "raw") return sdk
      if (property === "health") return health
      return Reflect.get(object, property, receiver)
    },
  }) as OpenCodeClient
}
