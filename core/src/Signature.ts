/**
 * Rendering the type model as model-facing signatures in a language's dialect, and the expressions that call a tool
 * by its path.
 */
import type { Property, Type } from "./TypeModel.js"

/**
 * How one language writes types and calls: each language package provides its dialect (see its `signature.ts`), so
 * core renders the language-neutral type model without knowing any language's syntax.
 */
export interface Dialect {
  /** The language's name (`lua`, `javascript`). */
  readonly name: string
  /** The signature of the built-in `search`, in this language. */
  readonly searchSignature: string
  /** True when a path segment or key can be written without brackets or quotes. */
  readonly isName: (segment: string) => boolean
  readonly any: string
  readonly null: string
  readonly void: string
  readonly integer: string
  /** Between the fields of an object type. */
  readonly separator: string
  /** Doc lines before a field (empty when the language documents fields with a trailing comment). */
  readonly comment: (lines: ReadonlyArray<string>, indent: string) => string
  /** The doc of a field after it, its lines joined into one (empty when the field has none). */
  readonly trailingComment: (doc: string) => string
  /** A field name as written in an object type. */
  readonly key: (name: string) => string
  /** A record of `value`s keyed by strings. */
  readonly record: (value: string) => string
  /** What a call returns, given its output type (`Promise<…>` in JavaScript). */
  readonly result: (type: string) => string
  /** The whole signature from the call expression, the input type and the result. */
  readonly call: (expression: string, input: string, output: string) => string
}

/** The expression that calls the tool at `path`, e.g. `tools.orders["lookup-by-id"]`. */
export const toolExpression = (path: string, dialect: Dialect): string => {
  let out = "tools"
  for (const segment of path.split(".")) out += dialect.isName(segment) ? `.${segment}` : `[${JSON.stringify(segment)}]`
  return out
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
        (f) =>
          `${dialect.comment(f.doc, inner)}${inner}${f.text}${dialect.separator}${dialect.trailingComment(joinDoc(f.doc))}`,
      )
      if (type.additional)
        lines.push(`${inner}[key: string]: ${render(type.additional, dialect, inner)}${dialect.separator}`)
      return `{\n${lines.join("\n")}\n${indent}}`
    }
  }
}

/** Render a type in `dialect`'s syntax. */
export const renderType = (type: Type, dialect: Dialect): string => render(type, dialect, "")

/** Render the call signature of the tool at `path` from its input and output types. */
export const renderSignature = (path: string, input: Type, output: Type, dialect: Dialect): string => {
  const inputText = input.kind === "void" ? "{}" : render(input, dialect, "")
  return dialect.call(toolExpression(path, dialect), inputText, dialect.result(render(output, dialect, "")))
}
