// Benchmark: our Lua (the built worker's `run`, metering on) against PUC Lua 5.4 (`lua5.4`), wasmoon and fengari,
// on ten programs (bench/lua/*.lua). Every program returns an integer checksum; ours must equal PUC Lua's.
//
// Times are CPU time (user + system, every thread of the process, so the JIT's background compilation counts) of
// the measured part, the best of several repetitions (10 by default; fengari, the slowest by far, runs 3):
// - ours: one `run(request, host)` call (compile, run, result conversion), in processes of its own (below); a
//   worker keeps the compiled form of recent programs, so only the first run parses and generates code;
// - lua5.4: `os.clock()` around the program inside the script (startup and parsing excluded);
// - wasmoon / fengari: the program's execution in an already created state (startup and parsing excluded).
// For the JSON benchmark the records must become Lua tables inside the measured part in every engine: our program
// gets them from a tool call (host data converted to tables); the peers call a Lua function whose body is the
// records' table constructor.
//
// Ours runs in three processes of its own per program, each in a worker thread with a pooled sandbox's heap limits,
// after the warm-up a new sandbox does: they run only our code, as a sandbox does. A last column shows the median
// first run there, which is what a program that runs once in a fresh pooled sandbox sees.
//
// Then: compile time of large and deeply nested programs (`--only compile`), a differential run of 5,000 random
// programs against lua5.4 (`--only differential`; `bench/differential.mjs` runs more), the latency of a small
// program through `CodeMode.execute` (`--only latency`), and the cold start of a typical tool program in a fresh
// pooled sandbox against its warm run (`--only cold`).
//
// Usage: node bench/run.mjs [--reps N] [--only name,name] [--no-fengari]
import { execFileSync, spawnSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"
import { run } from "../dist/worker.js"

const here = fileURLToPath(new URL(".", import.meta.url))
const args = process.argv.slice(2)
const option = (name) => {
  const i = args.indexOf(name)
  return i < 0 ? undefined : args[i + 1]
}
const reps = Number(option("--reps") ?? 10)
const only = option("--only")?.split(",")
const withFengari = !args.includes("--no-fengari")

const benchmarks = [
  "fib",
  "loops",
  "strings",
  "sort",
  "json",
  "patterns",
  "spectral",
  "nbody",
  "records",
  "closures",
].filter((b) => !only || only.includes(b))
const source = (name) => readFileSync(join(here, "lua", `${name}.lua`), "utf8")

/** The records the JSON benchmark's tool returns: deterministic, integers only. */
const makeRecords = (n) => {
  const categories = ["books", "games", "tools", "food", "toys", "music", "garden"]
  let seed = 7
  const random = () => (seed = (seed * 48271) % 2147483647)
  const out = []
  for (let i = 1; i <= n; i++)
    out.push({
      id: i,
      name: `item-${i}`,
      category: categories[random() % categories.length],
      price: (random() % 100) + 1,
      quantity: (random() % 5) + 1,
      active: random() % 4 !== 0,
      tags: random() % 3 === 0 ? ["sale", "new"] : ["regular"],
    })
  return out
}
const records = makeRecords(10_000)

/** The records as a Lua table constructor. */
const luaLiteral = (v) => {
  if (Array.isArray(v)) return `{${v.map(luaLiteral).join(",")}}`
  if (v !== null && typeof v === "object")
    return `{${Object.entries(v)
      .map(([k, x]) => `${k}=${luaLiteral(x)}`)
      .join(",")}}`
  return typeof v === "string" ? JSON.stringify(v) : String(v)
}
const recordsFunction = `function get_records() return ${luaLiteral(records)} end\n`

// Garbage left by an earlier benchmark would otherwise be collected (and charged) during a later one: every
// in-process engine starts each benchmark's repetitions after a full collection.
setFlagsFromString("--expose-gc")
const collect = runInNewContext("gc")

const cpu = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}
const best = (n, f) => {
  collect()
  let min = Infinity
  let value
  for (let i = 0; i < n; i++) {
    const r = f()
    value = r.value
    if (r.ms < min) min = r.ms
  }
  return { ms: min, value }
}

