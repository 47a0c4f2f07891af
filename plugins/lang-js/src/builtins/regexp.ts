/**
 * `RegExp`: a program regular expression wraps a host `RegExp` (never exposed) and runs on the host engine.
 *
 * The protocol is the language's: `exec`, `flags`, `lastIndex` and the `Symbol.match`/`matchAll`/`replace`/
 * `search`/`split` methods are looked up and called as the specification says (see `regexpSymbols.ts`). While a
 * regular expression is pristine (its prototype and its `exec` untouched, no accessor redefined) those algorithms
 * run directly on the host engine, which gives the same result.
 *
 * Subjects are bounded to `MAX_REGEX_INPUT` characters and every match charges work in proportion to the subject.
 * A pattern with catastrophic backtracking on a short subject cannot be stopped from inside one host call: the
 * sandbox worker's hard stop (timeout, then `worker.terminate()`) is the wall for that case.
 */
import { MAX_REGEX_INPUT } from "../limits.js"
import { fatal, throwSyntaxError, throwTypeError } from "../runtime/errors.js"
import {
  arg,
  call,
  defineBuiltinAccessor,
  defineMethod,
  isCallable,
  isConstructor,
  isObject,
  linkConstructor,
  makeNative,
  type Value,
  incompatibleReceiver,
} from "../runtime/functions.js"
import { BRAND, Brand, SLOT, brandOf } from "../runtime/internals.js"
import { charge } from "../runtime/meter.js"
import { toInteger, toStr } from "../runtime/operators.js"
import { setProp } from "../runtime/properties.js"
import type { Realm } from "../runtime/realm.js"
import { rt } from "../runtime/state.js"
import { execRegExp } from "../regexp/index.js"
import { installRegExpSymbols } from "./regexpSymbols.js"

/** True when `v` is a program RegExp (it has the `[[RegExpMatcher]]` slot). */
export const isRegExp = (v: Value): boolean => isObject(v) && brandOf(v) === Brand.RegExp

/** The host RegExp behind a program RegExp. */
export const hostRegExp = (v: Value): RegExp => v[SLOT] as RegExp

/** Bound and charge a regular expression subject. */
export const regexSubject = (s: string): string => {
  if (s.length > MAX_REGEX_INPUT) {
    fatal(
      "ExecutionFailure",
      `A regular expression was run on ${s.length} characters; the limit is ${MAX_REGEX_INPUT}`,
      rt.loc,
    )
  }
  charge(1 + (s.length >> 5))
  return s
}

/** Turn a host match array into a program array (groups objects have a null prototype already). */
export const adoptMatch = (realm: Realm, m: RegExpExecArray | RegExpMatchArray | null): Value => {
  if (m === null) return null
  const indices = (m as RegExpExecArray).indices
  if (indices) {
    for (let i = 0; i < indices.length; i++) if (indices[i]) realm.adoptArray(indices[i] as unknown as Value[])
    realm.adoptArray(indices as unknown as Value[])
  }
  return realm.adoptArray(m as unknown as Value[])
}

/** `ToLength(v)`. */
export const toLength = (v: Value): number => {
  const n = toInteger(v)
  return n <= 0 ? 0 : Math.min(n, Number.MAX_SAFE_INTEGER)
}

/** `RegExpBuiltinExec(R, S)`: the host engine's match with `lastIndex` read and written as the language does. */
export const builtinExec = (realm: Realm, o: Value, s: string): Value => {
  const re = hostRegExp(o)
  regexSubject(s)
  let lastIndex = toLength(o.lastIndex)
  const tracksIndex = re.global || re.sticky
  if (!tracksIndex) lastIndex = 0
  if (lastIndex > s.length) {
    if (tracksIndex) setProp(o, "lastIndex", 0)
    return null
  }
  re.lastIndex = lastIndex
  const m = execRegExp(re, s)
  if (tracksIndex) setProp(o, "lastIndex", m === null ? 0 : re.lastIndex)
  return adoptMatch(realm, m)
}

/** `RegExpExec(R, S)`: the program's `exec` when it has one, else the built-in. */
export const regExpExec = (realm: Realm, r: Value, s: string): Value => {
  const exec = r.exec
  if (isCallable(exec)) {
    const result = call(exec, r, [s])
    if (result !== null && !isObject(result))
      return throwTypeError("The result of a RegExp exec must be an object or null")
    return result
  }
  if (!isRegExp(r)) return throwTypeError("RegExp exec method called on an incompatible receiver")
  return builtinExec(realm, r, s)
}

/** `IsRegExp(v)`: an object whose `Symbol.match` says so, or that has a matcher. */
export const isRegExpLike = (v: Value): boolean => {
  if (!isObject(v)) return false
  const matcher = v[Symbol.match]
  if (matcher !== undefined) return !!matcher
  return isRegExp(v)
}

