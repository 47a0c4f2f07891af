/**
 * Warming a new sandbox's interpreter before its first program. V8 compiles and optimises our parser, code generator
 * and library lazily, per process: a program that runs first in a new sandbox would pay for all of it (tens of
 * milliseconds for a program that runs in one). `warm()` runs a few programs of the kind models write (tool calls
 * over records, string building, patterns, sorting, JSON, search, caught failures) against a local stand-in host, so
 * that the code they use is compiled, and mostly optimised, before a real program arrives. The sandbox calls it after
 * loading the language, while the sandbox is idle.
 *
 * Breadth matters as much as repetition: V8 optimises a function for the cases it has seen, and the first case it
 * has not seen (a program ending in a newline, a string key updated in place) throws the optimised code away and
 * compiles it again, during the first real program. So the programs cover every statement and expression form, the
 * library functions tool programs use, and every way a program's text may end.
 *
 * Nothing of a warm-up run is visible to later runs: every run starts from a clean slate (see `worker.ts`), the
 * stand-in host answers only these programs, and none of them reaches the real host.
 */
import type { DataValue, HostCall, HostOutcome, RunOutcome, RunRequest, SandboxHost } from "@codemode/core/sandbox"

/**
 * Records like those a tool returns: strings, integers, floats, booleans, nested arrays and objects, nulls. Each of
 * the first 20 has a key of its own too, so that the conversion of a tool's results into tables meets more record
 * shapes than V8 keeps apart and more than the conversion's cache of recent shapes holds: its code is then compiled
 * for any shape, and a real tool's first results, of shapes the warm-up never made, do not deoptimise it.
 */
const records = (n: number): Array<DataValue> =>
  Array.from({ length: n }, (_, i) => ({
    [`extra${i % 20}`]: i,
    id: `rec_${i}`,
    name: `Item ${i} – ${["alpha", "beta", "gamma"][i % 3]}`,
    group: ["north", "south", "east", "west"][i % 4],
    count: i % 7,
    price: ((i * 37) % 1000) / 8,
    active: i % 3 !== 0,
    tags: i % 2 === 0 ? ["a", "b"] : [],
    owner: i % 5 === 0 ? null : { id: i % 11, email: `user${i % 11}@example.com` },
  }))

