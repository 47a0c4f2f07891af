/**
 * Rendering the type model as model-facing signatures in a language's dialect, and the expressions that call a tool
 * by its path. A rendering can be complete, or summarised within bounds (how deep objects go, how many fields and
 * union members show, how much of each doc): search pages show every tool's input completely and summarise large
 * outputs, with a note saying how to get the full signature.
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
  /** A comment on a line of its own (`-- text` in Lua); `// text` when absent. */
  readonly lineComment?: (text: string) => string
  /** A tuple type from its item types; `[A, B]` when absent. */
  readonly tuple?: (items: ReadonlyArray<string>) => string
  /** The index signature of an object with named fields too; `[key: string]: T` when absent. */
  readonly index?: (value: string) => string
  /** How a null result of a call arrives, when not as {@link Dialect.null} (Lua: `nil`; nested nulls stay). */
  readonly resultNull?: string
  /** A named type written after a signature; `type Name = T` when absent. */
  readonly typeDefinition?: (name: string, type: string) => string
}

/** How much of a type a rendering shows; every bound is unlimited when absent. */
export interface Detail {
  /** Objects nested deeper than this (the rendered type itself is depth 0) show as `{ ... }`. */
  readonly depth?: number
  /** Most fields shown per object; the others are elided as `...`. */
  readonly fields?: number
  /** Most members shown per union; the others are elided as `...`. */
  readonly members?: number
  /** Field docs: all of them (default), their first sentence and constraints (`short`), or none. */
  readonly docs?: "all" | "short" | "none"
  /** Longest short doc, in characters (default 100). */
  readonly docChars?: number
  /** Every object on one line (docs are then left out). */
  readonly inline?: boolean
  /** Longest list naming an object's elided fields, in characters (default 160; 0 names none). */
  readonly otherNames?: number
}

/** Everything, with every doc line. */
export const complete: Detail = {}

/** The expression that calls the tool at `path`, e.g. `tools.orders["lookup-by-id"]`. */
export const toolExpression = (path: string, dialect: Dialect): string => {
  let out = "tools"
  for (const segment of path.split(".")) out += dialect.isName(segment) ? `.${segment}` : `[${JSON.stringify(segment)}]`
  return out
}

/** A comment line in `dialect`. */
export const lineComment = (text: string, dialect: Dialect): string =>
  dialect.lineComment ? dialect.lineComment(text) : `// ${text}`

/** Doc lines on one line: sentences keep their punctuation, other lines are separated by semicolons. */
const joinDoc = (lines: ReadonlyArray<string>): string =>
  lines.reduce(
    (text, line) => (text === "" ? line : /[.!?:;]$/.test(text) ? `${text} ${line}` : `${text}; ${line}`),
    "",
  )

/** A property's doc lines; TypeScript has no integer type, so its doc says so. */
const propertyDoc = (p: Property, dialect: Dialect): ReadonlyArray<string> =>
  dialect.integer !== "integer" && isInteger(p.type) && p.doc.every((d) => d !== "integer")
    ? [...p.doc, "integer"]
    : p.doc

/** An integer, or a union of integers and null (`integer | null`). */
const isInteger = (type: Type): boolean =>
  type.kind === "number"
    ? type.integer
    : type.kind === "union" &&
      type.members.some((m) => m.kind === "number") &&
      type.members.every((m) => (m.kind === "number" && m.integer) || m.kind === "null")

const constraint =
  /^(format|minimum|maximum|exclusiveMinimum|exclusiveMaximum|multipleOf|minLength|maxLength|minItems|maxItems|uniqueItems|minProperties|maxProperties|default|deprecated|integer)\b/

/** The first sentence of a text (up to `. `, `! ` or `? ` followed by a capital or the end). */
const firstSentence = (text: string): string => {
  for (let i = 0; i < text.length - 1; i++) {
    const c = text[i]
    if ((c === "." || c === "!" || c === "?") && text[i + 1] === " ") return text.slice(0, i + 1)
  }
  return text
}

const cut = (text: string, max: number): string => {
  if (text.length <= max) return text
  const space = text.lastIndexOf(" ", max - 1)
  return `${text.slice(0, space > max / 2 ? space : max - 1)}…`
}

