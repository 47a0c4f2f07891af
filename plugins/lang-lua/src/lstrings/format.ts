/**
 * Lua 5.4 `string.format`: C-style conversions over Lua values, with PUC Lua's validation of each specification
 * and its argument errors.
 */
import { flatIfShort } from "./flat.js"
import { type FloatSpec, formatFloat } from "./numfmt.js"

/** A Lua number after coercion: an integer (safe-integer number or bigint) or a float. */
export type LuaNumberValue = { readonly int: number | bigint } | { readonly float: number }

/** What `format` needs to know about the interpreter's values; supplied by the interpreter. */
export interface FormatAdapter {
  /**
   * Lua's number coercion: integers (subtype integer) as `{ int }` (a safe-integer number or a bigint), floats
   * (subtype float, including integral ones such as 2.0) as `{ float }`, numeric strings converted as Lua converts
   * them; null for anything else.
   */
  toNumber(v: unknown): LuaNumberValue | null
  /**
   * The same coercion without the subtype, for the conversions that do not need it (all but `%q`): an integer as a
   * safe-integer number or a bigint, a float as its double; null for anything else. Without it, `toNumber` is used.
   */
  numeric?(v: unknown): number | bigint | null
  /** Lua's `tostring` (used by `%s`, and by `%q` for nil and booleans). */
  tostring(v: unknown): string
  /** Lua's `type()` name (`"nil"`, `"number"`, `"string"`, `"table"`, ...). */
  typeName(v: unknown): string
  /** The pseudo-address `%p` shows for a string; without it strings show `(null)`. */
  stringAddress?(s: string): string
  /** Called with the output's length before it grows past it; may throw to bound the result. */
  checkLength?(length: number): void
}

/**
 * An error raised by `format`. For a bad argument, `argument` is the Lua argument number (the format string is #1)
 * and `reason` the parenthesised part, so an interpreter can re-word it (for example for method calls).
 */
export class FormatError extends Error {
  override readonly name = "FormatError"
  constructor(
    message: string,
    readonly argument: number | null = null,
    readonly reason: string = message,
  ) {
    super(message)
  }
}

const argError = (argument: number, reason: string): FormatError =>
  new FormatError(`bad argument #${argument} to 'format' (${reason})`, argument, reason)

/** Flags accepted by each family of conversions (PUC Lua 5.4's lists). */
const FLAGS_FLOAT = "-+ #0"
const FLAGS_HEX = "-#0"
const FLAGS_SIGNED = "-+ 0"
const FLAGS_UNSIGNED = "-0"
const FLAGS_CHAR = "-"

/** Longest run of flag, digit and point characters (plus the conversion letter) a specification may have. */
const MAX_SPEC = 22

const isSpecChar = (c: number): boolean =>
  (c >= 48 && c <= 57) || c === 45 || c === 43 || c === 32 || c === 35 || c === 46

/** A parsed conversion specification (also a {@link FloatSpec} for the float conversions). */
class Spec implements FloatSpec {
  left = false
  plus = false
  space = false
  alt = false
  zero = false
  width = 0
  precision = -1
  constructor(readonly conversion: string) {}
}

/**
 * Validate the specification text `body` (between `%` and the conversion letter) as PUC Lua does: flags from
 * `allowed`, then at most two width digits, then (when `precisionAllowed`) a point and at most two digits.
 */
const parseSpec = (body: string, conversion: string, allowed: string, precisionAllowed: boolean): Spec => {
  const spec = new Spec(conversion)
  let k = 0
  while (k < body.length && allowed.includes(body[k])) {
    switch (body[k]) {
      case "-":
        spec.left = true
        break
      case "+":
        spec.plus = true
        break
      case " ":
        spec.space = true
        break
      case "#":
        spec.alt = true
        break
      case "0":
        spec.zero = true
        break
    }
    k++
  }
  const digit = (i: number) => {
    const c = body.charCodeAt(i)
    return c >= 48 && c <= 57
  }
  if (body[k] !== "0") {
    let start = k
    if (digit(k)) k++
    if (digit(k)) k++
    if (k > start) spec.width = Number(body.slice(start, k))
    if (body[k] === "." && precisionAllowed) {
      k++
      start = k
      if (digit(k)) k++
      if (digit(k)) k++
      spec.precision = k > start ? Number(body.slice(start, k)) : 0
    }
  }
  if (k !== body.length) throw new FormatError(`invalid conversion specification: '%${body}${conversion}'`)
  return spec
}

/** Pad `text` with spaces to the spec's width (on the right for `-`). */
const padSpaces = (text: string, spec: Spec): string => {
  if (text.length >= spec.width) return text
  const fill = " ".repeat(spec.width - text.length)
  return spec.left ? text + fill : fill + text
}

