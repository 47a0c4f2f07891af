/**
 * `Result`: what every execution returns, and the output bounding that keeps it within `maxOutputBytes`.
 */
import type { DataValue } from "./Data.js"
import * as Diagnostic from "./Diagnostic.js"

/** One admitted host call, in the order the program made them. */
export interface ToolCall {
  /** The tool's path, `search`, or `<extension>:<global>` for an extension call. */
  readonly name: string
  readonly kind: "tool" | "search" | "extension"
  readonly status: "success" | "failure" | "denied" | "interrupted" | "running"
  readonly durationMs: number
  /** The failure's message when the call failed or was denied. */
  readonly error?: string
}

/** The outcome of an execution. */
export type Result =
  | {
      readonly ok: true
      readonly value: DataValue
      readonly warnings?: ReadonlyArray<Diagnostic.Diagnostic>
      readonly logs?: ReadonlyArray<string>
      readonly truncated?: boolean
      readonly toolCalls: ReadonlyArray<ToolCall>
    }
  | {
      readonly ok: false
      readonly error: Diagnostic.Diagnostic
      readonly logs?: ReadonlyArray<string>
      readonly truncated?: boolean
      readonly toolCalls: ReadonlyArray<ToolCall>
    }

const encoder = new TextEncoder()

/** The UTF-8 size of a string. */
export const byteLength = (text: string): number =>
  /^[\x00-\x7f]*$/.test(text) ? text.length : encoder.encode(text).length

/** Cut `text` to at most `bytes` UTF-8 bytes without splitting a character. */
export const cutToBytes = (text: string, bytes: number): string => {
  if (byteLength(text) <= bytes) return text
  let lo = 0
  let hi = Math.min(text.length, bytes)
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (byteLength(text.slice(0, mid)) <= bytes) lo = mid
    else hi = mid - 1
  }
  const code = text.charCodeAt(lo - 1)
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? lo - 1 : lo)
}

/** The in-band marker an oversized value ends with. */
export const valueMarker = (total: number, limit: number) =>
  `…[truncated: the value was ${total} bytes of JSON; maxOutputBytes is ${limit}]`

/** The line that replaces logs past the budget. */
export const logMarker = (omitted: number) =>
  `…[truncated: ${omitted} more log line${omitted === 1 ? "" : "s"} omitted]`

/** The most log bytes an execution keeps, whatever `maxOutputBytes` says (16 MiB). */
export const MAX_LOG_BYTES = 16 * 1024 * 1024
/** The longest log line kept, in UTF-16 code units; a longer line is cut and ends with a marker. */
export const MAX_LOG_LINE = 100_000
/**
 * The longest diagnostic message kept (an execution's error, a warning, a failure a program receives), in UTF-16 code
 * units, whatever the limits: a tool failing with a whole response body, or a program throwing a huge string, cannot
 * make the host hold or return it.
 */
export const MAX_MESSAGE = 100_000
/** The longest failure message a call record keeps (`toolCalls[i].error`): all the records fit in about 10 MiB. */
export const MAX_CALL_ERROR = 1_000

/**
 * `text` cut to `max` code units (never inside a surrogate pair) with a marker saying how long it was. A text already
 * cut to `max` is within the room left for the marker and passes unchanged.
 */
export const cutMessage = (text: string, max: number = MAX_MESSAGE): string => {
  if (text.length <= max + 64) return text
  const code = text.charCodeAt(max - 1)
  const end = code >= 0xd800 && code <= 0xdbff ? max - 1 : max
  return `${text.slice(0, end)}…[truncated: the message was ${text.length} characters]`
}

/** `diagnostic` with its message cut to {@link MAX_MESSAGE}. */
export const boundDiagnostic = (diagnostic: Diagnostic.Diagnostic): Diagnostic.Diagnostic =>
  diagnostic.message.length > MAX_MESSAGE + 64 ? { ...diagnostic, message: cutMessage(diagnostic.message) } : diagnostic

/** The most warnings an execution keeps, and their total size, whatever `maxOutputBytes` says. */
export const MAX_WARNINGS = 1_000
export const MAX_WARNING_BYTES = 1024 * 1024

/**
 * `line`, cut to {@link MAX_LOG_LINE} with a marker when longer. A line already cut (by the sandbox) is within the
 * room left for the marker and passes unchanged.
 */
