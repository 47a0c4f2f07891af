/**
 * The input object of a generated tool: each parameter under its own name and the JSON request body under `body`.
 * Reading it checks its keys against the operation and, when a key is wrong, says where it most likely belongs
 * (`did you mean body.title?`, `did you mean productId?`) so that a model's second try works.
 */
import { isObject } from "./Document.js"
import { bodyKey, type Plan } from "./Operation.js"
import { Suggest } from "@codemode/core/plugin"

/** The input's own values by key, on an object without a prototype (a key such as `constructor` is just a key). */
export type Values = { readonly [key: string]: unknown }

const describeValue = (value: unknown): string =>
  Array.isArray(value) ? "an array" : value === null ? "null" : typeof value === "object" ? "an object" : typeof value

/**
 * `text` cut to at most `max` characters (never inside a surrogate pair), marked with `…` when cut: program-made text
 * in a message stays small whatever the program sent.
 */
export const clip = (text: string, max: number): string => {
  if (text.length <= max) return text
  const end = /[\ud800-\udbff]/.test(text[max - 1]) ? max - 1 : max
  return `${text.slice(0, end)}…`
}

/** Longest key name shown in a message. */
const maxShownKey = 100
/** Most unknown keys listed in one message. */
const maxListedKeys = 10

const quoted = (names: Iterable<string>) => [...names].map((name) => `"${clip(name, maxShownKey)}"`).join(", ")

/** Where an unknown top-level key most likely belongs, as a clause for the message, or `""`. */
const hint = (plan: Plan, known: ReadonlyArray<string>, key: string, value: unknown): string => {
  if (plan.hostSupplied.some((name) => name.toLowerCase() === key.toLowerCase())) return " (the host supplies it)"
  if (key === bodyKey && !plan.body) return " (this operation has no request body)"
  const below = plan.nested.find((entry) => entry.properties.includes(key))
  if (below) return ` (did you mean ${below.key}.${key}?)`
  const near = Suggest.nearest(key, known)
  if (near !== undefined) return ` (did you mean ${near}?)`
  for (const entry of plan.nested) {
    const nested = Suggest.nearest(key, entry.properties)
    if (nested !== undefined) return ` (did you mean ${entry.key}.${nested}?)`
  }
  // `{ path = { id = 1 } }`, `{ query = { … } }`: parameters wrapped one level too deep.
  if (isObject(value)) {
    const inner = Object.keys(value)
    const parameters = plan.parameters.map((p) => p.name)
    if (inner.length > 0 && inner.length <= maxListedKeys && inner.every((name) => parameters.includes(name)))
      return ` (${quoted(inner)} ${inner.length === 1 ? "is a parameter" : "are parameters"}: put ${inner.length === 1 ? "it" : "them"} at the top level of the input)`
  }
  return ""
}

/**
 * Read the input object and check its keys against the plan. The error says what was wrong and where each misplaced
 * key belongs.
 */
export const read = (plan: Plan, input: unknown): { readonly values: Values } | { readonly error: string } => {
  if (input === undefined || input === null) input = {}
  if (!isObject(input)) return { error: `expected an input object (a table), got ${describeValue(input)}` }
  const values: Record<string, unknown> = Object.create(null)
  for (const key of Object.keys(input)) values[key] = input[key]
  const known = plan.parameters.map((p) => p.name)
  if (plan.body) known.push(bodyKey)
  const unknown = Object.keys(values).filter((key) => !known.includes(key))
  if (unknown.length > 0) {
    const expected = known.length ? `expected ${quoted(known)}` : "this operation takes no input"
    const each = unknown
      .slice(0, maxListedKeys)
      .map((key) => `"${clip(key, maxShownKey)}"${key.length > maxShownKey ? "" : hint(plan, known, key, values[key])}`)
      .join(", ")
    const more = unknown.length > maxListedKeys ? ` and ${unknown.length - maxListedKeys} more` : ""
    return { error: `unknown input ${each}${more}; ${expected}` }
  }
  const body = values[bodyKey]
  for (const p of plan.parameters)
    if (p.required && values[p.name] === undefined) {
      const inBody = plan.body && isObject(body) && Object.hasOwn(body, p.name)
      return {
        error: `missing required ${p.in} parameter "${p.name}"${inBody ? ` (it is inside ${bodyKey}; parameters go at the top level of the input, beside ${bodyKey})` : ""}`,
      }
    }
  if (plan.body?.required && body === undefined)
    return { error: `missing required input "${bodyKey}" (the request body)` }
  for (const p of plan.parameters) {
    const value = values[p.name]
    if (value === undefined || value === null || p.shape === undefined) continue
    const shape = Array.isArray(value) ? "array" : typeof value === "object" ? "object" : "scalar"
    // A single value is sent as it is whatever the schema says; a list or an object where the schema declares
    // another shape would be flattened into a form the API does not expect.
    if (shape !== "scalar" && shape !== p.shape)
      return {
        error: `${p.in} parameter "${p.name}" takes ${p.shape === "scalar" ? "a single value (a string, number or boolean)" : `an ${p.shape}`}, got ${describeValue(value)}`,
      }
  }
  const bodyTakesFields = plan.nested.some((entry) => entry.key === bodyKey)
  if (bodyTakesFields && typeof body === "string" && /^\s*[[{]/.test(body))
    return {
      error: `"${bodyKey}" is JSON text; pass the value itself (${bodyKey} = { … }), which is sent as JSON`,
    }
  return { values }
}
