/**
 * What compiled code is made of: the closure types, completion signals and sentinels shared by the compiler's
 * modules.
 */
import type { Node } from "../parse.js"
import type { Value } from "../runtime/functions.js"

/** An environment: slot 0 links to the parent environment, the other slots hold variables. */
export type Env = Value[]
/** A compiled expression. */
export type Expr = (env: Env) => Value
/** A compiled statement: returns `undefined` on normal completion, or a `Signal`. */
export type Stmt = (env: Env) => Signal | undefined
/** A compiled expression in resumable form (it contains `await` or `yield`). */
export type GExpr = (env: Env) => Generator<Value, Value, Value>
/** A compiled statement in resumable form. */
export type GStmt = (env: Env) => Generator<Value, Signal | undefined, Value>

/** An abrupt completion: `break`, `continue` (optionally labelled) or `return` (value in `rt.ret`). */
export class Signal {
  constructor(
    readonly kind: "break" | "continue" | "return",
    readonly label: string | undefined,
  ) {}
}

/** `return`: the value is in `rt.ret`. */
export const RETURN = new Signal("return", undefined)
/** Unlabelled `break`. */
export const BREAK = new Signal("break", undefined)
/** Unlabelled `continue`. */
export const CONTINUE = new Signal("continue", undefined)

/** The value of a binding before its declaration ran (temporal dead zone). Never visible to programs. */
export const TDZ: Value = Object.freeze({ tdz: true })

/** What an optional chain link produces when it short-circuits. Never visible to programs. */
export const SHORT: Value = Object.freeze({ short: true })

/** Syntax the interpreter does not support: becomes an `UnsupportedSyntax` diagnostic at `offset`. */
export class CompileError extends Error {
  readonly offset: number
  constructor(
    node: Node,
    message: string,
    readonly hint: string,
  ) {
    super(message)
    this.offset = node.start
  }
}

/** Throw a `CompileError` for `node`. */
export const unsupported = (node: Node, message: string, hint: string): never => {
  throw new CompileError(node, message, hint)
}

/** Turn a plain expression into the resumable form (for parents that are resumable). */
export const liftExpr = (e: Expr): GExpr =>
  function* (env) {
    return e(env)
  }

/** Turn a plain statement into the resumable form. */
export const liftStmt = (s: Stmt): GStmt =>
  function* (env) {
    return s(env)
  }
