/**
 * The compiled programs a worker keeps between executions, so that a program run again skips parsing, analysis and
 * compilation. An entry is keyed by the runtime that ran it (`RunRequest.scope`: no execution can learn by timing
 * what another runtime ran), the names of the globals its execution defines and the source text, and it belongs to
 * the realm it was compiled against: compiled code holds that realm's objects and global cells (see
 * `Realm.defineGlobal`), so a new realm forgets every entry.
 *
 * Compiled code keeps no state of its own between executions: what it creates at run time it creates per
 * evaluation, or per execution (a tagged template's strings object), and it reaches the execution's host through
 * the running bridge.
 */
import type { RunRequest } from "@codemode/core/sandbox"
import type { CompiledProgram } from "./compiler/compiler.js"
import type { Realm } from "./runtime/realm.js"

/** The most programs kept. */
const MAX_ENTRIES = 32

/**
 * The most source text kept, in UTF-16 code units, and the longest program kept. Compiled code takes about 80 bytes
 * of heap per character of source (75 KB for a tool program of 960 characters), so the cache holds at most about
 * 10 MB: a small part of the smallest sandbox heap.
 */
const MAX_SOURCE_TOTAL = 128 * 1024
const MAX_SOURCE_KEPT = 32 * 1024

interface Entry {
  readonly program: CompiledProgram
  readonly size: number
}

/** Entries by key, most recently used last. */
const entries = new Map<string, Entry>()
let kept = 0
let owner: Realm | undefined

/** The cache key of a request: its scope, the globals its execution defines, its source. */
export const programKey = (request: RunRequest): string => {
  let globals = ""
  for (const ext of request.extensions) {
    if (ext.language === "lua") continue
    for (const name of Object.keys(ext.globals)) globals += `${name},`
  }
  return `${request.scope ?? ""}\u0000${globals}\u0000${request.code}`
}

/** The program compiled for `key` against `realm`, if one is kept (it becomes the most recently used). */
export const keptProgram = (key: string, realm: Realm): CompiledProgram | undefined => {
  if (owner !== realm) {
    forgetPrograms()
    owner = realm
    return undefined
  }
  const entry = entries.get(key)
  if (entry === undefined) return undefined
  entries.delete(key)
  entries.set(key, entry)
  return entry.program
}

/** Keep `program`, compiled from `source` against `realm` (the owner `keptProgram` last saw), under `key`. */
export const keepProgram = (key: string, source: string, program: CompiledProgram): void => {
  if (source.length > MAX_SOURCE_KEPT) return
  entries.set(key, { program, size: source.length })
  kept += source.length
  for (const [k, old] of entries) {
    if (entries.size <= MAX_ENTRIES && kept <= MAX_SOURCE_TOTAL) break
    entries.delete(k)
    kept -= old.size
  }
}

/** Forget every kept program. */
export const forgetPrograms = (): void => {
  entries.clear()
  kept = 0
}
