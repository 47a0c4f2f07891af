/**
 * Warming a new sandbox's interpreter before its first program. V8 compiles and optimises acorn, our analysis,
 * compiler, runtime and built-ins lazily, per process, and the realm is built on first use: a program that runs
 * first in a new sandbox would pay for all of it (tens of milliseconds for a program that runs in one). `warmUp`
 * runs a few programs of the kind models write (tool calls awaited alone and together, records grouped and sorted,
 * strings and templates, destructuring, classes, JSON, failures caught) against a local stand-in host, so that the
 * code they use is compiled, and mostly optimised, before a real program arrives. The sandbox calls `warm()` after
 * loading the language, while the sandbox is idle.
 *
 * Nothing of a warm-up run is visible to later runs: every run restores the realm (see `builtins/index.ts`), the
 * programs draw no random numbers, the stand-in host answers only these programs, and none of them reaches the
 * real host.
 */
import type { DataValue, HostCall, HostOutcome, RunOutcome, RunRequest, SandboxHost } from "@codemode/core/sandbox"
import { forgetPrograms } from "./programCache.js"

/** Records like those a tool returns: strings, integers, floats, booleans, nested arrays and objects, nulls. */
const records = (n: number): Array<DataValue> =>
  Array.from({ length: n }, (_, i) => ({
    id: `rec_${i}`,
    name: `Item ${i} – ${["alpha", "beta", "gamma"][i % 3]}`,
    group: ["north", "south", "east", "west"][i % 4],
    count: i % 7,
    price: ((i * 37) % 1000) / 8,
    active: i % 3 !== 0,
    tags: i % 2 === 0 ? ["a", "b"] : [],
    created: `2026-0${1 + (i % 9)}-1${i % 10}T08:30:00Z`,
    owner: i % 5 === 0 ? null : { id: i % 11, email: `user${i % 11}@example.com` },
  }))

/** The stand-in host's answers: a list of records, one record, a failure, or an echo of the input. */
const answer = (call: HostCall): HostOutcome => {
  if (call.kind === "tool" && call.path === "warm.list") return { ok: true, value: records(40) }
  if (call.kind === "tool" && call.path === "warm.get") return { ok: true, value: records(2)[1] }
  if (call.kind === "tool" && call.path === "warm.fail")
    return { ok: false, error: { kind: "ToolFailure", message: "not found", fatal: false } }
  if (call.kind === "search") return { ok: true, value: { items: [{ path: "warm.list", description: "List" }] } }
  return { ok: true, value: call.kind === "tool" ? call.input : null }
}

