/**
 * C-printf-exact formatting of doubles (`%e %f %g %a`, as glibc prints them) and Lua's `tostring` of a float.
 *
 * Decimal digits come from the engine's correctly rounded `toFixed`/`toExponential`, except where the exact binary
 * value lies exactly halfway between two candidates: the engine then rounds away from zero while C rounds to even,
 * so those cases (and numbers `toFixed` cannot print) are redone exactly with BigInt arithmetic.
 */

/** How one floating-point conversion is written: the conversion letter and its printf flags, width and precision. */
export interface FloatSpec {
  /** One of `e E f F g G a A`. */
  readonly conversion: string
  /** `-`: left-justify within the width. */
  readonly left: boolean
  /** `+`: always print a sign. */
  readonly plus: boolean
  /** ` `: print a space where a plus sign would go. */
  readonly space: boolean
  /** `#`: always print a decimal point (and keep trailing zeros for `%g`). */
  readonly alt: boolean
  /** `0`: pad with zeros after the sign. */
  readonly zero: boolean
  /** Minimum field width (0 for none). */
  readonly width: number
  /** Precision, or -1 when none was given. */
  readonly precision: number
}

const f64 = new Float64Array(1)
const u32 = new Uint32Array(f64.buffer)
/** Index of the high word of a double in {@link u32} (little-endian hosts put it second). */
const HI = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0
const LO = 1 - HI

/** True when the sign bit of `x` is set (so for -0.0 and for NaNs that carry a sign). */
export const signBit = (x: number): boolean => {
  f64[0] = x
  return u32[HI] >>> 31 === 1
}

/** Powers of two 2^0 .. 2^1100, built by exact doubling. */
const POW2: Array<number> = [1]
for (let i = 1; i <= 1100; i++) POW2.push(POW2[i - 1] * 2)

const ZEROS = "0".repeat(128)
const zeros = (n: number): string => (n <= 0 ? "" : n <= 128 ? ZEROS.slice(0, n) : "0".repeat(n))

/** The exact value of a positive finite double as `mantissa * 2^exponent`. */
const decompose = (x: number): { mantissa: bigint; exponent: number } => {
  f64[0] = x
  const hi = u32[HI]
  const lo = u32[LO]
  const biased = (hi >>> 20) & 0x7ff
  const fraction = BigInt(hi & 0xfffff) * 0x100000000n + BigInt(lo)
  if (biased === 0) return { mantissa: fraction, exponent: -1074 }
  return { mantissa: fraction + 0x10000000000000n, exponent: biased - 1075 }
}

/** `num / den` rounded to the nearest integer, ties to even (both positive). */
const divRoundEven = (num: bigint, den: bigint): bigint => {
  const q = num / den
  const twice = (num - q * den) * 2n
  if (twice > den || (twice === den && (q & 1n) === 1n)) return q + 1n
  return q
}

/** The exact value of positive finite `x` times 10^k, rounded to an integer, ties to even. */
const scaledRound = (x: number, k: number): bigint => {
  const { mantissa, exponent } = decompose(x)
  let num = mantissa
  let den = 1n
  if (exponent >= 0) num <<= BigInt(exponent)
  else den <<= BigInt(-exponent)
  if (k >= 0) num *= 10n ** BigInt(k)
  else den *= 10n ** BigInt(-k)
  return divRoundEven(num, den)
}

/** True when the exact value of positive finite `x` times 10^q has a fractional part of exactly one half. */
const isHalfway = (x: number, q: number): boolean => {
  if (q >= 0) {
    // x·10^q = x·2^q·5^q ends in exactly .5 iff x·2^(q+1) is an odd integer.
    if (Number.isInteger(x)) return false
    if (q + 1 >= POW2.length) return false
    const y = x * POW2[q + 1]
    return Number.isInteger(y) && y % 2 !== 0
  }
  // x / 10^k ends in exactly .5 iff 2x / 10^k is an odd integer.
  if (!Number.isInteger(x)) return false
  const k = -q
  // x = m·2^j with odd m < 2^53, so 10^k | 2x needs 5^k | m: impossible once 5^k > 2^53 (k > 22).
  if (k > 22) return false
  if (x <= 2 ** 52) {
    if (k > 16) return false
    const t = 2 * x
    const d = 10 ** k
    return t % d === 0 && (t / d) % 2 === 1
  }
  const t = BigInt(x) * 2n
  const d = 10n ** BigInt(k)
  return t % d === 0n && (t / d) % 2n === 1n
}

/** `%.{p}f` of a non-negative finite double, without sign: digits, and a point unless p is 0. */
export const fixedDigits = (x: number, p: number): string => {
  if (x < 1e21 && !isHalfway(x, p)) return x.toFixed(p)
  let digits: string
  if (x >= 1e21) digits = BigInt(x).toString() + zeros(p)
  else {
    digits = scaledRound(x, p).toString()
    if (digits.length <= p) digits = zeros(p + 1 - digits.length) + digits
  }
  return p === 0 ? digits : digits.slice(0, digits.length - p) + "." + digits.slice(digits.length - p)
}

