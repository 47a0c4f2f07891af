/**
 * Statements, blocks and functions: Lua locals become JS `let` variables (fresh per loop iteration, as in Lua),
 * loops become labeled JS loops charged at every back-edge, gotos follow the plan of gotos.ts, and a function's tail
 * call to itself reuses its frame.
 */
import type { Chunk, Node } from "luaparse"
import type { BlockPlan, Interval } from "../gotos.js"
import { INTRINSICS } from "../intrinsics.js"
import { MAX_CALL_DEPTH } from "../runtime.js"
import { type FnInfo, resolution, type VarInfo } from "../scope.js"
import { type BlockCtx, charge, type FnCtx, type Held, type SelfName } from "./emit.js"
import { Expressions } from "./expressions.js"
import { LOOPS, type LoopState, loopState } from "./tiering.js"

/**
 * How a loop is compiled: as usual; compact, with the tier-up to its hot function at the end of its body (`id`:
 * the loop's offset in the source); or resumed in its hot function, whose parameters include the loop's control
 * variables (`control`, filled as the loop is compiled).
 */
type LoopForm =
  | { readonly kind: "plain" }
  | { readonly kind: "tiered"; readonly id: number; readonly state: LoopState }
  | { readonly kind: "resume"; readonly control: Array<string> }

const PLAIN: LoopForm = { kind: "plain" }

/** How deep tiered loops nest: a loop inside this many tiered ones is compiled with inline paths. */
const MAX_TIER_DEPTH = 3

/** A function's compile-time context before its first statement. */
const fnCtx = (self: SelfName | undefined, loop: FnCtx["loop"]): FnCtx => ({
  temps: 0,
  maxTemps: 0,
  loops: [],
  self,
  loop,
  looped: false,
  counters: [],
})

/** The declarations of a function's temporaries and pass counters. */
const declarations = (fn: FnCtx): string => {
  let code = fn.maxTemps > 0 ? "let t0" : ""
  for (let i = 1; i < fn.maxTemps; i++) code += `, t${i}`
  if (fn.maxTemps > 0) code += ";"
  // The count starts where the run's `H` says: at the bound once the program has tiered up in an earlier run.
  for (let i = 0; i < fn.counters.length; i++) code += `${i === 0 ? "let " : ", "}${fn.counters[i]} = H.passes`
  return fn.counters.length > 0 ? `${code};` : code
}

/** The names of the intrinsics (generated code names them `$name`). */
const INTRINSIC_NAMES = new Set(Object.keys(INTRINSICS))

/** The loop statement of the main function (outside its functions) that starts at source offset `at`. */
const loopAt = (body: ReadonlyArray<Node>, at: number): Node | undefined => {
  for (const s of body) {
    if (LOOPS.has(s.type) && s.range![0] === at) return s
    const inner: Array<ReadonlyArray<Node>> =
      s.type === "IfStatement"
        ? (s.clauses as ReadonlyArray<Node>).map((c) => c.body)
        : s.body === undefined
          ? []
          : [s.body]
    for (const b of inner) {
      const found = loopAt(b, at)
      if (found !== undefined) return found
    }
  }
  return undefined
}

/** The generated source of a program (see {@link Generator.program}). */
export interface GeneratedProgram {
  /** The factory's source: it returns the main function. */
  readonly source: string
  /**
   * When the main function runs its first statements before it needs the rest: makes the source of a second
   * factory, whose function runs the rest (the main function gets it by calling its factory's `R`). Undefined
   * otherwise. It is called once, after the first part's source: the runtime generates and compiles the rest while
   * the program's first host call is in flight. Until then the generator keeps the syntax tree.
   */
  readonly rest: (() => string) | undefined
}

/** The statements a split main chunk may run before its rest (see {@link Generator.splitPoint}). */
const LEADING = new Set(["LocalStatement", "AssignmentStatement", "CallStatement"])

/** The globals whose calls are host calls: the tools tree and tool search. */
const HOST_ROOTS = new Set(["tools", "search"])

/** The calls in syntax. */
const CALLS = new Set(["CallExpression", "StringCallExpression", "TableCallExpression"])

/** True when `node` is, or holds, a node that `test` accepts (luaparse nodes; the syntax depth is bounded). */
const holds = (node: unknown, test: (node: Node) => boolean): boolean => {
  if (node === null || typeof node !== "object") return false
  if (Array.isArray(node)) return node.some((n) => holds(n, test))
  if (typeof (node as { type?: unknown }).type === "string" && test(node as Node)) return true
  for (const key in node) if (key !== "range" && holds((node as Record<string, unknown>)[key], test)) return true
  return false
}

