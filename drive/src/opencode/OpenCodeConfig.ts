/**
 * The configuration Drive gives OpenCode through `OPENCODE_CONFIG_CONTENT`: the fake LLM as an
 * `@ai-sdk/openai-compatible` provider (OpenCode 1.x bundles that provider, so nothing is installed at run time),
 * used as both the main and the small model, with autoupdate and sharing off. Extra layers (tool adapters) and
 * the script's own `config` are deep-merged on top, in that order.
 */

/** The provider id the fake LLM is registered under. */
export const providerId = "drive"

/** A JSON object. */
export type JsonObject = { readonly [key: string]: unknown }

const isPlainObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** Deep-merge `over` into `base`: objects merge key by key, anything else (arrays included) replaces. */
export const deepMerge = (base: JsonObject, over: JsonObject): JsonObject => {
  const result: Record<string, unknown> = { ...base }
  for (const [key, value] of Object.entries(over)) {
    const current = result[key]
    result[key] = isPlainObject(current) && isPlainObject(value) ? deepMerge(current, value) : value
  }
  return result
}

/** Drive's base configuration for a fake LLM at `baseUrl`. */
export const baseConfig = (llm: {
  readonly baseUrl: string
  readonly apiKey: string
  readonly modelId: string
}): JsonObject => ({
  autoupdate: false,
  share: "disabled",
  enabled_providers: [providerId],
  provider: {
    [providerId]: {
      npm: "@ai-sdk/openai-compatible",
      name: "Drive",
      options: { baseURL: llm.baseUrl, apiKey: llm.apiKey },
      models: {
        [llm.modelId]: {
          name: "Simulated",
          tool_call: true,
          reasoning: true,
          attachment: false,
          temperature: false,
          limit: { context: 200_000, output: 32_000 },
        },
      },
    },
  },
  model: `${providerId}/${llm.modelId}`,
  small_model: `${providerId}/${llm.modelId}`,
})

/** The final configuration: base, then each extra layer, then the script's config. */
export const compose = (
  base: JsonObject,
  layers: ReadonlyArray<JsonObject>,
  user: JsonObject | undefined,
): JsonObject => [...layers, user ?? {}].reduce(deepMerge, base)