const TWO_64 = 1n << 64n

/** Format a 64-bit integer with `%d %i %u %o %x %X` and the spec's flags, width and precision, as C's printf does. */
const formatInteger = (value: number | bigint, conversion: string, spec: Spec): string => {
  let negative = false
  let digits: string
  const isZero = value === 0 || value === 0n
  if (conversion === "d" || conversion === "i") {
    negative = value < 0
    digits = typeof value === "number" ? String(negative ? -value : value) : (negative ? -value : value).toString()
  } else {
    const radix = conversion === "o" ? 8 : conversion === "u" ? 10 : 16
    if (value >= 0) digits = value.toString(radix)
    else digits = (BigInt(value) + TWO_64).toString(radix)
    if (conversion === "X") digits = digits.toUpperCase()
  }
  if (spec.precision >= 0) {
    if (isZero && spec.precision === 0) digits = ""
    if (digits.length < spec.precision) digits = "0".repeat(spec.precision - digits.length) + digits
  }
  let prefix = negative ? "-" : spec.plus ? "+" : spec.space ? " " : ""
  if (spec.alt) {
    if (conversion === "o") {
      if (digits[0] !== "0") digits = "0" + digits
    } else if (!isZero) prefix = conversion === "X" ? "0X" : "0x"
  }
  const length = prefix.length + digits.length
  if (length >= spec.width) return prefix + digits
  if (spec.left) return prefix + digits + " ".repeat(spec.width - length)
  if (spec.zero && spec.precision < 0) return prefix + "0".repeat(spec.width - length) + digits
  return " ".repeat(spec.width - length) + prefix + digits
}

const MIN_INTEGER_FLOAT = -9223372036854775808

/** Lua's `%q` text of a string: quoted, with `"`, `\` and newlines escaped and control bytes as decimal escapes. */
const quoteString = (s: string): string => {
  let out = '"'
  let from = 0
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c === 34 || c === 92 || c === 10) {
      out += s.slice(from, i) + "\\" + s[i]
      from = i + 1
    } else if (c < 32 || c === 127) {
      const next = s.charCodeAt(i + 1)
      const escape = next >= 48 && next <= 57 ? String(c).padStart(3, "0") : String(c)
      out += s.slice(from, i) + "\\" + escape
      from = i + 1
    }
  }
  return out + s.slice(from) + '"'
}

/** At least the length of {@link quoteString}'s result: every escape is at most four bytes. */
const quotedLengthBound = (s: string): number => {
  let n = s.length + 2
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 32 || c === 34 || c === 92 || c === 127) n += 3
  }
  return n
}

const HEX_FLOAT: FloatSpec = {
  conversion: "a",
  left: false,
  plus: false,
  space: false,
  alt: false,
  zero: false,
  width: 0,
  precision: -1,
}

/**
 * One conversion of a format string, parsed once: its letter, its specification text, and what parsing it gave.
 * Errors are raised when the conversion is reached, where PUC Lua raises them (so an earlier argument's error comes
 * first): `early` (a specification too long, an invalid letter, `%q` with modifiers) once its argument is known to
 * exist, `error` (flags, width or precision the conversion does not accept) where the conversion checks its spec.
 */
interface Conversion {
  readonly conversion: string
  readonly body: string
  readonly early: FormatError | undefined
  /** The parsed spec; undefined for `%q`, and when {@link error} or {@link early} is set. */
  readonly spec: Spec | undefined
  readonly error: FormatError | undefined
}

/** A parsed format string: its literal text and conversions in order, literal text as strings. */
type Plan = ReadonlyArray<string | Conversion>

/** The flags each conversion accepts and whether it takes a precision; absent for an invalid conversion. */
const RULES: Record<string, readonly [string, boolean]> = {
  c: [FLAGS_CHAR, false],
  d: [FLAGS_SIGNED, true],
  i: [FLAGS_SIGNED, true],
  u: [FLAGS_UNSIGNED, true],
  o: [FLAGS_HEX, true],
  x: [FLAGS_HEX, true],
  X: [FLAGS_HEX, true],
  a: [FLAGS_FLOAT, true],
  A: [FLAGS_FLOAT, true],
  e: [FLAGS_FLOAT, true],
  E: [FLAGS_FLOAT, true],
  f: [FLAGS_FLOAT, true],
  g: [FLAGS_FLOAT, true],
  G: [FLAGS_FLOAT, true],
  p: [FLAGS_CHAR, false],
  s: [FLAGS_CHAR, true],
}

