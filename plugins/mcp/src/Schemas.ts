/**
 * The wire contract of the two tools: their input and output JSON Schemas, and the checks that turn a malformed
 * call into a JSON-RPC error naming what was wrong.
 */
import { Diagnostic } from "@codemode/core"

/** The largest program `execute` accepts, in UTF-8 bytes. */
export const maxCodeBytes = 1_048_576

/** The largest page `search` returns. */
export const maxLimit = 100

/** Input of `search`. */
export const searchInput = {
  type: "object",
  properties: {
    query: {
      type: "string",
      description:
        "words to look for in tool paths, descriptions and parameters; an exact tool path looks that tool up; empty browses",
    },
    namespace: { type: "string", description: 'only tools under this namespace, such as "store.orders"' },
    limit: { type: "integer", minimum: 1, maximum: maxLimit, description: "hits per page (default 10)" },
    offset: { type: "integer", minimum: 0, description: "hits to skip, for the next page (default 0)" },
  },
  additionalProperties: false,
} as const

/** Input of `execute`. */
export const executeInput = {
  type: "object",
  properties: { code: { type: "string", description: "the whole program" } },
  required: ["code"],
  additionalProperties: false,
} as const

const diagnostic = {
  type: "object",
  properties: {
    kind: { type: "string", enum: [...Diagnostic.kinds] },
    message: { type: "string" },
    location: {
      type: "object",
      properties: { line: { type: "integer" }, column: { type: "integer" } },
      required: ["line", "column"],
    },
  },
  required: ["kind", "message"],
} as const

/** Output of `execute`: the program's `Result`. */
export const executeOutput = {
  type: "object",
  properties: {
    ok: { type: "boolean", description: "true when the program returned a value" },
    value: { description: "the program's return value (JSON) when ok" },
    error: { ...diagnostic, description: "what went wrong when not ok" },
    warnings: { type: "array", items: diagnostic },
    logs: { type: "array", items: { type: "string" }, description: "what the program printed" },
    truncated: { type: "boolean", description: "true when the value or logs were cut to the output limit" },
    toolCalls: {
      type: "array",
      description: "every call the program made, in order",
      items: {
        type: "object",
        properties: {
          name: { type: "string" },
          kind: { type: "string", enum: ["tool", "search", "extension"] },
          status: { type: "string", enum: ["success", "failure", "denied", "interrupted", "running"] },
          durationMs: { type: "number" },
          error: { type: "string" },
        },
        required: ["name", "kind", "status", "durationMs"],
      },
    },
  },
  required: ["ok", "toolCalls"],
} as const

/** Output of `search`: one page of hits. */
export const searchOutput = {
  type: "object",
  properties: {
    items: {
      type: "array",
      items: {
        type: "object",
        properties: { path: { type: "string" }, description: { type: "string" }, signature: { type: "string" } },
        required: ["path", "description", "signature"],
      },
    },
    remaining: { type: "integer", description: "hits after this page" },
    next: { description: "how to ask for the next page (null on the last one)" },
  },
  required: ["items", "remaining"],
} as const

/** A search request as `runtime.search` takes it. */
export interface SearchRequest {
  readonly query?: string
  readonly namespace?: string
  readonly limit?: number
  readonly offset?: number
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const unknownKeys = (args: Record<string, unknown>, allowed: ReadonlyArray<string>, tool: string) => {
  const extra = Object.keys(args).filter((key) => !allowed.includes(key))
  if (extra.length > 0)
    return `${tool} does not take ${extra.map((k) => `"${k}"`).join(", ")}; its arguments are ${allowed.join(", ")}`
  return undefined
}

/** Check `search`'s arguments: the request, or a message saying what is wrong. */
export const checkSearch = (args: unknown): SearchRequest | string => {
  if (args === undefined) return {}
  if (!isRecord(args)) return "search takes an object { query?, namespace?, limit?, offset? }"
  const extra = unknownKeys(args, ["query", "namespace", "limit", "offset"], "search")
  if (extra) return extra
  const { query, namespace, limit, offset } = args
  if (query !== undefined && typeof query !== "string") return "search: query must be a string"
  if (namespace !== undefined && typeof namespace !== "string") return "search: namespace must be a string"
  if (limit !== undefined && (!Number.isInteger(limit) || (limit as number) < 1 || (limit as number) > maxLimit))
    return `search: limit must be a whole number from 1 to ${maxLimit}`
  if (offset !== undefined && (!Number.isInteger(offset) || (offset as number) < 0))
    return "search: offset must be a whole number, 0 or more"
  return args as SearchRequest
}

/** Check `execute`'s arguments: the program, or a message saying what is wrong. */
export const checkExecute = (args: unknown): string | { readonly code: string } => {
  if (!isRecord(args)) return "execute takes an object { code }"
  const extra = unknownKeys(args, ["code"], "execute")
  if (extra) return extra
  if (typeof args.code !== "string") return "execute: code must be a string holding the program"
  if (Buffer.byteLength(args.code, "utf8") > maxCodeBytes)
    return `execute: the program is over ${maxCodeBytes} bytes; write a shorter one`
  return { code: args.code }
}
