/**
 * The two ways a Lua program fails.
 *
 * A {@link LuaError} is an ordinary Lua error: `pcall` catches it and sees its value. A {@link LuaFatal} ends the run
 * (a bound was exceeded, the host said stop); `pcall` lets it pass. Neither extends `Error`, so throwing one does not
 * capture a JavaScript stack trace.
 */
import type { Kind, Location } from "@codemode/core/sandbox"
import type { LuaValue } from "./value.js"

/** An ordinary, catchable Lua error carrying its Lua error value. */
export class LuaError {
  constructor(
    /** The error value as `pcall` returns it (a message string, or any value passed to `error`). */
    readonly value: LuaValue,
    /** Where the error was raised, when known. */
    public location: Location | undefined,
    /** The diagnostic kind reported when nothing catches the error. */
    readonly kind: Kind = "ExecutionFailure",
  ) {}
}

/** An error that ends the run: `pcall` does not catch it. */
export class LuaFatal {
  constructor(
    readonly kind: Kind,
    readonly message: string,
    public location: Location | undefined,
  ) {}
}
