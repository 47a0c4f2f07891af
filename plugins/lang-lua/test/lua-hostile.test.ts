/**
 * The hostile suite: programs that try to exhaust the interpreter. Each must end with the right diagnostic (naming
 * the bound and the line), the host must stay healthy, and the next run must succeed.
 */
import { describe, expect, it } from "vitest"
import { runLua } from "./support/host.js"

/** Run a hostile program, check its diagnostic, then check that a normal program still runs. */
const hostile = (
  code: string,
  kind: string,
  message: string | RegExp,
  line?: number,
  options: { deadline?: number; maxSteps?: number } = {},
) => {
  const { outcome } = runLua(code, options)
  if (outcome.ok) throw new Error(`expected ${kind}, got value ${JSON.stringify(outcome.value).slice(0, 200)}`)
  expect(outcome.error.kind).toBe(kind)
  if (typeof message === "string") expect(outcome.error.message).toContain(message)
  else expect(outcome.error.message).toMatch(message)
  if (line !== undefined) expect(outcome.error.location?.line).toBe(line)
  const after = runLua("local t = {} for i = 1, 10 do t[i] = i * i end return t[10] + #tostring(t)")
  expect(after.outcome).toEqual({ ok: true, value: 100 + "table: ".length + 14 })
}

const shortDeadline = () => ({ deadline: Date.now() + 300 })

