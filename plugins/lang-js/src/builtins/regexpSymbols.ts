/**
 * `RegExp.prototype[Symbol.match]`, `[Symbol.matchAll]`, `[Symbol.replace]`, `[Symbol.search]` and
 * `[Symbol.split]`: the language's algorithms over `exec`, `flags` and `lastIndex` as the program defines them, and
 * the host engine's own methods for a pristine RegExp (same prototype, `exec` and accessors as built), which give
 * the same result. Results are bounded like every string and array the interpreter builds.
 */
import { MAX_STRING_LENGTH } from "../limits.js"
import { throwTypeError } from "../runtime/errors.js"
import { arg, call, construct, defineMethod, isCallable, isObject, type Value } from "../runtime/functions.js"
import { Brand } from "../runtime/internals.js"
import { checkListGrowth } from "../runtime/iterators.js"
import { reserveChars, reserveElements, reserveHeap } from "../runtime/memory.js"
import { charge, ITEM_UNITS } from "../runtime/meter.js"
import { concat, toInteger, toNumber, toStr } from "../runtime/operators.js"
import { getProp, setProp } from "../runtime/properties.js"
import type { Realm } from "../runtime/realm.js"
import { rt } from "../runtime/state.js"
import { meteredMatcher } from "../regexp/index.js"
import { createHostIterator } from "./iteration.js"
import {
  adoptMatch,
  builtinExec,
  hostRegExp,
  isRegExp,
  regExpExec,
  regexSubject,
  speciesConstructor,
  toLength,
} from "./regexp.js"
import { boxPrimitive } from "./object.js"
import { getSubstitution } from "./substitution.js"

/** Bytes a piece of a match or split result takes: its slot and a short string. */
export const PIECE_BYTES = 40

/** `AdvanceStringIndex(S, index, unicode)`. */
const advance = (s: string, index: number, unicode: boolean): number => {
  if (!unicode || index + 1 >= s.length) return index + 1
  const c = s.charCodeAt(index)
  if (c < 0xd800 || c > 0xdbff) return index + 1
  const d = s.charCodeAt(index + 1)
  return d >= 0xdc00 && d <= 0xdfff ? index + 2 : index + 1
}

const isUnicode = (flags: string): boolean => flags.includes("u") || flags.includes("v")

/**
 * The host function a host `replace` calls for each match: a program replacer function's result, or the template
 * expanded here, with the result's length counted match by match (the host builds the result from these pieces).
 */
export const countingReplacer = (s: string, replacement: Value, template: string | undefined) => {
  let length = s.length
  let checked = length >>> 16
  return (...args: Value[]): string => {
    const matched = args[0] as string
    const namedGroups = typeof args[args.length - 1] === "object" ? args[args.length - 1] : undefined
    const tail = namedGroups === undefined ? 2 : 3
    const position = args[args.length - tail] as number
    let r: string
    if (template === undefined) r = toStr(call(replacement, undefined, args.slice()))
    else r = getSubstitution(matched, s, position, args.slice(1, args.length - tail), namedGroups, template)
    length += r.length - matched.length
    if (length > MAX_STRING_LENGTH) reserveChars(length)
    if (length >>> 16 !== checked) {
      checked = length >>> 16
      reserveChars(length)
    }
    return r
  }
}

/**
 * The longest result a template replacement can give: each of at most `matches` matches replaced by the template
 * with every `$` reference expanded to the whole subject.
 */
export const worstReplacement = (s: string, template: string, matches: number): number =>
  s.length + matches * (template.includes("$") ? template.length * (s.length + 1) : template.length)

/** A host `replace` over `s` (the host builds the result; its length is bounded before or while it does). */
export const hostReplace = (
  s: string,
  pattern: RegExp | string,
  replacement: Value,
  template: string | undefined,
  matches: number,
  all: boolean,
): string => {
  const native = template !== undefined && worstReplacement(s, template, matches) <= MAX_STRING_LENGTH
  if (native) reserveChars(worstReplacement(s, template!, matches))
  const rep = native ? template! : countingReplacer(s, replacement, template)
  if (typeof pattern === "string") return all ? s.replaceAll(pattern, rep as string) : s.replace(pattern, rep as string)
  return s.replace(pattern, rep as string)
}

