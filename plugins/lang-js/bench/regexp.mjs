// Benchmark: ordinary patterns with backreferences, lookarounds or the i flag, which lang-js runs on its metered
// matcher, against the same program run by Node itself (V8's irregexp); the last ones stay on the host engine.
// Each workload scans a generated text of about 200 KB; both must give the same checksum. Prints the best of five
// rounds and the ratio lang-js / Node.
//
// Usage: node bench/regexp.mjs [--quick]   (build first: npx tsup)
import { performance } from "node:perf_hooks"
import { run } from "../dist/worker.js"

const quick = process.argv.includes("--quick")
const size = quick ? 20_000 : 200_000

const line = `alpha beta the the gamma a price $12.50 'quoted' "x" aa bb delta delta\n`
// Each round's text differs (V8 caches the results of a global regular expression on the same subject).
const text = (round) => `var s = ${JSON.stringify(line)}.repeat(${Math.ceil(size / line.length)}) + "${round}"\n`

const workloads = [
  { name: "doubled words /\\b(\\w+)\\s+\\1\\b/g", body: `return s.match(/\\b(\\w+)\\s+\\1\\b/g).length` },
  { name: "doubled letters /(\\w)\\1/g", body: `return s.replace(/(\\w)\\1/g, "$1").length` },
  { name: "quoted strings /(['\"])(?:(?!\\1).)*\\1/g", body: `return s.match(/(['"])(?:(?!\\1).)*\\1/g).length` },
  { name: "lookbehind /(?<=\\$)\\d+(?:\\.\\d+)?/g", body: `return s.match(/(?<=\\$)\\d+(?:\\.\\d+)?/g).length` },
  { name: "lookahead split /(?=\\n)/", body: `return s.split(/(?=\\n)/).length` },
  {
    name: "named /(?<w>[a-z]+) \\k<w>/g exec loop",
    body: `var r = /(?<w>[a-z]+) \\k<w>/g, n = 0, m; while ((m = r.exec(s)) !== null) n += m.groups.w.length; return n`,
  },
  { name: "case-insensitive /\\bthe\\s+\\w+/gi", body: `return s.match(/\\bthe\\s+\\w+/gi).length` },
  { name: "(host engine) /the/gi", body: `return s.match(/the/gi).length` },
  { name: "(host engine) /\\b\\w+\\b/g", body: `return s.match(/\\b\\w+\\b/g).length` },
]

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

const langJs = (body, round) => {
  const out = run(
    {
      code: `function main() {${text(round)}${body}\n}\nmain()`,
      tools: {},
      extensions: [],
      limits: { timeoutMs: Infinity, maxToolCalls: Infinity, maxOutputBytes: Infinity },
    },
    noopHost,
  )
  if (!out.ok) throw new Error(`${out.error.kind}: ${out.error.message}`)
  return out.value
}

const node = (body, round) => new Function(`${text(round)}${body}`)()

const best = (fn) => {
  let min = Infinity
  let value
  for (let i = 0; i < 5; i++) {
    const t = performance.now()
    value = fn(i)
    min = Math.min(min, performance.now() - t)
  }
  return { ms: min, value }
}

const base = best((i) => langJs("return s.length", i))
const nodeBase = best((i) => node("return s.length", i))
console.log(
  `text of ${size} characters; building it: lang-js ${base.ms.toFixed(1)} ms, Node ${nodeBase.ms.toFixed(1)} ms`,
)
console.log("workload".padEnd(48), "lang-js ms".padStart(11), "Node ms".padStart(9), "ratio".padStart(7))
for (const w of workloads) {
  const ours = best((i) => langJs(w.body, i))
  const theirs = best((i) => node(w.body, i))
  if (ours.value !== theirs.value) throw new Error(`${w.name}: lang-js gave ${ours.value}, Node ${theirs.value}`)
  // The text is built in both; subtract that to compare the matching.
  const a = Math.max(ours.ms - base.ms, 0.01)
  const b = Math.max(theirs.ms - nodeBase.ms, 0.01)
  console.log(
    w.name.padEnd(48),
    a.toFixed(1).padStart(11),
    b.toFixed(1).padStart(9),
    `${(a / b).toFixed(1)}x`.padStart(7),
  )
}
