// Cold start: the first run of a typical tool program (bench/tool-program.js: two tools, 60 orders) in a fresh pooled
// sandbox, against its warm run, through `CodeMode.execute` (wall time, the host included). Each sample is a new
// pool: the program first runs in the sandbox started for it (so the host side is warm), then, once the sandbox the
// pool started ahead of use has loaded and warmed the language (`warm()`), in that one: its first run there is the
// cold run. The warm run is the median of the next 20 runs. Target: cold <= 1.5x warm.
//
// Usage: node bench/cold.mjs [--samples=9]   (build first: npx tsup); bench/run.mjs runs it last.
import { readFileSync } from "node:fs"
import { performance } from "node:perf_hooks"

const program = readFileSync(new URL("./tool-program.js", import.meta.url), "utf8")

/** Run the cold-start benchmark over `samples` fresh pools and print the medians. */
export const coldBench = async (samples = 9) => {
  const { CodeMode, SandboxPool, Tool } = await import("@codemode/core")
  const { Effect, Schema } = await import("effect")
  const Order = Schema.Struct({
    id: Schema.String,
    customer: Schema.String,
    amount: Schema.Number,
    status: Schema.String,
    items: Schema.Array(Schema.String),
  })
  const orders = Array.from({ length: 60 }, (_, i) => ({
    id: `order_${i}`,
    customer: ["ada", "bob", "cy", "dee", "eve"][i % 5],
    amount: ((i * 37) % 500) / 4,
    status: i % 3 ? "open" : "shipped",
    items: i % 2 ? ["book", "pen"] : ["lamp"],
  }))
  const shop = {
    listOrders: Tool.make({
      description: "List orders by status",
      input: Schema.Struct({ status: Schema.String }),
      output: Schema.Array(Order),
      execute: ({ status }) => Effect.succeed(orders.filter((o) => o.status === status)),
    }),
    getCustomer: Tool.make({
      description: "Look up a customer",
      input: Schema.Struct({ name: Schema.String }),
      output: Schema.Struct({ name: Schema.String, tier: Schema.String }),
      execute: ({ name }) => Effect.succeed({ name, tier: name.length > 2 ? "gold" : "basic" }),
    }),
  }
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

if (import.meta.url === `file://${process.argv[1]}`)
  await coldBench(Number(process.argv.find((a) => a.startsWith("--samples="))?.slice(10) ?? 9))
