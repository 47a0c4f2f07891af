/**
 * The pattern parser of the metered matcher: a JavaScript regular expression source (already accepted by the host
 * engine, so it is well formed) becomes a tree of terms. Every single-character atom other than a plain literal
 * keeps its source text, which the host engine evaluates one character at a time (see `characters.ts`), so
 * classes, escapes, property escapes and case folding mean exactly what they mean to the host.
 *
 * `parsePattern` returns `undefined` for syntax this matcher does not take (a `v`-flag class that can match a
 * string, modifiers, very deep nesting, escaped group names): those patterns keep running on the host engine.
 */

/** A node of a parsed pattern. */
export type Node =
  | { readonly kind: "char"; readonly code: number }
  | { readonly kind: "set"; readonly source: string }
  | { readonly kind: "dot" }
  | { readonly kind: "seq"; readonly items: readonly Node[] }
  | { readonly kind: "alt"; readonly alternatives: readonly Node[] }
  | { readonly kind: "group"; readonly index: number; readonly body: Node }
  | { readonly kind: "look"; readonly behind: boolean; readonly negate: boolean; readonly body: Node }
  | { readonly kind: "backref"; readonly index: number }
  | { readonly kind: "assert"; readonly assertion: "^" | "$" | "b" | "B" }
  | {
      readonly kind: "repeat"
      readonly min: number
      readonly max: number
      readonly greedy: boolean
      readonly body: Node
      /** The capture groups inside `body`: `firstGroup` up to, not including, `endGroup`. */
      readonly firstGroup: number
      readonly endGroup: number
    }

/** A parsed pattern: its tree, its capture count (group 0 included) and its group names by index. */
export interface Pattern {
  readonly root: Node
  readonly groups: number
  readonly names: ReadonlyArray<string | undefined>
  /** True when the pattern has a backreference or a lookaround. */
  readonly backtracks: boolean
}

/** Deepest nesting of groups taken; deeper patterns stay on the host engine. */
const MAX_NESTING = 100

class Unsupported extends Error {}

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= "0" && c <= "9"
const isOctal = (c: string | undefined): boolean => c !== undefined && c >= "0" && c <= "7"
const isHex = (c: string | undefined): boolean => c !== undefined && /^[0-9a-fA-F]$/.test(c)
const isLetter = (c: string | undefined): boolean => c !== undefined && /^[a-zA-Z]$/.test(c)
const SYNTAX = "^$\\.*+?()[]{}|/"

/** The capture count and names, found before parsing (a backreference may name a later group). */
const scanGroups = (
  source: string,
  sets: boolean,
): { count: number; names: Map<string, number>; byIndex: (string | undefined)[] } => {
  const names = new Map<string, number>()
  const byIndex: (string | undefined)[] = [undefined]
  let count = 1
  /** How many classes deep (with `v`, classes nest). */
  let inClass = 0
  for (let i = 0; i < source.length; i++) {
    const c = source[i]
    if (c === "\\") i++
    else if (inClass > 0) inClass += c === "]" ? -1 : c === "[" && sets ? 1 : 0
    else if (c === "[") inClass = 1
    else if (c === "(") {
      if (source[i + 1] !== "?") {
        byIndex.push(undefined)
        count++
      } else if (source[i + 2] === "<" && source[i + 3] !== "=" && source[i + 3] !== "!") {
        const end = source.indexOf(">", i + 3)
        const name = source.slice(i + 3, end)
        if (end < 0 || name.includes("\\")) throw new Unsupported()
        names.set(name, count)
        byIndex.push(name)
        count++
      }
    }
  }
  return { count, names, byIndex }
}

/** Parse `source` under `flags`, or `undefined` when the matcher does not take it. */
export const parsePattern = (source: string, flags: string): Pattern | undefined => {
  try {
    return new Parser(source, flags).parse()
  } catch {
    // Unsupported syntax, or a form this parser misreads: the host engine keeps the pattern.
    return undefined
  }
}

class Parser {
  private pos = 0
  private group = 1
  private depth = 0
  private backtracks = false
  /** The capture groups open at the position (a backreference to one of them always matches the empty string). */
  private readonly open: number[] = []
  private readonly unicode: boolean
  /** The `v` flag: classes nest and take set operations. */
  private readonly sets: boolean
  private readonly ignoreCase: boolean
  private readonly scanned: ReturnType<typeof scanGroups>

  constructor(
    private readonly src: string,
    flags: string,
  ) {
    this.sets = flags.includes("v")
    this.unicode = this.sets || flags.includes("u")
    this.ignoreCase = flags.includes("i")
    this.scanned = scanGroups(src, this.sets)
  }