/** Programs of the kind models write; each returns data, so results are converted too. */
const PROGRAMS: ReadonlyArray<string> = [
  `const items = await tools.warm.list({ limit: 40, filter: "active" })
const groups = {}
let total = 0
for (const r of items) {
  if (r.active && r.price > 10) {
    const g = (groups[r.group] ??= { name: r.group, count: 0, sum: 0, ids: [] })
    g.count++
    g.sum += r.price * r.count
    g.ids.push(r.id)
    total += r.count
  }
  if (r.owner !== null && r.owner.email.includes("@")) total += 1
}
const out = Object.values(groups)
  .map((g) => ({ name: g.name, count: g.count, average: g.sum / g.count, first: g.ids[0] }))
  .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name))
const byTag = items.reduce((acc, { tags, id }) => {
  for (const t of tags) (acc[t] ||= []).push(id)
  return acc
}, {})
const top = items.filter((r) => r.count > 3).slice(0, 5).map(({ id, price }) => \`\${id}: \${price.toFixed(2)}\`)
return { groups: out, total, n: items.length, byTag: Object.keys(byTag), top, some: items.some((r) => r.active),
  every: items.every((r) => typeof r.id === "string"), found: items.find((r) => r.count === 6)?.id ?? null }`,
  `const [one, two, echoed] = await Promise.all([
  tools.warm.get({ id: "rec_1" }),
  tools.warm.get({ id: "rec_2" }),
  tools.warm.echo({ values: [1, 2, 3], text: "x", nested: { a: 1.5, b: null } }),
])
let failure = null
try {
  await tools.warm.fail({ id: "none" })
} catch (e) {
  failure = \`\${e.name}: \${e.message}\`
}
const settled = await Promise.allSettled([tools.warm.fail({}), tools.warm.echo({ ok: true })])
const words = one.name.split(/\\s+/).map((w) => w.toLowerCase()).filter(Boolean)
const lines = []
for (let i = 0; i < 20; i++) lines.push(\`\${String(i + 1).padStart(3, " ")}. \${words[i % words.length].padEnd(10)} \${(i * 1.25).toFixed(2)}\`)
const text = lines.join("\\n")
const replaced = text.replace(/(\\d+)\\./g, "#$1").trim()
const match = text.match(/(\\d+\\.\\d+)/)
const entries = Object.entries(two).filter(([k, v]) => typeof v !== "object").map(([k, v]) => k + "=" + v)
const { id, owner: { email } = {}, ...rest } = two
const date = new Date(one.created)
console.log("warm", id, entries.length)
const found = search("list records")
return { failure, settled: settled.map((s) => s.status), entries, email: email ?? null, keys: Object.keys(rest),
  len: replaced.length + (match ? match[1].length : 0), upper: text.toUpperCase().slice(0, 40),
  iso: date.toISOString(), month: date.getUTCMonth(), echoed: echoed.values.length, found: found.items.length,
  json: JSON.parse(JSON.stringify({ a: 1, b: [2, 3], c: "x" })).b[1], has: text.startsWith("  1") && text.endsWith("5") }`,
  `function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2) }
class Counter {
  #n = 0
  constructor(step) { this.step = step }
  add() { this.#n += this.step; return this }
  get value() { return this.#n }
}
const c = new Counter(3)
let acc = 0, f = 0.5, bits = 0
for (let i = 0; i < 200; i++) {
  acc += (i % 7) * 2 - Math.floor(i / 3)
  f = f * 1.01 + i / 3
  bits = (bits ^ (i << 2)) & 0xff | 1
  c.add()
}
const t = Array.from({ length: 100 }, (_, i) => (i * 7919) % 101).sort((a, b) => a - b)
const m = [Math.round(f), Math.max(3, 7, 1), Math.min(2.5, 1), Math.abs(-3), Math.sqrt(16), Number.parseInt("42px"),
  Number("3.5"), parseFloat("1e3")]
const set = new Set(t.map((x) => x % 10))
const map = new Map(t.slice(0, 10).map((x, i) => [x, i]))
const str = String(1 / 3) + (10 / 2).toString() + 2 ** 10 + JSON.stringify([-0, 1e21, 0.1])
const echoed = await tools.warm.echo({ values: t, text: str, nested: { x: 1.5, y: null } })
async function twice(x) { const r = await tools.warm.echo({ x }); return r.x * 2 }
const doubled = await Promise.all([1, 2, 3].map(twice))
const gen = function* () { yield* [1, 2, 3] }
return { fib: fib(12), acc, bits, m, str, counter: c.value, echoed: echoed.values.length, doubled,
  sets: [...set].length + map.size, spread: [...gen()], concat: t.slice(0, 5).join(","), includes: t.includes(50),
  index: t.indexOf(100), now: Date.now() > 0, flat: [[1], [2, [3]]].flat(2), keys: Object.keys({ ...{ a: 1 }, b: 2 }) }`,
  `class NotFound extends Error {
  constructor(what, id) {
    super(\`\${what} \${id} not found\`)
    this.name = "NotFound"
    this.id = id
  }
}
const cache = new Map()
const lookup = async (id) => {
  if (cache.has(id)) return cache.get(id)
  try {
    const r = id % 4 === 3 ? await tools.warm.fail({ id }) : await tools.warm.get({ id: \`rec_\${id}\` })
    cache.set(id, r)
    return r
  } catch (e) {
    throw new NotFound("record", id)
  } finally {
    cache.set("calls", (cache.get("calls") ?? 0) + 1)
  }
}
const found = []
const missing = []
for (let id = 0; id < 8; id++) {
  try {
    found.push((await lookup(id % 5)).id)
  } catch (e) {
    if (e instanceof NotFound) missing.push(e.id)
    else throw e
  }
}
let i = 0
let text = ""
while (i < 30) {
  switch (i % 4) {
    case 0:
      text += "a"
      break
    case 1:
      text += String.fromCharCode(98 + (i % 3))
      break
    default:
      if (i % 7 === 0) {
        i++
        continue
      }
      text += "-"
  }
  i++
}
const counter = (() => {
  let n = 0
  return { next: () => ++n, get value() { return n } }
})()
const memo = (f) => {
  const seen = {}
  return (k) => (k in seen ? seen[k] : (seen[k] = f(k)))
}
const square = memo((x) => x * x)
const parts = text.split("-").filter(Boolean).map((p, j) => \`\${j}:\${p}\`)
outer: for (const row of [[1, 2], [3, 4], [5, 6]]) {
  for (const v of row) {
    if (v === 4) continue outer
    counter.next()
  }
}
const { a = 1, b: { c } = { c: 2 }, ...others } = { x: 1, y: [2, 3], b: { c: 5 } }
const merged = { ...others, c, a, list: [...others.y, ...parts.slice(0, 2)] }
for (const k in merged) if (typeof merged[k] === "number") merged[k] *= 2
let n = 27
let steps = 0
do {
  n = n % 2 === 0 ? n / 2 : 3 * n + 1
  steps++
} while (n !== 1 && steps < 200)
return { found, missing, text: text.slice(0, 10), counter: counter.value, sq: [square(3), square(3), square(4)], merged,
  json: JSON.stringify(merged, null, 2).length, re: text.replace(/a+/g, (m) => m.length).match(/\\d/g)?.length ?? 0,
  keys: Object.entries(merged).map(([k, v]) => \`\${k}=\${Array.isArray(v) ? v.length : v}\`).join("&"), steps,
  date: new Date(Date.UTC(2026, 0, 15)).toISOString().slice(0, 10), num: (1234.5678).toFixed(1) + Number("7").toString(2),
  calls: cache.get("calls"), isError: missing.length > 0 && new NotFound("x", 1) instanceof Error }`,
  `const [list, one] = await Promise.all([tools.warm.list({ limit: 20 }), tools.warm.get({ id: "rec_3" })])
async function summarize(records) {
  const byGroup = new Map()
  for (const r of records) {
    const entry = byGroup.get(r.group) ?? { group: r.group, items: [], total: 0 }
    entry.items.push({ id: r.id, price: r.price, tags: r.tags.join("/") || "-" })
    entry.total += r.price
    byGroup.set(r.group, entry)
  }
  return [...byGroup.values()].sort((x, y) => y.total - x.total)
}
const groups = await summarize(list)
const rows = groups.flatMap((g) => g.items.map((it) => [g.group, it.id, it.price.toFixed(2), it.tags]))
const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => String(r[c]).length)))
const table = rows.map((r) => r.map((cell, c) => String(cell).padEnd(widths[c])).join(" | ")).join("\\n")
const owners = list.map((r) => r.owner?.email ?? "none").filter((e, idx, all) => all.indexOf(e) === idx)
const stats = list.reduce(
  (s, r) => ({ min: Math.min(s.min, r.price), max: Math.max(s.max, r.price), n: s.n + 1 }),
  { min: Infinity, max: -Infinity, n: 0 },
)
const active = list.filter(({ active }) => active).length
const last = list.at(-1)
const firstActive = list.find((r) => r.active)
const words = one.name.toLowerCase().split(" ").map((w) => (w ? w[0].toUpperCase() + w.slice(1) : w))
const results = await Promise.allSettled(
  owners.slice(0, 3).map(async (o, k) => {
    if (k === 1) throw new Error(\`skip \${o}\`)
    return o.length
  }),
)
const index = Object.fromEntries(list.slice(0, 5).map((r) => [r.id, { n: r.count, when: r.created.slice(0, 7) }]))
console.log(\`\${list.length} records\`, { groups: groups.length })
return { groups: groups.map(({ group, total }) => ({ group, total: Math.round(total) })), lines: table.split("\\n").length,
  owners: owners.length, stats, active, last: last.id, firstActive: firstActive?.id, words: words.join(" "), index,
  settled: results.map((r) => (r.status === "fulfilled" ? r.value : r.reason.message)), includes: owners.includes("none"),
  sorted: [...list].sort((x, y) => x.name.localeCompare(y.name)).slice(0, 2).map((r) => r.id),
  squares: Array.from({ length: 3 }, (_, k) => k * k), upper: one.group?.toUpperCase() ?? "" }`,
]

