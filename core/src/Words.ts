/**
 * Words for search: splitting text into terms in one linear pass, dropping stopwords, and folding a word to its
 * stem so that `repos`, `repository` and `repositories` (or `pulls` and `pull`, `created` and `create`) meet.
 *
 * Every function here is linear in its input: there is no regular expression that can backtrack, so program-made
 * text of any length costs time proportional to its length.
 */

/** Words that carry no meaning in a query or a description. */
const stopwords: ReadonlySet<string> = new Set(
  (
    "a an the of for to in on by with and or from into onto at as is are was were be been being it its this that " +
    "these those all any some each every i we our us you your they them their he she his her can could would " +
    "should will shall may might must do does did done how what which who whom whose when where why please using " +
    "use via about also then than only just so if else not no yes there here one"
  ).split(" "),
)

/** True when `word` (lower case) is a stopword. */
export const isStopword = (word: string): boolean => stopwords.has(word)

/**
 * Abbreviations and long forms of the same word in API catalogs, folded to one term. Applied after plural folding,
 * so `repos`, `repository` and `repositories` are all `repo`.
 */
const synonyms: ReadonlyMap<string, string> = new Map([
  ["repository", "repo"],
  ["organization", "org"],
  ["organisation", "org"],
  ["configuration", "config"],
  ["authentication", "auth"],
  ["authorization", "auth"],
  ["authorisation", "auth"],
  ["application", "app"],
  ["information", "info"],
  ["environment", "env"],
  ["directory", "dir"],
  ["administrator", "admin"],
  ["specification", "spec"],
  ["identifier", "id"],
  ["parameter", "param"],
  ["statistic", "stat"],
  ["children", "child"],
  ["people", "person"],
  ["indices", "index"],
])

const isVowel = (c: string) => c === "a" || c === "e" || c === "i" || c === "o" || c === "u"

const hasVowel = (word: string, end: number) => {
  for (let i = 0; i < end; i++) if (isVowel(word[i]) || (i > 0 && word[i] === "y")) return true
  return false
}

/** The singular of a lower-case word, by the common English plural endings. */
const singular = (word: string): string => {
  const n = word.length
  if (n > 4 && word.endsWith("ies")) return `${word.slice(0, -3)}y`
  if (n > 4 && word.endsWith("sses")) return word.slice(0, -2)
  if (n > 4 && (word.endsWith("uses") || word.endsWith("xes") || word.endsWith("ches") || word.endsWith("shes")))
    return word.slice(0, -2)
  if (n > 3 && word.endsWith("s")) {
    const before = word[n - 2]
    if (before !== "s" && before !== "u" && before !== "i") return word.slice(0, -1)
  }
  if (n === 3 && word.endsWith("s") && !isVowel(word[1])) return word.slice(0, -1)
  return word
}

/** Remove `-ed` and `-ing` (`created` → `create`, `running` → `run`) when a syllable remains. */
const stripInflection = (word: string): string => {
  let stem = word
  if (word.length > 4 && word.endsWith("ing") && hasVowel(word, word.length - 3)) stem = word.slice(0, -3)
  else if (word.length > 4 && word.endsWith("ed") && !word.endsWith("eed") && hasVowel(word, word.length - 2))
    stem = word.slice(0, -2)
  else return word
  const n = stem.length
  // A doubled final consonant came from the inflection: `starred` → `star`, `setting` → `set`.
  if (n > 2 && stem[n - 1] === stem[n - 2] && !isVowel(stem[n - 1]) && !"lsz".includes(stem[n - 1]))
    return stem.slice(0, -1)
  return stem
}

/**
 * The stem of a lower-case word: plural folded, abbreviations unified, `-ed`/`-ing` removed and a final silent `e`
 * dropped, so that both sides of a comparison meet (`create`, `creates`, `created` → `creat`).
 */
export const stem = (word: string): string => {
  if (word.length <= 2) return word
  let w = singular(word)
  const unified = synonyms.get(w)
  if (unified !== undefined) return unified
  w = stripInflection(w)
  if (w.length > 4 && w.endsWith("e") && w[w.length - 2] !== "e") w = w.slice(0, -1)
  return synonyms.get(w) ?? w
}

