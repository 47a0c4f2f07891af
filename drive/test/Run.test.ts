import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { Effect, Exit, Scope } from "effect"
import { describe, expect, it } from "vitest"
import * as OpenCodeConfig from "../src/opencode/OpenCodeConfig.js"
import * as OpenCodeServer from "../src/opencode/OpenCodeServer.js"
import * as Options from "../src/Options.js"
import * as Project from "../src/run/Project.js"
import * as RunDirectory from "../src/run/RunDirectory.js"

const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromise(effect)
const temp = () => Fs.mkdtempSync(Path.join(Os.tmpdir(), "drive-run-test-"))

describe("options", () => {
  it("accept the seed's options", () =>
    run(
      Options.validate({
        project: { git: true, files: { "src/example.ts": "export const value = 1\n" } },
        config: { autoupdate: false },
        tui: { viewport: { cols: 96, rows: 32 }, recording: false },
        opencode: { compatibility: "preferred", command: ["opencode"] },
        keepArtifacts: false,
        tools: ["shell"],
      }),
    ))

  it("reject unknown keys and malformed values with a message naming the option", async () => {
    const message = (options: unknown) =>
      run(Effect.flip(Options.validate(options as Options.DriverOptions))).then((error) => error.message)
    expect(await message({ recordings: true })).toContain('options has unknown key(s) "recordings"')
    expect(await message({ tui: { viewport: { cols: 1, rows: 2, depth: 3 } } })).toContain(
      'options.tui.viewport has unknown key(s) "depth"',
    )
    expect(await message({ opencode: { compatibility: "always" } })).toContain('"required" or "preferred"')
    expect(await message({ project: { files: { "a.txt": 42 } } })).toContain('options.project.files["a.txt"]')
    expect(await message({ tools: "shell" })).toContain("options.tools must be a list")
    expect(await message({ settleTimeout: -1 })).toContain("options.settleTimeout")
  })
})

describe("project", () => {
  it("writes files and refuses paths outside the project", async () => {
    const root = temp()
    await run(Project.writeFiles(root, { "src/a.ts": "a", "b.bin": new Uint8Array([1, 2]) }))
    expect(Fs.readFileSync(Path.join(root, "src/a.ts"), "utf8")).toBe("a")
    expect([...Fs.readFileSync(Path.join(root, "b.bin"))]).toEqual([1, 2])
    for (const bad of ["../escape.txt", "/etc/passwd", ""]) {
      const error = await run(Effect.flip(Project.writeFiles(root, { [bad]: "x" })))
      expect(error._tag).toBe("InvalidOptionsError")
    }
  })

  it("makes one deterministic initial commit under an isolated git config", async () => {
    const commit = async () => {
      const root = temp()
      const home = temp()
      await run(Project.writeFiles(root, { "src/example.ts": "export const value = 1\n", "README.md": "# demo\n" }))
      const env = {
        PATH: process.env.PATH ?? "",
        HOME: home,
        GIT_CONFIG_NOSYSTEM: "1",
        GIT_CONFIG_GLOBAL: Path.join(home, ".gitconfig"),
      }
      const hash = await run(Project.commitInitial(root, env, env.GIT_CONFIG_GLOBAL))
      return { hash, root }
    }
    const first = await commit()
    const second = await commit()
    expect(first.hash).toMatch(/^[0-9a-f]{40}$/)
    expect(second.hash).toBe(first.hash)
    expect(Fs.existsSync(Path.join(first.root, ".git"))).toBe(true)
  })
})

describe("run directory", () => {
  it("isolates HOME and every XDG directory and leaks no host secrets", async () => {
    process.env.OPENAI_API_KEY = "secret"
    const scope = await run(Scope.make())
    const directory = await run(Scope.provide(scope)(RunDirectory.make({ keepArtifacts: false })))
    const env = RunDirectory.environment(directory.paths)
    delete process.env.OPENAI_API_KEY
    expect(directory.paths.root.startsWith(Path.join(Os.tmpdir(), "opencode-drive", "run-"))).toBe(true)
    for (const name of [
      "HOME",
      "XDG_CONFIG_HOME",
      "XDG_DATA_HOME",
      "XDG_CACHE_HOME",
      "XDG_STATE_HOME",
      "XDG_RUNTIME_DIR",
      "GIT_CONFIG_GLOBAL",
    ]) {
      expect(env[name].startsWith(directory.paths.home), name).toBe(true)
    }
    expect(env.OPENAI_API_KEY).toBeUndefined()
    for (const dir of ["files", "home", "logs", "media"])
      expect(Fs.existsSync(Path.join(directory.paths.root, dir))).toBe(true)
    await run(Scope.close(scope, Exit.void))
    expect(Fs.existsSync(directory.paths.root)).toBe(false)
  })

  it("keeps only media/ after a successful run that produced media, and everything after a failure", async () => {
    const scope = await run(Scope.make())
    const kept = await run(Scope.provide(scope)(RunDirectory.make({ keepArtifacts: false })))
    Fs.writeFileSync(Path.join(kept.paths.media, "shot.png"), "x")
    expect(await run(kept.plannedRetention)).toBe("media")
    await run(Scope.close(scope, Exit.void))
    expect(Fs.readdirSync(kept.paths.root)).toEqual(["media"])
    Fs.rmSync(kept.paths.root, { recursive: true })

    const failing = await run(Scope.make())
    const failed = await run(Scope.provide(failing)(RunDirectory.make({ keepArtifacts: false })))
    await run(Scope.close(failing, Exit.fail("boom")))
    expect(Fs.readdirSync(failed.paths.root).sort()).toEqual(["files", "home", "logs", "media"])
    Fs.rmSync(failed.paths.root, { recursive: true })
  })
})

describe("OpenCode configuration", () => {
  it("registers the fake LLM as an openai-compatible provider used as main and small model", () => {
    const config = OpenCodeConfig.baseConfig({ baseUrl: "http://127.0.0.1:1/v1", apiKey: "k", modelId: "simulated" })
    expect(config.model).toBe("drive/simulated")
    expect(config.small_model).toBe("drive/simulated")
    expect(config.provider).toMatchObject({
      drive: { npm: "@ai-sdk/openai-compatible", options: { baseURL: "http://127.0.0.1:1/v1", apiKey: "k" } },
    })
  })

  it("deep-merges layers and the script's config on top, arrays replacing", () => {
    const merged = OpenCodeConfig.compose({ a: { b: 1, c: [1] }, keep: true }, [{ a: { d: 2 } }], {
      a: { b: 3, c: [2] },
      extra: "x",
    })
    expect(merged).toEqual({ a: { b: 3, c: [2], d: 2 }, keep: true, extra: "x" })
  })
})

describe("OpenCode server start", () => {
  it("fails with the exit status and the log tail when the command exits before listening", async () => {
    const logs = temp()
    const error = await run(
      Effect.scoped(
        Effect.flip(
          OpenCodeServer.start({
            port: 1,
            credentials: OpenCodeServer.credentials(),
            command: ["/bin/sh", "-c", "echo 'cannot start: missing thing' >&2; exit 3", "sh"],
            cwd: logs,
            env: { PATH: process.env.PATH ?? "" },
            configContent: "{}",
            logFile: Path.join(logs, "server.log"),
            readyTimeoutMs: 10_000,
          }),
        ),
      ),
    )
    expect(error._tag).toBe("OpenCodeStartError")
    expect(error.message).toContain("exited with status 3 before listening")
    expect(error.logTail).toContain("cannot start: missing thing")
    expect(Fs.readFileSync(Path.join(logs, "server.log"), "utf8")).toContain("cannot start")
  })
})
