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

/** 2^32, to carry between the 32-bit halves of a 64-bit word. */
const TWO32 = 4294967296

/**
 * Lua 5.4's xoshiro256** state; a new generator is in the state `math.randomseed(0, 0)` leaves, as every run starts.
 * Each 64-bit word is held as two 32-bit halves (`s[2k]` high, `s[2k + 1]` low, as int32 values, which V8 keeps
 * in integer registers), so that a step is a few integer operations and allocates nothing.
 */
class Xoshiro {
  private readonly s = new Int32Array(8)
  /** The high 32 bits of the last value {@link next} made (as an int32). */
  hi = 0
  /** Its low 32 bits (as an int32). */
  lo = 0

  constructor(state: ArrayLike<number> = ZERO_SEEDED) {
    this.s.set(state)
  }

  /** The current state (a copy). */
  state(): ReadonlyArray<number> {
    return Array.from(this.s)
  }

  seed(n1: bigint, n2: bigint): void {
    const a = BigInt.asUintN(64, n1)
    const b = BigInt.asUintN(64, n2)
    this.s.set([Number(a >> 32n), Number(a & 0xffffffffn), 0, 0xff, Number(b >> 32n), Number(b & 0xffffffffn), 0, 0])
    for (let i = 0; i < 16; i++) this.next()
  }

  /** Advance the state; the value made is in {@link hi} and {@link lo}. */
  next(): void {
    const s = this.s
    const h1 = s[2]
    const l1 = s[3]
    // rotl(s1 * 5, 7) * 9, modulo 2^64: the low halves' products, their carries from the exact unsigned products.
    const pl = Math.imul(l1, 5)
    const c1 = ((l1 >>> 0) * 5) / TWO32
    const ph = (Math.imul(h1, 5) + (c1 | 0)) | 0
    const rh = (ph << 7) | (pl >>> 25)
    const rl = (pl << 7) | (ph >>> 25)
    this.lo = Math.imul(rl, 9)
    const c2 = ((rl >>> 0) * 9) / TWO32
    this.hi = (Math.imul(rh, 9) + (c2 | 0)) | 0
    // t = s1 << 17; s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3; s2 ^= t; s3 = rotl(s3, 45).
    const th = (h1 << 17) | (l1 >>> 15)
    const tl = l1 << 17
    s[4] ^= s[0]
    s[5] ^= s[1]
    s[6] ^= h1
    s[7] ^= l1
    s[2] ^= s[4]
    s[3] ^= s[5]
    s[0] ^= s[6]
    s[1] ^= s[7]
    s[4] ^= th
    s[5] ^= tl
    const h3 = s[6]
    const l3 = s[7]
    s[6] = (l3 << 13) | (h3 >>> 19)
    s[7] = (h3 << 13) | (l3 >>> 19)
  }

  /** The last value made, as an unsigned 64-bit bigint. */
  value(): bigint {
    return (BigInt(this.hi >>> 0) << 32n) | BigInt(this.lo >>> 0)
  }

  /** The last value made as a float in [0, 1): its top 53 bits, as Lua 5.4's `I2d` does. */
  float(): number {
    return ((this.hi >>> 0) * 2097152 + (this.lo >>> 11)) * 2 ** -53
  }
}

/** The state after `seed(0n, 0n)`, computed once (seeding runs the generator 16 times). */
const ZERO_SEEDED: ReadonlyArray<number> = (() => {
  const gen = new Xoshiro([0, 0, 0, 0, 0, 0, 0, 0])
  gen.seed(0n, 0n)
  return gen.state()
})()

/**
 * Project the generator's last value into `[0, n]` without bias, as Lua 5.4 does: mask it to the smallest `2^b - 1`
 * not below `n`, and draw again while it is above `n`. {@link projectSmall} is the same for an `n` below 2^32, on
 * the values' low halves.
 */
const project = (n: bigint, gen: Xoshiro): bigint => {
  if (n < 0x100000000n) return BigInt(projectSmall(Number(n), gen))
  let lim = n
  for (const shift of [1n, 2n, 4n, 8n, 16n, 32n]) lim |= lim >> shift
  let ran = gen.value() & lim
  while (ran > n) {
    gen.next()
    ran = gen.value() & lim
  }
  return ran
}

const projectSmall = (n: number, gen: Xoshiro): number => {
  let lim = n
  for (let shift = 1; shift <= 16; shift *= 2) lim = (lim | (lim >>> shift)) >>> 0
  let ran = (gen.lo & lim) >>> 0
  while (ran > n) {
    gen.next()
    ran = (gen.lo & lim) >>> 0
  }
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
    gen.next()
    let low: number | bigint
    let up: number | bigint
    switch (arguments.length) {
      case 0:
        return makeFloat(gen.float())
      case 1:
        low = 1
        up = checkInteger(m, 1, "math.random")
        if (up === 0) return normaliseInteger(gen.value())
        break
      case 2:
        low = checkInteger(m, 1, "math.random")
        up = checkInteger(n, 2, "math.random")
        break
      default:
        throw libError("wrong number of arguments")
    }
    if (low > up) throw argError(1, "math.random", "interval is empty")
    // A small interval of plain integers takes no bigint.
    if (typeof low === "number" && typeof up === "number" && up - low < 0x100000000)
      return projectSmall(up - low, gen) + low
    const p = project(BigInt.asUintN(64, BigInt(up) - BigInt(low)), gen)
    return normaliseInteger(p + BigInt(low))
  })
  def("randomseed", function (a: LuaValue, b: LuaValue) {
    const n1 = a === undefined ? 0n : BigInt(checkInteger(a, 1, "math.randomseed"))
    const n2 = b === undefined ? 0n : BigInt(checkInteger(b, 2, "math.randomseed"))
    gen.seed(n1, n2)
    return [normaliseInteger(n1), normaliseInteger(n2)]
  })
  return M
}
