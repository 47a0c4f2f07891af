/**
 * `table.concat` over every kind of range and item: only strings (joined in place), strings with numbers after
 * them (integers, floats, integral floats), a nil or a table among them (the error names the first bad index, after
 * the strings before it), ranges inside the array part, ranges past it, and empty ranges.
 */
import { e, v, type Case } from "../support/case.js"

export const joining: ReadonlyArray<Case> = [
  v(
    "strings joined whole, in part, with and without a separator",
    "local t = {} for i = 1, 200 do t[i] = 'w' .. i end local all = table.concat(t, ',') local part = table.concat(t, '-', 5, 9) return { #all, all:sub(1, 12), part, table.concat(t, '', 199), table.concat(t, ', ', 3, 3), table.concat(t, ',', 10, 9), table.concat({}, 'x') }",
    [891, "w1,w2,w3,w4,", "w5-w6-w7-w8-w9", "w199w200", "w3", "", ""],
  ),
  v(
    "strings followed by numbers of every kind",
    "local t = {'a', 'b', 3, 2.5, 4.0, -0.0, math.maxinteger, 'z'} return { table.concat(t, ' '), table.concat(t, '', 1, 2), table.concat(t, '|', 2, 5) }",
    ["a b 3 2.5 4.0 -0.0 9223372036854775807 z", "ab", "b|3|2.5|4.0"],
  ),
  e(
    "a nil among strings is named by its index",
    "local t = {'a', 'b', 'c'} t[2] = nil return table.concat(t, ',', 1, 3)",
    "ExecutionFailure",
    "invalid value (nil) at index 2 in table for 'concat'",
    1,
  ),
  e(
    "a table after strings is named by its index",
    "local t = {} for i = 1, 50 do t[i] = 'x' end t[40] = {} return table.concat(t)",
    "ExecutionFailure",
    "invalid value (table) at index 40 in table for 'concat'",
    1,
  ),
  e(
    "a range past the array part",
    "local t = {'a', 'b'} return table.concat(t, ',', 1, 4)",
    "ExecutionFailure",
    "invalid value (nil) at index 3 in table for 'concat'",
    1,
  ),
]