/**
 * How many rounds of the programs the warm-up goes through (each copy's text differs, so that the compiler runs each
 * time), and how many of them run the programs: the later rounds only compile them, which trains the parser, the
 * analysis and the compiler that every new program goes through, at a fraction of a run's cost. Measured on typical
 * tool programs other than these (processor time of each one's first run in a warmed sandbox, summed over a set of
 * seven and a set of five written afterwards; builds alternated): two rounds that run and none that compile gave
 * 68-74 and 73-93 ms, with three that compile 33-49 and 49-57 ms (more compiling rounds did not measurably help); the
 * warm-up itself took 0.15-0.22 s and 0.4-0.5 s of processor time, off the critical path.
 */
const ROUNDS = 5
const RUN_ROUNDS = 2

/** A stand-in host: started calls end in the order they started, answered by `answer`. */
const standInHost = (): SandboxHost => {
  const started: Array<{ ticket: number; outcome: HostOutcome }> = []
  let next = 1
  return {
    call: answer,
    start: (call) => {
      const ticket = next++
      started.push({ ticket, outcome: answer(call) })
      return ticket
    },
    waitAny: () => {
      const first = started.shift()
      if (first === undefined) throw new Error("nothing in flight")
      return first
    },
    settledCalls: () => started.splice(0, started.length),
    cancel: (ticket) => {
      const i = started.findIndex((s) => s.ticket === ticket)
      if (i >= 0) started.splice(i, 1)
    },
    log: () => {},
    warn: () => {},
    retire: () => {},
    deadline: Date.now() + 2_000,
  }
}

