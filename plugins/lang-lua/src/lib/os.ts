/**
 * The read-only part of the os library: `time`, `clock`, `date`, `difftime`. Everything else (`execute`, `exit`,
 * `getenv`, file operations) is absent on purpose and says so.
 */
import { charge, checkStringLength, errorAt, libError } from "../runtime.js"
import { LuaTable, makeFloat, type LuaFunction, type LuaValue } from "../value.js"
import { argError, checkInteger, checkTable, optString } from "./args.js"

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

/** The conversions Lua 5.4 accepts after `%`: single letters, and the `E` and `O` modified ones. */
const CONVERSIONS = new Set("aAbBcCdDeFgGhHIjmMnprRStTuUVwWxXyYzZ%")
const E_MODIFIED = new Set("cCxXyY")
const O_MODIFIED = new Set("deHImMSuUVwWy")

/** ISO 8601 week-based year and week number (`%G`, `%V`). */
const isoWeek = (year: number, yday: number, wday: number): { year: number; week: number } => {
  // yday is 1-based, wday 1 = Sunday; the week's Thursday decides its year.
  const monday0 = (wday + 5) % 7
  const week = Math.floor((yday - monday0 + 9) / 7)
  const p = (y: number) => (y + Math.floor(y / 4) - Math.floor(y / 100) + Math.floor(y / 400)) % 7
  const weeks = (y: number) => (p(y) === 4 || p(y - 1) === 3 ? 53 : 52)
  if (week < 1) return { year: year - 1, week: weeks(year - 1) }
  if (week > weeks(year)) return { year: year + 1, week: 1 }
  return { year, week }
}

/** The time zone's abbreviation for `%Z`: glibc names UTC "GMT" for `!` formats. */
const zoneName = (d: Date, utc: boolean): string => {
  if (utc) return "GMT"
  const part = new Intl.DateTimeFormat("en-US", { timeZoneName: "short" })
    .formatToParts(d)
    .find((x) => x.type === "timeZoneName")
  return part === undefined || part.value === "GMT" ? "UTC" : part.value
}

/** C's `strftime` (C locale) for the conversions Lua 5.4 accepts; the result is bounded by the string bound. */
const strftime = (format: string, d: Date, utc: boolean): string => {
  const f = fields(d, utc)
  const hour12 = f.hour % 12 === 0 ? 12 : f.hour % 12
  const yday = dayOfYear(f.year, f.month, f.day)
  const conversion = (k: string): string => {
    switch (k) {
      case "a":
        return DAYS[f.wday - 1].slice(0, 3)
      case "A":
        return DAYS[f.wday - 1]
      case "b":
      case "h":
        return MONTHS[f.month - 1].slice(0, 3)
      case "B":
        return MONTHS[f.month - 1]
      case "c":
        return `${DAYS[f.wday - 1].slice(0, 3)} ${MONTHS[f.month - 1].slice(0, 3)} ${pad(f.day, 2, " ")} ${pad(f.hour)}:${pad(f.min)}:${pad(f.sec)} ${f.year}`
      case "C":
        return pad(Math.floor(f.year / 100))
      case "d":
        return pad(f.day)
      case "D":
      case "x":
        return `${pad(f.month)}/${pad(f.day)}/${pad(f.year % 100)}`
      case "e":
        return pad(f.day, 2, " ")
      case "F":
        return `${f.year}-${pad(f.month)}-${pad(f.day)}`
      case "g":
        return pad(isoWeek(f.year, yday, f.wday).year % 100)
      case "G":
        return String(isoWeek(f.year, yday, f.wday).year)
      case "H":
        return pad(f.hour)
      case "I":
        return pad(hour12)
      case "j":
        return pad(yday, 3)
      case "m":
        return pad(f.month)
      case "M":
        return pad(f.min)
      case "n":
        return "\n"
      case "p":
        return f.hour < 12 ? "AM" : "PM"
      case "r":
        return `${pad(hour12)}:${pad(f.min)}:${pad(f.sec)} ${f.hour < 12 ? "AM" : "PM"}`
      case "R":
        return `${pad(f.hour)}:${pad(f.min)}`
      case "S":
        return pad(f.sec)
      case "t":
        return "\t"
      case "T":
      case "X":
        return `${pad(f.hour)}:${pad(f.min)}:${pad(f.sec)}`
      case "u":
        return String(f.wday === 1 ? 7 : f.wday - 1)
      case "U":
        return pad(Math.floor((yday - 1 + 7 - (f.wday - 1)) / 7))
      case "V":
        return pad(isoWeek(f.year, yday, f.wday).week)
      case "w":
        return String(f.wday - 1)
      case "W":
        return pad(Math.floor((yday - 1 + 7 - ((f.wday + 5) % 7)) / 7))
      case "y":
        return pad(f.year % 100)
      case "Y":
        return String(f.year)
      case "z": {
        const o = Math.abs(f.offset)
        return `${f.offset < 0 ? "-" : "+"}${pad(Math.floor(o / 60))}${pad(o % 60)}`
      }
      case "Z":
        return zoneName(d, utc)
      default:
        return "%"
    }
  }
  let out = ""
  for (let i = 0; i < format.length; i++) {
    const at = format.indexOf("%", i)
    if (at < 0) {
      out += format.slice(i)
      break
    }
    out += format.slice(i, at)
    let k = format[at + 1] ?? ""
    let spec = k
    if ((k === "E" && E_MODIFIED.has(format[at + 2])) || (k === "O" && O_MODIFIED.has(format[at + 2]))) {
      spec = k + format[at + 2]
      k = format[at + 2]
    } else if (k === "E" || k === "O" || !CONVERSIONS.has(k))
      // Lua quotes the rest of the format from the bad conversion on.
      throw argError(1, "os.date", `invalid conversion specifier '%${format.slice(at + 1)}'`)
    const piece = conversion(k)
    checkStringLength(out.length + piece.length)
    out += piece
    i = at + spec.length
  }
  return out
}

/** Build the os library table; `absent` names the functions that are unavailable on purpose. */
export const createOsLib = (absent: (name: string) => string | undefined): LuaTable => {
  const O = new LuaTable()
  const def = (name: string, fn: LuaFunction) => O.setStr(name, fn)

  def("time", function (t: LuaValue) {
    if (t === undefined) return Math.floor(Date.now() / 1000)
    const table = checkTable(t, 1, "os.time")
    const field = (name: string, fallback: number | undefined): number => {
      const v = table.getStr(name)
      if (v === undefined) {
        if (fallback === undefined) throw libError(`field '${name}' missing in date table`)
        return fallback
      }
      const i = typeof v === "string" ? Number(v) : v
      if (typeof i !== "number" && typeof i !== "bigint") throw libError(`field '${name}' is not an integer`)
      return Number(checkInteger(i as LuaValue, 1, "os.time"))
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
    let format = optString(fmt, 1, "os.date", "%c")
    charge(1 + format.length * 4)
    const seconds = t === undefined ? Date.now() / 1000 : Number(checkInteger(t, 2, "os.date"))
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
    const t1 = checkInteger(a, 1, "os.difftime", arguments.length >= 1)
    const t2 = checkInteger(b, 2, "os.difftime", arguments.length >= 2)
    return makeFloat(Number(t1) - Number(t2))
  })

  O.guard = (key, site) => {
    const message = typeof key === "string" ? absent(`os.${key}`) : undefined
    if (message !== undefined) throw errorAt(message, site)
    return undefined
  }
  return O
}
