/**
 * Operations: deciding whether an OpenAPI operation can become a tool, and if so, everything needed to describe it
 * to a model and to call it. An operation that cannot be called faithfully is rejected with every reason found;
 * nothing is guessed.
 *
 * The input object: each parameter under its own name (path, query and header alike), and the JSON request body
 * under `body`. The output: the decoded JSON of the success response (or its text for `text/*`, `null` for an empty
 * response).
 */
import * as Auth from "./Auth.js"
import * as Cycles from "./Cycles.js"
import { deref, isObject, type Document, type JsonObject, type Method, type RefError } from "./Document.js"
import * as Parameter from "./Parameter.js"

/** The input key that holds the JSON request body. */
export const bodyKey = "body"

/** How the request body is sent. */
export interface BodyPlan {
  readonly required: boolean
  readonly mediaType: string
}

/** How the response is asked for: the media types the success responses declare. */
export interface ResponsePlan {
  /** The `Accept` header, or `undefined` when the document declares no response content. */
  readonly accept: string | undefined
}

/** A query key that a credential of the operation uses. */
export interface ReservedKey {
  /** The key as the security scheme names it. */
  readonly name: string
  /** The security scheme's name. */
  readonly scheme: string
}

/** Everything needed to call one operation. */
export interface Plan {
  readonly method: Method
  /** The path template, e.g. `/products/{id}`. */
  readonly path: string
  readonly operationId: string | undefined
  /** The server URL the path is appended to (no trailing slash). */
  readonly serverUrl: string
  readonly parameters: ReadonlyArray<Parameter.Plan>
  /**
   * Query keys that credentials of this operation use (in any of its security alternatives): a program can never
   * write them, whatever a parameter's style lets it write.
   */
  readonly reservedQuery: ReadonlyArray<ReservedKey>
  /** Declared parameters left out of the input because the host fills them (a credential or a host header). */
  readonly hostSupplied: ReadonlyArray<string>
  /** For each input key whose schema is an object, its property names (to say `did you mean body.title?`). */
  readonly nested: ReadonlyArray<{ readonly key: string; readonly properties: ReadonlyArray<string> }>
  readonly body: BodyPlan | undefined
  readonly response: ResponsePlan
  readonly security: Auth.Requirement
  /** The model-visible description. */
  readonly description: string
  /** JSON Schema of the input object (render-only). */
  readonly input: JsonObject
  /** JSON Schema of the output (render-only). */
  readonly output: JsonObject
}

/** The outcome of analysing one operation. */
export type Analysis =
  | { readonly ok: true; readonly plan: Plan }
  | { readonly ok: false; readonly reasons: ReadonlyArray<string> }

/** Options that shape every operation. */
export interface Context {
  readonly document: Document
  readonly baseUrl: string | undefined
  readonly authSchemes: { readonly [name: string]: unknown } | undefined
  /** Lower-case names of the headers the host sends with every request: programs cannot set them. */
  readonly hostHeaders: ReadonlySet<string>
  /** Longest description kept, in characters. */
  readonly maxDescription: number
  /** What is known about object cycles in the document's schemas. */
  readonly cycles: Cycles.Memo
}

/** JSON media types: `application/json`, `application/*+json`, with or without parameters. */
export const isJsonMediaType = (mediaType: string): boolean => {
  const base = mediaType.split(";")[0].trim().toLowerCase()
  return base === "application/json" || base === "text/json" || /^application\/[^/]+\+json$/.test(base)
}

const isEventStream = (mediaType: string) => mediaType.split(";")[0].trim().toLowerCase() === "text/event-stream"
const isText = (mediaType: string) => mediaType.split(";")[0].trim().toLowerCase().startsWith("text/")

/**
 * Header parameters left out of the input: the specification says to ignore `Accept`, `Content-Type` and
 * `Authorization` (the request's own headers carry them); the others frame or route the request, which only the HTTP
 * client may do.
 */
const ignoredHeaders = new Set([
  "accept",
  "content-type",
  "authorization",
  "host",
  "content-length",
  "transfer-encoding",
  "te",
  "trailer",
  "keep-alive",
  "expect",
  "proxy-authorization",
  "proxy-connection",
])