/** True for a call of a function reached from the global `tools` or `search` (`tools.shop.list(...)`). */
const isHostCall = (node: Node): boolean => {
  if (!CALLS.has(node.type)) return false
  let base: Node = node.base
  while (base.type === "MemberExpression" || base.type === "IndexExpression") base = base.base
  return base.type === "Identifier" && HOST_ROOTS.has(base.name) && resolution(base).kind === "global"
}

/** The code generator: `program(chunk)` is the source of the program's factory. */
export class Generator extends Expressions {
  /**
   * The program's source: binds the intrinsics and constants, returns the main function. A main chunk that starts
   * with calls (a tool program's first tool call) is split after its first tool call (see {@link splitPoint}): the
   * runtime generates the rest and compiles it with V8 while that call is in flight (see `worker.ts`), so the time a
   * tool takes hides that part of the compile.
   */
  program(chunk: Chunk): GeneratedProgram {
    this.main = this.resolved.functions.get(chunk)
    const split = this.splitPoint(chunk.body)
    if (split === 0) {
      const main = this.functionBody([], true, chunk.body, undefined, this.onceCompact)
      return { source: this.factory(main, this.takeConstants()), rest: undefined }
    }
    const { first, firstConstants, rest } = this.splitMain(chunk.body, split)
    const source = this.factory(first, firstConstants)
    return {
      source,
      rest: () => {
        const { code, constants } = rest()
        return this.factory(code, constants)
      },
    }
  }

  /** The main function's info (loops of it may tier up). */
  private main: FnInfo | undefined

  /** How many tiered loops enclose the statement being compiled. */
  private tierDepth = 0

  /** The ids of the tiered loops compiled (see {@link hotLoop}). */
  readonly tieredLoops: Array<number> = []

  /**
   * The source of the factory of the hot function of the main function's loop `id` (see {@link tierUp}): the loop
   * compiled with inline paths, resumed where its compact code tiers up. `chunk` is the program's tree, parsed again.
   */
  hotLoop(chunk: Chunk, id: number): string {
    const main = this.resolved.functions.get(chunk)!
    this.main = main
    this.takeConstants()
    const loop = loopAt(chunk.body, id)
    const state = loop === undefined ? undefined : loopState(loop, main, this.resolved)
    if (loop === undefined || state === undefined) throw new Error(`no loop of the main function tiers up at ${id}`)
    this.fn = fnCtx(undefined, undefined)
    this.block = undefined
    this.compact = false
    const outer = state.uses.map((v) => this.binding(v))
    const form: LoopForm = { kind: "resume", control: [] }
    const code = this.loop(loop, form)
    const sets = state.uses.filter((v) => state.sets.has(v)).map((v, i) => `ho.a${i} = ${this.binding(v)};`)
    // The stores of the locals set run once before the loop too: V8 compiles the loop (on stack replacement) before
    // the code after it has run, and code compiled without type feedback for those stores would leave its optimised
    // code at the loop's end, in every run.
    const body =
      sets.length === 0
        ? [code, "return ho;"]
        : ["for (let hp = false; ; hp = true) {", ...sets, "if (hp) return ho;", code, "}"]
    return this.factory(
      [
        `function F${this.uid()}(ho, G, GT, va${[...outer, ...form.control].map((p) => `, ${p}`).join("")}) {`,
        declarations(this.fn),
        ...body,
        "}",
      ].join("\n"),
      this.takeConstants(),
    )
  }

  /**
   * The code ending the body of a tiered loop (`form`): after the function's loops' `tierAfter`th pass (of all of
   * them), the rest of the loop
   * runs in its hot function (`H(id)`, compiled with inline paths when a run first gets there). It gets the run's
   * globals (`G`, `GT`: one function serves every run, so that V8 keeps its feedback and optimised code), `...`
   * (`va`), the outer locals the loop uses and the loop's control variables (`control`), and returns `ho` with the
   * new values of the locals it set (`a0`, `a1`, ...), or what a `return` in the loop returned.
   */
  private tierUp(form: LoopForm, label: string, control: ReadonlyArray<string>): string {
    if (form.kind === "resume") form.control.push(...control)
    if (form.kind !== "tiered") return ""
    const fn = this.fn
    // One count of passes for all the function's loops: a loop whose passes run inner loops many times tiers up
    // as early as the inner ones.
    const counter = "tc"
    if (fn.counters.length === 0) fn.counters.push(counter)
    fn.temps = 0
    const r = this.temp()
    const out = this.temp()
    const uses = form.state.uses
    const args = [...uses.map((v) => this.local(v)), ...control].map((a) => `, ${a}`).join("")
    const sets = uses.filter((v) => form.state.sets.has(v))
    return [
      `if (++${counter} >= ${this.tierAfter}) {`,
      `${r} = H(${form.id})(${out} = {${sets.map((_, i) => ` a${i}: undefined`).join(",")} }, G, GT, va${args});`,
      `if (${r} !== ${out}) return ${r};`,
      ...sets.map((v, i) => `${this.local(v)} = ${out}.a${i};`),
      `break ${label};`,
      "}",
    ].join("\n")
  }