// ---------------------------------------------------------------------------------------------- ours
const host = {
  call(call) {
    if (call.kind === "tool" && call.path === "data.records") return { ok: true, value: records }
    return { ok: false, error: { kind: "UnknownTool", message: `no tool ${call.path}`, fatal: false } }
  },
  start() {
    throw new Error("not used")
  },
  waitAny() {
    throw new Error("not used")
  },
  cancel() {},
  log() {},
  warn() {},
  deadline: Infinity,
}
const oursRequest = (name) => ({
  code:
    (name === "json" ? "local function get_records() return tools.data.records({ count = 10000 }) end\n" : "") +
    source(name),
  tools: { data: { records: true } },
  extensions: [],
  limits: { timeoutMs: 600_000, maxToolCalls: 128, maxOutputBytes: 65_536 },
})
/** One run of ours, measured. */
const oursOnce = (name, request) => {
  const t0 = cpu()
  const outcome = run(request, host)
  const ms = cpu() - t0
  if (!outcome.ok) throw new Error(`ours failed on ${name}: ${JSON.stringify(outcome.error)}`)
  return { ms, value: String(outcome.value) }
}
/**
 * Ours in a process of its own, as a pooled sandbox runs programs: the interpreter in a worker thread with a pooled
 * sandbox's heap limits (a 512 MB old generation, a 64 MB young one), warmed up as a new sandbox is, and running only
 * our code (the peers' garbage and heap growth in this process would otherwise be collected, and charged, during
 * ours). Three such processes, as PUC Lua's best comes from ten processes: the best of their `reps` runs each, and
 * the median of their first runs after the warm-up (a fresh pooled sandbox's first run).
 */
const ours = (name) => {
  const samples = Array.from({ length: 3 }, () =>
    JSON.parse(
      execFileSync(process.execPath, [fileURLToPath(import.meta.url), "--ours", name, "--reps", String(reps)], {
        encoding: "utf8",
      }),
    ),
  )
  const firsts = samples.map((s) => s.first).sort((a, b) => a - b)
  return { ms: Math.min(...samples.map((s) => s.ms)), first: firsts[1], value: samples[0].value }
}
/** The child process of {@link ours}: starts the worker thread and prints what it measured. */
const oursProcess = async (name) => {
  const { Worker } = await import("node:worker_threads")
  const worker = new Worker(new URL(import.meta.url), {
    argv: ["--ours-thread", name, "--reps", String(reps)],
    resourceLimits: { maxOldGenerationSizeMb: 512, maxYoungGenerationSizeMb: 64, stackSizeMb: 64 },
  })
  const measured = await new Promise((resolve, reject) => {
    worker.once("message", resolve)
    worker.once("error", reject)
  })
  console.log(JSON.stringify(measured))
  await worker.terminate()
}
/** The worker thread of {@link ours}: warm up, then the first run and the best of `reps`. */
const oursThread = async (name) => {
  const { parentPort } = await import("node:worker_threads")
  const { warm } = await import("../dist/worker.js")
  warm()
  collect()
  const request = oursRequest(name)
  const first = oursOnce(name, request).ms
  parentPort.postMessage({ first, ...best(reps, () => oursOnce(name, request)) })
}

