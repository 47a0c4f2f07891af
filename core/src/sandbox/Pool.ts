/**
 * The pool of sandbox processes on the host side.
 *
 * Each sandbox is a child process (see `process.ts`) running one interpreter thread, so a fatal failure inside it
 * (V8 aborting on its heap limit, a crash of the engine) ends that process only. A sandbox that timed out, was
 * interrupted, crashed or asked to retire is killed and never reused (one that retires before reading the run it was
 * given is replaced in place, and the run starts in the new process); idle sandboxes never keep the host alive, and
 * every sandbox exits when the host does. Sizes follow from the machine: see {@link machineDefaults}.
 */
import { type ChildProcess, spawn } from "node:child_process"
import type { Readable, Writable } from "node:stream"
import { availableParallelism, totalmem } from "node:os"
import { fileURLToPath } from "node:url"
import { encodeFrame, FrameReader } from "./frames.js"
import { type HostMessage, type RunMessage, type SandboxMessage, WARM_UP_STOP } from "./messages.js"
import type { HostFailure, HostOutcome, RunRequest } from "./protocol.js"

/** Pool settings. */
export interface PoolOptions {
  /** Sandboxes kept warm when idle (default: the number of cores, at most `maxWorkers`). */
  readonly keepIdle?: number
  /** Most sandbox processes alive at once; further executions wait (default: {@link machineDefaults}). */
  readonly maxWorkers?: number
  /** Heap limit of each sandbox's interpreter in MB (default: {@link machineDefaults}). */
  readonly maxOldGenerationSizeMb?: number
  /** Stack of each sandbox's interpreter in MB (default 64). */
  readonly stackSizeMb?: number
}

const MB = 1024 * 1024
/** What a sandbox process costs beyond its interpreter's heap: the process, its threads, the young generation. */
export const SANDBOX_OVERHEAD_MB = 96
/** The share of the machine's memory that all sandboxes together may use. */
export const MEMORY_BUDGET_SHARE = 0.5

/**
 * The pool's defaults for a machine: up to four sandboxes a core (programs mostly wait on tools), each with a heap of
 * at most 512 MB, such that `maxWorkers × (heap + SANDBOX_OVERHEAD_MB)` stays within half the machine's memory.
 */
export const machineDefaults = (
  cores: number = availableParallelism(),
  memoryBytes: number = totalmem(),
): { readonly maxWorkers: number; readonly heapMb: number; readonly budgetMb: number } => {
  const budgetMb = Math.floor((memoryBytes * MEMORY_BUDGET_SHARE) / MB)
  let maxWorkers = Math.min(64, Math.max(4, cores * 4))
  const minHeap = 256
  if (maxWorkers * (minHeap + SANDBOX_OVERHEAD_MB) > budgetMb)
    maxWorkers = Math.max(1, Math.floor(budgetMb / (minHeap + SANDBOX_OVERHEAD_MB)))
  const heapMb = Math.max(64, Math.min(512, Math.floor(budgetMb / maxWorkers) - SANDBOX_OVERHEAD_MB))
  return { maxWorkers, heapMb, budgetMb }
}

/** What the host hears from a sandbox during a run (`bytes`: the size of the message's frame). */
export type SandboxEvent =
  | {
      readonly type: "message"
      readonly message: Exclude<
        SandboxMessage,
        { t: "ready" } | { t: "crash" } | { t: "idle" } | { t: "warmed" } | { t: "retire" }
      >
      readonly bytes: number
    }
  | { readonly type: "crash"; readonly reason: string; readonly outOfMemory: boolean }

/** The most stderr text kept from a sandbox, to tell why it died. */
const STDERR_TAIL = 16 * 1024
const outOfMemoryText = /heap out of memory|Reached heap limit|Allocation failed|out of memory/i

const processEntry = () => new URL("./sandbox-process.js", import.meta.url)