/** Decimal significand (`p + 1` digits) and exponent of a non-negative finite double rounded as `%.{p}e` rounds. */
export const exponentDigits = (x: number, p: number): { digits: string; exponent: number } => {
  if (x === 0) return { digits: zeros(p + 1), exponent: 0 }
  const text = x.toExponential(p)
  const e = text.indexOf("e")
  const exponent = Number(text.slice(e + 1))
  if (!isHalfway(x, p - exponent) && !isHalfway(x, p - exponent + 1)) {
    return { digits: p === 0 ? text.slice(0, e) : text[0] + text.slice(2, e), exponent }
  }
  // Exact: find the decimal exponent E with 10^p <= round(x·10^(p−E)) < 10^(p+1).
  let exp = exponent
  const low = 10n ** BigInt(p)
  const high = low * 10n
  for (;;) {
    const n = scaledRound(x, p - exp)
    if (n >= high) {
      exp++
      continue
    }
    if (n < low) {
      exp--
      continue
    }
    return { digits: n.toString(), exponent: exp }
  }
}

/** C's exponent suffix: `e+05`, `e-310` (at least two digits). */
const exponentSuffix = (letter: string, exponent: number): string => {
  const a = Math.abs(exponent)
  return letter + (exponent < 0 ? "-" : "+") + (a < 10 ? "0" + a : String(a))
}

/** `%e` body (no sign) of a non-negative finite double. */
const formatE = (x: number, p: number, alt: boolean, upper: boolean): string => {
  const { digits, exponent } = exponentDigits(x, p)
  const point = p > 0 || alt ? "." : ""
  return digits[0] + point + digits.slice(1) + exponentSuffix(upper ? "E" : "e", exponent)
}

/** Remove trailing zeros after a decimal point, and the point itself when nothing follows it. */
const stripFraction = (s: string): string => {
  if (s.indexOf(".") < 0) return s
  let end = s.length
  while (s.charCodeAt(end - 1) === 48) end--
  if (s.charCodeAt(end - 1) === 46) end--
  return s.slice(0, end)
}

/** `%g` body (no sign) of a non-negative finite double. */
const formatG = (x: number, precision: number, alt: boolean, upper: boolean): string => {
  const P = precision < 0 ? 6 : precision === 0 ? 1 : precision
  const { digits, exponent: X } = exponentDigits(x, P - 1)
  let body: string
  if (X < P && X >= -4) {
    // Fixed notation with P − 1 − X decimals: the same rounding as the significand above.
    if (X >= 0) {
      const intPart = digits.slice(0, X + 1)
      const frac = digits.slice(X + 1)
      body = frac.length > 0 || alt ? intPart + "." + frac : intPart
    } else body = "0." + zeros(-X - 1) + digits
    if (!alt) body = stripFraction(body)
  } else {
    let mantissa = digits.length > 1 || alt ? digits[0] + "." + digits.slice(1) : digits
    if (!alt) mantissa = stripFraction(mantissa)
    body = mantissa + exponentSuffix(upper ? "E" : "e", X)
  }
  return body
}

const HEX = "0123456789abcdef"

/** `%a` body (no sign) of a non-negative finite double, as glibc writes it. */
const formatA = (x: number, precision: number, alt: boolean, upper: boolean): string => {
  f64[0] = x
  const hi = u32[HI]
  const biased = (hi >>> 20) & 0x7ff
  // The 52 fraction bits as an exact double-precision integer.
  let fraction = (hi & 0xfffff) * 4294967296 + u32[LO]
  let lead = biased === 0 ? 0 : 1
  const exponent = x === 0 ? 0 : biased === 0 ? -1022 : biased - 1023
  let digitCount = 13
  if (precision >= 0 && precision < 13) {
    const scale = POW2[4 * (13 - precision)]
    let q = Math.floor(fraction / scale)
    const twice = (fraction - q * scale) * 2
    // Ties go to the even digit; with no fraction digits kept, the last digit is the leading one.
    const lastOdd = (precision === 0 ? lead : q) % 2 === 1
    if (twice > scale || (twice === scale && lastOdd)) q++
    if (q === POW2[4 * precision]) {
      lead++
      q = 0
    }
    fraction = q
    digitCount = precision
  }
  let hex = ""
  for (let i = digitCount - 1; i >= 0; i--) hex += HEX[Math.floor(fraction / POW2[4 * i]) % 16]
  if (precision < 0) {
    let end = hex.length
    while (end > 0 && hex.charCodeAt(end - 1) === 48) end--
    hex = hex.slice(0, end)
  } else if (precision > 13) hex += zeros(precision - 13)
  const point = hex.length > 0 || alt ? "." : ""
  const body = "0x" + lead + point + hex + "p" + (exponent < 0 ? "-" : "+") + Math.abs(exponent)
  return upper ? body.toUpperCase() : body
}

