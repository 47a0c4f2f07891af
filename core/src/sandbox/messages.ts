/**
 * Messages between the host and a sandbox process, as frames (see `frames.ts`).
 *
 * Every message about a program carries its run id, and every answer its call's ticket: a sandbox keeps only answers
 * for the run in progress and the tickets it is waiting for, and the host keeps only messages of the run it is
 * serving. Whatever else arrives is dropped, so no execution can see another's answers.
 */
import type { Diagnostic } from "../Diagnostic.js"
import type { HostCall, HostFailure, HostOutcome, RunOutcome, RunRequest } from "./protocol.js"

/** Host → sandbox: run a program (`run` ids increase for each run of one sandbox). */
export interface RunMessage {
  readonly t: "run"
  readonly run: number
  readonly module: string
  /**
   * The request; its `tools` and `extensions` are left out when `sameShapes` is set: they are those of the last run
   * this sandbox process read, which had the same `scope` (a runtime's shapes never change).
   */
  readonly request: RunRequest | Omit<RunRequest, "tools" | "extensions">
  /** Set when the request leaves out the tool and extension shapes (see `request`). */
  readonly sameShapes?: true
  readonly deadline: number
}

/** Host → sandbox: the answer to a call of run `run`. */
export interface AnswerMessage {
  readonly t: "answer"
  readonly run: number
  readonly ticket: number
  readonly outcome: HostOutcome
}

/**
 * Host → sandbox: the host ended run `run` (a limit); every wait of the program from now on receives `error`, first
 * the wait for `ticket`, the call that crossed the limit. The host reads no further calls of the run.
 */
export interface AbortMessage {
  readonly t: "abort"
  readonly run: number
  readonly ticket: number
  readonly error: HostFailure
}

/** Host → sandbox: every answer sent before this one has been written (the reply to a `barrier`). */
export interface BarrierReply {
  readonly t: "barrier"
  readonly run: number
  readonly id: number
}

/**
 * Host → sandbox: load these language modules now, so that the first run does not wait for them; with `warm`, the
 * sandbox is idle (no run follows at once) and also warms them (`LanguageRuntime.warm`).
 */
export interface PreloadMessage {
  readonly t: "preload"
  readonly modules: ReadonlyArray<string>
  readonly warm: boolean
}

/** What the host sends. */
export type HostMessage = RunMessage | AnswerMessage | AbortMessage | BarrierReply | PreloadMessage

/** What the sandbox sends. */
export type SandboxMessage =
  | { readonly t: "ready" }
  | { readonly t: "call"; readonly run: number; readonly ticket: number; readonly call: HostCall }
  | { readonly t: "cancel"; readonly run: number; readonly ticket: number }
  | { readonly t: "barrier"; readonly run: number; readonly id: number }
  | { readonly t: "log"; readonly run: number; readonly line: string }
  | { readonly t: "warn"; readonly run: number; readonly diagnostic: Diagnostic }
  | {
      readonly t: "done"
      readonly run: number
      readonly outcome: RunOutcome
      /** Set when the sandbox must not be reused (its language could not reset its state). */
      readonly retire?: string
      /** Set when nothing is left to clean up after the run: the sandbox reads its next message now (no `idle`). */
      readonly clean?: true
    }
  | {
      /**
       * After the `done` of run `run`: the sandbox has put back what the run changed (`LanguageRuntime.afterRun`,
       * garbage collection) and reads its next message. The host may send the next run before this arrives; it is
       * read after it, and nothing of it is sent before it.
       */
      readonly t: "idle"
      readonly run: number
    }
  | {
      /**
       * After a `preload` with `warm`: the sandbox has warmed its languages and cleaned up after the warm-up, and reads
       * its next message. A run sent before this arrives waits for the warm-up to end.
       */
      readonly t: "warmed"
    }
  | {
      /**
       * The sandbox could not put its state back after its last run (or its warm-up) and reads nothing more: a run
       * the host sent it since starts over in a new sandbox process, and without one the host kills it.
       */
      readonly t: "retire"
      readonly reason: string
    }
  | {
      /** The sandbox is about to die: `outOfMemory` when its heap limit was reached. */
      readonly t: "crash"
      readonly reason: string
      readonly outOfMemory: boolean
    }

/** File descriptors of the two channels inside a sandbox process. */
export const TO_SANDBOX_FD = 3
export const FROM_SANDBOX_FD = 4

/**
 * The signal the host sends a sandbox that is warming up when it gives it a run: the warm-up stops at its next step.
 * The sandbox handles it before it says it is ready.
 */
export const WARM_UP_STOP = "SIGUSR2"
