/**
 * `@codemode/mcp`: serve any CodeMode runtime as an MCP server with two tools, `search` and `execute`, over stdio
 * (`McpStdio.serve`) or Streamable HTTP (`McpHttp.listen`). Core does not depend on the MCP SDK; this package does.
 */
export * as McpHttp from "./McpHttp.js"
export * as McpServer from "./McpServer.js"
export * as McpStdio from "./McpStdio.js"
export { CallReporter } from "./Progress.js"