  /**
   * A factory's source: `fn` with the intrinsics and the constants it uses bound (`constants`: the indexes that
   * {@link takeConstants} gave right after `fn` was generated).
   */
  private factory(fn: string, constants: ReadonlyArray<number>): string {
    // Bind only the intrinsics the program uses: small programs compile faster with a short prelude (for a large
    // one, finding them would cost more than binding them all).
    let intrinsics = "rt = $.rt"
    if (this.large) for (const name of INTRINSIC_NAMES) intrinsics += `, $${name} = $.${name}`
    else
      for (const used of new Set(fn.match(/\$[A-Za-z]\w*/g))) {
        const name = used.slice(1)
        if (INTRINSIC_NAMES.has(name)) intrinsics += `, ${used} = $.${name}`
      }
    let bound = ""
    for (let i = 0; i < constants.length; i++)
      bound += `${i === 0 ? "const " : ", "}k${constants[i]} = K[${constants[i]}]`
    return `"use strict";\nconst ${intrinsics};\n${bound === "" ? "" : `${bound};`}\nreturn (${fn});`
  }

  /**
   * How many of the main chunk's first statements run before the rest is needed: those up to the first that calls
   * a tool (or searches), when all of them are declarations, assignments or calls that define no function (so no
   * closure holds their locals: the rest gets their values as parameters), more statements follow, the chunk has no
   * goto target and the program is not compiled compact (its V8 compile is quick). 0 when the chunk is not split.
   */
  private splitPoint(body: ReadonlyArray<Node>): number {
    if (this.large || !this.onceCompact || this.gotos.blocks.has(body)) return 0
    for (let i = 0; i < body.length - 1; i++) {
      const s = body[i]
      if (!LEADING.has(s.type) || holds(s, (n) => n.type === "FunctionDeclaration")) return 0
      if (holds(s, isHostCall)) return i + 1
    }
    return 0
  }

  /**
   * The main function of a split chunk (see {@link splitPoint}): it runs the first `split` statements, then calls
   * the rest's function with `...` and the locals they declared. The rest's function is part of the main function's
   * run: it is not entered as a Lua call, and it leaves the call depth as the main function's end does.
   */
  private splitMain(
    body: ReadonlyArray<Node>,
    split: number,
  ): {
    first: string
    firstConstants: Array<number>
    rest: () => { code: string; constants: Array<number> }
  } {
    const outerCompact = this.compact
    this.compact = true
    this.fn = fnCtx(undefined, undefined)
    const ctx: BlockCtx = { parent: undefined, plan: undefined, index: 0, hoisted: [] }
    this.block = ctx
    const range = (from: number, to: number): string => {
      const codes: Array<string> = []
      for (let i = from; i < to; i++) {
        ctx.index = i
        codes.push(this.statement(body[i]))
      }
      return codes.join("\n")
    }
    const temps = () => {
      const code = declarations(this.fn)
      this.fn = fnCtx(undefined, undefined)
      return code
    }
    this.takeConstants()
    const firstCode = range(0, split)
    const firstTemps = temps()
    const firstConstants = this.takeConstants()
    const locals: Array<string> = []
    for (let i = 0; i < split; i++)
      if (body[i].type === "LocalStatement")
        for (const v of body[i].variables as ReadonlyArray<Node>) locals.push(this.binding(this.decl(v)))
    this.block = undefined
    this.compact = outerCompact
    const params = ["va", ...locals].join(", ")
    const first = [
      `function F${this.uid()}(...va) {`,
      "$enter();",
      firstTemps,
      firstCode,
      `return R()(${params});`,
      "}",
    ].join("\n")
    const rest = () => {
      this.compact = true
      this.fn = fnCtx(undefined, undefined)
      this.block = ctx
      const restCode = range(split, body.length)
      const restTemps = temps()
      const constants = this.takeConstants()
      this.block = undefined
      this.compact = outerCompact
      const returns = body[body.length - 1].type === "ReturnStatement"
      const code = [
        `function F${this.uid()}(${params}) {`,
        restTemps,
        restCode,
        returns ? "" : "rt.depth--;\nreturn $EMPTY;",
        "}",
      ].join("\n")
      return { code, constants }
    }
    return { first, firstConstants, rest }
  }

