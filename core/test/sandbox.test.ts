import { CodeMode, Extension, SandboxPool, Tool } from "@codemode/core"
import { Context, Effect, Schema } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { lineLanguage } from "./language.js"

class Greeting extends Context.Service<Greeting, { readonly prefix: string }>()("test/Greeting") {}

const pool = new SandboxPool({ keepIdle: 2, maxOldGenerationSizeMb: 64 })
afterAll(() => pool.close())

const greet = Tool.make({
  description: "Greet someone",
  input: Schema.Struct({ name: Schema.String }),
  output: Schema.Struct({ text: Schema.String }),
  execute: ({ name }) => Effect.map(Effect.service(Greeting), (g) => ({ text: `${g.prefix} ${name}` })),
})

const slow = Tool.make({
  description: "Answer after a delay",
  input: Schema.Struct({ ms: Schema.Number, value: Schema.String }),
  output: Schema.String,
  execute: ({ ms, value }) => Effect.as(Effect.sleep(ms), value),
})

const runtime = (limits = {}) =>
  CodeMode.make({ language: lineLanguage(), tools: { people: { greet }, slow }, limits, pool })

const provide = Effect.provideService(Greeting, { prefix: "Hello" })

describe("sandbox worker", () => {
  it("round-trips a tool call with the execution's services", async () => {
    const result = await Effect.runPromise(
      runtime().execute(`call people.greet {"name":"Ada"}\nreturn $`).pipe(provide),
    )
    expect(result).toMatchObject({ ok: true, value: { text: "Hello Ada" } })
    expect(result.toolCalls).toMatchObject([{ name: "people.greet", kind: "tool", status: "success" }])
  })

  it("starts many calls and waits for any", async () => {
    const code = [
      `start slow {"ms":60,"value":"late"}`,
      `start slow {"ms":5,"value":"early"}`,
      "waitall",
      "return $",
    ].join("\n")
    const result = await Effect.runPromise(runtime().execute(code).pipe(provide))
    expect(result).toMatchObject({ ok: true, value: ["early", "late"] })
  })

  it("stops a busy loop at the timeout and the pool keeps working", async () => {
    const started = performance.now()
    const result = await Effect.runPromise(runtime({ timeoutMs: 200 }).execute("spin").pipe(provide))
    const elapsed = performance.now() - started
    expect(result).toMatchObject({ ok: false, error: { kind: "TimeoutExceeded" } })
    expect(elapsed).toBeGreaterThanOrEqual(190)
    const next = await Effect.runPromise(runtime().execute(`return 1`).pipe(provide))
    expect(next).toMatchObject({ ok: true, value: 1 })
  })

  it("a program its meter ends just past the timeout keeps its sandbox, and the result says where it stopped", async () => {
    const own = new SandboxPool({ keepIdle: 1, maxWorkers: 1, maxOldGenerationSizeMb: 64 })
    try {
      const rt = CodeMode.make({ language: lineLanguage(), pool: own, limits: { timeoutMs: 300 } })
      // The sandbox's process id, read by a runtime without a timeout (the first run waits for the sandbox to start).
      const probe = CodeMode.make({ language: lineLanguage(), pool: own })
      const pid = async () => (await Effect.runPromise(probe.execute("pid\nreturn $"))) as { value: number }
      const before = (await pid()).value
      for (let i = 0; i < 3; i++) {
        const result = await Effect.runPromise(rt.execute("log going\nmeter 30"))
        expect(result).toMatchObject({
          ok: false,
          error: { kind: "TimeoutExceeded", location: { line: 2, column: 1 } },
          logs: ["going"],
        })
        expect(result.ok === false && result.error.message).toMatch(/did not finish within timeoutMs \(300 ms\)/)
      }
      expect((await pid()).value).toBe(before)
    } finally {
      own.close()
    }
  })

  it("a call in flight at the timeout fails with TimeoutExceeded in the program, and the sandbox is kept", async () => {
    const own = new SandboxPool({ keepIdle: 1, maxWorkers: 1, maxOldGenerationSizeMb: 64 })
    try {
      const rt = CodeMode.make({ language: lineLanguage(), pool: own, tools: { slow }, limits: { timeoutMs: 300 } })
      // The sandbox's process id, read by a runtime without a timeout (the first run waits for the sandbox to start).
      const probe = CodeMode.make({ language: lineLanguage(), pool: own })
      const pid = async () => (await Effect.runPromise(probe.execute("pid\nreturn $"))) as { value: number }
      const before = (await pid()).value
      const started = performance.now()
      const result = await Effect.runPromise(rt.execute(`call slow {"ms":5000,"value":"late"}\nreturn $`))
      expect(performance.now() - started).toBeLessThan(3_000)
      expect(result).toMatchObject({
        ok: false,
        error: { kind: "TimeoutExceeded", location: { line: 1, column: 1 } },
        toolCalls: [{ name: "slow", status: "interrupted" }],
      })
      expect((await pid()).value).toBe(before)
    } finally {
      own.close()
    }
  })

  it("ends a memory bomb with a diagnostic and the host survives", async () => {
    const result = await Effect.runPromise(runtime().execute("bomb").pipe(provide))
    expect(result).toMatchObject({ ok: false, error: { kind: "ExecutionFailure" } })
    expect(result.ok === false && result.error.message).toMatch(/memory/)
    const next = await Effect.runPromise(runtime().execute(`return "alive"`).pipe(provide))
    expect(next).toMatchObject({ ok: true, value: "alive" })
  })

  it("runs 100 concurrent executions, each with its own state", async () => {
    const results = await Effect.runPromise(
      Effect.all(
        Array.from({ length: 100 }, (_, i) =>
          runtime().execute(`call slow {"ms":${i % 7},"value":"v${i}"}\nlog run ${i}\nreturn $`),
        ),
        { concurrency: "unbounded" },
      ).pipe(provide),
    )
    results.forEach((result, i) => {
      expect(result).toMatchObject({ ok: true, value: `v${i}`, logs: [`run ${i}`] })
      expect(result.toolCalls).toHaveLength(1)
    })
  })

  it("warms sandboxes for a runtime's language when the runtime is made, before its first run", async () => {
    const own = new SandboxPool({ keepIdle: 2, maxOldGenerationSizeMb: 64 })
    try {
      const made = CodeMode.make({ language: lineLanguage(), pool: own })
      const warmed = async () => {
        const result = await Effect.runPromise(made.execute("warmed\nreturn $"))
        if (!result.ok) throw new Error(result.error.message)
        return result.value
      }
      // Both sandboxes started when the runtime was made, and warmed up: once they are done, every run finds that.
      await Effect.runPromise(Effect.sleep(300))
      const seen = new Set<unknown>()
      for (let i = 0; i < 100 && !(seen.size === 1 && seen.has(1)); i++) {
        seen.clear()
        seen.add(await warmed())
        seen.add(await warmed())
        if (!seen.has(0)) break
        await Effect.runPromise(Effect.sleep(50))
      }
      expect([...seen]).toEqual([1])
    } finally {
      own.close()
    }
  })

  it("warms up the host's side of executions in a sandbox of the pool once it has warmed, calling a tool of its own", async () => {
    const own = new SandboxPool({ keepIdle: 1, maxOldGenerationSizeMb: 64 })
    try {
      const calls: Array<string> = []
      const language = lineLanguage({
        name: "line-host-warm-up",
        warmUpProgram: 'call warmup.echo {"n":1,"s":"a","list":[1,2]}\nset "warm-up ran"\nreturn $',
      })
      const made = CodeMode.make({
        language,
        pool: own,
        tools: {
          warmup: {
            echo: Tool.make({
              description: "user tool",
              input: Schema.Unknown,
              output: Schema.Unknown,
              execute: () => Effect.sync(() => void calls.push("user")),
            }),
          },
        },
      })
      // A run given to the sandbox before it has warmed up would stop its warm-up (and the host's).
      await Effect.runPromise(Effect.sleep(1_000))
      let kept: unknown
      for (let i = 0; i < 100 && kept !== "warm-up ran"; i++) {
        await Effect.runPromise(Effect.sleep(50))
        const result = await Effect.runPromise(made.execute("get\nreturn $"))
        kept = result.ok ? result.value : undefined
      }
      // It ran in the pool's one sandbox, and its call reached its own tool, not the runtime's tool of the same path.
      expect(kept).toBe("warm-up ran")
      expect(calls).toEqual([])
    } finally {
      own.close()
    }
  })

  it("a program that finds the pool's one sandbox running the host's warm-up waits for it instead of starting a process", async () => {
    const own = new SandboxPool({ keepIdle: 1, maxOldGenerationSizeMb: 64 })
    try {
      // Twenty warm-up runs of 250 ms each: from the sandbox's own warm-up on, the host's holds it for five seconds.
      const language = lineLanguage({
        name: "line-host-warm-up-wait",
        warmUpProgram: 'set "warm-up"\nbusy 250\nreturn 1',
      })
      const made = CodeMode.make({ language, pool: own })
      // A run given to the sandbox before it has warmed up would stop its warm-up (and the host's).
      await Effect.runPromise(Effect.sleep(1_500))
      const result = await Effect.runPromise(made.execute("get\nreturn $"))
      // It ran in the sandbox the warm-up ran in (a new process would have kept nothing), after a warm-up run ended.
      expect(result.ok && result.value).toBe("warm-up")
      const spawned = (own as unknown as { alive: number }).alive
      expect(spawned).toBe(1)
    } finally {
      own.close()
    }
  })

  it("once the host's warm-up gives its sandbox to one waiting program, the others start processes of their own", async () => {
    const own = new SandboxPool({ keepIdle: 1, maxWorkers: 4, maxOldGenerationSizeMb: 64 })
    try {
      const language = lineLanguage({
        name: "line-host-warm-up-waiters",
        warmUpProgram: 'set "warm-up"\nbusy 250\nreturn 1',
      })
      const made = CodeMode.make({ language, pool: own })
      await Effect.runPromise(Effect.sleep(1_500))
      // Both arrive while the warm-up holds the pool's one sandbox. The first gets it when the warm-up's run ends;
      // the second must not wait for the first's three seconds.
      const ended: Array<string> = []
      const run = (name: string, code: string) =>
        Effect.runPromise(made.execute(code)).then((result) => {
          expect(result.ok).toBe(true)
          ended.push(name)
        })
      await Promise.all([run("long", "busy 3000\nreturn 1"), run("short", "return 2")])
      expect(ended).toEqual(["short", "long"])
    } finally {
      own.close()
    }
  })

  it("runs the host's warm-up twenty times on an idle sandbox, one run after the other", async () => {
    const own = new SandboxPool({ keepIdle: 1, maxOldGenerationSizeMb: 64 })
    try {
      // A language with a cleanup after each run: every warm-up run but the first finds the sandbox still cleaning up.
      const language = lineLanguage({
        name: "line-host-warm-up-count",
        workerModule: new URL("./fixtures/line-language-cleanup.mjs", import.meta.url).href,
        warmUpProgram: "count\ncleanup slow 5\nbusy 10\nreturn 1",
      })
      const made = CodeMode.make({ language, pool: own })
      // The sandbox warms up, then twenty runs of 10 ms each, each started as its predecessor's cleanup begins (about
      // half a second in all; the wait leaves room for a loaded machine).
      await Effect.runPromise(Effect.sleep(5_000))
      const result = await Effect.runPromise(made.execute("counted"))
      expect(result.ok && result.value).toBe(20)
    } finally {
      own.close()
    }
  })

  it("runtimes made on one pool before it has warmed leave one host warm-up waiting, and none on a pool that keeps none warm", () => {
    const language = lineLanguage({ name: "line-host-warm-up-bound", warmUpProgram: "return 1" })
    const cold = new SandboxPool({ keepIdle: 0 })
    const warm = new SandboxPool({ keepIdle: 1, maxOldGenerationSizeMb: 64 })
    try {
      for (let i = 0; i < 1_000; i++) {
        CodeMode.make({ language, pool: cold })
        CodeMode.make({ language, pool: warm })
      }
      const waiting = (pool: SandboxPool) => (pool as unknown as { onWarm: Map<string, unknown> }).onWarm.size
      expect(waiting(cold)).toBe(0)
      expect(waiting(warm)).toBe(1)
    } finally {
      cold.close()
      warm.close()
    }
  })

  it("a one-shot execution warms the pool's other sandboxes, never the one it runs in", async () => {
    const own = new SandboxPool({ keepIdle: 2, maxOldGenerationSizeMb: 64 })
    try {
      const warmed = async () => {
        const result = await Effect.runPromise(
          CodeMode.execute({ language: lineLanguage(), pool: own, code: "warmed\nreturn $" }),
        )
        if (!result.ok) throw new Error(result.error.message)
        return result.value
      }
      // The first run starts a sandbox for itself (not warmed) and one ahead of use, which warms before it serves:
      // runs go to the first until the other has warmed, then to either.
      expect(await warmed()).toBe(0)
      const seen = new Set<unknown>()
      for (let i = 0; i < 100 && !seen.has(1); i++) {
        seen.add(await warmed())
        await Effect.runPromise(Effect.sleep(20))
      }
      expect(seen.has(1)).toBe(true)
      expect([...seen].every((n) => n === 0 || n === 1)).toBe(true)
    } finally {
      own.close()
    }
  })

  it("a run given to a sandbox that is warming up stops the warm-up at its next step", async () => {
    const own = new SandboxPool({ keepIdle: 1, maxOldGenerationSizeMb: 64 })
    try {
      const stepWarm = lineLanguage({
        workerModule: new URL("./fixtures/line-language-step-warm.mjs", import.meta.url).href,
      })
      const made = CodeMode.make({ language: stepWarm, pool: own })
      // The warm-up is 40 steps of 50 ms; the run arrives while the sandbox starts, or during its first steps.
      const result = await Effect.runPromise(made.execute("warmsteps\nreturn $"))
      expect(result).toMatchObject({ ok: true })
      expect(result.ok && (result.value as number)).toBeLessThan(10)
      // The sandbox that stopped its warm-up serves later runs as before.
      const again = await Effect.runPromise(made.execute("warmsteps\nreturn $"))
      expect(again).toMatchObject({ ok: true, value: result.ok ? result.value : -1 })
    } finally {
      own.close()
    }
  })

  it("gives a run to a sandbox that is done warming up rather than to one still warming", async () => {
    const own = new SandboxPool({ keepIdle: 2, maxOldGenerationSizeMb: 64 })
    try {
      const slowWarm = lineLanguage({
        workerModule: new URL("./fixtures/line-language-slow-warm.mjs", import.meta.url).href,
      })
      const pid = async () => {
        const result = await Effect.runPromise(
          CodeMode.execute({ language: slowWarm, pool: own, code: "pid\nreturn $" }),
        )
        if (!result.ok) throw new Error(result.error.message)
        return result.value
      }
      // The first run starts a sandbox for itself and one ahead of use, which then warms up for 5 s (all at once,
      // so a run cannot stop it): the next runs go to the first sandbox, idle and clean, not to the one warming.
      const first = await pid()
      expect(await pid()).toBe(first)
      expect(await pid()).toBe(first)
    } finally {
      own.close()
    }
  })

  it("interrupting the execution interrupts the tool call in flight", async () => {
    const outcomes: string[] = []
    const rt = CodeMode.make({
      language: lineLanguage(),
      tools: { slow },
      pool,
      hooks: { "tool.after": (_call, outcome) => void outcomes.push(outcome.status) },
    })
    const exit = await Effect.runPromiseExit(
      rt.execute(`call slow {"ms":10000,"value":"never"}`).pipe(Effect.timeout("100 millis")),
    )
    expect(exit._tag).toBe("Failure")
    await Effect.runPromise(Effect.sleep(20))
    expect(outcomes).toEqual(["interrupted"])
  })

  it("calls still running when the program returns are interrupted, and the result stands", async () => {
    const outcomes: string[] = []
    const rt = CodeMode.make({
      language: lineLanguage(),
      tools: { slow },
      pool,
      hooks: { "tool.after": (_call, outcome) => void outcomes.push(outcome.status) },
    })
    const result = await Effect.runPromise(rt.execute(`start slow {"ms":10000,"value":"never"}\nreturn "done"`))
    expect(result).toMatchObject({ ok: true, value: "done", toolCalls: [{ name: "slow", status: "interrupted" }] })
    expect(outcomes).toEqual(["interrupted"])
  })
  it("each run sees its own runtime's tool and extension shapes, however runtimes take turns on one sandbox", async () => {
    const one = new SandboxPool({ maxWorkers: 1, keepIdle: 1, maxOldGenerationSizeMb: 64 })
    try {
      const ext = Extension.make({ name: "x", globals: { fetch: () => 1 } })
      const a = CodeMode.make({ language: lineLanguage(), tools: { later: { slow } }, pool: one })
      const b = CodeMode.make({ language: lineLanguage(), tools: { slow }, extensions: [ext], pool: one })
      const shapes = async (rt: typeof a) => {
        const result = await Effect.runPromise(rt.execute("shapes\nreturn $"))
        if (!result.ok) throw new Error(result.error.message)
        return result.value
      }
      const ofA = { tools: { later: { slow: true }, search: true }, extensions: [] }
      const ofB = {
        tools: { slow: true, search: true },
        extensions: [{ name: "x", language: "any", globals: { fetch: "sync" } }],
      }
      for (const [rt, expected] of [
        [a, ofA],
        [a, ofA],
        [b, ofB],
        [b, ofB],
        [a, ofA],
        [b, ofB],
        [b, ofB],
      ] as const)
        expect(await shapes(rt)).toEqual(expected)
    } finally {
      one.close()
    }
  })

  it("a run cannot change the shapes the next run of its runtime sees", async () => {
    const one = new SandboxPool({ maxWorkers: 1, keepIdle: 1, maxOldGenerationSizeMb: 64 })
    try {
      const rt = CodeMode.make({ language: lineLanguage(), tools: { slow }, pool: one })
      const first = await Effect.runPromise(rt.execute("pid\nreturn $"))
      for (let i = 0; i < 3; i++) {
        const mutated = await Effect.runPromise(rt.execute("mutate\nreturn $"))
        expect(mutated).toMatchObject({ ok: true, value: "refused" })
        const seen = await Effect.runPromise(rt.execute("shapes\nreturn $"))
        expect(seen).toMatchObject({ ok: true, value: { tools: { slow: true, search: true }, extensions: [] } })
      }
      // All on one sandbox process, so the later runs did reuse what the first one brought.
      expect(await Effect.runPromise(rt.execute("pid\nreturn $"))).toMatchObject({
        ok: true,
        value: (first as { value: number }).value,
      })
    } finally {
      one.close()
    }
  })
})
