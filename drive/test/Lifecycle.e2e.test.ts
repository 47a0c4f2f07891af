/**
 * The lifecycle promises a test writer relies on, against the real OpenCode: runs with tools need no network and
 * install nothing; the spec's build-and-test example passes however late the model's follow-up request comes,
 * with progress in the spec's form on screen; forgetting `settle()` is loud and still writes recordings; a failed
 * run leaves screens and casts, and its message names the line of the test; emoji take the cells OpenCode gives
 * them.
 */
import * as ChildProcess from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { Cause, Effect, Exit } from "effect"
import { beforeAll, describe, expect, it } from "vitest"
import { Llm, OpenCodeDriver, type Ui } from "../src/index.js"
import { cli, writeModule } from "./cliHarness.js"
import { startDriverProcess, writeDriverModule } from "./support/driverProcess.js"
import { eventually } from "./support/latch.js"

const answer = { timeout: 150_000 }
const testTimeout = 420_000

/**
 * The spec's build-and-test example in a child process, in a network namespace of its own with only loopback (no
 * registry, no DNS), with a stable project directory: one OpenCode run for the two tests below.
 */
const offlineBuildAndTest = async () => {
  const project = Path.join(Fs.mkdtempSync(Path.join(Os.tmpdir(), "drive-project-e2e-")), "stable-project")
  const module = writeDriverModule(
    [
      "const listPackages = (root) => {",
      "  const found = []",
      "  const walk = (dir, inPackages) => {",
      "    for (const entry of Fs.readdirSync(dir, { withFileTypes: true })) {",
      "      const path = Path.join(dir, entry.name)",
      "      const inside = inPackages || entry.name === 'node_modules'",
      "      if (inside) found.push(Path.relative(root, path) + (entry.isSymbolicLink() ? ' -> link' : ''))",
      "      if (entry.isDirectory()) walk(path, inside)",
      "    }",
      "  }",
      "  walk(root, false)",
      "  return found",
      "}",
      `const project = ${JSON.stringify(project)}`,
      "const { value, report: run } = await Effect.runPromise(OpenCodeDriver.useReport({ tools: ['shell'], project: { directory: project } }, ({ tools, llm, ui, paths }) => Effect.gen(function* () {",
      "  // The home screen names the project's directory.",
      "  const home = yield* ui.text()",
      "  const shells = yield* tools.control('shell')",
      "  yield* llm.queue(",
      "    Llm.toolCall({ index: 0, id: 'call_build', name: 'shell', input: { command: 'bun run build' } }),",
      "    Llm.toolCall({ index: 1, id: 'call_test', name: 'shell', input: { command: 'bun run test' } }),",
      "    Llm.finish('tool-calls'),",
      "  )",
      "  const submitted = performance.now()",
      "  yield* ui.submit('Build and test')",
      "  const build = yield* shells.take('call_build')",
      "  const took = performance.now() - submitted",
      "  const test = yield* shells.take('call_test')",
      "  yield* test.progress({ structured: { suites: 3 }, content: [{ type: 'text', text: 'running 3 suites\\n' }] })",
      "  yield* ui.waitFor('running 3 suites', { timeout: 150000 })",
      "  yield* test.succeed({ output: 'Tests passed\\n', exit: 0 })",
      "  yield* build.succeed({ output: 'Build passed\\n', exit: 0 })",
      "  // The model's follow-up request (nobody scripted it) arrives before settlement begins.",
      "  yield* llm.waitForRequests(2, { timeout: 150000 })",
      "  return { took, home, packages: listPackages(paths.root), projectPackages: listPackages(project) }",
      "})))",
      "report({ ...value, modelRequests: run.llm.modelRequests, unanswered: run.llm.unansweredRequests.length })",
    ].join("\n"),
  )
  const { child, value } = await startDriverProcess<{
    took: number
    home: string
    packages: ReadonlyArray<string>
    projectPackages: ReadonlyArray<string>
    modelRequests: number
    unanswered: number
  }>(module, ["unshare", "-n", "sh", "-c", 'ip link set lo up && exec "$0" "$@"'])
  await new Promise((resolve) => child.once("exit", resolve))
  return { exitCode: child.exitCode, project, projectLeft: Fs.existsSync(project), ...value }
}

