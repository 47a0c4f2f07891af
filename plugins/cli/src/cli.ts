#!/usr/bin/env node
/**
 * The `codemode` command: run a Lua or JavaScript program over the tools of an OpenAPI document, search those tools,
 * list them, or serve them over MCP.
 *
 * Bad input (missing file, invalid document, unknown option) prints one line to stderr and exits 2; a program that
 * fails exits 1 after printing its Result. Modules beyond the command line are loaded only by the commands that need
 * them, so `--help` and usage errors answer at once.
 */
import * as Commands from "./Commands.js"
import { UsageError } from "./Usage.js"

const help = `codemode: run programs over the tools of an OpenAPI document, or serve them over MCP

Usage:
  codemode run <program.lua|program.js> [--openapi <file|url>] [options]
  codemode search <query> --openapi <file|url> [options]
  codemode catalog --openapi <file|url> [options]
  codemode mcp --openapi <file|url> [options]

Run "codemode <command> --help" for the options of a command.`

type Command = (args: ReadonlyArray<string>) => Promise<number>

const commands: Record<string, Command> = {
  run: Commands.run,
  search: Commands.search,
  catalog: Commands.catalog,
  mcp: async (args) => (await import("./McpCommand.js")).mcp(args),
}

/** Run the command line `argv` (without node and the script); resolves with the exit code. */
export const main = async (argv: ReadonlyArray<string>): Promise<number> => {
  const [command, ...rest] = argv
  if (command === undefined || command === "--help" || command === "-h" || command === "help") {
    Commands.print(help)
    return command === undefined ? 2 : 0
  }
  if (!Object.hasOwn(commands, command)) {
    process.stderr.write(
      `codemode: unknown command "${command}"; use run, search, catalog or mcp (see codemode --help)\n`,
    )
    return 2
  }
  try {
    return await commands[command](rest)
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    process.stderr.write(`codemode ${command}: ${message.replace(/\s*\n\s*/g, " ")}\n`)
    return error instanceof UsageError ? 2 : 1
  }
}

process.on("unhandledRejection", (reason) => {
  process.stderr.write(`codemode: ${reason instanceof Error ? reason.message : String(reason)}\n`)
  process.exit(1)
})

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code
})
