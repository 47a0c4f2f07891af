/**
 * The contract between the sandbox worker and a language runtime running inside it.
 *
 * A language plugin ships a worker module (its `workerModule` URL) that exports `run(request, host)`. The worker
 * imports it once and calls `run` for each execution. `run` is plain synchronous code: every call into the host
 * blocks the worker thread until the host answers, so interpreters need no promises of their own.
 */
import type { DataValue } from "../Data.js"
import type { Diagnostic, Kind, Location } from "../Diagnostic.js"

/** The shape of the tool tree as the program sees it: a leaf (`true`) is a callable tool. */
export interface ToolShape {
  readonly [segment: string]: true | ToolShape
}

/**
 * The shape of an extension global: a function (`"sync"` or `"async"`, for JavaScript's calling convention) or an
 * object of functions.
 */
export type GlobalShape = "sync" | "async" | { readonly [name: string]: GlobalShape }

/** One extension as the worker sees it. */
export interface ExtensionShape {
  readonly name: string
  /** `"lua"` for `Extension.lua`, `"any"` for `Extension.make`. */
  readonly language: "any" | "lua"
  readonly globals: { readonly [name: string]: GlobalShape }
}

/** Limits as the runtime applies them; the host enforces them too. */
export interface RunLimits {
  readonly timeoutMs: number
  readonly maxToolCalls: number
  readonly maxOutputBytes: number
}

/** What the worker receives to run one program. */
export interface RunRequest {
  readonly code: string
  /**
   * Identifies the runtime that asked (random, one per `CodeMode.make`). Anything a language keeps across runs (a
   * cache of compiled programs) must be keyed by it, so that no execution can learn by timing what another runtime
   * ran in the same sandbox.
   */
  readonly scope?: string
  readonly tools: ToolShape
  readonly extensions: ReadonlyArray<ExtensionShape>
  readonly limits: RunLimits
}

/** A call from the program into the host. */
export type HostCall =
  | { readonly kind: "tool"; readonly path: string; readonly input: DataValue }
  | { readonly kind: "search"; readonly input: DataValue }
  | {
      readonly kind: "extension"
      readonly extension: string
      /**
       * The dotted path of the function inside its global, e.g. `fetch` or `fs.promises.readFile`; for a function
       * that came in a result, its {@link ResultFunction.name}.
       */
      readonly name: string
      readonly args: ReadonlyArray<DataValue>
      /** Set when calling a function that came in a result: its {@link ResultFunction.handle}. */
      readonly handle?: number
    }

/**
 * A function inside an extension call's result. The result holds `null` at `path` (keys and array indices from the
 * result's root; empty when the result is the function itself); the program sees a function there, and calling it is
 * an extension call of the same extension with this `name` and `handle`. Handles are valid for the execution.
 */
export interface ResultFunction {
  readonly path: ReadonlyArray<string | number>
  readonly handle: number
  /** How hooks and the call list name it: the call that returned it, `()`, and its path (`db.open().query`). */
  readonly name: string
  /** True when JavaScript programs see it as asynchronous (see `Extension.isAsync`). */
  readonly async: boolean
}

/**
 * A failed host call. `fatal` failures (limits, interruption) end the program: the runtime must not let the program
 * catch them and must report `diagnostic` as the execution's error, adding the call site's location.
 */
export interface HostFailure {
  readonly kind: Kind
  readonly message: string
  readonly fatal: boolean
}

/** How a host call ended. An extension call's value may carry functions (see {@link ResultFunction}). */
export type HostOutcome =
  | { readonly ok: true; readonly value: DataValue; readonly functions?: ReadonlyArray<ResultFunction> }
  | { readonly ok: false; readonly error: HostFailure }

/** The host, as seen from inside the worker. */
export interface SandboxHost {
  /** Call the host and block until it answers. */
  call(call: HostCall): HostOutcome
  /** Start a call without waiting; returns a ticket for `waitAny`. */
  start(call: HostCall): number
  /** Block until one started call ends; returns its ticket and outcome. Throws when nothing is in flight. */
  waitAny(): { readonly ticket: number; readonly outcome: HostOutcome }
  /**
   * The started calls that have already ended on the host, without waiting for the others: one round trip, so every
   * answer the host had produced before it is included. Each is returned once and is no longer in flight. Used at
   * the end of a program to see which un-awaited calls already failed.
   */
  settledCalls(): ReadonlyArray<{ readonly ticket: number; readonly outcome: HostOutcome }>
  /** Tell the host that the program no longer needs a started call (it will be interrupted). */
  cancel(ticket: number): void
  /** Append one line to the program's logs. */
  log(line: string): void
  /** Add a non-fatal diagnostic. */
  warn(diagnostic: Diagnostic): void
  /**
   * Say that this sandbox must not run another program after this one (the language could not reset its state, for
   * example a realm whose restore threw). The host discards it once the run ends; the run's outcome stands.
   */
  retire(reason: string): void
  /** `Date.now()` value after which the execution has timed out (`Infinity` when unlimited). */
  readonly deadline: number
}

/** What `run` returns. Throwing from `run` is reported as an `ExecutionFailure` defect. */
export type RunOutcome =
  | { readonly ok: true; readonly value: DataValue }
  | { readonly ok: false; readonly error: Diagnostic }

/** The module a language ships for the sandbox worker. */
export interface LanguageRuntime {
  run(request: RunRequest, host: SandboxHost): RunOutcome
  /**
   * Optional: compile and optimise the runtime's own code before its first run. A sandbox the pool starts ahead of
   * use calls it once after loading the module, while no run waits; it must leave nothing a run can see.
   */
  warm?(): void
  /**
   * Optional: the warm-up of `warm`, a step at a time (a step is one warm-up program of a few milliseconds). A sandbox
   * that has it uses it instead of `warm`, and stops after the step in progress when the host gives it a run.
   */
  warmSteps?(): Iterator<unknown>
  /**
   * Optional: put back what the last run (or `warm`) changed, after the run's result went to the host: the caller
   * has its result while this runs, and the sandbox reads its next run only after it returns. Returns why the
   * sandbox must not run another program when its state could not be put back (the sandbox then retires, and a run
   * already sent to it starts in a new sandbox process), `undefined` when it is clean. A runtime without it must
   * leave nothing of a run that the next could see by the time `run` returns.
   */
  afterRun?(): string | undefined
}

export type { DataValue, Diagnostic, Kind, Location }
