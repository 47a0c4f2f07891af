/**
 * The control-channel protocol between a generated adapter (inside the OpenCode server) and Drive.
 *
 * - `POST /invoke` with `Authorization: Bearer <token>` and an {@link InvokeRequest} body answers `200` with an
 *   NDJSON stream of {@link ProgressLine}s followed by exactly one terminal {@link ResultLine} or
 *   {@link ErrorLine}. Posting a known `id` again (after a dropped connection) attaches to the same invocation and
 *   replays progress with `seq > after`, then the terminal line if there is one.
 * - `POST /abort` with `{ id }` reports that OpenCode aborted the call.
 * Any other answer than `200` (`401` bad token, `400` bad body, `404` undeclared tool) is final: adapters do not
 * retry it.
 */
import { Schema } from "effect"

/** Environment variable holding the channel's base URL (`http://127.0.0.1:<port>`). */
export const urlVariable = "CODEMODE_TOOL_CHANNEL_URL"
/** Environment variable holding the channel's bearer token. */
export const tokenVariable = "CODEMODE_TOOL_CHANNEL_TOKEN"

/** One invocation as an adapter reports it. */
export const InvokeRequest = Schema.Struct({
  /** The producer's identity of this invocation; the same on every retry. */
  id: Schema.String,
  /** The canonical tool name the adapter stands for. */
  tool: Schema.String,
  /** The model's tool-call id. */
  callID: Schema.String,
  sessionID: Schema.optionalKey(Schema.String),
  messageID: Schema.optionalKey(Schema.String),
  input: Schema.Unknown,
  /** The last progress `seq` the adapter has seen (0 or absent on the first attempt). */
  after: Schema.optionalKey(Schema.Number),
})
export type InvokeRequest = typeof InvokeRequest.Type

/** `POST /abort` body. */
export const AbortRequest = Schema.Struct({ id: Schema.String })
export type AbortRequest = typeof AbortRequest.Type

/** A progress update; `seq` counts from 1 per invocation. */
export interface ProgressLine {
  readonly type: "progress"
  readonly seq: number
  readonly data: unknown
}

/** The successful terminal line. */
export interface ResultLine {
  readonly type: "result"
  readonly output: string
  readonly exit?: number
  readonly metadata?: Readonly<Record<string, unknown>>
}

/** The failed terminal line; the adapter throws `message`, so the model sees a failed tool call. */
export interface ErrorLine {
  readonly type: "error"
  readonly message: string
}

/** Any line of the response stream. */
export type Line = ProgressLine | ResultLine | ErrorLine

/** A terminal line. */
export type TerminalLine = ResultLine | ErrorLine

/** Serialise one line (with its newline). */
export const encodeLine = (line: Line): string => `${JSON.stringify(line)}\n`