/**
 * V8 options of a sandbox process. A regular expression that backtracks catastrophically (`/(a+)+$/`) runs inside
 * V8 where no work budget reaches it; past 50,000 backtracks V8 reruns it on its linear-time engine instead, which
 * gives the same answer for every pattern that engine supports (all but backreferences and lookaround).
 * `--expose-gc` lets the sandbox collect garbage before it judges the heap full (see `memory.ts`); no program can
 * reach the function, which lives on the sandbox thread's own global object. `--no-flush-bytecode` keeps the compiled
 * code of the language's library: V8 otherwise drops a function's bytecode after a few full collections in which it
 * did not run, and an idle sandbox collects (V8's memory reducer), so a program sent after a model's pause of some
 * seconds compiled the library again (the tool program after 12 s idle: 13-28 ms, against 3-6 ms with the option).
 * Programs' own code still goes when they do: only what stays reachable is kept.
 */
const V8_OPTIONS = ["--enable-experimental-regexp-engine-on-excessive-backtracks", "--expose-gc", "--no-flush-bytecode"]

/** The environment of a sandbox process: nothing of the host's (no tokens, no NODE_OPTIONS), only the time zone. */
const sandboxEnv = (): NodeJS.ProcessEnv => (process.env.TZ ? { TZ: process.env.TZ } : {})

/**
 * The most messages of one sandbox handled in one turn of the host's event loop. A program that starts calls without
 * waiting fills a pipe chunk with hundreds of them (each handled in ~0.1 ms); the rest wait for the next turn, with
 * reading paused, so that one sandbox cannot hold the host's event loop.
 */
const MESSAGES_PER_TURN = 64

/**
 * The longest a run waits for its sandbox to finish cleaning up after the previous one (`LanguageRuntime.afterRun`
 * and a garbage collection; well under a millisecond as a rule). Past it the sandbox process is replaced and the run
 * starts in the new one, so a program that left a huge cleanup behind delays the next execution by a respawn at most.
 */
export const CLEANUP_LIMIT_MS = 1_000

/**
 * One sandbox: a sandbox process, replaced in place when it retires before reading the run it was given.
 *
 * A run may be sent while the sandbox is still cleaning up after the previous one: the sandbox reads it only once it
 * is clean (its `idle` message). A sandbox whose cleanup fails says `retire` and reads nothing more; then, and when
 * its cleanup outlasts {@link CLEANUP_LIMIT_MS} or its process dies before it was clean, a run sent to it that it
 * never read starts over in a new process. The run sees no difference; nothing of it had reached the host yet,
 * because a sandbox sends nothing of a run before it has read it, and `idle` before that.
 */
export class Sandbox {
  private child!: ChildProcess
  private input!: Writable
  private output!: Readable
  private reader!: FrameReader
  private listener: ((event: SandboxEvent) => void) | undefined
  /** Messages received and not yet handled (from `next` on), and whether a later turn will handle them. */
  private backlog: Array<{ readonly message: unknown; readonly bytes: number }> = []
  private next = 0
  private draining = false
  private current = 0
  private runs = 0
  private stderrTail = ""
  private crashReport: { reason: string; outOfMemory: boolean } | undefined
  private finished = false
  private readonly drainWaiters: Array<() => void> = []
  /** The last run whose cleanup the sandbox has reported (`idle`); runs before it are all cleaned up after. */
  private cleanedThrough = 0
  /** The run in progress as sent, until the sandbox shows it read it (any message of the run, or `idle` before). */
  private unread: RunMessage | undefined
  private cleanupTimer: ReturnType<typeof setTimeout> | undefined
  /**
   * True from a `preload` with `warm` until the sandbox says it has warmed up. A run given to it meanwhile waits, and
   * tells it to stop warming at its next step (see {@link stopWarming}).
   */
  private warming = false
  /** True once the process said it is ready (it then handles {@link WARM_UP_STOP}). */
  private ready = false
  /** A run was given while the process was not ready yet: the warm-up is stopped once it is. */
  private stopWhenReady = false
  /** Set when the sandbox broke the protocol: its run is told so, never started over. */
  private malformed = false
  /** The scope of the last run sent to this process in full: the sandbox holds that runtime's shapes. */
  private shapesScope: string | undefined
  /** The modules this sandbox has loaded or been asked to load. */
  readonly modules = new Set<string>()
  /** True while it runs the host's warm-up (see {@link SandboxPool.acquireIdle}). */
  background = false
  /** True once the process is killed or gone. */
  dead = false

