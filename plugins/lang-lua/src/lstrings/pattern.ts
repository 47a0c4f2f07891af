/**
 * Lua 5.4 pattern matching over byte strings (`string.find`, `match`, `gmatch`, `gsub`).
 *
 * A pattern is compiled once into a list of items (cached by pattern text) and run by a backtracking matcher whose
 * control flow follows the reference semantics step by step: the same items recurse, so "pattern too complex"
 * fires at the same depth, and a malformed part of a pattern raises its error only when the matcher reaches it.
 * The matcher counts its elementary steps and charges them to a {@link PatternMeter} in chunks.
 */

/** A capture value: the captured bytes, or a 1-based position for a position capture `()`. */
export type Capture = string | number

/** Receives the matcher's work; `charge` may throw to stop a runaway match. */
export interface PatternMeter {
  /** Add `steps` units of work (one unit per elementary matcher step). */
  charge(steps: number): void
  /** Called with a result's length before `gsub` grows it to that length; may throw to bound the result. */
  checkLength?(length: number): void
}

/** An error in a pattern or in its use, worded as PUC Lua 5.4 words it. */
export class PatternError extends Error {
  override readonly name = "PatternError"
}

/** The result of a successful `find`: 1-based inclusive bounds and the explicit captures. */
export interface FindResult {
  readonly start: number
  readonly end: number
  readonly captures: Array<Capture>
}

/** A `gsub` replacement: a replacement string, or a callback given the captures (the whole match when none). */
export type Replacement = string | ((captures: Array<Capture>) => string | null | undefined)

/** A Lua integer argument as the interpreter holds it (a safe-integer number or a bigint), or absent. */
export type IntegerArg = number | bigint | null | undefined

// ---------------------------------------------------------------------------------------------------------------
// Character classes (C locale, as PUC Lua's ctype calls see them)

const makeTable = (test: (c: number) => boolean): Uint8Array => {
  const t = new Uint8Array(256)
  for (let c = 0; c < 256; c++) t[c] = test(c) ? 1 : 0
  return t
}

const isAlpha = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122)
const isDigit = (c: number) => c >= 48 && c <= 57
const isGraph = (c: number) => c >= 33 && c <= 126

/** Class tables by class letter (lower case); the upper-case letter is the complement. */
const CLASS_TESTS: Record<string, (c: number) => boolean> = {
  a: isAlpha,
  c: (c) => c < 32 || c === 127,
  d: isDigit,
  g: isGraph,
  l: (c) => c >= 97 && c <= 122,
  p: (c) => isGraph(c) && !isAlpha(c) && !isDigit(c),
  s: (c) => (c >= 9 && c <= 13) || c === 32,
  u: (c) => c >= 65 && c <= 90,
  w: (c) => isAlpha(c) || isDigit(c),
  x: (c) => isDigit(c) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70),
  z: (c) => c === 0,
}

/** `CLASS_TABLES[letterCode]` is the membership table of `%letter`, or undefined when the letter is no class. */
const CLASS_TABLES: Array<Uint8Array | undefined> = new Array(256).fill(undefined)
for (const [letter, test] of Object.entries(CLASS_TESTS)) {
  CLASS_TABLES[letter.charCodeAt(0)] = makeTable(test)
  CLASS_TABLES[letter.toUpperCase().charCodeAt(0)] = makeTable((c) => !test(c))
}

// ---------------------------------------------------------------------------------------------------------------
// Compiled patterns

const C_PERCENT = 37 // %
const C_LBRACKET = 91 // [
const C_RBRACKET = 93 // ]
const C_CARET = 94 // ^
const C_DASH = 45 // -
const C_LPAREN = 40 // (
const C_RPAREN = 41 // )
const C_DOLLAR = 36 // $
const C_DOT = 46 // .
const C_STAR = 42 // *
const C_PLUS = 43 // +
const C_QUESTION = 63 // ?

/** Item kinds. */
const OP_END = 0
const OP_SINGLE = 1 // one character class, with a quantifier
const OP_OPEN = 2 // `(`
const OP_OPEN_POSITION = 3 // `()`
const OP_CLOSE = 4 // `)`
const OP_END_ANCHOR = 5 // `$` at the very end
const OP_BALANCE = 6 // `%bxy`
const OP_FRONTIER = 7 // `%f[set]`
const OP_BACKREF = 8 // `%1`..`%9` (and `%0`, which always fails as an invalid index)
const OP_ERROR = 9 // a malformed part: raises its message when reached