/** Parse one conversion (`body` between `%` and the letter) into its spec or the errors it raises when reached. */
const conversionOf = (body: string, conversion: string, tooLong: boolean): Conversion => {
  const failed = (early: FormatError | undefined, error?: FormatError): Conversion => ({
    conversion,
    body,
    early,
    spec: undefined,
    error,
  })
  if (tooLong) return failed(new FormatError("invalid format (too long)"))
  if (conversion === "q")
    return failed(body.length > 0 ? new FormatError("specifier '%q' cannot have modifiers") : undefined)
  const rule = RULES[conversion]
  if (rule === undefined) {
    const shown = conversion === "\0" ? body : body + conversion
    return failed(new FormatError(`invalid conversion '%${shown}' to 'format'`))
  }
  try {
    return { conversion, body, early: undefined, spec: parseSpec(body, conversion, rule[0], rule[1]), error: undefined }
  } catch (e) {
    if (e instanceof FormatError) return failed(undefined, e)
    throw e
  }
}

/** Where the piece {@link readPiece} returned ends in its format string. */
let pieceEnd = 0

/**
 * The piece of `fmt` that starts at `i`: its literal text up to the next conversion (`%%` read as `%`), or that
 * conversion; sets {@link pieceEnd}.
 */
const readPiece = (fmt: string, i: number): string | Conversion => {
  const n = fmt.length
  let text = ""
  while (i < n) {
    const at = fmt.indexOf("%", i)
    if (at < 0) {
      pieceEnd = n
      return text + fmt.slice(i)
    }
    if (at > i) text += fmt.slice(i, at)
    if (fmt.charCodeAt(at + 1) === 37) {
      text += "%"
      i = at + 2
      continue
    }
    if (text !== "") {
      pieceEnd = at
      return text
    }
    let j = at + 1
    while (j < n && isSpecChar(fmt.charCodeAt(j))) j++
    pieceEnd = j + 1
    return conversionOf(fmt.slice(at + 1, j), j < n ? fmt[j] : "", j - at >= MAX_SPEC)
  }
  pieceEnd = n
  return text
}

/** A format string's plan: its pieces in order. */
const planOf = (fmt: string): Plan => {
  const plan: Array<string | Conversion> = []
  for (let i = 0; i < fmt.length; i = pieceEnd) plan.push(readPiece(fmt, i))
  return plan
}

/** Plans of recent format strings; {@link forgetFormats} empties it before each execution. */
const plans = new Map<string, Plan>()
/**
 * How many plans {@link plans} keeps, and the longest format string that gets one (its plan is made whole before
 * it runs, at most about 2,000 pieces; a longer format is read a piece at a time as it runs, so that a 16 MiB format
 * failing at its first conversion never builds millions of them).
 */
const MAX_PLANS = 256
const MAX_PLANNED_LENGTH = 4096

/**
 * Forget every parsed format string, so that how fast a format runs never tells an execution which formats an
 * earlier one used.
 */
export const forgetFormats = (): void => plans.clear()

/** The plan of `fmt`, from {@link plans} or made now; undefined for a format too long to plan. */
const planFor = (fmt: string): Plan | undefined => {
  if (fmt.length > MAX_PLANNED_LENGTH) return undefined
  let plan = plans.get(fmt)
  if (plan === undefined) {
    plan = planOf(fmt)
    if (plans.size >= MAX_PLANS) plans.clear()
    plans.set(fmt, plan)
  }
  return plan
}

/** The conversion's spec, or its error raised now. */
const specOf = (c: Conversion): Spec => {
  if (c.spec === undefined) throw c.error
  return c.spec
}

/**
 * Lua 5.4's `string.format(fmt, ...)`. `args` are the arguments after the format string (argument #2 onwards).
 * Throws {@link FormatError} with PUC Lua's wording for invalid specifications and bad arguments, each when the
 * conversion that has it is reached.
 */
