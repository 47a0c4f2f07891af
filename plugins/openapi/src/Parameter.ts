/**
 * Parameters: how one input value becomes part of the URL path, the query string or a header, following the
 * OpenAPI `style` / `explode` rules (which come from RFC 6570 URI templates).
 */

/** Where a parameter goes. Cookie parameters are not supported and never reach this module. */
export type Location = "path" | "query" | "header"

/** The serialisation styles OpenAPI defines for path, query and header parameters. */
export type Style = "simple" | "label" | "matrix" | "form" | "spaceDelimited" | "pipeDelimited" | "deepObject"

/** The styles each location accepts, the first being the default. */
export const stylesByLocation: Readonly<Record<Location, ReadonlyArray<Style>>> = {
  path: ["simple", "label", "matrix"],
  query: ["form", "spaceDelimited", "pipeDelimited", "deepObject"],
  header: ["simple"],
}

/** How one parameter is sent. */
export interface Plan {
  /** The parameter's name, which is also its key in the tool's input object. */
  readonly name: string
  readonly in: Location
  readonly required: boolean
  readonly style: Style
  readonly explode: boolean
  /** Query only: leave RFC 3986 reserved characters unencoded. */
  readonly allowReserved: boolean
  /** The parameter is described with `content: application/json`: its value is sent as JSON text. */
  readonly json: boolean
  /**
   * The shape the schema declares (`scalar` for string, number, integer and boolean), or `undefined` when it does not
   * say: a value of another shape is refused rather than sent in a form the server does not expect.
   */
  readonly shape?: "scalar" | "array" | "object" | undefined
}

/** A value that the parameter's style cannot express; the message names the parameter. */
export class EncodingError extends Error {
  override readonly name = "OpenApiEncodingError"
}

type Scalar = string | number | boolean | null

const isScalar = (value: unknown): value is Scalar =>
  value === null || typeof value === "string" || typeof value === "number" || typeof value === "boolean"

const scalarText = (value: Scalar): string => (value === null ? "" : String(value))

/** Percent-encode everything except RFC 3986 unreserved characters. */
const encodeStrict = (text: string): string =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)