  /**
   * A Lua function as a JS function expression. A fixed-parameter function whose parameters no closure captures,
   * and whose body calls itself in a tail position, runs its body in a loop: such a call reassigns the parameters and
   * starts the next pass, so it does not grow the call depth (other calls are unchanged).
   *
   * `once` (the main chunk) compiles compact what runs at most once a run: the statements outside loops and outside
   * blocks with gotos (a backward goto repeats them). That code runs once, in V8's interpreter, where an intrinsic
   * call costs about what the inlined test does, and V8 compiles the shorter source faster: a new program's first
   * run is mostly compiling. Its loops are compact too until they tier up (see codegen/tiering.ts), unless they
   * cannot; functions keep the inline paths.
   */
  protected functionBody(
    params: Array<VarInfo>,
    vararg: boolean,
    body: ReadonlyArray<Node>,
    self: SelfName | undefined = undefined,
    once = false,
  ): string {
    const outerFn = this.fn
    const outerBlock = this.block
    const outerCompact = this.compact
    this.compact = this.large || once
    const names = params.map((p) => this.local(p))
    const loopable = self !== undefined && !vararg && params.every((p) => !p.captured)
    const jsName = `F${this.uid()}`
    this.fn = fnCtx(self, loopable ? { name: jsName, params: names } : undefined)
    this.block = undefined
    if (vararg) names.push("...va")
    let code = this.blockOf(body)
    const looped = this.fn.looped
    if (looped) code = `T${jsName}: for (;;) {\n${code}\nrt.depth--;\nreturn $EMPTY;\n}`
    const declared = declarations(this.fn)
    this.fn = outerFn
    this.block = outerBlock
    const entry = this.compact
      ? ["$enter();"]
      : [
          `if (++rt.depth > ${MAX_CALL_DEPTH}) throw $callDepthError(rt.site);`,
          "$callSites[rt.depth] = rt.site;",
          "if (--rt.budget <= 0) $meter(rt.site);",
        ]
    this.compact = outerCompact
    // A body that ends with a return statement does not reach the end of the function.
    const returns = !looped && body.length > 0 && body[body.length - 1].type === "ReturnStatement"
    return [
      `function ${jsName}(${names.join(", ")}) {`,
      ...entry,
      declared,
      code,
      returns ? "" : "rt.depth--;\nreturn $EMPTY;",
      "}",
    ].join("\n")
  }

  protected closure(node: Node, self?: SelfName): string {
    const info = this.resolved.functions.get(node)!
    const params: Array<VarInfo> = []
    const selfParam = this.resolved.selfParams.get(node)
    if (selfParam !== undefined) params.push(selfParam)
    for (const p of node.parameters as ReadonlyArray<Node>) if (p.type === "Identifier") params.push(this.decl(p))
    const code = `(${this.functionBody(params, info.vararg, node.body, selfParam === undefined ? self : undefined)})`
    // A closure keeps the cells of the locals it captures as they are when it is made (see gotos.ts).
    const cells = [...info.free].filter((v) => this.gotos.cells.has(v)).map((v) => this.binding(v))
    if (cells.length === 0) return code
    return `((${cells.join(", ")}) => ${code})(${cells.join(", ")})`
  }

  /**
   * `return f(args)` where `f` may be the running function itself: when it is, the arguments become the parameters
   * and the body starts again (no new frame, no deeper call depth); otherwise an ordinary call. Undefined when the
   * statement is not such a call.
   */
  protected tailCall(node: Node): string | undefined {
    const fn = this.fn
    const loop = fn.loop
    const self = fn.self
    if (loop === undefined || self === undefined) return undefined
    if (node.type !== "CallExpression" && node.type !== "StringCallExpression" && node.type !== "TableCallExpression")
      return undefined
    if (this.parens.isParenthesised(node)) return undefined
    const base: Node = node.base
    if (base.type !== "Identifier") return undefined
    const r = this.use(base)
    const named = "v" in self ? r.kind !== "global" && r.v === self.v : r.kind === "global" && base.name === self.global
    if (!named) return undefined
    const argNodes: ReadonlyArray<Node> =
      node.type === "StringCallExpression"
        ? [node.argument]
        : node.type === "TableCallExpression"
          ? [node.arguments]
          : node.arguments
    const ownParen = node.type === "CallExpression" ? this.parens.after(base.range![1]) : -1
    const last = argNodes.length - 1
    if (last >= 0 && this.isMulti(argNodes[last], last === 0 ? ownParen : -1)) return undefined
    fn.looped = true
    const site = this.site(node)
    const callee = this.copy(base)
    const args = argNodes.map((a) => this.copy(a))
    const assign = loop.params.map((p, i) => `${p} = ${i < args.length ? args[i].ref : "undefined"};`)
    const r2 = this.temp()
    return [
      ...[callee.setup, ...args.map((a) => a.setup)].filter((x) => x !== "").map((x) => `${x};`),
      `if (${callee.ref} === ${loop.name}) {`,
      ...assign,
      `${charge(site)} continue T${loop.name};`,
      "}",
      `rt.site = ${site};`,
      `${r2} = typeof ${callee.ref} === "function" ? ${callee.ref}(${args.map((a) => a.ref).join(", ")}) : $callFail(${callee.ref}, ${this.k(this.describe(base))}, ${site});`,
      "rt.depth--;",
      `return ${r2};`,
    ].join("\n")
  }

