// Benchmark: the lang-js interpreter (built dist, metering on) against QuickJS (quickjs-emscripten), sval and
// js-interpreter on five workloads. Every engine runs the same ES5 source (js-interpreter only knows ES5) and must
// produce the same checksum. Prints each engine's best time over five rounds (`--rounds=n`; engines alternate within
// a round), the ratio of each peer to lang-js, and geometric means.
//
// Times are wall-clock times, or the process's CPU time with `--cpu` (see `time`).
//
// Usage: node bench/run.mjs [--quick] [--extra] [--only=engine-or-workload,...] [--cpu] [--rounds=n] [--no-compile] [--no-cold]
//   (build first: npx tsup; more rounds than the default five steady the best times on a loaded machine)
// Then the compile-time table of bench/compile.mjs, and the cold start of a typical tool program (bench/cold.mjs).
import { createRequire } from "node:module"
import { performance } from "node:perf_hooks"
import { run } from "../dist/worker.js"
import { coldBench, latencyBench } from "./cold.mjs"
import { compileBench } from "./compile.mjs"

const require = createRequire(import.meta.url)
const args = process.argv.slice(2)
const quick = args.includes("--quick")
const onlyList = args
  .find((a) => a.startsWith("--only="))
  ?.slice(7)
  .split(",")

const workloads = [
  {
    name: "fib(30)",
    body: `
      function fib(n) { if (n < 2) return n; return fib(n - 1) + fib(n - 2) }
      return fib(${quick ? 24 : 30})`,
  },
  {
    name: "numeric loops",
    body: `
      var s = 0
      for (var i = 0; i < ${quick ? 300000 : 3000000}; i++) { s = (s + i * i) % 1000003 }
      var t = 0
      for (var a = 0; a < ${quick ? 100 : 600}; a++) { for (var b = 0; b < 1000; b++) { if ((a ^ b) & 1) t += a - b; else t -= 1 } }
      return s + t`,
  },
  {
    name: "string building",
    body: `
      var s = ""
      for (var i = 0; i < ${quick ? 20000 : 200000}; i++) { s += String.fromCharCode(97 + (i % 26)); if (i % 100 === 99) s += "\\n" }
      var lines = s.split("\\n"), sum = 0
      for (var j = 0; j < lines.length; j++) sum += lines[j].length + (lines[j].length ? lines[j].charCodeAt(0) : 0)
      var parts = []
      for (var k = 0; k < ${quick ? 5000 : 50000}; k++) parts.push("item-" + k)
      return sum + s.length + parts.join(",").length`,
  },
  {
    name: "array map/filter/sort 100k",
    body: `
      var a = []
      for (var i = 0; i < ${quick ? 10000 : 100000}; i++) a.push((i * 7919) % 100003)
      var b = a.map(function (x) { return x * 2 }).filter(function (x) { return x % 3 !== 0 })
      b.sort(function (x, y) { return x - y })
      return b.length + b[0] + b[b.length - 1] + b[Math.floor(b.length / 2)]`,
  },
  {
    name: "JSON transform",
    body: `
      var items = []
      for (var i = 0; i < ${quick ? 2000 : 20000}; i++) {
        items.push({ id: i, name: "item" + i, tags: ["a", "b", "c"].slice(0, (i % 3) + 1), price: ((i * 37) % 1000) / 10,
          nested: { x: i % 7, y: [i, i + 1] } })
      }
      var parsed = JSON.parse(JSON.stringify(items))
      var out = parsed.filter(function (o) { return o.nested.x > 2 }).map(function (o) {
        return { id: o.id, label: o.name.toUpperCase(), total: o.price * o.tags.length, first: o.tags[0] }
      })
      var grouped = {}
      for (var j = 0; j < out.length; j++) {
        var k = "g" + (out[j].id % 10)
        if (!grouped[k]) grouped[k] = []
        grouped[k].push(Math.round(out[j].total))
      }
      return JSON.stringify(grouped).length + out.length`,
  },
]

