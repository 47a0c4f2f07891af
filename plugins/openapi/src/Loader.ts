/**
 * Loading a document: from a file, an http(s) URL, JSON or YAML text, or an object, with external `$ref`s bundled
 * into the document (by @apidevtools/swagger-parser) so that `fromSpec` can follow every reference locally.
 */
import { existsSync, statSync } from "node:fs"
import { resolve as resolvePath } from "node:path"
import SwaggerParser from "@apidevtools/swagger-parser"
import yaml from "js-yaml"
import { check, DocumentError, isObject, type Document } from "./Document.js"

/** Options of `load`. */
export interface LoadOptions {
  /** How long to wait for a document (or an external reference) fetched over HTTP, in milliseconds (default 30,000). */
  readonly timeoutMs?: number
}

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim()

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
 * Load a document. `source` is a file path, an http(s) URL, JSON or YAML text, or an already-parsed object.
 * Relative server URLs of a document fetched over HTTP are resolved against its URL.
 */
export const load = async (source: string | object, options: LoadOptions = {}): Promise<Document> => {
  const timeout = options.timeoutMs ?? 30_000
  const parserOptions = { resolve: { http: { timeout }, external: true }, dereference: { circular: true as const } }
  let input: string | object
  let where: string
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
    input = source.trim()
    where = input
  } else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(source.trim())) {
    throw new DocumentError(`cannot load "${source}": only file paths and http(s) URLs are supported`)
  } else {
    const path = resolvePath(source)
    if (!existsSync(path)) throw new DocumentError(`OpenAPI document not found: ${source}`)
    if (!statSync(path).isFile()) throw new DocumentError(`not a file: ${source}`)
    input = path
    where = source
  }
  let bundled: unknown
  try {
    bundled = await SwaggerParser.bundle(input as string, parserOptions)
  } catch (error) {
    throw new DocumentError(`cannot load ${where}: ${oneLine((error as Error).message ?? String(error))}`)
  }
  preCheck(bundled, where)
  return bundled as Document
}
