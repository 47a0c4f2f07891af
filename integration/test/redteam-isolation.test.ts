/**
 * Red team: no execution sees another's state, in either language, on one reused sandbox.
 *
 * Every pair below runs on a pool of one sandbox, so the second program runs in the process (and the interpreter
 * thread) the first one left. A break is a second program that reads what the first one did.
 */
import { CodeMode, SandboxPool, Tool } from "@codemode/core"
import { Effect } from "effect"
import { afterAll, describe, expect, it } from "vitest"

const tools = {
  t: {
    slow: Tool.make({
      description: "Answer after a delay",
      input: { type: "object" },
      output: {},
      execute: ({ ms, v }: { ms: number; v: unknown }) => Effect.as(Effect.sleep(ms), v),
    }),
    boom: Tool.make({
      description: "Fail after a moment",
      input: { type: "object" },
      execute: () => Effect.andThen(Effect.sleep(5), Effect.fail(new Error("kaput"))),
    }),
  },
}

const pool = new SandboxPool({ maxWorkers: 1, keepIdle: 1 })
afterAll(() => pool.close())
const js = CodeMode.make({ language: "javascript", tools, pool })
const lua = CodeMode.make({ language: "lua", tools, pool })
const value = async (runtime: typeof js, code: string) => {
  const result = await Effect.runPromise(runtime.execute(code))
  if (!result.ok) throw new Error(`${result.error.kind}: ${result.error.message}`)
  return result.value
}

// V8's Math.random is xorshift128+ served from a cache of 64 values in reverse order; every output gives 52 bits of
// the state, linear over GF(2) in the 128 bits of a starting state. Solving for that state from a program's own draws
// gives every value the same generator produced before them.
const MASK = (1n << 64n) - 1n
const mantissa = (d: number): bigint => {
  const view = new DataView(new ArrayBuffer(8))
  view.setFloat64(0, d + 1)
  return view.getBigUint64(0) & ((1n << 52n) - 1n)
}
const toDouble = (s0: bigint): number => {
  const view = new DataView(new ArrayBuffer(8))
  view.setBigUint64(0, (s0 >> 12n) | 0x3ff0000000000000n)
  return view.getFloat64(0) - 1
}
type Bits = bigint[]
const shl = (v: Bits, n: number): Bits => v.map((_, i) => (i - n >= 0 ? v[i - n] : 0n))
const shr = (v: Bits, n: number): Bits => v.map((_, i) => (i + n < 64 ? v[i + n] : 0n))
const xor = (a: Bits, b: Bits): Bits => a.map((x, i) => x ^ b[i])
const step = ([a, b]: [Bits, Bits]): [Bits, Bits] => {
  let s1 = a
  s1 = xor(s1, shl(s1, 23))
  s1 = xor(s1, shr(s1, 17))
  s1 = xor(s1, b)
  s1 = xor(s1, shr(b, 26))
  return [b, s1]
}
const stepConcrete = ([a, b]: [bigint, bigint]): [bigint, bigint] => {
  let s1 = a
  s1 ^= (s1 << 23n) & MASK
  s1 ^= s1 >> 17n
  s1 ^= b
  s1 ^= b >> 26n
  return [b, s1]
}

/** Every value the generator produced around `draws` (a program's consecutive Math.random() values), if it is V8's. */
const generatorValues = (draws: ReadonlyArray<number>, before = 192): number[] | undefined => {
  const total = before + draws.length + 128
  const symbolic: Bits[] = []
  let state: [Bits, Bits] = [
    Array.from({ length: 64 }, (_, i) => 1n << BigInt(i)),
    Array.from({ length: 64 }, (_, i) => 1n << BigInt(64 + i)),
  ]
  for (let g = 0; g < total; g++) {
    state = step(state)
    symbolic.push(state[0])
  }
  for (let first = 0; first < 64; first++) {
    // The first draw is cache slot `first`; slots are served downwards, and the next cache holds later values.
    const generation = (j: number) => {
      const slot = first - j
      return before - Math.floor(slot / 64) * 64 + (((slot % 64) + 64) % 64)
    }
    const pivots = new Map<number, [bigint, bigint]>()
    let inconsistent = false
    for (let j = 0; j < Math.min(draws.length, 6) && !inconsistent; j++) {
      const bits = mantissa(draws[j])
      for (let b = 0; b < 52; b++) {
        let mask = symbolic[generation(j)][12 + b]
        let rhs = (bits >> BigInt(b)) & 1n
        for (let bit = 127; bit >= 0 && mask !== 0n; bit--) {
          if (((mask >> BigInt(bit)) & 1n) === 0n) continue
          const pivot = pivots.get(bit)
          if (pivot === undefined) {
            pivots.set(bit, [mask, rhs])
            mask = 0n
            rhs = 0n
          } else {
            mask ^= pivot[0]
            rhs ^= pivot[1]
          }
        }
        if (mask === 0n && rhs === 1n) inconsistent = true
      }
    }
    if (inconsistent || pivots.size < 128) continue
    const solution = new Array<bigint>(128).fill(0n)
    for (const bit of [...pivots.keys()].sort((x, y) => x - y)) {
      const [mask, rhs] = pivots.get(bit)!
      let r = rhs
      for (let o = 0; o < bit; o++) if ((mask >> BigInt(o)) & 1n) r ^= solution[o]
      solution[bit] = r
    }
    let concrete: [bigint, bigint] = [0n, 0n]
    for (let i = 0; i < 64; i++) {
      concrete[0] |= solution[i] << BigInt(i)
      concrete[1] |= solution[64 + i] << BigInt(i)
    }
    const values: number[] = []
    for (let g = 0; g < total; g++) {
      concrete = stepConcrete(concrete)
      values.push(toDouble(concrete[0]))
    }
    if (draws.every((d, j) => values[generation(j)] === d)) return values
  }
  return undefined
}

