// Differential testing against the reference `lua5.4`: run programs under both and compare what they print.
//
// A program's output is its printed lines, then `ERR: <message>` if it failed (a parse failure is `PARSE`, since
// the parsers word syntax errors differently). PUC Lua runs a whole batch of programs in one process, each loaded
// with the chunk name "input" into its own environment.
import { spawnSync } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

const DRIVER = String.raw`
local file = assert(io.open(arg[1], "rb"))
local all = file:read("a")
file:close()
local out = io.stdout
for src in all:gmatch("(.-)\n%-%-%-%-END%-%-%-%-\n") do
  out:write("\0CASE\n")
  local env = setmetatable({}, { __index = _G })
  env.print = function(...)
    local parts = table.pack(...)
    for i = 1, parts.n do parts[i] = tostring(parts[i]) end
    out:write(table.concat(parts, "\t", 1, parts.n), "\n")
  end
  local f, e = load(src, "=input", "t", env)
  if not f then out:write("PARSE\n")
  else
    local ok, m = pcall(f)
    if not ok then out:write("ERR: ", tostring(m), "\n") end
  end
end
`

/** Run `programs` under `lua5.4`; returns each program's output. */
export const runPuc = (programs) => {
  const dir = mkdtempSync(join(tmpdir(), "lua-diff-"))
  try {
    const driver = join(dir, "driver.lua")
    const data = join(dir, "programs.lua")
    writeFileSync(driver, DRIVER)
    writeFileSync(data, programs.map((p) => `${p}\n----END----\n`).join(""))
    const r = spawnSync("lua5.4", [driver, data], { maxBuffer: 1 << 28 })
    if (r.status !== 0) throw new Error(`lua5.4 failed: ${r.stderr}`)
    // Our log lines reach the host decoded from UTF-8 (invalid bytes as U+FFFD): decode PUC's bytes the same way.
    const outputs = new TextDecoder("utf-8").decode(r.stdout).split("\0CASE\n").slice(1)
    if (outputs.length !== programs.length) throw new Error(`lua5.4 ran ${outputs.length} of ${programs.length}`)
    return outputs
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Run one program with our `run` (the worker's entry); returns its output in the same form as {@link runPuc}. */
export const runOurs = (run, program) => {
  const lines = []
  const host = {
    call: () => ({ ok: false, error: { kind: "UnknownTool", message: "no tools here", fatal: false } }),
    log: (line) => lines.push(line),
    warn: () => {},
    deadline: Date.now() + 10_000,
  }
  const outcome = run({ code: program, tools: {}, extensions: [], limits: {} }, host)
  let text = lines.map((l) => `${l}\n`).join("")
  if (!outcome.ok) text += outcome.error.kind === "ParseError" ? "PARSE\n" : `ERR: ${outcome.error.message}\n`
  return text
}

/**
 * Outputs with the documented differences taken out: PUC Lua 5.4.4 positions the integer division and modulo by
 * zero errors at the last call before the operation (it does not save the position first), ours at the operation;
 * V8 does not keep the sign bit of a NaN stored in an array, so `-nan` may print as `nan`.
 */
const normalise = (output) =>
  output.replace(/(?:input:\d+: )?(attempt to perform 'n%0'|attempt to divide by zero)/g, "$1").replace(/-nan/g, "nan")

/** Run programs `from` to `from + count - 1` of `generate` under both; returns the programs whose outputs differ. */
export const differences = (run, generate, from, count, batch = 250) => {
  const found = []
  for (let start = from; start < from + count; start += batch) {
    const seeds = Array.from({ length: Math.min(batch, from + count - start) }, (_, i) => start + i)
    const programs = seeds.map(generate)
    const expected = runPuc(programs)
    programs.forEach((program, i) => {
      const ours = runOurs(run, program)
      if (normalise(ours) !== normalise(expected[i]))
        found.push({ seed: seeds[i], program, expected: expected[i], ours })
    })
  }
  return found
}