/** Single-character kinds. */
const K_CHAR = 0
const K_ANY = 1
const K_TABLE = 2

/** Quantifiers. */
const Q_ONE = 0
const Q_STAR = 1
const Q_PLUS = 2
const Q_MINUS = 3
const Q_OPTIONAL = 4

/** The most captures one pattern may hold. */
const MAX_CAPTURES = 32
/** The deepest the matcher may recurse before "pattern too complex". */
const MAX_MATCH_DEPTH = 200
/** Steps accumulated before they are charged to the meter. */
const CHARGE_CHUNK = 4096

const CAP_UNFINISHED = -1
const CAP_POSITION = -2

/** One compiled pattern item. Every item has the same shape so that the matcher's property reads stay monomorphic. */
class Item {
  constructor(
    readonly op: number,
    /** OP_SINGLE: K_CHAR / K_ANY / K_TABLE. */
    readonly kind: number,
    /** The character (K_CHAR), the `%b` opening character, or the back-reference digit. */
    readonly ch: number,
    /** The `%b` closing character. */
    readonly ch2: number,
    /** Membership table for K_TABLE and OP_FRONTIER. */
    readonly table: Uint8Array | null,
    readonly quantifier: number,
    /** OP_ERROR: the message. */
    readonly message: string,
  ) {}
}

const single = (kind: number, ch: number, table: Uint8Array | null, quantifier: number) =>
  new Item(OP_SINGLE, kind, ch, 0, table, quantifier, "")
const simple = (op: number) => new Item(op, 0, 0, 0, null, Q_ONE, "")
const failure = (message: string) => new Item(OP_ERROR, 0, 0, 0, null, Q_ONE, message)

/** A compiled pattern. */
interface Program {
  readonly items: ReadonlyArray<Item>
  /** True when the pattern began with `^` and that anchor was taken off (find, match, gsub). */
  readonly anchored: boolean
  /** The number of `(` items, capped at {@link MAX_CAPTURES}. */
  readonly captureSlots: number
  /**
   * The first item that consumes a character, when every match must start with one such character (a single item
   * quantified once or with `+`, after nothing but opening captures); null otherwise.
   */
  readonly lead: Item | null
  /** The literal text every match must start with (from the same leading items); "" when none. */
  readonly prefix: string
  /** A matcher for this program that no call is using, kept to spare an allocation per call. */
  spare: Matcher | null
}

/** Work out {@link Program.lead} and {@link Program.prefix} from the items. */
const leadOf = (items: ReadonlyArray<Item>): { lead: Item | null; prefix: string } => {
  // Opening captures consume nothing and cannot fail (at most 32 of them stay far below the depth limit).
  let k = 0
  while (items[k].op === OP_OPEN || items[k].op === OP_OPEN_POSITION) k++
  const first = items[k]
  if (first.op !== OP_SINGLE || (first.quantifier !== Q_ONE && first.quantifier !== Q_PLUS)) {
    return { lead: null, prefix: "" }
  }
  let prefix = ""
  while (items[k].op === OP_SINGLE && items[k].kind === K_CHAR && items[k].quantifier === Q_ONE) {
    prefix += String.fromCharCode(items[k].ch)
    k++
  }
  if (prefix === "" && first.kind === K_CHAR) prefix = String.fromCharCode(first.ch)
  return { lead: first, prefix }
}

/** Find where the class item starting at `p` ends (the index just past it), or a message when it is malformed. */
const classEnd = (pat: string, p: number): number | string => {
  const n = pat.length
  const c = pat.charCodeAt(p++)
  if (c === C_PERCENT) {
    if (p >= n) return "malformed pattern (ends with '%')"
    return p + 1
  }
  if (c === C_LBRACKET) {
    if (pat.charCodeAt(p) === C_CARET) p++
    do {
      if (p >= n) return "malformed pattern (missing ']')"
      const cc = pat.charCodeAt(p++)
      if (cc === C_PERCENT && p < n) p++
    } while (pat.charCodeAt(p) !== C_RBRACKET)
    return p + 1
  }
  return p
}

