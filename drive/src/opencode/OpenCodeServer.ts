/**
 * The shared `opencode serve` process: started on a free loopback port (chosen by Drive) with a random basic-auth password and
 * Drive's configuration, ready when `/global/health` answers, stopped with its whole process group when the scope
 * closes. Its output goes to `logs/opencode-server.log`; the tail is kept in memory for error messages. An exit
 * that Drive did not ask for is reported as `OpenCodeExitedError` with the exit status and the log tail.
 */
import * as ChildProcess from "node:child_process"
import * as Fs from "node:fs"
import * as Net from "node:net"
import { randomBytes } from "node:crypto"
import { Deferred, Effect, Schedule, type Scope } from "effect"
import { OpenCodeExitedError, OpenCodeStartError } from "../Errors.js"
import * as Processes from "../run/Processes.js"
import type { Command } from "./OpenCodeBinary.js"

/** How a process ended. */
export interface ProcessExit {
  readonly code: number | null
  readonly signal: string | null
}

/** The running server. */
export interface OpenCodeServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string
  readonly username: string
  readonly password: string
  /** The version `/global/health` reported. */
  readonly version: string
  /** `Authorization` header value for the server. */
  readonly authorization: string
  /** The error describing an unexpected exit, if the server exited on its own. */
  readonly crashed: () => OpenCodeExitedError | undefined
  /** Completes (failing) when the server exits on its own; never completes otherwise. */
  readonly awaitCrash: Effect.Effect<never, OpenCodeExitedError>
  /** The last `lines` lines of the server's output. */
  readonly logTail: (lines?: number) => string
  /** GET a JSON document from the server (authorized, `timeoutMs` default 10 000); fails with a description. */
  readonly getJson: (path: string, timeoutMs?: number) => Effect.Effect<unknown, string>
}

/**
 * Switches for every OpenCode process of a run: no self-update, no model-catalog download, no LSP downloads, no
 * sharing, no built-in provider-auth plugins (project plugins still load), no reading of Claude Code files.
 */
export const quietEnvironment: Readonly<Record<string, string>> = {
  OPENCODE_DISABLE_AUTOUPDATE: "1",
  OPENCODE_DISABLE_MODELS_FETCH: "1",
  OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
  OPENCODE_DISABLE_SHARE: "1",
  OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
  OPENCODE_DISABLE_CLAUDE_CODE: "1",
}

/** Basic-auth credentials of a server. */
export interface Credentials {
  readonly username: string
  readonly password: string
}

/** Fresh random credentials. */
export const credentials = (): Credentials => ({
  username: "opencode",
  password: randomBytes(18).toString("base64url"),
})

/** A loopback port that was free a moment ago (the server is told to listen there, so TUIs can start early). */
export const freePort: Effect.Effect<number, OpenCodeStartError> = Effect.callback<number, OpenCodeStartError>(
  (resume) => {
    const probe = Net.createServer()
    probe.once("error", (error) =>
      resume(
        Effect.fail(
          new OpenCodeStartError({ message: `cannot find a free loopback port: ${error.message}`, logTail: "" }),
        ),
      ),
    )
    probe.listen(0, "127.0.0.1", () => {
      const port = (probe.address() as Net.AddressInfo).port
      probe.close(() => resume(Effect.succeed(port)))
    })
  },
)

/** How to start the server. */
export interface StartOptions {
  readonly port: number
  readonly credentials: Credentials
  readonly command: Command
  readonly cwd: string
  readonly env: Record<string, string>
  readonly configContent: string
  readonly logFile: string
  readonly readyTimeoutMs: number
}

const tailLines = 200

const describeExit = (exit: ProcessExit) =>
  exit.signal ? `was killed by ${exit.signal}` : `exited with status ${exit.code}`

