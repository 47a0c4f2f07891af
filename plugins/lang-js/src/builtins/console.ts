/**
 * `console`: every method appends one entry to the execution's logs through the host. Arguments are formatted as
 * Node's `util.format` does (printf-style placeholders in a leading string, then inspected values), and every entry
 * is cut at `MAX_OUTPUT` characters, whatever path it takes (placeholders, labels, group indentation).
 */
import type { Realm } from "../runtime/realm.js"
import { arg, defineMethod, functionName, isCallable, isObject, type Value } from "../runtime/functions.js"
import { Brand, CALL, brandOf } from "../runtime/internals.js"
import { inspect, MAX_OUTPUT } from "../runtime/inspect.js"
import { charge } from "../runtime/meter.js"
import { toNumber, toStr } from "../runtime/operators.js"
import { rt } from "../runtime/state.js"
import { stringifyJson } from "./json.js"

const TRUNCATED = "... (truncated)"

/** Cut a log entry at the output bound. */
const capLine = (line: string): string => (line.length > MAX_OUTPUT ? `${line.slice(0, MAX_OUTPUT)}${TRUNCATED}` : line)

/** A number as Node formats it (`-0` keeps its sign). */
const numberText = (n: number): string => (Object.is(n, -0) ? "-0" : String(n))

/** Collects the pieces of one entry, stopping once the bound is passed. */
class Line {
  private parts: string[] = []
  private length = 0
  get full(): boolean {
    return this.length > MAX_OUTPUT
  }
  add(text: string): void {
    if (this.full) return
    const piece = text.length > MAX_OUTPUT + 1 ? text.slice(0, MAX_OUTPUT + 1) : text
    this.parts.push(piece)
    this.length += piece.length
  }
  text(): string {
    return capLine(this.parts.join(""))
  }
}

