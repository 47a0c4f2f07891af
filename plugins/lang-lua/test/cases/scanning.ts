/**
 * Text scanned in loops, long enough for the engine to optimise the paths: `gmatch` with no capture, one, several
 * and position captures (and its errors), and `tonumber` of the numerals a parser meets (signs, surrounding
 * whitespace, long digit strings, hexadecimal, floats and things that are no numeral). Expected values are lua5.4's.
 */
import { v, type Case } from "../support/case.js"

export const scanning: ReadonlyArray<Case> = [
  v(
    "gmatch with no capture, one, two and position captures, 500 times",
    "local text = 'k1=v1; key22=value22 ;x=' local n, len, pos = 0, 0, 0 for r = 1, 500 do for w in text:gmatch('%a+') do n = n + 1 len = len + #w end for k, v in text:gmatch('(%w+)=(%w*)') do len = len + #k + #v end for p, c in text:gmatch('()(%d)') do pos = pos + p + c end for w in text:gmatch('(%a)%d') do len = len + #w end end return { n, len, pos }",
    [2500, 16000, 39500],
  ),
  v(
    "gmatch: empty matches, a literal ^, an init, and an iterator called after its end",
    "local out = {} for w in ('a,b,,c'):gmatch('([^,]*)') do out[#out + 1] = '<' .. w .. '>' end for w in ('^a^b'):gmatch('^.') do out[#out + 1] = w end for w in ('hello'):gmatch('l+', 3) do out[#out + 1] = w end local it = ('x1y2'):gmatch('%a(%d)') out[#out + 1] = it() out[#out + 1] = it() out[#out + 1] = tostring((it())) out[#out + 1] = tostring((it())) return table.concat(out, ' ')",
    "<a> <b> <> <c> ^a ^b ll 1 2 nil nil",
  ),
  v(
    "gmatch errors are raised at the step that reaches them, and caught",
    "local msgs = {} for r = 1, 300 do local ok, e = pcall(function() for w in ('abc'):gmatch('(%a') do end end) msgs[e] = true local ok2, e2 = pcall(function() for w in ('abc'):gmatch('%a%') do end end) msgs[e2] = true end local out = {} for m in pairs(msgs) do out[#out + 1] = m end table.sort(out) return out",
    ["input:1: malformed pattern (ends with '%')", "input:1: unfinished capture"],
  ),
  v(
    "tonumber of decimal integers with signs and whitespace, long digit strings and non-numerals, many times",
    "local cases = { '12', '-12', '+12', ' 12 ', '\\t-7\\n', '-0', '000123', '123456789012345', '1234567890123456', '9007199254740993', '-9223372036854775808', '99999999999999999999', '1e3', '1.5', '5.', '.5', '0x10', '', ' ', '-', '+', '1 2', '12a', '- 1', '--1', '\\v5\\f', '5\\0' } local out = {} for r = 1, 200 do for i, c in ipairs(cases) do local n = tonumber(c) out[i] = tostring(n) .. ':' .. tostring(math.type(n)) end end return table.concat(out, ' ')",
    "12:integer -12:integer 12:integer 12:integer -7:integer 0:integer 123:integer 123456789012345:integer 1234567890123456:integer 9007199254740993:integer -9223372036854775808:integer 1e+20:float 1000.0:float 1.5:float 5.0:float 0.5:float 16:integer nil:nil nil:nil nil:nil nil:nil nil:nil nil:nil nil:nil nil:nil 5:integer nil:nil",
  ),
]