// ---------------------------------------------------------------------------------------------- PUC Lua
const ensureLua = () => {
  if (spawnSync("lua5.4", ["-v"]).status === 0) return
  console.log("lua5.4 not found: installing the Debian package lua5.4 ...")
  execFileSync("apt-get", ["install", "-y", "lua5.4"], { stdio: "inherit" })
}
const puc = (name) => {
  const dir = mkdtempSync(join(tmpdir(), "lua-bench-"))
  try {
    const file = join(dir, `${name}.lua`)
    const body = source(name)
    writeFileSync(
      file,
      (name === "json" ? recordsFunction : "") +
        "local __t0 = os.clock()\n" +
        `local __r = (function()\n${body}\nend)()\n` +
        "local __t = os.clock() - __t0\n" +
        'io.write(string.format("%s %.3f\\n", tostring(__r), __t * 1000))\n',
    )
    return best(reps, () => {
      const out = execFileSync("lua5.4", [file], { encoding: "utf8" }).trim().split(" ")
      return { value: out[0], ms: Number(out[1]) }
    })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

// ---------------------------------------------------------------------------------------------- wasmoon
let wasmoonFactory
const wasmoon = async (name) => {
  if (wasmoonFactory === undefined) {
    const { LuaFactory } = await import("wasmoon")
    wasmoonFactory = new LuaFactory()
  }
  let min = Infinity
  let value
  collect()
  for (let i = 0; i < reps; i++) {
    const engine = await wasmoonFactory.createEngine()
    try {
      if (name === "json") await engine.doString(recordsFunction)
      const code = `return (function()\n${source(name)}\nend)()`
      const t0 = cpu()
      const r = await engine.doString(code)
      const ms = cpu() - t0
      value = String(r)
      if (ms < min) min = ms
    } finally {
      engine.global.close()
    }
  }
  return { ms: min, value }
}

// ---------------------------------------------------------------------------------------------- fengari
const fengari = async (name) => {
  const { lua, lauxlib, lualib, to_luastring, to_jsstring } = (await import("fengari")).default
  const exec = (L, code) => {
    if (lauxlib.luaL_loadstring(L, to_luastring(code)) !== lua.LUA_OK)
      throw new Error(to_jsstring(lua.lua_tostring(L, -1)))
    return () => {
      if (lua.lua_pcall(L, 0, 1, 0) !== lua.LUA_OK) throw new Error(to_jsstring(lua.lua_tostring(L, -1)))
      const v = lua.lua_isinteger(L, -1) ? String(lua.lua_tointeger(L, -1)) : to_jsstring(lauxlib.luaL_tolstring(L, -1))
      lua.lua_settop(L, 0)
      return v
    }
  }
  return best(Math.min(reps, 3), () => {
    const L = lauxlib.luaL_newstate()
    lualib.luaL_openlibs(L)
    if (name === "json") exec(L, recordsFunction)()
    const call = exec(L, `return (function()\n${source(name)}\nend)()`)
    const t0 = cpu()
    const value = call()
    return { ms: cpu() - t0, value }
  })
}

// ---------------------------------------------------------------------------------------------- report
if (option("--ours-thread") !== undefined) {
  await oursThread(option("--ours-thread"))
  process.exit(0)
}
if (option("--ours") !== undefined) {
  await oursProcess(option("--ours"))
  process.exit(0)
}
ensureLua()
const rows = []
// Ours first, for every program, while this process is idle: after fengari's runs this process frees gigabytes on
// V8's background threads, which share the two processors with the child measuring ours.
const oursByName = new Map(benchmarks.map((name) => [name, ours(name)]))
for (const name of benchmarks) {
  const p = puc(name)
  const o = oursByName.get(name)
  if (o.value !== p.value) {
    console.error(`CHECKSUM MISMATCH on ${name}: ours ${o.value}, lua5.4 ${p.value}`)
    process.exit(1)
  }
  const w = await wasmoon(name)
  const f = withFengari ? await fengari(name) : undefined
  for (const [peer, r] of [
    ["wasmoon", w],
    ["fengari", f],
  ])
    if (r !== undefined && r.value !== p.value) console.error(`warning: ${peer} checksum ${r.value} differs on ${name}`)
  rows.push({ name, checksum: p.value, puc: p.ms, ours: o.ms, first: o.first, wasmoon: w.ms, fengari: f?.ms })
  console.error(`${name}: done`)
}

if (rows.length > 0) {
  const fmt = (ms) => (ms === undefined ? "-" : ms.toFixed(1))
  const ratio = (a, b) => (a === undefined || b === undefined ? "-" : (a / b).toFixed(2))
  const header = [
    "benchmark",
    "checksum",
    "lua5.4 ms",
    "ours ms",
    "ours 1st run ms",
    "wasmoon ms",
    "fengari ms",
    "ours/lua5.4",
    "ours/wasmoon",
    "1st run/lua5.4",
  ]
  const lines = rows.map((r) => [
    r.name,
    r.checksum,
    fmt(r.puc),
    fmt(r.ours),
    fmt(r.first),
    fmt(r.wasmoon),
    fmt(r.fengari),
    ratio(r.ours, r.puc),
    ratio(r.ours, r.wasmoon),
    ratio(r.first, r.puc),
  ])
  const geo = (xs) => Math.exp(xs.reduce((s, x) => s + Math.log(x), 0) / xs.length)
  const gmPuc = geo(rows.map((r) => r.ours / r.puc))
  const gmWasmoon = geo(rows.map((r) => r.ours / r.wasmoon))
  const fasterThanWasmoon = rows.filter((r) => r.ours < r.wasmoon).length
  const gmFirst = geo(rows.map((r) => r.first / r.puc))
  lines.push(["geometric mean", "", "", "", "", "", "", gmPuc.toFixed(2), gmWasmoon.toFixed(2), gmFirst.toFixed(2)])
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => String(l[i]).length)))
  const show = (cells) => "| " + cells.map((c, i) => String(c).padEnd(widths[i])).join(" | ") + " |"
  console.log(show(header))
  console.log("|" + widths.map((w) => "-".repeat(w + 2)).join("|") + "|")
  for (const l of lines) console.log(show(l))
  console.log(
    `\nours vs lua5.4: geometric mean ${gmPuc.toFixed(2)}x (target <= 1.5x); faster than wasmoon on ${fasterThanWasmoon} of ${rows.length} (target >= ${Math.ceil(rows.length / 2)})`,
  )
}

