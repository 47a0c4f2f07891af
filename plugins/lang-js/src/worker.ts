/**
 * The sandbox worker module of `@codemode/lang-js`: the sandbox worker imports it and calls `run` for each
 * execution.
 */
import { runProgram } from "./execute.js"
import type { RunOutcome, RunRequest, SandboxHost } from "@codemode/core/sandbox"

/** Run one JavaScript program against the host bridge. */
export const run = (request: RunRequest, host: SandboxHost): RunOutcome => runProgram(request, host)
