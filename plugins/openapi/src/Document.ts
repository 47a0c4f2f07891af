/**
 * OpenAPI documents as this package reads them: the version check and local `$ref` resolution.
 *
 * Documents are plain parsed JSON. Only the members this package uses are typed; everything else is read defensively
 * because real documents are often loose.
 */

/** A JSON object from the document. */
export type JsonObject = { readonly [key: string]: unknown }

/** An OpenAPI 3.0 or 3.1 document (already parsed from JSON or YAML). */
export interface Document extends JsonObject {
  readonly openapi: string
  readonly paths?: JsonObject
  readonly components?: JsonObject
  readonly servers?: ReadonlyArray<unknown>
  readonly security?: ReadonlyArray<unknown>
}

/** The HTTP methods an OpenAPI path item can hold, in the order the specification lists them. */
export const methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const

/** One HTTP method of a path item. */
export type Method = (typeof methods)[number]

/** A document that cannot be used at all (wrong version, not an object, no paths). */
export class DocumentError extends Error {
  override readonly name = "OpenApiDocumentError"
}

/** True when `value` is a JSON object (not an array, not null). */
export const isObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/**
 * Check that `value` is an OpenAPI 3.0 or 3.1 document, or throw a `DocumentError` that says what it is instead.
 */
export const check = (value: unknown): Document => {
  if (!isObject(value)) throw new DocumentError("the OpenAPI document must be a JSON object")
  if (typeof value.swagger === "string" || typeof value.swagger === "number")
    throw new DocumentError(
      `this is a Swagger ${String(value.swagger)} document; only OpenAPI 3.0 and 3.1 are supported: convert it to OpenAPI 3 first (for example with the swagger2openapi tool)`,
    )
  const version = value.openapi
  if (typeof version === "number")
    throw new DocumentError(
      `the "openapi" version must be a string such as "3.1.0", not the number ${version} (quote it in YAML)`,
    )
  if (typeof version !== "string")
    throw new DocumentError('the document has no "openapi" version string; expected an OpenAPI 3.0 or 3.1 document')
  if (!/^3\.[01](\.\d+)?$/.test(version))
    throw new DocumentError(`OpenAPI version ${version} is not supported; expected 3.0.x or 3.1.x`)
  if (value.paths !== undefined && !isObject(value.paths)) throw new DocumentError('"paths" must be an object')
  if (value.paths === undefined && value.webhooks === undefined)
    throw new DocumentError('the document has no "paths"; there are no operations to turn into tools')
  return value as Document
}

/** A `$ref` that cannot be followed. */
export class RefError extends Error {
  override readonly name = "OpenApiRefError"
}

const decodePointerSegment = (segment: string) => decodeURIComponent(segment).replace(/~1/g, "/").replace(/~0/g, "~")

/** Follow a local JSON pointer (`#/components/schemas/Pet`) from the document root. */
export const pointer = (document: Document, ref: string): unknown => {
  if (!ref.startsWith("#")) {
    throw new RefError(
      `$ref "${ref}" points outside the document; resolve external references first (OpenAPI.load does this)`,
    )
  }
  let node: unknown = document
  for (const raw of ref.slice(1).split("/").slice(1)) {
    const key = decodePointerSegment(raw)
    if (Array.isArray(node) && /^\d+$/.test(key)) node = node[Number(key)]
    else if (isObject(node) && Object.prototype.hasOwnProperty.call(node, key)) node = node[key]
    else throw new RefError(`$ref "${ref}" does not point at anything in the document`)
  }
  return node
}

/**
 * Resolve `node` when it is a `$ref` object (following chains), returning the target object. Non-ref nodes are
 * returned as they are. Throws `RefError` for external, dangling or circular reference chains.
 */
export const deref = (document: Document, node: unknown): unknown => {
  let current = node
  const seen: string[] = []
  while (isObject(current) && typeof current.$ref === "string") {
    const ref = current.$ref
    if (seen.includes(ref)) throw new RefError(`$ref "${ref}" refers to itself`)
    seen.push(ref)
    current = pointer(document, ref)
  }
  return current
}
