/**
 * Diagnostics: every problem an execution reports, as plain data with a kind, a message and, when known, the
 * 1-based source location.
 */

/** The eleven diagnostic kinds of a `Result`. */
export const kinds = [
  "ParseError",
  "UnsupportedSyntax",
  "UnknownTool",
  "InvalidToolInput",
  "InvalidToolOutput",
  "InvalidDataValue",
  "ToolCallLimitExceeded",
  "TimeoutExceeded",
  "ToolFailure",
  "ExecutionFailure",
  "Truncated",
] as const

/** One of the eleven diagnostic kinds. */
export type Kind = (typeof kinds)[number]

/** A 1-based position in the program's source. */
export interface Location {
  readonly line: number
  readonly column: number
}

/** A problem found while parsing or running a program. */
export interface Diagnostic {
  readonly kind: Kind
  readonly message: string
  readonly location?: Location
}

/** Build a diagnostic; the location is kept only when it is known. */
export const make = (kind: Kind, message: string, location?: Location | undefined): Diagnostic =>
  location ? { kind, message, location } : { kind, message }

/** True when `value` is one of the diagnostic kinds. */
export const isKind = (value: unknown): value is Kind =>
  typeof value === "string" && (kinds as ReadonlyArray<string>).includes(value)