// ---------------------------------------------------------------------------------------------- compile time
// Compiling is linear in the source and bounded by the deadline: a 1 MiB program (ordinary statements, or gotos in
// every form) compiles and runs in well under 2 s, and nesting at the syntax depth bound in well under 50 ms. Each
// program is new (a comment makes it unique), so the worker's cache does not help.
if (!only || only.includes("compile")) {
  const fill = (unit) => {
    const parts = []
    let size = 0
    for (let i = 0; size < 1024 * 1024 - 400; i++) {
      const line = unit(i)
      parts.push(line)
      size += line.length + 1
    }
    return parts.join("\n")
  }
  const programs = {
    "1 MiB of statements": fill(
      (i) => `local a${i % 100} = ${i} + (t and t.x or ${i}) * 2 .. "k" if a${i % 100} == 3 then t = { x = ${i} } end`,
    ),
    "1 MiB of gotos": fill(
      (i) =>
        `for i = 1, 2 do if i == 1 then goto c${i} end n = n + 1 ::c${i}:: end do goto b${i} ::a${i}:: n = n + 1 ::b${i}:: if n % 7 == ${i % 7} then goto a${i} end end`,
    ),
    // One short statement repeated: the most operations a 1 MiB program can hold.
    "1 MiB of x = x + 1": fill(() => "x = x + 1"),
    "1 MiB of x = t[#t]": fill(() => "x = t[#t]"),
    "1 MiB of a.b = c.d": fill(() => "a.b = c.d"),
    "1 MiB of f(x)": fill(() => "f(x)"),
    "1 MiB of local functions": fill(() => "local function g() return 1 end"),
    // The deepest nesting of each form that the syntax depth bound (200 levels) accepts.
    "nested parentheses at the depth bound": `return ${"'a' .. (".repeat(198)}'b'${")".repeat(198)}`,
    "nested calls at the depth bound": `local function f(x) return x end return ${"f(".repeat(198)}1${")".repeat(198)}`,
    "nested blocks at the depth bound": `local x = 0 ${"if true then ".repeat(198)}x = 1 ${"end ".repeat(198)} return x`,
    "nested functions at the depth bound": `return type(${"function() return ".repeat(98)}1${" end".repeat(98)})`,
  }
  const compileRows = []
  for (const [name, body] of Object.entries(programs)) {
    const times = []
    for (let i = 0; i < 3; i++) {
      const code = `local t, n, x, a, c = {1}, 0, 0, {}, {d = 1} local function f() end -- ${name} ${i} ${Date.now()}\n${body}`
      const t0 = cpu()
      const outcome = run({ ...oursRequest("fib"), code }, host)
      times.push(cpu() - t0)
      if (!outcome.ok) throw new Error(`${name}: ${JSON.stringify(outcome.error)}`)
    }
    compileRows.push([name, `${(Buffer.byteLength(body) / 1024).toFixed(0)} KiB`, Math.min(...times).toFixed(1)])
  }
  console.log("\n| program | size | compile and run, CPU ms, best of 3 |\n|---|---|---|")
  for (const r of compileRows) console.log(`| ${r.join(" | ")} |`)
}

// ---------------------------------------------------------------------------------------------- differential
if (!only || only.includes("differential")) {
  const r = spawnSync(process.execPath, [join(here, "differential.mjs"), "--count", "5000"], { encoding: "utf8" })
  console.log(`\n${r.stdout.trim()}`)
  if (r.status !== 0) process.exitCode = 1
}

// ---------------------------------------------------------------------------------------------- latency
// A small program (one tool call, one addition) through `CodeMode.execute` with a real sandbox worker: the whole
// round trip a host sees. A new program each time pays parsing, code generation and V8's compilation; the same
// program again finds its compiled form in the worker.
if (!only || only.includes("latency")) {
  const { CodeMode, SandboxPool, Tool } = await import("@codemode/core")
  const { Effect, Schema } = await import("effect")
  const pool = new SandboxPool({ keepIdle: 1 })
  const echo = Tool.make({
    description: "Echo a number",
    input: Schema.Struct({ x: Schema.Number }),
    output: Schema.Number,
    execute: ({ x }) => Effect.succeed(x),
  })
  const runtime = CodeMode.make({ language: "lua", pool, tools: { t: { echo } } })
  const p50 = async (program) => {
    const times = []
    for (let i = 0; i < 400; i++) {
      const t0 = performance.now()
      const r = await Effect.runPromise(runtime.execute(program(i)))
      times.push(performance.now() - t0)
      if (!r.ok) throw new Error(`latency program failed: ${JSON.stringify(r.error)}`)
    }
    return times.sort((a, b) => a - b)[200].toFixed(2)
  }
  const fresh = await p50((i) => `local r = tools.t.echo({ x = ${i} }) return r + 1`)
  const same = await p50(() => "local r = tools.t.echo({ x = 1 }) return r + 1")
  await pool.close()
  console.log(
    `one-tool-call program through CodeMode.execute, p50 of 400: ${fresh} ms (a new program each time), ${same} ms (the same program)`,
  )
}