  /** A block's statements; `tail` is code to run at its end, inside the scope of its locals. */
  protected blockOf(body: ReadonlyArray<Node>, tail = ""): string {
    const plan = this.gotos.blocks.get(body)
    const ctx: BlockCtx = { parent: this.block, plan, index: 0, hoisted: [] }
    this.block = ctx
    // A block with jump targets may run its statements again (see functionBody's `once`).
    const outerCompact = this.compact
    if (plan !== undefined) this.compact = this.large
    const codes = body.map((s, i) => {
      ctx.index = i
      return this.statement(s)
    })
    this.compact = outerCompact
    this.block = ctx.parent
    if (plan === undefined) return codes.join("\n") + (tail === "" ? "" : "\n" + tail)
    if (plan.layout === "nested") return this.nested(plan.intervals, codes, tail)
    return this.dispatch(ctx, plan, codes, tail, body)
  }

  /**
   * A block whose gotos cannot be expressed by nesting: `switch` on the jump target inside a loop, re-entered by
   * `continue`. Its locals live outside the loop (those in cells get a new cell at each declaration).
   */
  protected dispatch(ctx: BlockCtx, plan: BlockPlan, codes: Array<string>, tail: string, body: ReadonlyArray<Node>) {
    const cases = codes.map((code, i) => (body[i].type === "LabelStatement" ? `case ${i + 1}:` : code))
    return [
      ctx.hoisted.length > 0 ? `let ${ctx.hoisted.map(({ v }) => this.binding(v)).join(", ")};` : "",
      `let ${plan.pc} = 0;`,
      `${plan.loop}: for (;;) {`,
      `switch (${plan.pc}) {`,
      "case 0:",
      ...cases,
      "}",
      tail,
      "break;",
      "}",
    ].join("\n")
  }

  /** Wrap a block's statements in the intervals of its goto plan (see gotos.ts), innermost last. */
  protected nested(intervals: ReadonlyArray<Interval>, codes: Array<string>, tail: string): string {
    const used = new Set<Interval>()
    const emit = (lo: number, hi: number, withTail: boolean): string => {
      const out: Array<string> = []
      let i = lo
      let tailDone = false
      while (i < hi) {
        let outer: Interval | undefined
        for (const iv of intervals)
          if (!used.has(iv) && iv.start === i && iv.end <= hi && (outer === undefined || iv.end > outer.end)) outer = iv
        if (outer === undefined) {
          out.push(codes[i])
          i++
          continue
        }
        used.add(outer)
        const innerTail = withTail && outer.end === hi && outer.close !== "}"
        out.push(outer.open, emit(i, outer.end, innerTail), outer.close)
        if (innerTail) tailDone = true
        i = outer.end
      }
      if (withTail && !tailDone) out.push(tail)
      return out.join("\n")
    }
    return emit(0, codes.length, tail !== "")
  }

  protected statement(s: Node): string {
    this.tick()
    this.fn.temps = 0
    if (!LOOPS.has(s.type) || this.compact === this.large) return this.statementOf(s)
    const state = this.tierable(s)
    if (state !== undefined) {
      this.tierDepth++
      const code = this.loop(s, { kind: "tiered", id: s.range![0], state })
      this.tierDepth--
      this.tieredLoops.push(s.range![0])
      return code
    }
    // A loop runs its body many times (see functionBody's `once`).
    this.compact = this.large
    const code = this.statementOf(s)
    this.compact = true
    return code
  }

  /** The state a loop of the main function's compact code needs to tier up, or undefined when it cannot. */
  private tierable(s: Node): LoopState | undefined {
    const main = this.main
    if (main === undefined || this.tierDepth >= MAX_TIER_DEPTH || this.gotos.targets.size > 0) return undefined
    return loopState(s, main, this.resolved)
  }

  /** A loop statement in the given form. */
  private loop(s: Node, form: LoopForm): string {
    switch (s.type) {
      case "WhileStatement":
        return this.whileLoop(s, form)
      case "RepeatStatement":
        return this.repeatLoop(s, form)
      case "ForNumericStatement":
        return this.forNumeric(s, form)
      default:
        return this.forGeneric(s, form)
    }
  }

  protected whileLoop(s: Node, form: LoopForm = PLAIN): string {
    const label = `L${this.uid()}`
    const test = this.test(s.condition)
    const site = this.site(s)
    this.fn.loops.push(label)
    const body = this.blockOf(s.body)
    this.fn.loops.pop()
    return `${label}: while (${test}) {\n${charge(site)}\n${body}\n${this.tierUp(form, label, [])}}`
  }

