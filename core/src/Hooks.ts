/**
 * Hooks that surround every call a program makes into the host, under the seed's names:
 * `"tool.before"`, `"tool.after"`, `"extension.before"` and `"extension.after"`.
 */
import { Effect } from "effect"
import type { DataValue } from "./Data.js"
import { checkKeys } from "./Options.js"

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

/** How a call ended, as an `after` hook sees it. */
export type Outcome =
  | { readonly status: "success"; readonly value: unknown }
  | { readonly status: "failure"; readonly error: unknown }
  | { readonly status: "interrupted" }

/** What a hook may return: nothing, a Promise or an Effect. A failure or rejection denies the call (`before`). */
export type HookResult<R> = void | undefined | Promise<unknown> | Effect.Effect<unknown, unknown, R>

/** Hooks for tool calls and extension calls. A failing `before` hook denies the call. */
export interface Hooks<R = never> {
  readonly "tool.before"?: (call: ToolCall) => HookResult<R>
  readonly "tool.after"?: (call: ToolCall, outcome: Outcome) => HookResult<R>
  readonly "extension.before"?: (call: ExtensionCall) => HookResult<R>
  readonly "extension.after"?: (call: ExtensionCall, outcome: Outcome) => HookResult<R>
}

/** The hook names, in the order the seed lists them. */
export const names = ["tool.before", "tool.after", "extension.before", "extension.after"] as const

/** The services hooks need. */
export type Services<H> = H extends Hooks<infer R> ? (unknown extends R ? never : R) : never

/** Check a `hooks` option: a record of functions under the four hook names. Throws `TypeError` otherwise. */
export const validate = (hooks: unknown): Hooks<any> => {
  if (hooks === undefined) return {}
  checkKeys("hooks", hooks, names)
  for (const name of names) {
    const hook = (hooks as Record<string, unknown>)[name]
    if (hook !== undefined && typeof hook !== "function")
      throw new TypeError(`hooks["${name}"] must be a function (got ${typeof hook})`)
  }
  return hooks as Hooks<any>
}

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