describe("red team: one execution cannot read another's state", () => {
  it("the solver finds earlier values of this process's own Math.random (so the test below can fail)", () => {
    const earlier = [Math.random(), Math.random(), Math.random()]
    for (let i = 0; i < 30; i++) Math.random()
    const values = generatorValues(Array.from({ length: 100 }, () => Math.random()))
    expect(values).toBeDefined()
    expect(earlier.every((x) => values!.includes(x))).toBe(true)
  })

  // lang-js: Math.random is an execution's own generator, seeded afresh from a cryptographic source.
  it("javascript: a program cannot recover the Math.random values the previous execution drew", async () => {
    const first = (await value(js, "[Math.random(), Math.random(), Math.random()]")) as number[]
    const second = (await value(js, "Array.from({ length: 100 }, () => Math.random())")) as number[]
    const values = generatorValues(second)
    expect(values !== undefined && first.some((x) => values.includes(x))).toBe(false)
  })

  it("javascript: the answer of a call the previous program left running never reaches the next one", async () => {
    for (let i = 0; i < 3; i++) {
      await value(js, `tools.t.slow({ ms: 30, v: "first" }); tools.t.boom({}); 1`)
      expect(await value(js, `await tools.t.slow({ ms: 60, v: "second" })`)).toBe("second")
      expect(await value(lua, `return tools.t.slow({ ms = 60, v = "third" })`)).toBe("third")
    }
  })

  it("lua: globals, libraries, json.null and the address counter start fresh", async () => {
    await value(
      lua,
      `string.upper = function() return "pwn" end
       table.concat = nil
       leak = "secret"
       json.null.poison = 1
       for i = 1, 100 do local _ = tostring({}) end
       return 1`,
    )
    const fresh = await value(lua, `return tostring({})`)
    expect(
      await value(
        lua,
        `return { string.upper("a"), type(table.concat), leak == nil, rawget(json.null, "poison") == nil, tostring({}) }`,
      ),
    ).toEqual(["A", "function", true, true, fresh])
  })

  it("lua: the garbage of a memory bomb does not make the next programs run out of memory", async () => {
    const bomb = await Effect.runPromise(
      lua.execute("local t = {} for i = 1, 1000 do local u = {} for j = 1, 100000 do u[j] = j + 0.5 end t[i] = u end"),
    )
    expect(!bomb.ok && bomb.error.message).toMatch(/ran out of memory/)
    for (let i = 0; i < 2; i++)
      expect(await value(lua, "local u = {} for j = 1, 1000000 do u[j] = j + 0.5 end return #u")).toBe(1_000_000)
  })

  it("javascript: the garbage of a memory bomb does not make the next programs run out of memory", async () => {
    const bomb = await Effect.runPromise(
      js.execute("const t = []; for (let i = 0; i < 100; i++) t.push(new Array(8e6).fill(i + 0.5)); t.length"),
    )
    expect(!bomb.ok && bomb.error.message).toMatch(/ran out of memory/)
    await value(
      js,
      "let junk = []; for (let i = 0; i < 40; i++) junk.push(new Array(1e6).fill(i + 0.5)); junk = null; 1",
    )
    expect(await value(js, "new Array(4e6).fill(1.5).length")).toBe(4_000_000)
  })

  it("javascript: built-ins and globals start fresh", async () => {
    await value(
      js,
      `Array.prototype.push = () => "pwn"; Object.prototype.polluted = 1; Object.freeze(Object.prototype)
       JSON.parse = () => "pwn"; globalThis.leak = 1; console.count("c"); 1`,
    )
    expect(
      await value(
        js,
        `console.count("c"); [[].push(1), "polluted" in {}, Object.isFrozen(Object.prototype), JSON.parse("2"), typeof leak]`,
      ),
    ).toEqual([1, false, false, 2, "undefined"])
  })
})
