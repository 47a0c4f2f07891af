// The first execution of a process, as a host that follows the quick start sees it: `CodeMode.make` with the
// shared pool, then a typical tool program (each language's bench/tool-program: two tools, 60 orders). Each sample
// is a new process (node, then this script with `--child`), so that nothing of an earlier sample is warm:
// - made, then run after a pause (the pool has started and warmed its sandboxes meanwhile): the first run against
//   the median of the next 20 runs of the same program (target: <= 1.5x);
// - then a program new to the warm process (the tool program with a comment line of its own, so that no compiled
//   form is kept for it): what the first run would cost if only the program, not the process, were new;
// - made and run at once: from `CodeMode.make` to the first result (the sandbox starts on the critical path);
// - the same program again after the sandbox has been idle for `--idle` ms (a model's pause between two programs:
//   V8 collects an idle heap then), against the warm run.
//
// Usage: node bench/first-execution.mjs [--samples=5] [--pause=2500] [--idle=10000]   (build first); bench/run.mjs
// runs it.
import { spawnSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"

const option = (name, fallback) =>
  Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback)

/** The tool program of `language`, from its package's bench in this repository. */
const programOf = (language) =>
  readFileSync(
    new URL(
      language === "lua"
        ? "../../plugins/lang-lua/bench/lua/tool-program.lua"
        : "../../plugins/lang-js/bench/tool-program.js",
      import.meta.url,
    ),
    "utf8",
  )

/** One sample, in this process: prints `{ first, warm, fresh, idle }` (ms) as JSON. */
const child = async (language, pause, idle) => {
  const made = performance.now()
  const { CodeMode } = await import("@codemode/core")
  const { Effect } = await import("effect")
  const { shopTools } = await import("./shop.mjs")
  const shop = await shopTools()
  const program = programOf(language)
  const runtime = CodeMode.make({ language, tools: { shop } })
  const time = async (code = program) => {
    const t0 = performance.now()
    const result = await Effect.runPromise(runtime.execute(code))
    if (!result.ok) throw new Error(`the tool program failed: ${JSON.stringify(result.error)}`)
    return performance.now() - t0
  }
  if (pause > 0) await new Promise((resolve) => setTimeout(resolve, pause))
  const first = pause > 0 ? await time() : (await time(), performance.now() - made)
  const warm = []
  for (let i = 0; i < 20; i++) warm.push(await time())
  const comment = language === "lua" ? "--" : "//"
  const fresh = []
  for (let i = 0; i < 9; i++) fresh.push(await time(`${comment} variant ${i}\n${program}`))
  let afterIdle = 0
  if (idle > 0) {
    await new Promise((resolve) => setTimeout(resolve, idle))
    afterIdle = await time()
  }
  console.log(JSON.stringify({ first, warm: median(warm), fresh: median(fresh), idle: afterIdle }))
  process.exit(0)
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1]

/** Run `samples` processes of each kind for `language` and return the medians. */
export const firstExecutions = (language, samples = 5, pause = 2500, idle = 10_000) => {
  const sample = (wait, idleFor) => {
    const out = spawnSync(
      process.execPath,
      [fileURLToPath(import.meta.url), "--child", language, String(wait), String(idleFor)],
      { encoding: "utf8" },
    )
    if (out.status !== 0) throw new Error(`a first-execution sample failed: ${out.stderr}`)
    return JSON.parse(out.stdout.trim().split("\n").pop())
  }
  const paused = Array.from({ length: samples }, () => sample(pause, idle))
  const atOnce = Array.from({ length: samples }, () => sample(0, 0))
  return {
    first: median(paused.map((s) => s.first)),
    warm: median(paused.map((s) => s.warm)),
    fresh: median(paused.map((s) => s.fresh)),
    firsts: paused.map((s) => s.first),
    afterIdle: median(paused.map((s) => s.idle)),
    atOnce: median(atOnce.map((s) => s.first)),
  }
}

if (process.argv[2] === "--child") await child(process.argv[3], Number(process.argv[4]), Number(process.argv[5]))
else if (import.meta.url === `file://${process.argv[1]}`) {
  const samples = option("samples", 5)
  const pause = option("pause", 2500)
  const idle = option("idle", 10_000)
  for (const language of ["lua", "javascript"]) {
    const r = firstExecutions(language, samples, pause, idle)
    console.log(
      `${language}: first execution of a process, made ${pause} ms before: ${r.first.toFixed(2)} ms against a warm run's ${r.warm.toFixed(2)} ms, ${(r.first / r.warm).toFixed(2)}x (target <= 1.5x; first runs ${r.firsts.map((x) => x.toFixed(1)).join(", ")}); a program new to the warm process: ${r.fresh.toFixed(2)} ms, first run ${(r.first / r.fresh).toFixed(2)}x it; the same program after ${idle} ms idle: ${r.afterIdle.toFixed(2)} ms, ${(r.afterIdle / r.warm).toFixed(2)}x; made and run at once: ${r.atOnce.toFixed(0)} ms to the first result`,
    )
  }
}