/** Install the `Symbol.match` family on `RegExp.prototype`. */
export const installRegExpSymbols = (realm: Realm, regExpCtor: Value, originalExec: Value): void => {
  const proto = realm.RegExpProto
  /** True while `rx` behaves exactly like the host RegExp behind it (and the host engine, not the metered matcher, runs it). */
  const pristine = (rx: Value): boolean =>
    isRegExp(rx) &&
    Object.getPrototypeOf(rx) === proto &&
    !realm.regExpProtoTouched &&
    !realm.customizedRegExps.has(rx) &&
    rx.exec === originalExec &&
    meteredMatcher(hostRegExp(rx)) === null
  const receiver = (t: Value, name: string): Value =>
    isObject(t) ? t : throwTypeError(`RegExp.prototype[Symbol.${name}] called on non-object`)
  const flagsOf = (rx: Value): string => toStr(rx.flags)

  defineMethod(proto, Symbol.match, 1, (t, a) => {
    const rx = receiver(t, "match")
    const s = toStr(arg(a, 0))
    if (pristine(rx)) {
      const re = hostRegExp(rx)
      if (!re.global) return builtinExec(realm, rx, s)
      regexSubject(s)
      reserveHeap((s.length + 1) * PIECE_BYTES)
      setProp(rx, "lastIndex", 0)
      re.lastIndex = 0
      const m = s.match(re)
      setProp(rx, "lastIndex", 0)
      if (m === null) return null
      charge(m.length * ITEM_UNITS)
      return realm.adoptArray(m as unknown as Value[])
    }
    // Node reads global, unicode and unicodeSets here (not flags).
    if (!rx.global) return regExpExec(realm, rx, s)
    const unicode = !!rx.unicode || !!rx.unicodeSets
    setProp(rx, "lastIndex", 0)
    const out: Value[] = []
    for (;;) {
      const result = regExpExec(realm, rx, s)
      if (result === null) return out.length === 0 ? null : realm.adoptArray(out)
      if (--rt.fuel < 0) charge(0)
      const matched = toStr(getProp(result, "0"))
      checkListGrowth(out.length)
      out.push(matched)
      if (matched === "") setProp(rx, "lastIndex", advance(s, toLength(rx.lastIndex), unicode))
    }
  })

  defineMethod(proto, Symbol.matchAll, 1, (t, a) => {
    const rx = receiver(t, "matchAll")
    const s = toStr(arg(a, 0))
    const c = speciesConstructor(rx, regExpCtor)
    const flags = flagsOf(rx)
    const matcher = construct(c, [rx, flags])
    setProp(matcher, "lastIndex", toLength(rx.lastIndex))
    const global = flags.includes("g")
    const unicode = isUnicode(flags)
    if (pristine(matcher) && global) {
      regexSubject(s)
      const copy = new RegExp(hostRegExp(matcher).source, hostRegExp(matcher).flags)
      copy.lastIndex = toLength(matcher.lastIndex)
      return createHostIterator(realm.RegExpStringIteratorProto, Brand.RegExpStringIterator, s.matchAll(copy), (m) => {
        charge(ITEM_UNITS)
        return adoptMatch(realm, m)
      })
    }
    let done = false
    const steps: Iterator<Value> = {
      next: () => {
        if (done) return { done: true, value: undefined }
        const match = regExpExec(realm, matcher, s)
        if (match === null) {
          done = true
          return { done: true, value: undefined }
        }
        if (!global) done = true
        else if (toStr(getProp(match, "0")) === "") {
          setProp(matcher, "lastIndex", advance(s, toLength(matcher.lastIndex), unicode))
        }
        return { done: false, value: match }
      },
    }
    return createHostIterator(realm.RegExpStringIteratorProto, Brand.RegExpStringIterator, steps, (m) => m)
  })

  defineMethod(proto, Symbol.replace, 2, (t, a) => {
    const rx = receiver(t, "replace")
    const s = toStr(arg(a, 0))
    let replacement = arg(a, 1)
    const functional = isCallable(replacement)
    if (!functional) replacement = toStr(replacement)
    if (pristine(rx)) {
      const re = hostRegExp(rx)
      regexSubject(s)
      if (re.global) {
        setProp(rx, "lastIndex", 0)
        re.lastIndex = 0
      } else {
        const lastIndex = toLength(rx.lastIndex)
        if (re.sticky && lastIndex > s.length) {
          setProp(rx, "lastIndex", 0)
          return s
        }
        re.lastIndex = re.sticky ? lastIndex : 0
      }
      const result = hostReplace(
        s,
        re,
        replacement,
        functional ? undefined : replacement,
        re.global ? s.length + 1 : 1,
        false,
      )
      if (re.global || re.sticky) setProp(rx, "lastIndex", re.global ? 0 : re.lastIndex)
      charge(result.length)
      return result
    }
    // Node reads global and (for a global one) unicode here (not flags).
    const global = !!rx.global
    const unicode = global && !!rx.unicode
    if (global) setProp(rx, "lastIndex", 0)
    const results: Value[] = []
    for (;;) {
      const result = regExpExec(realm, rx, s)
      if (result === null) break
      if (--rt.fuel < 0) charge(0)
      checkListGrowth(results.length)
      results.push(result)
      if (!global) break
      if (toStr(getProp(result, "0")) === "") setProp(rx, "lastIndex", advance(s, toLength(rx.lastIndex), unicode))
    }
    let out = ""
    let next = 0
    for (const result of results) {
      const count = Math.max(toLength(result.length) - 1, 0)
      const matched = toStr(getProp(result, "0"))
      const position = Math.max(Math.min(toInteger(result.index), s.length), 0)
      const captures: Array<string | undefined> = []
      reserveElements(count)
      for (let n = 1; n <= count; n++) {
        const capture = result[n]
        captures.push(capture === undefined ? undefined : toStr(capture))
      }
      let named = result.groups
      let r: string
      if (functional) {
        const args: Value[] = [matched, ...captures, position, s]
        if (named !== undefined) args.push(named)
        r = toStr(call(replacement, undefined, args))
      } else {
        if (named !== undefined && !isObject(named)) named = boxPrimitive(realm, named)
        r = getSubstitution(matched, s, position, captures, named, replacement)
      }
      if (position >= next) {
        out = concat(concat(out, s.slice(next, position)), r)
        next = position + matched.length
      }
    }
    return next >= s.length ? out : concat(out, s.slice(next))
  })

  defineMethod(proto, Symbol.search, 1, (t, a) => {
    const rx = receiver(t, "search")
    const s = toStr(arg(a, 0))
    const previous = rx.lastIndex
    if (!Object.is(previous, 0)) setProp(rx, "lastIndex", 0)
    const result = regExpExec(realm, rx, s)
    const current = rx.lastIndex
    if (!Object.is(current, previous)) setProp(rx, "lastIndex", previous)
    return result === null ? -1 : result.index
  })

  defineMethod(proto, Symbol.split, 2, (t, a) => {
    const rx = receiver(t, "split")
    const s = toStr(arg(a, 0))
    const c = speciesConstructor(rx, regExpCtor)
    const limitArg = arg(a, 1)
    if (c === regExpCtor && pristine(rx)) {
      const limit = limitArg === undefined ? 4294967295 : toNumber(limitArg) >>> 0
      regexSubject(s)
      reserveElements(Math.min(limit, s.length + 1), PIECE_BYTES)
      // The host's split takes its fast path only without a limit.
      const pieces = s.split(hostRegExp(rx), limitArg === undefined ? undefined : limit)
      charge(pieces.length * ITEM_UNITS)
      return realm.adoptArray(pieces)
    }
    const flags = flagsOf(rx)
    const unicode = isUnicode(flags)
    const splitter = construct(c, [rx, flags.includes("y") ? flags : `${flags}y`])
    const out: Value[] = []
    const limit = limitArg === undefined ? 4294967295 : toNumber(limitArg) >>> 0
    if (limit === 0) return realm.adoptArray(out)
    if (s.length === 0) {
      if (regExpExec(realm, splitter, s) === null) out.push(s)
      return realm.adoptArray(out)
    }
    const push = (v: Value): boolean => {
      checkListGrowth(out.length)
      out.push(v)
      return out.length === limit
    }
    let p = 0
    let q = 0
    while (q < s.length) {
      if (--rt.fuel < 0) charge(0)
      setProp(splitter, "lastIndex", q)
      const z = regExpExec(realm, splitter, s)
      if (z === null) {
        q = advance(s, q, unicode)
        continue
      }
      const e = Math.min(toLength(splitter.lastIndex), s.length)
      if (e === p) {
        q = advance(s, q, unicode)
        continue
      }
      if (push(s.slice(p, q))) return realm.adoptArray(out)
      p = e
      const captures = Math.max(toLength(z.length) - 1, 0)
      for (let i = 1; i <= captures; i++) if (push(z[i])) return realm.adoptArray(out)
      q = p
    }
    push(s.slice(p))
    return realm.adoptArray(out)
  })
}
