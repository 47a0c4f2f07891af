/**
 * The metered matcher against the host engine: generated patterns with backreferences and lookarounds, generated
 * subjects, every flag combination; each `exec` sequence (with `g`/`y`, until no match) must give the same
 * matches, captures, indices, groups and `lastIndex`.
 */
import { afterAll, beforeEach, describe, expect, it } from "vitest"
import { resetMeter, setWorkBudget } from "../src/runtime/meter.js"
import { meteredMatcher } from "../src/regexp/index.js"

beforeEach(() => {
  setWorkBudget()
  resetMeter(Infinity)
})

/** A small deterministic generator (mulberry32). */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

type Rng = () => number
const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!

/** Atoms: plain and escaped characters, classes, Annex B forms (octal, `\\c`, lone braces), property escapes, and
 * characters whose case folding differs between the `i` and `iu` modes. */
const ATOMS = [
  "[\\w--a]",
  "[[a-c]&&[b-d]]",
  "[\\p{L}--[a-z]]",
  "[^[ab]c]",
  "[\\q{ab}]",

  "\\0",
  "\\cJ",
  "\\c",
  "\\c1",
  "{",
  "}",
  "]",
  "a{,2}",
  "a{1",
  "\\k",
  "\\8",
  "\\101",
  "\\7",
  "\\18",
  "\\u{61}",
  "[\\b]",
  "\\p{L}",
  "\\P{Ll}",
  "\\p{Script=Greek}",
  "[^\\d\\s]",
  "[\\w-]",
  "[a-z\\d]",
  "\\u00e9",
  "\\xE9",
  "\\uD83D\\uDE00",
  "\\u{1F600}",
  "😀",
  "[😀a]",
  "\\-",
  "\\/",
  "\\$",
  "ß",
  "ẞ",
  "Σ",
  "σ",
  "ς",
  "ı",
  "İ",
  "K",
  "ǅ",
  "a",
  "b",
  "c",
  "A",
  ".",
  "[ab]",
  "[^a]",
  "[a-cA]",
  "\\w",
  "\\W",
  "\\s",
  "\\d",
  "[\\s\\S]",
  "\\u0061",
  "\\x62",
  "ſ",
  "k",
  "\\n",
  "é",
  "É",
  "\\.",
]
const QUANTIFIERS = ["*", "+", "?", "{2}", "{0,2}", "{1,3}", "{2,}", "*?", "+?", "??", "{1,2}?", "{0}"]

