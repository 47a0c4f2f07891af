/**
 * The math library, with Lua 5.4's integer/float distinctions (`math.floor` returns integers, `math.type`,
 * `math.tointeger`, `math.ult`) and its xoshiro256** generator for `math.random`. The generator starts from a fixed
 * seed on every run, so runs are reproducible; `math.randomseed(n)` reseeds it exactly as Lua 5.4 does.
 */
import { cFmod, cLog } from "../floats.js"
import { lessThan, toIntegerExact } from "../numbers.js"
import { libError, rt } from "../runtime.js"
import {
  floatToInteger,
  LuaFloat,
  LuaTable,
  makeFloat,
  MAX_INTEGER,
  MIN_INTEGER,
  normaliseInteger,
  type LuaFunction,
  type LuaValue,
} from "../value.js"
import { argError, checkAny, checkDouble, checkInteger, checkNumber } from "./args.js"

const MASK = 0xffffffffffffffffn
const rotl = (x: bigint, n: bigint): bigint => ((x << n) | (x >> (64n - n))) & MASK

/** Lua 5.4's xoshiro256** state; a new generator is in the state `math.randomseed(0, 0)` leaves, as every run starts. */
class Xoshiro {
  private s: Array<bigint>

  constructor(state: ReadonlyArray<bigint> = ZERO_SEEDED) {
    this.s = [...state]
  }

  /** The current state (a copy). */
  state(): ReadonlyArray<bigint> {
    return [...this.s]
  }

  seed(n1: bigint, n2: bigint): void {
    this.s = [BigInt.asUintN(64, n1), 0xffn, BigInt.asUintN(64, n2), 0n]
    for (let i = 0; i < 16; i++) this.next()
  }

  next(): bigint {
    const s = this.s
    const result = (rotl((s[1] * 5n) & MASK, 7n) * 9n) & MASK
    const t = (s[1] << 17n) & MASK
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = rotl(s[3], 45n)
    return result
  }
}

/** The state after `seed(0n, 0n)`, computed once: seeding runs the generator 16 times on bigints (9 µs a run). */
const ZERO_SEEDED: ReadonlyArray<bigint> = (() => {
  const gen = new Xoshiro([0n, 0n, 0n, 0n])
  gen.seed(0n, 0n)
  return gen.state()
})()

/** Project a random 64-bit value into `[0, n]` without bias, as Lua 5.4 does. */
const project = (ran: bigint, n: bigint, gen: Xoshiro): bigint => {
  if ((n & (n + 1n)) === 0n) return ran & n
  let lim = n
  for (const shift of [1n, 2n, 4n, 8n, 16n, 32n]) lim |= lim >> shift
  while ((ran &= lim) > n) ran = gen.next()
  return ran
}

const toDouble = (v: number | bigint | LuaFloat): number =>
  typeof v === "number" ? v : typeof v === "bigint" ? Number(v) : v.n
const isInt = (v: LuaValue): v is number | bigint =>
  typeof v === "bigint" || (typeof v === "number" && Number.isSafeInteger(v))

/**
 * A numeric string argument as the float Lua's `luaL_checknumber` makes of it: functions that keep integers
 * (`abs`, `floor`, `ceil`, `fmod`, `modf`) test the argument itself for an integer, and a string is none.
 */
const asFloatIfString = (arg: LuaValue, v: number | bigint | LuaFloat): number | bigint | LuaFloat =>
  typeof arg === "string" ? makeFloat(toDouble(v)) : v

/** `f(d)`, or `d` itself when it is a NaN (C keeps the NaN's sign). */
const floatOrNaN = (f: (d: number) => number, d: number): number => (d !== d ? d : f(d))

/** `floor`/`ceil` result: an integer when it fits, else the float. */
const integralResult = (f: number): LuaValue => {
  const i = floatToInteger(f)
  return i === undefined ? makeFloat(f) : i
}

