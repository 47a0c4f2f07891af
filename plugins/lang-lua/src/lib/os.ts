/**
 * The read-only part of the os library: `time`, `clock`, `date`, `difftime`. Everything else (`execute`, `exit`,
 * `getenv`, file operations) is absent on purpose and says so.
 */
import { errorAt, libError } from "../runtime.js"
import { LuaTable, makeFloat, type LuaFunction, type LuaValue } from "../value.js"
import { argError, checkDouble, checkInteger, checkTable, optString } from "./args.js"

const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
]
const pad = (n: number, width = 2, fill = "0") => String(n).padStart(width, fill)

/** The broken-down fields of a time, in local time or UTC. */
const fields = (d: Date, utc: boolean) => ({
  year: utc ? d.getUTCFullYear() : d.getFullYear(),
  month: (utc ? d.getUTCMonth() : d.getMonth()) + 1,
  day: utc ? d.getUTCDate() : d.getDate(),
  hour: utc ? d.getUTCHours() : d.getHours(),
  min: utc ? d.getUTCMinutes() : d.getMinutes(),
  sec: utc ? d.getUTCSeconds() : d.getSeconds(),
  wday: (utc ? d.getUTCDay() : d.getDay()) + 1,
  offset: utc ? 0 : -d.getTimezoneOffset(),
})

const dayOfYear = (y: number, m: number, day: number) =>
  Math.round((Date.UTC(y, m - 1, day) - Date.UTC(y, 0, 1)) / 86_400_000) + 1

/** C's `strftime` for the conversions Lua 5.4 accepts (C99 set without locale modifiers). */
const strftime = (format: string, d: Date, utc: boolean): string => {
  const f = fields(d, utc)
  const hour12 = f.hour % 12 === 0 ? 12 : f.hour % 12
  let out = ""
  for (let i = 0; i < format.length; i++) {
    const c = format[i]
    if (c !== "%") {
      out += c
      continue
    }
    const k = format[++i]
    switch (k) {
      case "a":
        out += DAYS[f.wday - 1].slice(0, 3)
        break
      case "A":
        out += DAYS[f.wday - 1]
        break
      case "b":
      case "h":
        out += MONTHS[f.month - 1].slice(0, 3)
        break
      case "B":
        out += MONTHS[f.month - 1]
        break
      case "c":
        out += `${DAYS[f.wday - 1].slice(0, 3)} ${MONTHS[f.month - 1].slice(0, 3)} ${pad(f.day, 2, " ")} ${pad(f.hour)}:${pad(f.min)}:${pad(f.sec)} ${f.year}`
        break
      case "C":
        out += pad(Math.floor(f.year / 100))
        break
      case "d":
        out += pad(f.day)
        break
      case "D":
        out += `${pad(f.month)}/${pad(f.day)}/${pad(f.year % 100)}`
        break
      case "e":
        out += pad(f.day, 2, " ")
        break
      case "F":
        out += `${f.year}-${pad(f.month)}-${pad(f.day)}`
        break
      case "H":
        out += pad(f.hour)
        break
      case "I":
        out += pad(hour12)
        break
      case "j":
        out += pad(dayOfYear(f.year, f.month, f.day), 3)
        break
      case "m":
        out += pad(f.month)
        break
      case "M":
        out += pad(f.min)
        break
      case "n":
        out += "\n"
        break
      case "p":
        out += f.hour < 12 ? "AM" : "PM"
        break
      case "r":
        out += `${pad(hour12)}:${pad(f.min)}:${pad(f.sec)} ${f.hour < 12 ? "AM" : "PM"}`
        break
      case "R":
        out += `${pad(f.hour)}:${pad(f.min)}`
        break
      case "S":
        out += pad(f.sec)
        break
      case "t":
        out += "\t"
        break
      case "T":
      case "X":
        out += `${pad(f.hour)}:${pad(f.min)}:${pad(f.sec)}`
        break
      case "u":
        out += String(f.wday === 1 ? 7 : f.wday - 1)
        break
      case "w":
        out += String(f.wday - 1)
        break
      case "x":
        out += `${pad(f.month)}/${pad(f.day)}/${pad(f.year % 100)}`
        break
      case "y":
        out += pad(f.year % 100)
        break
      case "Y":
        out += String(f.year)
        break
      case "z": {
        const o = Math.abs(f.offset)
        out += `${f.offset < 0 ? "-" : "+"}${pad(Math.floor(o / 60))}${pad(o % 60)}`
        break
      }
      case "Z":
        out += utc ? "UTC" : "GMT"
        break
      case "%":
        out += "%"
        break
      default:
        throw argError(1, "date", `invalid conversion specifier '%${k ?? ""}'`)
    }
  }
  return out
}

/** Build the os library table; `absent` names the functions that are unavailable on purpose. */
export const createOsLib = (absent: (name: string) => string | undefined): LuaTable => {
  const O = new LuaTable()
  const def = (name: string, fn: LuaFunction) => O.setStr(name, fn)

  def("time", function (t: LuaValue) {
    if (t === undefined) return Math.floor(Date.now() / 1000)
    const table = checkTable(t, 1, "time")
    const field = (name: string, fallback: number | undefined): number => {
      const v = table.getStr(name)
      if (v === undefined) {
        if (fallback === undefined) throw libError(`field '${name}' missing in date table`)
        return fallback
      }
      const i = typeof v === "string" ? Number(v) : v
      if (typeof i !== "number" && typeof i !== "bigint") throw libError(`field '${name}' is not an integer`)
      return Number(checkInteger(i as LuaValue, 1, "time"))
    }
    const date = new Date(
      field("year", undefined),
      field("month", undefined) - 1,
      field("day", undefined),
      field("hour", 12),
      field("min", 0),
      field("sec", 0),
    )
    const ms = date.getTime()
    if (Number.isNaN(ms)) throw libError("time result cannot be represented in this installation")
    return Math.floor(ms / 1000)
  })

  // The worker's CPU time would include other work in the process: the clock counts seconds since the run started.
  const started = performance.now()
  def("clock", function () {
    return makeFloat((performance.now() - started) / 1000)
  })

  def("date", function (fmt: LuaValue, t: LuaValue) {
    let format = optString(fmt, 1, "date", "%c")
    const seconds = t === undefined ? Date.now() / 1000 : checkDouble(t, 2, "date")
    const utc = format.startsWith("!")
    if (utc) format = format.slice(1)
    const d = new Date(Math.floor(seconds) * 1000)
    if (Number.isNaN(d.getTime())) throw libError("date result cannot be represented in this installation")
    if (format.startsWith("*t")) {
      const f = fields(d, utc)
      const r = new LuaTable()
      for (const [k, v] of Object.entries({
        year: f.year,
        month: f.month,
        day: f.day,
        hour: f.hour,
        min: f.min,
        sec: f.sec,
        wday: f.wday,
        yday: dayOfYear(f.year, f.month, f.day),
      }))
        r.setStr(k, v)
      r.setStr("isdst", false)
      return r
    }
    return strftime(format, d, utc)
  })

  def("difftime", function (a: LuaValue, b: LuaValue) {
    return makeFloat(checkDouble(a, 1, "difftime") - (b === undefined ? 0 : checkDouble(b, 2, "difftime")))
  })

  O.guard = (key, site) => {
    const message = typeof key === "string" ? absent(`os.${key}`) : undefined
    if (message !== undefined) throw errorAt(message, site)
    return undefined
  }
  return O
}