/** What one rendering is doing: its bounds, and whether anything was left out. */
interface Pass {
  readonly dialect: Dialect
  readonly detail: Detail
  elided: boolean
  /** Named types written once after the signature and by name where they occur: schema name → written name. */
  readonly named?: ReadonlyMap<string, string>
}

/** True when `type` is written by its name in this pass. */
const byName = (type: Type, pass: Pass) => type.refName !== undefined && pass.named?.has(type.refName) === true

const docLines = (lines: ReadonlyArray<string>, pass: Pass): ReadonlyArray<string> => {
  const mode = pass.detail.docs ?? "all"
  if (mode === "all" || lines.length === 0) return lines
  pass.elided = true
  if (mode === "none") return []
  const description = lines.filter((l) => !constraint.test(l))
  const constraints = lines.filter((l) => constraint.test(l))
  const text = joinDoc([...(description.length ? [firstSentence(description[0])] : []), ...constraints])
  const short = cut(text, pass.detail.docChars ?? 100)
  if (short === joinDoc(lines)) pass.elided = false
  return short ? [short] : []
}

/** True when a type written inside `T[]` or an intersection needs parentheses. */
const isCompound = (type: Type, pass: Pass) =>
  !byName(type, pass) && ((type.kind === "union" && type.members.length > 1) || type.kind === "intersection")

const elision = "..."

/** The longest list of elided field names, in characters, unless a detail says otherwise. */
const defaultOtherNames = 160

const render = (type: Type, pass: Pass, indent: string, depth: number): string =>
  byName(type, pass) ? pass.named!.get(type.refName!)! : renderBody(type, pass, indent, depth)

/** A type written out, even when it has a name. */
const renderBody = (type: Type, pass: Pass, indent: string, depth: number): string => {
  const { dialect, detail } = pass
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
      return pass.named?.get(type.name) ?? type.name
    case "array": {
      const item = render(type.items, pass, indent, depth)
      return isCompound(type.items, pass) ? `(${item})[]` : `${item}[]`
    }
    case "tuple": {
      const items = type.items.map((t) => render(t, pass, indent, depth))
      if (type.rest) {
        const rest = render(type.rest, pass, indent, depth)
        items.push(`...${isCompound(type.rest, pass) ? `(${rest})` : rest}[]`)
      }
      return dialect.tuple ? dialect.tuple(items) : `[${items.join(", ")}]`
    }
    case "union": {
      if (type.members.length === 0) return "never"
      const max = detail.members ?? Infinity
      const shown = type.members.slice(0, max).map((m) => render(m, pass, indent, depth))
      if (type.members.length > max) {
        pass.elided = true
        shown.push(elision)
      }
      return shown.join(" | ")
    }
    case "intersection":
      return type.members
        .map((m) => {
          const text = render(m, pass, indent, depth)
          return m.kind === "union" && m.members.length > 1 && !byName(m, pass) ? `(${text})` : text
        })
        .join(" & ")
    case "object":
      return renderObject(type, pass, indent, depth)
  }
}

const renderObject = (type: Extract<Type, { kind: "object" }>, pass: Pass, indent: string, depth: number): string => {
  const { dialect, detail } = pass
  if (type.properties.length === 0)
    return type.additional ? dialect.record(render(type.additional, pass, indent, depth + 1)) : "{}"
  if (depth >= (detail.depth ?? Infinity)) {
    pass.elided = true
    return `{ ${elision} }`
  }
  const inner = indent + "  "
  const max = detail.fields ?? Infinity
  const fields = type.properties.slice(0, max).map((p) => {
    const value = render(p.type, pass, inner, depth + 1)
    return {
      doc: docLines(propertyDoc(p, dialect), pass),
      text: `${dialect.key(p.name)}${p.optional ? "?" : ""}: ${value}`,
    }
  })
  const more = type.properties.length > max
  if (more) pass.elided = true
  const additional = type.additional ? render(type.additional, pass, inner, depth + 1) : undefined
  const index =
    additional === undefined ? undefined : dialect.index ? dialect.index(additional) : `[key: string]: ${additional}`
  // Elided fields are still named, so a reader knows they exist.
  const names = detail.otherNames ?? defaultOtherNames
  const others = !more
    ? undefined
    : names === 0
      ? elision
      : `${elision} (also ${cut(
          type.properties
            .slice(max)
            .map((p) => p.name)
            .join(", "),
          names,
        )})`
  const tail = [...(index ? [index] : []), ...(others ? [others] : [])]
  const documented = fields.some((f) => f.doc.length > 0)
  const oneLine = `{ ${[...fields.map((f) => f.text), ...tail].join(`${dialect.separator} `)} }`
  if (detail.inline) return oneLine
  if (!documented && oneLine.length <= 72 && !oneLine.includes("\n")) return oneLine
  const lines = fields.map(
    (f) =>
      `${dialect.comment(f.doc, inner)}${inner}${f.text}${dialect.separator}${dialect.trailingComment(joinDoc(f.doc))}`,
  )
  for (const line of tail) lines.push(`${inner}${line}${line === others ? "" : dialect.separator}`)
  return `{\n${lines.join("\n")}\n${indent}}`
}