describe("runaway loops", () => {
  it("an infinite while loop ends at the deadline", () =>
    hostile("local n = 0\nwhile true do n = n + 1 end", "TimeoutExceeded", "timed out", 2, shortDeadline()))
  it("an infinite repeat loop ends at the deadline", () =>
    hostile("repeat local x = 1 until false", "TimeoutExceeded", "timed out", 1, shortDeadline()))
  it("an infinite goto loop ends at the deadline", () =>
    hostile("::a::\ngoto a", "TimeoutExceeded", "timed out", undefined, shortDeadline()))
  it("pcall cannot catch the timeout", () =>
    hostile(
      "local ok = pcall(function()\n  while true do end\nend)\nreturn ok",
      "TimeoutExceeded",
      "timed out",
      2,
      shortDeadline(),
    ))
  it("a loop without a deadline stops at the work bound", () =>
    hostile("for i = 1, 2e9 do end", "ExecutionFailure", "interpreter work limit of 5,000,000 steps", 1, {
      deadline: Infinity,
      maxSteps: 5_000_000,
    }))
  it("library work counts toward the work bound", () =>
    hostile(
      "local s = string.rep('a', 1e6)\nwhile true do s:find('b') s:upper() end",
      "ExecutionFailure",
      "interpreter work limit of 5,000,000 steps",
      2,
      { deadline: Infinity, maxSteps: 5_000_000 },
    ))
  // Each call below handles about 10^5 bytes or elements; 200 of them reach a bound of 5 * 10^6 steps only when
  // the work is charged in proportion (one step a byte or element), and the loop finishes otherwise.
  const big = "local s = string.rep('a', 1e5) local t = {} for i = 1, 1e5 do t[i] = 'a' end\n"
  it.each([
    ["string.upper", "s:upper()"],
    ["string.lower", "s:lower()"],
    ["string.reverse", "s:reverse()"],
    ["string.sub (long substrings)", "(s .. s .. s .. s .. s .. s .. s .. s .. s .. s):sub(2)"],
    ["string.rep", "s:rep(2)"],
    ["string.byte", "s:byte(1, -1)"],
    ["string.char", "string.char(s:byte(1, -1))"],
    ["string.format", "string.format('%s', s)"],
    ["string.gsub (the result)", "s:gsub('^', s)"],
    ["string.pack and unpack", "string.unpack('s', string.pack('s', s))"],
    ["table.concat", "table.concat(t)"],
    ["table.insert and remove at the front", "table.insert(t, 1, 'b') table.remove(t, 1)"],
    ["table.unpack", "table.unpack(t)"],
    ["select", "select('#', table.unpack(t))"],
    ["json.encode", "json.encode(t)"],
    ["json.decode", "json.decode('[' .. string.rep('1,', 5e4) .. '1]')"],
    ["utf8.len", "utf8.len(s)"],
    ["utf8.offset", "utf8.offset(s, 1e5)"],
    ["utf8.codepoint", "utf8.codepoint(s, 1, -1)"],
    ["tonumber", "tonumber(s, 36)"],
    ["os.date", "os.date(s)"],
  ])("%s charges its work in proportion", (_, call) =>
    hostile(`${big}for i = 1, 200 do ${call} end\nreturn 'finished'`, "ExecutionFailure", "work limit", 2, {
      deadline: Infinity,
      maxSteps: 5_000_000,
    }),
  )
  it("next charges the entries it passes (the hash part, and string keys of alternating tables)", () => {
    const hash =
      "local t = {} for i = 1, 4000 do t[i + 0.5] = i end\nlocal k = next(t) while k do k = next(t, k) end\nreturn 'finished'"
    hostile(hash, "ExecutionFailure", "work limit", 2, { deadline: Infinity, maxSteps: 5_000_000 })
    const fields =
      "local a, b = {}, {} for i = 1, 3e4 do a['k' .. i] = i b['k' .. i] = i end\nfor i = 1, 200 do next(a) next(b) end\nreturn 'finished'"
    hostile(fields, "ExecutionFailure", "work limit", 2, { deadline: Infinity, maxSteps: 5_000_000 })
  })
  it("comparing long strings charges the bytes it may read (==, <, <=)", () => {
    const setup = "local a, b = string.rep('a', 1e5), string.rep('a', 1e5 - 1) .. 'a'\n"
    for (const test of ["a == b", "a < b", "a <= b"])
      hostile(
        `${setup}for i = 1, 2000 do if ${test} then end end\nreturn 'finished'`,
        "ExecutionFailure",
        "work limit",
        2,
        {
          deadline: Infinity,
          maxSteps: 5_000_000,
        },
      )
  })
  it("spreading ... charges the values it copies", () =>
    hostile(
      "local t = {} for i = 1, 2e4 do t[i] = i end\nlocal function pass(...) return ... end\nlocal function loop(...) for i = 1, 300 do pass(...) end end\nloop(table.unpack(t))\nreturn 'finished'",
      "ExecutionFailure",
      "work limit",
      undefined,
      { deadline: Infinity, maxSteps: 5_000_000 },
    ))
  it("the production work bound is 10^9 steps and a higher one is cut to it", () => {
    const { outcome } = runLua("local n = 0 while true do n = n + 1 end", {
      maxSteps: 1e12,
      deadline: Date.now() + 200,
    })
    expect(outcome).toMatchObject({ ok: false, error: { kind: "TimeoutExceeded" } })
  })
  it("a generic for over a never-ending iterator ends at the deadline", () =>
    hostile("for x in function() return 1 end do end", "TimeoutExceeded", "timed out", 1, shortDeadline()))
})

