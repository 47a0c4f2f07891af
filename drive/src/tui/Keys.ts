/**
 * Key encoding: the bytes an xterm-compatible terminal sends for a key with modifiers. Legacy encodings where
 * they exist (control characters, ESC prefix for alt/meta, CSI sequences with a modifier parameter for cursor and
 * function keys); combinations legacy encoding cannot express (ctrl+enter, shift+enter, ctrl+1, ...) use xterm's
 * modifyOtherKeys form `CSI 27 ; mod ; code ~`, which OpenCode's TUI enables.
 */

/** Modifier keys held with a key. */
export interface KeyModifiers {
  readonly ctrl?: boolean
  readonly alt?: boolean
  readonly shift?: boolean
  readonly meta?: boolean
}

/** Terminal modes that change key encoding. */
export interface KeyModes {
  /** DECCKM: cursor keys send `ESC O x` instead of `ESC [ x`. */
  readonly applicationCursorKeys?: boolean
}

/** The result of encoding: bytes, or why the key is unknown. */
export type Encoded = { readonly ok: true; readonly bytes: string } | { readonly ok: false; readonly error: string }

const ESC = "\x1b"
const CSI = "\x1b["

/** xterm's modifier parameter: 1 + shift + 2·alt + 4·ctrl + 8·meta. */
export const modifierParameter = (m: KeyModifiers): number =>
  1 + (m.shift ? 1 : 0) + (m.alt ? 2 : 0) + (m.ctrl ? 4 : 0) + (m.meta ? 8 : 0)

const cursorKeys: Record<string, string> = { up: "A", down: "B", right: "C", left: "D", home: "H", end: "F" }
const tildeKeys: Record<string, number> = {
  insert: 2,
  delete: 3,
  pageup: 5,
  pagedown: 6,
  f5: 15,
  f6: 17,
  f7: 18,
  f8: 19,
  f9: 20,
  f10: 21,
  f11: 23,
  f12: 24,
}
const ss3Function: Record<string, string> = { f1: "P", f2: "Q", f3: "R", f4: "S" }

const aliases: Record<string, string> = {
  return: "enter",
  esc: "escape",
  arrowup: "up",
  arrowdown: "down",
  arrowleft: "left",
  arrowright: "right",
  del: "delete",
  ins: "insert",
  pgup: "pageup",
  pgdn: "pagedown",
  pagedn: "pagedown",
  spacebar: "space",
  bs: "backspace",
}

/** Every named key `press` accepts (besides single characters). */
export const keyNames: ReadonlyArray<string> = [
  "enter",
  "tab",
  "escape",
  "backspace",
  "space",
  ...Object.keys(cursorKeys),
  ...Object.keys(tildeKeys),
  ...Object.keys(ss3Function),
]

const otherKeys = (code: number, m: KeyModifiers) => `${CSI}27;${modifierParameter(m)};${code}~`

const altPrefix = (m: KeyModifiers) => (m.alt || m.meta ? ESC : "")

const ctrlCharacter = (char: string): string | undefined => {
  const lower = char.toLowerCase()
  if (lower >= "a" && lower <= "z") return String.fromCharCode(lower.charCodeAt(0) - 96)
  const table: Record<string, string> = {
    "@": "\x00",
    "[": "\x1b",
    "\\": "\x1c",
    "]": "\x1d",
    "^": "\x1e",
    _: "\x1f",
    "?": "\x7f",
    " ": "\x00",
  }
  return table[char]
}

const encodeCharacter = (char: string, m: KeyModifiers): string => {
  if (m.ctrl) {
    const control = ctrlCharacter(char)
    if (control !== undefined && !m.shift) return altPrefix(m) + control
    return otherKeys(char.codePointAt(0)!, m)
  }
  const shifted = m.shift ? char.toUpperCase() : char
  return altPrefix(m) + shifted
}

/**
 * Split `"ctrl+shift+p"` style names into the key and its modifiers; a lone `"+"` is the plus key. Modifiers
 * named in the string are added to `modifiers`.
 */
export const parseCombination = (
  key: string,
  modifiers: KeyModifiers = {},
): { key: string; modifiers: KeyModifiers } => {
  if (key.length <= 1 || !key.includes("+")) return { key, modifiers }
  const parts = key.split("+")
  const last = parts.pop()!
  const base = last === "" ? "+" : last
  const found: { ctrl?: boolean; alt?: boolean; shift?: boolean; meta?: boolean } = { ...modifiers }
  for (const part of parts.filter((p) => p !== "")) {
    const name = part.toLowerCase()
    if (name === "ctrl" || name === "control") found.ctrl = true
    else if (name === "alt" || name === "option") found.alt = true
    else if (name === "shift") found.shift = true
    else if (name === "meta" || name === "cmd" || name === "super") found.meta = true
    else return { key, modifiers }
  }
  return { key: base, modifiers: found }
}

/** Encode one key press. */
export const encodeKey = (key: string, modifiers: KeyModifiers = {}, modes: KeyModes = {}): Encoded => {
  const parsed = parseCombination(key, modifiers)
  const m = parsed.modifiers
  if (Array.from(parsed.key).length === 1 && parsed.key !== " ")
    return { ok: true, bytes: encodeCharacter(parsed.key, m) }
  const lower = parsed.key.toLowerCase()
  const name = aliases[lower] ?? (parsed.key === " " ? "space" : lower)
  const modified = m.shift || m.alt || m.ctrl || m.meta
  const param = modifierParameter(m)
  if (name in cursorKeys) {
    const final = cursorKeys[name]
    if (modified) return { ok: true, bytes: `${CSI}1;${param}${final}` }
    return { ok: true, bytes: modes.applicationCursorKeys ? `${ESC}O${final}` : `${CSI}${final}` }
  }
  if (name in tildeKeys) {
    return { ok: true, bytes: modified ? `${CSI}${tildeKeys[name]};${param}~` : `${CSI}${tildeKeys[name]}~` }
  }
  if (name in ss3Function) {
    return { ok: true, bytes: modified ? `${CSI}1;${param}${ss3Function[name]}` : `${ESC}O${ss3Function[name]}` }
  }
  switch (name) {
    case "enter":
      if (m.ctrl || m.shift) return { ok: true, bytes: otherKeys(13, m) }
      return { ok: true, bytes: `${altPrefix(m)}\r` }
    case "tab":
      if (m.ctrl) return { ok: true, bytes: otherKeys(9, m) }
      if (m.shift) return { ok: true, bytes: `${altPrefix(m)}${CSI}Z` }
      return { ok: true, bytes: `${altPrefix(m)}\t` }
    case "escape":
      if (m.ctrl || m.shift) return { ok: true, bytes: otherKeys(27, m) }
      return { ok: true, bytes: `${altPrefix(m)}${ESC}` }
    case "backspace":
      if (m.shift) return { ok: true, bytes: otherKeys(127, m) }
      return { ok: true, bytes: `${altPrefix(m)}${m.ctrl ? "\x08" : "\x7f"}` }
    case "space":
      if (m.shift) return { ok: true, bytes: otherKeys(32, m) }
      return { ok: true, bytes: `${altPrefix(m)}${m.ctrl ? "\x00" : " "}` }
  }
  return {
    ok: false,
    error: `unknown key ${JSON.stringify(key)}; use a single character or one of: ${keyNames.join(", ")} (modifiers as press(key, { ctrl: true }) or "ctrl+key")`,
  }
}