/** Render a type in `dialect`'s syntax, completely or within `detail`'s bounds. */
export const renderType = (type: Type, dialect: Dialect, detail: Detail = complete): string =>
  render(type, { dialect, detail, elided: false }, "", 0)

/** How a signature's input and output are rendered. */
export interface SignatureDetail {
  readonly input?: Detail
  readonly output?: Detail
  /**
   * Write a named output type (a schema the document refers to by name) that occurs more than once, or in a cycle,
   * once after the signature and by its name where it occurs (default: true when the output has no bounds).
   */
  readonly named?: boolean
}

/** Children of a type, for walks. */
const children = (type: Type): ReadonlyArray<Type> => {
  switch (type.kind) {
    case "array":
      return [type.items]
    case "tuple":
      return type.rest ? [...type.items, type.rest] : type.items
    case "union":
    case "intersection":
      return type.members
    case "object":
      return type.additional
        ? [...type.properties.map((p) => p.type), type.additional]
        : type.properties.map((p) => p.type)
    default:
      return []
  }
}

/** A schema name as a type name: `simple-user` → `SimpleUser`. */
const typeName = (name: string): string => {
  const words = name.split(/[^A-Za-z0-9]+/).filter((w) => w !== "")
  const joined = words.map((w) => w[0].toUpperCase() + w.slice(1)).join("")
  return /^[A-Za-z_]/.test(joined) ? joined : `T${joined}`
}

/** Named types worth writing once: the most fields an inline object may have and still be repeated. */
const inlineFields = 2

/**
 * The named types of `type` that are written once: those that occur more than once (objects with more than
 * {@link inlineFields} fields, unions) and those a cycle refers to, in order of first occurrence, with their types
 * and written names.
 */
const namedTypes = (type: Type): Array<{ name: string; written: string; type: Type }> => {
  const found = new Map<string, { type: Type; count: number }>()
  const cyclic = new Set<string>()
  const visit = (t: Type) => {
    if (t.kind === "ref") cyclic.add(t.name)
    if (t.refName !== undefined) {
      const seen = found.get(t.refName)
      if (seen) {
        seen.count++
        return
      }
      found.set(t.refName, { type: t, count: 1 })
    }
    for (const child of children(t)) visit(child)
  }
  visit(type)
  const out: Array<{ name: string; written: string; type: Type }> = []
  const taken = new Set<string>()
  for (const [name, { type: t, count }] of found) {
    const repeated = count > 1 && (t.kind === "union" || (t.kind === "object" && t.properties.length > inlineFields))
    if (!repeated && !cyclic.has(name)) continue
    let written = typeName(name)
    for (let n = 2; taken.has(written); n++) written = `${typeName(name)}${n}`
    taken.add(written)
    out.push({ name, written, type: t })
  }
  return out
}

/** A rendered signature, and whether any part of it was left out. */
export interface Rendered {
  readonly text: string
  readonly elided: boolean
}