/**
 * Go through the warm-up programs `rounds` times, yielding after each: the first {@link RUN_ROUNDS} rounds run them
 * with `run` (the language's own entry, passed in to keep this module free of cycles) and yield their outcomes; the
 * others only compile them with `compile` and yield whether they compiled.
 */
export function* warmSteps(
  run: (request: RunRequest, host: SandboxHost) => RunOutcome,
  compile: (request: RunRequest, host: SandboxHost) => boolean,
  rounds = ROUNDS,
): Generator<RunOutcome | boolean, void> {
  const limits = { timeoutMs: 2_000, maxToolCalls: 100, maxOutputBytes: 65_536 }
  for (let round = 0; round < rounds; round++)
    for (const program of PROGRAMS) {
      const request: RunRequest = {
        code: `// warm-up ${round}\n${program}`,
        tools: { warm: { list: true, get: true, fail: true, echo: true } },
        extensions: [],
        limits,
      }
      yield round < RUN_ROUNDS ? run(request, standInHost()) : compile(request, standInHost())
    }
  // The warm-up's programs are not kept (no real program has their text), and their garbage is collected now,
  // while the sandbox is idle, rather than during the first program.
  forgetPrograms()
  ;(globalThis as { gc?: () => void }).gc?.()
}

/** Go through the whole warm-up (see {@link warmSteps}) and return what each step gave. */
export const warmUp = (
  run: (request: RunRequest, host: SandboxHost) => RunOutcome,
  compile: (request: RunRequest, host: SandboxHost) => boolean,
  rounds = ROUNDS,
): Array<RunOutcome | boolean> => [...warmSteps(run, compile, rounds)]