/** Build the membership table of the set whose `[` is at `open` and whose closing `]` is at `close`. */
const setTable = (pat: string, open: number, close: number): Uint8Array => {
  const t = new Uint8Array(256)
  let p = open + 1
  let negate = false
  if (pat.charCodeAt(p) === C_CARET) {
    negate = true
    p++
  }
  for (; p < close; p++) {
    const c = pat.charCodeAt(p)
    if (c === C_PERCENT) {
      p++
      const cls = CLASS_TABLES[pat.charCodeAt(p)]
      if (cls !== undefined) for (let i = 0; i < 256; i++) t[i] |= cls[i]
      else t[pat.charCodeAt(p)] = 1
    } else if (pat.charCodeAt(p + 1) === C_DASH && p + 2 < close) {
      const hi = pat.charCodeAt(p + 2)
      for (let i = c; i <= hi; i++) t[i] = 1
      p += 2
    } else t[c] = 1
  }
  if (negate) for (let i = 0; i < 256; i++) t[i] ^= 1
  return t
}

const isQuantifier = (c: number) => c === C_STAR || c === C_PLUS || c === C_DASH || c === C_QUESTION

const quantifierOf = (c: number): number =>
  c === C_STAR ? Q_STAR : c === C_PLUS ? Q_PLUS : c === C_DASH ? Q_MINUS : c === C_QUESTION ? Q_OPTIONAL : Q_ONE

/** Compile `pat` from index `start` into items. Compilation stops at the first malformed part (an OP_ERROR item). */
const compile = (pat: string, start: number, anchored: boolean): Program => {
  const items: Array<Item> = []
  const n = pat.length
  let p = start
  let opens = 0
  while (p < n) {
    const c = pat.charCodeAt(p)
    if (c === C_LPAREN) {
      if (opens >= MAX_CAPTURES) {
        items.push(failure("too many captures"))
        break
      }
      opens++
      if (pat.charCodeAt(p + 1) === C_RPAREN) {
        items.push(simple(OP_OPEN_POSITION))
        p += 2
      } else {
        items.push(simple(OP_OPEN))
        p += 1
      }
      continue
    }
    if (c === C_RPAREN) {
      items.push(simple(OP_CLOSE))
      p += 1
      continue
    }
    if (c === C_DOLLAR && p + 1 === n) {
      items.push(simple(OP_END_ANCHOR))
      p += 1
      continue
    }
    if (c === C_PERCENT) {
      const e = pat.charCodeAt(p + 1)
      if (e === 98 /* b */) {
        if (p + 2 >= n - 1) {
          items.push(failure("malformed pattern (missing arguments to '%b')"))
          break
        }
        items.push(new Item(OP_BALANCE, 0, pat.charCodeAt(p + 2), pat.charCodeAt(p + 3), null, Q_ONE, ""))
        p += 4
        continue
      }
      if (e === 102 /* f */) {
        p += 2
        if (p >= n || pat.charCodeAt(p) !== C_LBRACKET) {
          items.push(failure("missing '[' after '%f' in pattern"))
          break
        }
        const end = classEnd(pat, p)
        if (typeof end === "string") {
          items.push(failure(end))
          break
        }
        items.push(new Item(OP_FRONTIER, 0, 0, 0, setTable(pat, p, end - 1), Q_ONE, ""))
        p = end
        continue
      }
      if (e >= 48 && e <= 57) {
        items.push(new Item(OP_BACKREF, 0, e - 48, 0, null, Q_ONE, ""))
        p += 2
        continue
      }
    }
    const end = classEnd(pat, p)
    if (typeof end === "string") {
      items.push(failure(end))
      break
    }
    let kind = K_CHAR
    let ch = c
    let table: Uint8Array | null = null
    if (c === C_DOT) kind = K_ANY
    else if (c === C_PERCENT) {
      ch = pat.charCodeAt(p + 1)
      const cls = CLASS_TABLES[ch]
      if (cls !== undefined) {
        kind = K_TABLE
        table = cls
      }
    } else if (c === C_LBRACKET) {
      kind = K_TABLE
      table = setTable(pat, p, end - 1)
    }
    const q = end < n ? pat.charCodeAt(end) : -1
    if (isQuantifier(q)) {
      items.push(single(kind, ch, table, quantifierOf(q)))
      p = end + 1
    } else {
      items.push(single(kind, ch, table, Q_ONE))
      p = end
    }
  }
  items.push(simple(OP_END))
  return { items, anchored, captureSlots: Math.min(opens, MAX_CAPTURES), ...leadOf(items), spare: null }
}

