/**
 * Where the user's program called a Drive operation. A failure's message ends with that place (`at drive.ts:12:7`)
 * instead of pointing into Drive's bundled files: the site is read from the stack when the operation's Effect is
 * made, which happens synchronously in the user's code. Frames inside this package, inside `effect` and inside
 * Node are skipped. With source maps enabled (the CLI enables them), TypeScript positions are reported.
 */
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import { Effect } from "effect"

// This module is in `src/` or bundled into `dist/`: both are Drive's own code, the package's tests are not.
const ownCode = (() => {
  const dir = Path.dirname(fileURLToPath(import.meta.url))
  const root = Path.basename(dir) === "src" || Path.basename(dir) === "dist" ? Path.dirname(dir) : dir
  return [Path.join(root, "src") + Path.sep, Path.join(root, "dist") + Path.sep]
})()

const internal = (file: string) =>
  file.startsWith("node:") ||
  ownCode.some((prefix) => file.startsWith(prefix)) ||
  file.includes(`${Path.sep}node_modules${Path.sep}effect${Path.sep}`) ||
  file.includes(`${Path.sep}node_modules${Path.sep}vitest${Path.sep}`) ||
  file.includes(`${Path.sep}node_modules${Path.sep}@vitest${Path.sep}`)

const framePattern = /\(?((?:file:\/\/)?[^\s()]+):(\d+):(\d+)\)?$/

/** The first stack frame outside Drive, `effect` and Node, as `file:line:column` (relative to the cwd). */
export const capture = (): string | undefined => {
  const stack = new Error().stack?.split("\n").slice(1) ?? []
  for (const line of stack) {
    const match = framePattern.exec(line.trim())
    if (match === null) continue
    const file = match[1].startsWith("file://") ? fileURLToPath(match[1]) : match[1]
    if (!Path.isAbsolute(file) || internal(file)) continue
    return `${Path.relative(process.cwd(), file) || file}:${match[2]}:${match[3]}`
  }
  return undefined
}

/** A tagged error with the call site appended to its message (the same class and fields otherwise). */
const withSite = <E>(error: E, site: string): E => {
  if (typeof error !== "object" || error === null || !("message" in error)) return error
  const message = (error as { message: unknown }).message
  if (typeof message !== "string" || message.includes(`(at ${site})`)) return error
  const copy = Object.create(Object.getPrototypeOf(error)) as Record<string, unknown>
  Object.assign(copy, error)
  // The message may carry a screen dump after its first line: the site goes at the end of that line's sentence.
  const [first, ...rest] = message.split("\n")
  const located = /\. Screen:$/.test(first)
    ? first.replace(/\. Screen:$/, ` (at ${site}). Screen:`)
    : `${first} (at ${site})`
  copy.message = [located, ...rest].join("\n")
  return copy as E
}

/** Mark `effect`'s failures with the place the user's code called `operation` (captured now). */
export const located = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> => {
  const site = capture()
  return site === undefined ? effect : Effect.mapError(effect, (error) => withSite(error, site))
}