  constructor(
    private readonly heapMb: number,
    private readonly stackMb: number,
    private readonly onGone: (sandbox: Sandbox) => void,
    private readonly onWarmed: () => void = () => {},
  ) {
    this.launch()
    this.idle()
  }

  /** Start the sandbox process; events of a process this sandbox has replaced are ignored. */
  private launch(): void {
    const child = spawn(
      process.execPath,
      [...V8_OPTIONS, fileURLToPath(processEntry()), JSON.stringify({ heapMb: this.heapMb, stackMb: this.stackMb })],
      {
        stdio: ["pipe", "ignore", "pipe", "pipe", "pipe"],
        env: sandboxEnv(),
        windowsHide: true,
      },
    )
    this.child = child
    this.input = child.stdio[3] as Writable
    this.output = child.stdio[4] as Readable
    this.reader = new FrameReader()
    this.ready = false
    this.stopWhenReady = false
    this.shapesScope = undefined
    this.backlog = []
    this.next = 0
    this.stderrTail = ""
    this.crashReport = undefined
    const mine = () => this.child === child
    this.output.on("data", (chunk: Buffer) => {
      if (mine()) this.receive(chunk)
    })
    child.stderr!.on("data", (chunk: Buffer) => {
      if (mine()) this.stderrTail = (this.stderrTail + chunk.toString("utf8")).slice(-STDERR_TAIL)
    })
    // A broken channel ends the process; its exit is then reported (or its unread run started over) as any other.
    for (const stream of [this.input, child.stdin!])
      stream.on("error", () => {
        if (mine()) child.kill("SIGKILL")
      })
    child.on("error", (error) => {
      if (mine()) this.gone(`the sandbox process could not run: ${error.message}`)
    })
    child.on("close", (code, signal) => {
      if (mine()) this.gone(`the sandbox process exited (${signal ? `signal ${signal}` : `code ${code}`})`)
    })
  }

  /**
   * True while the sandbox may still be cleaning up after the run before the one in progress, so that the one in
   * progress is unread: it can start over elsewhere.
   */
  private unreadRun(): RunMessage | undefined {
    return this.unread !== undefined && this.cleanedThrough < this.unread.run - 1 ? this.unread : undefined
  }

  /** Replace the process by a new one and send it the run the old one never read. */
  private relaunch(run: RunMessage): void {
    const old = this.child
    clearTimeout(this.cleanupTimer)
    this.launch()
    old.kill("SIGKILL")
    this.modules.clear()
    this.modules.add(run.module)
    this.cleanedThrough = run.run - 1
    this.warming = false
    this.drainWaiters.length = 0
    if (this.listener === undefined) this.idle()
    this.sendRun(run)
  }

  /**
   * Send a run, leaving out the tool and extension shapes when this process already holds those of its scope (they
   * are the same for every run of one runtime, and re-encoding a large tool tree each run costs more than the run).
   */
  private sendRun(message: RunMessage): void {
    const scope = message.request.scope
    if (scope !== undefined && scope === this.shapesScope) {
      // Built field by field (an object rest costs twice as much to build and to encode); a field added to
      // RunRequest must be added here.
      const { code, limits } = message.request
      const request: Omit<RunRequest, "tools" | "extensions"> = { code, scope, limits }
      const { t, run, module, deadline } = message
      this.send({ t, run, module, request, sameShapes: true, deadline })
      return
    }
    this.shapesScope = scope
    this.send(message)
  }