/**
 * The longest pattern this matcher accepts, in bytes. A compiled item takes far more memory than the pattern byte it
 * comes from (and a set a 256-byte table), so the bound keeps a hostile pattern from exhausting memory; real Lua
 * patterns are a few dozen bytes. Plain searches (`find` with `plain`, or a pattern without special characters) are
 * not compiled and have no such bound.
 */
export const MAX_PATTERN_LENGTH = 65536

/** Compiled programs by pattern text; separate caches because gmatch treats a leading `^` literally. */
const anchoredCache = new Map<string, Program>()
const literalCache = new Map<string, Program>()
const CACHE_LIMIT = 256
/** Longer patterns are compiled for each call and not kept. */
const CACHED_PATTERN_LENGTH = 256

const cached = (cache: Map<string, Program>, pattern: string, make: () => Program): Program => {
  if (pattern.length > CACHED_PATTERN_LENGTH) {
    if (pattern.length > MAX_PATTERN_LENGTH) {
      throw new PatternError(`pattern too long (${pattern.length} bytes; the limit is ${MAX_PATTERN_LENGTH})`)
    }
    return make()
  }
  let program = cache.get(pattern)
  if (program === undefined) {
    program = make()
    if (cache.size >= CACHE_LIMIT) cache.clear()
    cache.set(pattern, program)
  }
  return program
}

/** The program for find, match and gsub: a leading `^` anchors the match. */
const programFor = (pattern: string): Program =>
  cached(anchoredCache, pattern, () =>
    pattern.charCodeAt(0) === C_CARET ? compile(pattern, 1, true) : compile(pattern, 0, false),
  )

/** The program for gmatch: a leading `^` is an ordinary character. */
const literalProgramFor = (pattern: string): Program => cached(literalCache, pattern, () => compile(pattern, 0, false))

// ---------------------------------------------------------------------------------------------------------------
// The matcher

/** Matching state for one subject and one program: capture slots, recursion depth and uncharged steps. */
class Matcher {
  readonly items: ReadonlyArray<Item>
  len: number
  level = 0
  depth = MAX_MATCH_DEPTH
  steps = 0
  readonly capStart: Array<number>
  readonly capLen: Array<number>

  constructor(
    public src: string,
    readonly program: Program,
    public meter: PatternMeter,
  ) {
    this.items = program.items
    this.len = src.length
    const slots = program.captureSlots
    this.capStart = new Array<number>(slots).fill(0)
    this.capLen = new Array<number>(slots).fill(0)
  }

  /** Prepare for a new match attempt. */
  reset(): void {
    this.level = 0
    this.depth = MAX_MATCH_DEPTH
  }

  /** Charge the accumulated steps. */
  flush(): void {
    const steps = this.steps
    if (steps > 0) {
      this.steps = 0
      this.meter.charge(steps)
    }
  }

  /** Does the single-character item `it` accept the character at `s` (which must be inside the subject)? */
  accepts(it: Item, s: number): boolean {
    const kind = it.kind
    if (kind === K_CHAR) return this.src.charCodeAt(s) === it.ch
    if (kind === K_ANY) return true
    return it.table![this.src.charCodeAt(s)] === 1
  }

