/**
 * `console`: every method appends one entry to the execution's logs through the host.
 */
import { arg, defineMethod, type Value } from "../runtime/functions.js"
import { inspect } from "../runtime/inspect.js"
import { toNumber, toStr } from "../runtime/operators.js"
import type { Realm } from "../runtime/realm.js"
import { rt } from "../runtime/state.js"

/** Format `console.log` arguments: printf-style placeholders in a leading string, then inspected values. */
export const formatLogArguments = (args: Value[]): string => {
  const parts: string[] = []
  let rest = 0
  if (typeof args[0] === "string" && args[0].includes("%")) {
    let i = 1
    const text = args[0].replace(/%([sdifjoOc%])/g, (m, c: string) => {
      if (c === "%") return "%"
      if (i >= args.length) return m
      const v = args[i++]
      switch (c) {
        case "s":
          return typeof v === "string" ? v : inspect(v)
        case "d":
        case "i": {
          const n = typeof v === "object" && v !== null ? NaN : toNumber(v)
          return String(c === "i" ? Math.trunc(n) : n)
        }
        case "f":
          return String(typeof v === "symbol" ? NaN : toNumber(v))
        case "j":
          try {
            return JSON.stringify(v) ?? "undefined"
          } catch {
            return "[Circular]"
          }
        case "c":
          return ""
        default:
          return inspect(v)
      }
    })
    parts.push(text)
    rest = i
  } else if (args.length > 0) {
    parts.push(inspect(args[0]))
    rest = 1
  }
  for (let i = rest; i < args.length; i++) parts.push(inspect(args[i]))
  return parts.join(" ")
}

/** Install `console`. */
export const installConsole = (realm: Realm): void => {
  const console = realm.newObject()
  let indent = ""
  const counts = new Map<string, number>()
  const timers = new Map<string, number>()
  realm.resetHooks.push(() => {
    indent = ""
    counts.clear()
    timers.clear()
  })
  const log = (line: string) => {
    rt.host.log(
      indent === ""
        ? line
        : line
            .split("\n")
            .map((l) => indent + l)
            .join("\n"),
    )
  }
  for (const name of ["log", "info", "debug", "warn", "error", "trace", "dir", "table"]) {
    defineMethod(console, name, 0, (_t, a) => {
      const text = formatLogArguments(a)
      log(name === "trace" ? `Trace: ${text}` : text)
      return undefined
    })
  }
  defineMethod(console, "assert", 0, (_t, a) => {
    if (!a[0]) log(a.length > 1 ? `Assertion failed: ${formatLogArguments(a.slice(1))}` : "Assertion failed")
    return undefined
  })
  defineMethod(console, "count", 0, (_t, a) => {
    const label = arg(a, 0) === undefined ? "default" : toStr(a[0])
    const n = (counts.get(label) ?? 0) + 1
    counts.set(label, n)
    log(`${label}: ${n}`)
    return undefined
  })
  defineMethod(console, "countReset", 0, (_t, a) => {
    counts.delete(arg(a, 0) === undefined ? "default" : toStr(a[0]))
    return undefined
  })
  for (const name of ["group", "groupCollapsed"]) {
    defineMethod(console, name, 0, (_t, a) => {
      if (a.length > 0) log(formatLogArguments(a))
      indent += "  "
      return undefined
    })
  }
  defineMethod(console, "groupEnd", 0, () => {
    indent = indent.slice(2)
    return undefined
  })
  defineMethod(console, "time", 0, (_t, a) => {
    timers.set(arg(a, 0) === undefined ? "default" : toStr(a[0]), Date.now())
    return undefined
  })
  for (const name of ["timeEnd", "timeLog"]) {
    defineMethod(console, name, 0, (_t, a) => {
      const label = arg(a, 0) === undefined ? "default" : toStr(a[0])
      const start = timers.get(label)
      if (start !== undefined) log(`${label}: ${Date.now() - start}ms`)
      if (name === "timeEnd") timers.delete(label)
      return undefined
    })
  }
  realm.defineGlobal("console", console)
}