describe("memory bombs", () => {
  it("string.rep beyond 16 MiB", () =>
    hostile(
      "local s = string.rep('x', 1e9)",
      "ExecutionFailure",
      "string length exceeded the limit of 16777216 bytes",
      1,
    ))
  it("string.rep with a separator beyond 16 MiB", () =>
    hostile("local s = ('ab'):rep(6e6, ',')", "ExecutionFailure", "string length exceeded", 1))
  it("doubling a string", () =>
    hostile("local s = 'x'\nwhile true do s = s .. s end", "ExecutionFailure", "string length exceeded the limit", 2))
  it("concatenating in a loop", () =>
    hostile(
      "local s = string.rep('x', 1e6)\nlocal t = s\nfor i = 1, 100 do t = t .. s end",
      "ExecutionFailure",
      "string length exceeded",
      3,
    ))
  it("gsub producing a huge string", () =>
    hostile(
      "local big = string.rep('y', 100000)\nreturn (string.rep('x', 1000):gsub('x', big))",
      "ExecutionFailure",
      "string length exceeded",
      2,
    ))
  it("gsub callbacks producing a huge string", () =>
    hostile(
      "local big = string.rep('y', 100000)\nreturn (string.rep('x', 1000):gsub('x', function() return big end))",
      "ExecutionFailure",
      "string length exceeded",
      2,
    ))
  it("table.concat beyond 16 MiB", () =>
    hostile(
      "local t = {} local s = string.rep('x', 1e6) for i = 1, 20 do t[i] = s end\nreturn table.concat(t)",
      "ExecutionFailure",
      "string length exceeded",
      2,
    ))
  it("string.format with a huge width", () =>
    hostile("return string.format('%099999999d', 1)", "ExecutionFailure", /invalid conversion|too long/, 1))
  it("array growth beyond a million entries", () =>
    hostile(
      "local t = {}\nfor i = 1, 2e6 do t[i] = i end",
      "ExecutionFailure",
      "table grew beyond the limit of 1,000,000 entries",
      2,
    ))
  it("table.insert growth", () =>
    hostile("local t = {}\nwhile true do table.insert(t, 1) end", "ExecutionFailure", "1,000,000 entries", 2))
  it("string key growth", () =>
    hostile("local t = {}\nfor i = 1, 2e6 do t['k' .. i] = true end", "ExecutionFailure", "1,000,000 entries", 2))
  it("hash key growth with float keys", () =>
    hostile("local t = {}\nfor i = 1, 2e6 do t[i + 0.5] = true end", "ExecutionFailure", "1,000,000 entries", 2))
  it("table.unpack of too many values", () =>
    hostile(
      "local t = {}\nfor i = 1, 1e6 do t[i] = i end\nreturn select('#', table.unpack(t, 1, 5e6))",
      "ExecutionFailure",
      "too many results to unpack",
      3,
    ))
  it("a table constructor fed more results than a call may return", () =>
    hostile(
      "local t = {}\nfor i = 1, 1e6 do t[i] = i end\nlocal u = {0, table.unpack(t)}",
      "ExecutionFailure",
      "too many results to unpack",
      3,
    ))
})

describe("pattern bombs", () => {
  it("catastrophic backtracking ends at the deadline", () =>
    hostile(
      "local s = string.rep('a', 40)\nreturn s:find(string.rep('a*', 30) .. 'b')",
      "TimeoutExceeded",
      "timed out",
      2,
      shortDeadline(),
    ))
  it("a pattern that is too complex is an ordinary error", () =>
    hostile(
      "return string.rep('a', 300000):match(string.rep('(a)', 40))",
      "ExecutionFailure",
      /too many captures|pattern too complex/,
      1,
    ))
  it("gmatch over a huge string with a slow pattern ends at the deadline", () =>
    hostile(
      "local s = string.rep('ab', 5e6)\nlocal n = 0\nfor w in s:gmatch('.-b') do n = n + 1 end\nwhile true do end",
      "TimeoutExceeded",
      "timed out",
      undefined,
      shortDeadline(),
    ))
})

