/**
 * Programs aimed at float arithmetic without boxes (codegen/types.ts: a local that only ever holds a float lives as
 * a raw JS double and is boxed where it leaves float arithmetic; `+ - *` inside float arithmetic are computed as
 * doubles): every place where a float's subtype shows (`tostring`, `math.type`, `//` and `%`, comparisons, table
 * keys, `-0.0`), the cases that must not be float-typed (a local set to an integer in one branch, in an inner
 * function, by a `function` statement, from extra call results or `...`), closures, gotos, multiple assignment, and
 * integer operations inside float arithmetic that wrap, give `-0` or compare exactly. Expected values are lua5.4's.
 */
import { e, v, type Case } from "../support/case.js"

export const floats: ReadonlyArray<Case> = [
  v(
    "an accumulator of integral values stays a float",
    'local s = 0.0 for i = 1, 10 do s = s + 1 end return tostring(s) .. " " .. math.type(s)',
    "10.0 float",
  ),
  v(
    "an accumulator of integral values stays a float (in a function)",
    'local function f() local s = 0.0 for i = 1, 10 do s = s + 1 end return tostring(s) .. " " .. math.type(s) end return f()',
    "10.0 float",
  ),
  v(
    "negative zero in a float local",
    'local z = -0.0 local w = z * 1 local m = -z return tostring(z) .. " " .. tostring(w) .. " " .. tostring(z + 0) .. " " .. tostring(z - 0) .. " " .. tostring(m) .. " " .. tostring(0.0 * -1)',
    "-0.0 -0.0 0.0 0.0 0.0 -0.0",
  ),
  v(
    "negative zero in a float local (in a function)",
    'local function f() local z = -0.0 local w = z * 1 local m = -z return tostring(z) .. " " .. tostring(w) .. " " .. tostring(z + 0) .. " " .. tostring(z - 0) .. " " .. tostring(m) .. " " .. tostring(0.0 * -1) end return f()',
    "-0.0 -0.0 0.0 0.0 0.0 -0.0",
  ),
  v(
    "a local that is a float in one branch and an integer in another",
    'local out = {} for i = 1, 4 do local x = 1.0 if i % 2 == 0 then x = 2 end x = x + 1 out[i] = math.type(x) .. ":" .. tostring(x) end return table.concat(out, " ")',
    "float:2.0 integer:3 float:2.0 integer:3",
  ),
  v(
    "a local that is a float in one branch and an integer in another (in a function)",
    'local function f() local out = {} for i = 1, 4 do local x = 1.0 if i % 2 == 0 then x = 2 end x = x + 1 out[i] = math.type(x) .. ":" .. tostring(x) end return table.concat(out, " ") end return f()',
    "float:2.0 integer:3 float:2.0 integer:3",
  ),
  v(
    "a float local assigned an integer later is not float-typed",
    'local x = 1.5 local r = {} r[1] = math.type(x) x = 3 r[2] = math.type(x) x = x // 1 r[3] = tostring(x) return table.concat(r, " ")',
    "float integer 3",
  ),
  v(
    "a float local assigned an integer later is not float-typed (in a function)",
    'local function f() local x = 1.5 local r = {} r[1] = math.type(x) x = 3 r[2] = math.type(x) x = x // 1 r[3] = tostring(x) return table.concat(r, " ") end return f()',
    "float integer 3",
  ),
  v(
    "closures read and update a captured float local",
    'local s = 0.0 local function add(v) s = s + v end local function get() return s end add(1) add(2) return tostring(get()) .. " " .. math.type(get()) .. " " .. tostring(s)',
    "3.0 float 3.0",
  ),
  v(
    "closures read and update a captured float local (in a function)",
    'local function f() local s = 0.0 local function add(v) s = s + v end local function get() return s end add(1) add(2) return tostring(get()) .. " " .. math.type(get()) .. " " .. tostring(s) end return f()',
    "3.0 float 3.0",
  ),
  v(
    "an upvalue set to an integer in an inner function",
    'local s = 0.0 local function f() s = 1 end local before = math.type(s) f() return before .. " " .. math.type(s) .. " " .. tostring(s)',
    "float integer 1",
  ),
  v(
    "an upvalue set to an integer in an inner function (in a function)",
    'local function f() local s = 0.0 local function f() s = 1 end local before = math.type(s) f() return before .. " " .. math.type(s) .. " " .. tostring(s) end return f()',
    "float integer 1",
  ),
  v(
    "an upvalue set to a float in an inner function after a call changes it",
    'local x = 1.0 local function f() x = 10.0 return 1 end local r = x + f() local function g() return x + f() end x = 1.0 local q = g() return tostring(r) .. " " .. tostring(q) .. " " .. tostring(x)',
    "11.0 2.0 10.0",
  ),
  v(
    "an upvalue set to a float in an inner function after a call changes it (in a function)",
    'local function f() local x = 1.0 local function f() x = 10.0 return 1 end local r = x + f() local function g() return x + f() end x = 1.0 local q = g() return tostring(r) .. " " .. tostring(q) .. " " .. tostring(x) end return f()',
    "11.0 2.0 10.0",
  ),
  v(
    "a backward goto repeats float arithmetic",
    'local x = 0.5 ::top:: x = x * 2 if x < 100 then goto top end return tostring(x) .. " " .. math.type(x)',
    "128.0 float",
  ),
  v(
    "a backward goto repeats float arithmetic (in a function)",
    'local function f() local x = 0.5 ::top:: x = x * 2 if x < 100 then goto top end return tostring(x) .. " " .. math.type(x) end return f()',
    "128.0 float",
  ),
  v(
    "closures in a goto loop keep their own float local",
    'local fs = {} local i = 1 ::again:: local v = i * 1.0 fs[i] = function() v = v + 0.5 return v end i = i + 1 if i <= 3 then goto again end return tostring(fs[1]()) .. " " .. tostring(fs[1]()) .. " " .. tostring(fs[3]())',
    "1.5 2.0 3.5",
  ),
  v(
    "closures in a goto loop keep their own float local (in a function)",
    'local function f() local fs = {} local i = 1 ::again:: local v = i * 1.0 fs[i] = function() v = v + 0.5 return v end i = i + 1 if i <= 3 then goto again end return tostring(fs[1]()) .. " " .. tostring(fs[1]()) .. " " .. tostring(fs[3]()) end return f()',
    "1.5 2.0 3.5",
  ),
  v(
    "crossing gotos with a float local",
    "local out = {} do local n = 0.0 goto a ::b:: n = n + 1.5 goto c ::a:: n = n + 1 goto b ::c:: out[#out + 1] = tostring(n) .. math.type(n) end return out[1]",
    "2.5float",
  ),
  v(
    "crossing gotos with a float local (in a function)",
    "local function f() local out = {} do local n = 0.0 goto a ::b:: n = n + 1.5 goto c ::a:: n = n + 1 goto b ::c:: out[#out + 1] = tostring(n) .. math.type(n) end return out[1] end return f()",
    "2.5float",
  ),
  v(
    "varargs and float locals",
    'local function f(...) local a = ... return math.type(a) end local function g(...) return select(\'#\', ...), ... end local x = 2.0 local n, y = g(x) return f(1.0) .. " " .. f(1) .. " " .. n .. " " .. tostring(y) .. " " .. math.type(y)',
    "float integer 1 2.0 float",
  ),
  v(
    "varargs and float locals (in a function)",
    'local function f() local function f(...) local a = ... return math.type(a) end local function g(...) return select(\'#\', ...), ... end local x = 2.0 local n, y = g(x) return f(1.0) .. " " .. f(1) .. " " .. n .. " " .. tostring(y) .. " " .. math.type(y) end return f()',
    "float integer 1 2.0 float",
  ),
  v(
    "multiple assignment of float locals",
    'local a, b = 1.0, 2.0 a, b = b, a local c, d = 3.0 local function two() return 4.0, 5 end local e, f = two() return tostring(a) .. tostring(b) .. " " .. tostring(c) .. tostring(d) .. " " .. tostring(e) .. math.type(f)',
    "2.01.0 3.0nil 4.0integer",
  ),
  v(
    "multiple assignment of float locals (in a function)",
    'local function f() local a, b = 1.0, 2.0 a, b = b, a local c, d = 3.0 local function two() return 4.0, 5 end local e, f = two() return tostring(a) .. tostring(b) .. " " .. tostring(c) .. tostring(d) .. " " .. tostring(e) .. math.type(f) end return f()',
    "2.01.0 3.0nil 4.0integer",
  ),
  v(
    "a float local swapped with an integer one",
    'local a, b = 1.0, 2 a, b = b, a return math.type(a) .. " " .. math.type(b) .. " " .. tostring(a + b)',
    "integer float 3.0",
  ),
  v(
    "a float local swapped with an integer one (in a function)",
    'local function f() local a, b = 1.0, 2 a, b = b, a return math.type(a) .. " " .. math.type(b) .. " " .. tostring(a + b) end return f()',
    "integer float 3.0",
  ),
  v(
    "float locals as table keys are integer keys",
    'local k = 2.0 local t = {} t[k] = "x" t[1] = "y" local h = 0.5 t[h] = "half" local key = next(t) local keys = {} for kk in pairs(t) do keys[#keys + 1] = math.type(kk) end table.sort(keys) return tostring(t[2]) .. " " .. tostring(t[2.0]) .. " " .. #t .. " " .. table.concat(keys, ",") .. " " .. t[0.5]',
    "x x 2 float,integer,integer half",
  ),
  v(
    "float locals as table keys are integer keys (in a function)",
    'local function f() local k = 2.0 local t = {} t[k] = "x" t[1] = "y" local h = 0.5 t[h] = "half" local key = next(t) local keys = {} for kk in pairs(t) do keys[#keys + 1] = math.type(kk) end table.sort(keys) return tostring(t[2]) .. " " .. tostring(t[2.0]) .. " " .. #t .. " " .. table.concat(keys, ",") .. " " .. t[0.5] end return f()',
    "x x 2 float,integer,integer half",
  ),
  v(
    "comparisons of float locals",
    'local x = 2.0 local y = 0.0 / 1 return tostring(x == 2) .. tostring(x < 3) .. tostring(2 <= x) .. tostring(x > 1.5) .. tostring(x == "2") .. tostring(x ~= 2.0) .. tostring(y == 0) .. tostring(y == -0.0) .. tostring(x >= math.maxinteger)',
    "truetruetruetruefalsefalsetruetruefalse",
  ),
  v(
    "comparisons of float locals (in a function)",
    'local function f() local x = 2.0 local y = 0.0 / 1 return tostring(x == 2) .. tostring(x < 3) .. tostring(2 <= x) .. tostring(x > 1.5) .. tostring(x == "2") .. tostring(x ~= 2.0) .. tostring(y == 0) .. tostring(y == -0.0) .. tostring(x >= math.maxinteger) end return f()',
    "truetruetruetruefalsefalsetruetruefalse",
  ),
  v(
    "comparisons of float locals with large integers",
    "local x = 2^63 local y = 2^53 return tostring(x > math.maxinteger) .. tostring(x == -(math.mininteger + 0.0)) .. tostring(y == 9007199254740992) .. tostring(y + 1 == 9007199254740993) .. tostring(y < 9007199254740993)",
    "truetruetruefalsetrue",
  ),
  v(
    "comparisons of float locals with large integers (in a function)",
    "local function f() local x = 2^63 local y = 2^53 return tostring(x > math.maxinteger) .. tostring(x == -(math.mininteger + 0.0)) .. tostring(y == 9007199254740992) .. tostring(y + 1 == 9007199254740993) .. tostring(y < 9007199254740993) end return f()",
    "truetruetruefalsetrue",
  ),
  e(
    "comparing a float local with a string is an error",
    'local x = 1.5 return x < "2"',
    "ExecutionFailure",
    "attempt to compare number with string",
    1,
  ),
  e(
    "comparing a float local with a string is an error (in a function)",
    'local function f() local x = 1.5 return x < "2" end return f()',
    "ExecutionFailure",
    "attempt to compare number with string",
    1,
  ),
  v(
    "concatenation and formatting of float locals",
    'local x = 2.0 local y = x / 4 return x .. "|" .. y .. "|" .. string.format("%d %.1f %g %s", x, x, x, x) .. "|" .. tostring(1e15 * 1.0) .. "|" .. (x * 1e15)',
    "2.0|0.5|2 2.0 2 2.0|1e+15|2e+15",
  ),
  v(
    "concatenation and formatting of float locals (in a function)",
    'local function f() local x = 2.0 local y = x / 4 return x .. "|" .. y .. "|" .. string.format("%d %.1f %g %s", x, x, x, x) .. "|" .. tostring(1e15 * 1.0) .. "|" .. (x * 1e15) end return f()',
    "2.0|0.5|2 2.0 2 2.0|1e+15|2e+15",
  ),
  v(
    "arithmetic of a float local with numeric strings",
    'local x = 1.0 x = x + "2" local y = x * "0x10" return tostring(x) .. " " .. tostring(y) .. " " .. math.type(y)',
    "3.0 48.0 float",
  ),
  v(
    "arithmetic of a float local with numeric strings (in a function)",
    'local function f() local x = 1.0 x = x + "2" local y = x * "0x10" return tostring(x) .. " " .. tostring(y) .. " " .. math.type(y) end return f()',
    "3.0 48.0 float",
  ),
  e(
    "arithmetic on nil with a float local",
    "local x = 1.0 local t = {} x = x + t.missing return x",
    "ExecutionFailure",
    "attempt to perform arithmetic on a nil value (field 'missing')",
    1,
  ),
  e(
    "arithmetic on nil with a float local (in a function)",
    "local function f() local x = 1.0 local t = {} x = x + t.missing return x end return f()",
    "ExecutionFailure",
    "attempt to perform arithmetic on a nil value (field 'missing')",
    1,
  ),
  e(
    "arithmetic on a table with a float local",
    "local x = 1.5 local y = x * {} return y",
    "ExecutionFailure",
    "attempt to perform arithmetic on a table value",
    1,
  ),
  e(
    "arithmetic on a table with a float local (in a function)",
    "local function f() local x = 1.5 local y = x * {} return y end return f()",
    "ExecutionFailure",
    "attempt to perform arithmetic on a table value",
    1,
  ),
  v(
    "integer division and modulo of float locals",
    'local x = 7.0 local z = 0.0 return tostring(x // 2) .. " " .. tostring(x % 2) .. " " .. tostring(-x // 2) .. " " .. tostring(x % -3) .. " " .. tostring(x // z) .. " " .. tostring(-x // z) .. " " .. tostring(5.5 % x) .. " " .. math.type(x // 2)',
    "3.0 1.0 -4.0 -2.0 inf -inf 5.5 float",
  ),
  v(
    "integer division and modulo of float locals (in a function)",
    'local function f() local x = 7.0 local z = 0.0 return tostring(x // 2) .. " " .. tostring(x % 2) .. " " .. tostring(-x // 2) .. " " .. tostring(x % -3) .. " " .. tostring(x // z) .. " " .. tostring(-x // z) .. " " .. tostring(5.5 % x) .. " " .. math.type(x // 2) end return f()',
    "3.0 1.0 -4.0 -2.0 inf -inf 5.5 float",
  ),
  v(
    "x = x * 1.0 makes a float",
    'local x = 3 local y = x * 1.0 y = y * 1.0 local t = {y} return math.type(y) .. " " .. tostring(y) .. " " .. math.type(t[1]) .. " " .. tostring(t[1])',
    "float 3.0 float 3.0",
  ),
  v(
    "x = x * 1.0 makes a float (in a function)",
    'local function f() local x = 3 local y = x * 1.0 y = y * 1.0 local t = {y} return math.type(y) .. " " .. tostring(y) .. " " .. math.type(t[1]) .. " " .. tostring(t[1]) end return f()',
    "float 3.0 float 3.0",
  ),
  v(
    "divisions with integral results",
    'local q = 4 / 2 local a, b = 9, 3 local r = a / b local t = {} t[1] = r t.f = q return tostring(q) .. " " .. math.type(q) .. " " .. tostring(q * 2) .. " " .. tostring(q // 1) .. " " .. tostring(r) .. " " .. math.type(t[1]) .. " " .. math.type(t.f) .. " " .. tostring(t[2.0 * 1])',
    "2.0 float 4.0 2.0 3.0 float float nil",
  ),
  v(
    "divisions with integral results (in a function)",
    'local function f() local q = 4 / 2 local a, b = 9, 3 local r = a / b local t = {} t[1] = r t.f = q return tostring(q) .. " " .. math.type(q) .. " " .. tostring(q * 2) .. " " .. tostring(q // 1) .. " " .. tostring(r) .. " " .. math.type(t[1]) .. " " .. math.type(t.f) .. " " .. tostring(t[2.0 * 1]) end return f()',
    "2.0 float 4.0 2.0 3.0 float float nil",
  ),
  v(
    "numeric for loops with float locals as bounds",
    'local lim = 3.0 local out = {} for i = 1, lim do out[#out + 1] = math.type(i) end for i = 1.0, 2 do out[#out + 1] = tostring(i) end local step = 0.5 for i = 1, 2, step do out[#out + 1] = tostring(i) end return table.concat(out, " ")',
    "integer integer integer 1.0 2.0 1.0 1.5 2.0",
  ),
  v(
    "numeric for loops with float locals as bounds (in a function)",
    'local function f() local lim = 3.0 local out = {} for i = 1, lim do out[#out + 1] = math.type(i) end for i = 1.0, 2 do out[#out + 1] = tostring(i) end local step = 0.5 for i = 1, 2, step do out[#out + 1] = tostring(i) end return table.concat(out, " ") end return f()',
    "integer integer integer 1.0 2.0 1.0 1.5 2.0",
  ),
  v(
    "float locals returned and passed",
    'local function f(a) local x = a * 2.0 return x end local function id(...) return ... end local x = 3.0 return math.type(f(1)) .. " " .. tostring(f(2)) .. " " .. math.type(id(x)) .. " " .. tostring(select(1, id(x))) .. " " .. tostring((id(x)))',
    "float 4.0 float 3.0 3.0",
  ),
  v(
    "float locals returned and passed (in a function)",
    'local function f() local function f(a) local x = a * 2.0 return x end local function id(...) return ... end local x = 3.0 return math.type(f(1)) .. " " .. tostring(f(2)) .. " " .. math.type(id(x)) .. " " .. tostring(select(1, id(x))) .. " " .. tostring((id(x))) end return f()',
    "float 4.0 float 3.0 3.0",
  ),
  v(
    "bitwise operators on float locals",
    'local x = 3.0 local r = x | 0 local s = x & 1 return math.type(r) .. " " .. r .. " " .. s .. " " .. (x << 2) .. " " .. (~x)',
    "integer 3 1 12 -4",
  ),
  v(
    "bitwise operators on float locals (in a function)",
    'local function f() local x = 3.0 local r = x | 0 local s = x & 1 return math.type(r) .. " " .. r .. " " .. s .. " " .. (x << 2) .. " " .. (~x) end return f()',
    "integer 3 1 12 -4",
  ),
  e(
    "a bitwise operator on a float local without an integer value",
    "local y = 3.5 return y | 0",
    "ExecutionFailure",
    "number (local 'y') has no integer representation",
    1,
  ),
  e(
    "a bitwise operator on a float local without an integer value (in a function)",
    "local function f() local y = 3.5 return y | 0 end return f()",
    "ExecutionFailure",
    "number (local 'y') has no integer representation",
    1,
  ),
  v(
    "large float locals",
    'local x = 1e15 local y = 2^53 local z = y + 1 local w = 1e300 * 1e10 return tostring(x) .. " " .. tostring(x + 1) .. " " .. tostring(z == y) .. " " .. tostring(w) .. " " .. tostring(-w) .. " " .. math.type(w)',
    "1e+15 1e+15 true inf -inf float",
  ),
  v(
    "large float locals (in a function)",
    'local function f() local x = 1e15 local y = 2^53 local z = y + 1 local w = 1e300 * 1e10 return tostring(x) .. " " .. tostring(x + 1) .. " " .. tostring(z == y) .. " " .. tostring(w) .. " " .. tostring(-w) .. " " .. math.type(w) end return f()',
    "1e+15 1e+15 true inf -inf float",
  ),
  v(
    "shadowed float locals",
    'local x = 1.0 do local x = 1 x = x + 1 end local y = x for x = 1, 2 do y = y + x end return math.type(x) .. " " .. tostring(y)',
    "float 4.0",
  ),
  v(
    "shadowed float locals (in a function)",
    'local function f() local x = 1.0 do local x = 1 x = x + 1 end local y = x for x = 1, 2 do y = y + x end return math.type(x) .. " " .. tostring(y) end return f()',
    "float 4.0",
  ),
  v(
    "float locals in repeat conditions and while loops",
    'local x = 0.0 repeat local y = x + 0.25 x = y until y >= 1 local n = 0 while x < 3 do x = x + 1 n = n + 1 end return tostring(x) .. " " .. n',
    "3.0 2",
  ),
  v(
    "float locals in repeat conditions and while loops (in a function)",
    'local function f() local x = 0.0 repeat local y = x + 0.25 x = y until y >= 1 local n = 0 while x < 3 do x = x + 1 n = n + 1 end return tostring(x) .. " " .. n end return f()',
    "3.0 2",
  ),
  v(
    "nan in a float local",
    'local n = 0 / 0 local m = n * 2.0 return tostring(n ~= n) .. " " .. tostring(m == m) .. " " .. tostring(n < 1) .. " " .. tostring(n >= 1) .. " " .. math.type(m)',
    "true false false false float",
  ),
  v(
    "nan in a float local (in a function)",
    'local function f() local n = 0 / 0 local m = n * 2.0 return tostring(n ~= n) .. " " .. tostring(m == m) .. " " .. tostring(n < 1) .. " " .. tostring(n >= 1) .. " " .. math.type(m) end return f()',
    "true false false false float",
  ),
  v(
    "float locals in table constructors and results",
    'local a, b = 1.0, 2.5 local t = {a, b, x = a, [a] = "one"} return math.type(t[1]) .. " " .. tostring(t[1]) .. " " .. math.type(t.x) .. " " .. tostring(t[1.0]) .. " " .. #t',
    "float 1.0 float 1.0 2",
  ),
  v(
    "float locals in table constructors and results (in a function)",
    'local function f() local a, b = 1.0, 2.5 local t = {a, b, x = a, [a] = "one"} return math.type(t[1]) .. " " .. tostring(t[1]) .. " " .. math.type(t.x) .. " " .. tostring(t[1.0]) .. " " .. #t end return f()',
    "float 1.0 float 1.0 2",
  ),
  v(
    "a float local declared as a function is not float-typed",
    "local f = 1.0 function f() return 2 end return tostring(f())",
    "2",
  ),
  v(
    "a float local declared as a function is not float-typed (in a function)",
    "local function f() local f = 1.0 function f() return 2 end return tostring(f()) end return f()",
    "2",
  ),
  v(
    "float locals with logical operators and truthiness",
    'local x = 0.0 local y = x and 1.5 local z = nil or x if x then return tostring(y) .. " " .. tostring(z) .. " " .. tostring(not x) end',
    "1.5 0.0 false",
  ),
  v(
    "float locals with logical operators and truthiness (in a function)",
    'local function f() local x = 0.0 local y = x and 1.5 local z = nil or x if x then return tostring(y) .. " " .. tostring(z) .. " " .. tostring(not x) end end return f()',
    "1.5 0.0 false",
  ),
  v(
    "unary minus and powers of float locals",
    'local x = 2.0 local y = -x local z = x ^ 2 local w = -(x ^ 0.5) local v = 2 ^ -1 return tostring(y) .. " " .. tostring(z) .. " " .. tostring(w) .. " " .. tostring(v) .. " " .. tostring(-y) .. " " .. tostring(x ^ x)',
    "-2.0 4.0 -1.4142135623731 0.5 2.0 4.0",
  ),
  v(
    "unary minus and powers of float locals (in a function)",
    'local function f() local x = 2.0 local y = -x local z = x ^ 2 local w = -(x ^ 0.5) local v = 2 ^ -1 return tostring(y) .. " " .. tostring(z) .. " " .. tostring(w) .. " " .. tostring(v) .. " " .. tostring(-y) .. " " .. tostring(x ^ x) end return f()',
    "-2.0 4.0 -1.4142135623731 0.5 2.0 4.0",
  ),
  v(
    "float locals compared with boxed table values",
    'local t = {1.0, 2.0, 3} local s = 0.0 local eq = 0 for i = 1, #t do s = s + t[i] if s == t[i] then eq = eq + 1 end if t[i] == s - s + t[i] then eq = eq + 10 end end return tostring(s) .. " " .. eq',
    "6.0 31",
  ),
  v(
    "float locals compared with boxed table values (in a function)",
    'local function f() local t = {1.0, 2.0, 3} local s = 0.0 local eq = 0 for i = 1, #t do s = s + t[i] if s == t[i] then eq = eq + 1 end if t[i] == s - s + t[i] then eq = eq + 10 end end return tostring(s) .. " " .. eq end return f()',
    "6.0 31",
  ),
  e(
    "the length of a float local is an error",
    "local x = 1.5 return #x",
    "ExecutionFailure",
    "attempt to get length of a number value (local 'x')",
    1,
  ),
  e(
    "the length of a float local is an error (in a function)",
    "local function f() local x = 1.5 return #x end return f()",
    "ExecutionFailure",
    "attempt to get length of a number value (local 'x')",
    1,
  ),
  v(
    "a float local captured by a loop closure",
    'local fs = {} for i = 1, 3 do local v = i / 1 fs[i] = function() v = v * 2 return v end end return tostring(fs[1]()) .. " " .. tostring(fs[1]()) .. " " .. tostring(fs[2]()) .. " " .. math.type(fs[3]())',
    "2.0 4.0 4.0 float",
  ),
  v(
    "a float local captured by a loop closure (in a function)",
    'local function f() local fs = {} for i = 1, 3 do local v = i / 1 fs[i] = function() v = v * 2 return v end end return tostring(fs[1]()) .. " " .. tostring(fs[1]()) .. " " .. tostring(fs[2]()) .. " " .. math.type(fs[3]()) end return f()',
    "2.0 4.0 4.0 float",
  ),
  v(
    "mean and variance with float accumulators",
    'local data = {} for i = 1, 20 do data[i] = (i % 5) / 2 end local sum, sq = 0.0, 0.0 for i = 1, #data do local v = data[i] sum = sum + v sq = sq + v * v end local mean = sum / #data return tostring(sum) .. " " .. tostring(sq) .. " " .. tostring(mean) .. " " .. tostring(sq / #data - mean * mean)',
    "20.0 30.0 1.0 0.5",
  ),
  v(
    "mean and variance with float accumulators (in a function)",
    'local function f() local data = {} for i = 1, 20 do data[i] = (i % 5) / 2 end local sum, sq = 0.0, 0.0 for i = 1, #data do local v = data[i] sum = sum + v sq = sq + v * v end local mean = sum / #data return tostring(sum) .. " " .. tostring(sq) .. " " .. tostring(mean) .. " " .. tostring(sq / #data - mean * mean) end return f()',
    "20.0 30.0 1.0 0.5",
  ),
  v(
    "integer products beyond 2^53 inside float arithmetic",
    'local a, b = 3037000500, 3037000499 local s = 0.0 + a * b local big = math.maxinteger // 2 local t = 0.5 * (big * 2) return string.format("%.17g %.17g", s, t)',
    "9.2233720339632497e+18 4.6116860184273879e+18",
  ),
  v(
    "integer products beyond 2^53 inside float arithmetic (in a function)",
    'local function f() local a, b = 3037000500, 3037000499 local s = 0.0 + a * b local big = math.maxinteger // 2 local t = 0.5 * (big * 2) return string.format("%.17g %.17g", s, t) end return f()',
    "9.2233720339632497e+18 4.6116860184273879e+18",
  ),
  v(
    "an integer product of zero is +0 inside float arithmetic",
    'local s = -0.0 local a, b = 0, -5 local r = s + a * b local x = -0.5 local q = s + x * 0 local z = -0.0 + (a - 0) return tostring(r) .. " " .. tostring(q) .. " " .. tostring(z)',
    "0.0 -0.0 0.0",
  ),
  v(
    "an integer product of zero is +0 inside float arithmetic (in a function)",
    'local function f() local s = -0.0 local a, b = 0, -5 local r = s + a * b local x = -0.5 local q = s + x * 0 local z = -0.0 + (a - 0) return tostring(r) .. " " .. tostring(q) .. " " .. tostring(z) end return f()',
    "0.0 -0.0 0.0",
  ),
  v(
    "boxed floats and strings as operands inside float arithmetic",
    'local t = {2.0, 3, "4"} local s = 0.5 s = s + t[1] * t[2] local u = 0.25 * (t[3] * t[2]) local v = 1.0 + (t[1] - t[1]) return tostring(s) .. " " .. tostring(u) .. " " .. tostring(v) .. " " .. math.type(v)',
    "6.5 3.0 1.0 float",
  ),
  v(
    "boxed floats and strings as operands inside float arithmetic (in a function)",
    'local function f() local t = {2.0, 3, "4"} local s = 0.5 s = s + t[1] * t[2] local u = 0.25 * (t[3] * t[2]) local v = 1.0 + (t[1] - t[1]) return tostring(s) .. " " .. tostring(u) .. " " .. tostring(v) .. " " .. math.type(v) end return f()',
    "6.5 3.0 1.0 float",
  ),
  e(
    "a nil field inside float arithmetic",
    "local t = {} local s = 0.0 s = s + t.x * 2 return s",
    "ExecutionFailure",
    "attempt to perform arithmetic on a nil value (field 'x')",
    1,
  ),
  e(
    "a nil field inside float arithmetic (in a function)",
    "local function f() local t = {} local s = 0.0 s = s + t.x * 2 return s end return f()",
    "ExecutionFailure",
    "attempt to perform arithmetic on a nil value (field 'x')",
    1,
  ),
  e(
    "a table inside float arithmetic",
    "local s = 1.5 local t = {} return s * (t + 1)",
    "ExecutionFailure",
    "attempt to perform arithmetic on a table value (local 't')",
    1,
  ),
  e(
    "a table inside float arithmetic (in a function)",
    "local function f() local s = 1.5 local t = {} return s * (t + 1) end return f()",
    "ExecutionFailure",
    "attempt to perform arithmetic on a table value (local 't')",
    1,
  ),
  v(
    "float locals compared exactly with large integers",
    "local x = 2^60 local a = 1 << 60 return tostring(x < a + 1) .. tostring(x == a) .. tostring(x + 0.0 <= a - 1) .. tostring(a * 1 + 1 > x)",
    "truetruefalsetrue",
  ),
  v(
    "float locals compared exactly with large integers (in a function)",
    "local function f() local x = 2^60 local a = 1 << 60 return tostring(x < a + 1) .. tostring(x == a) .. tostring(x + 0.0 <= a - 1) .. tostring(a * 1 + 1 > x) end return f()",
    "truetruefalsetrue",
  ),
  v(
    "integer arithmetic that wraps inside float arithmetic",
    "local m = math.maxinteger local a, b = 1 << 40, 1 << 30 local s = 0.0 s = s + m * 2 local u = 0.5 + (m + 1) local w = 0.5 * (m - -1) local x = 0.5 + a * b local y = 0.5 * (a * b + a * a) local z = (a * a + a * a) - 0.5 return tostring(s) .. ' ' .. tostring(u) .. ' ' .. tostring(w) .. ' ' .. tostring(x) .. ' ' .. tostring(y) .. ' ' .. tostring(z)",
    "-2.0 -9.2233720368548e+18 -4.6116860184274e+18 0.5 0.0 -0.5",
  ),
  v(
    "integer arithmetic that wraps inside float arithmetic (in a function)",
    "local function f() local m = math.maxinteger local a, b = 1 << 40, 1 << 30 local s = 0.0 s = s + m * 2 local u = 0.5 + (m + 1) local w = 0.5 * (m - -1) local x = 0.5 + a * b local y = 0.5 * (a * b + a * a) local z = (a * a + a * a) - 0.5 return tostring(s) .. ' ' .. tostring(u) .. ' ' .. tostring(w) .. ' ' .. tostring(x) .. ' ' .. tostring(y) .. ' ' .. tostring(z) end return f()",
    "-2.0 -9.2233720368548e+18 -4.6116860184274e+18 0.5 0.0 -0.5",
  ),
  v(
    "math.random after a seed: floats, small and large intervals, 64-bit values",
    'math.randomseed(7, 3) local a, b, c, d, e = 0, 0, 0, 0, 0 for i = 1, 2000 do a = a + math.floor(math.random() * 1e9) b = b + math.random(1, 6) c = c ~ math.random(1 << 40) d = d ~ math.random(0) e = e + math.random(-3, 1000003) end local x, y = math.random(math.mininteger, math.maxinteger), math.random(3, 3) math.randomseed(123) return a .. " " .. b .. " " .. c .. " " .. d .. " " .. e .. " " .. x .. " " .. y .. " " .. math.random(100) .. " " .. string.format("%.17g", math.random())',
    "979564223507 6832 305877843612 5793321296598585511 990918512 3363689959157468811 3 37 0.52918196330621881",
  ),
  v(
    "math.random after a seed: floats, small and large intervals, 64-bit values (in a function)",
    'local function f() math.randomseed(7, 3) local a, b, c, d, e = 0, 0, 0, 0, 0 for i = 1, 2000 do a = a + math.floor(math.random() * 1e9) b = b + math.random(1, 6) c = c ~ math.random(1 << 40) d = d ~ math.random(0) e = e + math.random(-3, 1000003) end local x, y = math.random(math.mininteger, math.maxinteger), math.random(3, 3) math.randomseed(123) return a .. " " .. b .. " " .. c .. " " .. d .. " " .. e .. " " .. x .. " " .. y .. " " .. math.random(100) .. " " .. string.format("%.17g", math.random()) end return f()',
    "979564223507 6832 305877843612 5793321296598585511 990918512 3363689959157468811 3 37 0.52918196330621881",
  ),
  v(
    "numeric strings with float locals stay float arithmetic",
    'local x = 2.0 ^ 40 local y = x * "1099511627776" local z = 5.0 local w = z // "0" local u = z + "0x10" local t = {} t.v = 2 ^ 40 local q = t.v * "1099511627776" local m = 3.0 m = m % "2" return tostring(y) .. " " .. tostring(w) .. " " .. tostring(u) .. " " .. tostring(q) .. " " .. tostring(m) .. " " .. math.type(m)',
    "1.2089258196146e+24 inf 21.0 1.2089258196146e+24 1.0 float",
  ),
  v(
    "numeric strings with float locals stay float arithmetic (in a function)",
    'local function f() local x = 2.0 ^ 40 local y = x * "1099511627776" local z = 5.0 local w = z // "0" local u = z + "0x10" local t = {} t.v = 2 ^ 40 local q = t.v * "1099511627776" local m = 3.0 m = m % "2" return tostring(y) .. " " .. tostring(w) .. " " .. tostring(u) .. " " .. tostring(q) .. " " .. tostring(m) .. " " .. math.type(m) end return f()',
    "1.2089258196146e+24 inf 21.0 1.2089258196146e+24 1.0 float",
  ),
  v(
    "numeric for loops that count in floats",
    "local out = {} for x = 1.0, 3 do out[#out + 1] = tostring(x) .. math.type(x) end for x = 0, 1, 0.25 do out[#out + 1] = tostring(x) end for x = 3.0, 1, -1 do out[#out + 1] = tostring(x * 2) end for i = 1, 2.0 do out[#out + 1] = math.type(i) end for x = -0.0, 0 do out[#out + 1] = tostring(x) end local a = 0.5 for x = a, 2 do out[#out + 1] = tostring(x) end for x = 1, 2, 1.0 do out[#out + 1] = math.type(x) end return table.concat(out, ' ')",
    "1.0float 2.0float 3.0float 0.0 0.25 0.5 0.75 1.0 6.0 4.0 2.0 integer integer -0.0 0.5 1.5 float float",
  ),
  v(
    "numeric for loops that count in floats (in a function)",
    "local function f() local out = {} for x = 1.0, 3 do out[#out + 1] = tostring(x) .. math.type(x) end for x = 0, 1, 0.25 do out[#out + 1] = tostring(x) end for x = 3.0, 1, -1 do out[#out + 1] = tostring(x * 2) end for i = 1, 2.0 do out[#out + 1] = math.type(i) end for x = -0.0, 0 do out[#out + 1] = tostring(x) end local a = 0.5 for x = a, 2 do out[#out + 1] = tostring(x) end for x = 1, 2, 1.0 do out[#out + 1] = math.type(x) end return table.concat(out, ' ') end return f()",
    "1.0float 2.0float 3.0float 0.0 0.25 0.5 0.75 1.0 6.0 4.0 2.0 integer integer -0.0 0.5 1.5 float float",
  ),
  v(
    "float loop variables assigned, captured and used as keys",
    "local out, fs, t = {}, {}, {} for x = 1.0, 3 do fs[#fs + 1] = function() return x end t[x] = x x = x + 0.5 out[#out + 1] = tostring(x) end for x = 1.0, 2 do x = 'str' .. x out[#out + 1] = x end for i = 1, #fs do out[#out + 1] = tostring(fs[i]()) .. math.type(fs[i]()) end out[#out + 1] = tostring(t[2]) .. #t .. math.type(next(t)) return table.concat(out, ' ')",
    "1.5 2.5 3.5 str1.0 str2.0 1.5float 2.5float 3.5float 2.03integer",
  ),
  v(
    "float loop variables assigned, captured and used as keys (in a function)",
    "local function f() local out, fs, t = {}, {}, {} for x = 1.0, 3 do fs[#fs + 1] = function() return x end t[x] = x x = x + 0.5 out[#out + 1] = tostring(x) end for x = 1.0, 2 do x = 'str' .. x out[#out + 1] = x end for i = 1, #fs do out[#out + 1] = tostring(fs[i]()) .. math.type(fs[i]()) end out[#out + 1] = tostring(t[2]) .. #t .. math.type(next(t)) return table.concat(out, ' ') end return f()",
    "1.5 2.5 3.5 str1.0 str2.0 1.5float 2.5float 3.5float 2.03integer",
  ),
  v(
    "float loops with a bad limit or a zero step",
    "local ok, e = pcall(function() for x = 1.0, 'z' do end end) local ok2, e2 = pcall(function() for x = 1, 2, 0.0 do end end) local n = 0 for x = 1.0, 0 / 0 do n = n + 1 end for x = 1.5, math.huge do n = n + 1 if n > 3 then break end end return tostring(e):match('bad.*') .. ' | ' .. tostring(e2):match(\"'for'.*\") .. ' | ' .. n",
    "bad 'for' limit (number expected, got string) | 'for' step is zero | 4",
  ),
  v(
    "float loops with a bad limit or a zero step (in a function)",
    "local function f() local ok, e = pcall(function() for x = 1.0, 'z' do end end) local ok2, e2 = pcall(function() for x = 1, 2, 0.0 do end end) local n = 0 for x = 1.0, 0 / 0 do n = n + 1 end for x = 1.5, math.huge do n = n + 1 if n > 3 then break end end return tostring(e):match('bad.*') .. ' | ' .. tostring(e2):match(\"'for'.*\") .. ' | ' .. n end return f()",
    "bad 'for' limit (number expected, got string) | 'for' step is zero | 4",
  ),
  v(
    "float locals in long loops of the main chunk (past the tier-up)",
    "local s, z = 0.0, -0.0 local n = 0 for i = 1, 3000 do s = s + 0.5 if i == 2500 then z = z * 1 end n = n + 1 end local t = 0.0 while t < 2000 do t = t + 1 end local u = 0.0 for x = 1.0, 3000 do u = u + x / x end local w = {} for x = 0.5, 1500, 0.5 do w[#w + 1] = x end return tostring(s) .. ' ' .. tostring(z) .. ' ' .. math.type(s) .. ' ' .. tostring(t) .. ' ' .. math.type(t) .. ' ' .. tostring(u) .. ' ' .. #w .. ' ' .. tostring(w[2]) .. math.type(w[2])",
    "1500.0 -0.0 float 2000.0 float 3000.0 3000 1.0float",
  ),
  v(
    "float locals in long loops of the main chunk (past the tier-up) (in a function)",
    "local function f() local s, z = 0.0, -0.0 local n = 0 for i = 1, 3000 do s = s + 0.5 if i == 2500 then z = z * 1 end n = n + 1 end local t = 0.0 while t < 2000 do t = t + 1 end local u = 0.0 for x = 1.0, 3000 do u = u + x / x end local w = {} for x = 0.5, 1500, 0.5 do w[#w + 1] = x end return tostring(s) .. ' ' .. tostring(z) .. ' ' .. math.type(s) .. ' ' .. tostring(t) .. ' ' .. math.type(t) .. ' ' .. tostring(u) .. ' ' .. #w .. ' ' .. tostring(w[2]) .. math.type(w[2]) end return f()",
    "1500.0 -0.0 float 2000.0 float 3000.0 3000 1.0float",
  ),
  v(
    "float arithmetic on constants",
    "local q = 4 / 2 local r = 1 / 3 local z = 0 / 5 local m = -0.0 * 1 local p = 2 ^ 0.5 local w = 7 // 2.0 local v = 7.5 % 2 local u = 1e308 * 10 local n = -(0 / 0) local s = q * r + p - w + v local t = {} t[q] = 'two' return string.format('%.17g %.17g %s %s %.17g %s %s %s %s %.17g %s %s', q, r, tostring(z), tostring(m), p, tostring(w), tostring(v), tostring(u), tostring(n ~= n), s, math.type(q), t[2])",
    "2 0.33333333333333331 0.0 -0.0 1.4142135623730951 3.0 1.5 inf true 0.58088022903976189 float two",
  ),
  v(
    "float arithmetic on constants (in a function)",
    "local function f() local q = 4 / 2 local r = 1 / 3 local z = 0 / 5 local m = -0.0 * 1 local p = 2 ^ 0.5 local w = 7 // 2.0 local v = 7.5 % 2 local u = 1e308 * 10 local n = -(0 / 0) local s = q * r + p - w + v local t = {} t[q] = 'two' return string.format('%.17g %.17g %s %s %.17g %s %s %s %s %.17g %s %s', q, r, tostring(z), tostring(m), p, tostring(w), tostring(v), tostring(u), tostring(n ~= n), s, math.type(q), t[2]) end return f()",
    "2 0.33333333333333331 0.0 -0.0 1.4142135623730951 3.0 1.5 inf true 0.58088022903976189 float two",
  ),
]
