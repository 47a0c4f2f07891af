/**
 * The language-neutral type model behind every signature.
 *
 * Built from JSON Schema (Effect Schemas are first converted with `Schema.toJsonSchemaDocument`), it keeps what a
 * model needs to call a tool well: shapes, literal values, optionality, nullability, and doc lines from
 * descriptions and constraints. Each language renders it in its own syntax.
 */
import { Schema, SchemaRepresentation } from "effect"

/** A property of an object type. */
export interface Property {
  readonly name: string
  readonly type: Type
  readonly optional: boolean
  readonly readOnly: boolean
  readonly writeOnly: boolean
  /** Doc lines: the description, then constraints such as `minimum: 0`. */
  readonly doc: ReadonlyArray<string>
}

/** A type in the model. `doc` holds the description and constraints of the node itself. */
export type Type = (
  | { readonly kind: "unknown" }
  | { readonly kind: "void" }
  | { readonly kind: "null" }
  | { readonly kind: "boolean" }
  | { readonly kind: "number"; readonly integer: boolean }
  | { readonly kind: "string" }
  | { readonly kind: "literal"; readonly value: string | number | boolean | null }
  | { readonly kind: "array"; readonly items: Type }
  | { readonly kind: "tuple"; readonly items: ReadonlyArray<Type>; readonly rest?: Type }
  | { readonly kind: "object"; readonly properties: ReadonlyArray<Property>; readonly additional?: Type }
  | { readonly kind: "union"; readonly members: ReadonlyArray<Type> }
  | { readonly kind: "intersection"; readonly members: ReadonlyArray<Type> }
  | { readonly kind: "ref"; readonly name: string }
) & {
  readonly doc?: ReadonlyArray<string>
  /** The name of the schema this type was resolved from (the last segment of its `$ref`), if any. */
  readonly refName?: string
}

/** A JSON Schema document or fragment, as the model reads it. */
export type JsonSchema = boolean | { readonly [key: string]: unknown }

const unknownType: Type = { kind: "unknown" }

/** True when `value` is an Effect Schema (as opposed to a JSON Schema object). */
export const isEffectSchema = (value: unknown): value is Schema.Top => Schema.isSchema(value)

/**
 * Remove `undefined` from a schema representation: a union loses its `Undefined` members, any other `Undefined`
 * becomes `Never`. Data crossing from a program has no `undefined` (an absent key is what optional means), and JSON
 * Schema would otherwise show it as `null`, which the schema refuses. Annotations are left as they are; shared and
 * cyclic nodes stay shared.
 */
const withoutUndefined = <A>(root: A): A => {
  const copies = new Map<object, unknown>()
  const isPlain = (value: unknown): value is Record<string, unknown> => {
    if (typeof value !== "object" || value === null) return false
    const proto = Object.getPrototypeOf(value)
    return proto === Object.prototype || proto === null
  }
  const isUndefined = (node: unknown) => isPlain(node) && node._tag === "Undefined"
  const copy = (node: unknown): unknown => {
    if (Array.isArray(node)) {
      const cached = copies.get(node)
      if (cached) return cached
      const out: unknown[] = []
      copies.set(node, out)
      for (const item of node) out.push(copy(item))
      return out
    }
    if (!isPlain(node)) return node
    const cached = copies.get(node)
    if (cached) return cached
    const out: Record<string, unknown> = {}
    copies.set(node, out)
    for (const key of Object.keys(node)) out[key] = key === "annotations" ? node[key] : copy(node[key])
    if (out._tag === "Undefined") out._tag = "Never"
    if (out._tag === "Union" && Array.isArray(node.types) && node.types.some(isUndefined)) {
      const kept = (out.types as unknown[]).filter((_, i) => !isUndefined((node.types as unknown[])[i]))
      if (kept.length > 0) out.types = kept
    }
    return out
  }
  return copy(root) as A
}

/**
 * Convert an Effect Schema to a self-contained JSON Schema (definitions under `$defs`) of what the schema decodes:
 * its encoded side, as a tool's input is decoded, without `undefined` (see {@link withoutUndefined}).
 */