/** Start `opencode serve`; the process group is stopped when the scope closes. */
export const start = (options: StartOptions): Effect.Effect<OpenCodeServer, OpenCodeStartError, Scope.Scope> =>
  Effect.gen(function* () {
    const { username, password } = options.credentials
    const authorization = `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`
    const log = Fs.openSync(options.logFile, "a")
    const lines: Array<string> = []
    let partial = ""
    const record = (chunk: Buffer) => {
      Fs.writeSync(log, chunk)
      const text = partial + chunk.toString("utf8")
      const split = text.split("\n")
      partial = split.pop() ?? ""
      lines.push(...split)
      if (lines.length > tailLines) lines.splice(0, lines.length - tailLines)
    }
    const logTail = (count = 40) =>
      [...lines, partial]
        .filter((line) => line !== "")
        .slice(-count)
        .join("\n")

    let stopping = false
    let exitInfo: ProcessExit | undefined
    const exited = yield* Deferred.make<ProcessExit>()
    const listening = yield* Deferred.make<string>()

    const [file, ...leading] = options.command
    const child = yield* Effect.acquireRelease(
      Effect.try({
        try: () =>
          ChildProcess.spawn(
            file,
            [
              ...leading,
              "serve",
              "--hostname",
              "127.0.0.1",
              "--port",
              String(options.port),
              "--print-logs",
              "--log-level",
              "INFO",
            ],
            {
              cwd: options.cwd,
              detached: true,
              stdio: ["ignore", "pipe", "pipe"],
              env: {
                ...options.env,
                OPENCODE_SERVER_USERNAME: username,
                OPENCODE_SERVER_PASSWORD: password,
                OPENCODE_CONFIG_CONTENT: options.configContent,
                ...quietEnvironment,
              },
            },
          ),
        catch: (cause) =>
          new OpenCodeStartError({
            message: `cannot start ${file}: ${String(cause)}; check opencode.command`,
            logTail: "",
          }),
      }),
      (child) =>
        Effect.gen(function* () {
          stopping = true
          if (child.pid !== undefined && exitInfo === undefined) yield* Processes.stopGroup(child.pid)
          yield* Deferred.await(exited).pipe(Effect.timeoutOption(3_000))
          Fs.closeSync(log)
        }),
    )
    child.stdout!.on("data", (chunk: Buffer) => {
      record(chunk)
      const match = /listening on (http:\/\/[^\s]+)/.exec(logTail(5))
      if (match) Deferred.doneUnsafe(listening, Effect.succeed(match[1].replace(/\/$/, "")))
    })
    child.stderr!.on("data", record)
    child.on("error", (error) => {
      record(Buffer.from(`spawn error: ${error.message}\n`))
      exitInfo ??= { code: null, signal: null }
      Deferred.doneUnsafe(exited, Effect.succeed(exitInfo))
    })
    child.on("exit", (code, signal) => {
      exitInfo = { code, signal }
      Deferred.doneUnsafe(exited, Effect.succeed(exitInfo))
    })

    const crashError = (exit: ProcessExit) =>
      new OpenCodeExitedError({
        message: `the OpenCode server ${describeExit(exit)}. Last log lines:\n${logTail()}`,
        exitCode: exit.code,
        signal: exit.signal,
        logTail: logTail(),
      })

    const startFailure = (message: string) =>
      new OpenCodeStartError({ message: `${message}. Last log lines:\n${logTail()}`, logTail: logTail() })

    const url = yield* Deferred.await(listening).pipe(
      Effect.raceFirst(
        Deferred.await(exited).pipe(
          Effect.flatMap((exit) =>
            Effect.fail(startFailure(`the OpenCode server ${describeExit(exit)} before listening`)),
          ),
        ),
      ),
      Effect.timeoutOrElse({
        duration: options.readyTimeoutMs,
        orElse: () =>
          Effect.fail(startFailure(`the OpenCode server did not listen within ${options.readyTimeoutMs} ms`)),
      }),
    )

    const getJson = (path: string, timeoutMs = 10_000): Effect.Effect<unknown, string> =>
      Effect.tryPromise({
        try: async (signal) => {
          const response = await fetch(`${url}${path}`, {
            headers: { authorization },
            signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
          })
          if (!response.ok) throw new Error(`HTTP ${response.status}`)
          return (await response.json()) as unknown
        },
        catch: (cause) => `GET ${path} failed: ${cause instanceof Error ? cause.message : String(cause)}`,
      })

    // A request made while the server is still starting can stay unanswered: give each attempt 1 s.
    const health = yield* getJson("/global/health", 1_000).pipe(
      Effect.retry(Schedule.spaced(100)),
      Effect.timeoutOrElse({
        duration: options.readyTimeoutMs,
        orElse: () => Effect.fail(`no healthy answer within ${options.readyTimeoutMs} ms`),
      }),
      Effect.mapError((reason) => startFailure(`the OpenCode server at ${url} is not healthy: ${reason}`)),
    )
    const version =
      typeof health === "object" && health !== null && typeof (health as { version?: unknown }).version === "string"
        ? (health as { version: string }).version
        : "unknown"

    const crashed = () => (exitInfo !== undefined && !stopping ? crashError(exitInfo) : undefined)
    const awaitCrash = Deferred.await(exited).pipe(
      Effect.flatMap((exit) => (stopping ? Effect.never : Effect.fail(crashError(exit)))),
    )

    return {
      url,
      username,
      password,
      version,
      authorization,
      crashed,
      awaitCrash,
      logTail,
      getJson,
    } satisfies OpenCodeServer
  })
