/**
 * The compiler: turns the analysed AST into a tree of host closures, once per execution.
 *
 * Each expression becomes `(env) => value` and each statement `(env) => signal`. Variables are environment slots
 * found at compile time; hot operators carry inline fast paths for numbers and strings; loops and calls charge the
 * work meter. Function bodies that contain `await`/`yield` compile to host generators (the `resumable/` modules),
 * and within them only the nodes on the path to a suspension point; everything else stays a plain closure.
 *
 * This module wires the syntax modules into one `CompileContext` and compiles the program's top level.
 */
import type { Locator, Node } from "../parse.js"
import type { Realm } from "../runtime/realm.js"
import type { Analysis } from "./analyze.js"
import { tdzSlots } from "./bindings.js"
import { CompileContext, type Dispatch, type ModuleResolver } from "./context.js"
import { chainLink, expression } from "./expressions.js"
import { blankEnvironment } from "./frames.js"
import { hoistedFunctions } from "./functions.js"
import { importDeclaration } from "./modules.js"
import { pattern } from "./patterns.js"
import { gExpression } from "./resumable/expressions.js"
import { gPattern } from "./resumable/patterns.js"
import { gStatement, gStatementList } from "./resumable/statements.js"
import { type Env, type GStmt, type Stmt, TDZ, unsupported } from "./shared.js"
import { statement, statementList } from "./statements.js"

export type { ModuleResolver }

/** A compiled program. */
export interface CompiledProgram {
  /** Create the top-level environment (bindings, imports, hoisted functions). */
  readonly setup: () => Env
  /** The plain body, when the program has no top-level `await`. */
  readonly body: Stmt | undefined
  /** The resumable body, when it has. */
  readonly resumableBody: GStmt | undefined
}

const dispatch: Dispatch = {
  expr: expression,
  chain: chainLink,
  statement,
  statementList,
  pattern,
  gexpr: gExpression,
  gstatement: gStatement,
  gstatementList: gStatementList,
  gpattern: gPattern,
}

/** Compile a whole program. */
export const compileProgram = (
  analysis: Analysis,
  realm: Realm,
  source: string,
  locate: Locator,
  resolveModule: ModuleResolver,
  program: Node,
): CompiledProgram => {
  const ctx = new CompileContext(analysis, realm, source, locate, resolveModule, dispatch)
  const info = analysis.program
  const scope = info.scope
  const size = scope.size
  const tdz = tdzSlots(scope)
  const imports: Array<(env: Env) => void> = []
  for (const s of program.body) {
    if (s.type === "ImportDeclaration") imports.push(importDeclaration(ctx, s))
    else if (s.type.startsWith("Export")) {
      unsupported(s, "`export` is not supported", "Programs are not modules that export: return the value instead")
    }
  }
  const functions = hoistedFunctions(ctx, scope)
  const thisSlot = info.thisBinding!.slot
  const setup = (): Env => {
    const env = blankEnvironment(size, undefined)
    for (let i = 0; i < tdz.length; i++) env[tdz[i]] = TDZ
    env[thisSlot] = undefined
    for (const imp of imports) imp(env)
    functions(env)
    return env
  }
  const statements = program.body.filter((s: Node) => s.type !== "ImportDeclaration")
  if (info.suspends) return { setup, body: undefined, resumableBody: ctx.gstatementList(statements, true) }
  return { setup, body: ctx.statementList(statements, true), resumableBody: undefined }
}
