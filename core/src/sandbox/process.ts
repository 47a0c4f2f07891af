/**
 * A sandbox process: the OS-process wall around the interpreters.
 *
 * Its main thread only supervises: it starts the interpreter thread (`worker.ts`) with the heap and stack limits it
 * was given, reports how that thread died, and exits when the host goes away (its stdin closes). V8 aborts the whole
 * process when an isolate reaches its heap limit inside one large allocation; here that ends this process and the
 * executions it was running, never the host, which sees the exit and replaces it.
 */
import { Worker } from "node:worker_threads"
import { writeFrame } from "./frames.js"
import { FROM_SANDBOX_FD, type SandboxMessage, WARM_UP_STOP } from "./messages.js"

/** The limits a sandbox process is started with (its first argument, as JSON). */
export interface ProcessLimits {
  readonly heapMb: number
  readonly stackMb: number
}

const limits = JSON.parse(process.argv[2] ?? "{}") as ProcessLimits

const report = (message: SandboxMessage) => {
  try {
    writeFrame(FROM_SANDBOX_FD, message)
  } catch {
    // The host is gone; nothing to tell.
  }
}

/**
 * Set to 1 when the host signals that it has given this sandbox a run ({@link WARM_UP_STOP}): the interpreter thread
 * stops a warm-up in progress at its next step, and clears it when it reads a run. Handled before the thread can
 * say that the sandbox is ready.
 */
const runWaiting = new Int32Array(new SharedArrayBuffer(4))
process.on(WARM_UP_STOP, () => {
  Atomics.store(runWaiting, 0, 1)
})

const worker = new Worker(new URL("./sandbox-worker.js", import.meta.url), {
  workerData: { runWaiting },
  resourceLimits: {
    maxOldGenerationSizeMb: limits.heapMb,
    maxYoungGenerationSizeMb: Math.min(64, Math.max(8, Math.floor(limits.heapMb / 8))),
    stackSizeMb: limits.stackMb,
  },
})

worker.on("error", (error: Error & { code?: string }) => {
  const outOfMemory = error.code === "ERR_WORKER_OUT_OF_MEMORY"
  report({ t: "crash", reason: error.message, outOfMemory })
  process.exit(outOfMemory ? 3 : 1)
})
worker.on("exit", (code) => process.exit(code === 0 ? 0 : 1))

// The host holds the other end of stdin: when it exits, however it dies, so does this process.
process.stdin.on("end", () => process.exit(0))
process.stdin.on("error", () => process.exit(0))
process.stdin.resume()