  parse(): Pattern {
    const root = this.disjunction()
    if (this.pos < this.src.length) throw new Unsupported()
    return { root, groups: this.scanned.count, names: this.scanned.byIndex, backtracks: this.backtracks }
  }

  private disjunction(): Node {
    if (++this.depth > MAX_NESTING) throw new Unsupported()
    const alternatives: Node[] = [this.alternative()]
    while (this.src[this.pos] === "|") {
      this.pos++
      alternatives.push(this.alternative())
    }
    this.depth--
    return alternatives.length === 1 ? alternatives[0]! : { kind: "alt", alternatives }
  }

  private alternative(): Node {
    const items: Node[] = []
    while (this.pos < this.src.length && this.src[this.pos] !== "|" && this.src[this.pos] !== ")") {
      items.push(this.term())
    }
    return items.length === 1 ? items[0]! : { kind: "seq", items }
  }

  private term(): Node {
    const src = this.src
    const c = src[this.pos]!
    if (c === "^" || c === "$") {
      this.pos++
      return { kind: "assert", assertion: c }
    }
    if (c === "\\" && (src[this.pos + 1] === "b" || src[this.pos + 1] === "B")) {
      this.pos += 2
      return { kind: "assert", assertion: src[this.pos - 1] as "b" | "B" }
    }
    if (c === "(" && src[this.pos + 1] === "?") {
      const behind = src[this.pos + 2] === "<" && (src[this.pos + 3] === "=" || src[this.pos + 3] === "!")
      const ahead = src[this.pos + 2] === "=" || src[this.pos + 2] === "!"
      if (ahead || behind) {
        const negate = src[this.pos + (behind ? 3 : 2)] === "!"
        this.pos += behind ? 4 : 3
        const body = this.disjunction()
        this.close()
        this.backtracks = true
        const look: Node = { kind: "look", behind, negate, body }
        // Annex B: a lookahead may be quantified without the u flag.
        return ahead && !this.unicode ? this.quantified(look, this.group) : look
      }
    }
    const first = this.group
    return this.quantified(this.atom(), first)
  }

  private close(): void {
    if (this.src[this.pos] !== ")") throw new Unsupported()
    this.pos++
  }

  /** A quantifier after `body`, if there is one (`firstGroup` is the first capture group inside `body`). */
  private quantified(body: Node, firstGroup: number): Node {
    const src = this.src
    const c = src[this.pos]
    let min: number
    let max: number
    if (c === "*" || c === "+" || c === "?") {
      min = c === "+" ? 1 : 0
      max = c === "?" ? 1 : Infinity
      this.pos++
    } else if (c === "{") {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(src.slice(this.pos, this.pos + 40))
      if (m === null) return body
      min = Number(m[1])
      max = m[2] === undefined ? min : m[3] === "" ? Infinity : Number(m[3])
      this.pos += m[0].length
    } else return body
    let greedy = true
    if (src[this.pos] === "?") {
      greedy = false
      this.pos++
    }
    return { kind: "repeat", min, max, greedy, body, firstGroup, endGroup: this.group }
  }

  private atom(): Node {
    const src = this.src
    const c = src[this.pos]!
    if (c === "(") {
      let index = -1
      if (src[this.pos + 1] !== "?") this.pos++
      else if (src[this.pos + 2] === ":") this.pos += 3
      else if (src[this.pos + 2] === "<") this.pos = src.indexOf(">", this.pos) + 1
      else throw new Unsupported()
      if (src[this.pos - 1] !== ":") index = this.group++
      this.open.push(index)
      const body = this.disjunction()
      this.open.pop()
      this.close()
      return index < 0 ? body : { kind: "group", index, body }
    }
    if (c === ".") {
      this.pos++
      return { kind: "dot" }
    }
    if (c === "[") return this.set(this.classEnd())
    if (c === "\\") return this.escape()
    // A pattern character: a code unit, or a code point with the u flag.
    const code = this.unicode ? src.codePointAt(this.pos)! : src.charCodeAt(this.pos)
    const width = code > 0xffff ? 2 : 1
    this.pos += width
    if (!this.ignoreCase) return { kind: "char", code }
    const text = src.slice(this.pos - width, this.pos)
    return { kind: "set", source: SYNTAX.includes(text) ? `\\${text}` : text }
  }

  /** A single-character atom from `pos` to `end`, evaluated by the host as `source` (by default its own text). */
  private set(end: number, source = this.src.slice(this.pos, end)): Node {
    this.pos = end
    return { kind: "set", source }
  }

