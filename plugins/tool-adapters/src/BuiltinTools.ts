/**
 * The input shapes of the OpenCode 1.x built-in tools Drive can intercept, as OpenCode 1.18.33 declares them
 * (property names, types, which are optional), with descriptions in our own words. An adapter must keep the
 * built-in's input shape so the model's calls validate exactly as they would against the real tool.
 */

/** One argument of a tool. */
export interface ArgSpec {
  readonly type: "string" | "number" | "integer" | "enum"
  /** The allowed values of an `enum` argument. */
  readonly values?: ReadonlyArray<string>
  readonly optional?: boolean
  /** A default value (makes the argument optional). */
  readonly default?: string
  /** For numbers: must be greater than zero. */
  readonly positive?: boolean
  readonly description: string
}

/** A built-in tool's description and arguments. */
export interface BuiltinTool {
  /** OpenCode's name of the tool. */
  readonly opencodeName: string
  readonly description: string
  readonly args: Readonly<Record<string, ArgSpec>>
}

/** The interceptable built-ins by OpenCode name. */
export const builtinTools: Readonly<Record<string, BuiltinTool>> = {
  bash: {
    opencodeName: "bash",
    description: [
      "Run a shell command in the project with bash and return what it printed.",
      "",
      "- Give the whole command line in `command`; chain steps with `&&`.",
      "- Use `workdir` to run somewhere else instead of `cd`.",
      "- `timeout` limits the run time in milliseconds.",
      "- Prefer the dedicated tools for reading, searching and editing files.",
    ].join("\n"),
    args: {
      command: { type: "string", description: "The command line to run" },
      timeout: { type: "integer", positive: true, optional: true, description: "Optional time limit in milliseconds" },
      workdir: {
        type: "string",
        optional: true,
        description: "Directory to run the command in; defaults to the project directory. Use it instead of `cd`.",
      },
    },
  },
  webfetch: {
    opencodeName: "webfetch",
    description: [
      "Fetch a web page or other URL and return its content.",
      "",
      "- `url` must be a complete http(s) URL.",
      "- `format` chooses text, markdown (the default) or raw html.",
      "- `timeout` is in seconds (at most 120).",
    ].join("\n"),
    args: {
      url: { type: "string", description: "The URL to fetch" },
      format: {
        type: "enum",
        values: ["text", "markdown", "html"],
        default: "markdown",
        description: "How to return the content: text, markdown or html (default markdown)",
      },
      timeout: { type: "number", optional: true, description: "Optional timeout in seconds (at most 120)" },
    },
  },
  websearch: {
    opencodeName: "websearch",
    description: [
      "Search the web and return the best matching pages with extracts.",
      "",
      "- Use it for current information beyond your training data.",
      "- `numResults` sets how many results come back (default 8).",
    ].join("\n"),
    args: {
      query: { type: "string", description: "What to search for" },
      numResults: { type: "number", optional: true, description: "How many results to return (default 8)" },
      livecrawl: {
        type: "enum",
        values: ["fallback", "preferred"],
        optional: true,
        description: "Live crawling: 'fallback' only when no cached page exists (default), 'preferred' to crawl first",
      },
      type: {
        type: "enum",
        values: ["auto", "fast", "deep"],
        optional: true,
        description: "Search depth: 'auto' (default), 'fast' or 'deep'",
      },
      contextMaxCharacters: {
        type: "number",
        optional: true,
        description: "Largest context string to return, in characters (default 10000)",
      },
    },
  },
  write: {
    opencodeName: "write",
    description: [
      "Write a file, replacing it if it already exists.",
      "",
      "- `filePath` must be absolute.",
      "- Read an existing file before overwriting it, and prefer editing existing files over rewriting them.",
    ].join("\n"),
    args: {
      content: { type: "string", description: "The complete content of the file" },
      filePath: { type: "string", description: "Absolute path of the file to write" },
    },
  },
}