/**
 * Documents have no structural marker for WebSocket endpoints besides a 101 response or an `Upgrade` header; many
 * only say so in prose. An operation whose summary or description *begins* by establishing, opening or upgrading to a
 * WebSocket ("Establish a WebSocket connection …") is one; one that merely mentions WebSockets ("Create a ticket for
 * opening a WebSocket") is not.
 */
const opensWebSocket = (prose: string): boolean =>
  /^(establish|open|upgrade|connect)\w*\b[^.]*\bweb ?sockets?\b/i.test(prose)

/**
 * The schema members a `$ref` may point into. They are attached to each tool's JSON Schemas as non-enumerable
 * properties, so local references resolve without copying the document (and JSON output stays small).
 */
const attachRoot = (schema: JsonObject, document: Document): JsonObject => {
  const out: Record<string, unknown> = { ...schema }
  for (const key of ["components", "paths", "webhooks"]) {
    if (key in document && !(key in out)) Object.defineProperty(out, key, { value: document[key], enumerable: false })
  }
  return out
}

const text = (value: unknown): string => (typeof value === "string" ? value.trim() : "")

const withDoc = (schema: unknown, description: string, deprecated: boolean): JsonObject => {
  const base: Record<string, unknown> = isObject(schema) ? { ...schema } : {}
  if (description) base.description = description
  if (deprecated) base.deprecated = true
  return base
}

/** The server URL for an operation, or the reason there is none. */
const serverUrl = (
  context: Context,
  pathItem: JsonObject,
  operation: JsonObject,
): { url: string } | { reason: string } => {
  if (context.baseUrl !== undefined) return { url: context.baseUrl.replace(/\/+$/, "") }
  const lists = [operation.servers, pathItem.servers, context.document.servers]
  const servers = lists.find((list) => Array.isArray(list) && list.length > 0) as ReadonlyArray<unknown> | undefined
  if (!servers) return { reason: "no server URL: the document declares no servers; pass baseUrl" }
  const server = servers[0]
  if (!isObject(server) || typeof server.url !== "string")
    return { reason: "the first server has no url; pass baseUrl" }
  const variables = isObject(server.variables) ? server.variables : {}
  let missing: string | undefined
  const url = server.url.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const variable = variables[name]
    if (isObject(variable) && (typeof variable.default === "string" || typeof variable.default === "number"))
      return String(variable.default)
    missing ??= name
    return ""
  })
  if (missing !== undefined)
    return { reason: `server URL "${server.url}" uses variable {${missing}} without a default; pass baseUrl` }
  if (!/^https?:\/\//i.test(url))
    return {
      reason: `server URL "${server.url}" is not an absolute http(s) URL; pass baseUrl (or load the document from its URL)`,
    }
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return { reason: `server URL "${server.url}" is not a valid URL; pass baseUrl` }
  }
  if (parsed.search || parsed.hash)
    return { reason: `server URL "${server.url}" has a query or fragment, which paths cannot follow; pass baseUrl` }
  return { url: url.replace(/\/+$/, "") }
}

/** The parameters of an operation, path-level ones overridden by operation-level ones with the same name and place. */
const mergedParameters = (
  document: Document,
  pathItem: JsonObject,
  operation: JsonObject,
  reasons: string[],
): JsonObject[] => {
  const byKey = new Map<string, JsonObject>()
  for (const list of [pathItem.parameters, operation.parameters]) {
    if (list === undefined) continue
    if (!Array.isArray(list)) {
      reasons.push("parameters is not a list")
      continue
    }
    for (const raw of list) {
      let param: unknown
      try {
        param = deref(document, raw)
      } catch (error) {
        reasons.push((error as RefError).message)
        continue
      }
      if (!isObject(param) || typeof param.name !== "string" || typeof param.in !== "string") {
        reasons.push("a parameter has no name or location")
        continue
      }
      byKey.set(`${param.in}\u0000${param.name}`, param)
    }
  }
  return [...byKey.values()]
}

interface ParameterAnalysis {
  readonly plan: Parameter.Plan
  readonly schema: unknown
  readonly description: string
  readonly deprecated: boolean
}