export const effectToJsonSchema = (schema: Schema.Top): JsonSchema => {
  const document = SchemaRepresentation.toJsonSchemaDocument(
    withoutUndefined(SchemaRepresentation.toRepresentation(schema.ast)),
  )
  const definitions = document.definitions as Record<string, unknown>
  const root = document.schema as Record<string, unknown>
  if (!definitions || Object.keys(definitions).length === 0) return root
  return { ...root, $defs: definitions }
}

const constraintKeys: ReadonlyArray<string> = [
  "format",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "pattern",
  "minItems",
  "maxItems",
  "uniqueItems",
  "minProperties",
  "maxProperties",
  "default",
  "deprecated",
]

/** Number limits Effect adds to every integer; they say nothing to a reader. */
const isSafeIntegerBound = (key: string, value: unknown) =>
  (key === "minimum" && value === Number.MIN_SAFE_INTEGER) || (key === "maximum" && value === Number.MAX_SAFE_INTEGER)

const docOf = (schema: Record<string, unknown>): ReadonlyArray<string> => {
  const lines: string[] = []
  const title = typeof schema.title === "string" ? schema.title.trim() : ""
  const description = typeof schema.description === "string" ? schema.description.trim() : ""
  if (description) lines.push(...description.split(/\r?\n/).map((line) => line.trimEnd()))
  else if (title) lines.push(title)
  for (const key of constraintKeys) {
    if (!(key in schema) || isSafeIntegerBound(key, schema[key])) continue
    const value = schema[key]
    if (key === "deprecated") {
      if (value === true) lines.push("deprecated")
      continue
    }
    lines.push(`${key}: ${typeof value === "string" ? value : JSON.stringify(value)}`)
  }
  return lines
}

const withDoc = (type: Type, doc: ReadonlyArray<string>): Type => (doc.length === 0 ? type : { ...type, doc })

const isObjectSchema = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** Effect encodes non-finite numbers as a string alternative; a reader only needs `number`. */
const isNonFiniteAlternative = (member: unknown) =>
  isObjectSchema(member) &&
  member.type === "string" &&
  Array.isArray(member.enum) &&
  member.enum.every((v) => v === "Infinity" || v === "-Infinity" || v === "NaN")

const literalType = (value: unknown): Type =>
  value === null || typeof value === "string" || typeof value === "number" || typeof value === "boolean"
    ? { kind: "literal", value }
    : unknownType

const isNever = (type: Type) => type.kind === "union" && type.members.length === 0

const unionOf = (members: ReadonlyArray<Type>): Type => {
  const flat: Type[] = []
  for (const member of members) {
    if (member.kind === "union" && !member.doc) flat.push(...member.members)
    else flat.push(member)
  }
  if (flat.some((m) => m.kind === "unknown")) return unknownType
  // A member that accepts nothing (`never`) adds nothing to a union.
  const accepting = flat.filter((m) => !isNever(m))
  const kept = accepting.length > 0 ? accepting : flat.slice(0, 1)
  return kept.length === 1 ? kept[0] : { kind: "union", members: kept }
}

/**
 * Build the type model of a JSON Schema. `$ref`s are resolved against `root` (`#/$defs/...`,
 * `#/definitions/...`, `#/components/schemas/...` and any JSON pointer); a reference cycle becomes a named `ref`.
 */
