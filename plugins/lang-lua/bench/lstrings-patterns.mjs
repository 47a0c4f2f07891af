// Benchmark of the lstrings pattern matcher and formatter on their own (no interpreter): the same pattern-heavy
// and format-heavy work done through our functions and through PUC Lua 5.4 (`lua5.4`), with equal checksums.
// Our side is bundled from src/lstrings with esbuild into a temporary folder first.
//
// Usage: node bench/lstrings-patterns.mjs [--reps N]
import { execFileSync } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { build } from "esbuild"

const here = fileURLToPath(new URL(".", import.meta.url))
const repsArg = process.argv.indexOf("--reps")
const reps = repsArg > 0 ? Number(process.argv[repsArg + 1]) : 5

const dir = mkdtempSync(join(tmpdir(), "lstrings-bench-"))
try {
  const out = join(dir, "lstrings.mjs")
  await build({
    entryPoints: [join(here, "../src/lstrings/index.ts")],
    bundle: true,
    format: "esm",
    platform: "node",
    outfile: out,
    logLevel: "warning",
  })
  const L = await import(pathToFileURL(out).href)
  let steps = 0
  const meter = { charge: (n) => (steps += n) }
  const adapter = {
    toNumber: (v) => (typeof v === "number" ? (Number.isSafeInteger(v) ? { int: v } : { float: v }) : null),
    tostring: (v) => (typeof v === "string" ? v : String(v)),
    typeName: (v) => (typeof v === "string" ? "string" : "number"),
  }

  /** Each workload: our implementation and the same work in Lua; both return an integer checksum. */
  const workloads = {
    "gmatch captures": {
      ours: (text) => {
        let count = 0
        const next = L.gmatch(text, "(%a+)=(%d+)", meter)
        for (let c = next(); c !== null; c = next()) count += c[0].length + (Number(c[1]) % 7)
        return count
      },
      lua: `local count = 0
        for k, v in text:gmatch("(%a+)=(%d+)") do count = count + #k + (tonumber(v) % 7) end
        return count`,
    },
    "gsub callback": {
      ours: (text) => {
        const [r, n] = L.gsub(text, "%d+", (c) => `<${c[0].length}>`, undefined, meter)
        return r.length + n
      },
      lua: `local r, n = text:gsub("%d+", function(d) return "<" .. #d .. ">" end) return #r + n`,
    },
    "gsub string": {
      ours: (text) => {
        const [r, n] = L.gsub(text, "(w)(o)", "%2%1", undefined, meter)
        const [r2, n2] = L.gsub(r, "%s+", " ", undefined, meter)
        return r.length + n + r2.length + n2
      },
      lua: `local r, n = text:gsub("(w)(o)", "%2%1") local r2, n2 = r:gsub("%s+", " ") return #r + n + #r2 + n2`,
    },
    "find loop": {
      ours: (text) => {
        let found = 0
        let pos = 1
        for (;;) {
          const r = L.find(text, "key=1%d*;", pos, false, meter)
          if (r === null) break
          found++
          pos = r.end + 1
        }
        return found
      },
      lua: `local found, pos = 0, 1
        while true do local s, e = text:find("key=1%d*;", pos) if not s then break end found = found + 1 pos = e + 1 end
        return found`,
    },
    "gmatch + match trim": {
      ours: (text) => {
        let trimmed = 0
        const next = L.gmatch(text, "[^;]+", meter)
        for (let c = next(); c !== null; c = next()) trimmed += L.match(c[0], "^%s*(.-)%s*$", 1, meter)[0].length
        return trimmed
      },
      lua: `local trimmed = 0
        for line in text:gmatch("[^;]+") do trimmed = trimmed + #line:match("^%s*(.-)%s*$") end
        return trimmed`,
    },
    "format %d %s %5.2f": {
      ours: () => {
        let total = 0
        for (let i = 1; i <= 100000; i++) total += L.format("%d:%s:%5.2f", [i, "ab", i / 7], adapter).length
        return total
      },
      lua: `local total = 0
        for i = 1, 100000 do total = total + #string.format("%d:%s:%5.2f", i, "ab", i / 7) end
        return total`,
    },
    "tostring floats": {
      ours: () => {
        let total = 0
        for (let i = 1; i <= 200000; i++) total += L.formatNumber14g(i / 7).length
        return total
      },
      lua: `local total = 0
        for i = 1, 200000 do total = total + #tostring(i / 7) end
        return total`,
    },
  }

  const words = []
  for (let i = 1; i <= 20000; i++) words.push(`word${i % 97} key=${i};`)
  const text = words.join(" ")
  const luaText = `local words = {}
    for i = 1, 20000 do words[i] = "word" .. (i % 97) .. " key=" .. i .. ";" end
    local text = table.concat(words, " ")`

  const rows = []
  for (const [name, w] of Object.entries(workloads)) {
    let best = Infinity
    let sum
    for (let r = 0; r < reps; r++) {
      const t0 = process.cpuUsage()
      sum = w.ours(text)
      const t = process.cpuUsage(t0)
      best = Math.min(best, (t.user + t.system) / 1000)
    }
    const script = join(dir, "bench.lua")
    writeFileSync(
      script,
      `${luaText}
      local function work() ${w.lua} end
      local best, sum = math.huge
      for r = 1, ${reps} do
        local t0 = os.clock() sum = work() local t = (os.clock() - t0) * 1000
        if t < best then best = t end
      end
      print(sum, best)`,
    )
    const [luaSum, luaMs] = execFileSync("lua5.4", [script], { encoding: "utf8" }).trim().split(/\s+/)
    if (String(sum) !== luaSum) throw new Error(`${name}: checksum ${sum} differs from PUC Lua's ${luaSum}`)
    rows.push({
      workload: name,
      "ours ms": best.toFixed(1),
      "lua5.4 ms": Number(luaMs).toFixed(1),
      ratio: (best / Number(luaMs)).toFixed(2),
    })
  }
  console.table(rows)
  console.log(`matcher steps charged: ${steps}`)
} finally {
  rmSync(dir, { recursive: true, force: true })
}
