/**
 * The sandbox worker module of `@codemode/lang-js`: the sandbox worker imports it and calls `run` for each
 * execution, `afterRun` after each once its result is sent, and `warm` once, while idle, before the first.
 */
import { releaseRealm } from "./builtins/index.js"
import { compileOnly, runProgram } from "./execute.js"
import type { RunOutcome, RunRequest, SandboxHost } from "@codemode/core/sandbox"
import { warmUp, warmSteps as warmStepsOf } from "./warm.js"

/** Run one JavaScript program against the host bridge. */
export const run = (request: RunRequest, host: SandboxHost): RunOutcome => runProgram(request, host)

/**
 * Compile and optimise the interpreter's own code before the first program (see `warm.ts`). The sandbox calls it once
 * after loading this module, while it is idle.
 */
export const warm = (rounds?: number): void => {
  warmUp(run, compileOnly, rounds)
}

/** The warm-up of {@link warm}, a program a step, for a sandbox that stops it when a run arrives. */
export const warmSteps = (): Iterator<unknown> => warmStepsOf(run, compileOnly)

/**
 * Put the realm back for the next program (see `releaseRealm`); the sandbox calls it after each run's result is
 * sent and after `warm`. Returns why the sandbox must retire when the realm's state is unknown.
 */
export const afterRun = (): string | undefined => releaseRealm()
