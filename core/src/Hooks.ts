/**
 * Hooks that surround every call a program makes into the host.
 */
import { Effect } from "effect"
import type { DataValue } from "./Data.js"

/** A tool call as hooks see it: the tool's path and its decoded input. */
export interface ToolCall {
  readonly name: string
  readonly input: unknown
}

/** An extension call as hooks see it: the extension, the global's dotted name and the copied arguments. */
export interface ExtensionCall {
  readonly extension: string
  readonly name: string
  readonly args: ReadonlyArray<DataValue>
}

/** How a call ended. */
export type Outcome =
  | { readonly _tag: "success"; readonly value: unknown }
  | { readonly _tag: "failure"; readonly error: unknown }
  | { readonly _tag: "interrupted" }

/** What a hook may return: nothing, a Promise or an Effect. A failure or rejection denies the call (`before`). */
export type HookResult<R> = void | undefined | Promise<unknown> | Effect.Effect<unknown, unknown, R>

/** Hooks for tool calls and extension calls. A failing `before` denies the call. */
export interface Hooks<R = never> {
  readonly tool?: {
    readonly before?: (call: ToolCall) => HookResult<R>
    readonly after?: (call: ToolCall, outcome: Outcome) => HookResult<R>
  }
  readonly extension?: {
    readonly before?: (call: ExtensionCall) => HookResult<R>
    readonly after?: (call: ExtensionCall, outcome: Outcome) => HookResult<R>
  }
}

/** The services hooks need. */
export type Services<H> = H extends Hooks<infer R> ? (unknown extends R ? never : R) : never

/** Run a value that may be a plain value, a Promise or an Effect, as an Effect. Throws become failures. */
export const toEffect = (thunk: () => unknown): Effect.Effect<unknown, unknown, any> =>
  Effect.suspend(() => {
    let value: unknown
    try {
      value = thunk()
    } catch (error) {
      return Effect.fail(error)
    }
    if (Effect.isEffect(value)) return value as Effect.Effect<unknown, unknown, any>
    if (
      value instanceof Promise ||
      (typeof value === "object" && value !== null && typeof (value as any).then === "function")
    )
      return Effect.tryPromise({ try: () => value as Promise<unknown>, catch: (error) => error })
    return Effect.succeed(value)
  })
