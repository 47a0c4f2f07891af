/**
 * Formatting program values for `console.log`, in the style of Node's `util.inspect`. Inspection reads data
 * properties only (getters show as `[Getter]`), so logging never runs program code.
 */
import { functionName, isObject, type Value } from "./functions.js"
import { BRAND, Brand, CALL, META, SLOT, type FunctionMeta } from "./internals.js"
import { ownKeys } from "./properties.js"
import type { PromiseRecord } from "./promises.js"
import { originOf } from "./errors.js"
import { rt } from "./state.js"

const MAX_DEPTH = 2
const MAX_ITEMS = 100
const BREAK_LENGTH = 72
const MAX_OUTPUT = 100_000

const identifier = /^[A-Za-z_$][\w$]*$/

const quote = (s: string): string => {
  const q = !s.includes("'") ? "'" : !s.includes('"') ? '"' : !s.includes("`") ? "`" : "'"
  const escaped = s.replace(/[\\\n\r\t\b\f\v\0]/g, (c) => JSON.stringify(c).slice(1, -1))
  return q + (q === "'" ? escaped.replace(/'/g, "\\'") : escaped) + q
}

const keyText = (k: string | symbol): string =>
  typeof k === "symbol" ? `[${k.toString()}]` : identifier.test(k) ? k : quote(k)

const safeOwn = (o: object, key: string | symbol): PropertyDescriptor | undefined =>
  Object.getOwnPropertyDescriptor(o, key)

/** The value of a data property found along the prototype chain, without running getters. */
const safeGet = (o: Value, key: string | symbol): Value => {
  let p = o
  while (p !== null && typeof p === "object") {
    const d = safeOwn(p, key)
    if (d) return "value" in d ? d.value : undefined
    p = Object.getPrototypeOf(p)
  }
  return undefined
}

const constructorName = (o: Value): string | undefined => {
  let p = Object.getPrototypeOf(o)
  while (p !== null) {
    const c = safeOwn(p, "constructor")
    if (c && "value" in c && isObject(c.value) && c.value[CALL] !== undefined) return functionName(c.value)
    p = Object.getPrototypeOf(p)
  }
  return undefined
}

const functionText = (f: Value): string => {
  const meta = f[META] as FunctionMeta | undefined
  const name = functionName(f)
  if (meta?.display === "class") return `[class ${name || "(anonymous)"}]`
  const kind =
    meta?.display === "async function"
      ? "AsyncFunction"
      : meta?.display?.includes("generator")
        ? meta.display.startsWith("async")
          ? "AsyncGeneratorFunction"
          : "GeneratorFunction"
        : "Function"
  return name ? `[${kind}: ${name}]` : `[${kind} (anonymous)]`
}

/** Format a value as `console.log` shows it (strings at top level are printed raw by the caller). */
export const inspect = (value: Value): string => {
  const seen: Value[] = []
  const circular = new Map<Value, number>()
  const out = format(value, 0, seen, circular)
  return out.length > MAX_OUTPUT ? `${out.slice(0, MAX_OUTPUT)}... (truncated)` : out
}

const format = (v: Value, depth: number, seen: Value[], circular: Map<Value, number>): string => {
  switch (typeof v) {
    case "string":
      return depth === 0 ? v : quote(v)
    case "number":
      return Object.is(v, -0) ? "-0" : String(v)
    case "boolean":
    case "undefined":
    case "bigint":
      return String(v)
    case "symbol":
      return v.toString()
  }
  if (v === null) return "null"
  if (seen.includes(v)) {
    let id = circular.get(v)
    if (id === undefined) {
      id = circular.size + 1
      circular.set(v, id)
    }
    return `[Circular *${id}]`
  }
  const realm = rt.realm
  if (v[CALL] !== undefined) {
    const keys = ownKeys(v).filter((k) => safeOwn(v, k)?.enumerable)
    if (keys.length === 0 || depth > MAX_DEPTH) return functionText(v)
  }
  const brand = v[BRAND]
  if (brand === Brand.Error) {
    const stack = safeGet(v, "stack")
    const name = safeGet(v, "name")
    const message = safeGet(v, "message")
    const origin = originOf(v)
    const head =
      typeof stack === "string"
        ? stack
        : `${name ?? "Error"}${message ? `: ${message}` : ""}${origin ? `\n    at <program>:${origin.line}:${origin.column}` : ""}`
    return depth > 0 ? `[${head.split("\n")[0]}]` : head
  }
  if (brand === Brand.Date) {
    const t = v[SLOT] as number
    return Number.isNaN(t) ? "Invalid Date" : new Date(t).toISOString()
  }
  if (brand === Brand.RegExp) return String(v[SLOT])
  if (brand === Brand.Boolean || brand === Brand.Number || brand === Brand.String || brand === Brand.Symbol) {
    const kind =
      brand === Brand.Boolean
        ? "Boolean"
        : brand === Brand.Number
          ? "Number"
          : brand === Brand.String
            ? "String"
            : "Symbol"
    return `[${kind}: ${format(v[SLOT], 1, seen, circular)}]`
  }
  if (depth > MAX_DEPTH) {
    if (Array.isArray(v)) return "[Array]"
    return `[${constructorName(v) ?? "Object"}]`
  }
  seen.push(v)
  try {
    let prefix = ""
    const items: string[] = []
    let open = "{"
    let close = "}"
    if (brand === Brand.Promise) {
      const r = v[SLOT] as PromiseRecord
      prefix = "Promise "
      items.push(
        r.state === 0
          ? "<pending>"
          : r.state === 1
            ? format(r.value, depth + 1, seen, circular)
            : `<rejected> ${format(r.value, depth + 1, seen, circular)}`,
      )
    } else if (brand === Brand.Map) {
      const m = v[SLOT] as Map<Value, Value>
      prefix = `Map(${m.size}) `
      for (const [k, x] of m) {
        if (items.length >= MAX_ITEMS) {
          items.push(`... ${m.size - MAX_ITEMS} more items`)
          break
        }
        items.push(`${format(k, depth + 1, seen, circular)} => ${format(x, depth + 1, seen, circular)}`)
      }
    } else if (brand === Brand.Set) {
      const s = v[SLOT] as Set<Value>
      prefix = `Set(${s.size}) `
      for (const x of s) {
        if (items.length >= MAX_ITEMS) {
          items.push(`... ${s.size - MAX_ITEMS} more items`)
          break
        }
        items.push(format(x, depth + 1, seen, circular))
      }
    } else if (Array.isArray(v)) {
      open = "["
      close = "]"
      let holes = 0
      const n = Math.min(v.length, MAX_ITEMS)
      for (let i = 0; i < n; i++) {
        const d = safeOwn(v, String(i))
        if (!d) {
          holes++
          continue
        }
        if (holes > 0) {
          items.push(`<${holes} empty item${holes > 1 ? "s" : ""}>`)
          holes = 0
        }
        items.push("value" in d ? format(d.value, depth + 1, seen, circular) : "[Getter]")
      }
      if (holes > 0) items.push(`<${holes} empty item${holes > 1 ? "s" : ""}>`)
      if (v.length > MAX_ITEMS) items.push(`... ${v.length - MAX_ITEMS} more items`)
      if (Object.getPrototypeOf(v) === realm.ArgumentsProto) prefix = "[Arguments] "
    } else if (v[CALL] !== undefined) {
      prefix = `${functionText(v)} `
    } else {
      const proto = Object.getPrototypeOf(v)
      if (proto === null) prefix = "[Object: null prototype] "
      else if (proto !== realm.ObjectProto) {
        const name = constructorName(v)
        const tag = safeGet(v, Symbol.toStringTag)
        if (name && name !== "Object") prefix = `${name} `
        if (typeof tag === "string" && tag !== name) prefix = `${name ?? "Object"} [${tag}] `
      }
    }
    for (const k of ownKeys(v)) {
      if (Array.isArray(v) && (k === "length" || (typeof k === "string" && /^\d+$/.test(k)))) continue
      const d = safeOwn(v, k)
      if (!d || !d.enumerable) continue
      if (items.length > MAX_ITEMS) {
        items.push("...")
        break
      }
      const text =
        "value" in d
          ? format(d.value, depth + 1, seen, circular)
          : d.get && d.set
            ? "[Getter/Setter]"
            : d.get
              ? "[Getter]"
              : "[Setter]"
      items.push(`${keyText(k)}: ${text}`)
    }
    const id = circular.get(v)
    const ref = id !== undefined ? `<ref *${id}> ` : ""
    if (items.length === 0) return `${ref}${prefix}${open}${close}`
    const single = `${ref}${prefix}${open} ${items.join(", ")} ${close}`
    if (single.length <= BREAK_LENGTH && !single.includes("\n")) return single
    const indent = "  ".repeat(depth + 1)
    return `${ref}${prefix}${open}\n${items.map((i) => indent + i).join(",\n")}\n${"  ".repeat(depth)}${close}`
  } finally {
    seen.pop()
  }
}
