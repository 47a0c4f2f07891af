/**
 * Where a request goes: the operation's path filled with the input's values, the query string and the headers, built
 * so that no value can move the request off its server or override what the host sets.
 *
 * - A path value stays inside its segment: values are percent-encoded (slashes, backslashes, `?`, `#` and `%`
 *   included), and a value that would make a segment empty, `.` or `..` (which URL parsers remove, climbing above the
 *   base path) is refused.
 * - A program never writes a query key that a credential of the operation uses, whether through a parameter's name, a
 *   form/explode object's keys or an `allowReserved` value; header parameters that a credential or a host header
 *   fills are not part of the input at all (see `Operation`), and credentials are applied last.
 * - The finished URL must still have the server's origin and base path.
 */
import type * as Auth from "./Auth.js"
import type { Values } from "./Input.js"
import { bodyKey, type Plan } from "./Operation.js"
import * as Parameter from "./Parameter.js"
import type { Outgoing } from "./Transport.js"

/** A built URL that left its server: a bug or a document this module does not expect, never sent. */
export class TargetError extends Error {
  override readonly name = "OpenApiTargetError"
}

/** The request, and the path with values filled in (safe to show: it holds no credential). */
export interface Built {
  readonly outgoing: Outgoing
  readonly shownPath: string
}

const decoded = (text: string): string => {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "))
  } catch {
    return text
  }
}

/** `.` or `..`, also once decoded and once `;` path parameters are stripped (as servlet containers read `..;x`). */
const isDotSegment = (segment: string): boolean => {
  const plain = decoded(segment).split(";")[0]
  return plain === "." || plain === ".."
}

/** The path with every path parameter filled in; refuses values that would leave their segment. */
const fillPath = (plan: Plan, values: Values): string => {
  const rendered = new Map<string, string>()
  for (const p of plan.parameters) {
    if (p.in !== "path" || values[p.name] === undefined) continue
    const segment = Parameter.pathSegment(p, values[p.name])
    if (segment === "")
      throw new Parameter.EncodingError(`path parameter "${p.name}" is empty; a path parameter needs a value`)
    rendered.set(p.name, segment)
  }
  return plan.path
    .split("/")
    .map((segment) => {
      const names: string[] = []
      const filled = segment.replace(/\{([^}]+)\}/g, (whole, name: string) => {
        const value = rendered.get(name)
        if (value === undefined) return whole
        names.push(name)
        return value
      })
      if (names.length > 0 && isDotSegment(filled))
        throw new Parameter.EncodingError(
          `path parameter ${names.map((n) => `"${n}"`).join(", ")} gives the path segment "${filled}", a dot segment that would send the request to another path; pass the actual value`,
        )
      return filled
    })
    .join("/")
}

/** The query keys a piece of the query string sets, as a server would read them (decoded, lower case). */
const keysOf = (piece: string): ReadonlyArray<string> =>
  piece.split(/[&;]/).map((pair) => decoded(pair.split("=")[0]).trim().toLowerCase())

/** Refuse any query key a credential uses, however a style or `allowReserved` wrote it. */
const checkReserved = (plan: Plan, pieces: ReadonlyArray<string>): void => {
  if (plan.reservedQuery.length === 0) return
  for (const piece of pieces)
    for (const key of keysOf(piece)) {
      const base = key.replace(/\[.*$/, "")
      const reserved = plan.reservedQuery.find((r) => {
        const name = r.name.toLowerCase()
        return name === key || name === base
      })
      if (reserved)
        throw new Parameter.EncodingError(
          `the input would set the query key "${reserved.name}", which the credential of scheme "${reserved.scheme}" uses; only the host sets it`,
        )
    }
}

/**
 * Build the request for `plan` from the checked input values, the host's headers and the resolved credentials.
 * Throws `Parameter.EncodingError` for values that cannot be sent (or would move the request), `TargetError` when the
 * URL would leave the server.
 */
export const build = (
  plan: Plan,
  values: Values,
  applied: Auth.Applied,
  hostHeaders: { readonly [name: string]: string },
): Built => {
  const path = fillPath(plan, values)
  const query: string[] = []
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(hostHeaders)) headers[name.toLowerCase()] = value
  for (const p of plan.parameters) {
    const value = values[p.name]
    if (value === undefined) continue
    if (p.in === "query") query.push(...Parameter.queryPieces(p, value))
    else if (p.in === "header") headers[p.name.toLowerCase()] = Parameter.headerValue(p, value)
  }
  checkReserved(plan, query)
  for (const [name, value] of applied.query) query.push(`${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
  for (const [name, value] of applied.headers) headers[name] = value
  if (plan.response.accept) headers.accept = plan.response.accept
  const url = plan.serverUrl + path + (query.length ? `?${query.join("&")}` : "")
  const server = new URL(plan.serverUrl)
  const target = new URL(url)
  if (target.origin !== server.origin || !target.pathname.startsWith(server.pathname.replace(/\/$/, "")))
    throw new TargetError(`the request URL would leave the server ${server.origin}${server.pathname}`)
  const body = values[bodyKey]
  return {
    outgoing: {
      method: plan.method.toUpperCase(),
      url,
      headers,
      body:
        plan.body && body !== undefined ? { text: JSON.stringify(body), mediaType: plan.body.mediaType } : undefined,
    },
    shownPath: path,
  }
}
