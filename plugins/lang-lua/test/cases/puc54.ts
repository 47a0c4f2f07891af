/**
 * Lua 5.4 behaviour found missing or wrong by the official test suite and by random programs (issue 13), with
 * neighbours of each program. Every expected value is what `lua5.4` returns (checked by `test/support/check-puc.mjs`).
 */
import { v, type Case } from "../support/case.js"

export const puc54: ReadonlyArray<Case> = [
  v(
    "concat parenthesised everywhere",
    'local n, t = 1, {1, 2} return {"n=" .. (n + 1), "a" .. ("b"), "x" .. (n and "y" or "z"), "n: " .. (#t), (("p")) .. (("q"))}',
    ["n=2", "ab", "xy", "n: 2", "pq"],
  ),
  v(
    "float modulo of two negatives",
    "return {tostring(-4 % -5.0), tostring(-5.5 % -2), tostring(-1.0 % -3), tostring(5.5 % -2), tostring(-5.5 % 2)}",
    ["-4.0", "-1.5", "-1.0", "-0.5", "0.5"],
  ),
  v(
    "float modulo by infinities",
    "return {tostring(5 % -math.huge), tostring(-5 % math.huge), tostring(5.0 % math.huge), tostring(-5 % -math.huge)}",
    ["-inf", "inf", "5.0", "-5.0"],
  ),
  v(
    "float modulo and fmod by zero",
    "return {tostring(3 % 0.0), tostring(math.fmod(1, 0.0)), tostring(-3 % 0.0), tostring(math.huge % 2)}",
    ["-nan", "-nan", "-nan", "-nan"],
  ),
  v(
    "nan signs from pow and log",
    "return {tostring((-1)^1.5), tostring(math.log(-7.5)), tostring(math.log(-1, 2)), tostring(math.log(-1, 10)), tostring(0/0), tostring(-(0/0)), tostring(math.sqrt(-1)), tostring(math.acos(2))}",
    ["-nan", "-nan", "-nan", "nan", "-nan", "nan", "-nan", "nan"],
  ),
  v(
    "pow rounds as C does",
    "return {tostring(-7 ^ 65), tostring(7 ^ 77), tostring(3 ^ 64), tostring((-3) ^ 63), tostring(2.5 ^ -7), tostring(10 ^ 23), tostring(9 ^ -17), tostring(1.5 ^ 100), tostring(12 ^ 30), tostring(0.1 ^ 3)}",
    [
      "-8.5383234134508e+54",
      "1.181813865806e+65",
      "3.4336838202925e+30",
      "-1.1445612734308e+30",
      "0.0016384",
      "1e+23",
      "5.9962169748381e-17",
      "4.0656117753522e+17",
      "2.3737631379977e+32",
      "0.001",
    ],
  ),
  v("table.unpack past 2^53", 'local M = math.maxinteger return {table.unpack({[M - 1] = "a", [M] = "b"}, M - 1, M)}', [
    "a",
    "b",
  ]),
  v(
    "table.concat past 2^53",
    'local M = math.maxinteger return table.concat({[M - 1] = "a", [M] = "b"}, ",", M - 1, M)',
    "a,b",
  ),
  v("table.move past 2^53", "local M = math.maxinteger return table.move({[M] = 1}, M, M, 1, {})[1]", 1),
  v("table.move with too many elements", "return {pcall(table.move, {}, math.mininteger, -1, 1)}", [
    false,
    "bad argument #3 to 'table.move' (too many elements to move)",
  ]),
  v("table.move wrapping its destination", "return {pcall(table.move, {1}, 1, math.maxinteger, 2)}", [
    false,
    "bad argument #4 to 'table.move' (destination wrap around)",
  ]),
  v(
    "ipairs iterator at maxinteger wraps",
    "local ok, k, v = pcall(ipairs({}), {[math.mininteger] = 10}, math.maxinteger) return {ok, tostring(k), v}",
    [true, "-9223372036854775808", 10],
  ),
  v("unpack of too many results", "return {pcall(table.unpack, {}, 1, 1e6)}", [false, "too many results to unpack"]),
  v("unpack of the whole integer range", "return {pcall(table.unpack, {}, math.mininteger, math.maxinteger)}", [
    false,
    "too many results to unpack",
  ]),
  v(
    "call depth of a self tail call",
    'local function loop(n) if n == 0 then return "done" end return loop(n - 1) end return loop(100000)',
    "done",
  ),
  v(
    "self tail call of a global",
    "function count(n, acc) if n == 0 then return acc end return count(n - 1, acc + 2) end return count(50000, 0)",
    100000,
  ),
  v(
    "tail call that is not to itself",
    "local function a(n) return n end local function b(n) if n > 0 then return a(n) end return b(1) end return b(0)",
    1,
  ),
  v(
    "parenthesised self call is not a tail call",
    "local function f(n) if n == 0 then return 1, 2 end return (f(n - 1)) end return {f(3)}",
    [1],
  ),
  v(
    "hex float literals without integer digits",
    "return {0x.8, 0xA.8p1, 0x.8p1, 0X.1, 0x.0p4}",
    [0.5, 21, 1, 0.0625, 0],
  ),
  v(
    "unicode escapes beyond U+10FFFF",
    'return {#"\\u{110000}", #"\\u{7FFFFFFF}", ("\\u{7FFFFFFF}"):byte(1, -1)}',
    [4, 6, 253, 191, 191, 191, 191, 191],
  ),
  v("numeric for over strings", 'local o = {} for i = "1", "3" do o[#o + 1] = tostring(i) end return o', [
    "1.0",
    "2.0",
    "3.0",
  ]),
  v(
    "numeric for with a string limit",
    'local o = {} for i = 1, "3" do o[#o + 1] = tostring(i) end for i = 3, 1, "-1" do o[#o + 1] = tostring(i) end return o',
    ["1", "2", "3", "3.0", "2.0", "1.0"],
  ),
  v(
    "numeric for beyond the integer range",
    "local n = 0 for i = math.mininteger, -10e100 do n = n + 1 end for i = math.maxinteger, 10e100, -1 do n = n + 1 end local o = {} for i = math.maxinteger - 1, 10e100 do o[#o + 1] = tostring(i) end return {n, o}",
    [0, ["9223372036854775806", "9223372036854775807"]],
  ),
  v(
    "numeric for errors",
    'return {select(2, pcall(function() for i = 1, {} do end end)), select(2, pcall(function() for i = "x", 2 do end end)), select(2, pcall(function() for i = 1, 2, 0 do end end)), select(2, pcall(function() for i = "a", "b", "c" do end end))}',
    [
      "input:1: bad 'for' limit (number expected, got table)",
      "input:1: bad 'for' initial value (number expected, got string)",
      "input:1: 'for' step is zero",
      "input:1: bad 'for' limit (number expected, got string)",
    ],
  ),
  v(
    "goto to a later label after a nested one",
    "local n = 0 if false then ::l1:: end goto l1 n = 5 ::l1:: return n",
    0,
  ),
  v(
    "labels of the same name in sibling blocks",
    "local n = 0 do ::a:: n = n + 1 end do ::a:: n = n + 10 end return n",
    11,
  ),
  v("xpcall with a failing handler", "return {xpcall(error, error)}", [false, "error in error handling"]),
  v(
    "xpcall with a handler that fails then succeeds",
    'local n = 0 local ok, m = xpcall(error, function(m) n = n + 1 if n < 3 then error("again") end return "handled " .. tostring(m) end) return {ok, m, n}',
    [false, "handled input:1: again", 3],
  ),
  v(
    "xpcall results",
    'return {select("#", xpcall(error, function() end)), select("#", xpcall(print, print)), xpcall(function(...) return ... end, print, 1, 2)}',
    [2, 1, true, 1, 2],
  ),
  v("xpcall argument errors", "return {pcall(xpcall), pcall(xpcall, print)}", [
    false,
    false,
    "bad argument #2 to 'xpcall' (function expected, got no value)",
  ]),
  v(
    "tonumber with a plus sign and a base",
    'return {tonumber("+1Z", 36), tonumber(" -ff ", 16), tostring(tonumber("+", 10)), tostring(tonumber("", 10)), tonumber("z", 36), tonumber("10", 2)}',
    [71, -255, "nil", "nil", 35, 2],
  ),
  v(
    "tonumber of long hex floats",
    'return {tonumber("0x1." .. ("0"):rep(300)), tonumber("0x1" .. ("0"):rep(300) .. "p-1200"), tonumber("0x.8"), tostring(tonumber("0x1p-1074")), tostring(tonumber("0x1.fffffffffffff8p1023"))}',
    [1, 1, 0.5, "4.9406564584125e-324", "inf"],
  ),
  v(
    "math.deg and math.rad",
    "return {math.deg(math.pi), math.rad(180), tostring(math.deg(1)), tostring(math.rad(1))}",
    [180, 3.1415926535897931, "57.295779513082", "0.017453292519943"],
  ),
  v(
    "pointer of strings",
    'local a, b = string.format("%p", "a"), string.format("%p", "b") return {a == string.format("%p", "a"), a ~= b, #a, string.format("%p", 1), string.format("%p", true)}',
    [true, true, 14, "(null)", "(null)"],
  ),
  v(
    "string.byte with empty ranges",
    'return {select("#", string.byte("hi", -3)), select("#", string.byte("a", 0)), select("#", string.byte("abc", 3, 2)), string.byte("abc", -1)}',
    [0, 0, 0, 99],
  ),
  v(
    "functions that return nothing",
    'return {select("#", print()), select("#", table.insert({}, 1)), select("#", table.sort({}))}',
    [0, 0, 0],
  ),
  v(
    "error with level 2 under pcall",
    'local function f() local ok, m = pcall(error, "m", 2) return m end return f()',
    "input:1: m",
  ),
  v(
    "error with level 2 in a called function",
    'local function g() error("lvl2", 2) end local function h() local ok, m = pcall(g) return m end return h()',
    "lvl2",
  ),
  v(
    "error levels",
    'local function f(l) error("x", l) end return {select(2, pcall(f, 1)), select(2, pcall(f, 2)), select(2, pcall(f, 0)), select(2, pcall(error, "m", 1))}',
    ["input:1: x", "x", "x", "m"],
  ),
  v(
    "math.max and math.min compare without converting",
    'return {select(2, pcall(math.max, 1, "+3")), math.min("0x10"), math.max("a", "b"), math.max(1, 2.5), math.min(3, 1, 2), select(2, pcall(math.max))}',
    ["attempt to compare number with string", "0x10", "b", 2.5, 1, "bad argument #1 to 'math.max' (value expected)"],
  ),
  v(
    "bitwise errors name the operand",
    "local x = 1.5 local t = {a = 2.5} return {select(2, pcall(function() return ~math.pi end)), select(2, pcall(function() return x | 1 end)), select(2, pcall(function() return t.a & 1 end)), select(2, pcall(function() return 1 << 1.5 end))}",
    [
      "input:1: number (field 'pi') has no integer representation",
      "input:1: number (upvalue 'x') has no integer representation",
      "input:1: number (field 'a') has no integer representation",
      "input:1: number has no integer representation",
    ],
  ),
  v(
    "os.date week numbers",
    'return {os.date("!%U %W %V %G %g %j %u %w", 1), os.date("!%U %W %V %G %g", 946684800), os.date("!%U %W %V %G %g", 1104537600), os.date("!%U %W %V %G %g", 1230768000), os.date("!%Z")}',
    ["00 00 01 1970 70 001 4 4", "00 00 52 1999 99", "00 00 53 2004 04", "00 00 01 2009 09", "GMT"],
  ),
  v(
    "os.date modifiers",
    'return os.date("!%Ec|%EC|%Ex|%EX|%Ey|%EY|%Od|%Oe|%OH|%OI|%Om|%OM|%OS|%Ou|%OU|%OV|%Ow|%OW|%Oy", 86400 * 400)',
    "Fri Feb  5 00:00:00 1971|19|02/05/71|00:00:00|71|1971|05| 5|00|12|02|00|00|5|05|05|5|05|71",
  ),
  v(
    "os.date and os.difftime errors",
    'return {select(2, pcall(os.date, "%Ez abc")), select(2, pcall(os.date, "%")), select(2, pcall(os.date, "%d", 1.5)), select(2, pcall(os.difftime, 1)), os.difftime(5, 2)}',
    [
      "bad argument #1 to 'os.date' (invalid conversion specifier '%Ez abc')",
      "bad argument #1 to 'os.date' (invalid conversion specifier '%')",
      "bad argument #2 to 'os.date' (number has no integer representation)",
      "bad argument #2 to 'os.difftime' (number expected, got no value)",
      3,
    ],
  ),
  v(
    "numeric strings in math",
    'return {tostring((~6) % -3.0), tostring(math.abs("0x10")), math.abs(-3), tostring(math.fmod("7", 3)), math.fmod(7, 3), math.tointeger("8")}',
    ["-1.0", "16.0", 3, "1.0", 1, 8],
  ),
  v("next with an invalid key", 'return {pcall(next, {}, "x")}', [false, "invalid key to 'next'"]),
  v("rawlen errors", "return {select(2, pcall(rawlen, 5)), select(2, pcall(rawlen))}", [
    "bad argument #1 to 'rawlen' (table or string expected, got number)",
    "bad argument #1 to 'rawlen' (table or string expected, got no value)",
  ]),
  v(
    "table.remove out of range",
    "return {select(2, pcall(table.remove, {1, 2, 3}, 7)), table.remove({1, 2, 3}, 4), table.remove({}, 0)}",
    ["bad argument #1 to 'table.remove' (position out of bounds)"],
  ),
  v(
    "library errors under pcall name the library",
    'return {select(2, pcall(string.rep)), select(2, pcall(table.insert, nil, 1)), select(2, pcall(math.floor, "a")), select(2, pcall(string.format, "%d", "x"))}',
    [
      "bad argument #1 to 'string.rep' (string expected, got no value)",
      "bad argument #1 to 'table.insert' (table expected, got nil)",
      "bad argument #1 to 'math.floor' (number expected, got string)",
      "bad argument #2 to 'string.format' (number expected, got string)",
    ],
  ),
  v(
    "string.pack and unpack 1",
    'local function hex(s) return (s:gsub(".", function(c) return string.format("%02x", c:byte()) end)) end return {hex(string.pack("i4", 100)), hex(string.pack(">i4", -2)), hex(string.pack("<h", 7)), hex(string.pack("b B", -1, 255))}',
    ["64000000", "fffffffe", "0700", "ffff"],
  ),
  v(
    "string.pack and unpack 2",
    'local function hex(s) return (s:gsub(".", function(c) return string.format("%02x", c:byte()) end)) end return {hex(string.pack("z", "hi")), hex(string.pack("s1", "abc")), hex(string.pack("c5", "ab")), hex(string.pack("!4 b i4", 1, 2))}',
    ["686900", "03616263", "6162000000", "0100000002000000"],
  ),
  v(
    "string.pack and unpack 3",
    'local function hex(s) return (s:gsub(".", function(c) return string.format("%02x", c:byte()) end)) end return {hex(string.pack("d", 1.5)), hex(string.pack(">f", -0.25)), hex(string.pack("n", 1/3)), hex(string.pack("j", math.mininteger))}',
    ["000000000000f83f", "be800000", "555555555555d53f", "0000000000000080"],
  ),
  v(
    "string.pack and unpack 4",
    'local function hex(s) return (s:gsub(".", function(c) return string.format("%02x", c:byte()) end)) end return {hex(string.pack("i16", -3)), hex(string.pack("I16", 3)), hex(string.pack("i3", -8388608)), hex(string.pack("Xi4 b", 1))}',
    ["fdffffffffffffffffffffffffffffff", "03000000000000000000000000000000", "000080", "01"],
  ),
  v(
    "string.pack and unpack 5",
    'local function hex(s) return (s:gsub(".", function(c) return string.format("%02x", c:byte()) end)) end return {string.packsize("i4 i8 !8 d"), string.packsize("b i4"), string.packsize("!b i4"), string.packsize("c10 h"), string.packsize("!4 i2 i8")}',
    [24, 5, 8, 12, 12],
  ),
  v(
    "string.pack and unpack 6",
    'local function hex(s) return (s:gsub(".", function(c) return string.format("%02x", c:byte()) end)) end return {string.unpack("i4", string.pack("i4", 100)), string.unpack(">i2 <i2", string.pack(">i2 <i2", -5, 6))}',
    [100, -5, 6, 5],
  ),
  v(
    "string.pack and unpack 7",
    'local function hex(s) return (s:gsub(".", function(c) return string.format("%02x", c:byte()) end)) end return {string.unpack("z s1 c3", string.pack("z s1 c3", "ab", "cde", "fgh"))}',
    ["ab", "cde", "fgh", 11],
  ),
  v(
    "string.pack and unpack 8",
    'local function hex(s) return (s:gsub(".", function(c) return string.format("%02x", c:byte()) end)) end return {string.unpack("d f n", string.pack("d f n", 1.5, 0.25, 1/3))}',
    [1.5, 0.25, 0.33333333333333331, 21],
  ),
  v(
    "string.pack and unpack 9",
    'local function hex(s) return (s:gsub(".", function(c) return string.format("%02x", c:byte()) end)) end return {string.unpack("i16", string.pack("i16", -3)), string.unpack("I9", string.pack("I9", 300))}',
    [-3, 300, 10],
  ),
  v(
    "string.pack and unpack 10",
    'local function hex(s) return (s:gsub(".", function(c) return string.format("%02x", c:byte()) end)) end return {string.unpack("i4", string.pack("i4 i4", 1, 2), 5)}',
    [2, 9],
  ),
  v(
    "string.pack and unpack 11",
    'local function hex(s) return (s:gsub(".", function(c) return string.format("%02x", c:byte()) end)) end return {string.unpack("b", "\\255", -1)}',
    [-1, 2],
  ),
  v(
    "string.pack errors",
    'local r = {} for _, c in ipairs({ {"i17", 1}, {"i0", 1}, {"q", 1}, {"c", "a"}, {"i1", 200}, {"I1", -1}, {"I1", 256}, {"c2", "abc"}, {"z", "a\\0b"}, {"s1", ("x"):rep(300)}, {"!3 i4", 1}, {"Xc1", 1}, {"X", 1}, {"i4", "x"}, {"i4"} }) do local ok, m = pcall(string.pack, table.unpack(c)) r[#r + 1] = m end return r',
    [
      "integral size (17) out of limits [1,16]",
      "integral size (0) out of limits [1,16]",
      "invalid format option 'q'",
      "missing size for format option 'c'",
      "bad argument #2 to 'string.pack' (integer overflow)",
      "bad argument #2 to 'string.pack' (unsigned overflow)",
      "bad argument #2 to 'string.pack' (unsigned overflow)",
      "bad argument #2 to 'string.pack' (string longer than given size)",
      "bad argument #2 to 'string.pack' (string contains zeros)",
      "bad argument #2 to 'string.pack' (string length does not fit in given size)",
      "bad argument #1 to 'string.pack' (format asks for alignment not power of 2)",
      "bad argument #1 to 'string.pack' (invalid next option for option 'X')",
      "bad argument #1 to 'string.pack' (invalid next option for option 'X')",
      "bad argument #2 to 'string.pack' (number expected, got string)",
      "bad argument #2 to 'string.pack' (number expected, got nil)",
    ],
  ),
  v(
    "string.pack and unpack 12",
    'local function hex(s) return (s:gsub(".", function(c) return string.format("%02x", c:byte()) end)) end return {pcall(string.packsize, "s"), pcall(string.packsize, "z")}',
    [false, false, "bad argument #1 to 'string.packsize' (variable-length format)"],
  ),
  v(
    "string.pack and unpack 13",
    'local function hex(s) return (s:gsub(".", function(c) return string.format("%02x", c:byte()) end)) end return {pcall(string.unpack, "i4", "abc"), pcall(string.unpack, "z", "abc"), pcall(string.unpack, "i4", "abcd", 10)}',
    [false, false, false, "bad argument #3 to 'string.unpack' (initial position out of string)"],
  ),
  v(
    "string.pack and unpack 14",
    'local function hex(s) return (s:gsub(".", function(c) return string.format("%02x", c:byte()) end)) end return {pcall(string.unpack, "i9", string.rep("\\255", 8) .. "\\1"), pcall(string.unpack, "s1", "\\5ab")}',
    [false, false, "bad argument #2 to 'string.unpack' (data string too short)"],
  ),
  v(
    "string.pack and unpack 16",
    'local function hex(s) return (s:gsub(".", function(c) return string.format("%02x", c:byte()) end)) end return {pcall(string.pack, "i4", 1.5), pcall(string.pack, "d", "x"), select("#", string.unpack("i4 i4 i4", string.pack("i4 i4 i4", 1, 2, 3)))}',
    [false, false, 4],
  ),
  v(
    "string.unpack of a float beyond the float range",
    'return tostring((string.unpack("f", string.pack("f", 1e300))))',
    "inf",
  ),
  v(
    "math.floor and math.ceil convert strings to floats",
    'return {math.ceil("400000000000000001"), tostring(math.ceil("9223372036854775807")), math.floor("10"), math.floor("-3.5"), math.ceil("0x10"), tostring(math.floor(3.7))}',
    [400000000000000000, "9.2233720368548e+18", 10, -4, 16, "3"],
  ),
  v(
    "x - 0 is x + 0 as PUC Lua compiles it",
    'local z = -0.0 return {tostring(-0.0 - 0), tostring((-0.0) - 0.0), tostring(z - 0), tostring(z - 0.0), tostring("-0.0" - 0), tostring(z - 1 + 1)}',
    ["0.0", "-0.0", "0.0", "-0.0", "-0.0", "0.0"],
  ),
]
