/** Lua string library internals: patterns, `string.format` and float formatting. */
export {
  type Capture,
  type FindResult,
  type IntegerArg,
  type PatternMeter,
  type Replacement,
  MAX_PATTERN_LENGTH,
  PatternError,
  find,
  GmatchState,
  gmatch,
  gsub,
  match,
} from "./pattern.js"
export { type FormatAdapter, type LuaNumberValue, FormatError, forgetFormats, format } from "./format.js"
export { type FloatSpec, formatFloat, formatFloat14g, formatNumber14g } from "./numfmt.js"
