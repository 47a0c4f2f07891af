/**
 * The sandbox worker's entry point. It imports language runtimes on demand and runs one program at a time; every
 * host call is a message to the host followed by `Atomics.wait` until the host's answer arrives on the reply port.
 */
import { type MessagePort, parentPort, receiveMessageOnPort, workerData } from "node:worker_threads"
import type { HostCall, HostOutcome, LanguageRuntime, RunOutcome, RunRequest, SandboxHost } from "./protocol.js"
import type { HostMessage, RunMessage, WorkerData, WorkerMessage } from "./messages.js"

const { signal: signalBuffer, replies } = workerData as WorkerData & { replies: MessagePort }
const signal = new Int32Array(signalBuffer)
const port = parentPort!
const runtimes = new Map<string, LanguageRuntime>()
/** How long the worker polls for an answer before it sleeps. */
const spinMicros = 50

const send = (message: WorkerMessage) => port.postMessage(message)

/** Answers that arrived for started calls but have not been claimed by `waitAny` yet. */
class Bridge implements SandboxHost {
  private nextTicket = 1
  private readonly inFlight = new Set<number>()
  private readonly ready: Array<{ ticket: number; outcome: HostOutcome }> = []
  constructor(readonly deadline: number) {}

  private receive(): { ticket: number; outcome: HostOutcome } {
    // Answers usually arrive within microseconds: poll briefly before sleeping, so the host rarely has to wake us.
    const spinUntil = performance.now() + spinMicros / 1000
    for (;;) {
      const message = receiveMessageOnPort(replies)
      if (message) return message.message as HostMessage
      if (performance.now() < spinUntil) continue
      Atomics.store(signal, 1, 1)
      const seen = Atomics.load(signal, 0)
      const late = receiveMessageOnPort(replies)
      if (late) {
        Atomics.store(signal, 1, 0)
        return late.message as HostMessage
      }
      Atomics.wait(signal, 0, seen)
      Atomics.store(signal, 1, 0)
    }
  }

  call(call: HostCall): HostOutcome {
    const ticket = this.nextTicket++
    send({ t: "call", ticket, call })
    for (;;) {
      const answer = this.receive()
      if (answer.ticket === ticket) return answer.outcome
      this.ready.push(answer)
    }
  }

  start(call: HostCall): number {
    const ticket = this.nextTicket++
    this.inFlight.add(ticket)
    send({ t: "call", ticket, call })
    return ticket
  }

  waitAny(): { ticket: number; outcome: HostOutcome } {
    for (;;) {
      const index = this.ready.findIndex((r) => this.inFlight.has(r.ticket))
      if (index >= 0) {
        const [answer] = this.ready.splice(index, 1)
        this.inFlight.delete(answer.ticket)
        return answer
      }
      if (this.inFlight.size === 0) throw new Error("waitAny: no host call is in flight")
      this.ready.push(this.receive())
    }
  }

  cancel(ticket: number): void {
    if (this.inFlight.delete(ticket)) send({ t: "cancel", ticket })
  }

  log(line: string): void {
    send({ t: "log", line })
  }

  warn(diagnostic: Parameters<SandboxHost["warn"]>[0]): void {
    send({ t: "warn", diagnostic })
  }

  /** Cancel whatever the program left running. */
  finish(): void {
    for (const ticket of this.inFlight) send({ t: "cancel", ticket })
    this.inFlight.clear()
  }
}

const load = async (module: string): Promise<LanguageRuntime> => {
  let runtime = runtimes.get(module)
  if (!runtime) {
    const imported = (await import(module)) as Partial<LanguageRuntime> & { default?: LanguageRuntime }
    const candidate = typeof imported.run === "function" ? (imported as LanguageRuntime) : imported.default
    if (!candidate || typeof candidate.run !== "function")
      throw new Error(`${module} does not export run(request, host)`)
    runtime = candidate
    runtimes.set(module, runtime)
  }
  return runtime
}

const execute = async (message: RunMessage) => {
  let outcome: RunOutcome
  try {
    const runtime = await load(message.module)
    const bridge = new Bridge(message.deadline)
    try {
      outcome = runtime.run(message.request as RunRequest, bridge)
    } finally {
      bridge.finish()
    }
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error)
    const overflow = error instanceof RangeError && /call stack/i.test(text)
    outcome = {
      ok: false,
      error: {
        kind: "ExecutionFailure",
        message: overflow
          ? "the interpreter's stack overflowed (the program nests too deeply)"
          : `internal error: ${text}`,
      },
    }
  }
  send({ t: "done", run: message.run, outcome })
}

port.on("message", (message: RunMessage) => {
  if (message.t === "run") void execute(message)
})
