/**
 * Programs that raise and catch errors many times over (long enough for the engine to optimise the paths that
 * raise them): `error` at levels 0, 1 and 2 with strings and tables, `pcall` of `error` itself, errors from a
 * library function's argument check, and the values and positions every one of them gives.
 */
import { v, type Case } from "../support/case.js"

export const raising: ReadonlyArray<Case> = [
  v(
    "errors at every level raised and caught 3,000 times",
    "local function f(i) if i % 3 == 0 then error('zero', 0) elseif i % 3 == 1 then error('one') else error('two', 2) end end local function g(i) f(i) end local seen = {} for i = 1, 3000 do local ok, m = pcall(g, i) local line, text = m:match(':(%d+): (.*)$') seen[(line or '-') .. ' ' .. (text or m)] = (seen[(line or '-') .. ' ' .. (text or m)] or 0) + 1 end local out = {} for k, n in pairs(seen) do out[#out + 1] = k .. ' x' .. n end table.sort(out) return out",
    ["- zero x1000", "1 one x1000", "1 two x1000"],
  ),
  v(
    "tables as error values, pcall of error itself and a bad level, many times",
    "local sum, plain, bad = 0, 0, 0 for i = 1, 2000 do local ok, e = pcall(function() error({ code = i }) end) sum = sum + e.code local ok2, m = pcall(error, 'direct') if m == 'direct' then plain = plain + 1 end local ok3, m3 = pcall(error, 'x', 'level') if m3:find('bad argument #2 to \\'error\\'', 1, true) then bad = bad + 1 end end return { sum, plain, bad }",
    [2001000, 2000, 2000],
  ),
]
