/**
 * Float operations whose JavaScript forms differ from the C library PUC Lua calls on Linux (glibc on x86-64):
 *
 * - `pow`: glibc's is correctly rounded where V8's `Math.pow` can be off by one unit in the last place
 *   (`7 ^ 65`); integral exponents are computed exactly and rounded once.
 * - NaN signs: the processor's default NaN (from `0/0`, or glibc's `pow`, `log`, `fmod` of invalid arguments) has
 *   its sign bit set and prints as `-nan`, while the NaN that `Math.pow`, `Math.log` and `%` return has it clear.
 * - `%` takes the sign of the divisor as Lua 5.4 does (`-4 % -5.0 == -4.0`, `-5 % math.huge == math.huge`).
 */

const bits = new Float64Array(1)
const words = new BigUint64Array(bits.buffer)
words[0] = 0xfff8000000000000n
/** The processor's default NaN: sign bit set, printed `-nan`. */
export const NEGATIVE_NAN = bits[0]

/** `result`, or when it is NaN, the NaN C would give: an operand's own NaN, else the default (negative) one. */
const cNaN = (result: number, a: number, b: number): number => {
  if (result === result) return result
  if (a !== a) return a
  if (b !== b) return b
  return NEGATIVE_NAN
}

/** A positive finite double as `mantissa * 2^exponent` with an integer mantissa. */
const decompose = (x: number): { mantissa: bigint; exponent: number } => {
  bits[0] = x
  const w = words[0]
  const biased = Number((w >> 52n) & 0x7ffn)
  const fraction = w & 0xfffffffffffffn
  if (biased === 0) return { mantissa: fraction, exponent: -1074 }
  return { mantissa: fraction | 0x10000000000000n, exponent: biased - 1075 }
}

/** The number of bits of a positive bigint. */
const bitLength = (n: bigint): number => {
  const hex = n.toString(16)
  return (hex.length - 1) * 4 + (32 - Math.clz32(parseInt(hex[0], 16)))
}

/** `n * 2^k` rounded once to a double (`n` positive): the low bits are folded into a sticky bit first. */
export const scaleToDouble = (n: bigint, k: number): number => {
  const length = bitLength(n)
  if (length > 64) {
    const shift = length - 64
    const kept = n >> BigInt(shift)
    const sticky = kept << BigInt(shift) !== n ? 1n : 0n
    n = kept | sticky
    k += shift
  }
  // Number(bigint) rounds to nearest, ties to even; scaling by a power of two is exact outside the subnormals.
  let x = Number(n)
  while (k > 0) {
    const step = Math.min(k, 1000)
    x *= 2 ** step
    k -= step
  }
  while (k < 0) {
    const step = Math.min(-k, 1000)
    x /= 2 ** step
    k += step
  }
  return x
}

/** `a ^ b` for an integral `b` (at most {@link MAX_EXACT_EXPONENT}) and a finite nonzero `a`, exactly rounded. */
const integralPow = (a: number, b: number): number | undefined => {
  const negative = a < 0 && b % 2 !== 0
  let { mantissa, exponent } = decompose(Math.abs(a))
  while ((mantissa & 0xffffn) === 0n) {
    mantissa >>= 16n
    exponent += 16
  }
  while ((mantissa & 1n) === 0n) {
    mantissa >>= 1n
    exponent++
  }
  if (bitLength(mantissa) * Math.abs(b) > MAX_EXACT_BITS) return undefined
  const n = BigInt(Math.abs(b))
  const p = mantissa ** n
  let r: number
  if (b > 0) r = scaleToDouble(p, exponent * b)
  else {
    // 1 / (p * 2^(exponent*|b|)): divide with 64 bits to spare, the remainder as a sticky bit.
    const k = bitLength(p) + 64
    const q = (1n << BigInt(k)) / p
    const exact = q * p === 1n << BigInt(k)
    r = scaleToDouble(exact ? q : q | 1n, -k - exponent * -b)
  }
  return negative ? -r : r
}

/** Integral exponents up to this size may be computed exactly (larger ones overflow or underflow for most bases). */
const MAX_EXACT_EXPONENT = 1100
/** The exact power is computed when the mantissa's bits times the exponent stay within this (a few microseconds). */
const MAX_EXACT_BITS = 4096

/** Lua's `a ^ b` on two doubles, as glibc's `pow` computes it. */
export const floatPow = (a: number, b: number): number => {
  if (b === 2) return a * a
  // C99: pow(1, y) is 1 for every y (NaN too), and pow(-1, ±inf) is 1; JavaScript gives NaN for these.
  if (a === 1 || (a === -1 && (b === Infinity || b === -Infinity))) return 1
  if (
    Number.isInteger(b) &&
    b >= -MAX_EXACT_EXPONENT &&
    b <= MAX_EXACT_EXPONENT &&
    b !== 0 &&
    a !== 0 &&
    Number.isFinite(a)
  ) {
    const r = integralPow(a, b)
    if (r !== undefined && Number.isFinite(r) && r !== 0) return r
  }
  return cNaN(Math.pow(a, b), a, b)
}

/** Lua 5.4's float `a % b`: C's `fmod`, then the divisor's sign when the remainder has the other. */
export const floatMod = (a: number, b: number): number => {
  let m = a % b
  if (m !== m) return cNaN(m, a, b)
  if (m !== 0 && m < 0 !== b < 0) m += b
  return m
}

/** C's `fmod` (the sign of the dividend), with C's NaN. */
export const cFmod = (a: number, b: number): number => cNaN(a % b, a, b)

/** C's `log`, `log2`, `log10` of `x`, with C's NaN for a negative argument. */
export const cLog = (f: (x: number) => number, x: number): number => cNaN(f(x), x, x)
