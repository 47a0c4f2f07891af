import type { Sandbox } from "@codemode/core"

type Run = (request: Sandbox.RunRequest, host: Sandbox.SandboxHost) => Sandbox.RunOutcome

/** A program whose output differs between ours and lua5.4. */
export interface Difference {
  readonly seed: number
  readonly program: string
  readonly expected: string
  readonly ours: string
}

/** Run `programs` under lua5.4; returns each program's output. */
export declare const runPuc: (programs: ReadonlyArray<string>) => Array<string>
/** Run one program with our `run`; returns its output in the same form. */
export declare const runOurs: (run: Run, program: string) => string
/** Run programs `from` .. `from + count - 1` of `generate` under both; returns those whose outputs differ. */
export declare const differences: (
  run: Run,
  generate: (seed: number) => string,
  from: number,
  count: number,
  batch?: number,
) => Array<Difference>
