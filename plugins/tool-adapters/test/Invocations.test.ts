import { Effect, Exit, Fiber } from "effect"
import { describe, expect, it } from "vitest"
import * as Invocations from "../src/Invocations.js"
import type { Line } from "../src/Protocol.js"

const request = (id: string, callID: string, tool = "shell", after?: number) => ({
  id,
  tool,
  callID,
  sessionID: "ses_1",
  messageID: "msg_1",
  input: { command: `echo ${callID}` },
  ...(after === undefined ? {} : { after }),
})

/** A sink that records every line and whether it was ended. */
const recorder = () => {
  const lines: Array<Line> = []
  let ended = false
  return {
    lines,
    ended: () => ended,
    sink: { write: (line: Line) => void lines.push(line), end: () => void (ended = true) } satisfies Invocations.Sink,
  }
}

const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromise(effect)

describe("waiter ordering", () => {
  it("take(callID) reserves an invocation that arrives later, regardless of arrival order", async () => {
    const hub = Invocations.make({ declared: ["shell"] })
    const shells = await run(hub.control("shell"))
    const test = Effect.runFork(shells.take("call_test"))
    const build = Effect.runFork(shells.take("call_build"))
    hub.arrive(request("a", "call_build"), recorder().sink)
    hub.arrive(request("b", "call_test"), recorder().sink)
    expect((await Effect.runPromise(Fiber.join(test))).callID).toBe("call_test")
    expect((await Effect.runPromise(Fiber.join(build))).callID).toBe("call_build")
  })

  it("take(callID) finds an invocation that arrived before it, skipping older ones", async () => {
    const hub = Invocations.make({ declared: ["shell"] })
    hub.arrive(request("a", "call_1"), recorder().sink)
    hub.arrive(request("b", "call_2"), recorder().sink)
    const shells = await run(hub.control("shell"))
    expect((await run(shells.take("call_2"))).id).toBe("b")
    expect((await run(shells.take())).id).toBe("a")
  })

  it("take() takes the oldest unclaimed invocation", async () => {
    const hub = Invocations.make({ declared: ["shell"] })
    for (const [id, call] of [
      ["a", "call_1"],
      ["b", "call_2"],
      ["c", "call_3"],
    ])
      hub.arrive(request(id, call), recorder().sink)
    const shells = await run(hub.control("shell"))
    const taken = [await run(shells.take()), await run(shells.take()), await run(shells.take())]
    expect(taken.map((i) => i.callID)).toEqual(["call_1", "call_2", "call_3"])
  })

  it("an exact-ID waiter wins over an older generic waiter", async () => {
    const hub = Invocations.make({ declared: ["shell"] })
    const shells = await run(hub.control("shell"))
    const generic = Effect.runFork(shells.take())
    const exact = Effect.runFork(shells.take("call_x"))
    await Effect.runPromise(Effect.yieldNow)
    hub.arrive(request("a", "call_x"), recorder().sink)
    expect((await Effect.runPromise(Fiber.join(exact))).callID).toBe("call_x")
    expect(generic.pollUnsafe()).toBeUndefined()
    hub.arrive(request("b", "call_y"), recorder().sink)
    expect((await Effect.runPromise(Fiber.join(generic))).callID).toBe("call_y")
  })

  it("generic waiters are served in the order they started waiting", async () => {
    const hub = Invocations.make({ declared: ["shell"] })
    const shells = await run(hub.control("shell"))
    const first = Effect.runFork(shells.take())
    const second = Effect.runFork(shells.take())
    await Effect.runPromise(Effect.yieldNow)
    hub.arrive(request("a", "call_1"), recorder().sink)
    hub.arrive(request("b", "call_2"), recorder().sink)
    expect((await Effect.runPromise(Fiber.join(first))).callID).toBe("call_1")
    expect((await Effect.runPromise(Fiber.join(second))).callID).toBe("call_2")
  })

  it("an interrupted take leaves the invocation for the next taker", async () => {
    const hub = Invocations.make({ declared: ["shell"] })
    const shells = await run(hub.control("shell"))
    const abandoned = Effect.runFork(shells.take("call_1"))
    await Effect.runPromise(Effect.yieldNow)
    await Effect.runPromise(Fiber.interrupt(abandoned))
    hub.arrive(request("a", "call_1"), recorder().sink)
    expect((await run(shells.take())).callID).toBe("call_1")
  })

  it("shell and bash control the same adapter; invocations report the canonical name", async () => {
    const hub = Invocations.make({ declared: ["shell"] })
    hub.arrive(request("a", "call_1", "shell"), recorder().sink)
    const invocation = await run(Effect.flatMap(hub.control("bash"), (c) => c.take("call_1")))
    expect(invocation.tool).toBe("shell")
    expect(invocation.input).toEqual({ command: "echo call_1" })
  })

  it("control of an undeclared tool fails naming what was declared", async () => {
    const hub = Invocations.make({ declared: ["shell"] })
    const exit = await Effect.runPromiseExit(hub.control("webfetch"))
    expect(Exit.isFailure(exit) && String(exit.cause)).toMatch(/"webfetch" was not declared.*declared: shell/)
    const refused = hub.arrive(request("a", "call_1", "webfetch"), recorder().sink)
    expect(refused).toEqual({ accepted: false, message: expect.stringMatching(/not intercepted/) })
  })
})