describe("results and data", () => {
  it("a cyclic result", () =>
    hostile("local t = {}\nt.me = t\nreturn t", "InvalidDataValue", "a cycle (the table contains itself) at $.me"))
  it("a deeply nested result", () =>
    hostile(
      "local t = {} local c = t\nfor i = 1, 100 do c[1] = {} c = c[1] end\nreturn t",
      "InvalidDataValue",
      "nested deeper than 64 levels",
    ))
  it("a result larger than 16 MiB", () =>
    hostile(
      "local t = {} local s = string.rep('x', 1e6)\nfor i = 1, 20 do t[i] = s end\nreturn t",
      "InvalidDataValue",
      "copy limit of 16777216 bytes",
    ))
  it("a cyclic tool input", () =>
    hostile("local t = {}\nt.me = t\nreturn tools.ns.echo(t)", "InvalidToolInput", "a cycle", 3))
  it("a tool input nested too deeply is fatal", () =>
    hostile(
      "local t = {} local c = t\nfor i = 1, 100 do c.n = {} c = c.n end\nlocal ok = pcall(tools.ns.echo, t)\nreturn ok",
      "InvalidToolInput",
      "nested deeper than 64 levels",
      3,
    ))
  it("a tool output nested too deeply is fatal", () =>
    hostile(
      "local ok = pcall(tools.ns.deep, {depth = 100})\nreturn ok",
      "InvalidToolOutput",
      "nested deeper than 64 levels",
      1,
    ))
  it("json.encode of a cycle", () =>
    hostile("local t = {}\nt[1] = t\nreturn json.encode(t)", "ExecutionFailure", "json.encode: a cycle", 3))
  it("json.decode of deeply nested text is fatal", () =>
    hostile(
      "return json.decode(string.rep('[', 100) .. string.rep(']', 100))",
      "ExecutionFailure",
      "nested deeper than 64 levels",
      1,
    ))
})

describe("huge and deep sources", () => {
  it("a source larger than 1 MiB", () =>
    hostile("return 1 --" + "x".repeat(1024 * 1024), "ParseError", "over the source limit of 1048576 bytes"))
  it("deeply nested expressions", () =>
    hostile(
      "return " + "(1 + ".repeat(300) + "1" + ")".repeat(300),
      "ParseError",
      "syntax depth exceeds the limit of 200 levels",
      1,
    ))
  it("very deeply nested parentheses", () =>
    hostile("return " + "(".repeat(100000) + "1" + ")".repeat(100000), "ParseError", /nests too deeply/))
  it("deeply nested tables", () =>
    hostile("return " + "{".repeat(250) + "}".repeat(250), "ParseError", "syntax depth", 1))
  it("deeply nested blocks", () =>
    hostile("local x = 0\n" + "do ".repeat(250) + "x = 1 " + "end ".repeat(250), "ParseError", "syntax depth", 2))
  it("deeply nested functions", () =>
    hostile("return " + "function() return ".repeat(150) + "1" + " end".repeat(150), "ParseError", "syntax depth"))
  it("a long flat program is fine", () => {
    const code = Array.from({ length: 20000 }, (_, i) => `local v${i % 150} = ${i}`).join("\n") + "\nreturn v1"
    const { outcome } = runLua(code)
    expect(outcome).toEqual({ ok: true, value: 19951 })
  })
})

/** The deepest nesting `make(n)` that the syntax depth bound accepts (binary search on the ParseError). */
const deepestAccepted = (make: (n: number) => string): number => {
  let lo = 1
  let hi = 400
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2)
    const { outcome } = runLua(make(mid))
    if (!outcome.ok && /syntax depth|nests too deeply/.test(outcome.error.message)) hi = mid - 1
    else lo = mid
  }
  return lo
}

describe("nesting at the syntax depth bound", () => {
  const forms: Array<[string, (n: number) => string, unknown]> = [
    ["parenthesised concatenation", (n) => `return ${"'a' .. (".repeat(n)}'b'${")".repeat(n)}`, undefined],
    ["parenthesised sums", (n) => `return ${"1 + (".repeat(n)}1${")".repeat(n)}`, undefined],
    ["nested calls", (n) => `local function f(x) return x end return ${"f(".repeat(n)}1${")".repeat(n)}`, 1],
    ["nested tables", (n) => `return #${"{".repeat(n)}${"}".repeat(n)}`, 1],
    ["nested ifs", (n) => `local x = 0 ${"if true then ".repeat(n)}x = 1 ${"end ".repeat(n)} return x`, 1],
    ["nested loops", (n) => `local x = 0 ${"for i = 1, 1 do ".repeat(n)}x = x + 1 ${"end ".repeat(n)} return x`, 1],
    ["nested functions", (n) => `return type(${"function() return ".repeat(n)}1${" end".repeat(n)})`, "function"],
    ["field chains", (n) => `local t = {} t.a = t return t${".a".repeat(n)} == t`, true],
  ]
  for (const [name, make, value] of forms)
    it(`${name} compile and run at the deepest accepted level`, () => {
      const n = deepestAccepted(make)
      expect(n).toBeGreaterThan(50)
      const { outcome } = runLua(make(n))
      if (!outcome.ok) throw new Error(`${name} at depth ${n}: ${outcome.error.kind}: ${outcome.error.message}`)
      if (value !== undefined) expect(outcome.value).toEqual(value)
    })
})

