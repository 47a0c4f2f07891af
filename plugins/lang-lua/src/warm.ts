/**
 * Warming a new sandbox's interpreter before its first program. V8 compiles and optimises our parser, code generator
 * and library lazily, per process: a program that runs first in a new sandbox would pay for all of it (tens of
 * milliseconds for a program that runs in one). `warm()` runs a few programs of the kind models write (tool calls
 * over records, string building, patterns, sorting, JSON) against a local stand-in host, so that the code they use
 * is compiled, and mostly optimised, before a real program arrives. The sandbox calls it after loading the language,
 * while the sandbox is idle.
 *
 * Nothing of a warm-up run is visible to later runs: every run starts from a clean slate (see `worker.ts`), the
 * stand-in host answers only these programs, and none of them reaches the real host.
 */
import type { DataValue, HostCall, HostOutcome, RunOutcome, RunRequest, SandboxHost } from "@codemode/core/sandbox"

/** Records like those a tool returns: strings, integers, floats, booleans, nested arrays and objects, nulls. */
const records = (n: number): Array<DataValue> =>
  Array.from({ length: n }, (_, i) => ({
    id: `rec_${i}`,
    name: `Item ${i} – ${["alpha", "beta", "gamma"][i % 3]}`,
    group: ["north", "south", "east", "west"][i % 4],
    count: i % 7,
    price: ((i * 37) % 1000) / 8,
    active: i % 3 !== 0,
    tags: i % 2 === 0 ? ["a", "b"] : [],
    owner: i % 5 === 0 ? null : { id: i % 11, email: `user${i % 11}@example.com` },
  }))

/** The stand-in host's answers: a list of records, one record, or an echo of the input. */
const answer = (call: HostCall): HostOutcome => {
  const input = "input" in call ? call.input : undefined
  if (call.kind === "tool" && call.path === "warm.list") return { ok: true, value: records(40) }
  if (call.kind === "tool" && call.path === "warm.get") return { ok: true, value: records(1)[0] }
  if (call.kind === "tool" && call.path === "warm.fail")
    return { ok: false, error: { kind: "ToolFailure", message: "not found", fatal: false } }
  return { ok: true, value: input ?? null }
}

/** Programs of the kind models write; each returns data, so results are converted too. */
const PROGRAMS: ReadonlyArray<string> = [
  `local items = tools.warm.list({ limit = 40, filter = "active" })
local groups, order, total = {}, {}, 0
for i, r in ipairs(items) do
  if r.active and r.price > 10 then
    local g = groups[r.group]
    if not g then
      g = { name = r.group, count = 0, sum = 0, ids = {} }
      groups[r.group] = g
      order[#order + 1] = r.group
    end
    g.count = g.count + 1
    g.sum = g.sum + r.price * r.count
    table.insert(g.ids, r.id)
    total = total + r.count
  end
  if r.owner ~= json.null and r.owner.email:find("@", 1, true) then total = total + 1 end
end
table.sort(order)
local out = {}
for _, name in ipairs(order) do
  local g = groups[name]
  out[#out + 1] = { name = name, count = g.count, average = g.sum / g.count, first = g.ids[1] }
end
table.sort(out, function(a, b) return a.count > b.count or (a.count == b.count and a.name < b.name) end)
return { groups = out, total = total, n = #items }`,
  `local r = tools.warm.get({ id = "rec_1" })
local parts = {}
for k, v in pairs(r) do parts[#parts + 1] = k .. "=" .. tostring(v) end
table.sort(parts)
local words, lines = {}, {}
for w in r.name:gmatch("%a+") do words[#words + 1] = w:lower() end
for i = 1, 20 do
  lines[#lines + 1] = string.format("%3d. %-10s %8.2f %s %q", i, words[i % #words + 1], i * 1.25, tostring(i % 2 == 0), "x")
end
local text = table.concat(lines, "\\n")
local replaced, n = text:gsub("(%d+)%.", "#%1")
local s, e, cap = text:find("(%d+%.%d+)")
local trimmed = ("  padded  "):match("^%s*(.-)%s*$")
local up = text:upper():sub(1, 40):rep(2, ",")
local ok, err = pcall(tools.warm.fail, { id = "none" })
local ok2, err2 = pcall(function() local t = nil return t.x end)
local count = select("#", string.byte(text, 1, 10))
return { parts = parts, n = n, cap = cap, trimmed = trimmed, len = #up + count, err = tostring(err), err2 = err2,
  ok = ok or ok2, encoded = json.encode({ a = 1, b = { 2, 3 }, c = "x" }), decoded = json.decode('{"k":[1,2,{"z":null}]}').k[2] }`,
  `local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
local acc, f, bits = 0, 0.5, 0
for i = 1, 200 do
  acc = acc + i % 7 * 2 - i // 3
  f = f * 1.01 + i / 3
  bits = bits ~ (i << 2) & 0xff | 1
end
local t = {}
for i = 1, 100 do t[i] = (i * 7919) % 101 end
table.sort(t)
local m = { math.floor(f), math.max(3, 7, 1), math.min(2.5, 1), math.abs(-3), math.sqrt(16), math.tointeger(3.0), math.type(1) }
local str = tostring(1 / 3) .. tostring(10 / 2) .. tostring(2 ^ 10) .. tostring(-0.0)
local echoed = tools.warm.echo({ values = t, text = str, nested = { x = 1.5, y = json.null } })
local u = utf8.char(72, 228, 8364) .. utf8.len("héllo")
return { fib = fib(12), acc = acc, bits = bits, m = m, str = str, echoed = #echoed.values, u = u,
  unpacked = select(2, table.unpack(t, 1, 3)), concat = table.concat(t, ",", 1, 5), clock = os.time() > 0 }`,
]

/** How many times each program runs (with its text changed, so that the compiler runs each time too). */
const ROUNDS = 6

/**
 * Run the warm-up programs `rounds` times and return their outcomes. `run` is the language's own entry (passed in
 * to keep this module free of cycles).
 */
export const warmUp = (
  run: (request: RunRequest, host: SandboxHost) => RunOutcome,
  rounds = ROUNDS,
): Array<RunOutcome> => {
  const host: SandboxHost = {
    call: answer,
    start: () => {
      throw new Error("warm-up programs do not start calls")
    },
    waitAny: () => {
      throw new Error("warm-up programs do not start calls")
    },
    settledCalls: () => [],
    cancel: () => {},
    log: () => {},
    warn: () => {},
    retire: () => {},
    deadline: Date.now() + 2_000,
  } as unknown as SandboxHost
  const limits = { timeoutMs: 2_000, maxToolCalls: 100, maxOutputBytes: 65_536 }
  const outcomes: Array<RunOutcome> = []
  for (let round = 0; round < rounds; round++)
    for (const program of PROGRAMS)
      outcomes.push(
        run(
          {
            code: `-- warm-up ${round}\n${program}`,
            tools: { warm: { list: true, get: true, fail: true, echo: true } },
            extensions: [],
            limits,
          } as unknown as RunRequest,
          host,
        ),
      )
  return outcomes
}
