/**
 * Authentication: which security schemes a generated tool can satisfy, and how the host's credentials are applied.
 *
 * The host answers `auth.resolve` for each scheme an operation uses. Credentials never appear in signatures, tool
 * results or error messages: they are applied to the outgoing request only, and `secrets` lists every string that
 * `Redact` removes from what a server sends back.
 */
import { Effect, Redacted } from "effect"
import { isObject, type Document } from "./Document.js"

/** How a credential is sent. OAuth 2 and OpenID Connect access tokens are sent as bearer tokens. */
export type Kind = "bearer" | "basic" | "apiKey"

/** One security scheme as an operation uses it. */
export interface SchemeUse {
  /** The scheme's name in `components.securitySchemes`. */
  readonly scheme: string
  readonly kind: Kind
  /** For `apiKey`: where the key goes and under which name. */
  readonly in?: "header" | "query"
  readonly parameterName?: string
  /** The scopes the operation asks for (OAuth 2 / OpenID Connect). */
  readonly scopes: ReadonlyArray<string>
}

/**
 * An operation's security: alternatives in document order, any one of which is enough. An alternative with no schemes
 * means the operation may be called without credentials. An empty list means no security at all.
 */
export type Requirement = ReadonlyArray<ReadonlyArray<SchemeUse>>

/** What `auth.resolve` is asked. */
export interface Request {
  /** The scheme's name in the document (or in `auth.schemes`). */
  readonly scheme: string
  readonly kind: Kind
  readonly scopes: ReadonlyArray<string>
  /** The operation being called. */
  readonly operation: { readonly method: string; readonly path: string; readonly tool: string }
}

/**
 * A credential: a bearer token or API key as a string (or `Redacted` string), or a user name and password for HTTP
 * basic authentication. `undefined` means "none for this scheme": the next alternative is tried.
 */
export type Credential =
  | string
  | Redacted.Redacted<string>
  | { readonly username: string | Redacted.Redacted<string>; readonly password: string | Redacted.Redacted<string> }

/** The host's authentication options. */
export interface Options<R = never> {
  /**
   * Answer a scheme with a credential, `undefined` for none; may return a value, a Promise or an Effect (whose
   * requirements join the tools' environment).
   */
  readonly resolve: (
    request: Request,
  ) => Credential | undefined | Promise<Credential | undefined> | Effect.Effect<Credential | undefined, unknown, R>
  /**
   * Security schemes for servers whose document does not describe its authentication (e.g.
   * `{ server: { type: "http", scheme: "basic" } }`): every operation without a security requirement (none declared,
   * or an empty list) uses all of them.
   */
  readonly schemes?: { readonly [name: string]: unknown }
}

/** One security scheme: how to apply it, or why it is not supported. */
export type Classification =
  | { readonly ok: true; readonly use: SchemeUse }
  | { readonly ok: false; readonly reason: string }

/** Classify one security scheme object. */
export const classify = (name: string, scheme: unknown, scopes: ReadonlyArray<string>): Classification => {
  if (!isObject(scheme))
    return { ok: false, reason: `security scheme "${name}" is not defined in components.securitySchemes` }
  switch (scheme.type) {
    case "http": {
      const kind = typeof scheme.scheme === "string" ? scheme.scheme.toLowerCase() : ""
      if (kind === "bearer") return { ok: true, use: { scheme: name, kind: "bearer", scopes } }
      if (kind === "basic") return { ok: true, use: { scheme: name, kind: "basic", scopes } }
      return {
        ok: false,
        reason: `security scheme "${name}" uses HTTP "${String(scheme.scheme)}" authentication, which is not supported (only bearer and basic)`,
      }
    }
    case "apiKey": {
      if (typeof scheme.name !== "string" || scheme.name === "")
        return { ok: false, reason: `security scheme "${name}" (apiKey) has no parameter name` }
      if (scheme.in === "header" || scheme.in === "query")
        return { ok: true, use: { scheme: name, kind: "apiKey", in: scheme.in, parameterName: scheme.name, scopes } }
      if (scheme.in === "cookie")
        return {
          ok: false,
          reason: `security scheme "${name}" sends its API key in a cookie; cookie authentication is not supported`,
        }
      return { ok: false, reason: `security scheme "${name}" (apiKey) has an unknown location "${String(scheme.in)}"` }
    }
    case "oauth2":
    case "openIdConnect":
      return { ok: true, use: { scheme: name, kind: "bearer", scopes } }
    case "mutualTLS":
      return { ok: false, reason: `security scheme "${name}" uses mutual TLS, which is not supported` }
    default:
      return { ok: false, reason: `security scheme "${name}" has an unknown type "${String(scheme.type)}"` }
  }
}

