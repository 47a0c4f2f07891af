import * as ChildProcess from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { parse, UsageError } from "../src/cli/Arguments.js"
import { processesWithHome } from "../src/run/ProcessScan.js"
import * as RunDirectory from "../src/run/RunDirectory.js"
import { cli, runCli, writeModule, work } from "./cliHarness.js"
import { eventually } from "./support/latch.js"

beforeAll(() => {
  if (!Fs.existsSync(cli)) throw new Error(`${cli} is missing: build the package first (npx tsup)`)
})

describe("argument parsing", () => {
  it("parses the three commands", () => {
    expect(parse(["run", "drive.ts"])).toEqual({ kind: "run", module: "drive.ts" })
    expect(parse(["check", "s.ts"])).toEqual({ kind: "check", script: "s.ts" })
    expect(parse(["start", "--script", "s.ts"])).toEqual({ kind: "start", script: "s.ts" })
    expect(parse(["start", "--script=s.ts"])).toEqual({ kind: "start", script: "s.ts" })
    expect(parse(["--help"])).toEqual({ kind: "help" })
  })

  it("rejects stray flags, arguments after --, and unknown commands", () => {
    for (const args of [
      ["run", "--watch", "a.ts"],
      ["run", "a.ts", "--", "x"],
      ["run"],
      ["run", "a", "b"],
      ["frob"],
      ["start", "s.ts"],
      [],
    ]) {
      expect(() => parse(args), args.join(" ")).toThrow(UsageError)
    }
  })
})

describe("opencode-drive clean", () => {
  it("removes run directories whose owner died and kills their processes; kept directories stay", async () => {
    // A temp directory of its own: other runs on this machine also remove stale directories.
    const tmp = Fs.mkdtempSync(Path.join(Os.tmpdir(), "drive-clean-"))
    const env = { ...process.env, TMPDIR: tmp }
    const runs = Path.join(tmp, Path.basename(RunDirectory.runsRoot()))
    const stale = Path.join(runs, `run-test-stale-${process.pid}`)
    const kept = Path.join(runs, `run-test-kept-${process.pid}`)
    const home = Path.join(stale, "home")
    Fs.mkdirSync(home, { recursive: true })
    Fs.mkdirSync(kept, { recursive: true })
    const dead = ChildProcess.spawnSync("true").pid!
    Fs.writeFileSync(Path.join(stale, "owner.json"), JSON.stringify({ pid: dead, startTime: 1, home }))
    const straggler = ChildProcess.spawn("sleep", ["60"], {
      env: { PATH: process.env.PATH, HOME: home },
      detached: true,
    })
    await eventually("the straggler carries the stale HOME", () => processesWithHome(home).length === 1)
    const cleaned = await runCli(["clean"], 60_000, env)
    expect(cleaned.code).toBe(0)
    expect(cleaned.stdout).toContain(`removed ${stale}`)
    expect(Fs.existsSync(stale)).toBe(false)
    expect(Fs.existsSync(kept)).toBe(true)
    await eventually("the straggler is gone", () => straggler.exitCode !== null || straggler.signalCode !== null)
    expect((await runCli(["clean"], 60_000, env)).stdout).toBe("no stale run directories\n")
    Fs.rmSync(tmp, { recursive: true, force: true })
  })
})

