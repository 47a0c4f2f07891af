/**
 * Conversion between JS strings (UTF-16) and Lua byte strings (one code unit per byte), used where strings cross
 * between the program and the host.
 */
import { Buffer } from "node:buffer"

/**
 * True when every code unit of `s` is below 0x80: a loop for short strings; for longer ones, the string's UTF-8
 * length (the engine counts it in bulk) equals its length exactly then, as every other code unit (a lone surrogate
 * too) takes two or more bytes, and a surrogate pair four. Five to nine times faster than a regular expression.
 */
export const isAscii = (s: string): boolean => {
  const n = s.length
  if (n > 32) return Buffer.byteLength(s, "utf8") === n
  for (let i = 0; i < n; i++) if (s.charCodeAt(i) > 0x7f) return false
  return true
}
const encoder = new TextEncoder()
const strictDecoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true })
const lenientDecoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true })

/** The UTF-8 bytes of a JS string, as a byte string. Lone surrogates become U+FFFD. */
export const utf8Encode = (s: string): string => {
  if (isAscii(s)) return s
  return bytesToString(encoder.encode(s))
}

/** Decode a byte string as UTF-8; `undefined` when it is not valid UTF-8. */
export const utf8Decode = (s: string): string | undefined => {
  if (isAscii(s)) return s
  try {
    return strictDecoder.decode(stringToBytes(s))
  } catch {
    return undefined
  }
}

/** Decode a byte string as UTF-8, replacing invalid sequences with U+FFFD (for log lines). */
export const utf8DecodeLenient = (s: string): string => {
  if (isAscii(s)) return s
  return lenientDecoder.decode(stringToBytes(s))
}

/** A byte string's bytes. */
export const stringToBytes = (s: string): Uint8Array => {
  const out = new Uint8Array(s.length)
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i)
  return out
}

/** A byte string made of `bytes`. */
export const bytesToString = (bytes: Uint8Array): string => {
  let out = ""
  const step = 8192
  for (let i = 0; i < bytes.length; i += step)
    out += String.fromCharCode.apply(null, bytes.subarray(i, i + step) as unknown as Array<number>)
  return out
}
