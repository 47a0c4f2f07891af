#!/usr/bin/env node
/**
 * The `codemode` command: run a Lua or JavaScript program over the tools of an OpenAPI document, search those tools,
 * or list them.
 *
 * Bad input (missing file, invalid document, unknown option) prints one line to stderr and exits non-zero; a program
 * that fails exits 1 after printing its Result.
 */
import { readFileSync, statSync } from "node:fs"
import { extname } from "node:path"
import { parseArgs, type ParseArgsConfig } from "node:util"
import type { CodeMode } from "@codemode/core"
import type { Effect as EffectType } from "effect"
import * as Printer from "./Printer.js"

/** The heavy modules, loaded only by commands that need them (so `--help` and usage errors answer at once). */
const modules = async () => {
  const [core, effect, http, openapi] = await Promise.all([
    import("@codemode/core"),
    import("effect"),
    import("effect/http"),
    import("@codemode/openapi"),
  ])
  return {
    CodeMode: core.CodeMode,
    Language: core.Language,
    Effect: effect.Effect,
    FetchHttpClient: http.FetchHttpClient,
    ...openapi.OpenAPI,
  }
}

/** Bad command-line input: printed as one line, exit code 2. */
class UsageError extends Error {}

const help = {
  main: `codemode: run programs over the tools of an OpenAPI document

Usage:
  codemode run <program.lua|program.js> [--openapi <file|url>] [options]
  codemode search <query> --openapi <file|url> [options]
  codemode catalog --openapi <file|url> [options]

Run "codemode <command> --help" for the options of a command.`,
  run: `Usage: codemode run <program.lua|program.js> [options]

Run a Lua (.lua) or JavaScript (.js, .mjs) program and print its Result.

Options:
  --openapi <file|url>   OpenAPI 3.0/3.1 document whose operations become tools
  --namespace <name>     where the tools are mounted: tools.<name>.… (default: api)
  --base-url <url>       server URL to call (replaces the document's servers)
  --bearer-env <NAME>    environment variable holding a bearer token for secured operations
  --timeout <ms>         execution time limit in milliseconds
  --json                 print the Result as JSON
  -h, --help             show this help

Exit status: 0 when the program succeeds, 1 when it fails, 2 for bad input.`,
  search: `Usage: codemode search <query> --openapi <file|url> [options]

Search the tools of an OpenAPI document the way a program's search() does.

Options:
  --openapi <file|url>   OpenAPI 3.0/3.1 document (required)
  --namespace <name>     where the tools are mounted (default: api)
  --language <lua|javascript>  signature language (default: lua)
  --limit <n>            hits to show, 1 to 100 (default: 10)
  --json                 print the hits as JSON
  -h, --help             show this help`,
  catalog: `Usage: codemode catalog --openapi <file|url> [options]

List every tool generated from an OpenAPI document, and every operation that was skipped, with the reason.

Options:
  --openapi <file|url>   OpenAPI 3.0/3.1 document (required)
  --namespace <name>     where the tools are mounted (default: api)
  --base-url <url>       server URL (operations of documents without servers are skipped without it)
  --language <lua|javascript>  signature language (default: lua)
  --signatures           print each tool's full signature
  --json                 print the catalog as JSON
  -h, --help             show this help`,
} as const

