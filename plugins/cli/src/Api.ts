/**
 * The tools of the OpenAPI document a command names: loaded (with the credentials when it comes from the API's own
 * origin) and turned into tools that authenticate with the credentials from the environment.
 */
import type { OpenAPI } from "@codemode/openapi"
import * as Credentials from "./Credentials.js"
import { UsageError } from "./Usage.js"

/** What a command gives to find its document. */
export interface Source {
  readonly openapi: string
  readonly "base-url"?: string | undefined
}

const scrub = (text: string, secrets: ReadonlyArray<string>) =>
  secrets.reduce((out, secret) => out.split(secret).join("[redacted]"), text)

/** Load the document and generate its tools. Failures carry no secret. */
export const load = async (source: Source, credentials: Credentials.Credentials | undefined): Promise<OpenAPI.Api> => {
  const { OpenAPI } = await import("@codemode/openapi")
  const baseUrl = source["base-url"]
  if (baseUrl !== undefined && !/^https?:\/\/[^/]/i.test(baseUrl))
    throw new UsageError(`--base-url must be an http(s) URL, got "${baseUrl}"`)
  const headers = Credentials.documentHeaders(credentials, source.openapi, baseUrl)
  const secrets = Credentials.secretsOf(credentials)
  let spec: unknown
  try {
    spec = await OpenAPI.load(source.openapi, Object.keys(headers).length > 0 ? { headers } : {})
  } catch (error) {
    const message = scrub(error instanceof Error ? error.message : String(error), secrets)
    const hint =
      /HTTP 40[13]\b/.test(message) && credentials && Object.keys(headers).length === 0
        ? baseUrl === undefined
          ? " (credentials are sent with the document only to the origin of --base-url; pass it)"
          : " (the document is not on the origin of --base-url, so the credentials were not sent with it)"
        : ""
    throw new Error(message + hint)
  }
  return OpenAPI.fromSpec({
    spec,
    baseUrl,
    ...(credentials ? { auth: Credentials.authFor(credentials, spec) } : {}),
  })
}
