/**
 * The literals luaparse reads differently from Lua 5.4, handled around it:
 *
 * - It refuses hexadecimal numerals without integer digits (`0x.8`, `0x.8p1`) and `\u{...}` escapes above
 *   U+10FFFF (Lua 5.4 takes up to 7FFFFFFF, encoded in up to six bytes). {@link parserSource} rewrites those for
 *   luaparse only, keeping every byte position, so that the tree's ranges still index the program; the compiler
 *   then reads the literal's real text from the program.
 * - It keeps a CR LF inside a long string as two bytes, where Lua's lexer reads any line break (`\n`, `\r`,
 *   `\r\n`, `\n\r`) as one `\n`. {@link decodeStringLiteral} decodes a string literal from its text as Lua does.
 */

const isHex = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102)
const isDigit = (c: number): boolean => c >= 48 && c <= 57
const isNameChar = (c: number): boolean => isDigit(c) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95

/** The level of a long bracket (`[==[`) opening at `at`, or -1. */
const longBracket = (s: string, at: number): number => {
  if (s.charCodeAt(at) !== 91) return -1
  let j = at + 1
  while (s.charCodeAt(j) === 61) j++
  return s.charCodeAt(j) === 91 ? j - at - 1 : -1
}

/**
 * The program as luaparse should read it: the same length, with `0x.` numerals given an integer digit and
 * `\u{...}` escapes above U+10FFFF made zero. The same string when nothing needs rewriting.
 */
export const parserSource = (s: string): string => {
  if (s.indexOf("0x.") < 0 && s.indexOf("0X.") < 0 && s.indexOf("\\u{") < 0) return s
  const out: Array<string> = []
  let copied = 0
  const replace = (from: number, to: number, text: string) => {
    out.push(s.slice(copied, from), text)
    copied = to
  }
  const n = s.length
  let i = 0
  while (i < n) {
    const c = s.charCodeAt(i)
    if (c === 45 && s.charCodeAt(i + 1) === 45) {
      // a comment: skip it
      const level = longBracket(s, i + 2)
      if (level >= 0) {
        const close = s.indexOf("]" + "=".repeat(level) + "]", i + level + 4)
        i = close < 0 ? n : close + level + 2
      } else {
        const nl = s.indexOf("\n", i)
        i = nl < 0 ? n : nl
      }
    } else if (c === 91 && longBracket(s, i) >= 0) {
      const level = longBracket(s, i)
      const close = s.indexOf("]" + "=".repeat(level) + "]", i + level + 2)
      i = close < 0 ? n : close + level + 2
    } else if (c === 34 || c === 39) {
      i++
      while (i < n && s.charCodeAt(i) !== c && s.charCodeAt(i) !== 10) {
        if (s.charCodeAt(i) === 92) {
          if (s.charCodeAt(i + 1) === 117 && s.charCodeAt(i + 2) === 123) {
            let j = i + 3
            let value = 0
            while (j < n && isHex(s.charCodeAt(j))) value = value * 16 + parseInt(s[j++], 16)
            if (value > 0x10ffff && s.charCodeAt(j) === 125) replace(i + 3, j, "0".repeat(j - i - 3))
            i = j
            continue
          }
          i += 2
          continue
        }
        i++
      }
      i++
    } else if (c === 48 && (s.charCodeAt(i + 1) | 32) === 120 && (i === 0 || !isNameChar(s.charCodeAt(i - 1)))) {
      if (s.charCodeAt(i + 2) === 46 && isHex(s.charCodeAt(i + 3))) replace(i + 2, i + 3, "0")
      i += 2
    } else i++
  }
  if (out.length === 0) return s
  out.push(s.slice(copied))
  return out.join("")
}

/** True when luaparse's value of the string literal with text `raw` may differ from Lua's. */
export const needsOwnDecoding = (raw: string): boolean => raw.indexOf("\r") >= 0 || raw.indexOf("\\u{") >= 0

/** Encode a code point up to 7FFFFFFF as Lua 5.4 does (up to six bytes). */
const utf8Bytes = (x: number): string => {
  if (x < 0x80) return String.fromCharCode(x)
  const bytes: Array<number> = []
  let mfb = 0x3f
  let v = x
  do {
    bytes.push(0x80 | (v & 0x3f))
    v = Math.floor(v / 64)
    mfb >>= 1
  } while (v > mfb)
  bytes.push(((~mfb << 1) & 0xff) | v)
  return String.fromCharCode(...bytes.reverse())
}

/** The length of the line break at `i` (`\n`, `\r`, `\r\n` or `\n\r`), or 0. */
const lineBreak = (s: string, i: number): number => {
  const c = s.charCodeAt(i)
  if (c !== 10 && c !== 13) return 0
  const d = s.charCodeAt(i + 1)
  return (d === 10 || d === 13) && d !== c ? 2 : 1
}

/** The value of a string literal (short or long) from its text, as Lua's lexer reads it. */
export const decodeStringLiteral = (raw: string): string => {
  const level = longBracket(raw, 0)
  if (level >= 0) {
    let body = raw.slice(level + 2, raw.length - level - 2)
    const first = lineBreak(body, 0)
    if (first > 0) body = body.slice(first)
    let out = ""
    for (let i = 0; i < body.length; ) {
      const b = lineBreak(body, i)
      if (b > 0) {
        out += "\n"
        i += b
      } else out += body[i++]
    }
    return out
  }
  const body = raw.slice(1, raw.length - 1)
  let out = ""
  for (let i = 0; i < body.length; ) {
    const c = body[i]
    if (c !== "\\") {
      out += c
      i++
      continue
    }
    const e = body[i + 1]
    i += 2
    switch (e) {
      case "a":
        out += "\x07"
        break
      case "b":
        out += "\b"
        break
      case "f":
        out += "\f"
        break
      case "n":
        out += "\n"
        break
      case "r":
        out += "\r"
        break
      case "t":
        out += "\t"
        break
      case "v":
        out += "\v"
        break
      case "x":
        out += String.fromCharCode(parseInt(body.slice(i, i + 2), 16))
        i += 2
        break
      case "z":
        while (i < body.length && /[ \t\n\v\f\r]/.test(body[i])) i++
        break
      case "u": {
        const close = body.indexOf("}", i)
        out += utf8Bytes(parseInt(body.slice(i + 1, close), 16))
        i = close + 1
        break
      }
      case "\n":
      case "\r": {
        out += "\n"
        const b = lineBreak(body, i - 1)
        i += b - 1
        break
      }
      default:
        if (isDigit(e.charCodeAt(0))) {
          let j = i - 1
          let v = 0
          while (j < i + 2 && j < body.length && isDigit(body.charCodeAt(j))) v = v * 10 + (body.charCodeAt(j++) - 48)
          out += String.fromCharCode(v)
          i = j
        } else out += e
    }
  }
  return out
}