const common = {
  openapi: { type: "string" },
  namespace: { type: "string" },
  "base-url": { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const satisfies ParseArgsConfig["options"]

const optionsOf = {
  run: { ...common, "bearer-env": { type: "string" }, timeout: { type: "string" } },
  search: { ...common, language: { type: "string" }, limit: { type: "string" } },
  catalog: { ...common, language: { type: "string" }, signatures: { type: "boolean" } },
} as const

type Command = keyof typeof optionsOf

const parse = <const O extends NonNullable<ParseArgsConfig["options"]>>(
  command: Command,
  options: O,
  args: ReadonlyArray<string>,
) => {
  try {
    return parseArgs({ args: [...args], options, allowPositionals: true, strict: true })
  } catch (error) {
    const message = (error as Error).message.split("\n")[0].split(". ")[0].replace(/\.$/, "")
    throw new UsageError(`${message.charAt(0).toLowerCase()}${message.slice(1)} (see codemode ${command} --help)`)
  }
}

const wholeNumber = (name: string, raw: string | undefined, min: number, max: number): number | undefined => {
  if (raw === undefined) return undefined
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max)
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, got "${raw}"`)
  return Number(raw)
}

const namespaceOf = (raw: string | undefined): string => {
  const name = raw ?? "api"
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
    throw new UsageError(`--namespace must be a plain name like "store", got "${name}"`)
  return name
}

const languageOf = (raw: string | undefined): "lua" | "javascript" => {
  if (raw === undefined || raw === "lua") return "lua"
  if (raw === "javascript" || raw === "js") return "javascript"
  throw new UsageError(`--language must be lua or javascript, got "${raw}"`)
}

/** Load the document and generate tools; the bearer token (if any) answers every bearer scheme. */
const toolsFrom = async (values: { openapi?: string; "base-url"?: string }, bearerEnv?: string) => {
  if (values.openapi === undefined) return undefined
  let token: string | undefined
  if (bearerEnv !== undefined) {
    token = process.env[bearerEnv]
    if (!token) throw new UsageError(`environment variable ${bearerEnv} (from --bearer-env) is not set`)
  }
  const { load, fromSpec } = await modules()
  const spec = await load(values.openapi)
  return fromSpec({
    spec,
    baseUrl: values["base-url"],
    ...(token !== undefined ? { auth: { resolve: (request) => (request.kind === "bearer" ? token : undefined) } } : {}),
  })
}

/** A runtime for catalog and search only: the language's worker is never started. */
const describeOnly = async (language: "lua" | "javascript", tools: object) => {
  const { CodeMode, Language } = await modules()
  return CodeMode.make({
    language: Language.find(language) ?? Language.define(language, "data:text/javascript,"),
    tools: tools as never,
  })
}

const run = async (args: ReadonlyArray<string>): Promise<number> => {
  const { values, positionals } = parse("run", optionsOf.run, args)
  if (values.help) return print(help.run)
  if (positionals.length !== 1) throw new UsageError("run expects one program file (see codemode run --help)")
  const file = positionals[0]
  const extension = extname(file).toLowerCase()
  const language = extension === ".lua" ? "lua" : extension === ".js" || extension === ".mjs" ? "javascript" : undefined
  if (!language) throw new UsageError(`cannot tell the language of "${file}": use a .lua or .js file`)
  let code: string
  try {
    if (!statSync(file).isFile()) throw new UsageError(`not a file: ${file}`)
    code = readFileSync(file, "utf8")
  } catch (error) {
    if (error instanceof UsageError) throw error
    throw new UsageError(
      `cannot read ${file}: ${(error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message}`,
    )
  }
  const timeoutMs = wholeNumber("timeout", values.timeout, 1, 2_147_483_647)
  if (values["bearer-env"] !== undefined && values.openapi === undefined)
    throw new UsageError("--bearer-env needs --openapi")
  const api = await toolsFrom(values, values["bearer-env"])
  if (api && api.operations.length === 0 && api.skipped.length > 0)
    process.stderr.write(
      `codemode run: note: the document gave no tools; the first operation was skipped because ${api.skipped[0].reason}\n`,
    )
  const { CodeMode, Language, Effect, FetchHttpClient } = await modules()
  if (!Language.find(language)) {
    const pkg = Language.packageOf(language)
    throw new UsageError(`running ${language} programs needs ${pkg}; install it next to @codemode/cli`)
  }
  const runtime = CodeMode.make({
    language,
    tools: api ? { [namespaceOf(values.namespace)]: api.tools } : {},
    ...(timeoutMs !== undefined ? { limits: { timeoutMs } } : {}),
  })
  const started = performance.now()
  const result = await Effect.runPromise(
    runtime.execute(code).pipe(Effect.provide(FetchHttpClient.layer)) as EffectType.Effect<CodeMode.Result>,
  )
  const durationMs = performance.now() - started
  print(
    values.json
      ? JSON.stringify({ ...result, durationMs: Math.round(durationMs) }, null, 2)
      : Printer.formatResult(result, durationMs),
  )
  return result.ok ? 0 : 1
}

const search = async (args: ReadonlyArray<string>): Promise<number> => {
  const { values, positionals } = parse("search", optionsOf.search, args)
  if (values.help) return print(help.search)
  if (positionals.length === 0) throw new UsageError("search expects a query (see codemode search --help)")
  if (values.openapi === undefined) throw new UsageError("search needs --openapi <file|url>")
  const limit = wholeNumber("limit", values.limit, 1, 100) ?? 10
  const api = (await toolsFrom(values))!
  const runtime = await describeOnly(languageOf(values.language), { [namespaceOf(values.namespace)]: api.tools })
  const page = runtime.search({ query: positionals.join(" "), limit })
  print(values.json ? JSON.stringify(page, null, 2) : Printer.formatHits(page))
  return 0
}

const catalog = async (args: ReadonlyArray<string>): Promise<number> => {
  const { values, positionals } = parse("catalog", optionsOf.catalog, args)
  if (values.help) return print(help.catalog)
  if (positionals.length > 0)
    throw new UsageError(`catalog takes no arguments, got "${positionals[0]}" (see codemode catalog --help)`)
  if (values.openapi === undefined) throw new UsageError("catalog needs --openapi <file|url>")
  const api = (await toolsFrom(values))!
  const runtime = await describeOnly(languageOf(values.language), { [namespaceOf(values.namespace)]: api.tools })
  if (values.json) {
    print(JSON.stringify({ tools: runtime.catalog, skipped: api.skipped }, null, 2))
    return 0
  }
  const lines = [`${runtime.catalog.length} tools, ${api.skipped.length} operations skipped`, ""]
  for (const entry of runtime.catalog) {
    lines.push(`${entry.path}: ${Printer.firstLine(entry.description)}`)
    if (values.signatures) lines.push(entry.signature.replace(/^/gm, "    "), "")
  }
  if (api.skipped.length > 0) {
    lines.push("", "skipped:")
    for (const s of api.skipped)
      lines.push(`  ${s.method} ${s.path}${s.operationId ? ` (${s.operationId})` : ""}: ${s.reason}`)
  }
  print(lines.join("\n"))
  return 0
}

const print = (text: string): number => {
  process.stdout.write(text.endsWith("\n") ? text : `${text}\n`)
  return 0
}

const commands: Record<Command, (args: ReadonlyArray<string>) => Promise<number>> = { run, search, catalog }

/** Run the command line `argv` (without node and the script); resolves with the exit code. */
export const main = async (argv: ReadonlyArray<string>): Promise<number> => {
  const [command, ...rest] = argv
  if (command === undefined || command === "--help" || command === "-h" || command === "help") {
    print(help.main)
    return command === undefined ? 2 : 0
  }
  if (!(command in commands)) {
    process.stderr.write(`codemode: unknown command "${command}"; use run, search or catalog (see codemode --help)\n`)
    return 2
  }
  try {
    return await commands[command as Command](rest)
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    process.stderr.write(`codemode ${command}: ${message.replace(/\s*\n\s*/g, " ")}\n`)
    return error instanceof UsageError ? 2 : 1
  }
}

process.on("unhandledRejection", (reason) => {
  process.stderr.write(`codemode: ${reason instanceof Error ? reason.message : String(reason)}\n`)
  process.exit(1)
})

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code
})
