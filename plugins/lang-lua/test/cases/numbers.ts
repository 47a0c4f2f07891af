/** Lua 5.4 numbers: integer and float subtypes, wrap-around, formatting, conversions. */
import { e, v, type Case } from "../support/case.js"

export const numbers: ReadonlyArray<Case> = [
  v(
    "math.type of integers and floats",
    "return {math.type(1), math.type(1.0), math.type(2^53), math.type(10 // 3), math.type(10 / 2), tostring(math.type('1'))}",
    ["integer", "float", "float", "integer", "float", "nil"],
  ),
  v(
    "tostring of integral floats",
    "return {tostring(10 / 2), tostring(1e15), tostring(-0.0), tostring(100 * 1.0), tostring(3.0)}",
    ["5.0", "1e+15", "-0.0", "100.0", "3.0"],
  ),
  v(
    "tostring of floats uses %.14g",
    "return {tostring(0.1), tostring(1 / 3), tostring(2^53), tostring(2^63), tostring(1e100), tostring(123456.789)}",
    ["0.1", "0.33333333333333", "9.007199254741e+15", "9.2233720368548e+18", "1e+100", "123456.789"],
  ),
  v("tostring of special floats", "return {tostring(1/0), tostring(-1/0), tostring(math.huge)}", [
    "inf",
    "-inf",
    "inf",
  ]),
  v("nan is not equal to itself", "local n = 0/0 return {n ~= n, n == n}", [true, false]),
  v("integer wrap-around", "return {math.maxinteger + 1 == math.mininteger, math.mininteger - 1 == math.maxinteger}", [
    true,
    true,
  ]),
  v("integer overflow in multiplication wraps", "return tostring(math.maxinteger * 2)", "-2"),
  v("negating mininteger wraps", "return -math.mininteger == math.mininteger", true),
  v("mininteger // -1 wraps", "return math.mininteger // -1 == math.mininteger", true),
  v("mininteger % -1 is zero", "return math.mininteger % -1", 0),
  v(
    "large integer literals",
    "return {tostring(9007199254740993), tostring(0x7fffffffffffffff), tostring(0xffffffffffffffff)}",
    ["9007199254740993", "9223372036854775807", "-1"],
  ),
  v(
    "decimal literal beyond 64 bits is a float",
    "return {math.type(9223372036854775808), tostring(9223372036854775808)}",
    ["float", "9.2233720368548e+18"],
  ),
  v("hex literals", "return {0xff, 0x10, 0XA}", [255, 16, 10]),
  v("hex float literal", "return 0x1p4", 16),
  v("exponent literals are floats", "return {math.type(1e2), tostring(1e2), tostring(2E-1)}", [
    "float",
    "100.0",
    "0.2",
  ]),
  v(
    "integer arithmetic beyond 2^53 is exact",
    "return {tostring(9007199254740992 + 1), tostring(2^53 // 1 | 0 + 1), tostring(123456789 * 987654321)}",
    ["9007199254740993", "9007199254740993", "121932631112635269"],
  ),
  v("64-bit products wrap exactly", "return {tostring(3037000500 * 3037000500), tostring(4611686018427387904 * 2)}", [
    "-9223372036709301616",
    "-9223372036854775808",
  ]),
  v(
    "LCG with float modulo matches Lua",
    "local s = 42 local out = {} for i = 1, 5 do s = (s * 1103515245 + 12345) % 2^31 out[i] = tostring(s) end return out",
    ["1250496027.0", "1116302080.0", "1964818176.0", "1500480256.0", "1617229568.0"],
  ),
  v(
    "LCG with integer modulo matches Lua",
    "local s = 42 local out = {} for i = 1, 5 do s = (s * 1103515245 + 12345) % 2147483648 out[i] = s end return out",
    [1250496027, 1116302264, 1000676753, 1668674806, 908095735],
  ),
  v(
    "djb2 hash with masking",
    "local h = 5381 for c in ('hello world'):gmatch('.') do h = (h * 33 + c:byte()) & 0xffffffff end return h",
    894552257,
  ),
  v(
    "polynomial hash wraps at 64 bits",
    "local h = 0 for i = 1, 100 do h = h * 31 + i end return tostring(h)",
    "-5745203550453931406",
  ),
  v("float division by zero", "return {tostring(1 / 0), tostring(-1 / 0), tostring(5 // 0.0), tostring(-5 // 0.0)}", [
    "inf",
    "-inf",
    "inf",
    "-inf",
  ]),
  e("integer division by zero", "return 1 // 0", "ExecutionFailure", "attempt to divide by zero", 1),
  e("integer modulo by zero", "local a, b = 1, 0 return a % b", "ExecutionFailure", "attempt to perform 'n%0'", 1),
  v("float modulo by zero is nan", "return tostring(1 % 0.0):find('nan') ~= nil", true),
  v("modulo with infinity", "return {5 % math.huge, tostring(-5 % math.huge)}", [5, "inf"]),
  v(
    "math.tointeger",
    "return {math.tointeger(3.0), tostring(math.tointeger(3.5)), math.tointeger('8'), tostring(math.tointeger(2^63)), math.tointeger(-2^63) == math.mininteger}",
    [3, "nil", 8, "nil", true],
  ),
  v("float to integer keys", "local t = {} t[1.0] = 'a' t[2] = 'b' return {t[1], t[2.0], #t}", ["a", "b", 2]),
  v("2^53 as a table key", "local t = {} t[2^53] = 'x' return t[9007199254740992]", "x"),
  v(
    "tonumber of strings",
    "return {tonumber('10'), tonumber('  10  '), tonumber('0x10'), tonumber('1e2'), tonumber('.5'), tonumber('5.'), tonumber('-0x10')}",
    [10, 10, 16, 100, 0.5, 5, -16],
  ),
  v(
    "tonumber failures",
    "return {tostring(tonumber('10a')), tostring(tonumber('')), tostring(tonumber('1e')), tostring(tonumber('inf')), tostring(tonumber('nan')), tostring(tonumber('0x'))}",
    ["nil", "nil", "nil", "nil", "nil", "nil"],
  ),
  v("tonumber of a number", "return {tonumber(5), tostring(tonumber(5.0))}", [5, "5.0"]),
  v("tonumber of non-strings is nil", "return {tostring(tonumber({})), tostring(tonumber(nil))}", ["nil", "nil"]),
  v(
    "tonumber with a base",
    "return {tonumber('ff', 16), tonumber('zz', 36), tonumber('777', 8), tonumber('-101', 2), tonumber('  11  ', 2), tostring(tonumber('12', 2))}",
    [255, 1295, 511, -5, 3, "nil"],
  ),
  v(
    "tonumber of huge decimal strings",
    "return {tostring(tonumber('9223372036854775807')), math.type(tonumber('9223372036854775808'))}",
    ["9223372036854775807", "float"],
  ),
  v("tonumber of hex wraps", "return tostring(tonumber('0xffffffffffffffff'))", "-1"),
  v("integer conversion in string.format", "return string.format('%d', 3.0)", "3"),
  e(
    "float without integer value in %d",
    "return string.format('%d', 3.5)",
    "ExecutionFailure",
    "bad argument #2 to 'format' (number has no integer representation)",
    1,
  ),
  v("integer and float results are JSON numbers", "return {3, 3.0, 2^53, 0.5}", [3, 3, 9007199254740992, 0.5]),
  v(
    "floor and ceil give integers",
    "return {math.floor(3.7), math.ceil(3.2), math.floor(-3.5), math.ceil(-0.5), math.type(math.floor(2.5))}",
    [3, 4, -4, 0, "integer"],
  ),
  v("floor of a huge float stays a float", "return {tostring(math.floor(2^70)), math.type(math.floor(2^70))}", [
    "1.1805916207174e+21",
    "float",
  ]),
  v("comparison chains with mixed subtypes", "return {1 < 1.5, 2 > 1.999, 3 == 3.0, math.maxinteger < math.huge}", [
    true,
    true,
    true,
    true,
  ]),
]
