/**
 * Command-line parsing shared by the commands: the one-line usage error and the readers of option values.
 */
import { type ParseArgsConfig, parseArgs } from "node:util"

/** Bad command-line input: printed as one line, exit code 2. */
export class UsageError extends Error {}

/** Parse `args` strictly against `options`; an unknown or malformed option is a `UsageError` naming the command. */
export const parse = <const O extends NonNullable<ParseArgsConfig["options"]>>(
  command: string,
  options: O,
  args: ReadonlyArray<string>,
): ReturnType<typeof parseArgs<{ args: string[]; options: O; allowPositionals: true; strict: true }>> => {
  try {
    return parseArgs({ args: [...args], options, allowPositionals: true, strict: true })
  } catch (error) {
    const message = (error as Error).message.split("\n")[0].split(". ")[0].replace(/\.$/, "")
    throw new UsageError(`${message.charAt(0).toLowerCase()}${message.slice(1)} (see codemode ${command} --help)`)
  }
}

/** A whole-number option within `min`..`max`, or `undefined` when absent. */
export const wholeNumber = (name: string, raw: string | undefined, min: number, max: number): number | undefined => {
  if (raw === undefined) return undefined
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max)
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, got "${raw}"`)
  return Number(raw)
}

/** The `--namespace` option: a plain name, `api` by default. */
export const namespaceOf = (raw: string | undefined): string => {
  const name = raw ?? "api"
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
    throw new UsageError(`--namespace must be a plain name like "store", got "${name}"`)
  return name
}

/** The `--language` option: `lua` (the default) or `javascript`. */
export const languageOf = (raw: string | undefined): "lua" | "javascript" => {
  if (raw === undefined || raw === "lua") return "lua"
  if (raw === "javascript" || raw === "js") return "javascript"
  throw new UsageError(`--language must be lua or javascript, got "${raw}"`)
}

/** The options every command that reads a document takes. */
export const documentOptions = {
  openapi: { type: "string" },
  namespace: { type: "string" },
  "base-url": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const satisfies ParseArgsConfig["options"]

/** The credential options: each names an environment variable (or, for the user name, is the name itself). */
export const credentialOptions = {
  "bearer-env": { type: "string" },
  "basic-user": { type: "string" },
  "basic-password-env": { type: "string" },
  "api-key-env": { type: "string" },
  "api-key-header": { type: "string" },
} as const satisfies ParseArgsConfig["options"]

/** The help lines of the credential options. */
export const credentialHelp = `Credentials for the API come from environment variables, never from arguments:
  --bearer-env <NAME>          bearer token (also OAuth 2 / OpenID Connect access tokens)
  --basic-user <user>          user name for HTTP basic authentication, with --basic-password-env
  --basic-password-env <NAME>  password for HTTP basic authentication
  --api-key-env <NAME>         API key for the document's apiKey schemes
  --api-key-header <header>    header that carries the API key when the document declares no apiKey scheme
  They answer the document's security schemes by kind. A document that declares no security schemes gets them
  applied to every operation. With --base-url, a document loaded from that origin is fetched with them too.`

/** The execution-limit options. */
export const limitOptions = {
  timeout: { type: "string" },
  "max-tool-calls": { type: "string" },
  "max-output-bytes": { type: "string" },
} as const satisfies ParseArgsConfig["options"]

/** The help lines of the limit options. */
export const limitHelp = `  --timeout <ms>               execution time limit in milliseconds
  --max-tool-calls <n>         most host calls one program may make
  --max-output-bytes <n>       largest result value and logs, in bytes`

/** The limits given on the command line. */
export const limitsOf = (values: { timeout?: string; "max-tool-calls"?: string; "max-output-bytes"?: string }) => {
  const timeoutMs = wholeNumber("timeout", values.timeout, 1, 2_147_483_647)
  const maxToolCalls = wholeNumber("max-tool-calls", values["max-tool-calls"], 0, 1_000_000_000)
  const maxOutputBytes = wholeNumber("max-output-bytes", values["max-output-bytes"], 256, 1_073_741_824)
  return {
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(maxToolCalls !== undefined ? { maxToolCalls } : {}),
    ...(maxOutputBytes !== undefined ? { maxOutputBytes } : {}),
  }
}
