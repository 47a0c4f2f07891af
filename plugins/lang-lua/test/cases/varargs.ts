/**
 * Programs aimed at varargs: calls that pass `...` on (a function, a method, a library function, with and without
 * fixed arguments before it, nils among and after the values, no values at all), `select` at every kind of index,
 * results counted with `select('#', ...)` (a nil result is one result), and the order in which a call evaluates its
 * callee and arguments before the varargs.
 */
import { e, v, type Case } from "../support/case.js"

/** `count(...)`: the number of values, and `list(...)`: the values with nils shown. */
const helpers =
  "local function count(...) return select('#', ...) end local function list(...) local n = select('#', ...) local t = {} for i = 1, n do local x = select(i, ...) t[i] = x == nil and 'nil' or tostring(x) end return table.concat(t, ',') end "

export const varargs: ReadonlyArray<Case> = [
  v(
    "select at every index of five values, negative ones too",
    `${helpers}local function at(i, ...) return list(select(i, ...)) end return { at(1, 'a', 'b', nil, 'd', nil), at(3, 'a', 'b', nil, 'd', nil), at(5, 'a', 'b', nil, 'd', nil), at(6, 'a', 'b', nil, 'd', nil), at(-1, 'a', 'b', nil, 'd', nil), at(-2, 'a', 'b', nil, 'd', nil), at(-5, 'a', 'b', nil, 'd', nil) }`,
    ["a,b,nil,d,nil", "nil,d,nil", "nil", "", "nil", "d,nil", "a,b,nil,d,nil"],
  ),
  v(
    "select's counts: a last nil is one result, past the end is none",
    `${helpers}return { count(select(2, 1, nil)), count(select(3, 1, nil)), count(select(-1, nil)), count(select(1)), select('#'), select('#', nil, nil) }`,
    [1, 0, 1, 0, 0, 2],
  ),
  v(
    "select truncated to one value, and with a float index",
    "local function f(...) return (select(2, ...)), select(2.0, ...) end return { f(10, 20, 30) }",
    [20, 20, 30],
  ),
  e(
    "select past the start with a negative index",
    "local function f(...) return select(-4, ...) end return f(1, 2, 3)",
    "ExecutionFailure",
    "bad argument #1 to 'select' (index out of range)",
    1,
  ),
  e(
    "select of a string that is not a number",
    "return select('x', 1, 2)",
    "ExecutionFailure",
    "bad argument #1 to 'select' (number expected, got string)",
    1,
  ),
  v(
    "varargs passed on with fixed arguments before them, nils kept",
    `${helpers}local function pass(...) return list('x', ...) end local function none(...) return count(...) end return { pass(1, nil, 3, nil), pass(), none(), none(nil), none(nil, nil, nil), count(1, ...) }`,
    ["x,1,nil,3,nil", "x", 0, 1, 3, 1],
  ),
  v(
    "varargs passed on to methods and library functions",
    `${helpers}local o = { tag = 'o' } function o:show(...) return self.tag .. ':' .. list(...) end local function m(...) return o:show(...), o:show('first', ...) end local function lib(...) return string.format('%s-%s', ...), math.max(...), ('ab'):rep(...) end local a, b = m(1, nil) local c, d, e = lib(3, 2) return { a, b, c, d, e }`,
    ["o:1,nil", "o:first,1,nil", "3-2", 3, "ab2ab2ab"],
  ),
  v(
    "a call evaluates the callee and its fixed arguments in order before the varargs",
    "local log = {} local function note(x) log[#log + 1] = x return x end local function get() note('callee') return function(...) return select('#', ...) end end local function f(...) return get()(note(1), note(2), ...) end local n = f('a', 'b') return { n, table.concat(log, ' ') }",
    [4, "callee 1 2"],
  ),
  e(
    "calling a nil global with varargs names it",
    "local function f(...) return missing(1, ...) end return f(2)",
    "ExecutionFailure",
    "attempt to call a nil value (global 'missing')",
    1,
  ),
  e(
    "calling a missing method with varargs names it",
    "local function f(...) local t = {} return t:nothing(...) end return f(2)",
    "ExecutionFailure",
    "attempt to call a nil value (method 'nothing')",
    1,
  ),
  v(
    "table.pack of varargs with trailing nils keeps n",
    "local function p(...) local t = table.pack(...) return t.n, #t, t[1] end return { p(1, nil, nil) }",
    [3, 1, 1],
  ),
]
