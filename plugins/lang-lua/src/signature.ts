/**
 * How Lua programs see tool signatures: `tools.orders.lookup({ id: string }) -> { status: string }`, with
 * `json.null` for JSON null, `integer` for integral numbers and `-- doc` comments after fields.
 */
import type { Signature } from "@codemode/core/plugin"

const identifier = /^[A-Za-z_][A-Za-z0-9_]*$/
const keywords = new Set(
  "and break do else elseif end false for function goto if in local nil not or repeat return then true until while".split(
    " ",
  ),
)

/** True when `segment` is a Lua name (so `tools.a.b` needs no brackets). */
const isName = (segment: string): boolean => identifier.test(segment) && !keywords.has(segment)

/** The Lua dialect of signatures. */
export const dialect: Signature.Dialect = {
  name: "lua",
  searchSignature:
    "search(query: string | { query?: string, namespace?: string, limit?: integer, offset?: integer }) -> " +
    "{ items: { path: string, description: string, signature: string }[], remaining: integer, " +
    "next: { offset: integer } | json.null }",
  isName,
  any: "any",
  null: "json.null",
  void: "nil",
  integer: "integer",
  separator: ",",
  comment: () => "",
  trailingComment: (doc) => (doc ? ` -- ${doc}` : ""),
  key: (name) => (isName(name) ? name : `[${JSON.stringify(name)}]`),
  record: (value) => `{ [string]: ${value} }`,
  result: (type) => type,
  call: (expression, input, output) => `${expression}(${input}) -> ${output}`,
  lineComment: (text) => `-- ${text}`,
  tuple: (items) => `{ ${items.join(", ")} }`,
  index: (value) => `[string]: ${value}`,
  // A tool's null result arrives as nil; nulls inside tables arrive as json.null.
  resultNull: "nil",
  typeDefinition: (name, type) => `${name} = ${type}`,
}