export const cutLogLine = (line: string): string =>
  line.length > MAX_LOG_LINE + 64
    ? `${line.slice(0, MAX_LOG_LINE)}…[truncated: the line was ${line.length} characters]`
    : line

/** Collects logs as they arrive, keeping at most `budget` bytes so memory stays bounded. */
export class LogCollector {
  readonly lines: string[] = []
  bytes = 0
  omitted = 0
  private readonly budget: number
  constructor(budget: number) {
    this.budget = Math.min(budget, MAX_LOG_BYTES)
  }
  /** Add one log line. */
  add(line: string): void {
    if (this.omitted > 0) {
      this.omitted++
      return
    }
    const text = cutLogLine(line)
    const size = byteLength(text) + 1
    if (this.bytes + size > this.budget) {
      this.omitted++
      return
    }
    this.lines.push(text)
    this.bytes += size
  }
}

/** Collects warnings as they arrive, at most {@link MAX_WARNINGS} and {@link MAX_WARNING_BYTES}. */
export class WarningCollector {
  private readonly kept: Diagnostic.Diagnostic[] = []
  private bytes = 0
  private omitted = 0
  /** Add one warning. */
  add(given: Diagnostic.Diagnostic): void {
    const warning = boundDiagnostic(given)
    const size = warning.message.length + 64
    if (this.omitted > 0 || this.kept.length >= MAX_WARNINGS || this.bytes + size > MAX_WARNING_BYTES) {
      this.omitted++
      return
    }
    this.kept.push(warning)
    this.bytes += size
  }
  /** The warnings kept, and a `Truncated` warning for those that were not. */
  get list(): ReadonlyArray<Diagnostic.Diagnostic> {
    if (this.omitted === 0) return this.kept
    return [
      ...this.kept,
      Diagnostic.make(
        "Truncated",
        `${this.omitted} more warning${this.omitted === 1 ? " was" : "s were"} omitted (an execution keeps at most ${MAX_WARNINGS})`,
      ),
    ]
  }
}

/** Bounded output: the value, logs and warnings after applying `maxOutputBytes`. */
export interface Bounded {
  readonly value: DataValue
  readonly logs: ReadonlyArray<string>
  readonly warnings: ReadonlyArray<Diagnostic.Diagnostic>
  readonly truncated: boolean
}

/**
 * Apply the output budget: the value first (an oversized value becomes a string ending with a marker), then logs
 * with what remains (cut with a marker line); warnings have their own budget of the same size, and what does not
 * fit is replaced by one `Truncated` warning.
 */
export const bound = (
  value: DataValue,
  logs: LogCollector,
  warnings: ReadonlyArray<Diagnostic.Diagnostic>,
  limit: number,
): Bounded => {
  let truncated = false
  let outValue = value
  let used = 0
  if (limit !== Infinity) {
    const json = JSON.stringify(value)
    const size = byteLength(json)
    if (size > limit) {
      const marker = valueMarker(size, limit)
      outValue = cutToBytes(json, Math.max(0, limit - byteLength(marker))) + marker
      truncated = true
      used = limit
    } else used = size
  }
  let outLogs: string[] = logs.lines
  let omitted = logs.omitted
  if (limit !== Infinity) {
    let budget = limit - used
    const kept: string[] = []
    for (const line of logs.lines) {
      const size = byteLength(line) + 1
      if (size > budget) break
      kept.push(line)
      budget -= size
    }
    omitted += logs.lines.length - kept.length
    outLogs = kept
  }
  if (omitted > 0) {
    outLogs = [...outLogs, logMarker(omitted)]
    truncated = true
  }
  let outWarnings: Diagnostic.Diagnostic[] = [...warnings]
  if (limit !== Infinity) {
    let budget = limit
    const kept: Diagnostic.Diagnostic[] = []
    for (const warning of warnings) {
      const size = byteLength(JSON.stringify(warning))
      if (size > budget) break
      kept.push(warning)
      budget -= size
    }
    if (kept.length < warnings.length) {
      const dropped = warnings.length - kept.length
      kept.push(
        Diagnostic.make(
          "Truncated",
          `${dropped} more warning${dropped === 1 ? " was" : "s were"} omitted (warnings are limited to maxOutputBytes, ${limit} bytes)`,
        ),
      )
      truncated = true
    }
    outWarnings = kept
  }
  return { value: outValue, logs: outLogs, warnings: outWarnings, truncated }
}
