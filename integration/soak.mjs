#!/usr/bin/env node
/**
 * The chaos soak: thousands of executions of both languages, many in flight at once, mixing ordinary programs (each
 * result checked against the value it must have) with un-awaited calls, timeouts, interruptions, memory bombs and
 * attempts to poison the state the next program sees. It counts wrong results (must be zero), watches the host's
 * event loop, and compares the host's memory before and after.
 *
 * `npm run soak` runs 5,000 executions, 16 in flight, in the process-wide pool;
 * `node integration/soak.mjs --executions N --concurrency C [--seed S] [--heap-mb M]`. The short variant in `npm test`
 * (integration/test/soak.test.ts) calls {@link soak} with fewer executions and small sandbox heaps.
 */
import { monitorEventLoopDelay } from "node:perf_hooks"
import { CodeMode, SandboxPool, Tool } from "@codemode/core"
import { Effect, Option } from "effect"

const records = (n) => Array.from({ length: n }, (_, i) => ({ id: i + 1, price: ((i + 1) * 7) % 50 }))
const sumOf = (n) => records(n).reduce((s, r) => s + r.price, 0)

const tools = {
  t: {
    echo: Tool.make({ description: "Echo the input", input: { type: "object" }, output: {}, execute: Effect.succeed }),
    add: Tool.make({
      description: "Add two numbers",
      input: { type: "object" },
      output: { type: "number" },
      execute: ({ a, b }) => Effect.succeed(a + b),
    }),
    slow: Tool.make({
      description: "Answer after a delay",
      input: { type: "object" },
      output: {},
      execute: ({ ms, v }) => Effect.as(Effect.sleep(ms), v),
    }),
    boom: Tool.make({
      description: "Fail after a moment",
      input: { type: "object" },
      execute: () => Effect.andThen(Effect.sleep(5), Effect.fail(new Error("kaput"))),
    }),
    records: Tool.make({
      description: "Records with prices",
      input: { type: "object" },
      output: {},
      execute: ({ n }) => Effect.succeed(records(n)),
    }),
  },
}

/** The four runtimes the soak's programs run on, all over `pool` (the process-wide pool when undefined). */
const makeRuntimes = (pool) => {
  const over = pool === undefined ? {} : { pool }
  return {
    lua: CodeMode.make({ language: "lua", tools, ...over }),
    luaShort: CodeMode.make({ language: "lua", tools, limits: { timeoutMs: 150 }, ...over }),
    js: CodeMode.make({ language: "javascript", tools, limits: { timeoutMs: 60_000 }, ...over }),
    jsShort: CodeMode.make({ language: "javascript", tools, limits: { timeoutMs: 150 }, ...over }),
  }
}

const failedWith = (kind) => (r) =>
  r.ok
    ? `expected ${kind}, got ok`
    : r.error.kind === kind
      ? undefined
      : `expected ${kind}, got ${r.error.kind}: ${r.error.message}`
const notOk = (r) => (r.ok ? "expected a failure, got ok" : undefined)
const equals = (expected) => (r) => {
  if (!r.ok) return `expected ${JSON.stringify(expected)}, got ${r.error.kind}: ${r.error.message}`
  return JSON.stringify(r.value) === JSON.stringify(expected)
    ? undefined
    : `expected ${JSON.stringify(expected)}, got ${JSON.stringify(r.value)}`
}