  /** Match items from `i` against the subject from `s`; the end of the match, or -1. */
  match(s: number, i: number): number {
    if (this.depth-- === 0) throw new PatternError("pattern too complex")
    if (++this.steps >= CHARGE_CHUNK) this.flush()
    const items = this.items
    const len = this.len
    for (;;) {
      const it = items[i]
      switch (it.op) {
        case OP_END:
          break
        case OP_SINGLE: {
          if (s >= len || !this.accepts(it, s)) {
            const q = it.quantifier
            if (q === Q_STAR || q === Q_OPTIONAL || q === Q_MINUS) {
              i++
              continue
            }
            s = -1
            break
          }
          switch (it.quantifier) {
            case Q_ONE:
              s++
              i++
              this.steps++
              continue
            case Q_OPTIONAL: {
              const r = this.match(s + 1, i + 1)
              if (r >= 0) {
                s = r
                break
              }
              i++
              continue
            }
            case Q_PLUS:
              s = this.maxExpand(s + 1, it, i)
              break
            case Q_STAR:
              s = this.maxExpand(s, it, i)
              break
            default:
              s = this.minExpand(s, it, i)
              break
          }
          break
        }
        case OP_OPEN:
        case OP_OPEN_POSITION: {
          const level = this.level
          this.capStart[level] = s
          this.capLen[level] = it.op === OP_OPEN ? CAP_UNFINISHED : CAP_POSITION
          this.level = level + 1
          const r = this.match(s, i + 1)
          if (r < 0) this.level--
          s = r
          break
        }
        case OP_CLOSE: {
          const l = this.captureToClose()
          this.capLen[l] = s - this.capStart[l]
          const r = this.match(s, i + 1)
          if (r < 0) this.capLen[l] = CAP_UNFINISHED
          s = r
          break
        }
        case OP_END_ANCHOR:
          if (s !== len) s = -1
          break
        case OP_BALANCE:
          s = this.matchBalance(s, it)
          if (s >= 0) {
            i++
            continue
          }
          break
        case OP_FRONTIER: {
          const table = it.table!
          const previous = s === 0 ? 0 : this.src.charCodeAt(s - 1)
          const current = s < len ? this.src.charCodeAt(s) : 0
          if (table[previous] === 0 && table[current] === 1) {
            i++
            continue
          }
          s = -1
          break
        }
        case OP_BACKREF:
          s = this.matchBackReference(s, it.ch)
          if (s >= 0) {
            i++
            continue
          }
          break
        default:
          throw new PatternError(it.message)
      }
      this.depth++
      return s
    }
  }

  /** Greedy repetition: take as many as possible, then give back one at a time until the rest matches. */
  maxExpand(s: number, it: Item, i: number): number {
    const src = this.src
    const len = this.len
    let n = 0
    const kind = it.kind
    if (kind === K_ANY) n = len - s
    else if (kind === K_CHAR) {
      const ch = it.ch
      while (s + n < len && src.charCodeAt(s + n) === ch) n++
    } else {
      const table = it.table!
      while (s + n < len && table[src.charCodeAt(s + n)] === 1) n++
    }
    this.steps += n
    const next = this.items[i + 1]
    // Shortcuts that skip calls which could only fail at once (they are exact only while depth remains).
    if (this.depth > 0 && next.op === OP_END) return s + n
    if (this.depth > 0 && next.op === OP_END_ANCHOR) return s + n === len ? len : -1
    // The rest, after any captures it closes, starts with an item that must take a character: it can only match
    // where that item accepts one, so the other positions are skipped (exact while the calls skipped have depth).
    let j = i + 1
    while (this.items[j].op === OP_CLOSE) j++
    const first = this.items[j]
    if (this.depth > j - i && first.op === OP_SINGLE && (first.quantifier === Q_ONE || first.quantifier === Q_PLUS)) {
      for (; n >= 0; n--) {
        const at = s + n
        if (at >= len || !this.accepts(first, at)) continue
        const r = this.match(at, i + 1)
        if (r >= 0) return r
      }
      return -1
    }
    for (; n >= 0; n--) {
      const r = this.match(s + n, i + 1)
      if (r >= 0) return r
    }
    return -1
  }

  /** Lazy repetition: try the rest first, taking one more character each time it fails. */
  minExpand(s: number, it: Item, i: number): number {
    const len = this.len
    const next = this.items[i + 1].op
    if (this.depth > 0 && next === OP_END) return s
    if (this.depth > 0 && next === OP_END_ANCHOR) {
      // Only the end of the subject can follow: take characters while they are accepted and see if it is reached.
      const from = s
      while (s < len && this.accepts(it, s)) s++
      this.steps += s - from
      return s === len ? len : -1
    }
    let j = i + 1
    while (this.items[j].op === OP_CLOSE) j++
    const star = this.items[j]
    if (star.op === OP_SINGLE && star.quantifier === Q_STAR && this.items[j + 1].op === OP_END_ANCHOR) {
      // The rest is captures closing, `x*` and the end (`^%s*(.-)%s*$`): it matches exactly where every character
      // left is an `x`. Take characters up to the first such position, then match the rest there once.
      let tail = len
      while (tail > s && this.accepts(star, tail - 1)) tail--
      const from = s
      while (s < tail && this.accepts(it, s)) s++
      this.steps += len - tail + (s - from)
      return s < tail ? -1 : this.match(s, i + 1)
    }
    for (;;) {
      const r = this.match(s, i + 1)
      if (r >= 0) return r
      if (s < len && this.accepts(it, s)) s++
      else return -1
    }
  }

