/**
 * Redaction: the host's credentials never reach a tool result or a failure message, in any encoding a server could
 * plausibly echo them in.
 *
 * One credential is matched character by character, each character in either case (a server may fold the case of what
 * it echoes) and raw or encoded the way servers echo text: percent-encoded (either hex case, or twice), `+` for a
 * space, JSON (`\u002f`, `\/`, `\"`), HTML (`&#47;`, `&#x2F;`, `&amp;`). The forms mix freely, so a partly encoded
 * echo is caught too. Base64 (standard and URL alphabets, at any byte alignment, so an echo of
 * `Authorization: Bearer <token>` encoded whole is caught; of the raw, the case-folded and the percent-encoded
 * credential) and hex are matched as whole strings. A credential made of digits is matched as the number a server
 * would print after parsing it too (leading zeros gone), and in decoded JSON as a number equal to it. In decoded JSON
 * a credential split across strings, numbers and keys (in document order) is caught as well. A credential of fewer
 * than four characters is matched only as a whole word. A text cut before it is redacted may end in the first characters of a credential;
 * `tail` says how many characters to drop from such a cut so that no prefix survives.
 */

/** What replaces a credential. */
const marker = "[redacted]"

/** Redacts the credentials of one request. */
export interface Redactor {
  /** False when there is nothing to redact. */
  readonly active: boolean
  /** `text` with every credential replaced by `[redacted]`. */
  readonly text: (text: string) => string
  /**
   * `value` (decoded JSON, owned by the caller) with every string, number and object key redacted, in place (a number
   * that holds a credential becomes the string `[redacted]`); a string or number at the root is returned redacted.
   */
  readonly value: (value: unknown) => unknown
  /** The longest encoded form of a credential: drop this many characters from the end of a text cut mid-stream. */
  readonly tail: number
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&")

/** A hex digit that matches either case. */
const hexDigit = (digit: string): string =>
  /[a-f]/i.test(digit) ? `[${digit.toLowerCase()}${digit.toUpperCase()}]` : digit

const hex = (value: number, width: number): string =>
  [...value.toString(16).padStart(width, "0")].map(hexDigit).join("")

const encoder = new TextEncoder()

const jsonEscapes: Readonly<Record<string, string>> = { "/": "\\\\/", '"': '\\\\"', "\\": "\\\\\\\\" }
const htmlEntities: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
}

/** The forms of one character exactly as written, and the length of its longest form. */
const exactForms = (char: string): { readonly forms: ReadonlyArray<string>; readonly longest: number } => {
  const code = char.codePointAt(0)!
  const bytes = [...encoder.encode(char)]
  const forms = [
    escapeRegExp(char),
    bytes.map((b) => `%${hex(b, 2)}`).join(""),
    bytes.map((b) => `%25${hex(b, 2)}`).join(""),
    char.length === 1 ? `\\\\u${hex(code, 4)}` : `\\\\u${hex(char.charCodeAt(0), 4)}\\\\u${hex(char.charCodeAt(1), 4)}`,
    `&#${code};`,
    `&#[xX]${hex(code, 0)};`,
  ]
  if (char === " ") forms.push("\\+")
  if (jsonEscapes[char]) forms.push(jsonEscapes[char])
  if (htmlEntities[char]) forms.push(escapeRegExp(htmlEntities[char]))
  return { forms, longest: Math.max(5 * bytes.length, 12, `&#${code};`.length) }
}

/** A text as written, in lower case and in upper case (a case mapping may change its length: "ß" → "SS"). */
const caseVariants = (text: string): ReadonlyArray<string> => [
  ...new Set([text, text.toLowerCase(), text.toUpperCase()]),
]

/**
 * The pattern of one character in either case and in any of its textual encodings (the case is folded before the
 * encoding, as a server that upper-cases a text and then escapes it does), and the length of its longest form.
 */
const characterPattern = (char: string): { readonly pattern: string; readonly longest: number } => {
  const variants = caseVariants(char)
  const single = variants.filter((v) => [...v].length === 1)
  // One flat alternation (the raw characters as one class) matches faster than one group per variant.
  const forms = new Set<string>()
  let longest = 0
  for (const variant of variants) {
    const pieces = [...variant].map(exactForms)
    longest = Math.max(
      longest,
      pieces.reduce((n, p) => n + p.longest, 0),
    )
    if (pieces.length > 1) forms.add(pieces.map((p) => `(?:${p.forms.join("|")})`).join(""))
    else for (const form of pieces[0]!.forms.slice(single.length > 1 ? 1 : 0)) forms.add(form)
  }
  const raw = single.length > 1 ? [`[${single.map(escapeRegExp).join("")}]`] : []
  return { pattern: `(?:${[...raw, ...forms].join("|")})`, longest }
}