/** The stand-in host's answers: a list of records, one record, a failure, search results, or an echo of the input. */
const answer = (call: HostCall): HostOutcome => {
  const input = "input" in call ? call.input : undefined
  if (call.kind === "search")
    return {
      ok: true,
      value: { items: [{ path: "warm.list", description: "List records" }], remaining: 0, next: null },
    }
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
  `local r = tools.warm.get({ id = "rec_2" })
local function split(s, sep)
  local out = {}
  for piece in (s .. sep):gmatch("(.-)" .. sep:gsub("%p", "%%%0")) do out[#out + 1] = piece end
  return out
end
local csv = "id,name,price\\n1,apple,1.25\\n2,pear,0.5\\n3,fig,2"
local rows, header = {}, nil
for line in csv:gmatch("[^\\n]+") do
  local fields = split(line, ",")
  if not header then
    header = fields
  else
    local row = {}
    for i, h in ipairs(header) do row[h] = tonumber(fields[i]) or fields[i] end
    rows[#rows + 1] = row
  end
end
local i, sum = 0, 0
while i < #rows do
  i = i + 1
  sum = sum + rows[i].price
end
repeat i = i - 1 until i <= 0
for j = 10, 1, -3 do sum = sum + j end
local function varargs(...)
  local n = select("#", ...)
  local t = { ... }
  return n, t[n], ...
end
local n, last = varargs(1, "two", 3.5)
local s = [[long
string]] .. '\\t"quoted"\\\\' .. "\\65\\x42\\u{43}"
local kv = { [1] = "a", [2] = "b", x = 1, ["y z"] = 2 }
kv[#kv + 1] = "c"
table.insert(kv, 1, "first")
local removed = table.remove(kv)
local keys = {}
for k in pairs(kv) do keys[#keys + 1] = tostring(k) end
table.sort(keys)
local found = {}
for _, w in ipairs({ "alpha", "Beta", "gamma" }) do
  if w:find("^[A-Z]") then found[#found + 1] = w:lower() elseif #w > 4 then found[#found + 1] = w:sub(2, -2) end
end
local counts = { words = {} }
for w in ("the cat and the hat and the bat"):gmatch("%a+") do counts.words[w] = (counts.words[w] or 0) + 1 end
kv["y z"] = nil
local masked = ("card 1234-5678"):gsub("%d", function(d) return tonumber(d) > 4 and "#" or d end)
local filled = ("$name is $age"):gsub("%$(%w+)", { name = "Ada", age = 36 })
goto skip
sum = -1
::skip::
local ok, e = pcall(error, { code = 42 })
local ok2, e2 = pcall(error, "boom", 0)
local parsed = json.decode('[{"a":1,"b":[true,false,null],"c":{"d":"x"}},[],{}]')
local enc = json.encode({ list = json.array(), n = 1.5, s = "x\\ny", nested = { { 1, 2 }, { k = json.null } } })
print("warm", n, last, #s, removed)
return { rows = rows, sum = sum, n = n, last = last, keys = keys, found = found, masked = masked, filled = filled,
  date = os.date("!%Y-%m-%d %H:%M", 86400), code = e.code, msg = e2, n2 = #parsed, enc = #enc, hex = 0xff + 1e2 + 2^-1,
  idiv = 7 // 2 + 7 % -3, cmp = "a" < "b" and 1 <= 2.5, neg = -#keys, notv = not nil, mod = math.fmod(7, 3),
  fmt = string.format("%x|%5.1f|%-3s|%d|%s|%g", 255, 3.14159, "x", 3, nil, 0.1), rev = ("abc"):reverse(),
  bytes = { ("AB"):byte(1, -1) }, ch = string.char(72, 105), id = r.id, ok = ok or ok2, the = counts.words.the }`,
  `local found = search({ query = "list records" })
local items = tools.warm.list({ limit = 40 })
local byGroup, groups = {}, {}
for _, r in ipairs(items) do
  local list = byGroup[r.group]
  if list == nil then
    list = {}
    byGroup[r.group] = list
    groups[#groups + 1] = r.group
  end
  list[#list + 1] = r
end
local function counter()
  local c = 0
  return function(step)
    c = c + (step or 1)
    return c
  end
end
local tick = counter()
local summary = {}
for _, group in ipairs(groups) do
  local list = byGroup[group]
  table.sort(list, function(a, b)
    if a.price ~= b.price then return a.price < b.price end
    return a.id < b.id
  end)
  local total, tagged, emails = 0, 0, {}
  for k = 1, #list do
    local r = list[k]
    total = total + r.price * (r.count + 1)
    if #r.tags > 0 then tagged = tagged + 1 end
    if r.owner ~= json.null then emails[r.owner.email] = (emails[r.owner.email] or 0) + 1 end
    tick()
  end
  local distinct = 0
  for _ in pairs(emails) do distinct = distinct + 1 end
  summary[#summary + 1] = { group = group, n = #list, cheapest = list[1].id, total = math.floor(total * 100 + 0.5) / 100,
    tagged = tagged, distinct = distinct, label = group:upper() .. " (" .. #list .. ")" }
end
local lines = {}
for idx, g in ipairs(summary) do
  lines[idx] = ("%-6s %3d %10.2f %s"):format(g.group, g.n, g.total, g.cheapest)
end
local report = table.concat(lines, "\\n")
local first = items[1]
local copy = {}
for k, v in pairs(first) do if type(v) ~= "table" then copy[k] = v end end
local ticks = tick(0)
return { summary = summary, report = report, copy = copy, ticks = ticks, found = #found.items, n = #items,
  maxPrice = math.max(table.unpack((function() local p = {} for q = 1, #items do p[q] = items[q].price end return p end)())) }`,
  `local items = tools.warm.list({ limit = 40 })
local function tally(start)
  local total = start
  return function(x) total = total + x return total end, function() return total end
end
local add, get = tally(0.0)
local failed, kept = {}, 0
for i = #items, 1, -2 do
  local ok, err = pcall(function()
    local r = items[i]
    if r.count >= 5 then error({ id = r.id }) elseif r.count >= 3 then error("few " .. r.count, 2) end
    add(r.price)
    kept = kept + 1
  end)
  if not ok then failed[#failed + 1] = type(err) == "table" and err.id or err:match("few (%d+)") end
end
local shop = { name = "main", hits = 0 }
function shop:visit(n) self.hits = self.hits + (n or 1) return self end
shop:visit():visit(2)
local acc, flags = 0, 0
for j = 1, 40 do
  acc = acc + j % 13
  if j >= 30 then flags = flags | (j >> 3) & 7 end
end
local long = [==[a ]] b]==] .. ("-"):rep(3) .. #"abc"
return { total = string.format("%.2f", get()), kept = kept, failed = failed, hits = shop.hits, acc = acc,
  flags = flags, long = long, small = 1e-3 < 0.01 and -acc or acc }`,
  `local x = tools.warm.echo({ n = 3, list = { 1, 2, 3 } })
local y = x.n * 2
return y`,
]