  /** `%bxy`: a balanced run from `x` to the matching `y`; its end, or -1. */
  matchBalance(s: number, it: Item): number {
    const src = this.src
    const len = this.len
    if (s >= len || src.charCodeAt(s) !== it.ch) return -1
    const open = it.ch
    const close = it.ch2
    let depth = 1
    const from = s
    while (++s < len) {
      const c = src.charCodeAt(s)
      if (c === close) {
        if (--depth === 0) {
          this.steps += s - from
          return s + 1
        }
      } else if (c === open) depth++
    }
    this.steps += s - from
    return -1
  }

  /** `%n`: the text of capture n again; its end, or -1. */
  matchBackReference(s: number, digit: number): number {
    const l = digit - 1
    if (l < 0 || l >= this.level || this.capLen[l] === CAP_UNFINISHED) {
      throw new PatternError(`invalid capture index %${l + 1}`)
    }
    const n = this.capLen[l]
    if (n === CAP_POSITION || this.len - s < n) return -1
    const start = this.capStart[l]
    const src = this.src
    for (let k = 0; k < n; k++) if (src.charCodeAt(start + k) !== src.charCodeAt(s + k)) return -1
    this.steps += n
    return s + n
  }

  /** The innermost capture still open. */
  captureToClose(): number {
    for (let l = this.level - 1; l >= 0; l--) if (this.capLen[l] === CAP_UNFINISHED) return l
    throw new PatternError("invalid pattern capture")
  }

  /** Capture `k` (0-based) of the match `s..e`; capture 0 stands for the whole match when there are none. */
  capture(k: number, s: number, e: number): Capture {
    if (k >= this.level) {
      if (k !== 0) throw new PatternError(`invalid capture index %${k + 1}`)
      return this.src.slice(s, e)
    }
    const n = this.capLen[k]
    if (n === CAP_UNFINISHED) throw new PatternError("unfinished capture")
    const start = this.capStart[k]
    if (n === CAP_POSITION) return start + 1
    return this.src.slice(start, start + n)
  }

  /** All captures of the match `s..e`, or the whole match when the pattern has none (`wholeIfNone`). */
  captures(s: number, e: number, wholeIfNone: boolean): Array<Capture> {
    const level = this.level
    if (level === 0) return wholeIfNone ? [this.src.slice(s, e)] : []
    const out = new Array<Capture>(level)
    for (let k = 0; k < level; k++) out[k] = this.capture(k, s, e)
    return out
  }

  /**
   * The next position at or after `s` where a match could start, judged by what every match must begin with (the
   * program's literal prefix or its leading item), or `s` itself when that tells nothing; -1 when no later position
   * can match. Skipped positions are ones where the matcher would fail at once, without raising any error.
   */
  candidate(s: number): number {
    const program = this.program
    const first = program.lead
    if (first === null) return s
    const src = this.src
    const len = this.len
    if (program.prefix !== "") {
      const at = src.indexOf(program.prefix, s)
      this.steps += ((at < 0 ? len : at) - s) >>> 4
      return at
    }
    if (first.kind === K_ANY) return s < len ? s : -1
    const table = first.table!
    const from = s
    while (s < len && table[src.charCodeAt(s)] === 0) s++
    this.steps += s - from
    return s < len ? s : -1
  }
}

/** A matcher for `program` over `src`: the program's spare one when no other call holds it. */
const acquire = (program: Program, src: string, meter: PatternMeter): Matcher => {
  const m = program.spare
  if (m === null) return new Matcher(src, program, meter)
  program.spare = null
  m.src = src
  m.len = src.length
  m.meter = meter
  return m
}

/** Charge a matcher's remaining steps and hand it back to its program (without keeping the subject alive). */
const release = (m: Matcher): void => {
  m.src = ""
  m.program.spare = m
  m.flush()
}

// ---------------------------------------------------------------------------------------------------------------
// Public operations

/** Lua's `posrelatI`: a 1-based start position from a possibly negative or out-of-range `init`. */
const startPosition = (init: IntegerArg, len: number): number => {
  if (init === undefined || init === null) return 1
  const n = typeof init === "bigint" ? (init > 0n ? Number.MAX_SAFE_INTEGER : -Number.MAX_SAFE_INTEGER) : init
  if (n > 0) return n
  if (n === 0) return 1
  if (n < -len) return 1
  return len + n + 1
}