/** The shape a parameter schema declares (its single non-null `type`), if it declares one. */
const shapeOf = (document: Document, schema: unknown): Parameter.Plan["shape"] => {
  let resolved: unknown
  try {
    resolved = deref(document, schema)
  } catch {
    return undefined
  }
  if (!isObject(resolved)) return undefined
  const types = (Array.isArray(resolved.type) ? resolved.type : [resolved.type]).filter((t) => t !== "null")
  if (types.length !== 1) return undefined
  const type = types[0]
  if (type === "object" || type === "array") return type
  return type === "string" || type === "number" || type === "integer" || type === "boolean" ? "scalar" : undefined
}

const analyzeParameter = (document: Document, param: JsonObject, reasons: string[]): ParameterAnalysis | undefined => {
  const name = param.name as string
  const location = param.in as string
  if (location === "cookie") {
    reasons.push(`cookie parameter "${name}" is not supported`)
    return undefined
  }
  if (location !== "path" && location !== "query" && location !== "header") {
    reasons.push(`parameter "${name}" has an unknown location "${location}"`)
    return undefined
  }
  if (location === "header" && ignoredHeaders.has(name.toLowerCase())) return undefined
  const allowed = Parameter.stylesByLocation[location]
  const style = (param.style ?? allowed[0]) as Parameter.Style
  if (typeof style !== "string" || !allowed.includes(style)) {
    reasons.push(
      `${location} parameter "${name}" uses style "${String(param.style)}", which is not defined for ${location} parameters (expected ${allowed.join(", ")})`,
    )
    return undefined
  }
  // deepObject is only defined exploded; a document that leaves `explode` out means that form.
  const explode = typeof param.explode === "boolean" ? param.explode : style === "form" || style === "deepObject"
  if (style === "deepObject" && !explode) {
    reasons.push(`query parameter "${name}" uses style deepObject with explode: false, which OpenAPI does not define`)
    return undefined
  }
  let schema: unknown = param.schema
  let json = false
  if (param.content !== undefined) {
    const content = isObject(param.content) ? Object.keys(param.content) : []
    if (content.length !== 1 || !isJsonMediaType(content[0])) {
      reasons.push(
        `${location} parameter "${name}" is described as ${content.length ? content.join(", ") : "empty"} content; only a single JSON media type is supported`,
      )
      return undefined
    }
    const media = (param.content as JsonObject)[content[0]]
    schema = isObject(media) ? media.schema : undefined
    json = true
  }
  return {
    plan: {
      name,
      in: location,
      required: location === "path" || param.required === true,
      style,
      explode,
      allowReserved: location === "query" && param.allowReserved === true,
      json,
      shape: json ? undefined : shapeOf(document, schema),
    },
    schema,
    description: text(param.description),
    deprecated: param.deprecated === true,
  }
}

const analyzeBody = (document: Document, operation: JsonObject, reasons: string[]) => {
  if (operation.requestBody === undefined) return undefined
  let body: unknown
  try {
    body = deref(document, operation.requestBody)
  } catch (error) {
    reasons.push((error as RefError).message)
    return undefined
  }
  if (!isObject(body) || !isObject(body.content) || Object.keys(body.content).length === 0) {
    reasons.push("the request body declares no content")
    return undefined
  }
  const types = Object.keys(body.content)
  const mediaType =
    types.find((t) => t.split(";")[0].trim().toLowerCase() === "application/json") ?? types.find(isJsonMediaType)
  if (!mediaType) {
    reasons.push(`the request body is ${types.join(", ")}; only JSON request bodies are supported`)
    return undefined
  }
  const media = body.content[mediaType]
  return {
    plan: { required: body.required === true, mediaType: mediaType.split(";")[0].trim() },
    schema: isObject(media) ? media.schema : undefined,
    description: text(body.description),
  }
}

const isSuccess = (code: string) => /^2(\d\d|XX)$/i.test(code)