/**
 * The requirement of one operation: its own `security`, else the document's; when that is empty, the host's
 * `auth.schemes`.
 * Returns the supported alternatives, or the reasons when a requirement exists but none of its alternatives is
 * supported.
 */
export const requirement = (
  document: Document,
  declared: unknown,
  extraSchemes: { readonly [name: string]: unknown } | undefined,
): { readonly ok: true; readonly requirement: Requirement } | { readonly ok: false; readonly reason: string } => {
  const schemes =
    isObject(document.components) && isObject(document.components.securitySchemes)
      ? document.components.securitySchemes
      : {}
  let list: ReadonlyArray<unknown> = Array.isArray(declared)
    ? declared
    : Array.isArray(document.security)
      ? document.security
      : []
  let lookup: (name: string) => unknown = (name) => schemes[name]
  if (list.length === 0 && extraSchemes && Object.keys(extraSchemes).length > 0) {
    list = [Object.fromEntries(Object.keys(extraSchemes).map((name) => [name, []]))]
    lookup = (name) => extraSchemes[name]
  }
  if (list.length === 0) return { ok: true, requirement: [] }
  const alternatives: Array<ReadonlyArray<SchemeUse>> = []
  const reasons: string[] = []
  for (const alternative of list) {
    if (!isObject(alternative)) {
      reasons.push("a security requirement is not an object")
      continue
    }
    const uses: SchemeUse[] = []
    let failed: string | undefined
    for (const [name, scopes] of Object.entries(alternative)) {
      const scopeList = Array.isArray(scopes) ? scopes.filter((s): s is string => typeof s === "string") : []
      const result = classify(name, lookup(name), scopeList)
      if (!result.ok) {
        failed = result.reason
        break
      }
      uses.push(result.use)
    }
    if (failed) reasons.push(failed)
    else alternatives.push(uses)
  }
  if (alternatives.length === 0) return { ok: false, reason: reasons.join("; ") }
  return { ok: true, requirement: alternatives }
}

/** Credentials ready to apply to a request, plus the secret strings to redact from whatever comes back. */
export interface Applied {
  readonly headers: ReadonlyArray<readonly [string, string]>
  readonly query: ReadonlyArray<readonly [string, string]>
  readonly secrets: ReadonlyArray<string>
}

const reveal = (value: string | Redacted.Redacted<string>): string =>
  Redacted.isRedacted(value) ? Redacted.value(value) : value

/** A failure to authenticate; the message never contains a credential. */
export class AuthError extends Error {
  override readonly name = "OpenApiAuthError"
}

const toEffect = <R>(value: ReturnType<Options<R>["resolve"]>): Effect.Effect<Credential | undefined, unknown, R> =>
  Effect.isEffect(value)
    ? (value as Effect.Effect<Credential | undefined, unknown, R>)
    : value instanceof Promise
      ? Effect.tryPromise({ try: () => value, catch: (cause) => cause })
      : Effect.succeed(value as Credential | undefined)

/** A credential sent in a header must be printable Latin-1 text; the message never shows it. */
const checkSendable = (use: SchemeUse, secret: string, what: string): void => {
  if (/[^\t\x20-\x7e\x80-\xff]/.test(secret))
    throw new AuthError(
      `auth.resolve returned a ${what} for the scheme "${use.scheme}" with a line break, a control character or a character outside Latin-1, which a header cannot hold`,
    )
}

const apply = (use: SchemeUse, credential: Credential): Applied => {
  if (use.kind === "basic") {
    if (typeof credential === "string" || Redacted.isRedacted(credential))
      throw new AuthError(
        `auth.resolve returned a string for the basic scheme "${use.scheme}"; return { username, password }`,
      )
    if (
      credential === null ||
      typeof credential !== "object" ||
      !("username" in credential) ||
      !("password" in credential)
    )
      throw new AuthError(
        `auth.resolve returned something other than { username, password } for the basic scheme "${use.scheme}"`,
      )
    const username = reveal(credential.username)
    const password = reveal(credential.password)
    if (typeof username !== "string" || typeof password !== "string")
      throw new AuthError(
        `auth.resolve returned a non-string username or password for the basic scheme "${use.scheme}"`,
      )
    const pair = `${username}:${password}`
    const token = Buffer.from(pair, "utf8").toString("base64")
    return { headers: [["authorization", `Basic ${token}`]], query: [], secrets: [password, pair, token] }
  }
  if (typeof credential !== "string" && !Redacted.isRedacted(credential))
    throw new AuthError(
      `auth.resolve returned { username, password } for the ${use.kind} scheme "${use.scheme}"; return the token as a string`,
    )
  const secret = reveal(credential)
  if (typeof secret !== "string")
    throw new AuthError(
      `auth.resolve returned a ${typeof secret} for the ${use.kind} scheme "${use.scheme}"; return a string`,
    )
  if (use.kind === "bearer" || use.in === "header") checkSendable(use, secret, use.kind === "bearer" ? "token" : "key")
  if (use.kind === "bearer") return { headers: [["authorization", `Bearer ${secret}`]], query: [], secrets: [secret] }
  return use.in === "query"
    ? { headers: [], query: [[use.parameterName!, secret]], secrets: [secret] }
    : { headers: [[use.parameterName!.toLowerCase(), secret]], query: [], secrets: [secret] }
}

