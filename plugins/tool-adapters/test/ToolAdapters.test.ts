import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { Context, Effect, Exit, Layer, Scope } from "effect"
import { describe, expect, it } from "vitest"
import * as PluginPackage from "../src/PluginPackage.js"
import * as Tool from "../src/Tool.js"
import * as ToolAdapters from "../src/ToolAdapters.js"
import { tokenVariable, urlVariable } from "../src/Protocol.js"

/** Run `f` against freshly made adapters and close them afterwards. */
const withAdapters = <A, E>(
  options: ToolAdapters.Options,
  f: (adapters: ToolAdapters.Adapters) => Effect.Effect<A, E>,
) => Effect.runPromise(Effect.scoped(Effect.flatMap(ToolAdapters.make(options), f)))

const failure = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromise(Effect.flip(effect))

describe("make", () => {
  it("generates one file per OpenCode tool and the channel environment", async () => {
    await withAdapters({ declared: ["shell", "bash", "webfetch"] }, (adapters) =>
      Effect.sync(() => {
        expect(Object.keys(adapters.files).sort()).toEqual(["tools/bash.ts", "tools/webfetch.ts"])
        expect(adapters.env).toEqual({ [urlVariable]: adapters.channel.url, [tokenVariable]: adapters.channel.token })
        expect(adapters.pending()).toEqual([])
      }),
    )
  })

  it("refuses tools without a static adapter, and an empty declaration", async () => {
    const unknown = await failure(Effect.scoped(ToolAdapters.make({ declared: ["shell", "read"] })))
    expect(unknown.message).toMatch(
      /"read", which Drive cannot intercept; interceptable tools are shell, bash, webfetch, websearch, write/,
    )
    const empty = await failure(Effect.scoped(ToolAdapters.make({ declared: [] })))
    expect(empty.message).toMatch(/no tools to intercept/)
  })

  it("the callback form installs adapters for handled tools and refuses bad registrations", async () => {
    await withAdapters(
      { declared: [], register: (registry) => registry.handle("write", () => Effect.succeed({ output: "written" })) },
      (adapters) =>
        Effect.gen(function* () {
          expect(Object.keys(adapters.files)).toEqual(["tools/write.ts"])
          const error = yield* Effect.flip(adapters.tools.control("write"))
          expect(error.message).toMatch(/handled by a fixed callback/)
        }),
    )
    const bad = await failure(
      Effect.scoped(
        ToolAdapters.make({
          declared: [],
          register: (registry) => {
            registry.handle("grep", () => Effect.succeed({ output: "" }))
            registry.handle("write", () => Effect.succeed({ output: "" }))
            registry.handle("write", () => Effect.succeed({ output: "" }))
          },
        }),
      ),
    )
    expect(bad.message).toMatch(/"grep" has no static adapter; "write" is handled twice/)
  })
})

describe("tools.attach on OpenCode 1.x", () => {
  const lookup: Tool.Registration = {
    name: "lookup",
    description: "Look up a value",
    inputSchema: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
    options: { codemode: false },
  }

  it("fails with Tool.LifecycleError naming the missing capabilities", async () => {
    await withAdapters({ declared: ["shell"] }, (adapters) =>
      Effect.gen(function* () {
        const error = yield* Effect.flip(adapters.tools.attach({ tools: [lookup] }))
        expect(error).toBeInstanceOf(Tool.LifecycleError)
        expect(error._tag).toBe("LifecycleError")
        expect(error.message).toMatch(/\(register, replace, invoke, progress, finish, cancel\)/)
        expect(error.message).toMatch(/OpenCode 1\.x \(checked on 1\.18\.33\) lacks replace, invoke, progress: /)
        expect(error.message).toMatch(/never the model's call ID/)
        expect((error as Tool.LifecycleError).missing).toEqual(["replace", "invoke", "progress"])
        const take = yield* Effect.flip(adapters.tools.take("call_lookup"))
        expect(take._tag).toBe("LifecycleError")
      }),
    )
  })

  it("fails locally when a dynamic name collides with a static adapter, before the lifecycle check", async () => {
    await withAdapters({ declared: ["shell"] }, (adapters) =>
      Effect.gen(function* () {
        const collision = yield* Effect.flip(adapters.tools.attach({ tools: [{ ...lookup, name: "bash" }] }))
        expect(collision._tag).toBe("RegistrationError")
        expect(collision.message).toMatch(/collides with the static bash adapter/)
        const namespaced = yield* Effect.flip(
          adapters.tools.attach({ tools: [{ ...lookup, name: "bash", namespace: "mine" }] }),
        )
        expect(namespaced._tag).toBe("LifecycleError")
        const twice = yield* Effect.flip(adapters.tools.attach({ tools: [lookup, lookup] }))
        expect(twice.message).toMatch(/registered twice/)
      }),
    )
  })

  it("attach({ tools: [] }) clears the (always empty) dynamic set", async () => {
    await withAdapters({ declared: ["shell"] }, (adapters) => adapters.tools.attach({ tools: [] }))
  })
})

describe("layer", () => {
  it("prepares a Drive run: adapter files, channel environment, and the plugin package OpenCode wants, linked", async () => {
    const projectDir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "tool-adapters-prepare-"))
    const scope = Effect.runSync(Scope.make())
    const context = await Effect.runPromise(Scope.provide(Layer.build(ToolAdapters.layer), scope))
    const service = Context.get(context, ToolAdapters.ToolAdapters)
    const prepared = await Effect.runPromise(
      Scope.provide(service.prepare({ declared: ["websearch"], projectDir, logsDir: projectDir, env: {} }), scope),
    )
    expect(Object.keys(prepared.files)).toEqual(["tools/websearch.ts"])
    expect(Object.keys(prepared.env ?? {}).sort()).toEqual(["OPENCODE_ENABLE_EXA", tokenVariable, urlVariable].sort())
    const configDir = Path.join(projectDir, ".opencode")
    const link = Path.join(configDir, "node_modules", "@opencode-ai", "plugin")
    expect(Fs.lstatSync(link).isSymbolicLink()).toBe(true)
    expect(Fs.realpathSync(link)).toBe(Fs.realpathSync(PluginPackage.directory()))
    expect(JSON.parse(Fs.readFileSync(Path.join(link, "package.json"), "utf8")).version).toBe(PluginPackage.version)
    // What OpenCode checks before it installs: the lock's root lists every dependency package.json names.
    const manifest = JSON.parse(Fs.readFileSync(Path.join(configDir, "package.json"), "utf8"))
    const lock = JSON.parse(Fs.readFileSync(Path.join(configDir, "package-lock.json"), "utf8"))
    expect(Object.keys(lock.packages[""].dependencies)).toEqual(Object.keys(manifest.dependencies))
    await Effect.runPromise(prepared.settle)
    await Effect.runPromise(Scope.close(scope, Exit.void))
    Fs.rmSync(projectDir, { recursive: true, force: true })
  })
})
