/**
 * Single-character tests of the metered matcher. A class, an escape or a case-insensitive literal is handed to the
 * host engine as a one-character pattern and asked once per distinct character: its classes, property escapes and
 * case folding (simple case folding with `u`, upper-casing without) are therefore exactly the host's. Answers are
 * cached, in a table for Latin-1 and a bounded map for the rest.
 */

/** Distinct non-Latin-1 characters remembered per test before the cache starts over. */
const MAX_CACHED = 4096

/** One single-character atom, answered by the host engine. */
export class CharTest {
  private readonly re: RegExp
  private readonly unicode: boolean
  /** 0: not asked yet, 1: no, 2: yes (made on first use: a pattern may have many classes it never reaches). */
  private latin: Uint8Array | null = null
  private readonly other = new Map<number, boolean>()

  /** `source` is one single-character atom's pattern text, read under `i` or not and in `mode` (none, `u` or `v`). */
  constructor(source: string, ignoreCase: boolean, mode: "" | "u" | "v") {
    this.unicode = mode !== ""
    this.re = new RegExp(`^(?:${source})$`, (ignoreCase ? "i" : "") + mode)
  }

  /** Whether the character (a code point with `u`, else a code unit) matches. */
  test(code: number): boolean {
    if (code < 256) {
      const latin = (this.latin ??= new Uint8Array(256))
      const known = latin[code]!
      if (known !== 0) return known === 2
      const yes = this.ask(code)
      latin[code] = yes ? 2 : 1
      return yes
    }
    const known = this.other.get(code)
    if (known !== undefined) return known
    const yes = this.ask(code)
    if (this.other.size >= MAX_CACHED) this.other.clear()
    this.other.set(code, yes)
    return yes
  }

  private ask(code: number): boolean {
    return this.re.test(this.unicode ? String.fromCodePoint(code) : String.fromCharCode(code))
  }
}

/** The pattern text of one literal character. */
const literal = (code: number, unicode: boolean): string =>
  unicode ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, "0")}`

/** Case-insensitive character equality (for backreferences under `i`), as the host folds case. */
export class CaseEquality {
  private readonly tests = new Map<number, CharTest>()

  constructor(private readonly unicode: boolean) {}

  /** Whether `a` and `b` are the same character ignoring case. */
  same(a: number, b: number): boolean {
    if (a === b) return true
    let test = this.tests.get(a)
    if (test === undefined) {
      if (this.tests.size >= MAX_CACHED) this.tests.clear()
      test = new CharTest(literal(a, this.unicode), true, this.unicode ? "u" : "")
      this.tests.set(a, test)
    }
    return test.test(b)
  }
}

/** True for the characters of `[A-Za-z0-9_]`. */
export const isAsciiWord = (c: number): boolean =>
  (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95

/** True for the line terminators `^`, `$` (with `m`) and `.` (without `s`) stop at. */
export const isLineTerminator = (c: number): boolean => c === 10 || c === 13 || c === 0x2028 || c === 0x2029
