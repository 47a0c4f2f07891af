/**
 * Loading a document: from a file, an http(s) URL, JSON or YAML text, or an object, with external `$ref`s bundled
 * into the document (by @apidevtools/swagger-parser) so that `fromSpec` can follow every reference locally.
 */
import { existsSync, readFileSync, statSync } from "node:fs"
import { resolve as resolvePath } from "node:path"
import SwaggerParser from "@apidevtools/swagger-parser"
import yaml from "js-yaml"
import { check, DocumentError, isObject, type Document, type JsonObject } from "./Document.js"
import { Options as Strict } from "@codemode/core/plugin"

/** Options of `load`. */
export interface LoadOptions {
  /** How long to wait for a document (or an external reference) fetched over HTTP, in milliseconds (default 30,000). */
  readonly timeoutMs?: number
  /**
   * Headers sent when fetching the document over HTTP (e.g. `authorization`), and its external references on the same
   * origin; never to another origin.
   */
  readonly headers?: { readonly [name: string]: string }
}

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim()

/** Largest document read from a file or a URL (the GitHub REST description is about 12 MB). */
export const maxDocumentBytes = 64 * 1024 * 1024

/** Most same-origin redirects followed when fetching a document. */
const maxRedirects = 5

/** Read a response body, failing past `maxDocumentBytes` without buffering the rest. */
const readCapped = async (response: Response, url: string): Promise<string> => {
  const declared = Number(response.headers.get("content-length"))
  if (Number.isFinite(declared) && declared > maxDocumentBytes)
    throw new DocumentError(
      `cannot load ${url}: the document is ${declared} bytes, over the ${maxDocumentBytes}-byte limit`,
    )
  if (!response.body) return ""
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.length
    if (size > maxDocumentBytes) {
      await reader.cancel()
      throw new DocumentError(`cannot load ${url}: the document is over the ${maxDocumentBytes}-byte limit`)
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks).toString("utf8")
}

/** Parse JSON or YAML text into an object, or throw a `DocumentError`. */
export const parseText = (text: string): unknown => {
  const trimmed = text.trim()
  if (trimmed.startsWith("{")) {
    try {
      return JSON.parse(trimmed)
    } catch (error) {
      throw new DocumentError(`the document is not valid JSON: ${(error as Error).message}`)
    }
  }
  try {
    return yaml.load(text)
  } catch (error) {
    throw new DocumentError(`the document is not valid YAML: ${oneLine((error as Error).message.split("\n")[0])}`)
  }
}

const isLoopback = (url: string): boolean => {
  try {
    const host = new URL(url).hostname.replace(/^\[|\]$/g, "")
    return host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host)
  } catch {
    return false
  }
}

/**
 * Download a document or an external reference over HTTP: redirects are followed within the URL's origin only (the
 * headers may hold credentials), and at most `maxDocumentBytes` are read.
 */
const download = async (
  url: string,
  timeout: number,
  headers: { readonly [name: string]: string },
): Promise<string> => {
  try {
    const signal = AbortSignal.timeout(timeout)
    const origin = new URL(url).origin
    let current = url
    let response: Response
    // Redirects are followed here, within the document's origin only: the headers may hold credentials.
    for (let hop = 0; ; hop++) {
      response = await fetch(current, {
        signal,
        redirect: "manual",
        headers: { accept: "application/json, application/yaml, text/yaml, */*", ...headers },
      })
      const location = response.headers.get("location")
      if (response.status < 300 || response.status >= 400 || location === null) break
      await response.body?.cancel()
      const target = new URL(location, current)
      if (target.origin !== origin)
        throw new DocumentError(
          `cannot load ${url}: it redirects to another origin (${target.origin}); load the document from there directly`,
        )
      if (hop >= maxRedirects)
        throw new DocumentError(`cannot load ${url}: it redirects more than ${maxRedirects} times`)
      current = target.href
    }
    if (!response.ok) throw new DocumentError(`cannot load ${url}: HTTP ${response.status}`)
    return await readCapped(response, url)
  } catch (error) {
    if (error instanceof DocumentError) throw error
    const cause = (error as { cause?: { message?: string } }).cause
    throw new DocumentError(`cannot load ${url}: ${oneLine(cause?.message ?? (error as Error).message)}`)
  }
}

/** Fetch and parse a document over HTTP. */
const fetchDocument = async (
  url: string,
  timeout: number,
  headers: { readonly [name: string]: string },
): Promise<JsonObject> => {
  const parsed = parseText(await download(url, timeout, headers))
  if (!isObject(parsed)) throw new DocumentError(`${url} does not hold an OpenAPI document object`)
  return parsed
}

/** Make relative server URLs absolute against the document's own URL, as the specification says. */
const resolveServers = (document: JsonObject, url: string): void => {
  const fix = (servers: unknown) => {
    if (!Array.isArray(servers)) return
    for (const server of servers) {
      if (
        isObject(server) &&
        typeof server.url === "string" &&
        !/^[a-z][a-z0-9+.-]*:/i.test(server.url) &&
        !server.url.includes("{")
      )
        (server as { url: string }).url = new URL(server.url, url).href.replace(/\/$/, "")
    }
  }
  fix(document.servers)
  for (const item of Object.values(isObject(document.paths) ? document.paths : {})) {
    if (!isObject(item)) continue
    fix(item.servers)
    for (const operation of Object.values(item)) if (isObject(operation)) fix(operation.servers)
  }
}

