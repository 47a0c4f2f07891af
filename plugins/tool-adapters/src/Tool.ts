/**
 * The provider-backed dynamic tool lifecycle (`tools.attach`). Attaching arbitrary tools needs six capabilities
 * from the running OpenCode; when they are unavailable, attachment fails with {@link LifecycleError}. The
 * published OpenCode 1.x (checked on 1.18.33) lacks three of them (see {@link opencode1Support}), so on it every
 * non-empty `attach` fails; registrations are still validated first, so a name collision with a static adapter
 * is reported as such.
 */
import { Data, Effect } from "effect"
import { opencodeName } from "./ToolNames.js"

/** The six capabilities the dynamic tool lifecycle needs from OpenCode. */
export const lifecycleCapabilities = ["register", "replace", "invoke", "progress", "finish", "cancel"] as const
export type LifecycleCapability = (typeof lifecycleCapabilities)[number]

/**
 * What the published OpenCode 1.x (inspected on 1.18.33) offers towards each capability through its public
 * seams (run-time MCP servers and plugin hooks), and what is missing.
 */
export const opencode1Support: Readonly<
  Record<LifecycleCapability, { readonly available: boolean; readonly note: string }>
> = {
  register: { available: true, note: "an MCP server can be added to a running OpenCode (POST /mcp)" },
  replace: { available: false, note: "there is no atomic replacement of a tool set" },
  invoke: {
    available: false,
    note: "OpenCode's MCP client calls a tool with only its name and arguments, never the model's call ID",
  },
  progress: { available: false, note: "OpenCode ignores MCP progress notifications" },
  finish: { available: true, note: "an MCP tool result's content reaches the model" },
  cancel: { available: true, note: "OpenCode passes its abort signal to the MCP call" },
}

/** The running OpenCode cannot attach dynamic tools. */
export class LifecycleError extends Data.TaggedError("LifecycleError")<{
  readonly message: string
  /** The lifecycle capabilities the running OpenCode lacks. */
  readonly missing: ReadonlyArray<string>
}> {}

/** A dynamic registration is invalid (for example, it collides with a static adapter). */
export class RegistrationError extends Data.TaggedError("RegistrationError")<{
  readonly message: string
  readonly name: string
}> {}

/** A dynamically attached tool (canonical JSON Schema input). */
export interface Registration {
  readonly name: string
  readonly description: string
  readonly inputSchema: unknown
  readonly namespace?: string
  readonly permission?: unknown
  readonly options?: { readonly codemode?: boolean }
}

/** Content of a dynamic tool's progress or result, in OpenCode's display form. */
export type Content =
  | { readonly type: "text"; readonly text: string }
  | { readonly type: string; readonly [key: string]: unknown }

/** Structured and display content of a dynamic tool's progress or result. */
export interface Update {
  readonly structured?: unknown
  readonly content?: ReadonlyArray<Content>
}

/** One invocation of a dynamically attached tool. */
export interface DynamicInvocation {
  /** The producer's transport identity of this invocation. */
  readonly id: string
  /** The model's tool-call id (`Llm.toolCall({ id })`). */
  readonly callID: string
  readonly name: string
  readonly input: unknown
  readonly progress: (update: Update) => Effect.Effect<void, LifecycleError>
  readonly finish: (result: Update) => Effect.Effect<void, LifecycleError>
  /** Completes when OpenCode cancels the invocation. */
  readonly awaitCancelled: () => Effect.Effect<void>
}

/** The name OpenCode would give a registration (`<namespace>_<name>` when it has a namespace). */
export const effectiveName = (registration: Registration): string =>
  registration.namespace ? `${registration.namespace}_${registration.name}` : registration.name

/** The error every dynamic-lifecycle operation fails with on OpenCode 1.x. */
export const unsupported = (operation: string): LifecycleError => {
  const missing = lifecycleCapabilities.filter((capability) => !opencode1Support[capability].available)
  return new LifecycleError({
    message:
      `${operation} needs OpenCode's provider-backed tool lifecycle (${lifecycleCapabilities.join(", ")}), and OpenCode 1.x ` +
      `(checked on 1.18.33) lacks ${missing.join(", ")}: ${missing.map((c) => opencode1Support[c].note).join("; ")}. ` +
      `Use static adapters instead (options.tools: ["shell", "webfetch", "websearch", "write"]) or an OpenCode that provides the lifecycle.`,
    missing,
  })
}

/**
 * Validate registrations against the static adapters (by OpenCode name) and against each other; fails locally
 * with {@link RegistrationError}.
 */
export const validate = (
  registrations: ReadonlyArray<Registration>,
  staticTools: ReadonlyArray<string>,
): Effect.Effect<void, RegistrationError> =>
  Effect.suspend(() => {
    const taken = new Set(staticTools.map(opencodeName))
    const seen = new Set<string>()
    for (const registration of registrations) {
      if (typeof registration?.name !== "string" || registration.name === "") {
        return Effect.fail(new RegistrationError({ message: "a dynamic tool registration has no name", name: "" }))
      }
      const name = effectiveName(registration)
      if (taken.has(opencodeName(name))) {
        return Effect.fail(
          new RegistrationError({
            message: `dynamic tool "${name}" collides with the static ${opencodeName(name)} adapter declared in options.tools; rename it or give it a namespace`,
            name,
          }),
        )
      }
      if (seen.has(name)) {
        return Effect.fail(
          new RegistrationError({ message: `dynamic tool "${name}" is registered twice in one attach`, name }),
        )
      }
      seen.add(name)
    }
    return Effect.void
  })
