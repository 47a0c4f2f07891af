/**
 * `OpenAPI`: any OpenAPI 3.0 or 3.1 document becomes CodeMode tools, one per supported operation.
 *
 * ```ts
 * const api = OpenAPI.fromSpec({ spec, baseUrl, auth: { resolve } })
 * const runtime = CodeMode.make({ language: "lua", tools: { store: api.tools } })
 * ```
 *
 * Input object: every parameter (path, query, header) under its own name, and the JSON request body under `body`.
 * Generated tools need `HttpClient.HttpClient` from `effect/http`, which the host provides.
 */
import { type Contributions, Tool, ToolSource } from "@codemode/core"
import { Effect, Layer } from "effect"
import type { HttpClient } from "effect/http"
import type * as Auth from "./Auth.js"
import {
  check,
  deref,
  DocumentError,
  isObject,
  methods,
  type Document,
  type JsonObject,
  type Method,
} from "./Document.js"
import * as Cycles from "./Cycles.js"
import * as Loader from "./Loader.js"
import * as Naming from "./Naming.js"
import * as Operation from "./Operation.js"
import * as Request from "./Request.js"
import { Options as Strict } from "@codemode/core/plugin"

export { DocumentError } from "./Document.js"
export { InputError, RequestError } from "./Request.js"
export type { Credential, Kind as AuthKind, Options as AuthOptions, Request as AuthRequest } from "./Auth.js"
export type { LoadOptions } from "./Loader.js"

/** Options of `fromSpec`. */
export interface Options<R = never> {
  /** The document: a parsed OpenAPI 3.0/3.1 object. Local `$ref`s are followed; external ones need `load`. */
  readonly spec: unknown
  /** The URL operation paths are appended to; replaces the document's `servers`. */
  readonly baseUrl?: string | undefined
  /** Credentials, resolved by the host for each security scheme an operation uses. */
  readonly auth?: Auth.Options<R> | undefined
  /** Headers sent with every request. */
  readonly headers?: { readonly [name: string]: string } | undefined
  /** Largest response body accepted, in bytes (default 8 MiB, at most 32 MiB). */
  readonly maxResponseBytes?: number | undefined
  /** Longest excerpt of an error response in a failure message, in characters (default 1,000, at most 65,536). */
  readonly maxErrorBodyChars?: number | undefined
  /** Longest operation description kept in a tool's description, in characters (default 1,200, at most 100,000). */
  readonly maxDescriptionChars?: number | undefined
}

/** The keys of `fromSpec` options. */
const optionKeys = [
  "spec",
  "baseUrl",
  "auth",
  "headers",
  "maxResponseBytes",
  "maxErrorBodyChars",
  "maxDescriptionChars",
] as const

/** The keys of `auth`. */
const authKeys = ["resolve", "schemes"] as const

/** Hard ceilings of the size options: no configuration makes a host-side buffer unbounded. */
const ceilings = {
  maxResponseBytes: 32 * 1024 * 1024,
  maxErrorBodyChars: Request.errorBodyCap,
  maxDescriptionChars: 100_000,
} as const

/** An operation that did not become a tool, and why. */
export interface Skipped {
  /** Upper-case HTTP method. */
  readonly method: string
  readonly path: string
  readonly operationId?: string
  /** Every reason found, separated by "; ". */
  readonly reason: string
}

/** One generated tool: it needs `HttpClient.HttpClient` (and whatever `auth.resolve` needs) to run. */
export type GeneratedTool<R = never> = Tool.Tool<
  unknown,
  unknown,
  Request.RequestError | Request.InputError,
  HttpClient.HttpClient | R
>

/**
 * Generated tools by dotted path (`"session.list"`); CodeMode reads the dots as namespaces, so
 * `{ opencode: api.tools }` gives `tools.opencode.session.list`.
 */
export interface ToolTree<R = never> {
  readonly [path: string]: GeneratedTool<R>
}