const analyzeResponses = (document: Document, operation: JsonObject, reasons: string[]) => {
  const responses = isObject(operation.responses) ? operation.responses : {}
  const codes = Object.keys(responses)
  if (codes.includes("101"))
    reasons.push("the operation switches protocols (101): WebSocket and other upgrades are not supported")
  let success = codes.filter(isSuccess)
  if (success.length === 0 && codes.includes("default")) success = ["default"]
  const schemas: unknown[] = []
  const accept = new Set<string>()
  let unknownOutput = success.length === 0
  for (const code of success) {
    let response: unknown
    try {
      response = deref(document, responses[code])
    } catch (error) {
      reasons.push((error as RefError).message)
      continue
    }
    const content = isObject(response) && isObject(response.content) ? response.content : {}
    const types = Object.keys(content)
    if (types.length === 0) {
      schemas.push({ type: "null" })
      continue
    }
    const json =
      types.find((t) => t.split(";")[0].trim().toLowerCase() === "application/json") ?? types.find(isJsonMediaType)
    if (json) {
      accept.add(json.split(";")[0].trim())
      const media = content[json]
      const schema = isObject(media) ? media.schema : undefined
      if (schema === undefined) unknownOutput = true
      else schemas.push(schema)
      continue
    }
    const stream = types.find(isEventStream)
    if (stream) {
      reasons.push(
        `response ${code} is a server-sent event stream (text/event-stream); streaming responses are not supported`,
      )
      continue
    }
    const textual = types.filter(isText)
    if (textual.length > 0) {
      for (const t of textual) accept.add(t.split(";")[0].trim())
      schemas.push({ type: "string" })
      continue
    }
    reasons.push(`response ${code} is ${types.join(", ")}: binary responses are not supported (only JSON and text)`)
  }
  const output: JsonObject = unknownOutput
    ? {}
    : schemas.length === 1
      ? isObject(schemas[0])
        ? schemas[0]
        : {}
      : { anyOf: schemas }
  return { output, accept: accept.size ? [...accept].join(", ") : undefined }
}

const describe = (context: Context, method: Method, path: string, operation: JsonObject): string => {
  const summary = text(operation.summary)
  let details = text(operation.description)
  if (details === summary) details = ""
  if (details.length > context.maxDescription) details = details.slice(0, context.maxDescription).trimEnd() + "…"
  const lines: string[] = []
  if (operation.deprecated === true) lines.push("Deprecated.")
  if (summary) lines.push(summary)
  if (details) lines.push(details)
  lines.push(`${method.toUpperCase()} ${path}`)
  return lines.join("\n")
}

/** Where the credentials of any of an operation's security alternatives go. */
const credentialLocations = (
  requirement: Auth.Requirement,
): { readonly query: ReadonlyArray<ReservedKey>; readonly headers: ReadonlySet<string> } => {
  const query: ReservedKey[] = []
  const headers = new Set<string>()
  for (const use of requirement.flat()) {
    if (use.kind !== "apiKey") headers.add("authorization")
    else if (use.in === "query") query.push({ name: use.parameterName!, scheme: use.scheme })
    else headers.add(use.parameterName!.toLowerCase())
  }
  return { query, headers }
}

/** Most property names collected from one schema (for suggestions only). */
const maxPropertyNames = 500

/**
 * The property names an object schema declares, following `$ref`s and `allOf`/`anyOf`/`oneOf` a few levels deep.
 * Only used to suggest where a misplaced input key belongs; unreadable schemas give none.
 */
const propertyNames = (document: Document, schema: unknown): ReadonlyArray<string> => {
  const names = new Set<string>()
  const visit = (node: unknown, depth: number) => {
    if (depth > 8 || names.size >= maxPropertyNames) return
    let resolved: unknown
    try {
      resolved = deref(document, node)
    } catch {
      return
    }
    if (!isObject(resolved)) return
    if (isObject(resolved.properties))
      for (const name of Object.keys(resolved.properties)) if (names.size < maxPropertyNames) names.add(name)
    for (const key of ["allOf", "anyOf", "oneOf"])
      if (Array.isArray(resolved[key])) for (const member of resolved[key] as unknown[]) visit(member, depth + 1)
  }
  visit(schema, 0)
  return [...names]
}

