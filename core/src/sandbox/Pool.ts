/**
 * The pool of sandbox workers on the host side.
 *
 * Workers are `worker_threads` with `resourceLimits`; they are unref'ed so the pool never keeps the process alive.
 * A worker that timed out, was interrupted or crashed is terminated and replaced, never reused.
 */
import { availableParallelism } from "node:os"
import { MessageChannel, type MessagePort, Worker } from "node:worker_threads"
import type { HostOutcome, RunRequest } from "./protocol.js"
import type { RunMessage, WorkerMessage } from "./messages.js"

/** Pool settings. */
export interface PoolOptions {
  /** Workers kept warm when idle (default: the number of cores). */
  readonly keepIdle?: number
  /** Most workers alive at once; further executions wait (default 64). */
  readonly maxWorkers?: number
  /** Heap limit of each worker in MB (default 512). */
  readonly maxOldGenerationSizeMb?: number
  /** The worker script; defaults to the built `sandbox-worker.js` beside this module. */
  readonly workerUrl?: URL
}

/** How one run on a worker ended, as seen by the host. */
export type WorkerEvent =
  | { readonly type: "message"; readonly message: WorkerMessage }
  | { readonly type: "crash"; readonly reason: string; readonly outOfMemory: boolean }

/** One sandbox worker. */
export class SandboxWorker {
  private readonly signal: Int32Array
  private readonly replies: MessagePort
  private listener: ((event: WorkerEvent) => void) | undefined
  private runs = 0
  dead = false

  constructor(
    private readonly worker: Worker,
    signal: SharedArrayBuffer,
    replies: MessagePort,
  ) {
    this.signal = new Int32Array(signal)
    this.replies = replies
    worker.on("message", (message: WorkerMessage) => this.listener?.({ type: "message", message }))
    worker.on("error", (error: Error & { code?: string }) => {
      this.dead = true
      const outOfMemory = error.code === "ERR_WORKER_OUT_OF_MEMORY"
      this.listener?.({ type: "crash", reason: error.message, outOfMemory })
    })
    worker.on("exit", (code) => {
      if (this.dead) return
      this.dead = true
      this.listener?.({ type: "crash", reason: `the sandbox worker exited with code ${code}`, outOfMemory: false })
    })
  }

  /** Start running `request` with the language runtime at `module`; events go to `listener`. Returns the run id. */
  run(module: string, request: RunRequest, deadline: number, listener: (event: WorkerEvent) => void): number {
    this.listener = listener
    // A running program keeps the process alive, like any pending I/O; an idle worker does not.
    this.worker.ref()
    const run = ++this.runs
    const message: RunMessage = { t: "run", run, module, request, deadline }
    this.worker.postMessage(message)
    return run
  }

  /** Answer a call and wake the worker. */
  reply(ticket: number, outcome: HostOutcome): void {
    if (this.dead) return
    this.replies.postMessage({ ticket, outcome })
    Atomics.add(this.signal, 0, 1)
    // Slot 1 says the worker is asleep; while it polls, the answer is picked up without a wake-up call.
    if (Atomics.load(this.signal, 1) === 1) Atomics.notify(this.signal, 0)
  }

  /** Stop listening (between runs). */
  detach(): void {
    this.listener = undefined
    this.worker.unref()
  }

  /** Terminate the worker now. */
  terminate(): void {
    this.dead = true
    this.listener = undefined
    this.replies.close()
    void this.worker.terminate()
  }
}

const defaultWorkerUrl = () => new URL("./sandbox-worker.js", import.meta.url)

/** A pool of sandbox workers. */
export class SandboxPool {
  private readonly idle: SandboxWorker[] = []
  private readonly waiting: Array<(worker: SandboxWorker) => void> = []
  private alive = 0
  private closed = false
  private readonly keepIdle: number
  private readonly maxWorkers: number
  private readonly maxOld: number
  private readonly workerUrl: URL

  constructor(options: PoolOptions = {}) {
    this.keepIdle = options.keepIdle ?? availableParallelism()
    this.maxWorkers = options.maxWorkers ?? 64
    this.maxOld = options.maxOldGenerationSizeMb ?? 512
    this.workerUrl = options.workerUrl ?? defaultWorkerUrl()
  }

  private spawn(): SandboxWorker {
    const signal = new SharedArrayBuffer(8)
    const channel = new MessageChannel()
    const worker = new Worker(this.workerUrl, {
      workerData: { signal, replies: channel.port2 },
      transferList: [channel.port2],
      resourceLimits: { maxOldGenerationSizeMb: this.maxOld, maxYoungGenerationSizeMb: 64, stackSizeMb: 8 },
      stdout: false,
      stderr: false,
    })
    this.alive++
    const sandbox = new SandboxWorker(worker, signal, channel.port1)
    // Listeners re-reference the worker's port, so unreference only once they are attached.
    worker.once("exit", () => {
      this.alive--
      const index = this.idle.indexOf(sandbox)
      if (index >= 0) this.idle.splice(index, 1)
      this.pump()
    })
    worker.unref()
    channel.port1.unref()
    return sandbox
  }

  private pump(): void {
    while (this.waiting.length > 0 && !this.closed && this.alive < this.maxWorkers) {
      this.waiting.shift()!(this.spawn())
    }
  }

  /** Take an idle worker, start a new one, or wait for one. */
  acquire(): Promise<SandboxWorker> {
    if (this.closed) return Promise.reject(new Error("the sandbox pool is closed"))
    const worker = this.idle.pop()
    if (worker) return Promise.resolve(worker)
    if (this.alive < this.maxWorkers) return Promise.resolve(this.spawn())
    return new Promise((resolve) => this.waiting.push(resolve))
  }

  /** Give back a worker whose run ended cleanly. */
  release(worker: SandboxWorker): void {
    worker.detach()
    if (worker.dead) return
    const next = this.waiting.shift()
    if (next) return next(worker)
    if (this.closed || this.idle.length >= this.keepIdle) return worker.terminate()
    this.idle.push(worker)
  }

  /** Terminate a worker that cannot be reused (timeout, interruption, crash). */
  discard(worker: SandboxWorker): void {
    worker.terminate()
  }

  /** Terminate every idle worker and refuse new executions. */
  close(): void {
    this.closed = true
    for (const worker of this.idle.splice(0)) worker.terminate()
  }
}

let shared: SandboxPool | undefined

/** The process-wide pool used when no pool is given. Its workers never keep the process alive. */
export const sharedPool = (): SandboxPool => (shared ??= new SandboxPool())
