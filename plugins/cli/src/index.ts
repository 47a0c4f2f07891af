/**
 * `@codemode/cli`: the `codemode` command, and the terminal printer of a `CodeMode.Result` it uses.
 */
export * as Printer from "./Printer.js"
