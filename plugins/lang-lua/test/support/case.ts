/**
 * A conformance case: a Lua program and what it must produce. Cases whose `value` is plain Lua (no tools, json,
 * or sandbox-only behaviour) are also checked against the reference `lua5.4` by `test/support/check-puc.mjs`.
 */
export interface Case {
  readonly name: string
  readonly code: string
  /** The expected result value (JSON data). */
  readonly value?: unknown
  /** The expected failure: kind, a substring or pattern of the message, and the 1-based line/column. */
  readonly error?: {
    readonly kind: string
    readonly message?: string | RegExp
    readonly line?: number
    readonly column?: number
  }
  /** The expected log lines (from `print`). */
  readonly logs?: ReadonlyArray<string>
  /** False when the case uses sandbox-only features and cannot be checked against `lua5.4`. */
  readonly puc?: boolean
}

/** Shorthand: a case expecting `value`. */
export const v = (name: string, code: string, value: unknown, puc = true): Case => ({ name, code, value, puc })

/** Shorthand: a case expecting a failure. */
export const e = (
  name: string,
  code: string,
  kind: string,
  message?: string | RegExp,
  line?: number,
  column?: number,
): Case => ({ name, code, error: { kind, message, line, column } })