// With `--extra`, two more workloads of the call-heavy classes: closures (counters, a memoized function, composed
// functions) and a recursive tree walk that allocates its nodes (and a small constructor with prototype methods).
if (args.includes("--extra")) {
  workloads.push(
    {
      name: "closures",
      body: `
      function makeCounter(start) {
        var count = start
        return { inc: function () { count += 1; return count }, get: function () { return count },
          add: function (n) { count += n; return this } }
      }
      function memoize(f) {
        var cache = {}
        return function (n) { var key = "k" + n; if (key in cache) return cache[key]; var v = f(n); cache[key] = v; return v }
      }
      function compose(f, g) { return function (x) { return f(g(x)) } }
      var counters = []
      for (var i = 0; i < 50; i++) counters.push(makeCounter(i))
      var total = 0
      for (var r = 0; r < 4000; r++) {
        for (var j = 0; j < counters.length; j++) {
          var c = counters[j]
          c.inc()
          if (j % 5 === 0) c.add(2)
          total += c.get() & 15
        }
      }
      var square = memoize(function (n) { return n * n })
      for (var q = 0; q < 100000; q++) total = (total + square(q % 1000)) % 1000003
      var h = compose(function (x) { return x + 1 }, compose(function (x) { return x * 2 }, function (x) { return x + 1 }))
      for (var s = 0; s < 200000; s++) total = (total + h(s)) % 1000003
      return total`,
    },
    {
      name: "tree walk",
      body: `
      function build(depth, seed) {
        if (depth === 0) return { value: seed % 100, left: null, right: null }
        var left = build(depth - 1, seed * 3 + 1), right = build(depth - 1, seed * 5 + 2)
        return { value: (left.value + right.value + seed) % 1000, left: left, right: right }
      }
      function sum(node) { if (node === null) return 0; return node.value + sum(node.left) + sum(node.right) }
      function count(node, pred) {
        var n = 0
        function walk(t) { if (t === null) return; if (pred(t.value)) n++; walk(t.left); walk(t.right) }
        walk(node)
        return n
      }
      function Vec(x, y) { this.x = x; this.y = y }
      Vec.prototype.add = function (o) { return new Vec(this.x + o.x, this.y + o.y) }
      Vec.prototype.len2 = function () { return this.x * this.x + this.y * this.y }
      var total = 0
      for (var i = 0; i < 6; i++) {
        var t = build(14, i)
        total += sum(t) + count(t, function (v) { return v % 7 === 0 })
      }
      var v = new Vec(0, 0)
      for (var k = 0; k < 100000; k++) { v = v.add(new Vec(k % 3, 1)); total = (total + v.len2()) % 1000003 }
      return total`,
    },
  )
}

// `--only=` names engines (`lang-js,quickjs`) and workloads (by the start of their name: `fib,array`) to run.
const engineNames = ["lang-js", "quickjs", "sval", "js-interpreter"]
const onlyEngines = onlyList?.filter((n) => engineNames.includes(n))
const only = onlyEngines?.length ? onlyEngines : undefined
const onlyWorkloads = onlyList?.filter((n) => !engineNames.includes(n))
const selected = onlyWorkloads?.length
  ? workloads.filter((w) => onlyWorkloads.some((prefix) => w.name.startsWith(prefix)))
  : workloads

const program = (body) => `function main() {${body}\n}\nmain()`
const capMs = Number(args.find((a) => a.startsWith("--cap="))?.slice(6) ?? 120_000)

/** Thrown when an engine passes the time cap: its time is then a lower bound. */
class Capped extends Error {}

const noopHost = {
  call: () => ({ ok: false, error: { kind: "ToolFailure", message: "no host", fatal: false } }),
  start: () => 0,
  waitAny: () => {
    throw new Error("nothing in flight")
  },
  cancel() {},
  log() {},
  warn() {},
  deadline: Infinity,
}

// Every lang-js round gets a scope of its own, so that it parses and compiles the program as QuickJS does each round
// (a worker keeps compiled programs by scope and source: a program run again would skip its compile).
let round = 0

const engines = {
  "lang-js": async () => (code) => {
    const out = run(
      {
        code,
        scope: `bench round ${++round}`,
        tools: {},
        extensions: [],
        limits: { timeoutMs: Infinity, maxToolCalls: Infinity, maxOutputBytes: Infinity },
      },
      noopHost,
    )
    if (!out.ok) throw new Error(`${out.error.kind}: ${out.error.message}`)
    return out.value
  },
  quickjs: async () => {
    const { getQuickJS } = await import("quickjs-emscripten")
    const QuickJS = await getQuickJS()
    return (code) => {
      const vm = QuickJS.newContext()
      try {
        const result = vm.unwrapResult(vm.evalCode(code))
        const v = vm.dump(result)
        result.dispose()
        return v
      } finally {
        vm.dispose()
      }
    }
  },
  sval: async () => {
    const Sval = require("sval")
    return (code) => {
      const interpreter = new Sval({ ecmaVer: "latest", sandBox: true })
      interpreter.run(code.replace(/\nmain\(\)$/, "\nexports.result = main()"))
      return interpreter.exports.result
    }
  },
  "js-interpreter": async () => {
    const Interpreter = require("js-interpreter")
    return (code) => {
      // js-interpreter can take hours on the larger workloads: it runs step by step, and past the cap the
      // measurement stops and is reported as a lower bound.
      const interpreter = new Interpreter(code)
      const start = performance.now()
      for (;;) {
        for (let i = 0; i < 10_000; i++) if (!interpreter.step()) return interpreter.value
        if (performance.now() - start > capMs) throw new Capped()
      }
    }
  },
}

