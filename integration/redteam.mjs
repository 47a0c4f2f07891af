#!/usr/bin/env node
/**
 * The red team's long and heavy attacks, too slow for `npm test` (the quick ones are `test/redteam-*.test.ts`).
 * Each prints what it measured; a line starting with BREAK is a promise that did not hold.
 *
 *   node integration/redteam.mjs [compile] [work] [host] [orphans]     (all by default)
 *
 * - compile: 1 MiB programs of either language (the target: compiled in at most 2 s).
 * - work: built-ins whose work is not charged to the work budget, run with `timeoutMs: Infinity` for up to 20 s.
 * - host: the host's event-loop lag and memory while programs flood it (calls, large inputs, failures, bombs).
 * - orphans: a host killed mid-run leaves no sandbox process behind.
 */
import { spawn } from "node:child_process"
import { readdirSync, readFileSync } from "node:fs"
import { monitorEventLoopDelay } from "node:perf_hooks"
import { fileURLToPath } from "node:url"
import { CodeMode, Tool } from "@codemode/core"
import { Effect } from "effect"

const tools = {
  t: {
    echo: Tool.make({ description: "Echo", input: { type: "object" }, output: {}, execute: Effect.succeed }),
    never: Tool.make({
      description: "Never answers",
      input: { type: "object" },
      output: {},
      execute: () => Effect.never,
    }),
    fails: Tool.make({
      description: "Fails with a 1 MiB body",
      input: { type: "object" },
      execute: () => Effect.fail(new Error(`HTTP 500: ${"<html>".repeat(180_000)}`)),
    }),
  },
}

const say = (line) => console.log(line)
const mb = () => Math.round(process.memoryUsage().rss / 1e6)
const kindOf = (r) =>
  r.ok ? `ok ${JSON.stringify(r.value).slice(0, 40)}` : `${r.error.kind}: ${r.error.message.slice(0, 80)}`

/** Run `code`, at most `capMs` (then interrupt it); returns [ms, result or undefined]. */
const timed = async (runtime, code, capMs) => {
  const start = performance.now()
  const exit = await Effect.runPromise(Effect.timeoutOption(runtime.execute(code), capMs))
  return [Math.round(performance.now() - start), exit._tag === "Some" ? exit.value : undefined]
}

/** A Lua program of about `size` bytes made of forward gotos to distinct labels. */
const gotos = (size) => {
  let code = ""
  for (let i = 0; code.length < size - 40; i++) code += `goto l${i} ::l${i}:: `
  return `${code}return 1`
}

const fill = (unit, head, tail, size) =>
  head + unit.repeat(Math.floor((size - head.length - tail.length) / unit.length)) + tail

const compile = async () => {
  say("\n## compile: 1 MiB programs (target: at most 2 s each)")
  const lua = CodeMode.make({ language: "lua", tools, limits: { timeoutMs: 60_000 } })
  const js = CodeMode.make({ language: "javascript", tools, limits: { timeoutMs: 60_000 } })
  await timed(lua, "return 1", 10_000)
  await timed(js, "1", 10_000)
  const MiB = 1 << 20
  const cases = [
    [lua, "lua", fill("x=x+1 ", "local x=0 ", " return x", MiB)],
    [lua, "lua", fill("x=t[#t] ", "local t,x={1},1 ", " return x", MiB)],
    [lua, "lua", fill("a.b=c.d ", "local a,c={},{d=1} ", " return 1", MiB)],
    [lua, "lua", fill("f(x) ", "local x=0 local function f() end ", " return 1", MiB)],
    [lua, "lua", gotos(MiB)],
    // JavaScript refuses programs over 1,000,000 characters (not quite 1 MiB).
    [js, "javascript", fill("x=x+1;", "let x=0;", " x", 999_000)],
    [js, "javascript", fill("f(x);", "let x=0;function f(){};", " x", 999_000)],
    [js, "javascript", fill("x=()=>x;", "let x;", " 1", 999_000)],
    [js, "javascript", fill("[x]=[x];", "let x=1;", " x", 999_000)],
  ]
  for (const [runtime, language, code] of cases) {
    const [ms, result] = await timed(runtime, code, 60_000)
    say(
      `${ms > 2000 ? "BREAK" : "held "} ${language} ${code.length} chars of ${JSON.stringify(code.slice(12, 24))}…: ${ms} ms, ${result ? kindOf(result) : "still running"}`,
    )
  }
}