/**
 * The base64 characters that depend only on `bytes` when they are encoded `offset` bytes into a longer stream, in
 * both alphabets.
 */
const base64Cores = (bytes: Uint8Array): ReadonlyArray<string> => {
  const cores: string[] = []
  for (const offset of [0, 1, 2]) {
    const padded = new Uint8Array(offset + bytes.length + 2)
    padded.set(bytes, offset)
    const encoded = Buffer.from(padded).toString("base64")
    const first = Math.ceil((8 * offset) / 6)
    const end = Math.floor((8 * (offset + bytes.length)) / 6)
    const core = encoded.slice(first, end)
    cores.push(core, core.replace(/\+/g, "-").replace(/\//g, "_"))
  }
  return cores
}

/** Credentials shorter than this are only matched where no letter or digit touches them. */
const shortestFreeMatch = 4

/** Encoded whole-string forms shorter than this are not matched: they would hit ordinary text. */
const shortestWholeForm = 8

const inactive: Redactor = { active: false, text: (text) => text, value: (value) => value, tail: 0 }

/** Redactors of recently used credentials: building one costs about a millisecond per 100 credential characters. */
const recent = new Map<string, Redactor>()
const recentSize = 64

/** A redactor for these credentials (reused while they stay the same). Empty strings are ignored. */
export const make = (secrets: ReadonlyArray<string>): Redactor => {
  const unique = [...new Set(secrets.filter((s) => s.length > 0))].sort((a, b) => b.length - a.length)
  if (unique.length === 0) return inactive
  const key = unique.join("\u0000")
  const known = recent.get(key)
  if (known) {
    recent.delete(key)
    recent.set(key, known)
    return known
  }
  const built = build(unique)
  if (recent.size >= recentSize) recent.delete(recent.keys().next().value!)
  recent.set(key, built)
  return built
}

/** A credential a JSON parser would read as a number (some services issue keys made of digits). */
const numberLike = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/

/** How much of a JSON value's text is matched at once when looking for credentials split across its strings. */
const windowChars = 1 << 16

const build = (unique: ReadonlyArray<string>): Redactor => {
  const alternatives: string[] = []
  const whole = new Set<string>()
  const numbers = new Set<number>()
  // A short credential is matched as a whole word, and a reprinted number as a whole number; a leaf's edge is such an
  // edge only when the leaf is matched alone, so with either every value takes the careful path.
  let careful = unique.some((secret) => secret.length < shortestFreeMatch)
  let tail = 0
  let shortest = Number.POSITIVE_INFINITY
  for (const secret of unique) {
    shortest = Math.min(shortest, secret.length)
    let longest = 0
    const parts: string[] = []
    for (const char of secret) {
      const piece = characterPattern(char)
      parts.push(piece.pattern)
      longest += piece.longest
    }
    // A credential of one to three characters would match inside ordinary words: it is matched as a whole word
    // (a percent-escape before it counts as a boundary).
    alternatives.push(
      secret.length < shortestFreeMatch
        ? `(?:(?<![A-Za-z0-9])|(?<=%[0-9A-Fa-f]{2}))${parts.join("")}(?![A-Za-z0-9])`
        : parts.join(""),
    )
    tail = Math.max(tail, longest)
    // A numeric key a server parsed and printed again loses its leading zeros, and its last digits past 2^53.
    if (numberLike.test(secret)) {
      const parsed = Number(secret)
      numbers.add(parsed)
      const printed = String(parsed)
      if (printed !== secret && printed.length >= shortestFreeMatch) {
        alternatives.push(`(?<![0-9.])${escapeRegExp(printed)}(?![0-9])`)
        tail = Math.max(tail, printed.length)
        shortest = Math.min(shortest, printed.length)
        careful = true
      }
    }
    const forms: string[] = []
    for (const variant of caseVariants(secret)) {
      const bytes = encoder.encode(variant)
      const hexText = Buffer.from(bytes).toString("hex")
      // Base64 of the percent-encoded form too: a server that encodes a whole request URL (query key included).
      const escaped = encodeURIComponent(variant)
      forms.push(...base64Cores(bytes), hexText, hexText.toUpperCase())
      if (escaped !== variant) forms.push(...base64Cores(encoder.encode(escaped)))
    }
    for (const form of forms) if (form.length >= shortestWholeForm && form !== secret) whole.add(form)
  }
  for (const form of whole) shortest = Math.min(shortest, form.length)
  const wholeForms = [...whole].sort((a, b) => b.length - a.length).map(escapeRegExp)
  // Two patterns: irregexp matches each far faster than their union (whose first characters are most letters).
  const patterns = [alternatives, wholeForms]
    .filter((list) => list.length > 0)
    .map((list) => new RegExp(list.join("|"), "g"))
  const text = (input: string): string => {
    if (input.length < shortest) return input
    let output = input
    for (const pattern of patterns) {
      pattern.lastIndex = 0
      if (pattern.test(output)) output = output.replace(pattern, marker)
    }
    return output
  }
  /** Where the credentials are in `input`: [start, end) pairs, ordered by start. */
  const matches = (input: string): number[] => {
    if (input.length < shortest) return []
    const found: Array<readonly [number, number]> = []
    for (const pattern of patterns) {
      pattern.lastIndex = 0
      for (let match = pattern.exec(input); match; match = pattern.exec(input)) {
        if (match[0].length === 0) pattern.lastIndex++
        else found.push([match.index, match.index + match[0].length])
      }
    }
    return found.sort((x, y) => x[0] - y[0]).flat()
  }
  const test = (input: string): boolean =>
    input.length >= shortest &&
    patterns.some((pattern) => {
      pattern.lastIndex = 0
      return pattern.test(input)
    })
  const value = (root: unknown): unknown => {
    const box = [root]
    if (careful || holdsCredential(box, test, numbers, tail)) redactValue(box, text, matches, numbers, tail)
    return box[0]
  }
  return { active: true, text, value, tail: tail + 16 }
}

/** An object or array of a decoded JSON value. */
type Holder = Record<string, unknown> | unknown[]

/**
 * Call `leaf` for every string, number and object key under `box[0]`, in document order (a key before its value),
 * without recursion; stops early when `leaf` returns true.
 */
const walk = (
  box: unknown[],
  leaf: (holder: Holder, slot: string | number, isKey: boolean, original: string | number) => boolean | void,
): void => {
  const stack: Array<{ node: Holder; keys: string[] | undefined; next: number }> = []
  const visit = (holder: Holder, slot: string | number, item: unknown): boolean | void => {
    if (typeof item === "string" || typeof item === "number") return leaf(holder, slot, false, item)
    if (typeof item === "object" && item !== null)
      stack.push({ node: item as Holder, keys: Array.isArray(item) ? undefined : Object.keys(item), next: 0 })
  }
  if (visit(box, 0, box[0])) return
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!
    const size = frame.keys ? frame.keys.length : (frame.node as unknown[]).length
    if (frame.next >= size) {
      stack.pop()
      continue
    }
    const index = frame.next++
    if (frame.keys) {
      const key = frame.keys[index]!
      if (leaf(frame.node, key, true, key) || visit(frame.node, key, (frame.node as Record<string, unknown>)[key]))
        return
    } else if (visit(frame.node, index, (frame.node as unknown[])[index])) return
  }
}

/**
 * Whether anything under `box[0]` may hold a credential: a number equal to a numeric one, or a match in the text of
 * all leaves joined in document order (matched a window at a time, windows overlapping by `tail`). Cheap: no leaf is
 * redacted or remembered, so a value without credentials costs one walk and one pass of the pattern.
 */
const holdsCredential = (
  box: unknown[],
  test: (input: string) => boolean,
  numbers: ReadonlySet<number>,
  tail: number,
): boolean => {
  let joined = ""
  // Document order without callbacks: children are pushed in reverse (an object's keys as strings before values).
  const stack: unknown[] = [box[0]]
  while (stack.length > 0) {
    const item = stack.pop()
    if (typeof item === "string") joined += item
    else if (typeof item === "number") {
      if (numbers.has(item)) return true
      joined += String(item)
    } else if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--) stack.push(item[i])
    } else if (typeof item === "object" && item !== null) {
      const keys = Object.keys(item)
      for (let i = keys.length - 1; i >= 0; i--) stack.push((item as Record<string, unknown>)[keys[i]!], keys[i])
    }
    if (joined.length >= windowChars) {
      if (test(joined)) return true
      joined = joined.slice(-tail)
    }
  }
  return test(joined)
}