export const format = (fmt: string, args: ReadonlyArray<unknown>, adapter: FormatAdapter): string => {
  const plan = planFor(fmt)
  const pieces = plan === undefined ? fmt.length : plan.length
  let out = ""
  let next = 0 // index into args of the next argument
  const check = adapter.checkLength
  // `p` counts pieces of the plan, or characters of a format read as it runs.
  for (let p = 0; p < pieces; ) {
    if (check !== undefined) check(out.length)
    let piece: string | Conversion
    if (plan !== undefined) piece = plan[p++]
    else {
      piece = readPiece(fmt, p)
      p = pieceEnd
    }
    if (typeof piece === "string") {
      out += piece
      continue
    }
    const argument = next + 2
    if (next >= args.length) throw argError(argument, "no value")
    const arg = args[next++]
    if (piece.early !== undefined) throw piece.early
    const { conversion } = piece
    switch (conversion) {
      case "c": {
        const spec = specOf(piece)
        const v = checkInteger(arg, argument, adapter)
        const code = typeof v === "number" ? ((v % 256) + 256) % 256 : Number(BigInt.asUintN(8, v))
        out += padSpaces(String.fromCharCode(code), spec)
        break
      }
      case "d":
      case "i":
      case "u":
      case "o":
      case "x":
      case "X": {
        if (piece.body.length === 0 && conversion === "d" && typeof arg === "number" && Number.isSafeInteger(arg)) {
          out += String(arg)
          break
        }
        const v = checkInteger(arg, argument, adapter)
        out += formatInteger(v, conversion, specOf(piece))
        break
      }
      case "a":
      case "A": {
        const spec = specOf(piece)
        out += formatFloat(checkNumber(arg, argument, adapter), spec)
        break
      }
      case "e":
      case "E":
      case "f":
      case "g":
      case "G": {
        const x = checkNumber(arg, argument, adapter)
        out += formatFloat(x, specOf(piece))
        break
      }
      case "p": {
        const spec = specOf(piece)
        out += padSpaces(pointerText(arg, adapter), spec)
        break
      }
      case "q":
        if (check !== undefined && adapter.typeName(arg) === "string")
          check(out.length + quotedLengthBound(adapter.tostring(arg)))
        out += literal(arg, argument, adapter)
        break
      case "s": {
        const s = typeof arg === "string" ? arg : adapter.tostring(arg)
        if (check !== undefined) check(out.length + s.length)
        if (piece.body.length === 0) {
          out += s
          break
        }
        if (s.indexOf("\0") >= 0) throw argError(argument, "string contains zeros")
        const spec = specOf(piece)
        if (spec.precision < 0 && s.length >= 100) out += s
        else out += padSpaces(spec.precision >= 0 ? s.slice(0, spec.precision) : s, spec)
        break
      }
    }
  }
  return flatIfShort(out)
}

/** The argument as a number (an integer as a safe-integer number or a bigint, a float as its double), or null. */
const numericOf = (arg: unknown, adapter: FormatAdapter): number | bigint | null => {
  if (adapter.numeric !== undefined) return adapter.numeric(arg)
  const v = adapter.toNumber(arg)
  return v === null ? null : "int" in v ? v.int : v.float
}

/** Lua's `luaL_checkinteger` for argument number `argument`. */
const checkInteger = (arg: unknown, argument: number, adapter: FormatAdapter): number | bigint => {
  const v = numericOf(arg, adapter)
  if (v === null) throw argError(argument, `number expected, got ${adapter.typeName(arg)}`)
  if (typeof v === "bigint" || Number.isSafeInteger(v)) return v
  if (Number.isInteger(v) && v >= MIN_INTEGER_FLOAT && v < -MIN_INTEGER_FLOAT) return BigInt(v)
  throw argError(argument, "number has no integer representation")
}

/** Lua's `luaL_checknumber` for argument number `argument`, as a double. */
const checkNumber = (arg: unknown, argument: number, adapter: FormatAdapter): number => {
  const v = numericOf(arg, adapter)
  if (v === null) throw argError(argument, `number expected, got ${adapter.typeName(arg)}`)
  return typeof v === "bigint" ? Number(v) : v
}

/** `%q`: the value written as a Lua literal that reads back as the same value. */
const literal = (arg: unknown, argument: number, adapter: FormatAdapter): string => {
  const type = adapter.typeName(arg)
  if (type === "string") return quoteString(adapter.tostring(arg))
  if (type === "number") {
    const v = adapter.toNumber(arg)
    if (v !== null && "int" in v) {
      const n = v.int
      if (typeof n === "bigint" && n === -(1n << 63n)) return "0x8000000000000000"
      return String(n)
    }
    const f = v === null ? NaN : v.float
    if (f === Infinity) return "1e9999"
    if (f === -Infinity) return "-1e9999"
    if (f !== f) return "(0/0)"
    return formatFloat(f, HEX_FLOAT)
  }
  if (type === "nil" || type === "boolean") return adapter.tostring(arg)
  throw argError(argument, "value has no literal form")
}

/**
 * `%p`: the address of a table or function, taken from its `tostring` text ("table: 0x..."), of a string from the
 * adapter; "(null)" for values that have none (nil, booleans, numbers).
 */
const pointerText = (arg: unknown, adapter: FormatAdapter): string => {
  const type = adapter.typeName(arg)
  if (type === "string" && adapter.stringAddress !== undefined) return adapter.stringAddress(adapter.tostring(arg))
  if (type === "nil" || type === "boolean" || type === "number" || type === "string") return "(null)"
  const text = adapter.tostring(arg)
  const colon = text.indexOf(": ")
  return colon >= 0 ? text.slice(colon + 2) : "(null)"
}
