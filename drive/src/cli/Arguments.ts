/**
 * Command-line argument parsing of `opencode-drive`: the commands, their single positional argument or
 * `--script <file>`, and usage errors for anything else (stray flags, arguments after `--`).
 */

/** A parsed command line. */
export type Command =
  | { readonly kind: "help" }
  | { readonly kind: "version" }
  | { readonly kind: "run"; readonly module: string }
  | { readonly kind: "check"; readonly script: string }
  | { readonly kind: "start"; readonly script: string }
  | { readonly kind: "clean" }

/** A command-line usage error (exit status 2). */
export class UsageError extends Error {}

const single = (command: string, rest: ReadonlyArray<string>, what: string): string => {
  const dashdash = rest.indexOf("--")
  if (dashdash !== -1) throw new UsageError(`${command} accepts no arguments after --`)
  const flags = rest.filter((arg) => arg.startsWith("-"))
  if (flags.length > 0)
    throw new UsageError(`${command} accepts no flags (got ${flags[0]}); control the simulation in the module`)
  if (rest.length !== 1)
    throw new UsageError(`${command} needs exactly one ${what} (got ${rest.length}); see opencode-drive --help`)
  return rest[0]
}

/** Parse arguments (without `node` and the script path). */
export const parse = (args: ReadonlyArray<string>): Command => {
  if (args.length === 1 && (args[0] === "--help" || args[0] === "-h" || args[0] === "help")) return { kind: "help" }
  if (args.length === 1 && (args[0] === "--version" || args[0] === "-v")) return { kind: "version" }
  const [command, ...rest] = args
  switch (command) {
    case undefined:
      throw new UsageError("missing command; see opencode-drive --help")
    case "run":
      return { kind: "run", module: single("run", rest, "module") }
    case "check":
      return { kind: "check", script: single("check", rest, "script") }
    case "clean":
      if (rest.length > 0) throw new UsageError(`clean takes no arguments (got ${rest[0]})`)
      return { kind: "clean" }
    case "start": {
      let script: string | undefined
      const others: Array<string> = []
      for (let i = 0; i < rest.length; i++) {
        const arg = rest[i]
        if (arg === "--script") {
          if (script !== undefined) throw new UsageError("start accepts --script once")
          script = rest[++i]
          if (script === undefined || script.startsWith("-")) throw new UsageError("--script needs a file")
        } else if (arg.startsWith("--script=")) {
          if (script !== undefined) throw new UsageError("start accepts --script once")
          script = arg.slice("--script=".length)
        } else others.push(arg)
      }
      if (others.length > 0) throw new UsageError(`start accepts only --script <file> (got ${others[0]})`)
      if (script === undefined || script === "") throw new UsageError("start needs --script <file>")
      return { kind: "start", script }
    }
    default:
      throw new UsageError(`unknown command ${JSON.stringify(command)}; see opencode-drive --help`)
  }
}
