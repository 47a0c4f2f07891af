/**
 * Programs aimed at how tables are held: record constructors of every size (each size has its own string-keyed part)
 * with nil values and later changes, tables without items that get their first one (the shared empty array part) in
 * every way a program can add it, traversal while fields are cleared, and `table.sort` of uniform arrays (numbers
 * only, strings only: the engine's sort) next to the mixed ones that take Lua's quicksort.
 */
import { e, v, type Case } from "../support/case.js"

/** `{ f1 = 1, ..., fn = n }` */
const record = (n: number, nilAt = 0) =>
  `{ ${Array.from({ length: n }, (_, i) => `f${i + 1} = ${i + 1 === nilAt ? "nil" : i + 1}`).join(", ")} }`

/** Sum of the values and count of the keys of `t`, by `pairs`. */
const census =
  "local function census(t) local s, c = 0, 0 for k, x in pairs(t) do s = s + x c = c + 1 end return s * 100 + c end "

export const tables: ReadonlyArray<Case> = [
  ...Array.from({ length: 10 }, (_, i) => i + 1).map((n) =>
    v(
      `a record of ${n} fields: read, counted, extended, cleared`,
      `${census} local r = ${record(n)} local a = census(r) r.extra = 100 r.f1 = nil local b = census(r) r.f1 = 5 return { a, b, census(r), r.f${n} }`,
      [
        ((n * (n + 1)) / 2) * 100 + n,
        ((n * (n + 1)) / 2 - 1 + 100) * 100 + n,
        ((n * (n + 1)) / 2 + 4 + 100) * 100 + n + 1,
        n === 1 ? 5 : n,
      ],
    ),
  ),
  ...[1, 3, 6, 8, 9].map((n) =>
    v(
      `a record of ${n} names with a nil value leaves that key out`,
      `${census} local r = ${record(n, n)} return { census(r), r.f${n} == nil, next(r, nil) ~= nil or ${n} == 1 }`,
      [(((n - 1) * n) / 2) * 100 + n - 1, true, true],
    ),
  ),
  v(
    "records made by one constructor keep their own fields",
    "local t = {} for i = 1, 20 do t[i] = { id = i, name = 'n' .. i } end t[3].name = nil t[4].extra = true local c = 0 for _, r in ipairs(t) do for _ in pairs(r) do c = c + 1 end end return { c, t[3].name == nil, t[4].extra, t[20].name }",
    [40, true, true, "n20"],
  ),
  v(
    "a record constructor with a call value keeps the first result",
    "local function two() return 1, 2 end local r = { a = two(), b = 3 } return { r.a, r.b, #r }",
    [1, 3, 0],
  ),
  v(
    "a record whose value is nil from a call",
    `${census} local function none() end local r = { a = none(), b = 2, c = none() } return { census(r), r.a == nil }`,
    [201, true],
  ),
  // The first item of a table that has none, in every way: each gets the table its own array part.
  v(
    "the first item of tables without items, added every way",
    "local a, b, c, d, e, f = {}, { x = 1 }, {}, {}, {}, {} a[1] = 'a' b[#b + 1] = 'b' table.insert(c, 'c') table.insert(d, 1, 'd') rawset(e, 1, 'e') f[2] = 'f2' f[1] = 'f1' return { a[1], b[1], c[1], d[1], e[1], #f, f[2], #a + #b + #c + #d + #e }",
    ["a", "b", "c", "d", "e", 2, "f2", 5],
  ),
  v(
    "small arrays grown by appends, then changed in the middle and at the end",
    "local r = {} for n = 1, 6 do local t = {} for i = 1, n do t[#t + 1] = i * 10 end table.insert(t, 1, 0) table.insert(t, 3, 15) t[#t] = nil table.remove(t, 2) r[n] = table.concat(t, ',') end return r",
    ["0", "0,15", "0,15,20", "0,15,20,30", "0,15,20,30,40", "0,15,20,30,40,50"],
  ),
  v(
    "a guarded library table keeps its guard when marked as an array",
    "json.array(os) return select(2, pcall(function() return os.execute end))",
    "input:1: os.execute is not available in this sandbox (no process access)",
    false,
  ),
  v(
    "tables without items stay apart after one gets items",
    "local t = {} for i = 1, 5 do t[i] = {} end t[2][1] = 'x' t[4][3] = 'y' local r = {} for i = 1, 5 do r[i] = #t[i] end return { r, t[1][1] == nil, t[4][3], t[4][1] == nil }",
    [[0, 1, 0, 0, 0], true, "y", true],
  ),
  v(
    "removing from, unpacking, concatenating and moving empty tables",
    "local t = {} local r = table.remove(t) local u = { table.unpack({}) } local m = table.move({}, 1, 0, 1, {}) return { r == nil, #u, table.concat({}, ','), #m, #{ nil }, #{ nil, nil }, select('#', table.unpack({})) }",
    [true, 0, "", 0, 0, 0, 0],
  ),
  v(
    "an array constructor of nils only, then items",
    "local t = { nil, nil } t[1] = 1 t[2] = 2 t[#t + 1] = 3 return t",
    [1, 2, 3],
  ),
  v(
    "ipairs, pairs and next over tables without items",
    "local c = 0 for _ in ipairs({}) do c = c + 1 end for _ in pairs({ a = 1 }) do c = c + 10 end return { c, next({}) == nil, (next({ x = 1 })) }",
    [10, true, "x"],
  ),
  v(
    "clearing every field while traversing with pairs",
    "local t = { a = 1, b = 2, c = 3, d = 4, e = 5, f = 6, g = 7, h = 8, i = 9 } for i = 1, 3 do t[i] = i end local s = 0 for k, x in pairs(t) do s = s + x t[k] = nil end return { s, next(t) == nil }",
    [51, true],
  ),
  v(
    "clearing fields while traversing with next",
    "local t = { a = 1, b = 2, c = 3, d = 4 } local s, k, x = 0, next(t) while k do s = s + x t[k] = nil k, x = next(t, k) end return { s, next(t) == nil }",
    [10, true],
  ),
  // table.sort of uniform arrays (the engine's sort) and of mixed ones (Lua's quicksort).
  v(
    "table.sort of integers and floats",
    "local t = { 3, -1.5, 2 ^ 53, math.huge, -math.huge, 0, 7, 1e300, -2 ^ 63, 2.5, 3 } table.sort(t) local r = {} for i, x in ipairs(t) do r[i] = tostring(x) end return table.concat(r, ' ')",
    "-inf -9.2233720368548e+18 -1.5 0 2.5 3 3 7 9.007199254741e+15 1e+300 inf",
  ),
  v(
    "table.sort of integral floats and integers (equal values of two kinds)",
    "local t = { 2, 1.0, 3, 1, 2.0, 0.5 } table.sort(t) local r = {} for i, x in ipairs(t) do r[i] = x end return { r[1], r[2] == 1, r[4] == 2, r[6] }",
    [0.5, true, true, 3],
  ),
  v(
    "table.sort of big integers beyond 2^53",
    "local t = { math.maxinteger, 1, math.mininteger, (1 << 53) + 1, -5 } table.sort(t) return { t[1] == math.mininteger, t[2], t[3], t[4] == (1 << 53) + 1, t[5] == math.maxinteger }",
    [true, -5, 1, true, true],
  ),
  v(
    "table.sort of strings by bytes",
    "local t = { 'b', 'a\\0b', 'a', '\\255', 'A', '', 'ab', 'a\\0a', 'B' } table.sort(t) local r = {} for i, x in ipairs(t) do r[i] = (x:gsub('%z', '0'):gsub('\\255', 'FF')) end return table.concat(r, ',')",
    ",A,B,a,a0a,a0b,ab,b,FF",
  ),
  v(
    "table.sort of 1000 strings and 1000 numbers agrees with comparisons",
    "local s, n, seed = {}, {}, 9 for i = 1, 1000 do seed = (seed * 16807) % 2147483647 s[i] = tostring(seed % 5000) n[i] = (seed % 2001 - 1000) / 4 end table.sort(s) table.sort(n) local ok = true for i = 2, 1000 do if s[i - 1] > s[i] or n[i - 1] > n[i] then ok = false end end return { ok, #s, #n }",
    [true, 1000, 1000],
  ),
  v(
    "table.sort with a comparator of the same values as an uniform sort",
    "local a, b = {}, {} for i = 1, 300 do a[i] = (i * 7919) % 1000 b[i] = a[i] end table.sort(a) table.sort(b, function(x, y) return x < y end) for i = 1, 300 do if a[i] ~= b[i] then return i end end return 0",
    0,
  ),
  e("table.sort of numbers and strings", "table.sort({ 1, 2, 'x', 3 })", "ExecutionFailure", "attempt to compare"),
  e(
    "table.sort of strings with a hole",
    "table.sort({ 'b', nil, 'a' })",
    "ExecutionFailure",
    "attempt to compare nil with string",
  ),
  e("table.sort of numbers and a table", "table.sort({ 1, {}, 2 })", "ExecutionFailure", "attempt to compare"),
  // Operators that index tables (`t[i % #t + 1]`, `t[h >> 4]`): int32 operands in place, the rest the general way.
  v(
    "%, << and >> of variables across int32, its edges and beyond",
    "local r = {} for _, a in ipairs({ 0, 1, -1, 7, -7, 2147483647, -2147483648, 123456, 2 ^ 40 | 0 }) do for _, b in ipairs({ 0, 1, 3, 21, 22, 31, 32, -1, -3, 63 }) do r[#r + 1] = string.format('%d', a << b) .. ':' .. string.format('%d', a >> b) .. ':' .. (b ~= 0 and tostring(a % b) or 'x') end end local f = 7.5 return { table.concat(r, ' '), 7 % 2.5, f % 2, -7 % 3, 2 << 0, 1.0 >> 1 }",
    [
      "0:0:x 0:0:0 0:0:0 0:0:0 0:0:0 0:0:0 0:0:0 0:0:0 0:0:0 0:0:0 1:1:x 2:0:0 8:0:1 2097152:0:1 4194304:0:1 2147483648:0:1 4294967296:0:1 0:2:0 0:8:-2 -9223372036854775808:0:1 -1:-1:x -2:9223372036854775807:0 -8:2305843009213693951:2 -2097152:8796093022207:20 -4194304:4398046511103:21 -2147483648:8589934591:30 -4294967296:4294967295:31 9223372036854775807:-2:0 2305843009213693951:-8:-1 -9223372036854775808:1:62 7:7:x 14:3:0 56:0:1 14680064:0:7 29360128:0:7 15032385536:0:7 30064771072:0:7 3:14:0 0:56:-2 -9223372036854775808:0:7 -7:-7:x -14:9223372036854775804:0 -56:2305843009213693951:2 -14680064:8796093022207:14 -29360128:4398046511103:15 -15032385536:8589934591:24 -30064771072:4294967295:25 9223372036854775804:-14:0 2305843009213693951:-56:-1 -9223372036854775808:1:56 2147483647:2147483647:x 4294967294:1073741823:0 17179869176:268435455:1 4503599625273344:1023:1 9007199250546688:511:1 4611686016279904256:0:1 9223372032559808512:0:31 1073741823:4294967294:0 268435455:17179869176:-2 -9223372036854775808:0:1 -2147483648:-2147483648:x -4294967296:9223372035781033984:0 -17179869184:2305843008945258496:1 -4503599627370496:8796093021184:19 -9007199254740992:4398046510592:20 -4611686018427387904:8589934591:29 -9223372036854775808:4294967295:0 9223372035781033984:-4294967296:0 2305843008945258496:-17179869184:-2 0:1:61 123456:123456:x 246912:61728:0 987648:15432:0 258905997312:0:18 517811994624:0:14 265119741247488:0:14 530239482494976:0:0 61728:246912:0 15432:987648:0 0:0:39 1099511627776:1099511627776:x 2199023255552:549755813888:0 8796093022208:137438953472:1 2305843009213693952:524288:16 4611686018427387904:262144:12 0:512:1 0:256:0 549755813888:2199023255552:0 137438953472:8796093022208:-2 0:0:16",
      2,
      1.5,
      2,
      2,
      0,
    ],
  ),
  // Equality inline for two plain numbers, the general path for the rest.
  v(
    "== and ~= between integers, floats and other types",
    "local one, onef, nan, big = 1, 1.0, 0 / 0, 2 ^ 53 local t = {} return { one == onef, onef == one, nan == nan, nan ~= nan, big == 2 ^ 53, (2 ^ 53 | 0) == big, one == '1', t == t, t == {}, math.maxinteger == math.maxinteger + 0.0, -0.0 == 0 }",
    [true, true, false, true, true, true, false, true, false, false, true],
  ),
]