  protected repeatLoop(s: Node, form: LoopForm = PLAIN): string {
    const label = `L${this.uid()}`
    const site = this.site(s)
    this.fn.loops.push(label)
    // The condition sees the body's locals: it runs at the end of the body's block.
    const body = this.blockOf(s.body, `if (${this.test(s.condition)}) break ${label};`)
    this.fn.loops.pop()
    return `${label}: for (;;) {\n${charge(site)}\n${body}\n${this.tierUp(form, label, [])}}`
  }

  private statementOf(s: Node): string {
    switch (s.type) {
      case "LocalStatement":
        return this.localStatement(s)
      case "AssignmentStatement":
        return this.assignment(s)
      case "CallStatement":
        return `${this.call(s.expression, false)};`
      case "FunctionDeclaration":
        return this.functionStatement(s)
      case "ReturnStatement":
        return this.returnStatement(s)
      case "IfStatement":
        return this.ifStatement(s)
      case "WhileStatement":
        return this.whileLoop(s)
      case "RepeatStatement":
        return this.repeatLoop(s)
      case "DoStatement":
        return `{\n${this.blockOf(s.body)}\n}`
      case "ForNumericStatement":
        return this.forNumeric(s)
      case "ForGenericStatement":
        return this.forGeneric(s)
      case "BreakStatement": {
        const loop = this.fn.loops[this.fn.loops.length - 1]
        if (loop === undefined) this.fail(s, "break outside a loop")
        return `break ${loop};`
      }
      case "GotoStatement":
        return this.gotoStatement(s)
      case "LabelStatement":
        return ""
      default:
        return this.fail(s, `unsupported statement ${s.type}`)
    }
  }

  protected gotoStatement(s: Node): string {
    const { label, plan, forward } = this.gotos.targets.get(s)!
    const jump = plan.layout === "dispatch" ? `${plan.pc} = ${label.index + 1}; continue ${plan.loop};` : undefined
    if (forward) return jump ?? `break F${label.uid};`
    return `${charge(this.site(s))} ${jump ?? `continue B${label.uid};`}`
  }

  protected localStatement(s: Node): string {
    const vars: Array<VarInfo> = s.variables.map((v: Node) => this.decl(v))
    const init: ReadonlyArray<Node> = s.init
    const values = this.adjusted(init, vars.length, vars)
    return `${values.setup}${this.declare(vars)}${vars.map((v, i) => this.initLocal(v, values.refs[i])).join(", ")};`
  }

  /** The start of a declaration of the block's new locals: `let `, or nothing when a dispatch block hoists them. */
  protected declare(vars: Array<VarInfo>): string {
    const block = this.block
    if (block?.plan?.layout !== "dispatch") return "let "
    for (const v of vars) block.hoisted.push({ v, at: block.index })
    return ""
  }

  /**
   * Evaluate an expression list adjusted to exactly `n` values: `setup` statements run first (in order), then
   * `refs[i]` reads value `i` (for more than one value, from a temporary). Extra expressions are evaluated for their
   * effects. `targets` are the locals the values are assigned to, if any (see `assignedValue`).
   */
  protected adjusted(
    nodes: ReadonlyArray<Node>,
    n: number,
    targets: ReadonlyArray<VarInfo | undefined> = [],
  ): { setup: string; refs: Array<string> } {
    const last = nodes.length - 1
    const multiTail = last >= 0 && last < n - 1 && this.isMulti(nodes[last])
    const refs: Array<string> = []
    let setup = ""
    if (n === 1 && nodes.length === 1) refs.push(this.assignedValue(targets[0], nodes[0]))
    else
      nodes.forEach((node, i) => {
        if (i === last && multiTail) {
          const r = this.temp()
          setup += `${r} = ${this.multi(node)};\n`
          for (let j = 0; last + j < n; j++) refs.push(`$nth(${r}, ${j})`)
          return
        }
        const code = i < n ? this.assignedValue(targets[i], node) : this.expr(node)
        if (i >= n) setup += `${code};\n`
        else {
          const t = this.temp()
          setup += `${t} = ${code};\n`
          refs.push(t)
        }
      })
    while (refs.length < n) refs.push("undefined")
    return { setup, refs }
  }