  private receive(chunk: Buffer): void {
    let messages: ReturnType<FrameReader["push"]>
    try {
      messages = this.reader.push(chunk)
    } catch (error) {
      this.crashReport = {
        reason: `the sandbox sent a malformed message: ${(error as Error).message}`,
        outOfMemory: false,
      }
      this.malformed = true
      this.child.kill("SIGKILL")
      return
    }
    for (const frame of messages) this.backlog.push(frame)
    if (!this.draining) this.drain()
  }

  /** Handle up to {@link MESSAGES_PER_TURN} received messages; the rest in a later turn, reading paused until then. */
  private readonly drain = (): void => {
    this.draining = false
    const end = Math.min(this.backlog.length, this.next + MESSAGES_PER_TURN)
    const output = this.output
    while (this.next < end && output === this.output) this.deliver(this.backlog[this.next++])
    if (output !== this.output) return
    if (this.next < this.backlog.length) {
      this.draining = true
      this.output.pause()
      setImmediate(this.drain)
      return
    }
    this.backlog = []
    this.next = 0
    this.output.resume()
  }

  private deliver(frame: { readonly message: unknown; readonly bytes: number }): void {
    const message = frame.message as SandboxMessage
    if (message.t === "ready") {
      this.ready = true
      if (this.stopWhenReady) this.stopWarming()
      return
    }
    if (message.t === "warmed") {
      this.warming = false
      // A warm-up a run stopped early is not a warm sandbox.
      if (this.listener === undefined) this.onWarmed()
      return
    }
    if (message.t === "idle") {
      if (message.run > this.cleanedThrough) this.cleanedThrough = message.run
      if (this.unreadRun() === undefined) clearTimeout(this.cleanupTimer)
      return
    }
    if (message.t === "retire") {
      // The sandbox reads nothing more: a run it was given is started over in a new process; otherwise it goes.
      const unread = this.unreadRun() ?? this.unread
      if (unread !== undefined && !this.dead) return this.relaunch(unread)
      // Gone now, not when its process has exited: the pool must not hand it out in between.
      this.kill()
      this.gone("the sandbox retired")
      return
    }
    if (message.t === "crash") {
      this.crashReport = { reason: message.reason, outOfMemory: message.outOfMemory }
      return
    }
    if (message.t === "done" && message.clean && message.run > this.cleanedThrough) this.cleanedThrough = message.run
    // Only the run in progress is heard; anything else is a leftover of a finished run.
    if (message.run !== this.current || this.listener === undefined) return
    this.unread = undefined
    this.listener({ type: "message", message, bytes: frame.bytes })
  }

  private gone(reason: string): void {
    if (this.finished) return
    // A process that died before it was clean, and before reading its run, is replaced; the run starts there.
    const unread = this.dead || this.malformed ? undefined : this.unreadRun()
    if (unread !== undefined) return this.relaunch(unread)
    this.finished = true
    clearTimeout(this.cleanupTimer)
    // A sandbox the host killed on purpose has no listener left; any other death is reported to the run.
    const listener = this.dead ? undefined : this.listener
    this.dead = true
    this.listener = undefined
    if (listener) {
      const outOfMemory = this.crashReport?.outOfMemory === true || outOfMemoryText.test(this.stderrTail)
      listener({ type: "crash", reason: this.crashReport?.reason ?? reason, outOfMemory })
    }
    this.onGone(this)
  }

  private send(message: HostMessage): void {
    if (this.dead) return
    this.input.write(encodeFrame(message))
  }

  /** Idle sandboxes never keep the host alive. */
  private idle(): void {
    this.child.unref()
    for (const stream of [this.input, this.output, this.child.stderr, this.child.stdin] as Array<
      { unref?: () => void } | null | undefined
    >)
      stream?.unref?.()
  }