/** `SpeciesConstructor(o, fallback)`. */
export const speciesConstructor = (o: Value, fallback: Value): Value => {
  const c = o.constructor
  if (c === undefined) return fallback
  if (!isObject(c)) return throwTypeError("The constructor property is not an object")
  const species = c[Symbol.species]
  if (species === undefined || species === null) return fallback
  if (isConstructor(species)) return species
  return throwTypeError("object.constructor[Symbol.species] is not a constructor")
}

/** The flag accessors in the order the `flags` getter reads them (Node's), with their letters. */
const FLAG_ORDER: ReadonlyArray<[string, string]> = [
  ["hasIndices", "d"],
  ["global", "g"],
  ["ignoreCase", "i"],
  ["multiline", "m"],
  ["dotAll", "s"],
  ["unicode", "u"],
  ["sticky", "y"],
  ["unicodeSets", "v"],
]

/** The order of the letters in a `flags` string. */
const LETTERS = "dgimsuvy"

/** Install `RegExp`. */
export const installRegExp = (realm: Realm): void => {
  const proto = realm.newObject()
  realm.RegExpProto = proto
  /** `RegExpAlloc` and `RegExpInitialize`: a host RegExp of the pattern and flags (a bad one is a SyntaxError). */
  const make = (pattern: string, flags: string, target: Value = proto): Value => {
    let re: RegExp
    try {
      re = new RegExp(pattern, flags)
    } catch (e) {
      return throwSyntaxError((e as Error).message)
    }
    const o = Object.create(target)
    o[SLOT] = re
    o[BRAND] = Brand.RegExp
    Object.defineProperty(o, "lastIndex", { value: 0, writable: true, enumerable: false, configurable: false })
    return o
  }
  realm.makeRegExp = (pattern, flags) => make(pattern, flags)
  const construct = (a: Value[], newTarget: Value): Value => {
    const p = arg(a, 0)
    const f = arg(a, 1)
    const target =
      newTarget !== undefined && newTarget !== realm.RegExp && isObject(newTarget.prototype)
        ? newTarget.prototype
        : proto
    let pattern: Value
    let flags: Value
    if (isRegExp(p)) {
      pattern = hostRegExp(p).source
      flags = f === undefined ? hostRegExp(p).flags : f
    } else if (isRegExpLike(p)) {
      pattern = p.source
      flags = f === undefined ? p.flags : f
    } else {
      pattern = p
      flags = f
    }
    return make(pattern === undefined ? "" : toStr(pattern), flags === undefined ? "" : toStr(flags), target)
  }
  const ctor = makeNative(
    "RegExp",
    2,
    (_t, a) => {
      const p = arg(a, 0)
      if (isRegExpLike(p) && a[1] === undefined && p.constructor === realm.RegExp) return p
      return construct(a, undefined)
    },
    construct,
  )
  realm.RegExp = ctor
  linkConstructor(ctor, proto)
  defineBuiltinAccessor(ctor, Symbol.species, (t) => t)
  defineMethod(ctor, "escape", 1, (_t, a) => {
    const s = arg(a, 0)
    if (typeof s !== "string") throwTypeError("RegExp.escape requires a string")
    return s.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&")
  })

  const requireObject = (t: Value, name: string): Value =>
    isObject(t) ? t : throwTypeError(`RegExp.prototype.${name} called on incompatible receiver ${String(t)}`)
  const exec = defineMethod(proto, "exec", 1, (t, a) => {
    if (!isRegExp(t)) return incompatibleReceiver("RegExp.prototype.exec", t)
    return builtinExec(realm, t, toStr(arg(a, 0)))
  })
  defineMethod(proto, "test", 1, (t, a) => regExpExec(realm, requireObject(t, "test"), toStr(arg(a, 0))) !== null)
  defineMethod(proto, "toString", 0, (t) => {
    const o = requireObject(t, "toString")
    return `/${toStr(o.source)}/${toStr(o.flags)}`
  })
  defineMethod(proto, "compile", 2, () => throwTypeError("RegExp.prototype.compile is not supported"))
  defineBuiltinAccessor(proto, "flags", (t) => {
    const o = isObject(t) ? t : throwTypeError("RegExp.prototype.flags getter called on non-object")
    const present = new Set<string>()
    for (const [name, letter] of FLAG_ORDER) if (o[name]) present.add(letter)
    let flags = ""
    for (const letter of LETTERS) if (present.has(letter)) flags += letter
    return flags
  })
  defineBuiltinAccessor(proto, "source", (t) => {
    if (isRegExp(t)) return hostRegExp(t).source
    if (t === proto) return "(?:)"
    return throwTypeError("RegExp.prototype.source getter called on non-RegExp object")
  })
  for (const [name] of FLAG_ORDER) {
    defineBuiltinAccessor(proto, name, (t) => {
      if (isRegExp(t)) return (hostRegExp(t) as unknown as Record<string, boolean>)[name]
      if (t === proto) return undefined
      return throwTypeError(`RegExp.prototype.${name} getter called on non-RegExp object`)
    })
  }
  installRegExpSymbols(realm, ctor, exec)
  realm.defineGlobal("RegExp", ctor)
}
