/**
 * Programs aimed at the compiler to JavaScript: evaluation order when a call changes a variable read earlier in the
 * same expression, temporaries reused across nested statements, fresh locals per iteration for closures, every goto
 * layout (nested labeled blocks, loops for backward jumps, and the dispatch loop for gotos that cross), and names
 * and strings that mean something in JavaScript.
 */
import { v, type Case } from "../support/case.js"

export const compiled: ReadonlyArray<Case> = [
  // Evaluation order as PUC Lua has it: a local is a register, read when the operation runs; a callee, call
  // arguments and concatenation operands are copied where they appear; upvalues, globals and fields are loaded
  // where they appear.
  v(
    "callee is copied before a call in its arguments changes it",
    "local f = function() return 1 end local function g() f = nil return 2 end return f(g())",
    1,
  ),
  v(
    "arguments are copied in order",
    "local a = 1 local function g() a = 2 return 3 end local function id(x, y) return x * 10 + y end return id(a, g())",
    13,
  ),
  v(
    "a local operand is read after a call on the right",
    "local a = 1 local function g() a = 10 return 1 end return a + g()",
    11,
  ),
  v(
    "a local compared after a call on the right",
    "local a = 1 local function g() a = 5 return 3 end return a < g()",
    false,
  ),
  v(
    "an upvalue operand is read before a call on the right",
    "local a = 1 local function h() local function g() a = 10 return 1 end return a + g() end return h()",
    2,
  ),
  v(
    "a field operand is read before a call on the right",
    "local t = {x = 1} local function g() t.x = 10 return 1 end return t.x + g()",
    2,
  ),
  v(
    "concatenation operands are copied in order",
    "local s = 'x' local function g() s = 'z' return 'y' end return s .. g()",
    "xy",
  ),
  v(
    "global callee is read before the arguments",
    "function gf() return 'old' end local function g() gf = nil return 1 end return gf(g())",
    "old",
  ),
  v(
    "a local table is read when storing",
    "local t = {} local u = t local function g() t = {} return 7 end t[1] = g() return {u[1] == nil, t[1]}",
    [true, 7],
  ),
  v(
    "multiple assignment copies a local that a later target assigns",
    "local t, i = {}, 1 t[i], i = 20, i + 1 return {t[1], t[2] == nil, i}",
    [20, true, 2],
  ),
  v(
    "multiple assignment reads other locals when storing",
    "local t, i = {}, 1 local function f() i = 2 return 'x' end t[i], t.y = f(), 1 return {t[1] == nil, t[2]}",
    [true, "x"],
  ),
  v(
    "a field table is read before the value",
    "local o = {t = {}} local u = o.t local function g() o.t = {} return 7 end o.t[1] = g() return u[1]",
    7,
  ),
  v(
    "method receiver is evaluated once",
    "local n = 0 local o = {m = function(self, x) return x end} local function get() n = n + 1 return o end get():m(1) return n",
    1,
  ),
  v(
    "temporaries survive a nested loop",
    "local t = {} for i = 1, 3 do t[i] = (function() local s = 0 for j = 1, i do s = s + j end return s end)() end return t",
    [1, 3, 6],
  ),
  v(
    "condition values do not leak into the body",
    "local a, b = {x = 1}, {x = 2} local r = {} if a.x + b.x == 3 then local c = {x = 5} r[1] = c.x + a.x end return r",
    [6],
  ),
  v(
    "deep expression with many temporaries",
    "local t = {a = {b = {c = 2}}} return t.a.b.c * t.a.b.c + t.a.b.c - (t.a.b.c // 2) * (#'abc' + t.a.b.c)",
    1,
  ),
  // Each iteration has its own locals, and closures keep the ones they saw.
  v(
    "numeric for: closures see their own iteration",
    "local fs = {} for i = 1, 3 do local j = i * 10 fs[i] = function() return i + j end end return {fs[1](), fs[2](), fs[3]()}",
    [11, 22, 33],
  ),
  v(
    "generic for: closures see their own iteration",
    "local fs = {} for k, v in ipairs({'a', 'b'}) do fs[k] = function() return k .. v end end return {fs[1](), fs[2]()}",
    ["1a", "2b"],
  ),
  v(
    "while: closures see their own iteration",
    "local fs, i = {}, 0 while i < 3 do i = i + 1 local x = i fs[i] = function() return x end end return {fs[1](), fs[3]()}",
    [1, 3],
  ),
  v(
    "repeat: closures see their own iteration",
    "local fs, i = {}, 0 repeat i = i + 1 local x = i * 2 fs[i] = function() return x end until x >= 6 return {fs[1](), fs[2](), fs[3]()}",
    [2, 4, 6],
  ),
  v(
    "a closure can change its iteration's local",
    "local fs = {} for i = 1, 2 do local n = 0 fs[i] = function() n = n + i return n end end fs[1]() fs[1]() return {fs[1](), fs[2]()}",
    [3, 2],
  ),
  v(
    "backward goto: closures see fresh locals",
    "local fs, n = {}, 0 ::top:: local x = n fs[#fs + 1] = function() return x end n = n + 1 if n < 3 then goto top end return {fs[1](), fs[2](), fs[3]()}",
    [0, 1, 2],
  ),
  v(
    "backward goto keeps locals declared before the label",
    "local i = 1 ::again:: i = i * 2 if i < 50 then goto again end return i",
    64,
  ),
  // goto layouts
  v(
    "goto continue in repeat with the condition after the label",
    "local i, out = 0, {} repeat i = i + 1 if i % 2 == 0 then goto skip end out[#out + 1] = i ::skip:: until i >= 5 return out",
    [1, 3, 5],
  ),
  v(
    "two forward labels",
    "local r = {} for i = 1, 4 do if i == 1 then goto one end if i == 2 then goto two end r[#r + 1] = 'x' .. i goto done ::one:: r[#r + 1] = 'one' goto done ::two:: r[#r + 1] = 'two' ::done:: end return r",
    ["one", "two", "x3", "x4"],
  ),
  v(
    "forward and backward to the same label",
    "local n, r = 0, {} goto mid ::top:: n = n + 1 ::mid:: r[#r + 1] = n if n < 2 then goto top end return r",
    [0, 1, 2],
  ),
  v(
    "gotos that cross: jump forward past a label jumped back to",
    "local r = {} do goto b ::a:: r[#r + 1] = 'a' goto c ::b:: r[#r + 1] = 'b' goto a ::c:: end return r",
    ["b", "a"],
  ),
  v(
    "crossing gotos with a loop counter",
    "local r, i = {}, 0 goto b ::a:: i = i + 1 r[#r + 1] = i ::b:: if i < 3 then goto a end return r",
    [1, 2, 3],
  ),
  v(
    "crossing gotos with locals in a nested block",
    "local r, n = {}, 0 goto b ::a:: do local x = n r[#r + 1] = function() return x end end ::b:: n = n + 1 if n < 4 then goto a end return {r[1](), r[2](), r[3]()}",
    [1, 2, 3],
  ),
  v(
    "crossing gotos keep a local declared before the labels",
    "local acc = 0 local k = 10 goto b ::a:: acc = acc + k k = k - 1 ::b:: if k > 7 then goto a end return acc",
    27,
  ),
  v(
    "crossing gotos inside a repeat whose condition reads a local",
    "local out = {} local i = 0 repeat local d = i * 2 goto b ::a:: out[#out + 1] = d goto c ::b:: i = i + 1 goto a ::c:: until d >= 4 return out",
    [0, 2, 4],
  ),
  v(
    "goto out of nested loops and back in again",
    "local n = 0 ::again:: for i = 1, 3 do for j = 1, 3 do n = n + 1 if n % 4 == 0 and n < 10 then goto again end end end return n",
    17,
  ),
  // Crossing gotos (a dispatch loop): a closure over a local that a backward jump declares again sees its own pass.
  v(
    "a captured local declared again by crossing gotos",
    "local fs, n = {}, 0 goto b ::a:: n = n + 1 ::b:: local x = n fs[#fs + 1] = function() return x end if n < 2 then goto a end return {fs[1](), fs[2](), fs[3]()}",
    [0, 1, 2],
  ),
  v(
    "closures over cells assign the local of their own pass",
    "local gs, ss, n = {}, {}, 0 goto b ::a:: n = n + 1 ::b:: local x = n * 10 gs[#gs + 1] = function() return x end ss[#ss + 1] = function(v) x = v end if n < 2 then goto a end ss[2](99) return {gs[1](), gs[2](), gs[3](), x}",
    [0, 99, 20, 20],
  ),
  v(
    "a local function declared again by crossing gotos",
    "local fs, n = {}, 0 goto b ::a:: n = n + 1 ::b:: local function f(k) if k > 0 then return f(k - 1) + 1 end return n end fs[#fs + 1] = f if n < 2 then goto a end return {fs[1](3), fs[3](0), #fs}",
    [5, 2, 3],
  ),
  v(
    "many backward labels in one block",
    Array.from({ length: 40 }, (_, i) => `::l${i}:: n = n + 1 if n < ${i * 2} then goto l${i} end`)
      .join(" ")
      .replace(/^/, "local n = 0 ") + " return n",
    78,
  ),
  v(
    "a label in a nested block and a later one of the same name",
    "local n = 0 if false then ::l1:: end goto l1 n = 5 ::l1:: if false then ::l2:: end ::l2:: n = n + 1 if n < 3 then goto l2 end return n",
    3,
  ),
  v(
    "the same program with the local in a block",
    "local fs, n = {}, 0 goto b ::a:: n = n + 1 ::b:: do local x = n fs[#fs + 1] = function() return x end end if n < 2 then goto a end return {fs[1](), fs[2](), fs[3]()}",
    [0, 1, 2],
  ),
  // Names and strings from the program that mean something in JavaScript
  v(
    "locals named like JavaScript globals",
    "local process, globalThis, eval, Function, constructor, this = 1, 2, 3, 4, 5, 6 return process + globalThis + eval + Function + constructor + this",
    21,
  ),
  v(
    "globals named like JavaScript globals",
    "process = 1 require_ = 2 Function = 3 return process + require_ + Function",
    6,
  ),
  v(
    "fields named like object internals",
    "local t = {} t.__proto__ = 1 t.constructor = 2 t.hasOwnProperty = 3 t.toString = 4 t.valueOf = 5 return {t.__proto__, t.constructor, t.hasOwnProperty, t.toString, t.valueOf, t.prototype == nil}",
    [1, 2, 3, 4, 5, true],
  ),
  v(
    "record constructor with object-internal names",
    "local t = {__proto__ = 1, constructor = 2, prototype = 3} local n = 0 for k in pairs(t) do n = n + 1 end return {t.__proto__, t.constructor, t.prototype, n}",
    [1, 2, 3, 3],
  ),
  v(
    "keys that are not identifiers",
    "local t = {['a b'] = 1, ['x\"); throw 1; (\"'] = 2, ['`${1}`'] = 3} return t['a b'] + t['x\"); throw 1; (\"'] + t['`${1}`']",
    6,
  ),
  v(
    "strings that look like JavaScript",
    "local s = '\"); process.exit(1); (\"' .. \"'; while(true){}; '\" .. '*/ \\u{2028} ${x}' return #s",
    53,
  ),
  v(
    "JavaScript keywords as field names",
    "local t = {} t['if'] = 1 t['function'] = 2 t['return'] = 3 return t['if'] + t['function'] + t['return']",
    6,
  ),
  v(
    "labels and locals with JavaScript label names",
    "local L1, F1, B1, D1, t0, k0, v1 = 1, 2, 3, 4, 5, 6, 7 goto L1 ::L1:: return L1 + F1 + B1 + D1 + t0 + k0 + v1",
    28,
  ),
]