  protected assignment(s: Node): string {
    const targets: ReadonlyArray<Node> = s.variables
    const init: ReadonlyArray<Node> = s.init
    const locals = targets.map((t) => {
      const r = t.type === "Identifier" ? this.use(t) : undefined
      return r !== undefined && r.kind !== "global" ? r.v : undefined
    })
    if (targets.length === 1 && init.length === 1)
      return this.store(targets[0], this.assignedValue(locals[0], init[0]), false)
    // General case: evaluate the targets' tables and keys, then the values, then assign from the last. A local
    // table or key is read when storing, unless another target assigns that local (then, as PUC Lua does, its value
    // is copied first).
    const assigned = new Set(locals.filter((v) => v !== undefined))
    const operand = (node: Node): Held => {
      const r = node.type === "Identifier" ? this.use(node) : undefined
      return r !== undefined && r.kind === "local" && assigned.has(r.v)
        ? this.holdCode(this.expr(node))
        : this.hold(node)
    }
    const parts: Array<string> = []
    const refs = targets.map((t) => {
      if (t.type === "Identifier") return { t, obj: "", key: "" }
      const obj = operand(t.base)
      if (obj.setup !== "") parts.push(`${obj.setup};`)
      if (t.type === "MemberExpression") return { t, obj: obj.ref, key: this.literal(t.identifier.name) }
      const key = operand(t.index)
      if (key.setup !== "") parts.push(`${key.setup};`)
      return { t, obj: obj.ref, key: key.ref }
    })
    const values = this.adjusted(init, targets.length, locals)
    parts.push(values.setup)
    const stores: Array<string> = []
    for (let i = refs.length - 1; i >= 0; i--) {
      const { t, obj, key } = refs[i]
      if (t.type === "Identifier") stores.push(this.store(t, values.refs[i], true))
      else stores.push(`$setAny(${obj}, ${key}, ${values.refs[i]}, ${this.site(t)}, ${this.k(this.describe(t.base))});`)
    }
    return parts.join("\n") + "\n" + stores.join("\n")
  }

  /** Store already generated value code into a target; `held` says the value is a temporary or constant. */
  protected store(t: Node, value: string, held: boolean): string {
    if (t.type === "Identifier") {
      const r = this.use(t)
      if (r.kind !== "global") return `${this.local(r.v)} = ${value};`
      const name = t.name as string
      const site = this.site(t)
      const v = held ? value : this.temp()
      const setup = held ? "" : `${v} = ${value};\n`
      if (this.compact) return `$setGlobal(GT, ${this.k(name)}, ${value}, ${site});`
      const p = this.prop(name)
      return `${setup}if (${v} !== undefined && G${p} !== undefined) G${p} = ${v}; else $setGlobal(GT, ${this.k(name)}, ${v}, ${site});`
    }
    // Lua evaluates the table and key expressions, then the value; a local table or key is read when storing.
    const site = this.site(t)
    const desc = this.k(this.describe(t.base))
    if (this.compact) {
      // The value is evaluated after the table and key and before a local table or key is read.
      const member = t.type === "MemberExpression"
      const inPlace = member ? this.inPlace(t.base, t) : this.inPlace(t.base, t.index, t)
      const obj = inPlace ? this.placed(t.base) : this.hold(t.base)
      const o = obj.ref
      const lines = obj.setup === "" ? [] : [`${obj.setup};`]
      const index = member ? undefined : inPlace ? this.placed(t.index) : this.hold(t.index)
      if (index !== undefined && index.setup !== "") lines.push(`${index.setup};`)
      const v = held || inPlace ? value : this.temp()
      if (v !== value) lines.push(`${v} = ${value};`)
      const store =
        index === undefined
          ? `$setField(${o}, ${this.k(t.identifier.name)}, ${v}, ${site}, ${desc});`
          : `$setAny(${o}, ${index.ref}, ${v}, ${site}, ${desc});`
      return [...lines, store].join("\n")
    }
    const obj = this.hold(t.base)
    const o = obj.ref
    const lines = obj.setup === "" ? [] : [`${obj.setup};`]
    if (t.type === "MemberExpression") {
      const name = t.identifier.name as string
      const v = this.temp()
      const h = this.temp()
      const p = this.prop(name)
      return [
        ...lines,
        `${v} = ${value};`,
        `if (${o} instanceof $LuaTable && (${h} = ${o}.fields)${p} !== undefined && ${v} !== undefined) ${h}${p} = ${v};`,
        `else $setField(${o}, ${this.k(name)}, ${v}, ${site}, ${desc});`,
      ].join("\n")
    }
    const index = this.hold(t.index)
    const key = index.ref
    if (index.setup !== "") lines.push(`${index.setup};`)
    const v = this.temp()
    const i = this.temp()
    return [
      ...lines,
      `${v} = ${value};`,
      `if (${o} instanceof $LuaTable && typeof ${key} === "number" && (${i} = ${key} - 1) >>> 0 === ${i} && ${i} < ${o}.arr.length && ${v} !== undefined) ${o}.arr[${i}] = ${v};`,
      `else $setAny(${o}, ${key}, ${v}, ${site}, ${desc});`,
    ].join("\n")
  }