/** The tools of one document, with the operations that were left out. */
export interface Api<R = never> {
  /** The tools by dotted path: dotted operation ids become namespaces. */
  readonly tools: ToolTree<R>
  /** Every operation that is not a tool, with the reason. */
  readonly skipped: ReadonlyArray<Skipped>
  /** The dotted tool path of every generated tool, in document order, with its method and path. */
  readonly operations: ReadonlyArray<{ readonly tool: string; readonly method: string; readonly path: string }>
}

const positiveInteger = (name: keyof typeof ceilings, value: number | undefined, fallback: number): number => {
  if (value === undefined) return fallback
  if (!Number.isInteger(value) || value <= 0)
    throw new RangeError(`OpenAPI.fromSpec: ${name} must be a positive whole number`)
  if (value > ceilings[name])
    throw new RangeError(`OpenAPI.fromSpec: ${name} must be at most ${ceilings[name]}, got ${value}`)
  return value
}

const checkBaseUrl = (baseUrl: string | undefined): string | undefined => {
  if (baseUrl === undefined) return undefined
  let url: URL
  try {
    url = new URL(baseUrl)
  } catch {
    throw new TypeError(`OpenAPI.fromSpec: baseUrl "${baseUrl}" is not a URL; pass an absolute http(s) URL`)
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new TypeError(`OpenAPI.fromSpec: baseUrl "${baseUrl}" must be an http or https URL`)
  if (url.search || url.hash)
    throw new TypeError(`OpenAPI.fromSpec: baseUrl "${baseUrl}" must not have a query or fragment`)
  return baseUrl
}

const checkHeaders = (headers: Options["headers"]): { readonly [name: string]: string } => {
  if (headers === undefined) return {}
  if (!isObject(headers)) throw new TypeError("OpenAPI.fromSpec: headers must be an object of strings")
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value !== "string") throw new TypeError(`OpenAPI.fromSpec: header "${name}" must be a string`)
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
      throw new TypeError(`OpenAPI.fromSpec: "${name}" is not a valid header name`)
    if (/[\r\n\0]/.test(value)) throw new TypeError(`OpenAPI.fromSpec: header "${name}" contains a line break`)
  }
  return headers
}

interface Found {
  readonly path: string
  readonly method: Method
  readonly pathItem: JsonObject
  readonly operation: JsonObject
}

/** Every operation of the document, in document order; unresolvable path items are reported as skipped. */
const operationsOf = (document: Document, skipped: Skipped[]): Found[] => {
  const found: Found[] = []
  for (const [path, raw] of Object.entries(document.paths ?? {})) {
    let pathItem: unknown
    try {
      pathItem = deref(document, raw)
    } catch (error) {
      skipped.push({ method: "*", path, reason: (error as Error).message })
      continue
    }
    if (!isObject(pathItem)) continue
    for (const method of methods) {
      const operation = pathItem[method]
      if (operation === undefined) continue
      if (!isObject(operation)) {
        skipped.push({ method: method.toUpperCase(), path, reason: "the operation is not an object" })
        continue
      }
      found.push({ path, method, pathItem, operation })
    }
  }
  return found
}

/**
 * Convert an OpenAPI 3.0/3.1 document into tools, synchronously. Unsupported operations are listed in `skipped` with
 * the reason; nothing is guessed. Throws `DocumentError` when the document is not OpenAPI 3.0/3.1 at all, and
 * `TypeError`/`RangeError` for invalid options.
 */
