/**
 * Messages between the host and a sandbox worker.
 */
import type { Diagnostic } from "../Diagnostic.js"
import type { HostCall, HostOutcome, RunOutcome, RunRequest } from "./protocol.js"

/** Data every worker starts with: the wake-up counter shared with the host and the port answers arrive on. */
export interface WorkerData {
  readonly signal: SharedArrayBuffer
}

/** Host → worker: run a program. */
export interface RunMessage {
  readonly t: "run"
  readonly run: number
  readonly module: string
  readonly request: RunRequest
  readonly deadline: number
}

/** Host → worker, on the reply port: the answer to a call. */
export interface HostMessage {
  readonly ticket: number
  readonly outcome: HostOutcome
}

/** Worker → host. */
export type WorkerMessage =
  | { readonly t: "call"; readonly ticket: number; readonly call: HostCall }
  | { readonly t: "cancel"; readonly ticket: number }
  | { readonly t: "log"; readonly line: string }
  | { readonly t: "warn"; readonly diagnostic: Diagnostic }
  | { readonly t: "done"; readonly run: number; readonly outcome: RunOutcome }