/** Render the call signature of the tool at `path`, within `detail` (complete by default). */
export const renderDetailed = (
  path: string,
  input: Type,
  output: Type,
  dialect: Dialect,
  detail: SignatureDetail = {},
): Rendered => {
  const pass: Pass = { dialect, detail: detail.input ?? complete, elided: false }
  const inputText = input.kind === "void" ? "{}" : render(input, pass, "", 0)
  const outputDetail = detail.output ?? complete
  const named = (detail.named ?? Object.keys(outputDetail).length === 0) ? namedTypes(output) : []
  const outputPass: Pass = {
    dialect,
    detail: outputDetail,
    elided: false,
    ...(named.length ? { named: new Map(named.map((n) => [n.name, n.written])) } : {}),
  }
  const outputText = renderResult(output, outputPass)
  const define = dialect.typeDefinition ?? ((name: string, body: string) => `type ${name} = ${body}`)
  const definitions = named.map((n) => define(n.written, renderBody(n.type, outputPass, "", 0)))
  const call = dialect.call(toolExpression(path, dialect), inputText, dialect.result(outputText))
  return {
    text: [call, ...definitions].join("\n"),
    elided: pass.elided || outputPass.elided,
  }
}

/** A call's output type: a null at its top arrives as the dialect's `resultNull`. */
const renderResult = (output: Type, pass: Pass): string => {
  const resultNull = pass.dialect.resultNull
  if (resultNull === undefined) return render(output, pass, "", 0)
  const isNull = (t: Type) => t.kind === "null" || (t.kind === "literal" && t.value === null)
  if (isNull(output)) return resultNull
  if (output.kind === "union" && output.members.some(isNull)) {
    const rest = output.members.filter((m) => !isNull(m))
    const restText = render(rest.length === 1 ? rest[0] : { ...output, members: rest }, pass, "", 0)
    return `${restText} | ${resultNull}`
  }
  return render(output, pass, "", 0)
}

/** Render the complete call signature of the tool at `path` from its input and output types. */
export const renderSignature = (path: string, input: Type, output: Type, dialect: Dialect): string =>
  renderDetailed(path, input, output, dialect).text

/**
 * What a search page tries, most detailed first: the complete signature; then every input field with a short doc and
 * the output ever shallower; then input docs dropped too.
 */
const attempts: ReadonlyArray<SignatureDetail> = [
  {},
  { input: { docs: "short" }, output: { docs: "none" }, named: true },
  { input: { docs: "short" }, output: { docs: "none", depth: 3, fields: 16, members: 4 } },
  { input: { docs: "short" }, output: { docs: "none", depth: 2, fields: 12, members: 3 } },
  { input: { docs: "short" }, output: { docs: "none", depth: 1, fields: 12, members: 3 } },
  { input: { docs: "short", docChars: 60 }, output: { docs: "none", depth: 1, fields: 8, members: 2 } },
  { input: { docs: "none" }, output: { docs: "none", depth: 0 } },
]

/**
 * The signature a search page shows: the complete signature when it has at most `maxChars` characters, otherwise
 * the first summary that fits (the input complete, the output summarised) followed by a note that `search` with the
 * exact path gives the full signature. A summary that still does not fit is cut at `maxChars`.
 */
export const renderSummary = (path: string, input: Type, output: Type, dialect: Dialect, maxChars: number): string => {
  const note = lineComment(`summarised: search(${JSON.stringify(path)}) gives the full signature`, dialect)
  let last = ""
  for (const detail of attempts) {
    const rendered = renderDetailed(path, input, output, dialect, detail)
    if (rendered.text.length <= maxChars) return rendered.elided ? `${rendered.text}\n${note}` : rendered.text
    last = rendered.text
  }
  return `${cut(last, maxChars)}\n${note}`
}

/** The bounds of a brief signature: input fields without docs, the output one level deep. */
const brief: SignatureDetail = {
  input: { docs: "none", inline: true },
  output: { docs: "none", depth: 1, fields: 8, members: 2, inline: true, otherNames: 0 },
}

/** A one-look signature for a prompt (see `brief`), or undefined when it is longer than `maxChars`. */
export const renderBrief = (
  path: string,
  input: Type,
  output: Type,
  dialect: Dialect,
  maxChars: number,
): string | undefined => {
  const text = renderDetailed(path, input, output, dialect, brief).text
  return text.length <= maxChars ? text : undefined
}
