// Core benchmark: the host round trip of one call, and a trivial execution end to end (start, one tool call,
// return), each as p50/p99 over many runs; a trivial execution through each real language's sandbox, with the CPU it
// costs the host and the sandbox. The first two use the test-only line language, so that only the kernel is measured.
import { CodeMode, SandboxPool, Tool } from "@codemode/core"
import { Effect } from "effect"

const language = {
  name: "line",
  workerModule: new URL("../test/fixtures/line-language.mjs", import.meta.url).href,
  defaults: { timeoutMs: 60_000, maxToolCalls: 1_000_000, maxOutputBytes: 65_536 },
  extensionsCountTowardLimit: true,
  builtins: [],
  dialect: (await import("@codemode/core")).Language.find("lua").dialect,
  instructions: "",
}
const echo = Tool.make({
  description: "Echo",
  input: { type: "object" },
  output: { type: "object" },
  execute: (x) => Effect.succeed(x),
})
const runtime = CodeMode.make({ language, tools: { echo } })
const run = (code) => Effect.runPromise(runtime.execute(code))

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
const us = (ms) => `${(ms * 1000).toFixed(1)} µs`

// Warm up the pool and the JIT.
for (let i = 0; i < 200; i++) await run(`call echo {"i":${i}}\nreturn $`)

// Per-call round trip: executions of 1000 calls each; per-call time = (execution - empty execution) / 1000.
const calls = 1000
const many = Array.from({ length: calls }, (_, i) => `call echo {"i":${i}}`).join("\n")
const perCall = []
for (let i = 0; i < 30; i++) {
  const t0 = performance.now()
  await run(many)
  const t1 = performance.now()
  await run("return 1")
  const t2 = performance.now()
  perCall.push((t1 - t0 - (t2 - t1)) / calls)
}
perCall.sort((a, b) => a - b)

const trivial = []
for (let i = 0; i < 2000; i++) {
  const t0 = performance.now()
  const result = await run(`call echo {"id":"o1"}\nreturn $`)
  trivial.push(performance.now() - t0)
  if (!result.ok) throw new Error(JSON.stringify(result))
}
trivial.sort((a, b) => a - b)

// How long after timeoutMs a busy loop that never checks its meter is stopped (a grace for the program to end by
// itself, then the worker is terminated and replaced), and the next run works.
const overshoot = []
const short = CodeMode.make({ language, tools: { echo }, limits: { timeoutMs: 100 } })
for (let i = 0; i < 10; i++) {
  const t0 = performance.now()
  const result = await Effect.runPromise(short.execute("spin"))
  overshoot.push(performance.now() - t0 - 100)
  if (result.ok || result.error.kind !== "TimeoutExceeded") throw new Error(JSON.stringify(result))
  if (!(await run("return 1")).ok) throw new Error("the pool did not recover after a timeout")
}
overshoot.sort((a, b) => a - b)

// Containment: how long until a memory bomb ends (the program stopped, or its sandbox replaced), per kind of bomb.
const { monitorEventLoopDelay } = await import("node:perf_hooks")
const lua = CodeMode.make({ language: "lua", tools: { echo } })
const js = CodeMode.make({ language: "javascript", tools: { echo } })
const contain = []
for (const [name, rt, code] of [
  ["Lua: a table of tables", lua, "local t = {}\nfor i = 1, 1e9 do t[i] = { i } end\nreturn #t"],
  [
    "Lua: strings held in a table",
    lua,
    "local t = {}\nfor i = 1, 1e9 do t[#t + 1] = string.rep('x', 64) .. i end\nreturn #t",
  ],
  ["JavaScript: objects pushed on an array", js, "const a = []\nfor (;;) a.push({ n: a.length })"],
  ["JavaScript: one huge typed array", js, "new Uint8Array({ length: 2 ** 30 }).length"],
  ["the kernel's own bomb (V8 aborts the sandbox)", runtime, "bomb"],
]) {
  await Effect.runPromise(rt.execute(rt === lua ? "return 1" : rt === js ? "1" : "return 1"))
  const t0 = performance.now()
  const result = await Effect.runPromise(rt.execute(code))
  contain.push([name, performance.now() - t0, result.ok ? "not stopped!" : result.error.message.slice(0, 60)])
}

// The host's event loop while one JavaScript program floods it with 150,000 concurrent tool calls.
const loop = monitorEventLoopDelay({ resolution: 5 })
await Effect.runPromise(js.execute("1"))
loop.enable()
const floodStart = performance.now()
const flood = await Effect.runPromise(
  js.execute(
    "const ps = []\nfor (let i = 0; i < 150000; i++) ps.push(tools.echo({ i }))\nconst all = await Promise.all(ps)\nall.length",
  ),
)
const floodMs = performance.now() - floodStart
loop.disable()
if (!flood.ok || flood.value !== 150000) throw new Error(`the flood failed: ${JSON.stringify(flood).slice(0, 300)}`)