  protected functionStatement(s: Node): string {
    const id: Node = s.identifier
    if (s.isLocal) {
      const v = this.decl(id)
      const declaration = this.declare([v])
      // Declared before the closure is made, so that the function sees itself.
      const init = `${declaration}${this.initLocal(v, "undefined")};`
      return `${init}\n${this.local(v)} = ${this.closure(s, { v })};`
    }
    const make = this.closure(
      s,
      id.type === "Identifier" && this.use(id).kind === "global" ? { global: id.name as string } : undefined,
    )
    if (id.type === "Identifier") return this.store(id, make, false)
    // function a.b.c() / function a.b:m(): assign the field
    return this.store({ ...id, type: "MemberExpression", indexer: "." }, make, false)
  }

  protected returnStatement(s: Node): string {
    const args: ReadonlyArray<Node> = s.arguments
    if (args.length === 0) return "rt.depth--;\nreturn $EMPTY;"
    if (args.length === 1) {
      const tail = this.tailCall(args[0])
      if (tail !== undefined) return tail
    }
    let value: string
    if (args.length === 1) value = this.isMulti(args[0]) ? this.multi(args[0]) : this.expr(args[0])
    else value = this.list(args)
    if (args.length === 1 && this.unchangeable(args[0])) return `rt.depth--;\nreturn ${value};`
    const r = this.temp()
    return `${r} = ${value};\nrt.depth--;\nreturn ${r};`
  }

  protected ifStatement(s: Node): string {
    const out: Array<string> = []
    ;(s.clauses as ReadonlyArray<Node>).forEach((c, i) => {
      const body = this.blockOf(c.body)
      if (c.type === "ElseClause") out.push(`else {\n${body}\n}`)
      else out.push(`${i === 0 ? "if" : "else if"} (${this.test(c.condition)}) {\n${body}\n}`)
    })
    return out.join("\n")
  }

  /** A numeric `for`; resumed (see {@link LoopForm}), it starts with the step that ends a pass. */
  protected forNumeric(s: Node, form: LoopForm = PLAIN): string {
    const label = `L${this.uid()}`
    const site = this.site(s)
    const resume = form.kind === "resume"
    const start = resume ? "" : this.expr(s.start)
    const limit = resume ? "" : this.expr(s.end)
    const step = resume ? "" : s.step ? this.expr(s.step) : "1"
    const v = this.local(this.decl(s.variable))
    const [m, i, lim, st, big] = [0, 1, 2, 3, 4].map(() => `f${this.uid()}`)
    this.fn.loops.push(label)
    const body = this.blockOf(s.body)
    this.fn.loops.pop()
    const loop = [
      `${label}: for (${resume ? `${i} += ${st}` : ""}; ${m} < 2 ? (${st} > 0 ? ${i} <= ${lim} : ${i} >= ${lim}) : ${big}.more(); ${i} += ${st}) {`,
      charge(site),
      `let ${v} = ${this.loopValue(this.decl(s.variable), m, i, big)};`,
      body,
      this.tierUp(form, label, [m, i, lim, st, big]),
      "}",
    ]
    if (resume) return loop.join("\n")
    return [
      `{ const ${m} = $forPrep(${start}, ${limit}, ${step}, ${site});`,
      `let ${i} = $FP.i; const ${lim} = $FP.lim, ${st} = $FP.step, ${big} = $FP.big;`,
      ...loop,
      "}",
    ].join("\n")
  }

  /** A generic `for`; resumed (see {@link LoopForm}), its iterator is a parameter. */
  protected forGeneric(s: Node, form: LoopForm = PLAIN): string {
    const label = `L${this.uid()}`
    const site = this.site(s)
    const iterators: ReadonlyArray<Node> = s.iterators
    const it = `f${this.uid()}`
    let setup = ""
    let start = ""
    if (form.kind === "resume") {
      // the iterator was made by the loop's compact code
    } else if (iterators.length === 1 && this.isMulti(iterators[0]))
      start = `$forInResults(${this.multi(iterators[0])}, ${site})`
    else {
      const values = this.adjusted(iterators, 3)
      setup = values.setup
      start = `$forIn(${values.refs.join(", ")}, ${site})`
    }
    const vars: Array<VarInfo> = s.variables.map((x: Node) => this.decl(x))
    const bindings = vars.map(
      (x, j) => `${this.local(x)} = ${j === 0 ? `${it}.a` : j === 1 ? `${it}.b` : `${it}.at(${j})`}`,
    )
    this.fn.loops.push(label)
    const body = this.blockOf(s.body)
    this.fn.loops.pop()
    const loop = [
      `${label}: while (${it}.more()) {`,
      charge(site),
      `let ${bindings.join(", ")};`,
      body,
      this.tierUp(form, label, [it]),
      "}",
    ]
    if (form.kind === "resume") return loop.join("\n")
    return [`{ ${setup}const ${it} = ${start};`, ...loop, "}"].join("\n")
  }
}