describe("the spec's build-and-test example, offline", () => {
  let run: ReturnType<typeof offlineBuildAndTest>
  beforeAll(() => {
    run = offlineBuildAndTest()
    // Each test awaits it; an early failure is reported there, not as an unhandled rejection.
    run.catch(() => undefined)
    return async () => {
      const { project } = await run.catch(() => ({ project: undefined }))
      if (project !== undefined) Fs.rmSync(Path.dirname(project), { recursive: true, force: true })
    }
  })

  it(
    "a run with tools works without any network and writes no package into the run directory",
    async () => {
      const value = await run
      expect(value.exitCode).toBe(0)
      expect([...value.packages].sort()).toEqual([
        "home/.config/opencode/node_modules",
        "home/.config/opencode/node_modules/@opencode-ai",
        "home/.config/opencode/node_modules/@opencode-ai/plugin -> link",
      ])
      expect([...value.projectPackages].sort()).toEqual([
        ".opencode/node_modules",
        ".opencode/node_modules/@opencode-ai",
        ".opencode/node_modules/@opencode-ai/plugin -> link",
      ])
      expect(value.took).toBeGreaterThan(0)
    },
    testTimeout,
  )

  it(
    "the spec's build-and-test example passes when the follow-up request arrives before settlement, with progress in the spec's form on screen; project.directory shows a stable path and is removed after the run",
    async () => {
      const value = await run
      expect(value.exitCode).toBe(0)
      expect(value.modelRequests).toBe(2)
      expect(value.unanswered).toBe(1)
      // The project lives at the given path (OpenCode shows it), and goes with the run.
      expect(value.home).toContain(value.project)
      expect(value.projectLeft).toBe(false)
    },
    testTimeout,
  )
})

describe("settlement", () => {
  it(
    "closing make()'s scope without settle() fails saying so, lists what was lost and still writes the recording",
    async () => {
      let root = ""
      const exit = await Effect.runPromiseExit(
        Effect.scoped(
          Effect.gen(function* () {
            const driver = yield* OpenCodeDriver.make({ tui: { recording: { formats: ["cast"] } } })
            root = driver.paths.root
            yield* driver.llm.queue(Llm.text("Never requested."))
          }),
        ),
      )
      expect(Exit.isFailure(exit)).toBe(true)
      if (Exit.isSuccess(exit)) return
      const error = Cause.squash(exit.cause) as { _tag: string; message: string; lost: ReadonlyArray<string> }
      expect(error._tag).toBe("DriverNotSettledError")
      expect(error.message).toContain("call yield* driver.settle()")
      expect(error.lost.join("\n")).toContain(
        'queued response(s) were never requested by OpenCode: response #1 [text "Never requested."',
      )
      const cast = Path.join(root, "media", "primary.cast")
      expect(error.message).toContain(cast)
      expect(Fs.readFileSync(cast, "utf8").split("\n")[0]).toContain('"version":2')
      Fs.rmSync(root, { recursive: true, force: true })
    },
    testTimeout,
  )
})