/** True when some `$ref` in `value` points outside the document (the only case that needs bundling). */
const hasExternalRefs = (value: unknown): boolean => {
  const stack: unknown[] = [value]
  while (stack.length > 0) {
    const node = stack.pop()
    if (Array.isArray(node)) stack.push(...node)
    else if (isObject(node)) {
      if (typeof node.$ref === "string" && !node.$ref.startsWith("#")) return true
      for (const key in node) {
        const child = node[key]
        if (typeof child === "object" && child !== null) stack.push(child)
      }
    }
  }
  return false
}

const looksLikeText = (source: string) => /^\s*\{/.test(source) || /^\s*(openapi|swagger)\s*:/m.test(source)

const preCheck = (value: unknown, where: string): void => {
  try {
    check(value)
  } catch (error) {
    if (error instanceof DocumentError) throw new DocumentError(`${where}: ${error.message}`)
    throw error
  }
}

/**
 * Load a document. `source` is a file path, an http(s) URL, JSON or YAML text, or an already-parsed object. Documents
 * with external `$ref`s are bundled into one; self-contained ones are returned as parsed.
 * Relative server URLs of a document fetched over HTTP are resolved against its URL. External references to loopback
 * or private addresses are followed for files, text and loopback URLs, and refused for documents from other URLs.
 */
export const load = async (source: string | object, options: LoadOptions = {}): Promise<Document> => {
  if (typeof options !== "object" || options === null)
    throw new TypeError("OpenAPI.load: options must be { timeoutMs?, headers? }")
  Strict.checkKeys("OpenAPI.load", options, ["timeoutMs", "headers"])
  if (options.timeoutMs !== undefined && (!Number.isInteger(options.timeoutMs) || options.timeoutMs <= 0))
    throw new RangeError("OpenAPI.load: timeoutMs must be a positive whole number of milliseconds")
  const timeout = options.timeoutMs ?? 30_000
  let input: object
  let where: string
  /** The file path or URL that external references are relative to. */
  let base: string | undefined
  /** References to loopback and private addresses are followed unless the document came from a public URL. */
  let trusted = true
  if (typeof source === "object" && source !== null) {
    input = structuredClone(source)
    where = "the document"
    preCheck(input, where)
  } else if (typeof source !== "string" || source.trim() === "") {
    throw new DocumentError("no OpenAPI document given: pass a file path, an http(s) URL, or JSON/YAML text")
  } else if (looksLikeText(source)) {
    input = parseText(source) as object
    where = "the document text"
    if (!isObject(input)) throw new DocumentError("the document text does not hold an object")
    preCheck(input, where)
  } else if (/^https?:\/\//i.test(source.trim())) {
    base = source.trim()
    where = base
    trusted = isLoopback(base)
    input = await fetchDocument(base, timeout, options.headers ?? {})
    preCheck(input, where)
    resolveServers(input as JsonObject, base)
  } else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(source.trim())) {
    throw new DocumentError(`cannot load "${source}": only file paths and http(s) URLs are supported`)
  } else {
    const path = resolvePath(source)
    if (!existsSync(path)) throw new DocumentError(`OpenAPI document not found: ${source}`)
    const stat = statSync(path)
    if (!stat.isFile()) throw new DocumentError(`not a file: ${source}`)
    if (stat.size > maxDocumentBytes)
      throw new DocumentError(`${source} is ${stat.size} bytes, over the ${maxDocumentBytes}-byte document limit`)
    where = source
    base = path
    try {
      input = parseText(readFileSync(path, "utf8")) as object
    } catch (error) {
      throw new DocumentError(`${source}: ${(error as Error).message}`)
    }
    if (!isObject(input)) throw new DocumentError(`${source} does not hold an OpenAPI document object`)
    preCheck(input, where)
  }
  if (!hasExternalRefs(input)) return input as Document
  // External references are downloaded like the document; the host's headers go only to the document's own origin.
  const documentOrigin = base !== undefined && /^https?:\/\//i.test(base) ? new URL(base).origin : undefined
  const headers = options.headers ?? {}
  // The bundler replaces a reader's message with its own; the first download failure is reported as it was.
  let downloadFailure: DocumentError | undefined
  const parserOptions = {
    resolve: {
      http: {
        timeout,
        safeUrlResolver: !trusted,
        read: (file: { readonly url: string }) =>
          download(file.url, timeout, new URL(file.url).origin === documentOrigin ? headers : {}).catch(
            (error: DocumentError) => {
              downloadFailure ??= error
              throw error
            },
          ),
      },
      external: true,
    },
  }
  let bundled: unknown
  try {
    bundled =
      base === undefined
        ? await SwaggerParser.bundle(input as never, parserOptions)
        : await SwaggerParser.bundle(base, input as never, parserOptions)
  } catch (error) {
    if (downloadFailure) throw new DocumentError(`cannot load ${where}: ${downloadFailure.message}`)
    throw new DocumentError(`cannot load ${where}: ${oneLine((error as Error).message ?? String(error))}`)
  }
  preCheck(bundled, where)
  return bundled as Document
}