/** One string, number or object key of a decoded JSON value, redacted on its own. */
interface Leaf {
  readonly holder: Holder
  /** The key or index that holds the value, or the key itself. */
  readonly slot: string | number
  readonly isKey: boolean
  readonly original: string | number
  /** The leaf's text, redacted on its own. */
  readonly text: string
  /** Where it starts in the text of all leaves in document order. */
  readonly start: number
  /** Ranges of `text` (local offsets) that belong to a credential split across leaves. */
  readonly hits: number[]
}

/**
 * Redact every string, number and object key under `box[0]`, in place: each on its own, then the text of all of them
 * in document order (keys before their values), so that a credential a server split across keys and values
 * (`{"Qz9-XKWV": "+tqjx…"}`, `["Qz", "9-", …]`) is caught too; every leaf that holds a piece of one loses that piece.
 * The joined text is matched a window at a time (windows overlap by `tail`, the longest form of a credential), so
 * its memory stays bounded whatever the size of the value.
 */
const redactValue = (
  box: unknown[],
  text: (input: string) => string,
  matches: (input: string) => number[],
  numbers: ReadonlySet<number>,
  tail: number,
): void => {
  const renames = new Map<Record<string, unknown>, Map<string, string>>()
  const finish = (leaf: Leaf): void => {
    let replaced = leaf.text
    if (leaf.hits.length > 0) {
      const ranges = merged(leaf.hits)
      let out = ""
      let at = 0
      for (let i = 0; i < ranges.length; i += 2) {
        out += `${leaf.text.slice(at, ranges[i])}${marker}`
        at = ranges[i + 1]!
      }
      replaced = out + leaf.text.slice(at)
    }
    if (typeof leaf.original === "number") {
      if (replaced === String(leaf.original)) return
      replaced = marker
    } else if (replaced === leaf.original) return
    if (leaf.isKey) {
      const holder = leaf.holder as Record<string, unknown>
      let renamed = renames.get(holder)
      if (!renamed) renames.set(holder, (renamed = new Map()))
      renamed.set(leaf.slot as string, replaced)
    } else if (Array.isArray(leaf.holder)) leaf.holder[leaf.slot as number] = replaced
    else
      Object.defineProperty(leaf.holder, leaf.slot, {
        value: replaced,
        writable: true,
        enumerable: true,
        configurable: true,
      })
  }

  let window: Leaf[] = []
  /** Where the window's text starts: inside its first leaf when that leaf began before the last `tail` characters. */
  let windowStart = 0
  let position = 0
  const scan = (last: boolean): void => {
    if (window.length > 1) {
      const head = window[0]!
      const joined =
        head.text.slice(windowStart - head.start) +
        window
          .slice(1)
          .map((leaf) => leaf.text)
          .join("")
      const found = matches(joined)
      let first = 0
      for (let m = 0; m < found.length; m += 2) {
        const from = windowStart + found[m]!
        const to = windowStart + found[m + 1]!
        while (first < window.length && window[first]!.start + window[first]!.text.length <= from) first++
        // A match inside one leaf was redacted with the leaf already; only a split one is recorded.
        const only = window[first]!
        if (to <= only.start + only.text.length) continue
        for (let i = first; i < window.length && window[i]!.start < to; i++) {
          const leaf = window[i]!
          leaf.hits.push(Math.max(0, from - leaf.start), Math.min(leaf.text.length, to - leaf.start))
        }
      }
    }
    // The next window starts `tail` characters back: a credential that starts there is whole in it.
    const carried = last ? position : Math.max(windowStart, position - tail)
    let keep = last ? window.length : 0
    while (keep < window.length && window[keep]!.start + window[keep]!.text.length <= carried) keep++
    for (let i = 0; i < keep; i++) finish(window[i]!)
    window = window.slice(keep)
    windowStart = window.length > 0 ? Math.max(window[0]!.start, carried) : position
  }
  const add = (holder: Holder, slot: string | number, isKey: boolean, original: string | number): void => {
    const own =
      typeof original === "number" ? (numbers.has(original) ? marker : text(String(original))) : text(original)
    // An empty text holds no piece of a credential (and is not kept, so the window stays bounded).
    if (own === "") return
    window.push({ holder, slot, isKey, original, text: own, start: position, hits: [] })
    position += own.length
    if (position - windowStart >= windowChars + tail) scan(false)
  }

  walk(box, add)
  scan(true)

  // Keys that hold a credential: rebuild each object in order (defineProperty, so "__proto__" stays a key).
  for (const [record, renamed] of renames) {
    const entries = Object.keys(record).map((key) => [renamed.get(key) ?? key, record[key]] as const)
    for (const key of Object.keys(record)) delete record[key]
    for (const [key, item] of entries)
      Object.defineProperty(record, key, { value: item, writable: true, enumerable: true, configurable: true })
  }
}

/** Sorted, overlapping [start, end) pairs joined into disjoint ones. */
const merged = (ranges: number[]): number[] => {
  const pairs: Array<[number, number]> = []
  for (let i = 0; i < ranges.length; i += 2) pairs.push([ranges[i]!, ranges[i + 1]!])
  pairs.sort((a, b) => a[0] - b[0])
  const out: number[] = []
  for (const [from, to] of pairs) {
    if (out.length > 0 && from <= out[out.length - 1]!) out[out.length - 1] = Math.max(out[out.length - 1]!, to)
    else out.push(from, to)
  }
  return out
}