describe("failures leave evidence", () => {
  it(
    "emoji are two cells wide as OpenCode draws them; a failed wait keeps a PNG and a cast of every TUI and names the test's line",
    async () => {
      let root = ""
      const printed: Array<string> = []
      const write = process.stderr.write.bind(process.stderr)
      process.stderr.write = ((chunk: string | Uint8Array, ...rest: Array<never>) => {
        printed.push(String(chunk))
        return write(chunk, ...rest)
      }) as typeof process.stderr.write
      const exit = await Effect.runPromiseExit(
        OpenCodeDriver.use(({ ui, llm, tuis, paths }) =>
          Effect.gen(function* () {
            root = paths.root
            yield* tuis.launch("second", { viewport: { cols: 80, rows: 24 } })
            yield* llm.queue(Llm.text("Hello 🚀🎉 done, 世界."))
            yield* ui.submit("Say hello")
            yield* ui.waitFor("Hello 🚀🎉 done, 世界.", answer)
            const frame = yield* ui.capture()
            const row = frame.cells.find((cells) => cells.some((cell) => cell.glyph === "🚀"))!
            const at = row.findIndex((cell) => cell.glyph === "🚀")
            expect(row.slice(at, at + 5).map((cell) => [cell.glyph, cell.width])).toEqual([
              ["🚀", 2],
              ["", 0],
              ["🎉", 2],
              ["", 0],
              [" ", 1],
            ])
            yield* ui.waitFor("this never appears", { timeout: 500 })
          }),
        ),
      ).finally(() => {
        process.stderr.write = write
      })
      expect(Exit.isFailure(exit)).toBe(true)
      if (Exit.isSuccess(exit)) return
      const error = Cause.squash(exit.cause) as { _tag: string; message: string }
      expect(error._tag).toBe("UiTimeoutError")
      expect(error.message.split("\n")[0]).toMatch(/\(at (drive\/)?test\/Lifecycle\.e2e\.test\.ts:\d+:\d+\)\. Screen:$/)
      const media = Path.join(root, "media")
      const evidence = ["failure-primary.png", "failure-primary.cast", "failure-second.png", "failure-second.cast"]
      for (const file of evidence) expect(Fs.existsSync(Path.join(media, file)), file).toBe(true)
      expect(printed.join("")).toContain(Path.join(media, "failure-primary.png"))
      expect(printed.join("")).toContain(`its artifacts are kept in ${root}`)
      Fs.rmSync(root, { recursive: true, force: true })
    },
    testTimeout,
  )
})

describe("screen assertions", () => {
  it(
    "two runs match one stored snapshot once the run directory and durations are masked",
    async () => {
      const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "drive-screens-e2e-"))
      const snapshot = Path.join(dir, "answer.txt")
      let kept: Ui | undefined
      const answerScreen = () =>
        Effect.runPromise(
          OpenCodeDriver.use({ tui: { viewport: { cols: 90, rows: 24 } } }, ({ ui, llm }) =>
            Effect.gen(function* () {
              yield* llm.queue(Llm.text("Snapshot answer."))
              yield* ui.submit("Take a snapshot")
              yield* ui.waitFor("Snapshot answer.", answer)
              yield* ui.assertScreen(snapshot)
              kept = ui
              return yield* ui.text()
            }),
          ),
        )
      const first = await answerScreen()
      const stored = Fs.readFileSync(snapshot, "utf8")
      expect(stored).toContain("<run>")
      expect(stored).toContain("<duration>")
      expect(first).toMatch(/opencode-drive\/run-/)
      // A second run: another run directory and other timings, the same masked screen.
      await answerScreen()
      // A UI used after `use` ended says why it cannot answer (not "launch it again", which is refused).
      const late = await Effect.runPromise(Effect.flip(kept!.text()))
      expect(late.message).toContain("was stopped when the driver settled")
      Fs.rmSync(dir, { recursive: true, force: true })
    },
    testTimeout,
  )
})

describe("Ctrl-C", () => {
  it(
    "interrupting the CLI still writes the recordings and says where the media is kept",
    async () => {
      const module = writeModule(
        "interrupted.ts",
        [
          'import { Effect } from "effect"',
          'import { OpenCodeDriver } from "opencode-drive"',
          "export default OpenCodeDriver.use({ tui: { recording: { formats: ['cast'] } } }, () =>",
          '  Effect.andThen(Effect.sync(() => console.log("ready")), Effect.never),',
          ")",
          "",
        ].join("\n"),
      )
      const child = ChildProcess.spawn(process.execPath, [cli, "run", module], { stdio: ["ignore", "pipe", "pipe"] })
      let stdout = ""
      let stderr = ""
      child.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString()
      })
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString()
      })
      await eventually("the program runs", () => stdout.includes("ready"), { timeoutMs: 240_000 })
      child.kill("SIGINT")
      const code = await new Promise((resolve) => child.once("exit", (exitCode) => resolve(exitCode)))
      expect(code).toBe(130)
      const media = /its media is kept in (\S+)/.exec(stderr)?.[1]
      expect(media, stderr).toBeDefined()
      expect(Fs.existsSync(Path.join(media!, "primary.cast"))).toBe(true)
      Fs.rmSync(Path.dirname(media!), { recursive: true, force: true })
    },
    testTimeout,
  )
})
