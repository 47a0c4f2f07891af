/**
 * Strict options: a key the package does not know is a mistake (`baseURL`, `maxResponseByte`), never silently ignored.
 */
import * as Suggest from "./Suggest.js"

/**
 * Throw a `TypeError` naming every unknown key of `options` and the accepted ones (with the likely intended name),
 * e.g. `OpenAPI.fromSpec: unknown option "baseURL" (did you mean baseUrl?); accepted: spec, baseUrl, …`.
 */
export const checkKeys = (where: string, options: object, accepted: ReadonlyArray<string>): void => {
  const unknown = Object.keys(options).filter((key) => !accepted.includes(key))
  if (unknown.length === 0) return
  const each = unknown
    .map((key) => {
      const near = Suggest.nearest(key, accepted)
      return near === undefined ? `"${key}"` : `"${key}" (did you mean ${near}?)`
    })
    .join(", ")
  throw new TypeError(
    `${where}: unknown option${unknown.length === 1 ? "" : "s"} ${each}; accepted: ${accepted.join(", ")}`,
  )
}