const enum CharClass {
  Other = 0,
  Lower = 1,
  Upper = 2,
  Digit = 3,
}

/** The class of each ASCII code. */
const asciiClass = (() => {
  const table = new Uint8Array(128)
  for (let c = 0; c < 128; c++)
    table[c] =
      c >= 97 && c <= 122
        ? CharClass.Lower
        : c >= 65 && c <= 90
          ? CharClass.Upper
          : c >= 48 && c <= 57
            ? CharClass.Digit
            : CharClass.Other
  return table
})()

const letterBeyondAscii = /^[\p{L}\p{N}]$/u

const classOf = (code: number): CharClass => {
  if (code < 128) return asciiClass[code]
  // Letters beyond ASCII belong to words; they have no case boundaries here.
  return letterBeyondAscii.test(String.fromCharCode(code)) ? CharClass.Lower : CharClass.Other
}

/**
 * Split text into lower-case words in one pass: anything that is not a letter or digit separates (`/`, `-`, `_`,
 * `.`, spaces), and so do camelCase boundaries (`listForRepo` → `list for repo`, `HTMLParser` → `html parser`).
 * Calls `emit` with each word in order.
 */
export const eachWord = (text: string, emit: (word: string) => void): void => {
  let start = -1
  let previous = CharClass.Other
  // Upper-case letters in a row just before `i`: an acronym of two or more ends before a capitalised word
  // (`HTMLParser`), a single capital does not (`OAuth`, `IDs`).
  let uppers = 0
  const n = text.length
  for (let i = 0; i < n; i++) {
    const current = classOf(text.charCodeAt(i))
    if (current === CharClass.Other) {
      if (start >= 0) emit(text.slice(start, i).toLowerCase())
      start = -1
    } else if (start < 0) start = i
    else if (
      current === CharClass.Upper &&
      (previous === CharClass.Lower ||
        previous === CharClass.Digit ||
        (uppers >= 2 && i + 1 < n && classOf(text.charCodeAt(i + 1)) === CharClass.Lower))
    ) {
      emit(text.slice(start, i).toLowerCase())
      start = i
      uppers = 0
    }
    uppers = current === CharClass.Upper ? uppers + 1 : 0
    previous = current
  }
  if (start >= 0) emit(text.slice(start).toLowerCase())
}

/** The words of a text in order (see {@link eachWord}). */
export const words = (text: string): Array<string> => {
  const out: string[] = []
  eachWord(text, (w) => out.push(w))
  return out
}

/**
 * The stems of a text's words that are not stopwords, in order. `stems` memoises stems across calls (an index build
 * passes one map for the whole catalog; it holds one entry per distinct word).
 */
export const terms = (text: string, stems?: Map<string, string>): Array<string> => {
  const out: string[] = []
  eachWord(text, (w) => {
    if (stopwords.has(w)) return
    if (!stems) return void out.push(stem(w))
    let s = stems.get(w)
    if (s === undefined) {
      s = stem(w)
      stems.set(w, s)
    }
    out.push(s)
  })
  return out
}

/**
 * Groups of verbs an API names one operation by (`delete` and `remove`, `get` and `fetch`, `update` and `rename`):
 * a query word also matches the other words of its group, at a lower weight than itself.
 */
const relatedGroups: ReadonlyArray<ReadonlyArray<string>> = [
  ["get", "fetch", "retrieve", "read"],
  ["list", "enumerate"],
  ["create", "add", "new", "make", "insert"],
  ["update", "edit", "modify", "change", "set", "rename", "patch"],
  ["delete", "remove", "destroy", "erase"],
  ["search", "find", "query", "lookup"],
  // What "my" means to an API: the caller, its authenticated or current user.
  ["my", "me", "mine", "myself", "authenticated", "current", "self", "viewer"],
].map((group) => group.map(stem))

const relatedByStem: ReadonlyMap<string, ReadonlyArray<string>> = new Map(
  relatedGroups.flatMap((group) => group.map((s) => [s, group] as const)),
)

/** The stems related to a stem (its group, itself included), or none. */
export const related = (term: string): ReadonlyArray<string> => relatedByStem.get(term) ?? []