/**
 * How each round's copy of a program ends and begins: a model's program may end in a newline (LF or CR LF), a
 * comment, a name or a number, and start with a comment or not; the parser's end-of-input paths see them all.
 */
const ENDINGS: ReadonlyArray<string> = ["", "\n", "\r\n", " -- end", "\n\n--[[ done ]]\n", " "]

/** Round `round`'s copy of `program` (the `index`th): its text differs from every other copy's, so each compiles. */
const copyOf = (program: string, index: number, round: number): string => {
  const header = round % 2 === 0 ? `-- warm-up ${round}\n` : `--[[ warm-up ${round} ]] `
  return header + program + ENDINGS[(round + index) % ENDINGS.length]
}

/**
 * How many times each program runs (with its text changed, so that the compiler runs each time too). Measured on
 * typical tool programs other than these: after 6 rounds the first real program still pushed parser and code
 * generator functions over V8's optimisation threshold (a background compilation of up to 20 ms during that
 * program); after 10 it found them optimised, and took half the processor time.
 */
const ROUNDS = 10

/**
 * The rounds from which, when the caller can compile without running, the programs are only compiled: the library
 * is trained by then, the parser and the code generator need the rest.
 */
const RUN_ROUNDS = 6

/**
 * A stand-in host for one warm-up run (its deadline counts from the run's start, as a real one's does). A started
 * call is answered when it is awaited: the runtime starts one while it compiles the rest of a split program.
 */
const standInHost = (): SandboxHost => {
  const started: Array<{ ticket: number; call: HostCall }> = []
  let tickets = 0
  return {
    call: answer,
    start: (call: HostCall) => {
      started.push({ ticket: ++tickets, call })
      return tickets
    },
    waitAny: () => {
      const first = started.shift()
      if (first === undefined) throw new Error("no warm-up call is in flight")
      return { ticket: first.ticket, outcome: answer(first.call) }
    },
    settledCalls: () => [],
    cancel: () => {},
    log: () => {},
    warn: () => {},
    retire: () => {},
    deadline: Date.now() + 2_000,
  } as unknown as SandboxHost
}

/**
 * Run the warm-up programs `rounds` times, yielding after each (its outcome, or `undefined` for one only compiled).
 * `run` is the language's own entry (passed in to keep this module free of cycles); with `compileOnly` (the
 * compiler's entry), the rounds from {@link RUN_ROUNDS} on only compile the programs.
 */
export function* warmSteps(
  run: (request: RunRequest, host: SandboxHost) => RunOutcome,
  rounds = ROUNDS,
  compileOnly?: (code: string) => void,
): Generator<RunOutcome | undefined, void> {
  const limits = { timeoutMs: 2_000, maxToolCalls: 100, maxOutputBytes: 65_536 }
  for (let round = 0; round < rounds; round++)
    for (let index = 0; index < PROGRAMS.length; index++) {
      const code = copyOf(PROGRAMS[index], index, round)
      if (round >= RUN_ROUNDS && compileOnly !== undefined) {
        compileOnly(code)
        yield undefined
        continue
      }
      const request = {
        code,
        tools: { warm: { list: true, get: true, fail: true, echo: true } },
        extensions: [],
        limits,
      }
      yield run(request as unknown as RunRequest, standInHost())
    }
  // The warm-up's young garbage is collected now, while the sandbox is idle, rather than during the first program.
  // Only the young generation: after a full collection the next programs compile slower for a while (the first
  // one's compile measured 1.7-2.0 ms of processor time after a full collection, 0.86-0.90 after a young one). Part
  // of it is the hidden classes of the compiler's syntax trees and records, which a full collection frees (none
  // outlives its compile) and the next compile builds again: keeping a few trees alive across the collection
  // recovered about half.
  ;(globalThis as { gc?: (options?: { type: "minor" }) => void }).gc?.({ type: "minor" })
}

/** Run the whole warm-up (see {@link warmSteps}) and return the outcomes of the programs it ran. */
export const warmUp = (
  run: (request: RunRequest, host: SandboxHost) => RunOutcome,
  rounds = ROUNDS,
  compileOnly?: (code: string) => void,
): Array<RunOutcome> => {
  const outcomes: Array<RunOutcome> = []
  for (const outcome of warmSteps(run, rounds, compileOnly)) if (outcome !== undefined) outcomes.push(outcome)
  return outcomes
}