/** The kinds of execution the soak mixes, with how often each appears. */
const kinds = [
  {
    name: "lua ordinary",
    weight: 6,
    make: (r, k) => ({
      runtime: r.lua,
      code: `local r = tools.t.records({ n = ${k} })
local s = 0
for _, x in ipairs(r) do s = s + x.price end
local clean = rawget(json.null, "poison") == nil and string.upper("a") == "A"
return { sum = s, n = #r, echo = tools.t.echo({ k = ${k} }).k, clean = clean }`,
      check: equals({ sum: sumOf(k), n: k, echo: k, clean: true }),
    }),
  },
  {
    name: "js ordinary",
    weight: 6,
    make: (r, k) => ({
      runtime: r.js,
      code: `const [a, b] = await Promise.all([tools.t.add({ a: ${k}, b: 1 }), tools.t.slow({ ms: 2, v: "v${k}" })])
const r = await tools.t.records({ n: ${k} })
const clean = ({}).poison === undefined && typeof [].map === "function" && " a ".trim() === "a" &&
  typeof leaked === "undefined" && [1, 2][Symbol.iterator]().next().value === 1
;({ a, b, n: r.length, sum: r.reduce((s, x) => s + x.price, 0), clean })`,
      check: equals({ a: k + 1, b: `v${k}`, n: k, sum: sumOf(k), clean: true }),
    }),
  },
  {
    name: "js un-awaited calls",
    weight: 2,
    make: (r, k) => ({
      runtime: r.js,
      code: `tools.t.boom({}); tools.t.slow({ ms: 40, v: 1 }); tools.t.echo({ k: ${k} }); ${k}`,
      check: equals(k),
    }),
  },
  {
    name: "lua caught failure",
    weight: 2,
    make: (r, k) => ({
      runtime: r.lua,
      code: `local ok, e = pcall(tools.t.boom, {})\nreturn { ok = ok, k = ${k}, said = string.find(e, "kaput") ~= nil }`,
      check: equals({ ok: false, k, said: true }),
    }),
  },
  {
    name: "lua timeout",
    weight: 1,
    make: (r) => ({ runtime: r.luaShort, code: "while true do end", check: failedWith("TimeoutExceeded") }),
  },
  {
    name: "js timeout",
    weight: 1,
    make: (r) => ({ runtime: r.jsShort, code: "for (;;) {}", check: failedWith("TimeoutExceeded") }),
  },
  {
    name: "interrupted",
    weight: 1,
    make: (r) => ({ runtime: r.js, code: "await tools.t.slow({ ms: 10000, v: 1 })", interruptAfterMs: 30 }),
  },
  {
    name: "lua memory bomb",
    weight: 1,
    make: (r) => ({
      runtime: r.lua,
      code: `local t = {}\nfor i = 1, 1e9 do t[i] = { i, tostring(i) } end\nreturn #t`,
      check: notOk,
    }),
  },
  {
    name: "js memory bomb",
    weight: 1,
    make: (r) => ({
      runtime: r.js,
      code: `const a = []\nfor (;;) a.push({ n: a.length, s: String(a.length) })`,
      check: notOk,
    }),
  },
  {
    name: "js one huge allocation",
    weight: 1,
    make: (r) => ({ runtime: r.js, code: "new Uint8Array({ length: 2 ** 30 }).length", check: notOk }),
  },
  {
    name: "lua poisoning",
    weight: 1,
    make: (r, k) => ({
      runtime: r.lua,
      code: `rawset(json.null, "poison", ${k})\nstring.upper = nil\nreturn 1`,
      check: () => undefined,
    }),
  },
  {
    name: "js poisoning",
    weight: 1,
    make: (r, k) => ({
      runtime: r.js,
      code: `Object.prototype.poison = ${k}; Array.prototype.map = null; String.prototype.trim = () => "p"
globalThis.leaked = ${k}; Array.prototype[Symbol.iterator] = function* () { yield "p" }; 1`,
      check: () => undefined,
    }),
  },
  {
    name: "js realm that cannot be restored",
    weight: 1,
    make: (r) => ({
      runtime: r.js,
      code: `const AIP = Object.getPrototypeOf([][Symbol.iterator]())
const IP = Object.getPrototypeOf(AIP)
const GP = Object.getPrototypeOf(function* () {}).prototype
Object.setPrototypeOf(GP, null); Object.setPrototypeOf(IP, GP); Object.setPrototypeOf(AIP, IP); 1`,
      check: () => undefined,
    }),
  },
]

/** A deterministic generator, so a failing seed can be replayed. */
const random = (seed) => () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31
  return seed / 2 ** 31
}