/** The byte set that makes `find` use the matcher instead of a plain search. */
const hasSpecials = (pattern: string): boolean => {
  for (let i = 0; i < pattern.length; i++) {
    switch (pattern.charCodeAt(i)) {
      case C_CARET:
      case C_DOLLAR:
      case C_STAR:
      case C_PLUS:
      case C_QUESTION:
      case C_DOT:
      case C_LPAREN:
      case C_LBRACKET:
      case C_PERCENT:
      case C_DASH:
        return true
    }
  }
  return false
}

/** Search `s` for the first match of `program` at or after 0-based `init`; the matcher is left holding the match. */
const search = (m: Matcher, program: Program, init: number): { start: number; end: number } | null => {
  const len = m.len
  let s = init
  do {
    if (!program.anchored) {
      s = m.candidate(s)
      if (s < 0) return null
    }
    m.reset()
    const e = m.match(s, 0)
    if (e >= 0) return { start: s, end: e }
  } while (s++ < len && !program.anchored)
  return null
}

/**
 * `string.find(s, pattern, init, plain)`: the 1-based inclusive bounds of the first match and its captures, or null.
 * `plain` (or a pattern without special characters) searches for the pattern text literally.
 */
export const find = (
  s: string,
  pattern: string,
  init: IntegerArg,
  plain: boolean,
  meter: PatternMeter,
): FindResult | null => {
  const len = s.length
  const start = startPosition(init, len) - 1
  if (start > len) return null
  if (plain || !hasSpecials(pattern)) {
    const at = s.indexOf(pattern, start)
    meter.charge(1 + (((at < 0 ? len : at) - start) >>> 4))
    return at < 0 ? null : { start: at + 1, end: at + pattern.length, captures: [] }
  }
  const program = programFor(pattern)
  const m = acquire(program, s, meter)
  try {
    const found = search(m, program, start)
    if (found === null) return null
    return { start: found.start + 1, end: found.end, captures: m.captures(found.start, found.end, false) }
  } finally {
    release(m)
  }
}

/** `string.match(s, pattern, init)`: the captures of the first match (the whole match when none), or null. */
export const match = (s: string, pattern: string, init: IntegerArg, meter: PatternMeter): Array<Capture> | null => {
  const len = s.length
  const start = startPosition(init, len) - 1
  if (start > len) return null
  const program = programFor(pattern)
  const m = acquire(program, s, meter)
  try {
    const found = search(m, program, start)
    return found === null ? null : m.captures(found.start, found.end, true)
  } finally {
    release(m)
  }
}

/**
 * A `string.gmatch(s, pattern, init)` traversal: each {@link GmatchState.next} finds the next match, whose values are
 * then read with {@link GmatchState.count} and {@link GmatchState.value} (no array is made for them). A leading `^`
 * matches a literal `^`, as in Lua 5.4; an empty match directly at the end of the previous match is skipped.
 */
export class GmatchState {
  private readonly m: Matcher
  private readonly len: number
  private src: number
  private lastMatch = -1
  private start = 0
  private end = 0

  constructor(s: string, pattern: string, meter: PatternMeter, init?: IntegerArg) {
    const len = s.length
    this.len = len
    const src = startPosition(init, len) - 1
    this.src = src > len ? len + 1 : src
    this.m = new Matcher(s, literalProgramFor(pattern), meter)
  }

  /** Find the next match; false when there are no more. */
  next(): boolean {
    const m = this.m
    const len = this.len
    try {
      while (this.src <= len) {
        const src = m.candidate(this.src)
        if (src < 0) {
          this.src = len + 1
          break
        }
        this.src = src
        m.reset()
        const e = m.match(src, 0)
        if (e >= 0 && e !== this.lastMatch) {
          this.start = src
          this.end = e
          this.src = this.lastMatch = e
          return true
        }
        this.src = src + 1
      }
      return false
    } finally {
      m.flush()
    }
  }

  /** How many values the current match gives: its captures, or 1 (the whole match) when the pattern has none. */
  count(): number {
    const level = this.m.level
    return level === 0 ? 1 : level
  }

  /** Value `k` (0-based) of the current match: a capture, or the whole match when the pattern has none. */
  value(k: number): Capture {
    return this.m.capture(k, this.start, this.end)
  }