const work = async () => {
  say("\n## work: built-ins that do not charge the work budget (timeoutMs: Infinity, stopped after 20 s)")
  const lua = CodeMode.make({ language: "lua", tools, limits: { timeoutMs: Infinity } })
  const js = CodeMode.make({ language: "javascript", tools })
  const cases = [
    [lua, `local s = string.rep("a", 1e6) local n = 0 for i = 1, 1e5 do n = n + #s:upper() end return n`],
    [lua, `local s = string.rep("a", 1e6) local n = 0 for i = 1, 1e5 do n = n + #s:reverse() end return n`],
    [lua, `local s = string.rep("a", 1e6) local n = 0 for i = 1, 1e5 do n = n + (s:find("a*b") or 0) end return n`],
    [lua, `local t = {} for i = 1, 1e6 do t[i] = i end for i = 1, 1e5 do table.move(t, 1, 1e6, 1) end return 1`],
    [lua, `return string.rep("a", 5000):find(string.rep("a-", 100) .. "b")`],
    [js, `const a = new Array(1e6).fill(1); for (let i = 0; i < 1e5; i++) a.reverse(); a.length`],
    [js, `const s = "a".repeat(1e6); let n = 0; for (let i = 0; i < 1e5; i++) n += s.split("a").length; n`],
    [
      js,
      `const s = JSON.stringify("a".repeat(1e6)); let n = 0; for (let i = 0; i < 1e5; i++) n += JSON.parse(s).length; n`,
    ],
    [js, `const a = new Array(1e6).fill(1); for (let i = 0; i < 1e6; i++) { a.shift(); a.push(1) } a.length`],
    [js, `const a = []; a.length = 1e9; a.reverse(); 1`],
    [js, `const a = []; a.length = 1e9; a.slice().length`],
    [js, `/^(a+)+\\1$/.test("a".repeat(40) + "b")`],
  ]
  for (const [runtime, code] of cases) {
    const [ms, result] = await timed(runtime, code, 20_000)
    const held = result !== undefined && !result.ok && /work (budget|limit)/.test(result.error.message)
    say(`${held ? "held " : "BREAK"} ${ms} ms ${result ? kindOf(result) : "still running"}: ${code.slice(0, 90)}`)
  }
}