export const fromJsonSchema = (schema: JsonSchema, root: JsonSchema = schema): Type => {
  const resolving: string[] = []
  // Resolved references, shared wherever they occur: large documents refer to the same schemas thousands of times.
  // A resolution that met a reference cycle depends on where it started, so only cycle-free ones are kept.
  const resolved = new Map<string, Type>()
  let cycles = 0

  const resolvePointer = (ref: string): unknown => {
    if (!ref.startsWith("#")) return undefined
    let node: unknown = root
    for (const raw of ref
      .slice(1)
      .split("/")
      .filter((s) => s !== "")) {
      const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~")
      if (!isObjectSchema(node) && !Array.isArray(node)) return undefined
      node = (node as Record<string, unknown>)[key]
    }
    return node
  }

  const visit = (node: unknown): Type => {
    if (node === true || node === undefined) return unknownType
    if (node === false) return { kind: "union", members: [] }
    if (!isObjectSchema(node)) return unknownType
    const doc = docOf(node)
    // `not: {}` accepts nothing.
    if ((node.not === true || (isObjectSchema(node.not) && Object.keys(node.not).length === 0)) && !node.type)
      return withDoc({ kind: "union", members: [] }, doc)

    if (typeof node.$ref === "string") {
      const ref = node.$ref
      const name = ref.split("/").pop() || ref
      if (resolving.includes(ref)) {
        cycles++
        return withDoc({ kind: "ref", name }, doc)
      }
      let type = resolved.get(ref)
      if (type === undefined) {
        const target = resolvePointer(ref)
        if (target === undefined) return withDoc({ kind: "ref", name }, doc)
        const before = cycles
        resolving.push(ref)
        try {
          type = visit(target)
        } finally {
          resolving.pop()
        }
        if (type.kind === "object" || type.kind === "union") type = { ...type, refName: name }
        if (cycles === before) resolved.set(ref, type)
      }
      return doc.length ? withDoc(type, [...doc, ...(type.doc ?? [])].filter(unique)) : type
    }

    if ("const" in node) return withDoc(literalType(node.const), doc)
    if (Array.isArray(node.enum)) {
      return withDoc(unionOf(node.enum.map(literalType)), doc)
    }

    const alternatives = (
      Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : undefined
    ) as unknown[] | undefined
    if (alternatives) {
      const kept = alternatives.filter((m) => !isNonFiniteAlternative(m))
      const base = stripCombinators(node)
      const members = kept.map((m) => visit(Object.keys(base).length ? mergeSchemas(base, m) : m))
      return withDoc(unionOf(members), doc)
    }
    if (Array.isArray(node.allOf)) {
      const base = stripCombinators(node)
      const parts = (node.allOf as unknown[]).map(visit)
      if (Object.keys(base).some((k) => k === "type" || k === "properties")) parts.unshift(visit(base))
      return withDoc(intersect(parts), doc)
    }

    const type = node.type
    if (Array.isArray(type)) {
      const members = type.map((t) => visit({ ...node, type: t, description: undefined, title: undefined }))
      return withDoc(unionOf(members), doc)
    }
    const nullable = node.nullable === true
    const base = visitTyped(node, type)
    return withDoc(nullable ? unionOf([base, { kind: "null" }]) : base, doc)
  }

  const visitTyped = (node: Record<string, unknown>, type: unknown): Type => {
    switch (type) {
      case "string":
        return { kind: "string" }
      case "integer":
        return { kind: "number", integer: true }
      case "number":
        return { kind: "number", integer: false }
      case "boolean":
        return { kind: "boolean" }
      case "null":
        return { kind: "null" }
      case "array":
        return arrayType(node)
      case "object":
        return objectType(node)
      default:
        if (isObjectSchema(node.properties)) return objectType(node)
        if (node.items !== undefined || node.prefixItems !== undefined) return arrayType(node)
        return unknownType
    }
  }

  const arrayType = (node: Record<string, unknown>): Type => {
    if (Array.isArray(node.prefixItems)) {
      const items = node.prefixItems.map(visit)
      const rest = node.items === false || node.items === undefined ? undefined : visit(node.items)
      return rest ? { kind: "tuple", items, rest } : { kind: "tuple", items }
    }
    if (Array.isArray(node.items)) return { kind: "tuple", items: node.items.map(visit) }
    return { kind: "array", items: visit(node.items) }
  }

  /** readOnly/writeOnly of a property, also when they sit on the schema its `$ref` points to. */
  const flagsOf = (raw: unknown): Record<string, unknown> => {
    let node = raw
    for (let hops = 0; hops < 8 && isObjectSchema(node); hops++) {
      if (node.readOnly === true || node.writeOnly === true || typeof node.$ref !== "string") return node
      node = resolvePointer(node.$ref)
    }
    return isObjectSchema(node) ? node : {}
  }

  const objectType = (node: Record<string, unknown>): Type => {
    const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : [])
    const props = isObjectSchema(node.properties) ? node.properties : {}
    const properties: Property[] = Object.keys(props).map((name) => {
      const raw = props[name]
      const type = visit(raw)
      const flags = flagsOf(raw)
      const { doc, ...bare } = type
      return {
        name,
        type: bare as Type,
        optional: !required.has(name),
        readOnly: flags.readOnly === true,
        writeOnly: flags.writeOnly === true,
        doc: doc ?? [],
      }
    })
    const extra = node.additionalProperties
    const additional = isObjectSchema(extra)
      ? visit(extra)
      : properties.length === 0 && extra !== false
        ? unknownType
        : undefined
    return additional ? { kind: "object", properties, additional } : { kind: "object", properties }
  }

  return visit(schema)
}

