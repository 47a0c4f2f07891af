/**
 * Rendering the type model as model-facing signatures: a TypeScript-like form for JavaScript programs and a
 * Lua-flavoured form for Lua programs, plus the expressions that call a tool by its path.
 */
import type { Property, Type } from "./TypeModel.js"

/** The languages signatures are rendered for. */
export type SignatureLanguage = "javascript" | "lua"

const jsIdentifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/
const luaIdentifier = /^[A-Za-z_][A-Za-z0-9_]*$/
const luaKeywords = new Set(
  "and break do else elseif end false for function goto if in local nil not or repeat return then true until while".split(
    " ",
  ),
)

const isLuaName = (segment: string) => luaIdentifier.test(segment) && !luaKeywords.has(segment)

/** The expression that calls the tool at `path`, e.g. `tools.orders["lookup-by-id"]`. */
export const toolExpression = (path: string, language: SignatureLanguage = "javascript"): string => {
  let out = "tools"
  for (const segment of path.split(".")) {
    const plain = language === "lua" ? isLuaName(segment) : jsIdentifier.test(segment)
    out += plain ? `.${segment}` : `[${JSON.stringify(segment)}]`
  }
  return out
}

interface Dialect {
  readonly any: string
  readonly null: string
  readonly void: string
  readonly integer: string
  readonly separator: string
  readonly comment: (lines: ReadonlyArray<string>, indent: string) => string
  readonly trailingComment: (lines: ReadonlyArray<string>) => string
  readonly key: (name: string) => string
  readonly record: (value: string) => string
  readonly result: (type: string) => string
  readonly call: (expression: string, input: string, output: string) => string
}

const typescript: Dialect = {
  any: "unknown",
  null: "null",
  void: "void",
  integer: "number",
  separator: ";",
  comment: (lines, indent) =>
    lines.length === 0
      ? ""
      : lines.length === 1
        ? `${indent}/** ${lines[0].replace(/\*\//g, "*\\/")} */\n`
        : `${indent}/**\n${lines.map((l) => `${indent} * ${l.replace(/\*\//g, "*\\/")}`).join("\n")}\n${indent} */\n`,
  trailingComment: () => "",
  key: (name) => (jsIdentifier.test(name) ? name : JSON.stringify(name)),
  record: (value) => `Record<string, ${value}>`,
  result: (type) => `Promise<${type}>`,
  call: (expression, input, output) => `${expression}(input: ${input}): ${output}`,
}

const lua: Dialect = {
  any: "any",
  null: "json.null",
  void: "nil",
  integer: "integer",
  separator: ",",
  comment: () => "",
  trailingComment: (lines) => (lines.length ? ` -- ${joinDoc(lines)}` : ""),
  key: (name) => (isLuaName(name) ? name : `[${JSON.stringify(name)}]`),
  record: (value) => `{ [string]: ${value} }`,
  result: (type) => type,
  call: (expression, input, output) => `${expression}(${input}) -> ${output}`,
}

/** Doc lines on one line: sentences keep their punctuation, other lines are separated by semicolons. */
const joinDoc = (lines: ReadonlyArray<string>): string =>
  lines.reduce(
    (text, line) => (text === "" ? line : /[.!?:;]$/.test(text) ? `${text} ${line}` : `${text}; ${line}`),
    "",
  )

/** A property's doc lines; TypeScript has no integer type, so its doc says so. */
const propertyDoc = (p: Property, dialect: Dialect): ReadonlyArray<string> =>
  dialect.integer !== "integer" && p.type.kind === "number" && p.type.integer && p.doc.every((d) => d !== "integer")
    ? [...p.doc, "integer"]
    : p.doc

const render = (type: Type, dialect: Dialect, indent: string): string => {
  switch (type.kind) {
    case "unknown":
      return dialect.any
    case "void":
      return dialect.void
    case "null":
      return dialect.null
    case "boolean":
      return "boolean"
    case "string":
      return "string"
    case "number":
      return type.integer ? dialect.integer : "number"
    case "literal":
      return type.value === null ? dialect.null : JSON.stringify(type.value)
    case "ref":
      return type.name
    case "array": {
      const item = render(type.items, dialect, indent)
      return /[|&]/.test(item) && !/^[{[]/.test(item) ? `(${item})[]` : `${item}[]`
    }
    case "tuple": {
      const items = type.items.map((t) => render(t, dialect, indent))
      if (type.rest) items.push(`...${render(type.rest, dialect, indent)}[]`)
      return `[${items.join(", ")}]`
    }
    case "union":
      return type.members.length === 0 ? "never" : type.members.map((m) => render(m, dialect, indent)).join(" | ")
    case "intersection":
      return type.members.map((m) => render(m, dialect, indent)).join(" & ")
    case "object": {
      if (type.properties.length === 0)
        return type.additional ? dialect.record(render(type.additional, dialect, indent)) : "{}"
      const inner = indent + "  "
      const fields = type.properties.map((p) => {
        const value = render(p.type, dialect, inner)
        return { p, doc: propertyDoc(p, dialect), text: `${dialect.key(p.name)}${p.optional ? "?" : ""}: ${value}` }
      })
      const documented = fields.some((f) => f.doc.length > 0)
      const oneLine = `{ ${fields.map((f) => f.text).join(`${dialect.separator} `)} }`
      if (!documented && oneLine.length <= 72 && !oneLine.includes("\n")) return oneLine
      const lines = fields.map(
        (f) => `${dialect.comment(f.doc, inner)}${inner}${f.text}${dialect.separator}${dialect.trailingComment(f.doc)}`,
      )
      if (type.additional)
        lines.push(`${inner}[key: string]: ${render(type.additional, dialect, inner)}${dialect.separator}`)
      return `{\n${lines.join("\n")}\n${indent}}`
    }
  }
}

/** Render a type in the given language's syntax. */
export const renderType = (type: Type, language: SignatureLanguage): string =>
  render(type, language === "lua" ? lua : typescript, "")

/** Render the call signature of the tool at `path` from its input and output types. */
export const renderSignature = (path: string, input: Type, output: Type, language: SignatureLanguage): string => {
  const dialect = language === "lua" ? lua : typescript
  const inputText = input.kind === "void" ? "{}" : render(input, dialect, "")
  return dialect.call(toolExpression(path, language), inputText, dialect.result(render(output, dialect, "")))
}

/** The JavaScript signature of the built-in `search`. */
export const searchSignature =
  "search(input: { query?: string; namespace?: string; limit?: number; offset?: number }): " +
  "{ items: Array<{ path: string; description: string; signature: string }>; remaining: number; next: number | null }"

/** The Lua signature of the built-in `search`. */
export const luaSearchSignature =
  "search({ query?: string, namespace?: string, limit?: integer, offset?: integer }) -> " +
  "{ items: { path: string, description: string, signature: string }[], remaining: integer, next: integer | json.null }"
