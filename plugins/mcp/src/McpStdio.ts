/**
 * MCP over stdio: newline-delimited JSON-RPC on stdin and stdout. Only MCP messages go to stdout; anything to say
 * to a person goes to stderr.
 */
import { Transform, type Readable, type Writable } from "node:stream"
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js"
import type { CodeModeServer } from "./McpServer.js"

/** The longest message accepted on stdin, in bytes (a larger one ends the session). */
export const maxMessageBytes = 16 * 1024 * 1024

/** Options of `serve`. */
export interface Options {
  readonly stdin?: Readable
  readonly stdout?: Writable
  /** The longest line accepted (default `maxMessageBytes`). */
  readonly maxMessageBytes?: number
}

/** A stream that passes lines through and fails once a line grows past `max` bytes, so the buffer stays bounded. */
export const boundedLines = (max: number): Transform => {
  let pending = 0
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      const newline = chunk.lastIndexOf(0x0a)
      pending = newline === -1 ? pending + chunk.length : chunk.length - newline - 1
      if (pending > max) callback(new Error(`an MCP message on stdin is over ${max} bytes`))
      else callback(null, chunk)
    },
  })
}

/**
 * Serve one MCP session on stdin/stdout. Resolves when the session ends (stdin closed, or a message over the
 * bound, which is reported on stderr).
 */
export const serve = async (server: CodeModeServer, options: Options = {}): Promise<void> => {
  const stdin = options.stdin ?? process.stdin
  const guard = boundedLines(options.maxMessageBytes ?? maxMessageBytes)
  stdin.pipe(guard)
  const transport = new StdioServerTransport(guard, options.stdout ?? process.stdout)
  const ended = new Promise<void>((resolve) => {
    const finish = () => resolve()
    guard.once("end", finish)
    guard.once("error", (error) => {
      process.stderr.write(`codemode mcp: ${error.message}; closing the session\n`)
      finish()
    })
    stdin.once("close", finish)
  })
  const session = await server.connect(transport)
  await ended
  await session.close()
}