/** Pad `sign + body` to the spec's width as printf does; zeros go after the sign and `prefixLength` body characters. */
const padField = (sign: string, body: string, spec: FloatSpec, zeroFill: boolean, prefixLength: number): string => {
  const length = sign.length + body.length
  if (length >= spec.width) return sign + body
  const fill = spec.width - length
  if (spec.left) return sign + body + " ".repeat(fill)
  if (zeroFill) return sign + body.slice(0, prefixLength) + zeros(fill) + body.slice(prefixLength)
  return " ".repeat(fill) + sign + body
}

/** Format a double with one of C's `%e %E %f %F %g %G %a %A` conversions, exactly as glibc's printf does. */
export const formatFloat = (x: number, spec: FloatSpec): string => {
  const conversion = spec.conversion
  const upper = conversion === "E" || conversion === "F" || conversion === "G" || conversion === "A"
  const negative = signBit(x)
  const sign = negative ? "-" : spec.plus ? "+" : spec.space ? " " : ""
  const a = Math.abs(x)
  if (!Number.isFinite(a)) {
    const word = Number.isNaN(a) ? "nan" : "inf"
    return padField(sign, upper ? word.toUpperCase() : word, spec, false, 0)
  }
  let body: string
  let prefixLength = 0
  switch (conversion) {
    case "f":
    case "F": {
      const p = spec.precision < 0 ? 6 : spec.precision
      body = fixedDigits(a, p)
      if (spec.alt && p === 0) body += "."
      break
    }
    case "e":
    case "E":
      body = formatE(a, spec.precision < 0 ? 6 : spec.precision, spec.alt, upper)
      break
    case "g":
    case "G":
      body = formatG(a, spec.precision, spec.alt, upper)
      break
    case "a":
    case "A":
      body = formatA(a, spec.precision, spec.alt, upper)
      prefixLength = 2
      break
    default:
      throw new RangeError(`not a floating-point conversion: '${conversion}'`)
  }
  return padField(sign, body, spec, spec.zero && !spec.left, prefixLength)
}

/**
 * `%.14g` of a positive finite double from its shortest round-trip digits, or null when that does not apply. When
 * those digits number 14 or fewer, rounding the exact value to 14 digits gives the same digits back (the value lies
 * within half an ulp of them, far less than half a unit in the 14th digit); between 1e-4 and 1e14 both C's `%g`
 * and JavaScript write them in fixed notation.
 */
const shortest14g = (a: number): string | null => {
  if (a < 1e-4 || a >= 1e14) return null
  const s = String(a)
  let digits = 0
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c === 46 || (digits === 0 && c === 48)) continue
    if (++digits > 14) return null
  }
  return s
}

/**
 * `%.14g` of a positive finite double between 1e-4 and 1e14 from the engine's `toPrecision(14)`, which there writes
 * the same fixed notation as C; null outside that range or when the value is a rounding tie (see {@link isHalfway}).
 */
const rounded14g = (a: number): string | null => {
  if (a < 1e-4 || a >= 1e14) return null
  const t = a.toPrecision(14)
  if (t.indexOf("e") >= 0) return null
  let exponent: number
  if (a >= 1) {
    const point = t.indexOf(".")
    exponent = (point < 0 ? t.length : point) - 1
  } else {
    let zeros = 0
    while (t.charCodeAt(2 + zeros) === 48) zeros++
    exponent = -zeros - 1
  }
  if (exponent < -4 || isHalfway(a, 13 - exponent) || isHalfway(a, 14 - exponent)) return null
  return stripFraction(t)
}

/**
 * Lua's `tostring` of a float: C's `%.14g`, with ".0" appended when the result would read as an integer;
 * `inf`, `-inf`, `nan` and `-nan` as Lua 5.4 on Linux prints them.
 */
export const formatNumber14g = (x: number): string => {
  if (x !== x) return signBit(x) ? "-nan" : "nan"
  if (x === Infinity) return "inf"
  if (x === -Infinity) return "-inf"
  const negative = x < 0 || (x === 0 && signBit(x))
  const a = negative ? -x : x
  if (Number.isInteger(a) && a < 1e14) return (negative ? "-" : "") + String(a) + ".0"
  const body = shortest14g(a) ?? rounded14g(a) ?? formatG(a, 14, false, false)
  const text = negative ? "-" + body : body
  for (let i = 0; i < body.length; i++) {
    const c = body.charCodeAt(i)
    if (c < 48 || c > 57) return text
  }
  return text + ".0"
}

/** The same function as {@link formatNumber14g}, under the name the interpreter's number module imports. */
export const formatFloat14g = formatNumber14g
