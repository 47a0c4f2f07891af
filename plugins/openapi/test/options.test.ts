/**
 * Options are strict: an unknown key is a `TypeError` at construction naming it and the accepted keys; sizes have
 * hard ceilings.
 */
import { describe, expect, it } from "vitest"
import { OpenAPI } from "../src/index.js"
import { doc, ok } from "./support/spec.js"

const spec = doc({ "/x": { get: { operationId: "x", responses: ok() } } })
const accepted =
  "the accepted options are spec, baseUrl, auth, headers, maxResponseBytes, maxErrorBodyChars, maxDescriptionChars"

describe("unknown options", () => {
  it("fromSpec names the key, a likely meant one, and the accepted ones", () => {
    const call = (options: object) => () => OpenAPI.fromSpec({ spec, ...options } as never)
    expect(call({ baseURL: "http://127.0.0.1:1" })).toThrow(
      new TypeError(`OpenAPI.fromSpec: unknown option "baseURL" (did you mean "baseUrl"?); ${accepted}`),
    )
    expect(call({ maxResponseByte: 10, timeout: 5 })).toThrow(
      new TypeError(
        `OpenAPI.fromSpec: unknown options "maxResponseByte" (did you mean "maxResponseBytes"?), "timeout"; ${accepted}`,
      ),
    )
    // A key the host spelled right but left undefined is fine; a misspelled one is not, whatever its value.
    expect(() => OpenAPI.fromSpec({ spec, baseUrl: "http://127.0.0.1:1", auth: undefined })).not.toThrow()
    expect(call({ header: undefined })).toThrow(/unknown option "header" \(did you mean "headers"\?\)/)
  })

  it("nested auth options", () => {
    const resolve = () => "t"
    expect(() => OpenAPI.fromSpec({ spec, auth: { resolve, scheme: {} } as never })).toThrow(
      new TypeError(
        'OpenAPI.fromSpec: auth: unknown option "scheme" (did you mean "schemes"?); the accepted options are resolve, schemes',
      ),
    )
    expect(() => OpenAPI.fromSpec({ spec, auth: { resolve, schemes: [] } as never })).toThrow(
      "auth.schemes must be an object of security schemes by name",
    )
  })

  it("layer and load", async () => {
    expect(() => OpenAPI.layer({ spec, mountPoint: "api" } as never)).toThrow(
      /^OpenAPI\.layer: unknown option "mountPoint" \(did you mean "mount"\?\); the accepted options are spec, .*, source, mount$/,
    )
    await expect(OpenAPI.load(JSON.stringify(spec), { timeout: 5 } as never)).rejects.toThrow(
      new TypeError(
        'OpenAPI.load: unknown option "timeout" (did you mean "timeoutMs"?); the accepted options are timeoutMs, headers',
      ),
    )
    await expect(OpenAPI.load(JSON.stringify(spec), { timeoutMs: -1 })).rejects.toThrow(RangeError)
  })
})

describe("size options have hard ceilings", () => {
  it("no configuration makes a host-side buffer unbounded", () => {
    expect(() => OpenAPI.fromSpec({ spec, maxResponseBytes: 2 ** 31 })).toThrow(
      new RangeError("OpenAPI.fromSpec: maxResponseBytes must be at most 33554432, got 2147483648"),
    )
    expect(() => OpenAPI.fromSpec({ spec, maxErrorBodyChars: 1e6 })).toThrow(/maxErrorBodyChars must be at most 65536/)
    expect(() => OpenAPI.fromSpec({ spec, maxDescriptionChars: 1e7 })).toThrow(/at most 100000/)
    expect(() => OpenAPI.fromSpec({ spec, maxResponseBytes: 32 * 1024 * 1024 })).not.toThrow()
  })
})
