// Cold start: the first run of a typical tool program (bench/tool-program.js: two tools, 60 orders) in a fresh pooled
// sandbox, against its warm run, through `CodeMode.execute` (wall time, the host included). Each sample is a new
// pool: the program first runs in the sandbox started for it (so the host side is warm), then, once the sandbox the
// pool started ahead of use has loaded and warmed the language (`warm()`), in that one: its first run there is the
// cold run. The warm run is the median of the next 20 runs. Target: cold <= 1.5x warm.
//
// Then the latency a host sees through `CodeMode.execute` with a real sandbox: a trivial execution and a one-tool-call
// program (p50 of 400, one after another on one sandbox; a new program each time pays parsing and compiling, the same
// program again runs the compiled form its sandbox kept), and the round trip of one host call (p50 over programs making 100
// sequential calls, less a program making none). Targets: a trivial execution <= 1 ms p50, a host call round trip
// <= 60 us p50. Back to back, each execution also waits for the sandbox to clean up after the one before (the realm
// restore, after the result is sent); the trivial execution is also timed 5 ms after the previous one, when the
// sandbox is clean, as it is when a model's turns come seconds apart.
//
// Usage: node bench/cold.mjs [--samples=9]   (build first: npx tsup); bench/run.mjs runs it last.
import { readFileSync } from "node:fs"
import { performance } from "node:perf_hooks"

const program = readFileSync(new URL("./tool-program.js", import.meta.url), "utf8")

/** Run the cold-start benchmark over `samples` fresh pools and print the medians. */
export const coldBench = async (samples = 9) => {
  const { CodeMode, SandboxPool } = await import("@codemode/core")
  const { Effect } = await import("effect")
  const { shopTools } = await import("../../../core/bench/shop.mjs")
  const shop = await shopTools()
  const time = async (runtime) => {
    const t0 = performance.now()
    const r = await Effect.runPromise(runtime.execute(program))
    const ms = performance.now() - t0
    if (!r.ok) throw new Error(`the tool program failed: ${JSON.stringify(r.error)}`)
    return ms
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1]
  const colds = []
  const warms = []
  for (let s = 0; s < samples; s++) {
    const pool = new SandboxPool({ keepIdle: 2 })
    const runtime = CodeMode.make({ language: "javascript", pool, tools: { shop } })
    await time(runtime)
    await new Promise((resolve) => setTimeout(resolve, 1500))
    colds.push(await time(runtime))
    const w = []
    for (let i = 0; i < 20; i++) w.push(await time(runtime))
    warms.push(median(w))
    pool.close()
  }
  const cold = median(colds)
  const warm = median(warms)
  console.log(
    `\ncold start of a typical tool program, median of ${colds.length} fresh pooled sandboxes: first run ${cold.toFixed(2)} ms, warm run ${warm.toFixed(2)} ms, ${(cold / warm).toFixed(2)}x (target <= 1.5x; first runs ${colds.map((x) => x.toFixed(1)).join(", ")})`,
  )
}

/** Measure the latency of trivial executions and of host calls through `CodeMode.execute` and print p50s. */
export const latencyBench = async () => {
  const { CodeMode, SandboxPool, Tool } = await import("@codemode/core")
  const { Effect, Schema } = await import("effect")
  const pool = new SandboxPool({ keepIdle: 1 })
  const echo = Tool.make({
    description: "Echo a number",
    input: Schema.Struct({ x: Schema.Number }),
    output: Schema.Number,
    execute: ({ x }) => Effect.succeed(x),
  })
  const runtime = CodeMode.make({ language: "javascript", pool, tools: { t: { echo } } })
  const p50 = async (program, count = 400, gapMs = 0) => {
    const times = []
    for (let i = 0; i < count; i++) {
      if (gapMs > 0) await new Promise((resolve) => setTimeout(resolve, gapMs))
      const t0 = performance.now()
      const r = await Effect.runPromise(runtime.execute(program(i)))
      times.push(performance.now() - t0)
      if (!r.ok) throw new Error(`latency program failed: ${JSON.stringify(r.error)}`)
    }
    return times.sort((a, b) => a - b)[count >> 1]
  }
  const trivial = await p50((i) => `${i} + 1`)
  const spaced = await p50((i) => `${i} + 2`, 200, 5)
  const fresh = await p50((i) => `const r = await tools.t.echo({ x: ${i} }); r + 1`)
  const same = await p50(() => "const r = await tools.t.echo({ x: 1 }); r + 1")
  const none = await p50(() => "let s = 0; for (let i = 0; i < 100; i++) s += i; s", 100)
  const hundred = await p50(() => "let s = 0; for (let i = 0; i < 100; i++) s += await tools.t.echo({ x: i }); s", 100)
  pool.close()
  console.log(
    `\nthrough CodeMode.execute, p50: trivial execution ${trivial.toFixed(2)} ms (target <= 1 ms; ${spaced.toFixed(2)} ms when 5 ms apart); one-tool-call program ${fresh.toFixed(2)} ms (a new program each time), ${same.toFixed(2)} ms (the same program); host call round trip ${(((hundred - none) / 100) * 1000).toFixed(0)} us (target <= 60 us)`,
  )
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await coldBench(Number(process.argv.find((a) => a.startsWith("--samples="))?.slice(10) ?? 9))
  await latencyBench()
}