describe("settlement of one invocation", () => {
  it("progress is numbered and streamed, and the invocation settles exactly once", async () => {
    const hub = Invocations.make({ declared: ["shell"] })
    const out = recorder()
    hub.arrive(request("a", "call_1"), out.sink)
    const invocation = await run(Effect.flatMap(hub.control("shell"), (c) => c.take("call_1")))
    await run(invocation.progress("building\n"))
    await run(invocation.progress({ title: "Tests" }))
    await run(invocation.succeed({ output: "done\n", exit: 0 }))
    expect(out.lines).toEqual([
      { type: "progress", seq: 1, data: "building\n" },
      { type: "progress", seq: 2, data: { title: "Tests" } },
      { type: "result", output: "done\n", exit: 0 },
    ])
    expect(out.ended()).toBe(true)
    const again = await Effect.runPromiseExit(invocation.fail("late"))
    expect(Exit.isFailure(again) && String(again.cause)).toMatch(
      /call call_1 \(shell\) was already succeeded; an invocation settles exactly once/,
    )
    const late = await Effect.runPromiseExit(invocation.progress("late"))
    expect(Exit.isFailure(late)).toBe(true)
    expect(out.lines).toHaveLength(3)
  })

  it("fail sends the error's message as the terminal error line", async () => {
    const hub = Invocations.make({ declared: ["write"] })
    const out = recorder()
    hub.arrive(request("a", "call_1", "write"), out.sink)
    const invocation = await run(Effect.flatMap(hub.control("write"), (c) => c.take()))
    await run(invocation.fail(new Error("disk full")))
    expect(out.lines).toEqual([{ type: "error", message: "disk full" }])
  })
})

describe("replays", () => {
  it("a replay with the same id is the same invocation and gets only the progress it missed", async () => {
    const hub = Invocations.make({ declared: ["shell"] })
    const first = recorder()
    hub.arrive(request("a", "call_1"), first.sink)
    const invocation = await run(Effect.flatMap(hub.control("shell"), (c) => c.take()))
    await run(invocation.progress("one"))
    await run(invocation.progress("two"))
    hub.disconnect("a", first.sink)
    const second = recorder()
    expect(hub.arrive(request("a", "call_1", "shell", 1), second.sink)).toEqual({ accepted: true })
    expect(second.lines).toEqual([{ type: "progress", seq: 2, data: "two" }])
    await run(invocation.succeed({ output: "ok" }))
    expect(second.lines.at(-1)).toEqual({ type: "result", output: "ok" })
    const third = recorder()
    hub.arrive(request("a", "call_1", "shell", 2), third.sink)
    expect(third.lines).toEqual([{ type: "result", output: "ok" }])
    expect(third.ended()).toBe(true)
    expect(hub.pending()).toEqual([])
    const shells = await run(hub.control("shell"))
    const another = Effect.runFork(shells.take())
    await Effect.runPromise(Effect.yieldNow)
    expect(another.pollUnsafe()).toBeUndefined()
    await Effect.runPromise(Fiber.interrupt(another))
  })

  it("a connection that does not come back within the grace period interrupts the call", async () => {
    const hub = Invocations.make({ declared: ["shell"], reconnectGraceMs: 10 })
    const out = recorder()
    hub.arrive(request("a", "call_1"), out.sink)
    const invocation = await run(Effect.flatMap(hub.control("shell"), (c) => c.take()))
    hub.disconnect("a", out.sink)
    await run(invocation.awaitInterrupted())
    const late = await Effect.runPromiseExit(invocation.succeed({ output: "too late" }))
    expect(Exit.isFailure(late) && String(late.cause)).toMatch(/was already interrupted/)
    expect(hub.pending()).toEqual([])
  })
})