/** Percent-encode but keep RFC 3986 reserved characters (except `#`, which would end the URL). */
const encodeReserved = (text: string): string =>
  encodeURI(text).replace(/%5B/gi, "[").replace(/%5D/gi, "]").replace(/#/g, "%23")

const describeValue = (value: unknown): string =>
  Array.isArray(value) ? "an array" : value === null ? "null" : typeof value === "object" ? "an object" : typeof value

/** The scalar items of an array value, or an error naming the first nested item. */
const arrayItems = (plan: Plan, value: ReadonlyArray<unknown>): ReadonlyArray<Scalar> =>
  value.map((item, i) => {
    if (!isScalar(item))
      throw new EncodingError(
        `parameter "${plan.name}": item ${i + 1} is ${describeValue(item)}; style ${plan.style} can only send arrays of strings, numbers and booleans`,
      )
    return item
  })

/** The scalar entries of an object value, or an error naming the first nested property. */
const objectEntries = (plan: Plan, value: object): ReadonlyArray<readonly [string, Scalar]> =>
  Object.entries(value)
    .filter(([, v]) => v !== undefined)
    .map(([key, item]) => {
      if (!isScalar(item))
        throw new EncodingError(
          `parameter "${plan.name}": property "${key}" is ${describeValue(item)}; style ${plan.style} can only send flat objects of strings, numbers and booleans`,
        )
      return [key, item] as const
    })

/** A JSON-content parameter's value as text. */
const jsonText = (value: unknown): string => JSON.stringify(value)

/** Run an encoder, turning the `URIError` of an unpaired UTF-16 surrogate into an error naming the parameter. */
const guarded = <A>(plan: Plan, encode: () => A): A => {
  try {
    return encode()
  } catch (error) {
    if (error instanceof URIError)
      throw new EncodingError(
        `parameter "${plan.name}" contains an unpaired UTF-16 surrogate, which cannot be sent in a URL`,
      )
    throw error
  }
}

/** The path segment for a path parameter, already percent-encoded. */
export const pathSegment = (plan: Plan, value: unknown): string => guarded(plan, () => rawPathSegment(plan, value))

const rawPathSegment = (plan: Plan, value: unknown): string => {
  if (value === null) throw new EncodingError(`parameter "${plan.name}" is part of the URL path and cannot be null`)
  if (plan.json) return encodeStrict(jsonText(value))
  const enc = (v: Scalar) => encodeStrict(scalarText(v))
  const name = encodeStrict(plan.name)
  switch (plan.style) {
    case "label": {
      if (isScalar(value)) return `.${enc(value)}`
      if (Array.isArray(value))
        return (
          "." +
          arrayItems(plan, value)
            .map(enc)
            .join(plan.explode ? "." : ",")
        )
      const entries = objectEntries(plan, value as object)
      return (
        "." +
        (plan.explode
          ? entries.map(([k, v]) => `${enc(k)}=${enc(v)}`).join(".")
          : entries.flatMap(([k, v]) => [enc(k), enc(v)]).join(","))
      )
    }
    case "matrix": {
      if (isScalar(value)) return `;${name}=${enc(value)}`
      if (Array.isArray(value)) {
        const items = arrayItems(plan, value).map(enc)
        return plan.explode ? items.map((v) => `;${name}=${v}`).join("") : `;${name}=${items.join(",")}`
      }
      const entries = objectEntries(plan, value as object)
      return plan.explode
        ? entries.map(([k, v]) => `;${enc(k)}=${enc(v)}`).join("")
        : `;${name}=${entries.flatMap(([k, v]) => [enc(k), enc(v)]).join(",")}`
    }
    default: {
      if (isScalar(value)) return enc(value)
      if (Array.isArray(value)) return arrayItems(plan, value).map(enc).join(",")
      const entries = objectEntries(plan, value as object)
      return plan.explode
        ? entries.map(([k, v]) => `${enc(k)}=${enc(v)}`).join(",")
        : entries.flatMap(([k, v]) => [enc(k), enc(v)]).join(",")
    }
  }
}

/** The `name=value` pieces of the query string for a query parameter, already percent-encoded. */
export const queryPieces = (plan: Plan, value: unknown): ReadonlyArray<string> =>
  guarded(plan, () => rawQueryPieces(plan, value))

const rawQueryPieces = (plan: Plan, value: unknown): ReadonlyArray<string> => {
  const enc = (v: Scalar) => (plan.allowReserved ? encodeReserved(scalarText(v)) : encodeStrict(scalarText(v)))
  const name = encodeStrict(plan.name)
  if (plan.json) return [`${name}=${encodeStrict(jsonText(value))}`]
  if (isScalar(value)) {
    if (plan.style === "deepObject")
      throw new EncodingError(
        `parameter "${plan.name}" (style deepObject) must be an object, not ${describeValue(value)}`,
      )
    return [`${name}=${enc(value)}`]
  }
  const delimiter = plan.style === "spaceDelimited" ? "%20" : plan.style === "pipeDelimited" ? "|" : ","
  if (Array.isArray(value)) {
    if (plan.style === "deepObject")
      throw new EncodingError(`parameter "${plan.name}" (style deepObject) must be an object, not an array`)
    const items = arrayItems(plan, value).map(enc)
    if (plan.explode) return items.map((v) => `${name}=${v}`)
    return [`${name}=${items.join(delimiter)}`]
  }
  const entries = objectEntries(plan, value as object)
  if (plan.style === "deepObject") return entries.map(([k, v]) => `${name}[${encodeStrict(k)}]=${enc(v)}`)
  if (plan.explode) return entries.map(([k, v]) => `${encodeStrict(k)}=${enc(v)}`)
  return [`${name}=${entries.flatMap(([k, v]) => [encodeStrict(k), enc(v)]).join(delimiter)}`]
}

/** The value of a header parameter. */
export const headerValue = (plan: Plan, value: unknown): string => {
  let text: string
  if (plan.json) text = jsonText(value)
  else if (isScalar(value)) text = scalarText(value)
  else if (Array.isArray(value)) text = arrayItems(plan, value).map(scalarText).join(",")
  else {
    const entries = objectEntries(plan, value as object)
    text = plan.explode
      ? entries.map(([k, v]) => `${k}=${scalarText(v)}`).join(",")
      : entries.flatMap(([k, v]) => [k, scalarText(v)]).join(",")
  }
  if (/[\r\n\0]/.test(text))
    throw new EncodingError(`header parameter "${plan.name}" cannot contain line breaks or NUL`)
  // HTTP header values are visible Latin-1 text, spaces and tabs (RFC 9110 field-value).
  const bad = /[^\t\x20-\x7e\x80-\xff]/.exec(text)
  if (bad)
    throw new EncodingError(
      `header parameter "${plan.name}" cannot contain U+${bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")} (at character ${bad.index + 1}); header values hold printable Latin-1 text only`,
    )
  return text
}