/** Build the math library table. */
export const createMathLib = (): LuaTable => {
  const M = new LuaTable()
  const def = (name: string, fn: LuaFunction) => M.setStr(name, fn)
  const float1 = (name: string, op: (x: number) => number) =>
    def(name, function (x: LuaValue) {
      const d = checkDouble(x, 1, `math.${name}`, arguments.length >= 1)
      // C's functions return a NaN argument itself (its sign included).
      return makeFloat(d !== d ? d : op(d))
    })
  const gen = new Xoshiro()

  M.setStr("pi", Math.PI)
  M.setStr("huge", Infinity)
  M.setStr("maxinteger", MAX_INTEGER)
  M.setStr("mininteger", MIN_INTEGER)

  def("abs", function (x: LuaValue) {
    const v = asFloatIfString(x, checkNumber(x, 1, "math.abs", arguments.length >= 1))
    if (typeof v === "number") return Math.abs(v)
    if (typeof v === "bigint") return normaliseInteger(v < 0n ? -v : v)
    return new LuaFloat(Math.abs(v.n))
  })
  def("floor", function (x: LuaValue) {
    const v = asFloatIfString(x, checkNumber(x, 1, "math.floor", arguments.length >= 1))
    return isInt(v) ? v : integralResult(floatOrNaN(Math.floor, toDouble(v)))
  })
  def("ceil", function (x: LuaValue) {
    const v = asFloatIfString(x, checkNumber(x, 1, "math.ceil", arguments.length >= 1))
    return isInt(v) ? v : integralResult(floatOrNaN(Math.ceil, toDouble(v)))
  })
  float1("sqrt", Math.sqrt)
  float1("deg", (x) => x * (180 / Math.PI))
  float1("rad", (x) => x * (Math.PI / 180))
  float1("exp", Math.exp)
  float1("sin", Math.sin)
  float1("cos", Math.cos)
  float1("tan", Math.tan)
  float1("asin", Math.asin)
  float1("acos", Math.acos)
  def("atan", function (y: LuaValue, x: LuaValue) {
    const a = checkDouble(y, 1, "math.atan", arguments.length >= 1)
    const b = x === undefined ? 1 : checkDouble(x, 2, "math.atan")
    return makeFloat(Math.atan2(a, b))
  })
  def("log", function (x: LuaValue, base: LuaValue) {
    const v = checkDouble(x, 1, "math.log", arguments.length >= 1)
    if (base === undefined) return makeFloat(cLog(Math.log, v))
    const b = checkDouble(base, 2, "math.log")
    if (b === 2) return makeFloat(cLog(Math.log2, v))
    if (b === 10) return makeFloat(Math.log10(v))
    return makeFloat(cLog(Math.log, v) / cLog(Math.log, b))
  })
  def("fmod", function (a: LuaValue, b: LuaValue) {
    // PUC Lua checks both arguments in one C call expression, which its compiler evaluates right to left.
    const y = asFloatIfString(b, checkNumber(b, 2, "math.fmod", arguments.length >= 2))
    const x = asFloatIfString(a, checkNumber(a, 1, "math.fmod", arguments.length >= 1))
    if (isInt(x) && isInt(y)) {
      // eslint-disable-next-line eqeqeq
      if (y == 0) throw argError(2, "math.fmod", "zero")
      if (typeof x === "number" && typeof y === "number") return (x % y) + 0
      return normaliseInteger(BigInt(x) % BigInt(y))
    }
    return makeFloat(cFmod(toDouble(x), toDouble(y)))
  })
  def("modf", function (x: LuaValue) {
    const v = asFloatIfString(x, checkNumber(x, 1, "math.modf", arguments.length >= 1))
    if (isInt(v)) return [v, new LuaFloat(0)]
    const d = toDouble(v)
    if (d !== d) return [d, d]
    const ip = d < 0 ? Math.ceil(d) : Math.floor(d)
    return [integralResult(ip), makeFloat(d === ip ? 0 : d - ip)]
  })
  def("tointeger", function (x: LuaValue) {
    checkAny(arguments.length >= 1, 1, "math.tointeger")
    return toIntegerExact(x)
  })
  def("type", function (x: LuaValue) {
    checkAny(arguments.length >= 1, 1, "math.type")
    if (isInt(x)) return "integer"
    if (typeof x === "number" || x instanceof LuaFloat) return "float"
    return undefined
  })
  def("ult", function (a: LuaValue, b: LuaValue) {
    const x = checkInteger(a, 1, "math.ult", arguments.length >= 1)
    const y = checkInteger(b, 2, "math.ult", arguments.length >= 2)
    return BigInt.asUintN(64, BigInt(x)) < BigInt.asUintN(64, BigInt(y))
  })
  // Lua 5.4 compares the arguments as they are (no conversion; strings compare with strings) and returns one of them.
  const extreme = (name: string, wantMax: boolean) =>
    def(name, function (...args: Array<LuaValue>) {
      if (args.length === 0) throw argError(1, `math.${name}`, "value expected")
      const site = -Math.abs(rt.site)
      let best = args[0]
      for (let i = 1; i < args.length; i++) {
        const v = args[i]
        if (wantMax ? lessThan(best, v, site) : lessThan(v, best, site)) best = v
      }
      return best
    })
  extreme("max", true)
  extreme("min", false)

  def("random", function (m: LuaValue, n: LuaValue) {
    const rv = gen.next()
    let low: bigint
    let up: bigint
    switch (arguments.length) {
      case 0:
        return makeFloat(Number(rv >> 11n) * 2 ** -53)
      case 1:
        low = 1n
        up = BigInt(checkInteger(m, 1, "math.random"))
        if (up === 0n) return normaliseInteger(rv)
        break
      case 2:
        low = BigInt(checkInteger(m, 1, "math.random"))
        up = BigInt(checkInteger(n, 2, "math.random"))
        break
      default:
        throw libError("wrong number of arguments")
    }
    if (low > up) throw argError(1, "math.random", "interval is empty")
    const p = project(rv, BigInt.asUintN(64, up - low), gen)
    return normaliseInteger(p + low)
  })
  def("randomseed", function (a: LuaValue, b: LuaValue) {
    const n1 = a === undefined ? 0n : BigInt(checkInteger(a, 1, "math.randomseed"))
    const n2 = b === undefined ? 0n : BigInt(checkInteger(b, 2, "math.randomseed"))
    gen.seed(n1, n2)
    return [normaliseInteger(n1), normaliseInteger(n2)]
  })
  return M
}
