/**
 * Redaction: the host's credentials never reach a tool result or a failure message, in any encoding a server could
 * plausibly echo them in.
 *
 * One credential is matched character by character, each character raw or encoded the way servers echo text:
 * percent-encoded (either hex case, or twice), `+` for a space, JSON (`\u002f`, `\/`, `\"`), HTML (`&#47;`, `&#x2F;`,
 * `&amp;`). The forms mix freely, so a partly encoded echo is caught too. Base64 (standard and URL alphabets, at any
 * byte alignment, so an echo of `Authorization: Bearer <token>` encoded whole is caught; of the raw and of the
 * percent-encoded credential) and hex are matched as whole strings. A credential of fewer than four characters is
 * matched only as a whole word. A text cut before it is redacted may end in the first characters of a credential;
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
   * `value` (decoded JSON, owned by the caller) with every string and every object key redacted, in place; strings
   * are returned redacted.
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

/** The pattern of one character in any of its textual encodings, and the length of its longest form. */
const characterPattern = (char: string): { readonly pattern: string; readonly longest: number } => {
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
  return { pattern: `(?:${forms.join("|")})`, longest: Math.max(5 * bytes.length, 12, `&#${code};`.length) }
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

const build = (unique: ReadonlyArray<string>): Redactor => {
  const alternatives: string[] = []
  const whole = new Set<string>()
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
    const bytes = encoder.encode(secret)
    const hexText = Buffer.from(bytes).toString("hex")
    // Base64 of the percent-encoded form too: a server that encodes a whole request URL (query key included).
    const escaped = encodeURIComponent(secret)
    const forms = [...base64Cores(bytes), hexText, hexText.toUpperCase()]
    if (escaped !== secret) forms.push(...base64Cores(encoder.encode(escaped)))
    for (const form of forms) if (form.length >= shortestWholeForm && form !== secret) whole.add(form)
  }
  for (const form of whole) shortest = Math.min(shortest, form.length)
  const wholeForms = [...whole].sort((a, b) => b.length - a.length).map(escapeRegExp)
  const pattern = new RegExp([...alternatives, ...wholeForms].join("|"), "g")
  const text = (input: string): string => {
    if (input.length < shortest) return input
    pattern.lastIndex = 0
    return pattern.test(input) ? input.replace(pattern, marker) : input
  }
  const value = (root: unknown): unknown => {
    if (typeof root === "string") return text(root)
    const stack: unknown[] = [root]
    while (stack.length > 0) {
      const node = stack.pop()
      if (Array.isArray(node)) {
        for (let i = 0; i < node.length; i++) {
          const item = node[i]
          if (typeof item === "string") node[i] = text(item)
          else if (typeof item === "object" && item !== null) stack.push(item)
        }
      } else if (typeof node === "object" && node !== null) {
        const record = node as Record<string, unknown>
        const keys = Object.keys(record)
        let renamed = false
        for (const key of keys) {
          const item = record[key]
          if (typeof item === "string") {
            const redacted = text(item)
            if (redacted !== item) record[key] = redacted
          } else if (typeof item === "object" && item !== null) stack.push(item)
          if (!renamed && text(key) !== key) renamed = true
        }
        // Keys that hold a credential: rebuild the object in order (defineProperty, so "__proto__" stays a key).
        if (renamed) {
          const entries = keys.map((key) => [text(key), record[key]] as const)
          for (const key of keys) delete record[key]
          for (const [key, item] of entries)
            Object.defineProperty(record, key, { value: item, writable: true, enumerable: true, configurable: true })
        }
      }
    }
    return root
  }
  return { active: true, text, value, tail: tail + 16 }
}