/** Header names whose values are credentials: `X-Api-Key`, `X-Auth-Token`, `Client-Secret`, `X-Session-Id`, … */
const credentialHeader = /key|token|secret|auth|session|passw|signature|credential/i

/** Cookie values shorter than this are taken for settings (`theme=dark`), not credentials. */
const shortestCookieSecret = 8

/**
 * The credentials among the host's `headers` (sent with every request, so redacted like `auth`'s): the value of a
 * header whose name says it holds one (`Authorization`, `X-Api-Key`, …), with the token after an authorization scheme
 * and, for `Basic`, the decoded `user:password` and password; for `Cookie`, the header and every cookie value of at
 * least 8 characters.
 */
export const hostSecrets = (headers: { readonly [name: string]: string }): ReadonlyArray<string> => {
  const secrets: string[] = []
  for (const [name, raw] of Object.entries(headers)) {
    const value = raw.trim()
    if (/^cookie$/i.test(name)) {
      secrets.push(value)
      for (const pair of value.split(";")) {
        const cookie = pair.slice(pair.indexOf("=") + 1).trim()
        if (cookie.length >= shortestCookieSecret) secrets.push(cookie)
      }
      continue
    }
    if (!credentialHeader.test(name)) continue
    secrets.push(value)
    const scheme = /^([A-Za-z][\w-]*)\s+(\S.*)$/.exec(value)
    if (!scheme || !/auth/i.test(name)) continue
    secrets.push(scheme[2]!)
    if (scheme[1]!.toLowerCase() !== "basic") continue
    const pair = Buffer.from(scheme[2]!, "base64").toString("utf8")
    const colon = pair.indexOf(":")
    if (colon >= 0 && !pair.includes("\uFFFD")) secrets.push(pair, pair.slice(colon + 1))
  }
  return secrets.filter((secret) => secret.length > 0)
}

const describeFailure = (cause: unknown): string => (cause instanceof Error ? cause.message : String(cause))

/**
 * Resolve the credentials of the first alternative the host can satisfy. Fails with an `AuthError` when the operation
 * needs credentials and no alternative is satisfied.
 */
export const resolve = <R>(
  requirement: Requirement,
  options: Options<R> | undefined,
  operation: Request["operation"],
): Effect.Effect<Applied, AuthError, R> =>
  Effect.gen(function* () {
    const none: Applied = { headers: [], query: [], secrets: [] }
    if (requirement.length === 0) return none
    for (const alternative of requirement) {
      if (alternative.length === 0) return none
      if (!options) continue
      const parts: Applied[] = []
      for (const use of alternative) {
        const credential = yield* toEffect(
          options.resolve({ scheme: use.scheme, kind: use.kind, scopes: use.scopes, operation }),
        ).pipe(
          Effect.mapError(
            (cause) =>
              new AuthError(
                `${operation.method} ${operation.path}: auth.resolve failed for scheme "${use.scheme}": ${describeFailure(cause)}`,
              ),
          ),
        )
        if (credential === undefined || credential === null) break
        parts.push(yield* Effect.try({ try: () => apply(use, credential), catch: (error) => error as AuthError }))
      }
      if (parts.length === alternative.length)
        return {
          headers: parts.flatMap((p) => p.headers),
          query: parts.flatMap((p) => p.query),
          secrets: parts.flatMap((p) => p.secrets).filter((s) => s.length > 0),
        }
    }
    const wanted = requirement.map((alt) => alt.map((u) => `${u.scheme} (${u.kind})`).join(" + ")).join(" or ")
    return yield* Effect.fail(
      new AuthError(
        options
          ? `${operation.method} ${operation.path} needs credentials for ${wanted}, and auth.resolve returned none`
          : `${operation.method} ${operation.path} needs credentials for ${wanted}; the host configured no auth.resolve`,
      ),
    )
  })