const host = async () => {
  say("\n## host: event-loop lag and memory while programs flood it")
  const js = CodeMode.make({ language: "javascript", tools })
  const lua = CodeMode.make({ language: "lua", tools, limits: { timeoutMs: 60_000, maxToolCalls: 1e6 } })
  await timed(js, "1", 10_000)
  const cases = [
    [
      js,
      "150,000 calls through Promise.all",
      `const ps = []; for (let i = 0; i < 150000; i++) ps.push(tools.t.echo({ i })); (await Promise.all(ps)).length`,
    ],
    [js, "150,000 un-awaited calls", `for (let i = 0; i < 150000; i++) tools.t.echo({ i }); 1`],
    [
      js,
      "200 calls of 1 MB inputs",
      `const ps = []; for (let i = 0; i < 200; i++) ps.push(tools.t.echo({ s: "x".repeat(1e6) + i })); (await Promise.all(ps)).length`,
    ],
    [
      js,
      "400 un-awaited calls of 4 MB inputs",
      `const s = "x".repeat(4e6); for (let i = 0; i < 400; i++) tools.t.never({ s, i }); 1`,
    ],
    [
      js,
      "300 failures with 1 MiB messages",
      `let n = 0; for (let i = 0; i < 300; i++) { try { await tools.t.fails({}) } catch { n++ } } n`,
    ],
    [
      lua,
      "300 failures with 1 MiB messages (Lua)",
      `local n = 0 for i = 1, 300 do if not pcall(tools.t.fails, {}) then n = n + 1 end end return n`,
    ],
    [js, "a million log lines", `for (let i = 0; i < 1e6; i++) console.log("line", i); 1`],
    [js, "100,000 searches", `let n = 0; for (let i = 0; i < 100000; i++) n += search("echo").items.length; n`],
  ]
  for (const [runtime, name, code] of cases) {
    const before = mb()
    let peak = before
    const sampler = setInterval(() => (peak = Math.max(peak, mb())), 100)
    const lag = monitorEventLoopDelay({ resolution: 5 })
    lag.enable()
    const [ms, result] = await timed(runtime, code, 60_000)
    lag.disable()
    clearInterval(sampler)
    const size = result ? JSON.stringify(result).length : 0
    const held = lag.max / 1e6 <= 50 && peak - before < 1000 && size < 20 * 1024 * 1024
    say(
      `${held ? "held " : "BREAK"} ${name}: ${ms} ms, lag max ${(lag.max / 1e6).toFixed(0)} ms (p99 ${(lag.percentile(99) / 1e6).toFixed(0)}), RSS +${peak - before} MB, result ${size} chars, ${result ? kindOf(result) : "still running"}`,
    )
  }
  const bombs = 8
  const before = mb()
  let peak = before
  const sampler = setInterval(() => (peak = Math.max(peak, mb())), 100)
  const start = performance.now()
  const results = await Promise.all(
    Array.from({ length: bombs }, () =>
      Effect.runPromise(js.execute("const a = []; for (;;) a.push(new Array(1e6).fill(1.5))")),
    ),
  )
  clearInterval(sampler)
  say(
    `held  ${bombs} concurrent memory bombs: contained in ${Math.round(performance.now() - start)} ms, host RSS +${peak - before} MB, kinds ${[...new Set(results.map((r) => (r.ok ? "ok" : r.error.kind)))]}`,
  )
}

/** The sandbox processes whose parent is `pid`. */
const childrenOf = (pid) =>
  readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((child) => {
      try {
        const stat = readFileSync(`/proc/${child}/stat`, "utf8")
        return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid
      } catch {
        return false
      }
    })
    .map(Number)

const orphans = async () => {
  say("\n## orphans: a host killed mid-run")
  const script = `
    import { CodeMode, Tool } from "@codemode/core"
    import { Effect } from "effect"
    const tools = { t: { never: Tool.make({ description: "n", input: { type: "object" }, execute: () => Effect.never }) } }
    const lua = CodeMode.make({ language: "lua", tools }), js = CodeMode.make({ language: "javascript", tools })
    for (const [r, c] of [[lua, "while true do end"], [js, "for(;;){}"], [js, "/^(a+)+\\\\1$/.test('a'.repeat(40) + 'b')"], [js, "await tools.t.never({})"], [lua, "return tools.t.never({})"]])
      Effect.runPromise(r.execute(c))
    setInterval(() => {}, 1000)`
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
    cwd: fileURLToPath(new URL(".", import.meta.url)),
    stdio: "ignore",
  })
  await new Promise((resolve) => setTimeout(resolve, 4000))
  const sandboxes = childrenOf(child.pid)
  child.kill("SIGKILL")
  await new Promise((resolve) => setTimeout(resolve, 3000))
  const left = sandboxes.filter((pid) => {
    try {
      return !readFileSync(`/proc/${pid}/stat`, "utf8").includes(") Z")
    } catch {
      return false
    }
  })
  say(
    `${left.length === 0 ? "held " : "BREAK"} ${sandboxes.length} sandboxes running, ${left.length} left 3 s after SIGKILL of their host`,
  )
}

const wanted = process.argv.slice(2)
const all = { compile, work, host, orphans }
for (const [name, run] of Object.entries(all)) if (wanted.length === 0 || wanted.includes(name)) await run()
process.exit(0)
