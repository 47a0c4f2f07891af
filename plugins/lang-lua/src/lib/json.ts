/**
 * The json library: `json.encode(value)`, `json.decode(text)`, `json.null` (a JSON null that survives in tables)
 * and `json.array([t])` (an empty array, or `t` marked as an array so that it stays one when empty).
 */
import { DataProblem, fromData, toData } from "../data.js"
import { LuaFatal } from "../errors.js"
import { JSON_NULL } from "../ops.js"
import type { DataValue } from "../protocol.js"
import { checkStringLength, errorAt, locationOf, rt } from "../runtime.js"
import { utf8Decode, utf8Encode } from "../utf8.js"
import { LuaTable, type LuaFunction, type LuaValue } from "../value.js"
import { argError, checkString } from "./args.js"

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
    return text
  })

  def("decode", function (s: LuaValue) {
    const site = rt.site
    const text = utf8Decode(checkString(s, 1, "decode", arguments.length >= 1))
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
