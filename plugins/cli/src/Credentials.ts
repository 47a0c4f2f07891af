/**
 * Credentials for the API a document describes, read from environment variables named on the command line (never
 * from arguments, which any user of the machine can read with `ps`).
 *
 * They answer the document's security schemes by kind (bearer, basic, apiKey). A document that declares no security
 * schemes at all (OpenCode's own `/doc`, for one) gets each given credential as a scheme of every operation.
 */
import type { OpenAPI } from "@codemode/openapi"
import { UsageError } from "./Usage.js"

/** The credentials given for one command. */
export interface Credentials {
  readonly bearer?: string
  readonly basic?: { readonly username: string; readonly password: string }
  readonly apiKey?: string
  /** The header an API key goes in when the document declares no apiKey scheme. */
  readonly apiKeyHeader?: string
}

/** The credential options as parsed. */
export interface CredentialValues {
  readonly "bearer-env"?: string | undefined
  readonly "basic-user"?: string | undefined
  readonly "basic-password-env"?: string | undefined
  readonly "api-key-env"?: string | undefined
  readonly "api-key-header"?: string | undefined
}

const variable = (option: string, name: string, env: NodeJS.ProcessEnv): string => {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
    throw new UsageError(`--${option} takes the name of an environment variable, got "${name}"`)
  const value = env[name]
  if (value === undefined || value === "")
    throw new UsageError(`environment variable ${name} (from --${option}) is not set`)
  return value
}

/** Read the credentials the options name; `undefined` when none is given. Unset variables are usage errors. */
export const fromEnvironment = (
  values: CredentialValues,
  env: NodeJS.ProcessEnv = process.env,
): Credentials | undefined => {
  const user = values["basic-user"]
  const passwordEnv = values["basic-password-env"]
  if ((user === undefined) !== (passwordEnv === undefined))
    throw new UsageError("--basic-user and --basic-password-env go together")
  const header = values["api-key-header"]
  if (header !== undefined && !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(header))
    throw new UsageError(`--api-key-header must be an HTTP header name, got "${header}"`)
  if (header !== undefined && values["api-key-env"] === undefined)
    throw new UsageError("--api-key-header needs --api-key-env")
  const credentials: Credentials = {
    ...(values["bearer-env"] !== undefined ? { bearer: variable("bearer-env", values["bearer-env"], env) } : {}),
    ...(user !== undefined && passwordEnv !== undefined
      ? { basic: { username: user, password: variable("basic-password-env", passwordEnv, env) } }
      : {}),
    ...(values["api-key-env"] !== undefined ? { apiKey: variable("api-key-env", values["api-key-env"], env) } : {}),
    ...(header !== undefined ? { apiKeyHeader: header } : {}),
  }
  return Object.keys(credentials).length > 0 ? credentials : undefined
}

const declaresSchemes = (spec: unknown): boolean => {
  const components = (spec as { components?: { securitySchemes?: unknown } } | null)?.components
  const schemes = components?.securitySchemes
  return typeof schemes === "object" && schemes !== null && Object.keys(schemes).length > 0
}

/** The `auth` option of `OpenAPI.fromSpec` for these credentials and this document. */
export const authFor = (credentials: Credentials, spec: unknown): OpenAPI.AuthOptions => {
  const resolve = (request: OpenAPI.AuthRequest): OpenAPI.Credential | undefined =>
    request.kind === "bearer" ? credentials.bearer : request.kind === "basic" ? credentials.basic : credentials.apiKey
  if (declaresSchemes(spec)) return { resolve }
  if (credentials.bearer !== undefined && credentials.basic !== undefined)
    throw new UsageError(
      "the document declares no security schemes, so both --bearer-env and --basic-user would set the Authorization header; give one",
    )
  if (credentials.apiKey !== undefined && credentials.apiKeyHeader === undefined)
    throw new UsageError(
      "the document declares no apiKey scheme, so the API key has no place to go; name its header with --api-key-header",
    )
  const schemes: Record<string, unknown> = {
    ...(credentials.bearer !== undefined ? { bearer: { type: "http", scheme: "bearer" } } : {}),
    ...(credentials.basic !== undefined ? { basic: { type: "http", scheme: "basic" } } : {}),
    ...(credentials.apiKey !== undefined
      ? { apiKey: { type: "apiKey", in: "header", name: credentials.apiKeyHeader } }
      : {}),
  }
  return { resolve, schemes }
}

/**
 * Headers for fetching the document itself: the credentials go only to the origin of `--base-url`, so a document
 * hosted elsewhere never sees them.
 */
export const documentHeaders = (
  credentials: Credentials | undefined,
  source: string,
  baseUrl: string | undefined,
): Record<string, string> => {
  if (!credentials || baseUrl === undefined || !/^https?:\/\//i.test(source)) return {}
  let sameOrigin = false
  try {
    sameOrigin = new URL(source).origin === new URL(baseUrl).origin
  } catch {
    return {}
  }
  if (!sameOrigin) return {}
  if (credentials.basic)
    return {
      authorization: `Basic ${Buffer.from(`${credentials.basic.username}:${credentials.basic.password}`).toString("base64")}`,
    }
  if (credentials.bearer) return { authorization: `Bearer ${credentials.bearer}` }
  if (credentials.apiKey && credentials.apiKeyHeader)
    return { [credentials.apiKeyHeader.toLowerCase()]: credentials.apiKey }
  return {}
}

/** Every secret in the credentials, to scrub from anything printed. */
export const secretsOf = (credentials: Credentials | undefined): ReadonlyArray<string> =>
  credentials
    ? [
        credentials.bearer,
        credentials.basic?.password,
        credentials.basic &&
          Buffer.from(`${credentials.basic.username}:${credentials.basic.password}`).toString("base64"),
        credentials.apiKey,
      ].filter((s): s is string => typeof s === "string" && s.length >= 4)
    : []