  private busy(): void {
    this.child.ref()
    for (const stream of [this.input, this.output, this.child.stderr, this.child.stdin] as Array<
      { ref?: () => void } | null | undefined
    >)
      stream?.ref?.()
  }

  /**
   * True while the sandbox may still be warming up or cleaning up after its last run (a run given to it now waits for
   * that).
   */
  get cleaning(): boolean {
    return this.warming || this.cleanedThrough < this.runs
  }

  /** True while the sandbox is warming up its languages (a run given to it now stops that). */
  get warmingUp(): boolean {
    return this.warming
  }

  /** Ask the sandbox to load `modules` before its first run; `warm` when it is idle (no run follows at once). */
  preload(modules: ReadonlyArray<string>, warm: boolean): void {
    const fresh = modules.filter((m) => !this.modules.has(m))
    if (fresh.length === 0) return
    for (const m of fresh) this.modules.add(m)
    if (warm) this.warming = true
    this.send({ t: "preload", modules: fresh, warm })
  }

  /** Start running `request` with the language runtime at `module`; events go to `listener`. Returns the run id. */
  start(module: string, request: RunRequest, deadline: number, listener: (event: SandboxEvent) => void): number {
    const run = ++this.runs
    this.current = run
    this.listener = listener
    this.modules.add(module)
    // A running program keeps the host alive, like any pending I/O.
    this.busy()
    const message: RunMessage = {
      t: "run",
      run,
      module,
      request,
      deadline: Number.isFinite(deadline) ? deadline : 8.64e15,
    }
    this.unread = message
    this.sendRun(message)
    if (this.warming) this.stopWarming()
    if (this.unreadRun() !== undefined) {
      this.cleanupTimer = setTimeout(() => {
        const unread = this.unreadRun()
        if (unread !== undefined && !this.dead) this.relaunch(unread)
      }, CLEANUP_LIMIT_MS)
      this.cleanupTimer.unref()
    }
    return run
  }

  /**
   * Tell a sandbox that is warming up that a run waits: it stops at the warm-up's next step (a program of a few
   * milliseconds) instead of finishing it, so that a run given right after the pool started does not wait for the
   * whole warm-up. A process that is not ready yet is told once it is.
   */
  private stopWarming(): void {
    if (!this.ready) {
      this.stopWhenReady = true
      return
    }
    this.stopWhenReady = false
    try {
      this.child.kill(WARM_UP_STOP)
    } catch {
      // A platform without the signal finishes the warm-up first, as a process that is gone needs nothing.
    }
  }

  /** Answer call `ticket` of run `run`; dropped when that run is over. */
  answer(run: number, ticket: number, outcome: HostOutcome): void {
    if (run !== this.current || this.listener === undefined) return
    this.send({ t: "answer", run, ticket, outcome })
  }

  /** Reply to barrier `id` of run `run`: every answer sent so far precedes it. */
  barrier(run: number, id: number): void {
    if (run !== this.current || this.listener === undefined) return
    this.send({ t: "barrier", run, id })
  }

  /** End run `run` from the host: every wait of the program from now on receives `error` (ticket: the cause). */
  abort(run: number, ticket: number, error: HostFailure): void {
    if (run !== this.current || this.listener === undefined) return
    this.send({ t: "abort", run, ticket, error })
  }

  /** Bytes written to the sandbox that it has not read yet (beyond what the channel itself holds). */
  unreadBytes(): number {
    return this.input.writableLength
  }

  /** Call `then` once the sandbox has read what was written to it. */
  onDrain(then: () => void): void {
    if (this.drainWaiters.length === 0) this.input.once("drain", () => this.drainWaiters.splice(0).forEach((f) => f()))
    this.drainWaiters.push(then)
  }

  /** Stop listening to the run in progress (it ended). */
  detach(): void {
    this.listener = undefined
    this.current = 0
    this.drainWaiters.length = 0
    this.idle()
  }

