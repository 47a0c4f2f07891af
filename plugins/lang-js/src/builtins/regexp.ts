/**
 * `RegExp`: a program regular expression wraps a host `RegExp` (never exposed) and runs on the host engine.
 *
 * Subjects are bounded to `MAX_REGEX_INPUT` characters and every match charges work in proportion to the subject.
 * A pattern with catastrophic backtracking on a short subject cannot be stopped from inside one host call: the
 * sandbox worker's hard stop (timeout, then `worker.terminate()`) is the wall for that case.
 */
import { MAX_REGEX_INPUT } from "../limits.js"
import { fatal, throwTypeError } from "../runtime/errors.js"
import {
  arg,
  defineBuiltinAccessor,
  defineMethod,
  defineValue,
  isObject,
  linkConstructor,
  makeNative,
  type Value,
} from "../runtime/functions.js"
import { BRAND, Brand, SLOT } from "../runtime/internals.js"
import { charge } from "../runtime/meter.js"
import { toInteger, toStr } from "../runtime/operators.js"
import type { Realm } from "../runtime/realm.js"
import { rt } from "../runtime/state.js"
import { createHostIterator } from "./iteration.js"

/** True when `v` is a program RegExp. */
export const isRegExp = (v: Value): boolean => isObject(v) && v[BRAND] === Brand.RegExp

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

/** Run a program RegExp's `exec` with `lastIndex` kept in sync. */
export const regExpExec = (realm: Realm, o: Value, s: string): Value => {
  const re = hostRegExp(o)
  regexSubject(s)
  const tracksIndex = re.global || re.sticky
  if (tracksIndex) re.lastIndex = toInteger(o.lastIndex)
  const m = re.exec(s)
  if (tracksIndex) o.lastIndex = re.lastIndex
  return adoptMatch(realm, m)
}

/** Install `RegExp`. */
export const installRegExp = (realm: Realm): void => {
  const proto = realm.newObject()
  realm.RegExpProto = proto
  const make = (pattern: string, flags: string, target: Value = proto): Value => {
    const re = new RegExp(pattern, flags)
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
    if (isRegExp(p)) return make(hostRegExp(p).source, f === undefined ? hostRegExp(p).flags : toStr(f), target)
    return make(p === undefined ? "(?:)" : toStr(p), f === undefined ? "" : toStr(f), target)
  }
  const ctor = makeNative(
    "RegExp",
    2,
    (_t, a) => (isRegExp(a[0]) && a[1] === undefined ? a[0] : construct(a, undefined)),
    construct,
  )
  realm.RegExp = ctor
  linkConstructor(ctor, proto)
  defineMethod(ctor, "escape", 1, (_t, a) => {
    const s = arg(a, 0)
    if (typeof s !== "string") throwTypeError("RegExp.escape requires a string")
    return s.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&")
  })

  const thisRe = (t: Value, name: string): RegExp => {
    if (!isRegExp(t)) return throwTypeError(`RegExp.prototype.${name} called on an incompatible receiver`)
    return hostRegExp(t)
  }
  defineMethod(proto, "exec", 1, (t, a) => {
    thisRe(t, "exec")
    return regExpExec(realm, t, toStr(arg(a, 0)))
  })
  defineMethod(proto, "test", 1, (t, a) => {
    thisRe(t, "test")
    return regExpExec(realm, t, toStr(arg(a, 0))) !== null
  })
  defineMethod(proto, "toString", 0, (t) => {
    if (isRegExp(t)) return String(hostRegExp(t))
    if (!isObject(t)) return throwTypeError("RegExp.prototype.toString called on an incompatible receiver")
    return `/${toStr(t.source)}/${toStr(t.flags)}`
  })
  defineMethod(proto, "compile", 2, () => throwTypeError("RegExp.prototype.compile is not supported"))
  for (const name of [
    "source",
    "flags",
    "global",
    "ignoreCase",
    "multiline",
    "sticky",
    "unicode",
    "dotAll",
    "hasIndices",
    "unicodeSets",
  ] as const) {
    defineBuiltinAccessor(proto, name, (t) => {
      if (t === proto) return name === "source" ? "(?:)" : name === "flags" ? "" : undefined
      return (thisRe(t, name) as unknown as Record<string, unknown>)[name]
    })
  }
  defineMethod(proto, Symbol.matchAll, 1, (t, a) => {
    const re = thisRe(t, "[Symbol.matchAll]")
    const s = regexSubject(toStr(arg(a, 0)))
    const copy = new RegExp(re.source, re.flags)
    copy.lastIndex = toInteger(t.lastIndex)
    return createHostIterator(realm.RegExpStringIteratorProto, Brand.RegExpStringIterator, s.matchAll(copy), (m) =>
      adoptMatch(realm, m),
    )
  })
  defineValue(proto, Symbol.toStringTag, "RegExp", false)
  realm.defineGlobal("RegExp", ctor)
}