// A trivial execution (one tool call, one addition) through each real language's sandbox, after a warm-up long
// enough for V8 to finish optimizing both processes (thousands of executions): wall p50, and CPU per execution of the
// host process and of the sandbox process (all their threads; from /proc, so the sandbox's only on Linux).
const { existsSync, readdirSync, readFileSync } = await import("node:fs")
const cpuMs = (pid) => {
  let ns = 0
  for (const task of readdirSync(`/proc/${pid}/task`))
    ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0])
  return ns / 1e6
}
const children = () =>
  readdirSync("/proc/self/task").flatMap((t) =>
    readFileSync(`/proc/self/task/${t}/children`, "utf8").trim().split(/\s+/).filter(Boolean),
  )
const hasProc = existsSync("/proc/self/task")
const throughSandbox = []
for (const [name, code, warmup, samples] of [
  ["Lua", "local r = tools.echo({ x = 1 }) return r.x + 1", 6000, 2000],
  ["JavaScript", "const r = await tools.echo({ x: 1 }); r.x + 1", 2000, 1000],
]) {
  const before = new Set(hasProc ? children() : [])
  // Two sandboxes (one per core here), as the pool keeps: a run goes to the one not cleaning up after the last.
  const pool = new SandboxPool({ keepIdle: 2, maxWorkers: 2 })
  const rt = CodeMode.make({ language: name.toLowerCase(), tools: { echo }, pool })
  for (let i = 0; i < warmup; i++) await Effect.runPromise(rt.execute(code))
  const sandboxes = hasProc ? children().filter((pid) => !before.has(pid)) : []
  const sandboxCpu = () => sandboxes.reduce((sum, pid) => sum + cpuMs(pid), 0)
  const times = []
  const host0 = process.cpuUsage()
  const sandbox0 = sandboxCpu()
  for (let i = 0; i < samples; i++) {
    const t0 = performance.now()
    const result = await Effect.runPromise(rt.execute(code))
    times.push(performance.now() - t0)
    if (!result.ok || result.value !== 2) throw new Error(`${name}: ${JSON.stringify(result)}`)
  }
  const host = process.cpuUsage(host0)
  const sandbox = sandboxCpu() - sandbox0
  times.sort((a, b) => a - b)
  throughSandbox.push([name, percentile(times, 50), (host.user + host.system) / samples, (sandbox * 1000) / samples])
  pool.close()
}

console.log("## core")
console.log("| measure | p50 | p99 | target |")
console.log("|---|---|---|---|")
console.log(`| host call round trip | ${us(percentile(perCall, 50))} | ${us(percentile(perCall, 99))} | ≤ 60 µs |`)
console.log(
  `| busy loop that never checks its meter, stopped after timeoutMs (overshoot) | ${percentile(overshoot, 50).toFixed(1)} ms | ${percentile(overshoot, 99).toFixed(1)} ms | ≤ 100 ms |`,
)
console.log(
  `| trivial execution (start, one call, return) | ${percentile(trivial, 50).toFixed(3)} ms | ${percentile(trivial, 99).toFixed(3)} ms | ≤ 1 ms p50 |`,
)
for (const [name, p50, host, sandbox] of throughSandbox)
  console.log(
    `| trivial execution through ${name} sandboxes (a pool of 2), warm (host CPU ${host.toFixed(0)} µs, sandbox CPU ${hasProc ? `${sandbox.toFixed(0)} µs` : "n/a"} per execution) | ${p50.toFixed(3)} ms | | ≤ 1 ms p50 |`,
  )
console.log(
  `| host event-loop lag while one program makes 150,000 concurrent calls (${(floodMs / 1000).toFixed(1)} s) | ${(loop.percentile(50) / 1e6).toFixed(1)} ms | ${(loop.percentile(99) / 1e6).toFixed(1)} ms (max ${(loop.max / 1e6).toFixed(1)} ms) | ≤ 50 ms |`,
)
console.log("")
console.log("| memory bomb | stopped after | diagnostic |")
console.log("|---|---|---|")
for (const [name, ms, message] of contain) console.log(`| ${name} | ${(ms / 1000).toFixed(2)} s | ${message} |`)

// The first execution of a new process, each language (bench/first-execution.mjs).
console.log("")
console.log("| first execution of a process (median of 5 processes) | first run | warm run | ratio | target |")
console.log("|---|---|---|---|---|")
const { firstExecutions } = await import("./first-execution.mjs")
for (const language of ["lua", "javascript"]) {
  const r = firstExecutions(language)
  console.log(
    `| ${language}: \`CodeMode.make\`, 2.5 s, then the tool program | ${r.first.toFixed(2)} ms | ${r.warm.toFixed(2)} ms | ${(r.first / r.warm).toFixed(2)}x | ≤ 1.5x |`,
  )
  console.log(
    `| ${language}: the first run against a program new to the warm process (a compile of its own) | ${r.first.toFixed(2)} ms | ${r.fresh.toFixed(2)} ms | ${(r.first / r.fresh).toFixed(2)}x | |`,
  )
  console.log(
    `| ${language}: the same program again after 10 s idle | ${r.afterIdle.toFixed(2)} ms | ${r.warm.toFixed(2)} ms | ${(r.afterIdle / r.warm).toFixed(2)}x | |`,
  )
  console.log(`| ${language}: \`CodeMode.make\` and the tool program at once | ${r.atOnce.toFixed(0)} ms | | | |`)
}

process.exit(0)
