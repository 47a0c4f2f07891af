/**
 * Patterns in resumable form: destructuring whose defaults or computed keys contain `await`/`yield`.
 */
import type { Node } from "../../parse.js"
import type { BindMode, CompileContext, GWriter } from "../context.js"
import { unsupported } from "../shared.js"

/** A binding or assignment target in resumable form (plain targets are lifted). */
export const gPattern = (ctx: CompileContext, p: Node, mode: BindMode): GWriter => {
  if (ctx.suspends(p))
    return unsupported(p, "`await` inside a destructuring default", "Await the value first, then destructure it")
  const write = ctx.pattern(p, mode)
  return function* (env, v) {
    write(env, v)
  }
}