export const fromSpec = <R = never>(options: Options<R>): Api<R> => {
  if (!isObject(options)) throw new TypeError("OpenAPI.fromSpec expects { spec, baseUrl?, auth?, headers? }")
  Strict.checkKeys("OpenAPI.fromSpec", options, optionKeys)
  const document = check(options.spec)
  if (options.auth !== undefined) {
    if (!isObject(options.auth) || typeof options.auth.resolve !== "function")
      throw new TypeError("OpenAPI.fromSpec: auth must be { resolve(request), schemes? }")
    Strict.checkKeys("OpenAPI.fromSpec: auth", options.auth, authKeys)
    if (options.auth.schemes !== undefined && !isObject(options.auth.schemes))
      throw new TypeError("OpenAPI.fromSpec: auth.schemes must be an object of security schemes by name")
  }
  const headers = checkHeaders(options.headers)
  const context: Operation.Context = {
    document,
    baseUrl: checkBaseUrl(options.baseUrl),
    authSchemes: options.auth?.schemes,
    hostHeaders: new Set(Object.keys(headers).map((name) => name.toLowerCase())),
    maxDescription: positiveInteger("maxDescriptionChars", options.maxDescriptionChars, 1200),
    cycles: Cycles.memo(),
  }
  const runtime: Request.Options<R> = {
    auth: options.auth,
    headers,
    maxResponseBytes: positiveInteger("maxResponseBytes", options.maxResponseBytes, 8 * 1024 * 1024),
    maxErrorBodyChars: positiveInteger("maxErrorBodyChars", options.maxErrorBodyChars, 1000),
  }

  const skipped: Skipped[] = []
  const planned: Operation.Plan[] = []
  for (const found of operationsOf(document, skipped)) {
    const analysis = Operation.analyze(context, found.path, found.method, found.pathItem, found.operation)
    if (analysis.ok) planned.push(analysis.plan)
    else {
      const operationId = typeof found.operation.operationId === "string" ? found.operation.operationId : undefined
      skipped.push({
        method: found.method.toUpperCase(),
        path: found.path,
        ...(operationId !== undefined ? { operationId } : {}),
        reason: analysis.reasons.join("; "),
      })
    }
  }

  const names = Naming.assign(planned)
  const tools: Record<string, GeneratedTool<R>> = {}
  const operations: Array<{ tool: string; method: string; path: string }> = []
  planned.forEach((plan, i) => {
    const toolPath = names[i].join(".")
    const tool = Tool.make({
      description: plan.description,
      input: plan.input,
      output: plan.output,
      execute: (input: unknown) => Request.call(plan, toolPath, runtime, input),
    })
    tools[toolPath] = tool
    operations.push({ tool: toolPath, method: plan.method.toUpperCase(), path: plan.path })
  })
  return { tools, skipped, operations }
}

/**
 * Read a document from a file path, an http(s) URL, or JSON/YAML text, resolving external `$ref`s. Swagger 2.0 and
 * anything that is not OpenAPI 3.0/3.1 are rejected with a `DocumentError`.
 */
export const load = (source: string | object, options?: Loader.LoadOptions): Promise<Document> =>
  Loader.load(source, options)

/** Options of `layer`: those of `fromSpec`, with the document given directly (`spec`) or as a `source` to load. */
export type LayerOptions<R = never> = Omit<Options<R>, "spec"> & {
  /** Where the tools are mounted in the tool tree (a dotted path; default: the root). */
  readonly mount?: string | undefined
} & ({ readonly spec: unknown; readonly source?: undefined } | { readonly source: string; readonly spec?: undefined })

/**
 * A `ToolSource` layer contributing the document's tools. With `source`, the document is loaded when the layer is
 * built (failing with a `DocumentError`). The tools need `HttpClient.HttpClient` when they run.
 */
export const layer = <R = never>(
  options: LayerOptions<R>,
): Layer.Layer<never, DocumentError, Contributions.Contributions> => {
  if (!isObject(options)) throw new TypeError("OpenAPI.layer expects { spec | source, mount?, …fromSpec options }")
  Strict.checkKeys("OpenAPI.layer", options, [...optionKeys, "source", "mount"])
  const { mount: mounted, source: _source, ...rest } = options
  const mount = mounted ?? ""
  if (options.source !== undefined) {
    const source = options.source
    return Layer.unwrap(
      Effect.tryPromise({
        try: () => load(source),
        catch: (error) => (error instanceof DocumentError ? error : new DocumentError(String(error))),
      }).pipe(
        Effect.flatMap((spec) =>
          Effect.try({
            try: () => ToolSource.layer(mount, fromSpec({ ...rest, spec }).tools),
            catch: (error) => (error instanceof DocumentError ? error : new DocumentError((error as Error).message)),
          }),
        ),
      ),
    )
  }
  return ToolSource.layer(mount, fromSpec({ ...rest, spec: options.spec }).tools)
}

export type { Document } from "./Document.js"
