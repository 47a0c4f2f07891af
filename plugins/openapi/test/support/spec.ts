/**
 * Small helpers to build OpenAPI documents and call generated tools in tests.
 */
import { NodeHttpClient } from "@effect/platform-node"
import { Cause, Effect, Exit } from "effect"
import type { Tool } from "@codemode/core"

/** An OpenAPI 3.1 document with the given paths and extra top-level members. */
export const doc = (paths: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  openapi: "3.1.0",
  info: { title: "test", version: "1" },
  paths,
  ...extra,
})

/** A JSON 200 response with `schema`. */
export const ok = (schema: unknown = { type: "object" }) => ({
  "200": { description: "ok", content: { "application/json": { schema } } },
})

/** The generated tool at a dotted path. */
export const toolAt = (tools: { readonly [path: string]: Tool.Any }, path: string): Tool.Any => {
  const tool = tools[path]
  if (tool === undefined) throw new Error(`no tool at ${path}; tools: ${Object.keys(tools).join(", ")}`)
  return tool
}

/** Run a tool's Effect with the Node HTTP client; resolves with the value. */
export const run = (tool: Tool.Any, input: unknown): Promise<unknown> =>
  Effect.runPromise(
    tool.execute(input).pipe(Effect.provide(NodeHttpClient.layerNodeHttp)) as Effect.Effect<unknown, unknown, never>,
  )

/** Run a tool's Effect and return its failure message (throws when it succeeds). */
export const failure = async (tool: Tool.Any, input: unknown): Promise<string> => {
  const exit = await Effect.runPromiseExit(
    tool.execute(input).pipe(Effect.provide(NodeHttpClient.layerNodeHttp)) as Effect.Effect<unknown, unknown, never>,
  )
  if (Exit.isSuccess(exit)) throw new Error(`expected a failure, got ${JSON.stringify(exit.value)}`)
  const error = Cause.squash(exit.cause)
  return error instanceof Error ? error.message : String(error)
}
