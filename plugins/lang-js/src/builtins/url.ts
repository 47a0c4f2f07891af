/**
 * `URL` and `URLSearchParams`, backed by the host's WHATWG implementation (held internally, never exposed).
 */
import { throwTypeError } from "../runtime/errors.js"
import {
  arg,
  call,
  defineBuiltinAccessor,
  defineMethod,
  defineValue,
  isCallable,
  isObject,
  linkConstructor,
  makeNative,
  type Value,
  defineTag,
} from "../runtime/functions.js"
import { BRAND, Brand, SLOT, brandOf } from "../runtime/internals.js"
import { DONE, getIterator } from "../runtime/iterators.js"
import { charge } from "../runtime/meter.js"
import { toStr } from "../runtime/operators.js"
import type { Realm } from "../runtime/realm.js"
import { createHostIterator } from "./iteration.js"

interface UrlState {
  readonly url: URL
  params: Value
}

/** Install `URL` and `URLSearchParams`. */
export const installUrl = (realm: Realm): void => {
  const paramsProto = realm.newObject()
  realm.URLSearchParamsProto = paramsProto
  const wrapParams = (host: URLSearchParams, proto: Value = paramsProto): Value => {
    const o = Object.create(proto)
    o[SLOT] = host
    o[BRAND] = Brand.URLSearchParams
    return o
  }
  const paramsCtor = makeNative(
    "URLSearchParams",
    0,
    () => throwTypeError("Constructor URLSearchParams requires 'new'"),
    (a, nt) => {
      const init = arg(a, 0)
      const host = new URLSearchParams()
      if (typeof init === "string") {
        charge(1 + init.length)
        for (const [k, v] of new URLSearchParams(init)) host.append(k, v)
      } else if (isObject(init) && brandOf(init) === Brand.URLSearchParams) {
        for (const [k, v] of init[SLOT] as URLSearchParams) host.append(k, v)
      } else if (isObject(init)) {
        if (init[Symbol.iterator] !== undefined) {
          const it = getIterator(init)
          for (;;) {
            const pair = it.next()
            if (pair === DONE) break
            if (!isObject(pair) || pair.length !== 2)
              throwTypeError("Each query pair must be an iterable [name, value] tuple")
            host.append(toStr(pair[0]), toStr(pair[1]))
          }
        } else {
          for (const k of Object.keys(init)) host.append(k, toStr(init[k]))
        }
      } else if (init !== undefined && init !== null) {
        for (const [k, v] of new URLSearchParams(toStr(init))) host.append(k, v)
      }
      return wrapParams(host, isObject(nt.prototype) ? nt.prototype : paramsProto)
    },
  )
  linkConstructor(paramsCtor, paramsProto)
  const p = (t: Value, what: string): URLSearchParams => {
    if (!isObject(t) || brandOf(t) !== Brand.URLSearchParams)
      return throwTypeError(`URLSearchParams.prototype.${what} called on an incompatible receiver`)
    return t[SLOT] as URLSearchParams
  }
  defineMethod(paramsProto, "append", 2, (t, a) => {
    p(t, "append").append(toStr(arg(a, 0)), toStr(arg(a, 1)))
    return undefined
  })
  defineMethod(paramsProto, "delete", 1, (t, a) => {
    const params = p(t, "delete")
    if (a.length > 1 && a[1] !== undefined) params.delete(toStr(a[0]), toStr(a[1]))
    else params.delete(toStr(arg(a, 0)))
    return undefined
  })
  defineMethod(paramsProto, "get", 1, (t, a) => p(t, "get").get(toStr(arg(a, 0))))
  defineMethod(paramsProto, "getAll", 1, (t, a) => realm.newArray(p(t, "getAll").getAll(toStr(arg(a, 0)))))
  defineMethod(paramsProto, "has", 1, (t, a) => {
    const params = p(t, "has")
    return a.length > 1 && a[1] !== undefined ? params.has(toStr(a[0]), toStr(a[1])) : params.has(toStr(arg(a, 0)))
  })
  defineMethod(paramsProto, "set", 2, (t, a) => {
    p(t, "set").set(toStr(arg(a, 0)), toStr(arg(a, 1)))
    return undefined
  })
  defineMethod(paramsProto, "sort", 0, (t) => {
    p(t, "sort").sort()
    return undefined
  })
  defineMethod(paramsProto, "toString", 0, (t) => p(t, "toString").toString())
  defineMethod(paramsProto, "forEach", 1, (t, a) => {
    const fn = arg(a, 0)
    if (!isCallable(fn)) throwTypeError("URLSearchParams.prototype.forEach: the callback is not a function")
    for (const [k, v] of [...p(t, "forEach")]) call(fn, arg(a, 1), [v, k, t])
    return undefined
  })
  defineBuiltinAccessor(paramsProto, "size", (t) => p(t, "size").size)
  defineMethod(paramsProto, "keys", 0, (t) =>
    createHostIterator(realm.MapIteratorProto, Brand.MapIterator, p(t, "keys").keys(), (k) => k),
  )
  defineMethod(paramsProto, "values", 0, (t) =>
    createHostIterator(realm.MapIteratorProto, Brand.MapIterator, p(t, "values").values(), (v) => v),
  )
  const entries = defineMethod(paramsProto, "entries", 0, (t) =>
    createHostIterator(realm.MapIteratorProto, Brand.MapIterator, p(t, "entries").entries(), (e) => realm.newArray(e)),
  )
  defineValue(paramsProto, Symbol.iterator, entries)
  defineTag(paramsProto, "URLSearchParams")
  realm.defineGlobal("URLSearchParams", paramsCtor)

  const urlProto = realm.newObject()
  realm.URLProto = urlProto
  const parse = (input: Value, base: Value): URL => {
    const s = toStr(input)
    charge(1 + s.length)
    return base === undefined
      ? new URL(s)
      : new URL(s, isObject(base) && brandOf(base) === Brand.URL ? (base[SLOT] as UrlState).url : toStr(base))
  }
  const wrapUrl = (url: URL, proto: Value = urlProto): Value => {
    const o = Object.create(proto)
    o[SLOT] = { url, params: undefined } satisfies UrlState
    o[BRAND] = Brand.URL
    return o
  }
  const urlCtor = makeNative(
    "URL",
    1,
    () => throwTypeError("Constructor URL requires 'new'"),
    (a, nt) => wrapUrl(parse(arg(a, 0), arg(a, 1)), isObject(nt.prototype) ? nt.prototype : urlProto),
  )
  linkConstructor(urlCtor, urlProto)
  defineMethod(urlCtor, "canParse", 1, (_t, a) => {
    try {
      parse(arg(a, 0), arg(a, 1))
      return true
    } catch {
      return false
    }
  })
  defineMethod(urlCtor, "parse", 1, (_t, a) => {
    try {
      return wrapUrl(parse(arg(a, 0), arg(a, 1)))
    } catch {
      return null
    }
  })
  const u = (t: Value, what: string): UrlState => {
    if (!isObject(t) || brandOf(t) !== Brand.URL)
      return throwTypeError(`URL.prototype.${what} called on an incompatible receiver`)
    return t[SLOT] as UrlState
  }
  const settable = [
    "href",
    "protocol",
    "username",
    "password",
    "host",
    "hostname",
    "port",
    "pathname",
    "search",
    "hash",
  ] as const
  for (const name of settable) {
    defineBuiltinAccessor(
      urlProto,
      name,
      (t) => u(t, name).url[name],
      (t, v) => {
        u(t, name).url[name] = toStr(v)
      },
    )
  }
  defineBuiltinAccessor(urlProto, "origin", (t) => u(t, "origin").url.origin)
  defineBuiltinAccessor(urlProto, "searchParams", (t) => {
    const s = u(t, "searchParams")
    if (s.params === undefined) s.params = wrapParams(s.url.searchParams)
    return s.params
  })
  defineMethod(urlProto, "toString", 0, (t) => u(t, "toString").url.href)
  defineMethod(urlProto, "toJSON", 0, (t) => u(t, "toJSON").url.href)
  defineTag(urlProto, "URL")
  realm.defineGlobal("URL", urlCtor)
}