  /** Kill the sandbox process now. */
  kill(): void {
    if (this.dead) return
    this.dead = true
    this.listener = undefined
    this.child.kill("SIGKILL")
  }
}

/** A pool of sandbox processes. */
export class SandboxPool {
  private readonly idle: Sandbox[] = []
  private readonly waiting: Array<(sandbox: Sandbox) => void> = []
  private alive = 0
  private closed = false
  private readonly keepIdle: number
  /** Most sandboxes alive at once. */
  readonly maxWorkers: number
  /** Heap limit of each sandbox's interpreter, in MB. */
  readonly heapMb: number
  private readonly stackMb: number
  private readonly wanted = new Set<string>()
  private started = false
  /** Sandboxes running the host's warm-up: a run that finds none idle waits for one of them. */
  private background = 0
  /** Called when a sandbox has warmed up (see {@link prepare}): at most one waits per language module. */
  private readonly onWarm = new Map<string, () => void>()

  constructor(options: PoolOptions = {}) {
    const machine = machineDefaults()
    this.maxWorkers = options.maxWorkers ?? machine.maxWorkers
    this.keepIdle = Math.min(options.keepIdle ?? availableParallelism(), this.maxWorkers)
    this.heapMb = options.maxOldGenerationSizeMb ?? machine.heapMb
    this.stackMb = options.stackSizeMb ?? 64
  }

  /** Start a sandbox; `idle` when it goes to the idle list (it warms its languages) rather than to a run. */
  private spawn(idle = false): Sandbox {
    this.alive++
    const sandbox = new Sandbox(
      this.heapMb,
      this.stackMb,
      (gone) => this.forget(gone),
      () => this.warmed(),
    )
    if (this.wanted.size > 0) sandbox.preload([...this.wanted], idle)
    return sandbox
  }

  /** A sandbox has warmed up and is idle: the callbacks waiting for one run. */
  private warmed(): void {
    if (this.closed) return
    const callbacks = [...this.onWarm.values()]
    this.onWarm.clear()
    for (const callback of callbacks) callback()
  }

  private forget(sandbox: Sandbox): void {
    this.alive--
    const index = this.idle.indexOf(sandbox)
    if (index >= 0) this.idle.splice(index, 1)
    this.pump()
    this.replenish()
  }

  private pump(): void {
    while (this.waiting.length > 0 && !this.closed && this.alive < this.maxWorkers) this.waiting.shift()!(this.spawn())
  }

  /**
   * Keep at least `keepIdle` sandboxes alive (busy ones come back when released), started off the critical path: at
   * the first use, and when one is gone.
   */
  private replenish(): void {
    while (!this.closed && this.alive < this.keepIdle && this.alive < this.maxWorkers && this.waiting.length === 0)
      this.idle.push(this.spawn(true))
  }

  /**
   * Start the pool's warm sandboxes for programs in `module` ahead of the first execution, off its critical path: they
   * load and warm the language while the host gets ready, so that the first program finds one ready. A runtime calls
   * it when it is made; sandboxes started before already load the language too. `onWarm` is called once, when a
   * sandbox of the pool has warmed up and is idle (never when the pool is closed first, or keeps no sandbox warm); it
   * replaces one given for `module` before that has not run yet, so a pool holds one for each language at most.
   */
  prepare(module: string, onWarm?: () => void): void {
    if (this.closed) return
    if (onWarm !== undefined && this.keepIdle > 0) this.onWarm.set(module, onWarm)
    if (this.want(module)) for (const sandbox of this.idle) sandbox.preload([module], true)
    this.replenish()
  }

  /**
   * Note that programs in `module` are run (new sandboxes load it) and that the pool has started, and drop idle
   * sandboxes that are gone. Returns whether `module` is new: the idle sandboxes have not loaded it yet.
   */
  private want(module: string): boolean {
    const newModule = !this.wanted.has(module)
    this.wanted.add(module)
    this.started = true
    for (let i = this.idle.length - 1; i >= 0; i--) if (this.idle[i].dead) this.idle.splice(i, 1)
    return newModule
  }

