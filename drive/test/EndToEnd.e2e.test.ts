/**
 * End to end against the real OpenCode binary (opencode-ai, pinned): every run starts `opencode serve`, the fake
 * LLM and TUIs in pseudo-terminals. Waits for model answers are generous because OpenCode's first prompt on a
 * busy 2-core machine can take tens of seconds.
 */
import * as ChildProcess from "node:child_process"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { Cause, Effect, Exit } from "effect"
import { describe, expect, it } from "vitest"
import { Llm, OpenCodeDriver } from "../src/index.js"
import * as Processes from "../src/run/Processes.js"
import { runCli, writeModule } from "./cliHarness.js"

const answer = { timeout: 150_000 }
const testTimeout = 420_000

const failureOf = <A, E>(exit: Exit.Exit<A, E>): E => {
  if (Exit.isSuccess(exit)) throw new Error("expected the run to fail")
  const error = Cause.findErrorOption(exit.cause)
  if (error._tag === "None") throw new Error(`expected a typed failure, got ${Cause.pretty(exit.cause)}`)
  return error.value
}

const serverPids = (home: string) =>
  Processes.processesWithHome(home).filter((pid) => {
    try {
      return Fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").includes("serve")
    } catch {
      return false
    }
  })

describe("opencode-drive against the real OpenCode", () => {
  it(
    "answers a submitted prompt with queued text, runs a real tool from a queued tool call, never spends the queue on titles, reports and leaves no process behind",
    async () => {
      let home = ""
      let processesDuringRun: ReadonlyArray<number> = []
      const { value, report } = await Effect.runPromise(
        OpenCodeDriver.useReport(
          {
            project: { git: true, files: { "src/example.ts": "export const value = 1\n" } },
            config: { autoupdate: false },
            tui: { viewport: { cols: 96, rows: 32 }, recording: false },
          },
          ({ ui, llm, paths }) =>
            Effect.gen(function* () {
              home = paths.home
              processesDuringRun = Processes.processesWithHome(home)
              yield* llm.queue(Llm.text("The value is 1."))
              yield* ui.submit("Read src/example.ts")
              yield* ui.waitFor("The value is 1.", answer)

              yield* llm.queue(
                Llm.reasoning("I should read the file."),
                Llm.toolCall({
                  index: 0,
                  id: "call_read",
                  name: "read",
                  input: { filePath: Path.join(paths.files, "src/example.ts") },
                }),
                Llm.finish("tool-calls"),
              )
              yield* llm.queue(Llm.text("Having read it: value is 1.", { chunkSize: 4, delay: 5 }))
              yield* ui.submit("Read it for real this time")
              yield* ui.waitFor("Having read it: value is 1.", answer)

              const frame = yield* ui.capture()
              const gitLog = yield* Processes.run("git", ["log", "--format=%an|%s"], {
                cwd: paths.files,
                env: { PATH: process.env.PATH ?? "" },
              })
              return { requests: yield* llm.requests, frame, gitLog: gitLog.stdout.trim(), text: yield* ui.text() }
            }),
        ),
      )

      const models = value.requests.filter((request) => request.kind === "model")
      expect(value.requests.some((request) => request.kind === "title")).toBe(true)
      expect(models).toHaveLength(3)
      expect(models[0].model).toBe("simulated")
      expect(models[0].tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["bash", "read", "edit"]))
      expect(models[0].messages.at(-1)).toMatchObject({ role: "user" })
      const followUp = models[2].messages
      const toolMessage = followUp.find((message) => message.role === "tool" && message.tool_call_id === "call_read")
      expect(String(toolMessage?.content)).toContain("export const value = 1")
      expect(value.text).toContain("Read")
      expect(value.frame.cols).toBe(96)
      expect(value.frame.rows).toBe(32)
      expect(value.frame.cells.flat().some((cell) => cell.fg.mode === "rgb")).toBe(true)
      expect(value.gitLog).toBe("OpenCode Drive|Initial commit")

      expect(report.compatibility).toMatchObject({
        requested: "preferred",
        profile: "legacy",
        opencodeVersion: "1.18.33",
      })
      expect(report.llm).toMatchObject({ modelRequests: 3, responsesStreamed: 3 })
      expect(report.llm.titleRequests).toBeGreaterThanOrEqual(1)
      expect(report.retention).toBe("none")
      expect(report.artifacts).toEqual({ screenshots: [], recordings: [], logs: [] })
      expect(Fs.existsSync(report.runDirectory)).toBe(false)

      expect(processesDuringRun.length).toBeGreaterThanOrEqual(2)
      expect(Processes.processesWithHome(home)).toEqual([])
    },
    testTimeout,
  )

  it(
    "attaches a second TUI to the same server, closes and relaunches named TUIs, screenshots, records and exposes the SDK client",
    async () => {
      const { value, report } = await Effect.runPromise(
        OpenCodeDriver.useReport(
          { tui: { viewport: { cols: 100, rows: 30 }, recording: { formats: ["mp4", "gif", "webm", "cast"] } } },
          ({ ui, llm, tuis, opencode }) =>
            Effect.gen(function* () {
              const health = yield* opencode.health.get()
              const sameHealth = yield* opencode.global.health()
              const raw = yield* Effect.promise(() => opencode.raw.global.health())
              const missing = yield* Effect.flip(opencode.session.get({ sessionID: "ses_missing" }))
              const secondary = yield* tuis.launch("secondary", { viewport: { cols: 110, rows: 32 } })
              yield* llm.queue(Llm.text("Answer for the secondary TUI."))
              yield* secondary.ui.submit("Prompt from the secondary TUI")
              yield* secondary.ui.waitFor("Answer for the secondary TUI.", answer)
              const shot = yield* secondary.ui.screenshot("secondary-view")
              yield* secondary.close()
              const closedError = yield* Effect.flip(secondary.ui.text())
              const relaunched = yield* tuis.launch("secondary")
              const generated = yield* tuis.launch()
              const duplicate = yield* Effect.flip(tuis.launch("secondary"))
              const names = (yield* tuis.list()).map((tui) => tui.name)
              yield* ui.resize(104, 30)
              const primaryShot = yield* ui.screenshot()
              return {
                health,
                sameHealth,
                raw: raw.data,
                missing,
                shot,
                closedError,
                names,
                duplicate,
                relaunchedText: yield* relaunched.ui.text(),
                generated: generated.name,
                primaryShot,
              }
            }),
        ),
      )
      expect(value.health).toMatchObject({ healthy: true, version: "1.18.33" })
      expect(value.sameHealth).toEqual(value.health)
      expect(value.raw).toEqual(value.health)
      expect(value.missing._tag).toBe("OpenCodeApiError")
      expect(value.missing.operation).toBe("session.get")
      expect(value.missing.status).toBeGreaterThanOrEqual(400)
      expect(value.closedError._tag).toBe("TuiExitedError")
      expect(value.duplicate.message).toContain('a TUI named "secondary" is already open')
      expect(value.names).toEqual(["primary", "secondary", "tui-1"])
      expect(value.generated).toBe("tui-1")
      expect(value.relaunchedText).toContain("Ask anything")
      expect(value.shot).toBe(Path.join(report.runDirectory, "media", "secondary-view.png"))
      expect(value.primaryShot).toBe(Path.join(report.runDirectory, "media", "screenshot-1.png"))
      expect(report.artifacts.screenshots).toEqual([value.shot, value.primaryShot])
      expect(Fs.readFileSync(value.shot).subarray(1, 4).toString()).toBe("PNG")
      expect(report.retention).toBe("media")
      const media = (file: string) => Path.join(report.runDirectory, "media", file)
      expect(report.artifacts.recordings).toEqual([
        {
          tui: "primary",
          files: ["primary.mp4", "primary.gif", "primary.webm", "primary.cast"].map(media),
          cast: media("primary.cast"),
          video: media("primary.mp4"),
        },
      ])
      const cast = Fs.readFileSync(media("primary.cast"), "utf8").split("\n")
      expect(JSON.parse(cast[0])).toMatchObject({ version: 2, width: 100, height: 30 })
      expect(cast.some((line) => line.includes('"r"') && line.includes("104x30"))).toBe(true)
      // Trimmed: the first event is at 0 (the blank start is cut)
      expect(JSON.parse(cast[1])[0]).toBe(0)
      for (const video of ["primary.mp4", "primary.gif", "primary.webm"]) {
        expect(Fs.statSync(media(video)).size).toBeGreaterThan(1000)
        // The first frame already shows OpenCode, not the blank screen before it drew.
        const first = ChildProcess.execFileSync("ffmpeg", [
          "-v",
          "error",
          "-i",
          media(video),
          "-frames:v",
          "1",
          "-f",
          "rawvideo",
          "-pix_fmt",
          "gray",
          "-",
        ])
        // More ink than a cursor cell (10×20 pixels) on the background (the commonest gray).
        const counts = new Map<number, number>()
        for (const value of first) counts.set(value, (counts.get(value) ?? 0) + 1)
        const background = Math.max(...counts.values())
        expect(first.length - background, video).toBeGreaterThan(1_000)
      }
      expect(Fs.readdirSync(report.runDirectory)).toEqual(["media"])
      Fs.rmSync(report.runDirectory, { recursive: true, force: true })
    },
    testTimeout,
  )

  it(
    "fails settlement of make()/settle() naming a queued response OpenCode never requested, and keeps the failed run",
    async () => {
      let root = ""
      const exit = await Effect.runPromiseExit(
        Effect.scoped(
          Effect.gen(function* () {
            const driver = yield* OpenCodeDriver.make()
            root = driver.paths.root
            const { ui, llm } = driver
            yield* llm.queue(Llm.text("Only this one is used."))
            yield* llm.queue(Llm.text("Nobody asks for this."), Llm.finish("stop"))
            yield* ui.submit("Hello")
            yield* ui.waitFor("Only this one is used.", answer)
            yield* driver.settle()
          }),
        ),
      )
      const error = failureOf(exit)
      expect(error._tag).toBe("LlmSettlementError")
      if (error._tag !== "LlmSettlementError") return
      expect(error.unusedResponses).toEqual(['response #2 [text "Nobody asks for this.", finish stop]'])
      expect(error.message).toContain("1 queued response(s) were never requested by OpenCode")
      expect(Fs.existsSync(Path.join(root, "logs", "opencode-server.log"))).toBe(true)
      Fs.rmSync(root, { recursive: true, force: true })
    },
    testTimeout,
  )

  it(
    "fails the run with the exit status and the log tail when the OpenCode server dies",
    async () => {
      let root = ""
      const exit = await Effect.runPromiseExit(
        OpenCodeDriver.use(({ ui, paths }) =>
          Effect.gen(function* () {
            root = paths.root
            for (const pid of serverPids(paths.home)) process.kill(pid, "SIGKILL")
            yield* ui.waitFor("this text never appears", { timeout: 120_000 })
          }),
        ),
      )
      const error = failureOf(exit)
      expect(error._tag).toBe("OpenCodeExitedError")
      if (error._tag !== "OpenCodeExitedError") return
      expect(error.signal).toBe("SIGKILL")
      expect(error.message).toContain("the OpenCode server was killed by SIGKILL")
      expect(error.logTail).toContain("listening on")
      Fs.rmSync(root, { recursive: true, force: true })
    },
    testTimeout,
  )

  it(
    "runs the seed's CLI module and a defineScript script through the opencode-drive command",
    async () => {
      const module = writeModule(
        "drive.ts",
        [
          'import { Effect } from "effect"',
          'import { Llm, OpenCodeDriver } from "opencode-drive"',
          "",
          'export default OpenCodeDriver.use(({ ui }) => ui.screenshot("home"))',
          "",
        ].join("\n"),
      )
      const ran = await runCli(["run", module], 300_000)
      expect(ran.stderr).toBe("")
      expect(ran.code).toBe(0)
      const png = ran.stdout.trim()
      expect(png).toMatch(/opencode-drive\/run-[^/]+\/media\/home\.png$/)
      expect(Fs.readFileSync(png).subarray(1, 4).toString()).toBe("PNG")
      Fs.rmSync(Path.dirname(Path.dirname(png)), { recursive: true, force: true })

      const script = writeModule(
        "script.ts",
        [
          'import { Effect } from "effect"',
          'import { defineScript, Llm } from "opencode-drive"',
          "",
          "export default defineScript({",
          "  tui: { viewport: { cols: 100, rows: 30 } },",
          "  setup: ({ fs, llm }) =>",
          "    Effect.gen(function* () {",
          '      yield* fs.write("notes.md", "remember the value\\n")',
          '      yield* llm.queue(Llm.text("Alice got her answer."))',
          "    }),",
          "  run: ({ fs, server, tuis }) =>",
          "    Effect.gen(function* () {",
          "      const endpoint = yield* server.launch()",
          '      const alice = yield* tuis.launch("alice")',
          '      yield* alice.ui.submit("Hello from Alice")',
          '      yield* alice.ui.waitFor("Alice got her answer.", { timeout: 150_000 })',
          '      return { notes: yield* fs.read("notes.md"), version: endpoint.version }',
          "    }),",
          "})",
          "",
        ].join("\n"),
      )
      const started = await runCli(["start", "--script", script], 300_000)
      expect(started.stderr).toBe("")
      expect(started.code).toBe(0)
      expect(JSON.parse(started.stdout)).toEqual({ notes: "remember the value\n", version: "1.18.33" })
    },
    testTimeout,
  )
})