// ---------------------------------------------------------------------------------------------- cold start
// The first run of a typical tool program (bench/lua/tool-program.lua: two tools, 40 records) in a fresh pooled
// sandbox, against warm runs, through `CodeMode.execute` (wall time, the host included). Each sample is a new pool:
// a program first runs in the sandbox started for it (so that the host side is warm), then, once the sandbox the
// pool started ahead of use has warmed up, the measured program runs in that one: its first run is the cold run.
// Every program here is the tool program with three no-op statements before its `return`, in one of 64 orders, so
// that each is a program no sandbox has seen (our compile cache and V8's cache of generated code both miss) and all
// compile to the same amount of code; the program that warms the host is not the measured one.
// After 20 unmeasured runs (both sandboxes warm), three warm runs are measured:
// - the measured program again, back to back (median of 20): the sandbox reuses its compiled form (the compile
//   cache), so this run skips parsing, code generation and V8's compilation, which no warm-up can spare a program
//   the sandbox has not seen;
// - a program new to the warm sandbox, back to back (median of 20): the cold run's work, in a sandbox that has run
//   programs;
// - a program new to the warm sandbox after the same idle wait as the cold run (one a sample): the cold run waits
//   for the warm-up, and a process that waited has lost its processor caches to the other processes (on a loaded
//   machine its first milliseconds run several times slower), which runs back to back never pay.
if (!only || only.includes("cold")) {
  const { CodeMode, SandboxPool } = await import("@codemode/core")
  const { Effect } = await import("effect")
  const { shopTools } = await import("../../../core/bench/shop.mjs")
  const shop = await shopTools()
  const base = source("tool-program")
  const returnAt = base.lastIndexOf("\nreturn ")
  const noOps = ["total = total + 0", "local count = #lines", "if #ids == 0 then total = 0 end", "local first = ids[1]"]
  /** The tool program with the no-op statements of order `k` (0-63) before its return. */
  const variant = (k) =>
    `${base.slice(0, returnAt)}\n${[k % 4, (k >> 2) % 4, (k >> 4) % 4].map((i) => noOps[i]).join("\n")}${base.slice(returnAt)}`
  const time = async (runtime, program) => {
    const t0 = performance.now()
    const r = await Effect.runPromise(runtime.execute(program))
    const ms = performance.now() - t0
    if (!r.ok) throw new Error(`the tool program failed: ${JSON.stringify(r.error)}`)
    return ms
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1]
  const colds = []
  const sames = []
  const news = []
  const waited = []
  const pause = 2500
  for (let s = 0; s < Number(option("--cold-samples") ?? 9); s++) {
    const pool = new SandboxPool({ keepIdle: 2 })
    const runtime = CodeMode.make({ language: "lua", pool, tools: { shop } })
    await time(runtime, variant(1))
    await new Promise((resolve) => setTimeout(resolve, pause))
    const program = variant(0)
    colds.push(await time(runtime, program))
    for (let i = 0; i < 20; i++) await time(runtime, program)
    const same = []
    for (let i = 0; i < 20; i++) same.push(await time(runtime, program))
    sames.push(median(same))
    const fresh = []
    for (let i = 0; i < 20; i++) fresh.push(await time(runtime, variant(2 + i)))
    news.push(median(fresh))
    await new Promise((resolve) => setTimeout(resolve, pause))
    waited.push(await time(runtime, variant(22)))
    pool.close()
  }
  const cold = median(colds)
  const same = median(sames)
  const fresh = median(news)
  const idle = median(waited)
  console.log(
    `\ncold start of a typical tool program, median of ${colds.length} fresh pooled sandboxes: first run ${cold.toFixed(2)} ms (first runs ${colds.map((x) => x.toFixed(1)).join(", ")}); target <= 1.5x a warm run:`,
  )
  console.log(
    `  the same program again, back to back (compiled form reused): ${same.toFixed(2)} ms, ${(cold / same).toFixed(2)}x\n  a program new to the warm sandbox, back to back: ${fresh.toFixed(2)} ms, ${(cold / fresh).toFixed(2)}x\n  a program new to the warm sandbox, after the same wait as the cold run: ${idle.toFixed(2)} ms, ${(cold / idle).toFixed(2)}x (runs ${waited.map((x) => x.toFixed(1)).join(", ")})`,
  )
}