/**
 * Run the soak. Returns what it saw: counts per kind, the wrong results (with the program), the event loop's worst
 * delay, and the host's RSS before and after. `heapMb` gives the soak a pool of its own whose sandboxes have that
 * heap limit (a memory bomb then ends when it has filled that much, not the machine default of up to 512 MB);
 * without it the programs run in the process-wide pool.
 *
 * @param {{ executions?: number, concurrency?: number, seed?: number, heapMb?: number }} [options]
 */
export const soak = async ({ executions = 5000, concurrency = 16, seed = 1, heapMb } = {}) => {
  const pool = heapMb === undefined ? undefined : new SandboxPool({ maxOldGenerationSizeMb: heapMb })
  try {
    return await soakOn(makeRuntimes(pool), { executions, concurrency, seed })
  } finally {
    pool?.close()
  }
}

const soakOn = async (runtimes, { executions, concurrency, seed }) => {
  const next = random(seed)
  const total = kinds.reduce((n, k) => n + k.weight, 0)
  const pick = () => {
    let r = next() * total
    for (const kind of kinds) if ((r -= kind.weight) < 0) return kind
    return kinds[0]
  }
  // Warm up both languages before measuring memory.
  await Effect.runPromise(runtimes.lua.execute("return 1"))
  await Effect.runPromise(runtimes.js.execute("1"))
  globalThis.gc?.()
  const rssBefore = process.memoryUsage().rss
  const loop = monitorEventLoopDelay({ resolution: 10 })
  loop.enable()
  const counts = {}
  const wrong = []
  const plan = Array.from({ length: executions }, (_, i) => {
    const kind = pick()
    return { kind: kind.name, ...kind.make(runtimes, 1 + (i % 97)) }
  })
  const started = performance.now()
  await Effect.runPromise(
    Effect.forEach(
      plan,
      (item) =>
        Effect.gen(function* () {
          counts[item.kind] = (counts[item.kind] ?? 0) + 1
          if (item.interruptAfterMs !== undefined) {
            const out = yield* Effect.timeoutOption(item.runtime.execute(item.code), item.interruptAfterMs)
            if (Option.isSome(out))
              wrong.push({ kind: item.kind, code: item.code, problem: "finished although interrupted" })
            return
          }
          const result = yield* item.runtime.execute(item.code)
          const problem = item.check(result)
          if (problem !== undefined) wrong.push({ kind: item.kind, code: item.code, problem })
        }),
      { concurrency, discard: true },
    ),
  )
  const seconds = (performance.now() - started) / 1000
  loop.disable()
  globalThis.gc?.()
  await new Promise((resolve) => setTimeout(resolve, 200))
  globalThis.gc?.()
  const rssAfter = process.memoryUsage().rss
  return {
    executions,
    concurrency,
    seconds,
    counts,
    wrong,
    maxLoopDelayMs: loop.max / 1e6,
    p99LoopDelayMs: loop.percentile(99) / 1e6,
    rssBeforeMb: Math.round(rssBefore / 2 ** 20),
    rssAfterMb: Math.round(rssAfter / 2 ** 20),
  }
}

const argument = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`)
  return index >= 0 ? Number(process.argv[index + 1]) : fallback
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const report = await soak({
    executions: argument("executions", 5000),
    concurrency: argument("concurrency", 16),
    seed: argument("seed", 1),
    ...(process.argv.includes("--heap-mb") ? { heapMb: argument("heap-mb") } : {}),
  })
  console.log(`${report.executions} executions, ${report.concurrency} in flight, ${report.seconds.toFixed(1)} s`)
  for (const [kind, n] of Object.entries(report.counts)) console.log(`  ${kind}: ${n}`)
  console.log(
    `event loop delay: p99 ${report.p99LoopDelayMs.toFixed(1)} ms, max ${report.maxLoopDelayMs.toFixed(1)} ms`,
  )
  console.log(`host RSS: ${report.rssBeforeMb} MB before, ${report.rssAfterMb} MB after`)
  console.log(`wrong results: ${report.wrong.length}`)
  for (const w of report.wrong.slice(0, 20))
    console.log(`  [${w.kind}] ${w.problem}\n    ${w.code.split("\n").join("\n    ")}`)
  process.exit(report.wrong.length === 0 ? 0 : 1)
}
