/**
 * The compile context: what every compiling function reads (the analysis, the realm, the source text) and the
 * recursion points through which one syntax module compiles a node that another module owns.
 *
 * The syntax modules (bindings, operators, members, calls, literals, statements, loops, patterns, functions,
 * classes, and their resumable forms) are free functions over this context. They never import the dispatchers:
 * `compiler.ts` builds the context and wires its recursion points to them, so the modules form an import tree.
 *
 * Every node compiled through a recursion point is charged one unit of the work meter, which also checks the host's
 * deadline: compilation is linear in the source and ends at the execution's timeout like the run itself.
 */
import { NODES_PER_STEP } from "../limits.js"
import type { Locator, Node } from "../parse.js"
import type { Location } from "@codemode/core/sandbox"
import type { Value } from "../runtime/functions.js"
import { refuel } from "../runtime/meter.js"
import type { Realm } from "../runtime/realm.js"
import { rt } from "../runtime/state.js"
import type { Analysis, FunctionInfo } from "./analyze.js"
import { type Env, type Expr, type GExpr, type GStmt, Signal, type Stmt } from "./shared.js"

/** Writes a value into a binding or assignment target. */
export type Writer = (env: Env, value: Value) => void

/** The resumable form of a writer (a destructuring pattern whose defaults or keys contain `await`/`yield`). */
export type GWriter = (env: Env, value: Value) => Generator<Value, void, Value>

/** How a pattern binds: declarations initialize, assignments assign (checking `const` and TDZ). */
export type BindMode = "init" | "assign"

/** Resolves `import` specifiers to module values (provided by the host bridge). */
export type ModuleResolver = (specifier: string, location: Location) => Value

/** The signals of one label. */
export interface LabelSignals {
  readonly break: Signal
  readonly continue: Signal
}

/** The compilers of the node kinds that other modules recurse into, wired once by `compiler.ts`. */
export interface Dispatch {
  /** An expression; `name` names anonymous functions and classes (`const f = () => {}`). */
  readonly expr: (ctx: CompileContext, n: Node, name?: string) => Expr
  /** A link of an optional chain (may produce `SHORT`). */
  readonly chain: (ctx: CompileContext, n: Node) => Expr
  /** A statement; `labels` are the labels directly applied to it (for loops). */
  readonly statement: (ctx: CompileContext, n: Node, labels: string[]) => Stmt
  /** A statement list; at top level, expression statements record the REPL-style completion value. */
  readonly statementList: (ctx: CompileContext, list: Node[], topLevel: boolean) => Stmt
  /** A binding or assignment target; `source` is the expression whose value it receives, if any (for messages). */
  readonly pattern: (ctx: CompileContext, p: Node, mode: BindMode, source?: Node) => Writer
  /** An expression in resumable form (plain expressions are lifted). */
  readonly gexpr: (ctx: CompileContext, n: Node, name?: string) => GExpr
  /** A statement in resumable form (plain statements are lifted). */
  readonly gstatement: (ctx: CompileContext, n: Node, labels: string[]) => GStmt
  /** A statement list in resumable form. */
  readonly gstatementList: (ctx: CompileContext, list: Node[], topLevel: boolean) => GStmt
  /** A binding or assignment target in resumable form (plain targets are lifted). */
  readonly gpattern: (ctx: CompileContext, p: Node, mode: BindMode, source?: Node) => GWriter
}

/** The state of one compilation and its recursion points. */
export class CompileContext {
  private readonly labels = new Map<string, LabelSignals>()
  /** The functions whose bodies are being compiled in resumable form, innermost last. */
  readonly resumableFunctions: FunctionInfo[] = []
  /** Nodes compiled so far, a nested function counting as one (see `stepsSince`). */
  compiledNodes = 0

  constructor(
    readonly analysis: Analysis,
    readonly realm: Realm,
    readonly source: string,
    private readonly locate: Locator,
    readonly resolveModule: ModuleResolver,
    private readonly dispatch: Dispatch,
  ) {}

  /** The 1-based location of a node's start. */
  loc(node: Node): Location {
    return this.locate(node.start)
  }

  /** The signals of a label. */
  labelSignal(label: string): LabelSignals {
    let s = this.labels.get(label)
    if (s === undefined) {
      s = { break: new Signal("break", label), continue: new Signal("continue", label) }
      this.labels.set(label, s)
    }
    return s
  }

  /** True when a node contains `await`/`yield` of its own function. */
  suspends(node: Node): boolean {
    return this.analysis.suspends.has(node)
  }

  /** The function compiled in resumable form that the code being compiled belongs to. */
  get resumableFunction(): FunctionInfo | undefined {
    return this.resumableFunctions[this.resumableFunctions.length - 1]
  }

  /** Charge one unit of work for a compiled node (the meter checks the deadline). */
  charge(node: Node): void {
    this.compiledNodes++
    if (--rt.fuel < 0) refuel(this.loc(node))
  }

  /**
   * The work units one run of the code compiled since `start` (a count of `compiledNodes`) is charged: a loop's
   * test, update and body per iteration, a function's body per call.
   */
  stepsSince(start: number): number {
    return Math.max(1, Math.ceil((this.compiledNodes - start) / NODES_PER_STEP))
  }

  /** Compile an expression. */
  expr(n: Node, name?: string): Expr {
    this.charge(n)
    return this.dispatch.expr(this, n, name)
  }

  /** Compile a link of an optional chain. */
  chain(n: Node): Expr {
    this.charge(n)
    return this.dispatch.chain(this, n)
  }

  /** Compile a statement. */
  statement(n: Node, labels: string[] = []): Stmt {
    this.charge(n)
    return this.dispatch.statement(this, n, labels)
  }

  /** Compile a statement list. */
  statementList(list: Node[], topLevel: boolean): Stmt {
    return this.dispatch.statementList(this, list, topLevel)
  }

  /** Compile a binding or assignment target into a writer. */
  pattern(p: Node, mode: BindMode, source?: Node): Writer {
    this.charge(p)
    return this.dispatch.pattern(this, p, mode, source)
  }

  /** Compile an expression in resumable form. */
  gexpr(n: Node, name?: string): GExpr {
    this.charge(n)
    return this.dispatch.gexpr(this, n, name)
  }

  /** Compile a statement in resumable form. */
  gstatement(n: Node, labels: string[] = []): GStmt {
    this.charge(n)
    return this.dispatch.gstatement(this, n, labels)
  }

  /** Compile a statement list in resumable form. */
  gstatementList(list: Node[], topLevel: boolean): GStmt {
    return this.dispatch.gstatementList(this, list, topLevel)
  }

  /** Compile a binding or assignment target in resumable form. */
  gpattern(p: Node, mode: BindMode, source?: Node): GWriter {
    this.charge(p)
    return this.dispatch.gpattern(this, p, mode, source)
  }
}

export type { Env, Expr, GExpr, GStmt, Stmt }
