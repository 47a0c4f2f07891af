/**
 * The json library: `json.encode(value)`, `json.decode(text)`, `json.null` (a JSON null that survives in tables)
 * and `json.array([t])` (an empty array, or `t` marked as an array so that it stays one when empty).
 */
import { DataProblem, fromData, MAX_DATA_DEPTH, toData } from "../data.js"
import { LuaFatal } from "../errors.js"
import { JSON_NULL } from "../ops.js"
import type { DataValue } from "@codemode/core/sandbox"
import { charge, checkStringLength, errorAt, locationOf, rt } from "../runtime.js"
import { utf8Decode, utf8Encode } from "../utf8.js"
import { LuaTable, MAX_TABLE_ENTRIES, type LuaFunction, type LuaValue } from "../value.js"
import { argError, checkString } from "./args.js"

/** The most values (scalars and containers) one `json.decode` may create. */
export const MAX_DECODED_VALUES = MAX_TABLE_ENTRIES

/**
 * An upper bound of the number of values a JSON text decodes to, and its nesting depth, found in one pass without
 * allocating (so that `JSON.parse` never builds more than the bounds allow). Brackets inside strings do not count.
 */
const measureJson = (text: string): { values: number; depth: number } => {
  let values = 1
  let depth = 0
  let deepest = 0
  const n = text.length
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i)
    if (c === 34) {
      // skip the string
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i)
        if (d === 92) i++
        else if (d === 34) break
      }
    } else if (c === 91 || c === 123) {
      values++
      if (++depth > deepest) deepest = depth
    } else if (c === 93 || c === 125) depth--
    else if (c === 44) values++
    else if (c === 58) values++
  }
  return { values, depth: deepest }
}

/** Build the json library table. */
export const createJsonLib = (): LuaTable => {
  const J = new LuaTable()
  const def = (name: string, fn: LuaFunction) => J.setStr(name, fn)
  J.setStr("null", JSON_NULL)

  def("encode", function (v: LuaValue) {
    const site = rt.site
    let data: DataValue
    try {
      data = toData(v)
    } catch (e) {
      if (!(e instanceof DataProblem)) throw e
      const message = `json.encode: ${e.reason} at ${e.path}`
      if (e.bound) throw new LuaFatal("ExecutionFailure", message, locationOf(site))
      throw errorAt(message, site)
    }
    const text = utf8Encode(JSON.stringify(data))
    checkStringLength(text.length, site)
    charge(1 + text.length * 2)
    return text
  })

  def("decode", function (s: LuaValue) {
    const site = rt.site
    const bytes = checkString(s, 1, "decode", arguments.length >= 1)
    const shape = measureJson(bytes)
    charge(1 + bytes.length * 2 + shape.values * 16)
    if (shape.depth > MAX_DATA_DEPTH)
      throw new LuaFatal(
        "ExecutionFailure",
        `json.decode: data is nested deeper than ${MAX_DATA_DEPTH} levels`,
        locationOf(site),
      )
    if (shape.values > MAX_DECODED_VALUES)
      throw new LuaFatal(
        "ExecutionFailure",
        `json.decode: the text holds more than ${MAX_DECODED_VALUES.toLocaleString("en-US")} values, the limit of one decode`,
        locationOf(site),
      )
    const text = utf8Decode(bytes)
    if (text === undefined) throw errorAt("json.decode: the text is not valid UTF-8", site)
    let parsed: DataValue
    try {
      parsed = JSON.parse(text) as DataValue
    } catch (e) {
      throw errorAt(`json.decode: ${(e as Error).message}`, site)
    }
    try {
      return fromData(parsed)
    } catch (e) {
      if (!(e instanceof DataProblem)) throw e
      throw new LuaFatal("ExecutionFailure", `json.decode: ${e.reason}`, locationOf(site))
    }
  })

  def("array", function (t: LuaValue) {
    if (t === undefined) {
      const a = new LuaTable()
      a.jsonArray = true
      return a
    }
    if (!(t instanceof LuaTable) || t === JSON_NULL) throw argError(1, "array", "table expected")
    t.jsonArray = true
    return t
  })

  return J
}