  /**
   * Get a sandbox for a program in `module`: an idle one, a new one, or the next one released. `deliver` is called
   * once with it; the returned function withdraws the request (after delivery it does nothing).
   */
  acquire(module: string, deliver: (sandbox: Sandbox) => void): () => void {
    if (this.closed) throw new Error("the sandbox pool is closed")
    const first = !this.started
    const newModule = this.want(module)
    // An idle sandbox that has the language, and is done warming up and cleaning up after its last run, first.
    let ready = this.idle.findIndex((s) => s.modules.has(module) && !s.cleaning)
    if (ready < 0) ready = this.idle.findIndex((s) => s.modules.has(module))
    const sandbox = ready >= 0 ? this.idle.splice(ready, 1)[0] : this.idle.pop()
    // The other idle sandboxes load (and warm) the new language; the one taken loads it for its run.
    if (newModule) for (const other of this.idle) other.preload([module], true)
    if (sandbox) {
      deliver(sandbox)
      return () => {}
    }
    // A sandbox busy with the host's warm-up is free within milliseconds; a new process takes half a second.
    if (this.alive < this.maxWorkers && this.background === 0) {
      deliver(this.spawn())
      // The first execution also starts the pool's warm sandboxes, so that the next ones find them ready.
      if (first) this.replenish()
      return () => {}
    }
    this.waiting.push(deliver)
    return () => {
      const index = this.waiting.indexOf(deliver)
      if (index >= 0) this.waiting.splice(index, 1)
    }
  }

  /**
   * An idle sandbox that has loaded and warmed `module`, for a run of the host's warm-up (it may still be cleaning up
   * after its last run); `undefined` when there is none (the warm-up never waits for a sandbox, never starts a
   * process, and never stops a sandbox's own warm-up). Until it is given back, a run that finds no idle sandbox waits
   * for it instead of starting a process.
   */
  acquireIdle(module: string): Sandbox | undefined {
    if (this.closed) return undefined
    const index = this.idle.findIndex((s) => !s.dead && s.modules.has(module) && !s.warmingUp)
    if (index < 0) return undefined
    const sandbox = this.idle.splice(index, 1)[0]
    sandbox.background = true
    this.background++
    return sandbox
  }

  /**
   * The end of a run on `sandbox`: one of the host's warm-up no longer holds back new processes. When it was the last,
   * programs still waiting start processes of their own (they waited only because of it).
   */
  private endBackground(sandbox: Sandbox): void {
    if (!sandbox.background) return
    sandbox.background = false
    if (--this.background === 0) this.pump()
  }

  /** Give back a sandbox whose run ended cleanly. */
  release(sandbox: Sandbox): void {
    sandbox.detach()
    // The next program waiting takes it before the others may start processes.
    const next = sandbox.dead ? undefined : this.waiting.shift()
    this.endBackground(sandbox)
    if (sandbox.dead) return
    if (next) return next(sandbox)
    if (this.closed || this.idle.length >= this.keepIdle) return sandbox.kill()
    this.idle.push(sandbox)
  }

  /** Kill a sandbox that cannot be reused (timeout, interruption, crash, retirement). */
  discard(sandbox: Sandbox): void {
    this.endBackground(sandbox)
    sandbox.kill()
    this.replenish()
  }

  /** Kill every idle sandbox and refuse new executions. */
  close(): void {
    this.closed = true
    this.onWarm.clear()
    for (const sandbox of this.idle.splice(0)) sandbox.kill()
  }
}

let shared: SandboxPool | undefined

/** The process-wide pool used when no pool is given. Its sandboxes never keep the process alive. */
export const sharedPool = (): SandboxPool => (shared ??= new SandboxPool())
