// Compile-time benchmark: a program at the source-size bound and every shape of nesting at the syntax-depth bound,
// each through one `run` (parse, analysis, compile; the programs do almost nothing when they run). Targets: the
// large programs in at most 2 s, each nesting shape in at most 50 ms. Prints the best of three runs.
//
// Usage: node bench/compile.mjs   (build first: npx tsup); bench/run.mjs runs it after the engine table.
import { performance } from "node:perf_hooks"
import { run } from "../dist/worker.js"

const SOURCE_BOUND = 1_000_000

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

const execute = (code) =>
  run(
    {
      code,
      tools: {},
      extensions: [],
      limits: { timeoutMs: Infinity, maxToolCalls: Infinity, maxOutputBytes: Infinity },
    },
    noopHost,
  )

/** Repeat `unit(i)` until the program reaches the source bound. */
const fill = (unit, tail) => {
  const parts = []
  let length = tail.length
  for (let i = 0; ; i++) {
    const u = unit(i)
    if (length + u.length > SOURCE_BOUND) break
    parts.push(u)
    length += u.length
  }
  return parts.join("") + tail
}

const large = {
  "mixed program (functions, classes, async, destructuring)": fill(
    (i) => `
function f${i}(o, { a = 1, b: [c, ...d] = [] } = {}) {
  let s = 0
  for (let j = 0; j < o.n; j++) s += o.items?.[j]?.value ?? a * c
  switch (o.kind) { case "x": s++; break; default: s-- }
  try { s += JSON.parse(o.text).length } catch (e) { s = -1 } finally { s |= 0 }
  return \`\${s}:\${d.length}\`
}
class C${i} extends Object { #p = ${i}; static s = 1; get p() { return this.#p } m(x) { return super.toString() + x } }
const g${i} = async (x) => { const [r] = await Promise.all([x, tools?.t?.(x)]); return { r, ...x } }
`,
    "\n1",
  ),
  "declarations in one scope (let a0 = 0; ...)": fill((i) => `let a${i} = ${i};`, "\n1"),
  "one long function body": `function big() {\n${fill((i) => `  x${i % 50} = y.z[${i}] + w(${i}, "s");\n`, "")}}\n1`,
}

const nest = (open, inner, close, n) => open.repeat(n) + inner + close.repeat(n)

const shapes = {
  "f(f(...))": (n) => `function f(x) { return x } ${nest("f(", "1", ")", n)}`,
  "f(f(...)) never run": (n) => `function f(x) { return x } if (false) { ${nest("f(", "1", ")", n)} } 1`,
  '" a ".trim().trim()...': (n) => `" a "${".trim()".repeat(n)}`,
  "o.m(1).m(1)...": (n) => `const o = { m() { return this } }; o${".m(1)".repeat(n)} === o`,
  "o.a.a...": (n) => `const o = {}; o.a = o; o${".a".repeat(n)} === o`,
  "o?.a?.a...": (n) => `const o = {}; o.a = o; o${"?.a".repeat(n)} === o`,
  'o["k"]["k"]... nested': (n) => `const o = { k: "k" }; ${nest("o[", '"k"', "]", n)}`,
  "[[[...]]]": (n) => `${nest("[", "1", "]", n)}.length`,
  "{ a: { a: ... } }": (n) => `Object.keys(${nest("{ a: ", "1", " }", n)}).length`,
  "(1 + (1 + ...))": (n) => nest("(1 + ", "1", ")", n),
  "x + x + ...": (n) => `let x = 1; x${" + x".repeat(n)}`,
  "t ? t ? ... : 0 : 0": (n) => `const t = 1; ${"t ? ".repeat(n)}1${" : 0".repeat(n)}`,
  "() => () => ...": (n) => `const f = ${"() => ".repeat(n)}1; f${"()".repeat(n)}`,
  "`${`${...}`}`": (n) => nest("`a${", "1", "}`", n),
  "{ { { ... } } }": (n) => `let x = 0; ${nest("{ ", "x++", " }", n)} x`,
  "for (let ...) for (let ...) ...": (n) => `let x = 0; ${"for (let i = 0; i < 1; i++) ".repeat(n)}x++; x`,
  "[[[a]]] = [[[4]]]": (n) => `const ${nest("[", "a", "]", n)} = ${nest("[", "4", "]", n)}; a`,
  "await await ...": (n) => `${"await ".repeat(n)}1`,
  "await f(await f(...))": (n) => `const f = async (x) => x; ${nest("await f(", "0", ")", n)}`,
}

/** The largest `n` for which `build(n)` is within the syntax-depth bound. */
const deepest = (build) => {
  let lo = 1
  let hi = 2000
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2)
    const out = execute(build(mid))
    if (out.ok || out.error.kind !== "ParseError") lo = mid
    else hi = mid - 1
  }
  return lo
}

const best = (code) => {
  let ms = Infinity
  let out
  for (let r = 0; r < 3; r++) {
    const start = performance.now()
    out = execute(code)
    ms = Math.min(ms, performance.now() - start)
  }
  if (!out.ok) throw new Error(`${out.error.kind}: ${out.error.message}`)
  return ms
}

/** Run the compile-time benchmark and print its table. */
export const compileBench = () => {
  execute("1")
  console.log(`\n${"compile (parse, analysis, compile, trivial run)".padEnd(62)}${"ms".padStart(10)}  target`)
  let worst = 0
  for (const [name, code] of Object.entries(large)) {
    const ms = best(code)
    worst = Math.max(worst, ms)
    console.log(`${`${name}, ${code.length} chars`.padEnd(62)}${ms.toFixed(1).padStart(10)}  ≤ 2000`)
  }
  let deepestShape = 0
  for (const [name, build] of Object.entries(shapes)) {
    const n = deepest(build)
    const ms = best(build(n))
    deepestShape = Math.max(deepestShape, ms)
    console.log(`${`${name} at the depth bound (n = ${n})`.padEnd(62)}${ms.toFixed(1).padStart(10)}  ≤ 50`)
  }
  console.log(
    `${"slowest large program / slowest nesting shape".padEnd(62)}${`${worst.toFixed(0)} / ${deepestShape.toFixed(1)}`.padStart(10)}`,
  )
}

if (import.meta.url === `file://${process.argv[1]}`) compileBench()
