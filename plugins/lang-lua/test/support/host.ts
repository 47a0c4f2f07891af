/**
 * A synchronous in-test SandboxHost and a `runLua` helper that drives the worker's `run` directly.
 */
import type * as Sandbox from "@codemode/core/sandbox"
import { run, runWithWorkBound } from "../../src/worker.js"

type DataValue = Sandbox.DataValue
type HostCall = Sandbox.HostCall
type HostOutcome = Sandbox.HostOutcome

/** The tool tree every test program sees. */
export const toolShape: Sandbox.ToolShape = {
  ns: {
    echo: true,
    fail: true,
    limit: true,
    "x-y": true,
    records: true,
    emptyArray: true,
    emptyObject: true,
    nulls: true,
    unicode: true,
    number: true,
    nothing: true,
    deep: true,
    failUnicode: true,
    café: true,
  },
  other: { nested: { tool: true } },
}

/** Extension globals every test program sees. */
export const extensions: ReadonlyArray<Sandbox.ExtensionShape> = [
  { name: "web", language: "any", globals: { fetch: "sync", fs: { readFile: "sync", promises: { stat: "async" } } } },
]

/** Records returned by `tools.ns.records({ count = n })`. */
export const makeRecords = (n: number): Array<DataValue> =>
  Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    name: `item-${i + 1}`,
    group: ["a", "b", "c"][i % 3],
    price: (i * 7) % 50,
    active: i % 4 !== 0,
    tags: i % 2 === 0 ? ["x", "y"] : [],
  }))

const deep = (n: number): DataValue => (n === 0 ? "leaf" : { next: deep(n - 1) })

/** How the fake host answers each call. */
const answer = (call: HostCall): HostOutcome => {
  if (call.kind === "search")
    return {
      ok: true,
      value: {
        items: [{ path: "ns.echo", description: "Echo the input", signature: "tools.ns.echo(input)" }],
        remaining: 0,
        next: null,
      },
    }
  if (call.kind === "extension")
    return { ok: true, value: { extension: call.extension, name: call.name, args: call.args } }
  const input = call.input as { readonly [key: string]: DataValue }
  switch (call.path) {
    case "ns.echo":
    case "ns.x-y":
    case "other.nested.tool":
      return { ok: true, value: call.input }
    case "ns.failUnicode":
      return { ok: false, error: { kind: "ToolFailure", message: "refusé: ключ € 😀", fatal: false } }
    case "ns.café":
      return { ok: true, value: call.input }
    case "ns.fail":
      return { ok: false, error: { kind: "ToolFailure", message: "ns.fail refused: boom", fatal: false } }
    case "ns.limit":
      return {
        ok: false,
        error: { kind: "ToolCallLimitExceeded", message: "the program made too many tool calls", fatal: true },
      }
    case "ns.records":
      return { ok: true, value: makeRecords(typeof input?.count === "number" ? input.count : 10) }
    case "ns.emptyArray":
      return { ok: true, value: [] }
    case "ns.emptyObject":
      return { ok: true, value: {} }
    case "ns.nulls":
      return { ok: true, value: { a: null, list: [1, null, 3], obj: { b: null } } }
    case "ns.unicode":
      return { ok: true, value: { s: "héllo €😀", key: { ключ: "значение" } } }
    case "ns.number":
      return { ok: true, value: { int: 10, float: 2.5, big: 1e20, negzero: -0 } }
    case "ns.nothing":
      return { ok: true, value: null }
    case "ns.deep":
      return { ok: true, value: deep(typeof input?.depth === "number" ? input.depth : 10) }
    default:
      return { ok: false, error: { kind: "UnknownTool", message: `no tool ${call.path}`, fatal: false } }
  }
}

/** A recording fake host. */
export class FakeHost implements Sandbox.SandboxHost {
  readonly calls: Array<HostCall> = []
  readonly logs: Array<string> = []
  readonly warnings: Array<Sandbox.Diagnostic> = []
  constructor(readonly deadline: number = Infinity) {}
  call(call: HostCall): HostOutcome {
    this.calls.push(call)
    return answer(call)
  }
  private readonly started: Array<{ readonly ticket: number; readonly call: HostCall }> = []
  private tickets = 0
  /** Lua starts a call only to compile while it waits (see `worker.ts`): it is answered when awaited. */
  start(call: HostCall): number {
    this.calls.push(call)
    this.started.push({ ticket: ++this.tickets, call })
    return this.tickets
  }
  waitAny(): { ticket: number; outcome: HostOutcome } {
    const first = this.started.shift()
    if (first === undefined) throw new Error("waitAny: no host call is in flight")
    return { ticket: first.ticket, outcome: answer(first.call) }
  }
  settledCalls(): never {
    throw new Error("not used by Lua")
  }
  retire(): void {}
  cancel(): void {}
  log(line: string): void {
    this.logs.push(line)
  }
  warn(diagnostic: Sandbox.Diagnostic): void {
    this.warnings.push(diagnostic)
  }
}

/** The outcome of one program, with the host that served it. */
export interface LuaRun {
  readonly outcome: Sandbox.RunOutcome
  readonly host: FakeHost
}

/** Run `code` with the standard tools and extensions (`maxSteps` lowers the work bound, for its tests). */
export const runLua = (code: string, options: { deadline?: number; maxSteps?: number } = {}): LuaRun => {
  const host = new FakeHost(options.deadline ?? Date.now() + 60_000)
  const request = {
    code,
    tools: toolShape,
    extensions,
    limits: { timeoutMs: 60_000, maxToolCalls: 128, maxOutputBytes: 65_536 },
  }
  const outcome =
    options.maxSteps === undefined ? run(request, host) : runWithWorkBound(request, host, options.maxSteps)
  return { outcome, host }
}