describe("interruption", () => {
  it("an abort completes awaitInterrupted and ends the stream with an error", async () => {
    const hub = Invocations.make({ declared: ["shell"] })
    const out = recorder()
    hub.arrive(request("a", "call_1"), out.sink)
    const invocation = await run(Effect.flatMap(hub.control("shell"), (c) => c.take("call_1")))
    const waiting = Effect.runFork(invocation.awaitInterrupted())
    hub.abort("a")
    await Effect.runPromise(Fiber.join(waiting))
    expect(out.lines).toEqual([{ type: "error", message: "OpenCode aborted call call_1 (shell)" }])
  })
})

describe("run settlement and closure", () => {
  it("settle fails naming untaken and unsettled call IDs, and succeeds once they are settled", async () => {
    const hub = Invocations.make({ declared: ["shell", "webfetch"] })
    hub.arrive(request("a", "call_taken"), recorder().sink)
    hub.arrive(request("b", "call_ignored", "webfetch"), recorder().sink)
    const taken = await run(Effect.flatMap(hub.control("shell"), (c) => c.take()))
    expect(hub.pending()).toEqual([
      { callID: "call_taken", tool: "shell", state: "unsettled" },
      { callID: "call_ignored", tool: "webfetch", state: "untaken" },
    ])
    const error = await run(Effect.flip(hub.settle))
    expect(error._tag).toBe("ToolSettlementError")
    expect(error.callIDs).toEqual(["call_taken", "call_ignored"])
    expect(error.message).toMatch(/call_taken \(shell\) was taken but never settled/)
    expect(error.message).toMatch(/call_ignored \(webfetch\) was intercepted but never taken/)
    await run(taken.succeed({ output: "ok" }))
    const fetched = await run(Effect.flatMap(hub.control("webfetch"), (c) => c.take("call_ignored")))
    await run(fetched.fail("offline"))
    await run(hub.settle)
  })

  it("closing fails blocked takes and interrupts unresolved calls", async () => {
    const hub = Invocations.make({ declared: ["shell"] })
    const out = recorder()
    hub.arrive(request("a", "call_1"), out.sink)
    const shells = await run(hub.control("shell"))
    const invocation = await run(shells.take())
    const blocked = Effect.runFork(shells.take("call_never"))
    await Effect.runPromise(Effect.yieldNow)
    await run(hub.close)
    const exit = await Effect.runPromiseExit(Fiber.join(blocked))
    expect(Exit.isFailure(exit) && String(exit.cause)).toMatch(
      /take\("call_never"\) was still waiting when the run ended/,
    )
    await run(invocation.awaitInterrupted())
    expect(out.lines).toEqual([{ type: "error", message: "Drive's run ended before call call_1 (shell) was settled" }])
    const after = await Effect.runPromiseExit(shells.take())
    expect(Exit.isFailure(after)).toBe(true)
  })
})

describe("fixed handlers", () => {
  it("settle calls with the handler's result and are not available through control", async () => {
    const hub = Invocations.make({
      declared: [],
      handlers: new Map([
        [
          "shell",
          (invocation: Invocations.Invocation) =>
            Effect.gen(function* () {
              yield* invocation.progress("working")
              const { command } = invocation.input as { command: string }
              if (command.includes("fail")) return yield* Effect.fail(new Error(`cannot run ${command}`))
              return { output: `ran ${command}`, exit: 0 }
            }),
        ],
      ]),
    })
    const ok = recorder()
    const bad = recorder()
    hub.arrive(request("a", "call_ok"), ok.sink)
    hub.arrive({ ...request("b", "call_bad"), input: { command: "fail now" } }, bad.sink)
    while (!ok.ended() || !bad.ended()) await new Promise((resolve) => setImmediate(resolve))
    await run(hub.settle)
    expect(ok.lines).toEqual([
      { type: "progress", seq: 1, data: "working" },
      { type: "result", output: "ran echo call_ok", exit: 0 },
    ])
    expect(bad.lines.at(-1)).toEqual({ type: "error", message: "cannot run fail now" })
    const exit = await Effect.runPromiseExit(hub.control("shell"))
    expect(Exit.isFailure(exit) && String(exit.cause)).toMatch(/handled by a fixed callback/)
  })
})
