/**
 * Endpoint compatibility. Upstream Drive negotiates a simulation endpoint that only OpenCode development
 * checkouts have; the published OpenCode has none, so this driver uses the public seams ("legacy" profile:
 * `opencode serve`, an OpenAI-compatible provider, `opencode attach` in a pseudo-terminal). `"preferred"` reports
 * that profile; `"required"` fails, quoting what the server's `/experimental/capabilities` offered.
 */
import { Effect } from "effect"
import { CompatibilityError } from "../Errors.js"
import type { OpenCodeServer } from "./OpenCodeServer.js"

/** The compatibility part of a run report. */
export interface CompatibilityReport {
  readonly requested: "required" | "preferred"
  /** The profile Drive used: always the public-seam `legacy` profile with published OpenCode releases. */
  readonly profile: "legacy"
  readonly opencodeVersion: string
  /** What `/experimental/capabilities` answered (`null` when the server has no such endpoint). */
  readonly serverCapabilities: unknown
  /** Optional capabilities and whether this run has them. */
  readonly capabilities: {
    readonly semanticUi: boolean
    readonly partialToolInput: boolean
    readonly staticToolAdapters: boolean
  }
}

/** Probe the server and decide the profile. */
export const negotiate = (
  server: OpenCodeServer,
  requested: "required" | "preferred",
  projectDir: string,
  staticToolAdapters: boolean,
): Effect.Effect<CompatibilityReport, CompatibilityError> =>
  Effect.gen(function* () {
    const serverCapabilities = yield* server
      .getJson(`/experimental/capabilities?directory=${encodeURIComponent(projectDir)}`)
      .pipe(Effect.orElseSucceed(() => null))
    if (requested === "required") {
      return yield* new CompatibilityError({
        message: `OpenCode ${server.version} offers no Drive simulation endpoint (its /experimental/capabilities answered ${JSON.stringify(serverCapabilities)}); use opencode.compatibility: "preferred" to drive it through its public seams`,
        opencodeVersion: server.version,
      })
    }
    return {
      requested,
      profile: "legacy",
      opencodeVersion: server.version,
      serverCapabilities,
      capabilities: { semanticUi: false, partialToolInput: false, staticToolAdapters },
    } satisfies CompatibilityReport
  })
