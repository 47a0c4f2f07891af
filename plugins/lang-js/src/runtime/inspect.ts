/**
 * Formatting program values for `console.log`, in the style of Node's `util.inspect`. Inspection reads data
 * properties only (getters show as `[Getter]`), so logging never runs program code.
 */
import { functionName, isObject, type Value } from "./functions.js"
import { Brand, CALL, META, SLOT, type FunctionMeta, brandOf } from "./internals.js"
import { ownKeys } from "./properties.js"
import type { PromiseRecord } from "./promises.js"
import { originOf } from "./errors.js"
import { MAX_ARRAY_LENGTH } from "../limits.js"
import { reserveElements } from "./memory.js"
import { rt } from "./state.js"

const MAX_ITEMS = 100
const BREAK_LENGTH = 72
/** The longest text one inspection (and one log line) gives. */
export const MAX_OUTPUT = 100_000
/** Strings inside a value are shown up to this many characters (as in Node). */
const MAX_STRING = 10_000

const identifier = /^[A-Za-z_$][\w$]*$/

const quote = (text: string): string => {
  const s = text.length > MAX_STRING ? text.slice(0, MAX_STRING) : text
  const q = !s.includes("'") ? "'" : !s.includes('"') ? '"' : !s.includes("`") ? "`" : "'"
  const escaped = s.replace(/[\\\n\r\t\b\f\v\0]/g, (c) => JSON.stringify(c).slice(1, -1))
  const quoted = q + (q === "'" ? escaped.replace(/'/g, "\\'") : escaped) + q
  const more = text.length - s.length
  return more > 0 ? `${quoted}... ${more} more character${more > 1 ? "s" : ""}` : quoted
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

/** How to inspect: how deep to go, whether to show non-enumerable properties, whether a top-level string is quoted. */
export interface InspectOptions {
  readonly depth?: number
  readonly showHidden?: boolean
  readonly quote?: boolean
}

interface Context {
  readonly seen: Value[]
  readonly circular: Map<Value, number>
  readonly depth: number
  readonly showHidden: boolean
  /** Characters the inspection may still produce; once spent, the remaining items are left out. */
  budget: number
}

/**
 * Format a value as `console.log` shows it (Node's `util.inspect` style; a top-level string is raw unless `quote`).
 * The text never passes `MAX_OUTPUT` characters, and producing it never builds a larger one.
 */
export const inspect = (value: Value, options: InspectOptions = {}): string => {
  if (typeof value === "string" && !options.quote) {
    return value.length > MAX_OUTPUT ? `${value.slice(0, MAX_OUTPUT)}... (truncated)` : value
  }
  const context: Context = {
    seen: [],
    circular: new Map(),
    depth: options.depth ?? 2,
    showHidden: options.showHidden ?? false,
    budget: MAX_OUTPUT,
  }
  const out = format(value, 0, context)
  return out.length > MAX_OUTPUT ? `${out.slice(0, MAX_OUTPUT)}... (truncated)` : out
}

const spend = (c: Context, text: string): string => {
  c.budget -= text.length
  return text
}

const hiddenKeyText = (k: string | symbol): string => `[${typeof k === "symbol" ? k.toString() : k}]`

const emptyItems = (n: number): string => `<${n} empty item${n > 1 ? "s" : ""}>`

/** The next own index of `a` at or after `from`, or `a.length` when there is none. */
const nextIndex = (a: Value[], from: number): number => {
  const scanTo = Math.min(a.length, from + 10_000)
  for (let i = from; i < scanTo; i++) if (safeOwn(a, String(i)) !== undefined) return i
  if (scanTo === a.length) return a.length
  // A long run of holes: look at the indices the array really has.
  reserveElements(Math.min(a.length, MAX_ARRAY_LENGTH), 40)
  let next = a.length
  for (const k of Object.keys(a)) {
    const i = Number(k)
    if (i >= from && i < next && String(i) === k) next = i
  }
  return next
}

/** The items of an array as Node shows them: up to 100 entries, a run of holes counting as one. */
const arrayItems = (
  v: Value[],
  depth: number,
  c: Context,
  items: string[],
  add: (make: () => string) => boolean,
): void => {
  let i = 0
  while (i < v.length && items.length < MAX_ITEMS) {
    const d = safeOwn(v, String(i))
    if (d === undefined) {
      const next = nextIndex(v, i)
      items.push(emptyItems(next - i))
      i = next
      continue
    }
    if (!add(() => ("value" in d ? format(d.value, depth + 1, c) : "[Getter]"))) return
    i++
  }
  const remaining = v.length - i
  if (remaining > 0) items.push(`... ${remaining} more item${remaining > 1 ? "s" : ""}`)
}

const format = (v: Value, depth: number, c: Context): string => {
  switch (typeof v) {
    case "string":
      return spend(c, quote(v))
    case "number":
      return spend(c, Object.is(v, -0) ? "-0" : String(v))
    case "boolean":
    case "undefined":
    case "bigint":
      return spend(c, String(v))
    case "symbol":
      return spend(c, v.toString())
  }
  if (v === null) return spend(c, "null")
  if (c.seen.includes(v)) {
    let id = c.circular.get(v)
    if (id === undefined) {
      id = c.circular.size + 1
      c.circular.set(v, id)
    }
    return spend(c, `[Circular *${id}]`)
  }
  const realm = rt.realm
  const isFunction = v[CALL] !== undefined
  if (isFunction && !c.showHidden) {
    const keys = ownKeys(v).filter((k) => safeOwn(v, k)?.enumerable)
    if (keys.length === 0 || depth > c.depth) return spend(c, functionText(v))
  }
  const brand = brandOf(v)
  if (brand === Brand.Error) {
    const stack = safeGet(v, "stack")
    const name = safeGet(v, "name")
    const message = safeGet(v, "message")
    const origin = originOf(v)
    const head =
      typeof stack === "string"
        ? stack
        : `${name ?? "Error"}${message ? `: ${message}` : ""}${origin ? `\n    at <program>:${origin.line}:${origin.column}` : ""}`
    const text = depth > 0 ? `[${head.split("\n")[0]}]` : head
    return spend(c, text.length > MAX_OUTPUT ? text.slice(0, MAX_OUTPUT) : text)
  }
  if (brand === Brand.Date) {
    const t = v[SLOT] as number
    return spend(c, Number.isNaN(t) ? "Invalid Date" : new Date(t).toISOString())
  }
  if (brand === Brand.RegExp) return spend(c, String(v[SLOT]))
  if (brand === Brand.Boolean || brand === Brand.Number || brand === Brand.String || brand === Brand.Symbol) {
    const kind =
      brand === Brand.Boolean
        ? "Boolean"
        : brand === Brand.Number
          ? "Number"
          : brand === Brand.String
            ? "String"
            : "Symbol"
    return `[${kind}: ${format(v[SLOT], 1, c)}]`
  }
  if (depth > c.depth) {
    if (Array.isArray(v)) return spend(c, "[Array]")
    return spend(c, `[${constructorName(v) ?? "Object"}]`)
  }
  c.seen.push(v)
  try {
    let prefix = ""
    const items: string[] = []
    let open = "{"
    let close = "}"
    /** Add an item unless the budget is spent (then a single "..." ends the list). */
    const add = (make: () => string): boolean => {
      if (c.budget <= 0) {
        if (items[items.length - 1] !== "...") items.push("...")
        return false
      }
      items.push(make())
      return true
    }
    if (brand === Brand.Promise) {
      const r = v[SLOT] as PromiseRecord
      prefix = "Promise "
      add(() =>
        r.state === 0
          ? "<pending>"
          : r.state === 1
            ? format(r.value, depth + 1, c)
            : `<rejected> ${format(r.value, depth + 1, c)}`,
      )
    } else if (brand === Brand.Map) {
      const m = v[SLOT] as Map<Value, Value>
      prefix = `Map(${m.size}) `
      for (const [k, x] of m) {
        if (items.length >= MAX_ITEMS) {
          items.push(`... ${m.size - MAX_ITEMS} more items`)
          break
        }
        if (!add(() => `${format(k, depth + 1, c)} => ${format(x, depth + 1, c)}`)) break
      }
    } else if (brand === Brand.Set) {
      const set = v[SLOT] as Set<Value>
      prefix = `Set(${set.size}) `
      for (const x of set) {
        if (items.length >= MAX_ITEMS) {
          items.push(`... ${set.size - MAX_ITEMS} more items`)
          break
        }
        if (!add(() => format(x, depth + 1, c))) break
      }
    } else if (Array.isArray(v)) {
      open = "["
      close = "]"
      arrayItems(v, depth, c, items, add)
      if (c.showHidden) items.push(`[length]: ${spend(c, String(v.length))}`)
    } else if (isFunction) {
      prefix = `${functionText(v)} `
    } else {
      const proto = Object.getPrototypeOf(v)
      if (brandOf(v) === Brand.Arguments) prefix = "[Arguments] "
      else if (proto === null) prefix = "[Object: null prototype] "
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
      if (!d || (!d.enumerable && !c.showHidden)) continue
      if (items.length > MAX_ITEMS) {
        items.push("...")
        break
      }
      const label = d.enumerable ? keyText(k) : hiddenKeyText(k)
      const shown = add(() => {
        const text =
          "value" in d
            ? format(d.value, depth + 1, c)
            : d.get && d.set
              ? "[Getter/Setter]"
              : d.get
                ? "[Getter]"
                : "[Setter]"
        return `${label}: ${text}`
      })
      if (!shown) break
    }
    const id = c.circular.get(v)
    const ref = id !== undefined ? `<ref *${id}> ` : ""
    if (items.length === 0) return spend(c, `${ref}${prefix}${open}${close}`)
    const single = `${ref}${prefix}${open} ${items.join(", ")} ${close}`
    if (single.length <= BREAK_LENGTH && !single.includes("\n")) return single
    const indent = "  ".repeat(depth + 1)
    return `${ref}${prefix}${open}\n${items.map((i) => indent + i).join(",\n")}\n${"  ".repeat(depth)}${close}`
  } finally {
    c.seen.pop()
  }
}
