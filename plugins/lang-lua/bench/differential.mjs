// The large differential run: seeded random programs under our Lua (the built worker's `run`) and under `lua5.4`,
// compared line by line outside the documented differences (test/support/differential.mjs).
//
// Usage: node bench/differential.mjs [--from N] [--count N] [--show N]   (after `npm run build`)
import { run } from "../dist/worker.js"
import { differences } from "../test/support/differential.mjs"
import { generateProgram } from "../test/support/generate.mjs"

const args = process.argv.slice(2)
const option = (name, fallback) => {
  const i = args.indexOf(name)
  return i < 0 ? fallback : Number(args[i + 1])
}
const from = option("--from", 100_001)
const count = option("--count", 20_000)
const show = option("--show", 3)

const t0 = performance.now()
const found = differences(run, generateProgram, from, count)
const seconds = (performance.now() - t0) / 1000
for (const d of found.slice(0, show))
  console.log(`=== seed ${d.seed}\n${d.program}\n--- lua5.4\n${d.expected}--- ours\n${d.ours}`)
console.log(
  `differential: ${count} random programs (seeds ${from}..${from + count - 1}) against lua5.4 in ${seconds.toFixed(1)} s: ${found.length} differ`,
)
if (found.length > 0) process.exitCode = 1