describe("opencode-drive command", () => {
  it("prints help and exits 0; usage errors are one line with exit 2", async () => {
    const help = await runCli(["--help"])
    expect(help.code).toBe(0)
    expect(help.stdout).toContain("opencode-drive run <module>")
    const stray = await runCli(["run", "--record", "x.ts"])
    expect(stray.code).toBe(2)
    expect(stray.stderr.trim().split("\n")).toEqual([
      "opencode-drive: run accepts no flags (got --record); control the simulation in the module",
    ])
  })

  it("type-checks that the default export is a fully provided Effect before importing it", async () => {
    const marker = Path.join(work, "imported.txt")
    const file = writeModule(
      "needs-service.ts",
      [
        'import { Context, Effect } from "effect"',
        'import * as Fs from "node:fs"',
        `Fs.writeFileSync(${JSON.stringify(marker)}, "imported")`,
        'class Database extends Context.Service<Database, { readonly url: string }>()("Database") {}',
        "export default Effect.gen(function* () { return (yield* Database).url })",
        "",
      ].join("\n"),
    )
    const result = await runCli(["run", file])
    expect(result.code).toBe(1)
    const lines = result.stderr.trim().split("\n")
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain("needs-service.ts: its default export must be an Effect<_, _, never>")
    expect(lines[0]).toContain("Type 'Database' is not assignable to type 'never'")
    expect(Fs.existsSync(marker)).toBe(false)
  })

  it("prints every type error of a module, its own errors before the contract error they cause", async () => {
    const file = writeModule(
      "typo.ts",
      [
        'import { Effect } from "effect"',
        'import { OpenCodeDriver } from "opencode-drive"',
        "export default OpenCodeDriver.use(({ ui }) =>",
        "  Effect.gen(function* () {",
        '    yield* ui.submitt("Hello")',
        '    yield* ui.waitFr("Hi")',
        "  }),",
        ")",
        "",
      ].join("\n"),
    )
    const result = await runCli(["run", file])
    expect(result.code).toBe(1)
    const lines = result.stderr.trim().split("\n")
    expect(lines[0]).toMatch(/type check failed \(\d+ errors\): typo\.ts\(5,15\): Property 'submitt' does not exist/)
    expect(lines[0]).toContain("Did you mean 'submit'?")
    expect(lines[1]).toMatch(/^ {2}typo\.ts\(6,15\): Property 'waitFr' does not exist.*Did you mean 'waitFor'\?/)
    expect(lines.slice(2).join("\n")).toContain("is not assignable")
  })

  it("runs a TypeScript module importing another TypeScript module and prints its value", async () => {
    writeModule("helper.ts", "export const greeting = (name: string): string => `hello ${name}`\n")
    const file = writeModule(
      "pure.ts",
      [
        'import { Effect } from "effect"',
        'import { greeting } from "./helper.js"',
        "// Node globals type-check too",
        'export default Effect.succeed(greeting(typeof process.pid === "number" ? "drive" : "nobody"))',
        "",
      ].join("\n"),
    )
    const result = await runCli(["run", file])
    expect(result.stderr).toBe("")
    expect(result.code).toBe(0)
    expect(result.stdout.trim()).toBe("hello drive")
  })

  it("check accepts an Effect-only script and rejects a Promise-returning one in one line", async () => {
    const good = writeModule(
      "good-script.ts",
      [
        'import { Effect } from "effect"',
        'import { defineScript, Llm } from "opencode-drive"',
        "export default defineScript({",
        "  run: ({ ui, llm }) => Effect.gen(function* () {",
        '    yield* llm.queue(Llm.text("The value is 1."))',
        '    yield* ui.submit("Read src/example.ts")',
        '    yield* ui.waitFor("The value is 1.")',
        "  }),",
        "})",
        "",
      ].join("\n"),
    )
    const ok = await runCli(["check", good])
    expect(ok.stderr).toBe("")
    expect(ok.code).toBe(0)
    expect(ok.stdout).toContain("ok")
    const bad = writeModule(
      "async-script.ts",
      [
        'import { defineScript } from "opencode-drive"',
        "export default defineScript({",
        "  run: async ({ ui }) => { await Promise.resolve(ui) },",
        "})",
        "",
      ].join("\n"),
    )
    const rejected = await runCli(["check", bad])
    expect(rejected.code).toBe(1)
    expect(rejected.stderr.trim().split("\n")).toHaveLength(1)
    expect(rejected.stderr).toContain("async-script.ts(3,3)")
    expect(rejected.stderr).toContain("Promise")
  })
})