/** Install `console`. */
export const installConsole = (realm: Realm): void => {
  const console = realm.newObject()
  let groups = 0
  let indent = ""
  const counts = new Map<string, number>()
  const timers = new Map<string, number>()
  realm.resetHooks.push(() => {
    groups = 0
    indent = ""
    counts.clear()
    timers.clear()
  })
  const setGroups = (n: number) => {
    groups = n
    indent = "  ".repeat(Math.min(groups, MAX_OUTPUT / 2))
  }

  /** The names of the realm's built-in constructors (whose `toString` methods `%s` does not call). */
  const builtInConstructors = new Set<Value>()
  const noteBuiltIns = () => {
    for (const cell of realm.cells.values()) {
      const v = cell.value
      if (isObject(v) && v[CALL] !== undefined && /^[A-Z]/.test(functionName(v))) builtInConstructors.add(v)
    }
  }

  /** Node's `hasBuiltInToString`: true unless the object's `toString` comes from the program. */
  const hasBuiltInToString = (o: Value): boolean => {
    if (builtInConstructors.size === 0) noteBuiltIns()
    if (!isCallable(o.toString)) return true
    if (Object.prototype.hasOwnProperty.call(o, "toString")) return false
    let p = Object.getPrototypeOf(o)
    while (p !== null && !Object.prototype.hasOwnProperty.call(p, "toString")) p = Object.getPrototypeOf(p)
    if (p === null) return true
    const d = Object.getOwnPropertyDescriptor(p, "constructor")
    return d !== undefined && "value" in d && builtInConstructors.has(d.value)
  }

  /** One placeholder's text (`c` is the letter after `%`). */
  const placeholder = (c: string, v: Value): string => {
    switch (c) {
      case "s":
        if (typeof v === "number") return numberText(v)
        if (typeof v === "symbol") return v.toString()
        if (isObject(v) && v[CALL] === undefined && hasBuiltInToString(v)) return inspect(v, { depth: 0, quote: true })
        return toStr(v)
      case "d":
        return typeof v === "symbol" ? "NaN" : numberText(toNumber(v))
      case "i":
        return typeof v === "symbol" ? "NaN" : numberText(Number.parseInt(toStr(v), 10))
      case "f":
        return typeof v === "symbol" ? "NaN" : numberText(Number.parseFloat(toStr(v)))
      case "j":
        try {
          return stringifyJson(realm, v, undefined, undefined) ?? "undefined"
        } catch (thrown) {
          const e = thrown as Value
          if (isObject(e) && brandOf(e) === Brand.Error && String(e.message).includes("circular structure"))
            return "[Circular]"
          throw e
        }
      case "o":
        return inspect(v, { depth: 4, showHidden: true, quote: true })
      case "O":
        return inspect(v, { quote: true })
      default:
        return ""
    }
  }

  /** Format `console.log` arguments the way Node's `util.format` does, within the output bound. */
  const formatArguments = (args: Value[]): string => {
    const line = new Line()
    let next = 0
    const first = args[0]
    if (typeof first === "string") {
      if (args.length === 1) return capLine(first)
      let start = 0
      let used = false
      for (let i = 0; i < first.length - 1 && !line.full; i++) {
        if (first.charCodeAt(i) !== 37) continue
        const c = first[i + 1]
        if (c === "%") {
          line.add(first.slice(start, i + 1))
          start = i + 2
          i++
          used = true
          continue
        }
        if (next + 1 < args.length && "sdifjoOc".includes(c)) {
          line.add(first.slice(start, i))
          line.add(placeholder(c, args[++next]))
          start = i + 2
          i++
          used = true
        } else if (next + 1 < args.length) i++
      }
      if (used) {
        line.add(first.slice(start))
        next++
      }
    }
    for (let separator = next > 0; next < args.length && !line.full; next++, separator = true) {
      if (separator) line.add(" ")
      const v = args[next]
      line.add(typeof v === "string" ? v : inspect(v))
    }
    return line.text()
  }

  /** Append one entry, indented by the current group depth. */
  const log = (text: string): void => {
    // What was formatted is bounded by the output cap; it is charged a unit per 8 characters written (a short line
    // costs only its call).
    charge(text.length >> 3)
    if (indent === "") {
      rt.host.log(capLine(text))
      return
    }
    const line = new Line()
    let start = 0
    while (!line.full) {
      const end = text.indexOf("\n", start)
      line.add(indent)
      line.add(end < 0 ? text.slice(start) : text.slice(start, end + 1))
      if (end < 0) break
      start = end + 1
    }
    rt.host.log(line.text())
  }
  /** A label argument (`count`, `time`), cut to the output bound. */
  const label = (a: Value[]): string => {
    const l = arg(a, 0) === undefined ? "default" : toStr(a[0])
    return l.length > MAX_OUTPUT ? l.slice(0, MAX_OUTPUT) : l
  }

  defineMethod(console, "dir", 0, (_t, a) => {
    log(inspect(arg(a, 0), { quote: true }))
    return undefined
  })
  for (const name of ["log", "info", "debug", "warn", "error", "trace", "table"]) {
    defineMethod(console, name, 0, (_t, a) => {
      const text = formatArguments(a)
      log(name === "trace" ? `Trace: ${text}` : text)
      return undefined
    })
  }
  defineMethod(console, "assert", 0, (_t, a) => {
    if (!a[0]) log(a.length > 1 ? `Assertion failed: ${formatArguments(a.slice(1))}` : "Assertion failed")
    return undefined
  })
  defineMethod(console, "count", 0, (_t, a) => {
    const l = label(a)
    const n = (counts.get(l) ?? 0) + 1
    counts.set(l, n)
    log(`${l}: ${n}`)
    return undefined
  })
  defineMethod(console, "countReset", 0, (_t, a) => {
    counts.delete(label(a))
    return undefined
  })
  for (const name of ["group", "groupCollapsed"]) {
    defineMethod(console, name, 0, (_t, a) => {
      if (a.length > 0) log(formatArguments(a))
      setGroups(groups + 1)
      return undefined
    })
  }
  defineMethod(console, "groupEnd", 0, () => {
    if (groups > 0) setGroups(groups - 1)
    return undefined
  })
  defineMethod(console, "time", 0, (_t, a) => {
    timers.set(label(a), Date.now())
    return undefined
  })
  for (const name of ["timeEnd", "timeLog"]) {
    defineMethod(console, name, 0, (_t, a) => {
      const l = label(a)
      const start = timers.get(l)
      if (start !== undefined) log(`${l}: ${Date.now() - start}ms`)
      if (name === "timeEnd") timers.delete(l)
      return undefined
    })
  }
  realm.defineGlobal("console", console)
}
