/**
 * A fake sandbox host for driving `run()` directly: tools and extensions are plain functions, started calls end in
 * virtual time (a call may take `delay` ticks), so tests control the order in which concurrent calls finish.
 */
import type {
  DataValue,
  Diagnostic,
  HostCall,
  HostOutcome,
  RunOutcome,
  RunRequest,
  SandboxHost,
} from "@codemode/core/sandbox"
import { run } from "../src/worker.js"

/** What a fake tool returns: a value, a failure, or either after a delay in virtual ticks. */
export type FakeResult =
  | { readonly value: DataValue; readonly delay?: number }
  | { readonly fail: string; readonly kind?: HostFailureKind; readonly fatal?: boolean; readonly delay?: number }

type HostFailureKind = "ToolFailure" | "UnknownTool" | "InvalidToolInput" | "ToolCallLimitExceeded" | "TimeoutExceeded"

export interface FakeOptions {
  /** Tools by dotted path. */
  readonly tools?: Record<string, (input: DataValue) => FakeResult>
  /** The `search` built-in. */
  readonly search?: (input: DataValue) => FakeResult
  /** Extension globals: name → `"sync"`/`"async"` and a handler, or nested objects. */
  readonly extensions?: Record<string, FakeExtension>
  readonly deadline?: number
}

export type FakeExtension =
  | { readonly kind: "sync" | "async"; readonly fn: (...args: DataValue[]) => FakeResult }
  | { readonly members: Record<string, FakeExtension> }

export interface RunResult {
  readonly outcome: RunOutcome
  readonly logs: string[]
  readonly warnings: Diagnostic[]
  readonly calls: HostCall[]
  readonly cancelled: number[]
  /** The result value when the run succeeded (throws otherwise, with the diagnostic). */
  readonly value: DataValue
}

const toOutcome = (r: FakeResult): HostOutcome =>
  "value" in r
    ? { ok: true, value: r.value }
    : { ok: false, error: { kind: r.kind ?? "ToolFailure", message: r.fail, fatal: r.fatal ?? false } }

const shapeOf = (paths: string[]) => {
  const root: Record<string, unknown> = {}
  for (const p of paths) {
    const segs = p.split(".")
    let node = root
    for (let i = 0; i < segs.length - 1; i++) node = (node[segs[i]] ??= {}) as Record<string, unknown>
    node[segs[segs.length - 1]] = true
  }
  return root
}

const extensionShape = (e: FakeExtension): unknown =>
  "kind" in e ? e.kind : Object.fromEntries(Object.entries(e.members).map(([k, v]) => [k, extensionShape(v)]))

const findExtension = (exts: Record<string, FakeExtension>, name: string): FakeExtension | undefined => {
  let cur: FakeExtension | undefined = { members: exts }
  for (const seg of name.split(".")) {
    if (!cur || !("members" in cur)) return undefined
    cur = cur.members[seg]
  }
  return cur
}

/** A fake host plus the records it keeps. */
export interface FakeHost {
  readonly host: SandboxHost
  readonly logs: string[]
  readonly warnings: Diagnostic[]
  readonly calls: HostCall[]
  readonly cancelled: number[]
  readonly request: (code: string) => RunRequest
}

/** A fake host plus the records it keeps. */
export const fakeHost = (options: FakeOptions = {}): FakeHost => {
  const logs: string[] = []
  const warnings: Diagnostic[] = []
  const calls: HostCall[] = []
  const cancelled: number[] = []
  const pending: Array<{ ticket: number; at: number; outcome: HostOutcome }> = []
  let now = 0
  let nextTicket = 1
  const handle = (call: HostCall): FakeResult => {
    switch (call.kind) {
      case "tool": {
        const t = options.tools?.[call.path]
        return t ? t(call.input) : { fail: `Unknown tool ${call.path}`, kind: "UnknownTool" }
      }
      case "search":
        return options.search ? options.search(call.input) : { value: { items: [], remaining: 0 } }
      case "extension": {
        const e = findExtension(options.extensions ?? {}, call.name)
        if (!e || !("fn" in e)) return { fail: `no extension ${call.name}` }
        return e.fn(...(call.args as DataValue[]))
      }
    }
  }
  const host: SandboxHost = {
    call(call) {
      calls.push(call)
      return toOutcome(handle(call))
    },
    start(call) {
      calls.push(call)
      const r = handle(call)
      const ticket = nextTicket++
      pending.push({ ticket, at: now + (r.delay ?? 0), outcome: toOutcome(r) })
      return ticket
    },
    waitAny() {
      if (pending.length === 0) throw new Error("waitAny with nothing in flight")
      let best = 0
      for (let i = 1; i < pending.length; i++) {
        const p = pending[i]
        const b = pending[best]
        if (p.at < b.at || (p.at === b.at && p.ticket < b.ticket)) best = i
      }
      const [p] = pending.splice(best, 1)
      now = Math.max(now, p.at)
      return { ticket: p.ticket, outcome: p.outcome }
    },
    settledCalls() {
      const done = pending.filter((p) => p.at <= now)
      for (const p of done) pending.splice(pending.indexOf(p), 1)
      return done.map((p) => ({ ticket: p.ticket, outcome: p.outcome }))
    },
    retire() {},
    cancel(ticket) {
      const i = pending.findIndex((p) => p.ticket === ticket)
      if (i >= 0) pending.splice(i, 1)
      cancelled.push(ticket)
    },
    log(line) {
      logs.push(line)
    },
    warn(d) {
      warnings.push(d)
    },
    deadline: options.deadline ?? Infinity,
  }
  const request = (code: string) => ({
    code,
    tools: shapeOf(Object.keys(options.tools ?? {})) as never,
    extensions: [
      {
        name: "test",
        language: "any" as const,
        globals: Object.fromEntries(
          Object.entries(options.extensions ?? {}).map(([k, v]) => [k, extensionShape(v)]),
        ) as never,
      },
    ],
    limits: { timeoutMs: Infinity, maxToolCalls: Infinity, maxOutputBytes: Infinity },
  })
  return { host, logs, warnings, calls, cancelled, request }
}

/** Run a program against a fake host. */
export const runJs = (code: string, options: FakeOptions = {}): RunResult => {
  const f = fakeHost(options)
  const outcome = run(f.request(code), f.host)
  return {
    outcome,
    logs: f.logs,
    warnings: f.warnings,
    calls: f.calls,
    cancelled: f.cancelled,
    get value(): DataValue {
      if (!outcome.ok) throw new Error(`run failed: ${outcome.error.kind}: ${outcome.error.message}`)
      return outcome.value
    },
  }
}

/** The result value of a program (throws with the diagnostic when it fails). */
export const evaluate = (code: string, options?: FakeOptions): DataValue => runJs(code, options).value

/** The diagnostic of a program that must fail. */
export const failure = (code: string, options?: FakeOptions): Diagnostic => {
  const r = runJs(code, options)
  if (r.outcome.ok) throw new Error(`expected a failure, got ${JSON.stringify(r.outcome.value)}`)
  return r.outcome.error
}
