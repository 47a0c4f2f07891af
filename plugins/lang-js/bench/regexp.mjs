// Benchmark: ordinary patterns with backreferences and lookarounds, which lang-js runs on its metered matcher,
// against the same program run by Node itself (V8's irregexp). Each workload scans a generated text of about
// 200 KB; both must give the same checksum. Prints the best of five rounds and the ratio lang-js / Node.
//
// Usage: node bench/regexp.mjs [--quick]   (build first: npx tsup)
import { performance } from "node:perf_hooks"
import { run } from "../dist/worker.js"

const quick = process.argv.includes("--quick")
const size = quick ? 20_000 : 200_000

const text = `
  var words = ["alpha", "beta", "gamma", "delta", "the", "the", "a", "price", "$12.50", "'quoted'", '"x"', "aa", "bb"]
  var s = "", seed = 7
  while (s.length < ${size}) { seed = (seed * 1103515245 + 12345) % 2147483648; s += words[seed % words.length] + (seed % 7 ? " " : "\\n") }
`

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

const langJs = (body) => {
  const out = run(
    {
      code: `function main() {${text}${body}\n}\nmain()`,
      tools: {},
      extensions: [],
      limits: { timeoutMs: Infinity, maxToolCalls: Infinity, maxOutputBytes: Infinity },
    },
    noopHost,
  )
  if (!out.ok) throw new Error(`${out.error.kind}: ${out.error.message}`)
  return out.value
}

const node = (body) => new Function(`${text}${body}`)()

const best = (fn) => {
  let min = Infinity
  let value
  for (let i = 0; i < 5; i++) {
    const t = performance.now()
    value = fn()
    min = Math.min(min, performance.now() - t)
  }
  return { ms: min, value }
}

const base = best(() => langJs("return s.length"))
const nodeBase = best(() => node("return s.length"))
console.log(
  `text of ${size} characters; building it: lang-js ${base.ms.toFixed(1)} ms, Node ${nodeBase.ms.toFixed(1)} ms`,
)
console.log("workload".padEnd(48), "lang-js ms".padStart(11), "Node ms".padStart(9), "ratio".padStart(7))
for (const w of workloads) {
  const ours = best(() => langJs(w.body))
  const theirs = best(() => node(w.body))
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