const unique = <A>(value: A, index: number, all: ReadonlyArray<A>) => all.indexOf(value) === index

const stripCombinators = (node: Record<string, unknown>): Record<string, unknown> => {
  const { anyOf: _a, oneOf: _o, allOf: _l, description: _d, title: _t, ...rest } = node
  return rest
}

const mergeSchemas = (base: Record<string, unknown>, member: unknown): unknown =>
  isObjectSchema(member) ? { ...base, ...member } : member

const intersect = (parts: ReadonlyArray<Type>): Type => {
  const known = parts.filter((p) => p.kind !== "unknown")
  if (known.length === 0) return unknownType
  if (known.length === 1) return known[0]
  if (known.every((p) => p.kind === "object")) {
    const byName = new Map<string, Property>()
    let additional: Type | undefined
    for (const part of known as ReadonlyArray<Extract<Type, { kind: "object" }>>) {
      for (const prop of part.properties) {
        const previous = byName.get(prop.name)
        byName.set(prop.name, previous ? { ...prop, optional: previous.optional && prop.optional } : prop)
      }
      if (part.additional && part.properties.length > 0) additional = part.additional
    }
    const properties = [...byName.values()]
    return additional ? { kind: "object", properties, additional } : { kind: "object", properties }
  }
  return { kind: "intersection", members: known }
}

/** Build the type model of a tool's input or output: an Effect Schema, a JSON Schema, or none (`void`). */
export const fromSchema = (schema: unknown): Type => {
  if (schema === undefined) return { kind: "void" }
  if (isEffectSchema(schema)) return fromJsonSchema(effectToJsonSchema(schema))
  if (typeof schema === "boolean" || isObjectSchema(schema)) return fromJsonSchema(schema as JsonSchema)
  return unknownType
}

/**
 * Project a type for one direction: a request omits `readOnly` properties, a response omits `writeOnly` ones.
 * Runtime values are never filtered; only the signature changes.
 */
export const project = (type: Type, direction: "request" | "response"): Type => {
  const drop = (p: Property) => (direction === "request" ? p.readOnly : p.writeOnly)
  // Shared parts stay shared.
  const done = new Map<Type, Type>()
  const walk = (t: Type): Type => {
    let out = done.get(t)
    if (out === undefined) {
      out = step(t)
      done.set(t, out)
    }
    return out
  }
  const step = (t: Type): Type => {
    switch (t.kind) {
      case "object": {
        const properties = t.properties.filter((p) => !drop(p)).map((p) => ({ ...p, type: walk(p.type) }))
        return t.additional ? { ...t, properties, additional: walk(t.additional) } : { ...t, properties }
      }
      case "array":
        return { ...t, items: walk(t.items) }
      case "tuple":
        return t.rest ? { ...t, items: t.items.map(walk), rest: walk(t.rest) } : { ...t, items: t.items.map(walk) }
      case "union":
      case "intersection":
        return { ...t, members: t.members.map(walk) }
      default:
        return t
    }
  }
  return walk(type)
}

/** Every property name and property doc line of a type, for search. */
export const propertyText = (type: Type): ReadonlyArray<string> => {
  const out: string[] = []
  const seen = new Set<Type>()
  const walk = (t: Type, depth: number) => {
    if (depth > 4 || seen.has(t)) return
    seen.add(t)
    switch (t.kind) {
      case "object":
        for (const p of t.properties) {
          out.push(p.name, ...p.doc)
          walk(p.type, depth + 1)
        }
        return
      case "array":
        return walk(t.items, depth + 1)
      case "union":
      case "intersection":
        return t.members.forEach((m) => walk(m, depth + 1))
      default:
        return
    }
  }
  walk(type, 0)
  return out
}