  /**
   * The end of the character class starting at `pos`. With `v`, classes nest; a class that can match a string
   * (`\\q{...}`, a property of strings) is not one character, and stays with the host engine.
   */
  private classEnd(): number {
    const src = this.src
    let depth = 0
    for (let i = this.pos; i < src.length; i++) {
      if (src[i] === "\\") {
        if (this.sets && (src[i + 1] === "q" || ((src[i + 1] === "p" || src[i + 1] === "P") && stringProperty(src, i))))
          throw new Unsupported()
        i++
      } else if (src[i] === "[" && (depth === 0 || this.sets)) depth++
      else if (src[i] === "]" && --depth === 0) return i + 1
    }
    throw new Unsupported()
  }

  private escape(): Node {
    const src = this.src
    const start = this.pos
    const c = src[start + 1]
    if (c === undefined) throw new Unsupported()
    if (c >= "1" && c <= "9") {
      let end = start + 1
      while (isDigit(src[end])) end++
      const n = Number(src.slice(start + 1, end))
      if (n < this.scanned.count) {
        this.pos = end
        return this.backref(n)
      }
      if (this.unicode) throw new Unsupported()
      // Annex B: a legacy octal escape, or `\8`/`\9` for the digit itself.
      return this.set(this.octalEnd(start))
    }
    if (c === "0") return this.set(this.unicode ? start + 2 : this.octalEnd(start))
    if (c === "k" && (this.unicode || this.scanned.names.size > 0)) {
      const end = src.indexOf(">", start)
      const index = this.scanned.names.get(src.slice(start + 3, end))
      if (src[start + 2] !== "<" || end < 0 || index === undefined) throw new Unsupported()
      this.pos = end + 1
      return this.backref(index)
    }
    if (c === "c") {
      // Annex B: `\c` not followed by a letter is a backslash, and the `c` is read next.
      if (!isLetter(src[start + 2])) return this.unicode ? unsupported() : this.set(start + 1, "\\\\")
      return this.set(start + 3)
    }
    if (c === "x") return this.set(isHex(src[start + 2]) && isHex(src[start + 3]) ? start + 4 : start + 2)
    if (c === "u") return this.set(this.unicodeEscapeEnd(start))
    if ((c === "p" || c === "P") && this.unicode) {
      if (this.sets && stringProperty(src, start)) throw new Unsupported()
      const end = src.indexOf("}", start)
      if (end < 0) throw new Unsupported()
      return this.set(end + 1)
    }
    // A class escape, a control escape or an identity escape; an astral identity escape takes its whole pair.
    const width = (src.codePointAt(start + 1) ?? 0) > 0xffff && this.unicode ? 2 : 1
    return this.set(start + 1 + width)
  }

  /** A backreference to group `index`; inside that group it is the empty string (as the host engine has it). */
  private backref(index: number): Node {
    this.backtracks = true
    return this.open.includes(index) ? { kind: "seq", items: [] } : { kind: "backref", index }
  }

  /** The end of a legacy octal escape (`\0`-`\377`), or of `\8`/`\9`, starting at `start`. */
  private octalEnd(start: number): number {
    const src = this.src
    if (!isOctal(src[start + 1])) return start + 2
    let end = start + 2
    const limit = src[start + 1]! <= "3" ? start + 4 : start + 3
    while (end < limit && isOctal(src[end])) end++
    return end
  }

  /** The end of a `\u` escape (with the u flag: `\u{...}` or a surrogate pair of escapes as one). */
  private unicodeEscapeEnd(start: number): number {
    const src = this.src
    const hex4 = (i: number): boolean => isHex(src[i]) && isHex(src[i + 1]) && isHex(src[i + 2]) && isHex(src[i + 3])
    if (this.unicode && src[start + 2] === "{") return src.indexOf("}", start) + 1
    if (!hex4(start + 2)) {
      if (this.unicode) throw new Unsupported()
      return start + 2
    }
    const unit = Number.parseInt(src.slice(start + 2, start + 6), 16)
    if (this.unicode && unit >= 0xd800 && unit <= 0xdbff && src.startsWith("\\u", start + 6) && hex4(start + 8)) {
      const low = Number.parseInt(src.slice(start + 8, start + 12), 16)
      if (low >= 0xdc00 && low <= 0xdfff) return start + 12
    }
    return start + 6
  }
}

/** True when the `\\p{...}` at `at` names a property of strings (only with `v`; it can match several characters). */
const stringProperty = (src: string, at: number): boolean =>
  /^\\p\{(?:Basic_Emoji|Emoji_Keycap_Sequence|RGI_Emoji(?:_Modifier_Sequence|_Flag_Sequence|_Tag_Sequence|_ZWJ_Sequence)?)\}/.test(
    src.slice(at, at + 40),
  )

const unsupported = (): never => {
  throw new Unsupported()
}