/** Decide whether one operation can be a tool, and plan it. */
export const analyze = (
  context: Context,
  path: string,
  method: Method,
  pathItem: JsonObject,
  operation: JsonObject,
): Analysis => {
  const reasons: string[] = []
  const { document } = context

  if (!path.startsWith("/"))
    reasons.push(`path "${path}" does not start with "/"; a parameter value could change the server's host or port`)

  const server = serverUrl(context, pathItem, operation)
  if ("reason" in server) reasons.push(server.reason)

  const security = Auth.requirement(document, operation.security, context.authSchemes)
  if (!security.ok) reasons.push(security.reason)
  const credentials = security.ok
    ? credentialLocations(security.requirement)
    : { query: [], headers: new Set<string>() }

  if (opensWebSocket(text(operation.summary)) || opensWebSocket(text(operation.description)))
    reasons.push("the operation describes a WebSocket connection, which plain HTTP requests cannot make")

  const parameters: ParameterAnalysis[] = []
  for (const raw of mergedParameters(document, pathItem, operation, reasons)) {
    if (raw.in === "header" && /^(upgrade|connection)$/i.test(raw.name as string)) {
      reasons.push(
        `header parameter "${raw.name as string}" asks for a protocol upgrade (WebSocket), which is not supported`,
      )
      continue
    }
    const analysis = analyzeParameter(document, raw, reasons)
    if (analysis) parameters.push(analysis)
  }

  const templateNames = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1])
  for (const name of templateNames) {
    if (!parameters.some((p) => p.plan.in === "path" && p.plan.name === name))
      reasons.push(`path parameter {${name}} is not declared`)
  }
  const hostSupplied = (p: ParameterAnalysis) =>
    p.plan.in === "header"
      ? context.hostHeaders.has(p.plan.name.toLowerCase()) || credentials.headers.has(p.plan.name.toLowerCase())
      : p.plan.in === "query" && credentials.query.some((key) => key.name.toLowerCase() === p.plan.name.toLowerCase())
  const kept = parameters.filter(
    (p) => (p.plan.in !== "path" || templateNames.includes(p.plan.name)) && !hostSupplied(p),
  )

  const seen = new Map<string, string>()
  for (const p of kept) {
    const other = seen.get(p.plan.name)
    if (other !== undefined)
      reasons.push(
        `parameters "${p.plan.name}" in ${other} and in ${p.plan.in} share a name; one input object cannot hold both`,
      )
    seen.set(p.plan.name, p.plan.in)
  }

  const body = analyzeBody(document, operation, reasons)
  if (body && seen.has(bodyKey))
    reasons.push(`a ${seen.get(bodyKey)} parameter is named "${bodyKey}", the input key reserved for the request body`)

  const responses = analyzeResponses(document, operation, reasons)

  if (reasons.length > 0 || "reason" in server || !security.ok) return { ok: false, reasons }

  const properties: Record<string, unknown> = {}
  const required: string[] = []
  for (const p of kept) {
    properties[p.plan.name] = withDoc(p.schema, p.description, p.deprecated)
    if (p.plan.required) required.push(p.plan.name)
  }
  if (body) {
    properties[bodyKey] = withDoc(body.schema, body.description, false)
    if (body.plan.required) required.push(bodyKey)
  }
  const input: JsonObject = {
    type: "object",
    properties,
    ...(required.length ? { required } : {}),
    additionalProperties: false,
  }

  return {
    ok: true,
    plan: {
      method,
      path,
      operationId: typeof operation.operationId === "string" ? operation.operationId : undefined,
      serverUrl: server.url,
      parameters: kept.map((p) => p.plan),
      reservedQuery: credentials.query,
      hostSupplied: parameters.filter(hostSupplied).map((p) => p.plan.name),
      nested: [
        ...kept.map((p) => ({ key: p.plan.name, properties: propertyNames(document, p.schema) })),
        ...(body ? [{ key: bodyKey, properties: propertyNames(document, body.schema) }] : []),
      ].filter((entry) => entry.properties.length > 0),
      body: body?.plan,
      response: { accept: responses.accept },
      security: security.requirement,
      description: describe(context, method, path, operation),
      input: attachRoot(Cycles.breakCycles(input, context.cycles), document),
      output: attachRoot(Cycles.breakCycles(responses.output, context.cycles), document),
    },
  }
}
