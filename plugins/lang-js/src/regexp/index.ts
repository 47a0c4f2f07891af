/**
 * The metered regular-expression matcher, used for exactly the patterns the host engine can only run by
 * backtracking (see `routing.ts`): the host's linear-time fallback cannot take them, and a host match cannot be
 * interrupted. Every other pattern, and syntax this matcher does not take (see `syntax.ts`), runs on the host
 * engine.
 */
import { charge } from "../runtime/meter.js"
import { Matcher } from "./matcher.js"
import { compile } from "./program.js"
import { needsMeteredMatcher } from "./routing.js"
import { parsePattern } from "./syntax.js"

/** Compiled patterns by flags and source, shared by the RegExp objects made of them (split makes one per call). */
const compiled = new Map<string, Matcher | null>()
/** Compiled patterns remembered at most. */
const MAX_COMPILED = 256
let byRegExp = new WeakMap<RegExp, Matcher | null>()

/**
 * Forget every compiled pattern: called as each execution starts, so that no program can time a compile to learn
 * which patterns an earlier execution on this sandbox used.
 */
export const forgetMatchers = (): void => {
  compiled.clear()
  byRegExp = new WeakMap()
}

/** Longest source the shared cache keeps (a longer one is remembered only by its RegExp). */
const MAX_CACHED_SOURCE = 10_000

const build = (source: string, flags: string): Matcher | null => {
  // Parsing and compiling are linear in the source.
  charge(1 + (source.length >> 2))
  const pattern = parsePattern(source, flags)
  if (pattern === undefined || !needsMeteredMatcher(pattern, flags)) return null
  try {
    return new Matcher(compile(pattern, flags), flags)
  } catch {
    // An atom the host refuses on its own (a form only valid in context): the host engine runs the whole pattern.
    return null
  }
}

/** The metered matcher for `re`, or `null` when the host engine runs it. */
export const meteredMatcher = (re: RegExp): Matcher | null => {
  let m = byRegExp.get(re)
  if (m !== undefined) return m
  const key = `${re.flags}/${re.source}`
  m = compiled.get(key)
  if (m === undefined) {
    m = build(re.source, re.flags)
    if (compiled.size >= MAX_COMPILED) compiled.clear()
    if (key.length <= MAX_CACHED_SOURCE) compiled.set(key, m)
  }
  byRegExp.set(re, m)
  return m
}

/** `re.exec(s)`, on the metered matcher when `re` needs it (it reads and writes `re.lastIndex` as the host does). */
export const execRegExp = (re: RegExp, s: string): RegExpExecArray | null => {
  const m = meteredMatcher(re)
  return m === null ? re.exec(s) : m.exec(re, s)
}