  /** Every value of the current match. */
  values(): Array<Capture> {
    return this.m.captures(this.start, this.end, true)
  }
}

/**
 * `string.gmatch(s, pattern, init)`: an iterator that returns the captures of each successive match (the whole
 * match when none) and null when there are no more (see {@link GmatchState}).
 */
export const gmatch = (
  s: string,
  pattern: string,
  meter: PatternMeter,
  init?: IntegerArg,
): (() => Array<Capture> | null) => {
  const state = new GmatchState(s, pattern, meter, init)
  return () => (state.next() ? state.values() : null)
}

/** One piece of a parsed replacement string. */
type ReplacementPiece = string | { readonly capture: number } | { readonly error: string }

/** Split a replacement string into literal text, capture references (`%0`–`%9`) and misuses of `%`. */
const parseReplacement = (repl: string): Array<ReplacementPiece> => {
  const pieces: Array<ReplacementPiece> = []
  let from = 0
  for (;;) {
    const at = repl.indexOf("%", from)
    if (at < 0) break
    if (at > from) pieces.push(repl.slice(from, at))
    const c = repl.charCodeAt(at + 1)
    if (c === C_PERCENT) pieces.push("%")
    else if (c >= 48 && c <= 57) pieces.push({ capture: c - 48 })
    else {
      pieces.push({ error: "invalid use of '%' in replacement string" })
      break
    }
    from = at + 2
  }
  if (from < repl.length) pieces.push(repl.slice(from))
  return pieces
}

/** Expand a parsed replacement string for the match `s..e`. */
const expandReplacement = (
  m: Matcher,
  pieces: ReadonlyArray<ReplacementPiece>,
  s: number,
  e: number,
  before: number,
): string => {
  let out = ""
  const check = m.meter.checkLength
  for (const piece of pieces) {
    let text: string
    if (typeof piece === "string") text = piece
    else if ("error" in piece) throw new PatternError(piece.error)
    else if (piece.capture === 0) text = m.src.slice(s, e)
    else {
      const value = m.capture(piece.capture - 1, s, e)
      text = typeof value === "number" ? String(value) : value
    }
    if (check !== undefined) check(before + out.length + text.length)
    out += text
  }
  return out
}

/**
 * `string.gsub(s, pattern, repl, n)`: `[result, count]`. `repl` is a replacement string (`%0`–`%9`, `%%`) or a
 * callback given the captures of each match (the whole match when none) that returns the replacement, or
 * null/undefined to keep the match. At most `maxN` replacements are made (all when absent).
 */
export const gsub = (
  s: string,
  pattern: string,
  repl: Replacement,
  maxN: IntegerArg,
  meter: PatternMeter,
): [string, number] => {
  const len = s.length
  const max =
    maxN === undefined || maxN === null
      ? len + 1
      : typeof maxN === "bigint"
        ? maxN > 0n
          ? Number.MAX_SAFE_INTEGER
          : 0
        : maxN
  const program = programFor(pattern)
  const m = acquire(program, s, meter)
  const constant = typeof repl === "string" && repl.indexOf("%") < 0 ? repl : null
  let pieces: Array<ReplacementPiece> | null = null
  let out = ""
  let copied = 0 // subject text before this index is already in `out`
  let src = 0
  let lastMatch = -1
  let count = 0
  try {
    while (count < max) {
      if (!program.anchored) {
        const next = m.candidate(src)
        if (next < 0) break
        src = next
      }
      m.reset()
      const e = m.match(src, 0)
      if (e >= 0 && e !== lastMatch) {
        count++
        let replacement: string | null | undefined
        if (constant !== null) replacement = constant
        else if (typeof repl === "string") {
          if (pieces === null) pieces = parseReplacement(repl)
          replacement = expandReplacement(m, pieces, src, e, out.length + (src - copied))
        } else replacement = repl(m.captures(src, e, true))
        if (replacement !== null && replacement !== undefined) {
          if (meter.checkLength !== undefined)
            meter.checkLength(out.length + (src - copied) + replacement.length + (len - e))
          out += s.slice(copied, src) + replacement
          copied = e
        }
        src = lastMatch = e
      } else if (src < len) src++
      else break
      if (program.anchored) break
    }
  } finally {
    release(m)
  }
  if (copied === 0 && out === "") return [s, count]
  return [out + s.slice(copied), count]
}