describe("nothing crosses from one run to the next", () => {
  it("data stored in json.null is gone in the next run", () => {
    expect(
      runLua("json.null.secret = 's' rawset(json.null, 1, 'x') return rawget(json.null, 'secret')").outcome,
    ).toEqual({ ok: true, value: "s" })
    expect(
      runLua("return { rawget(json.null, 'secret') == nil, rawget(json.null, 1) == nil, next(json.null) == nil }")
        .outcome,
    ).toEqual({ ok: true, value: [true, true, true] })
  })
  it("pseudo-addresses start afresh: tostring shows nothing of earlier runs", () => {
    const first = runLua("return tostring({}) .. ' ' .. tostring(print)").outcome
    runLua("local t = {} for i = 1, 1000 do t[i] = tostring({}) .. string.format('%p', 'k' .. i) end return 1")
    expect(runLua("return tostring({}) .. ' ' .. tostring(print)").outcome).toEqual(first)
  })
  it("the tools tables are new every run: what a program changed in them is gone in the next run", () => {
    const changed = runLua(
      "tools.ns.echo = nil tools.ns.extra = 1 tools.other.nested = 'x' tools.added = {} rawset(tools, 'search', 2) " +
        "return { rawget(tools.ns, 'echo') == nil, tools.ns.extra, tools.other.nested }",
    )
    expect(changed.outcome).toEqual({ ok: true, value: [true, 1, "x"] })
    const next = runLua(
      "local n = 0 for _ in pairs(tools.ns) do n = n + 1 end " +
        "return { type(tools.ns.echo), rawget(tools.ns, 'extra') == nil, type(tools.other.nested), " +
        "type(tools.other.nested.tool), rawget(tools, 'added') == nil, rawget(tools, 'search') == nil, n, " +
        "tools.ns.echo({ a = 1 }).a }",
    )
    expect(next.outcome).toEqual({ ok: true, value: ["function", true, "table", "function", true, true, 14, 1] })
    // The tool functions a run calls reach that run's host.
    expect(next.host.calls.map((c) => c.kind === "tool" && c.path)).toEqual(["ns.echo"])
  })
  it("math.random starts every run where math.randomseed(0, 0) leaves it, whatever earlier runs drew or seeded", () => {
    const draws = "return { math.random(1, 1000), math.random(0), math.random() }"
    const first = runLua(draws).outcome
    expect(runLua(`math.randomseed(0, 0) ${draws}`).outcome).toEqual(first)
    runLua("math.randomseed(7) for i = 1, 100 do math.random() end return 1")
    runLua("for i = 1, 100 do math.random() end return 1")
    expect(runLua(draws).outcome).toEqual(first)
  })
})

