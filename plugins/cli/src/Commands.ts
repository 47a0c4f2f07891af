/**
 * The commands that work on a document from a terminal: `run` a program over its tools, `search` them, list the
 * `catalog`.
 */
import { readFileSync, statSync } from "node:fs"
import { extname } from "node:path"
import type { CodeMode } from "@codemode/core"
import type { Effect as EffectType } from "effect"
import * as Api from "./Api.js"
import * as Credentials from "./Credentials.js"
import * as Printer from "./Printer.js"
import {
  credentialHelp,
  credentialOptions,
  documentOptions,
  languageOf,
  limitHelp,
  limitOptions,
  limitsOf,
  namespaceOf,
  parse,
  UsageError,
  wholeNumber,
} from "./Usage.js"

/** Write `text` to stdout with a final newline; returns exit code 0. */
export const print = (text: string): number => {
  process.stdout.write(text.endsWith("\n") ? text : `${text}\n`)
  return 0
}

const help = {
  run: `Usage: codemode run <program.lua|program.js> [options]

Run a Lua (.lua) or JavaScript (.js, .mjs) program and print its Result.

Options:
  --openapi <file|url>         OpenAPI 3.0/3.1 document whose operations become tools
  --namespace <name>           where the tools are mounted: tools.<name>.… (default: api)
  --base-url <url>             server URL to call (replaces the document's servers)
${limitHelp}
  --json                       print the Result as JSON
  -h, --help                   show this help

${credentialHelp}

Exit status: 0 when the program succeeds, 1 when it fails, 2 for bad input.`,
  search: `Usage: codemode search <query> --openapi <file|url> [options]

Search the tools of an OpenAPI document the way a program's search() does.

Options:
  --openapi <file|url>         OpenAPI 3.0/3.1 document (required)
  --namespace <name>           where the tools are mounted (default: api)
  --base-url <url>             server URL (operations of documents without servers are skipped without it)
  --language <lua|javascript>  signature language (default: lua)
  --limit <n>                  hits to show, 1 to 100 (default: 10)
  --json                       print the hits as JSON
  -h, --help                   show this help

${credentialHelp}`,
  catalog: `Usage: codemode catalog --openapi <file|url> [options]

List every tool generated from an OpenAPI document, and every operation that was skipped, with the reason.

Options:
  --openapi <file|url>         OpenAPI 3.0/3.1 document (required)
  --namespace <name>           where the tools are mounted (default: api)
  --base-url <url>             server URL (operations of documents without servers are skipped without it)
  --language <lua|javascript>  signature language (default: lua)
  --signatures                 print each tool's full signature
  --json                       print the catalog as JSON
  -h, --help                   show this help

${credentialHelp}`,
} as const

const common = { ...documentOptions, ...credentialOptions, json: { type: "boolean" } } as const

const options = {
  run: { ...common, ...limitOptions },
  search: { ...common, language: { type: "string" }, limit: { type: "string" } },
  catalog: { ...common, language: { type: "string" }, signatures: { type: "boolean" } },
} as const

/** The tools of `--openapi`, with the credentials its options name. */
const toolsOf = async (values: Api.Source & Credentials.CredentialValues) =>
  Api.load(values, Credentials.fromEnvironment(values))

/**
 * A runtime for catalog and search only: the language's worker is never started (its pool keeps no sandbox warm, so
 * making the runtime starts none).
 */
const describeOnly = async (language: "lua" | "javascript", tools: object) => {
  const { CodeMode, SandboxPool } = await import("@codemode/core")
  return CodeMode.make({ language, tools: tools as never, pool: new SandboxPool({ keepIdle: 0 }) })
}

const readProgram = (file: string): string => {
  try {
    if (!statSync(file).isFile()) throw new UsageError(`not a file: ${file}`)
    return readFileSync(file, "utf8")
  } catch (error) {
    if (error instanceof UsageError) throw error
    throw new UsageError(
      `cannot read ${file}: ${(error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message}`,
    )
  }
}

/** `codemode run`. */
export const run = async (args: ReadonlyArray<string>): Promise<number> => {
  const { values, positionals } = parse("run", options.run, args)
  if (values.help) return print(help.run)
  if (positionals.length !== 1) throw new UsageError("run expects one program file (see codemode run --help)")
  const file = positionals[0]
  const extension = extname(file).toLowerCase()
  const language = extension === ".lua" ? "lua" : extension === ".js" || extension === ".mjs" ? "javascript" : undefined
  if (!language) throw new UsageError(`cannot tell the language of "${file}": use a .lua or .js file`)
  const code = readProgram(file)
  const limits = limitsOf(values)
  const credentials = Credentials.fromEnvironment(values)
  if (credentials && values.openapi === undefined) throw new UsageError("credentials need --openapi")
  const api =
    values.openapi === undefined ? undefined : await Api.load({ ...values, openapi: values.openapi }, credentials)
  if (api && api.operations.length === 0 && api.skipped.length > 0)
    process.stderr.write(
      `codemode run: note: the document gave no tools; the first operation was skipped because ${api.skipped[0].reason}\n`,
    )
  const [{ CodeMode, Language }, { Effect }, { FetchHttpClient }] = await Promise.all([
    import("@codemode/core"),
    import("effect"),
    import("effect/http"),
  ])
  if (!Language.find(language))
    throw new UsageError(`running ${language} programs needs ${Language.packageOf(language)}; install it`)
  const started = performance.now()
  // One program: a one-shot execution starts the sandbox it runs in, and no others to warm up for later runs.
  const execution = CodeMode.execute({
    language,
    tools: api ? { [namespaceOf(values.namespace)]: api.tools } : {},
    ...(Object.keys(limits).length > 0 ? { limits } : {}),
    code,
  })
  const result = await Effect.runPromise(
    execution.pipe(Effect.provide(FetchHttpClient.layer)) as EffectType.Effect<CodeMode.Result>,
  )
  const durationMs = performance.now() - started
  print(
    values.json
      ? JSON.stringify({ ...result, durationMs: Math.round(durationMs) }, null, 2)
      : Printer.formatResult(result, durationMs),
  )
  return result.ok ? 0 : 1
}

/** `codemode search`. */
export const search = async (args: ReadonlyArray<string>): Promise<number> => {
  const { values, positionals } = parse("search", options.search, args)
  if (values.help) return print(help.search)
  if (positionals.length === 0) throw new UsageError("search expects a query (see codemode search --help)")
  if (values.openapi === undefined) throw new UsageError("search needs --openapi <file|url>")
  const limit = wholeNumber("limit", values.limit, 1, 100) ?? 10
  const api = await toolsOf({ ...values, openapi: values.openapi })
  const runtime = await describeOnly(languageOf(values.language), { [namespaceOf(values.namespace)]: api.tools })
  const page = runtime.search({ query: positionals.join(" "), limit })
  print(values.json ? JSON.stringify(page, null, 2) : Printer.formatHits(page))
  return 0
}

/** `codemode catalog`. */
export const catalog = async (args: ReadonlyArray<string>): Promise<number> => {
  const { values, positionals } = parse("catalog", options.catalog, args)
  if (values.help) return print(help.catalog)
  if (positionals.length > 0)
    throw new UsageError(`catalog takes no arguments, got "${positionals[0]}" (see codemode catalog --help)`)
  if (values.openapi === undefined) throw new UsageError("catalog needs --openapi <file|url>")
  const api = await toolsOf({ ...values, openapi: values.openapi })
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
