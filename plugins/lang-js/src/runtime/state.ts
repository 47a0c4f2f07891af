/**
 * The state of the one execution a worker runs at a time.
 *
 * The interpreter is plain synchronous code and a worker runs one program at a time, so the hot counters live in
 * one module-level object that compiled closures read and write directly.
 */
import type { Location, SandboxHost } from "@codemode/core/sandbox"
import type { Realm } from "./realm.js"

/** What one execution needs at hand everywhere (see `rt`). */
export interface RunState {
  /** The realm of the running execution. */
  realm: Realm
  /** The host bridge of the running execution. */
  host: SandboxHost
  /** Work units left before the next budget and deadline check. */
  fuel: number
  /** Work units spent before the current `fuel` allowance was handed out. */
  spent: number
  /** Current depth of nested calls. */
  depth: number
  /** The call depth at which the innermost resumed generator or async function body runs. */
  base: number
  /** The location of the most recent call, for errors raised inside built-ins. */
  loc: Location | undefined
  /** The value of the `return` statement being executed. */
  ret: unknown
  /** The value of the last top-level expression statement (REPL-style result). */
  completion: unknown
  /** Set once a fatal failure happened: nothing of the program may run afterwards. */
  dead: boolean
  /** Set by an async generator before it suspends: true for `await`, false for `yield`. */
  awaiting: boolean
  /** Counts the executions of this worker: what compiled code makes once per execution is made again when it changes. */
  execution: number
}

/** The execution state. Reset by `resetState` before every run. */
export const rt: RunState = {
  realm: undefined as unknown as Realm,
  host: undefined as unknown as SandboxHost,
  fuel: 0,
  spent: 0,
  depth: 0,
  base: 0,
  loc: undefined,
  ret: undefined,
  completion: undefined,
  dead: false,
  awaiting: false,
  execution: 0,
}