describe("sizes are checked before the allocation", () => {
  it("a long format string is read as it runs: one failing at its first conversion builds nothing for the rest", () => {
    // 4 Mi conversions in an 8 MiB format: parsed whole before it ran, it held ~800 MB for 1.4 s before failing.
    const before = process.memoryUsage().heapUsed
    const { outcome } = runLua(
      "local f = ('%d'):rep(4 * 1024 * 1024) local ok, e = pcall(string.format, f) " +
        "local ok2, s = pcall(string.format, ('%s|'):rep(3000) .. '%d', table.unpack((function() " +
        "local t = {} for i = 1, 3000 do t[i] = 'x' end return t end)())) return { e, ok2, s }",
    )
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(200 * 1024 * 1024)
    expect(outcome).toEqual({
      ok: true,
      value: [
        "bad argument #2 to 'string.format' (no value)",
        false,
        "bad argument #3002 to 'string.format' (no value)",
      ],
    })
  })
  it("a gsub result beyond the bound is fatal, even under pcall", () =>
    hostile(
      "local ok = pcall(string.gsub, string.rep('x', 100), 'x', string.rep('y', 1e7))\nreturn ok",
      "ExecutionFailure",
      "string length exceeded the limit of 16777216 bytes",
      1,
    ))
  it("a gsub replacement that repeats the match", () =>
    hostile(
      "local s = string.rep('x', 1e6)\nreturn #s:gsub('.+', string.rep('%0', 5e5))",
      "ExecutionFailure",
      "string length exceeded",
      2,
    ))
  it("string.format with many large strings", () =>
    hostile(
      "local s, t = string.rep('x', 1e7), {}\nfor i = 1, 60 do t[i] = s end\nreturn pcall(string.format, string.rep('%s', 60), table.unpack(t))",
      "ExecutionFailure",
      "string length exceeded",
      3,
    ))
  it("os.date with a long format", () =>
    hostile("return #os.date(string.rep('%c', 1e6))", "ExecutionFailure", "string length exceeded", 1))
  it("print of a line beyond the bound", () =>
    hostile("local s = string.rep('x', 1e7)\nprint(s, s)", "ExecutionFailure", "string length exceeded", 2))
  it("json.decode of a text holding too many values", () =>
    hostile(
      "local text = '[' .. string.rep('[[],[],[],[],[],[],[],[],[],[]],', 150000) .. '[]]'\nreturn #json.decode(text)",
      "ExecutionFailure",
      "json.decode: the text holds more than 1,000,000 values",
      2,
    ))
})

describe("host text enters Lua as UTF-8 bytes", () => {
  it("a caught non-ASCII failure message can be returned", () => {
    expect(runLua("local ok, e = pcall(tools.ns.failUnicode, {}) return { e, #e }").outcome).toEqual({
      ok: true,
      value: ["refusé: ключ € 😀", Buffer.byteLength("refusé: ключ € 😀")],
    })
  })
  it("an uncaught non-ASCII failure message reads as its text", () => {
    const { outcome } = runLua("tools.ns.failUnicode({})")
    expect(outcome).toMatchObject({ ok: false, error: { kind: "ToolFailure", message: "refusé: ключ € 😀" } })
  })
  it("a tool with a non-ASCII name is callable by its name", () => {
    expect(runLua("return tools.ns['café']({ a = 1 }).a").outcome).toEqual({ ok: true, value: 1 })
  })
  it("an input error naming a non-ASCII key can be returned", () => {
    const { outcome } = runLua("local ok, e = pcall(tools.ns.echo, { ['ключ'] = print }) return e")
    expect(outcome).toEqual({
      ok: true,
      value: 'the input of ns.echo cannot cross to the host: a function is not data at $["ключ"]',
    })
  })
  it("a parse error quoting a non-ASCII name reads as its text", () => {
    const { outcome } = runLua('local x = "ключ" "ключ"')
    expect(outcome).toMatchObject({ ok: false, error: { kind: "ParseError" } })
    if (!outcome.ok) expect(outcome.error.message).toContain('"ключ"')
  })
})

describe("compiling is linear and bounded by the deadline", () => {
  it("a block with a thousand backward labels compiles", () => {
    const code = `local n = 0\n${Array.from({ length: 1000 }, (_, i) => `::l${i}:: n = n + 1 if n < ${i} then goto l${i} end`).join("\n")}\nreturn n`
    expect(runLua(code).outcome).toEqual({ ok: true, value: 1000 })
  })
  it("the deadline stops a long compilation", () => {
    const code = `local t = 0 -- ${Date.now()}\n${"t = t + (t and 1 or 2) * 3\n".repeat(30_000)}return t`
    hostile(code, "TimeoutExceeded", "while compiling", undefined, { deadline: Date.now() + 5 })
  })
})