/**
 * Time `fn` by the wall clock, or with `--cpu` by the process's CPU time (user and system, every thread: the host's
 * parallel and concurrent garbage collection counts against lang-js), which waiting for a core on a loaded machine
 * does not inflate.
 */
const wall = !args.includes("--cpu")
const time = (fn) => {
  if (wall) {
    const start = performance.now()
    const value = fn()
    return { ms: performance.now() - start, value }
  }
  const start = process.cpuUsage()
  const value = fn()
  const spent = process.cpuUsage(start)
  return { ms: (spent.user + spent.system) / 1000, value }
}

const main = async () => {
  const { loadavg, cpus } = await import("node:os")
  console.log(
    `${wall ? "wall-clock" : "CPU"} times; node ${process.version}, ${cpus().length} cores, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  )
  const results = {}
  const names = Object.keys(engines).filter((e) => !only || only.includes(e))
  const execs = {}
  for (const name of names) {
    execs[name] = await engines[name]()
    results[name] = {}
  }
  // Workloads outside, engines inside, and repetitions round-robin across the fast engines: a change in machine
  // load affects every engine of a workload alike. Each engine keeps its best time.
  const rounds = Number(args.find((a) => a.startsWith("--rounds="))?.slice(9) ?? 5)
  for (const w of selected) {
    const code = program(w.body)
    const fast = []
    for (const name of names) {
      try {
        results[name][w.name] = time(() => execs[name](code))
        if (results[name][w.name].ms < 3000) fast.push(name)
      } catch (e) {
        if (!(e instanceof Capped)) throw e
        results[name][w.name] = { ms: capMs, value: undefined, capped: true }
      }
    }
    for (let r = 1; r < rounds; r++) {
      for (const name of fast) {
        const t = time(() => execs[name](code))
        if (t.ms < results[name][w.name].ms) results[name][w.name] = t
      }
    }
    for (const name of names) {
      const best = results[name][w.name]
      process.stderr.write(
        best.capped
          ? `${name.padEnd(15)} ${w.name.padEnd(28)} > ${capMs} ms (stopped at the cap)\n`
          : `${name.padEnd(15)} ${w.name.padEnd(28)} ${best.ms.toFixed(1).padStart(10)} ms  checksum ${best.value}\n`,
      )
    }
  }
  const base = results["lang-js"]
  let mismatch = false
  for (const w of selected) {
    const values = names.filter((n) => !results[n][w.name].capped).map((n) => results[n][w.name].value)
    if (values.some((v) => v !== values[0])) {
      mismatch = true
      console.error(`checksum mismatch on ${w.name}: ${names.map((n, i) => `${n}=${values[i]}`).join(" ")}`)
    }
  }
  const col = (s, n = 18) => String(s).padStart(n)
  console.log(
    `\n${"workload".padEnd(28)}${names.map((n) => col(`${n} ms`)).join("")}${names
      .slice(1)
      .map((n) => col(`${n}/lang-js`, 24))
      .join("")}`,
  )
  const logs = Object.fromEntries(names.map((n) => [n, 0]))
  for (const w of selected) {
    let line = w.name.padEnd(28)
    for (const n of names) line += col(`${results[n][w.name].capped ? ">" : ""}${results[n][w.name].ms.toFixed(1)}`)
    for (const n of names.slice(1)) {
      const ratio = results[n][w.name].ms / (base ? base[w.name].ms : 1)
      logs[n] += Math.log(ratio)
      line += col(`${results[n][w.name].capped ? ">" : ""}${ratio.toFixed(2)}x`, 24)
    }
    for (const n of names) logs[`${n}:ms`] = (logs[`${n}:ms`] ?? 0) + Math.log(results[n][w.name].ms)
    console.log(line)
  }
  let gm = "geometric mean".padEnd(28)
  for (const n of names) gm += col(Math.exp(logs[`${n}:ms`] / selected.length).toFixed(1))
  for (const n of names.slice(1)) gm += col(`${Math.exp(logs[n] / selected.length).toFixed(2)}x`, 24)
  console.log(gm)
  console.log("\n(ratios > 1 mean the peer is slower than lang-js; lang-js runs with its work meter on;")
  console.log(` ">" marks an engine stopped at the ${capMs} ms cap: its time and ratio are lower bounds)`)
  if (mismatch) process.exitCode = 1
}

await main()
if (!args.includes("--no-compile")) compileBench()
if (!args.includes("--no-cold")) {
  await coldBench(Number(args.find((a) => a.startsWith("--cold-samples="))?.slice(15) ?? 9))
  await latencyBench()
}