/** A random pattern: with `references`, one that uses a backreference or a lookaround; without, one that has none. */
const pattern = (rng: Rng, references: boolean): string => {
  let groups = 0
  const names: string[] = []
  const term = (depth: number): string => {
    const r = rng()
    if (depth > 3 || r < 0.35) {
      const atom = pick(rng, ATOMS)
      return rng() < 0.3 ? atom + pick(rng, QUANTIFIERS) : atom
    }
    if (r < 0.62 && !references) return pick(rng, ["^", "$", "\\b", "\\B", "a{3,20}", "(?:ab|a){1,17}"])
    if (r < 0.5) {
      if (groups === 0) return pick(rng, ["^", "$", "\\b", "\\B"])
      const g = 1 + Math.floor(rng() * groups)
      if (names.length > 0 && rng() < 0.3) return `\\k<${pick(rng, names)}>`
      return `\\${g}${rng() < 0.15 ? pick(rng, QUANTIFIERS) : ""}`
    }
    if (r < 0.62) {
      const look = pick(rng, ["(?=", "(?!", "(?<=", "(?<!"])
      return `${look}${alternatives(depth + 1)})`
    }
    if (r < 0.67) return pick(rng, ["^", "$", "\\b", "\\B"])
    const kind = rng()
    let open = "(?:"
    if (kind < 0.5) {
      groups++
      open = "("
    } else if (kind < 0.7) {
      groups++
      const name = `n${groups}`
      names.push(name)
      open = `(?<${name}>`
    }
    const body = alternatives(depth + 1)
    return `${open}${body})${rng() < 0.5 ? pick(rng, QUANTIFIERS) : ""}`
  }
  const sequence = (depth: number): string => {
    let out = ""
    const n = 1 + Math.floor(rng() * 3)
    for (let i = 0; i < n; i++) out += term(depth)
    return out
  }
  const alternatives = (depth: number): string => {
    let out = sequence(depth)
    while (rng() < 0.25) out += `|${sequence(depth)}`
    return out
  }
  let p = ""
  // Backreferences also name later groups: generate until the pattern needs the metered matcher.
  for (let tries = 0; tries < 20; tries++) {
    p = alternatives(0)
    if (!references) break
    if (/\\[1-9]|\\k<|\(\?<?[=!]/.test(p)) break
  }
  return p
}

const SUBJECT_CHARS = [
  "\0",
  "\n",
  "\x08",
  "{",
  "}",
  "]",
  "A",
  "8",
  "\x07",
  "\x01",
  "-",
  "/",
  "$",
  "ß",
  "ẞ",
  "Σ",
  "σ",
  "ς",
  "ı",
  "İ",
  "i",
  "I",
  "ǅ",
  "ǆ",
  "Ǆ",
  "\u212A",
  "s",
  "S",
  "p",
  "u",
  "😀",
  "\ude00",
  "ϴ",
  "θ",
  "Θ",
  "ϑ",
  "a",
  "a",
  "a",
  "b",
  "b",
  "c",
  "A",
  "B",
  " ",
  "\n",
  "1",
  "_",
  "ſ",
  "K",
  "k",
  "é",
  "É",
  "😀",
  "\ud800",
  ".",
]
const subject = (rng: Rng): string => {
  let s = ""
  const n = Math.floor(rng() * 12)
  for (let i = 0; i < n; i++) s += pick(rng, SUBJECT_CHARS)
  return s
}

/** Everything `exec` tells, for up to 6 successive calls. */
const run = (re: RegExp, s: string, exec: (re: RegExp, s: string) => RegExpExecArray | null, start: number) => {
  const out: unknown[] = []
  re.lastIndex = start
  for (let k = 0; k < 6; k++) {
    const m = exec(re, s)
    const indices = m?.indices
    out.push(
      m && {
        values: [...m],
        index: m.index,
        keys: Object.keys(m),
        groups: m.groups && Object.entries(m.groups),
        indices: indices && [...indices],
        indexGroups: indices?.groups && Object.entries(indices.groups),
      },
      re.lastIndex,
    )
    if (m === null || !(re.global || re.sticky)) break
    if (m[0] === "") re.lastIndex++
  }
  return out
}

const FLAGS = [
  "",
  "g",
  "i",
  "m",
  "s",
  "u",
  "y",
  "d",
  "gi",
  "iu",
  "iu",
  "gmu",
  "dgu",
  "yi",
  "su",
  "dgimsuy",
  "v",
  "iv",
  "gv",
]

let totalCases = 0
afterAll(() => console.log(`differential: ${totalCases} exec sequences agreed`))

const generated = (references: boolean, seed: number) => () => {
  const rng = random(seed)
  let cases = 0
  let metered = 0
  for (let p = 0; p < 800; p++) {
    const flags = pick(rng, FLAGS)
    const source = pattern(rng, references)
    let host: RegExp
    try {
      host = new RegExp(source, flags)
    } catch {
      continue
    }
    const ours = new RegExp(source, flags)
    const matcher = meteredMatcher(ours)
    if (matcher === null) continue
    metered++
    for (let i = 0; i < 5; i++) {
      const s = subject(rng)
      const start = flags.includes("y") || flags.includes("g") ? Math.floor(rng() * 3) : 0
      const expected = run(host, s, (re, x) => re.exec(x), start)
      const actual = run(ours, s, (re, x) => matcher.exec(re, x), start)
      expect(actual, `/${source}/${flags} on ${JSON.stringify(s)} from ${start}`).toEqual(expected)
      cases++
      totalCases++
    }
  }
  expect(metered).toBeGreaterThan(250)
  expect(cases).toBeGreaterThan(1250)
}

describe("the metered matcher agrees with the host engine", () => {
  for (let block = 0; block < 10; block++)
    it(`patterns with backreferences and lookarounds, block ${block}`, generated(true, 1000 + block))
  // Under i, u and d, or with a repetition counted past 16, the host's linear-time engine cannot take a pattern.
  for (let block = 0; block < 4; block++)
    it(`patterns without, under the flags the linear engine refuses, block ${block}`, generated(false, 2000 + block))
})
