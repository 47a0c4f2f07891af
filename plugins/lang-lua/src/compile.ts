/**
 * The compiler: luaparse's syntax tree → JavaScript source → one JS function per Lua function, built once per
 * program with `new Function`.
 *
 * Lua locals become JS `let` variables and Lua closures become JS closures, so V8 optimises a Lua program as it
 * would a hand-written JS one (a tree of closures cannot get there: V8 shares call feedback among closures made from
 * one function, and the calls between them stay megamorphic). Operations are inlined for their common case (numbers,
 * table fields, the array part) and call {@link INTRINSICS} otherwise; work is charged at loop back-edges, backward
 * gotos and calls.
 *
 * No program text reaches the generated source: locals, temporaries, labels and constants get numbered names
 * (`v12`, `t3`, `L4`, `k5`); strings, error descriptions and unusual numbers are passed in a constants array; the only
 * words copied from the program are field and global names, and only when they are plain identifiers
 * (`[A-Za-z_][A-Za-z0-9_]*`), as property names after a dot.
 */
import type { Chunk, Node } from "luaparse"
import { arith, type LuaNumber, Op, stringToNumber, toIntegerExact } from "./numbers.js"
import { INTRINSICS } from "./intrinsics.js"
import { ABSENT } from "./lib/absent.js"
import { decodeStringLiteral, needsOwnDecoding } from "./literals.js"
import { compileTimeout, parse, ParenFinder, ParseFailure, type Parsed } from "./parse.js"
import type { Location } from "./protocol.js"
import { CHUNK_NAME, MAX_CALL_DEPTH } from "./runtime.js"
import { type BlockPlan, type GotoPlan, type Interval, planGotos } from "./gotos.js"
import { resolve, type Resolution, type Resolved, type VarInfo } from "./scope.js"
import { LuaFloat, type LuaFunction, type LuaTable, type LuaValue, toDouble } from "./value.js"

/**
 * A program compiled to a JS factory. It holds no run state: every {@link instantiate} makes fresh closures over a
 * fresh environment, and V8 keeps (and reuses) the optimised code of the factory's inner functions.
 */
export interface Compiled {
  readonly factory: (...args: Array<unknown>) => LuaFunction
  readonly constants: ReadonlyArray<unknown>
  /** Source locations by id, for the run-time state. */
  readonly locations: Array<Location | undefined>
  readonly bytes: number
}

/** The compiled programs a worker keeps, by source text, most recently used last. */
const cache = new Map<string, Compiled>()
const CACHE_ENTRIES = 32
const CACHE_BYTES = 4 * 1024 * 1024
let cachedBytes = 0

/**
 * Parse and compile `code`, or reuse its compiled form from an earlier run in this worker. Compiling is linear in
 * the source and looks at `deadline` (a `Date.now()` time) as it goes.
 */
export const compile = (code: string, deadline = Infinity): Compiled => {
  const known = cache.get(code)
  if (known !== undefined) {
    cache.delete(code)
    cache.set(code, known)
    return known
  }
  const parsed = parse(code, deadline)
  const generator = new Generator(parsed, deadline)
  const source = generator.program(parsed.chunk)
  let factory: Compiled["factory"]
  try {
    factory = new Function("$", "K", "G", "GT", source) as Compiled["factory"]
  } catch (e) {
    // The generated source is valid JavaScript; what fails here are the engine's size limits.
    throw new ParseFailure({
      kind: "ExecutionFailure",
      message: `the program is too large for the compiler (${e instanceof Error ? e.message : String(e)}): split it into smaller functions`,
    })
  }
  const compiled: Compiled = {
    factory,
    constants: generator.constants,
    locations: generator.locations,
    bytes: code.length + source.length,
  }
  cache.set(code, compiled)
  cachedBytes += compiled.bytes
  for (const [key, old] of cache) {
    if (cache.size <= CACHE_ENTRIES && cachedBytes <= CACHE_BYTES) break
    cache.delete(key)
    cachedBytes -= old.bytes
  }
  return compiled
}

/** Make the program's main function for one run, over that run's globals table. */
export const instantiate = (compiled: Compiled, globals: LuaTable): LuaFunction => {
  const fields = globals.fields
  if (fields === undefined) throw new Error("the globals table has no string-keyed part")
  return compiled.factory(INTRINSICS, compiled.constants, fields, globals)
}

/** The generated JS source of a program, for tests and debugging. */
export const generatedSource = (code: string): string => {
  const parsed = parse(code)
  return new Generator(parsed).program(parsed.chunk)
}

/** Compile-time context of one block. */
interface BlockCtx {
  readonly parent: BlockCtx | undefined
  /** Its goto plan, when it holds jump targets. */
  readonly plan: BlockPlan | undefined
  /** Index of the statement being compiled. */
  index: number
  /** For a dispatch block: its locals with the statements declaring them (declared before the loop). */
  readonly hoisted: Array<{ readonly v: VarInfo; readonly at: number }>
}

/**
 * Compile-time context of one function. Temporaries (`t0`, `t1`, ...) hold values only while one statement runs
 * (no temporary is live while a nested statement runs), so every statement starts again from `t0` and the
 * function declares as many as its largest statement needs.
 */
interface FnCtx {
  /** Temporaries in use by the statement being compiled. */
  temps: number
  /** The most temporaries any statement used. */
  maxTemps: number
  /** JS labels of the enclosing Lua loops, innermost last. */
  readonly loops: Array<string>
  /** How the function can be named in its own body, for tail calls to itself (see {@link Generator.tailCall}). */
  readonly self: SelfName | undefined
  /** The function's JS name and parameters, when a tail call to itself can reuse its frame. */
  readonly loop: { readonly name: string; readonly params: ReadonlyArray<string> } | undefined
  /** Set when a tail call to itself was compiled: the body runs inside the loop `T<name>`. */
  looped: boolean
}

/** The name a function has in its own body: the local (`local function f`) or the global (`function f`). */
type SelfName = { readonly v: VarInfo } | { readonly global: string }

/** A value evaluated once: `setup` (a comma-expression part, or "") stores it, `ref` reads it. */
type Held = { readonly setup: string; readonly ref: string }

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/
const COMPARISONS = new Set(["==", "~=", "<", "<=", ">", ">="])
const ARITH_OPS = new Map<string, Op>([
  ["+", Op.Add],
  ["-", Op.Sub],
  ["*", Op.Mul],
  ["/", Op.Div],
  ["%", Op.Mod],
  ["//", Op.IDiv],
  ["^", Op.Pow],
  ["&", Op.BAnd],
  ["|", Op.BOr],
  ["~", Op.BXor],
  ["<<", Op.Shl],
  [">>", Op.Shr],
])
const NOT_CONSTANT: unique symbol = Symbol("not a constant")

const isNumeral = (v: unknown): v is LuaNumber =>
  typeof v === "number" || typeof v === "bigint" || v instanceof LuaFloat

/** `a op b` as PUC Lua's `constfolding` does it, or `NOT_CONSTANT` where it does not fold. */
const foldArith = (op: Op, a: LuaNumber, b: LuaNumber): LuaValue | typeof NOT_CONSTANT => {
  const bitwise = op === Op.BAnd || op === Op.BOr || op === Op.BXor || op === Op.Shl || op === Op.Shr || op === Op.BNot
  if (bitwise && (toIntegerExact(a) === undefined || toIntegerExact(b) === undefined)) return NOT_CONSTANT
  if ((op === Op.Div || op === Op.IDiv || op === Op.Mod) && toDouble(b) === 0) return NOT_CONSTANT
  const r = arith(op, a, b, 0)
  if (typeof r === "number" && !Number.isSafeInteger(r) && (r !== r || r === 0)) return NOT_CONSTANT
  if (r instanceof LuaFloat && r.n === 0) return NOT_CONSTANT
  return r
}

/** Join the non-empty parts of a comma expression. */
const seq = (...parts: Array<string>): string => `(${parts.filter((p) => p !== "").join(", ")})`

/** The budget check at a loop back-edge or backward jump. */
const charge = (site: number | string) => `if (--rt.budget <= 0) $meter(${site});`

class Generator {
  readonly locations: Array<Location | undefined> = [undefined]
  readonly constants: Array<unknown> = []
  private readonly resolved: Resolved
  private readonly gotos: GotoPlan
  private readonly parens: ParenFinder
  private readonly source: string
  private readonly names = new Map<VarInfo, string>()
  private readonly constantNames = new Map<string, string>()
  private counter = 0
  private block: BlockCtx | undefined
  private fn!: FnCtx

  /** Nodes compiled since the last look at the deadline. */
  private work = 0

  constructor(
    parsed: Parsed,
    private readonly deadline = Infinity,
  ) {
    this.resolved = resolve(parsed.chunk)
    this.gotos = planGotos(parsed.chunk, this.resolved)
    this.parens = new ParenFinder(parsed.source)
    this.source = parsed.source
  }

  /** The factory's source: binds the intrinsics and constants, returns the main function. */
  program(chunk: Chunk): string {
    const main = this.functionBody([], true, chunk.body)
    // Bind only the intrinsics the program uses: small programs compile faster with a short prelude.
    const used = new Set(main.match(/\$[A-Za-z]+/g))
    const intrinsics = [
      "rt = $.rt",
      ...Object.keys(INTRINSICS)
        .filter((name) => used.has(`$${name}`))
        .map((name) => `$${name} = $.${name}`),
    ].join(", ")
    const constants = this.constants.map((_, i) => `k${i} = K[${i}]`)
    return [
      '"use strict";',
      `const ${intrinsics};`,
      constants.length > 0 ? `const ${constants.join(", ")};` : "",
      `return (${main});`,
    ].join("\n")
  }

  // ---------------------------------------------------------------------------------------------- helpers

  private uid(): number {
    return ++this.counter
  }

  /** A fresh temporary for the statement being compiled. */
  private temp(): string {
    const fn = this.fn
    const t = `t${fn.temps++}`
    if (fn.temps > fn.maxTemps) fn.maxTemps = fn.temps
    return t
  }

  /** A location id for `node`. */
  private site(node: Node): number {
    const start = node.loc?.start
    this.locations.push(start === undefined ? undefined : { line: start.line, column: start.column + 1 })
    return this.locations.length - 1
  }

  /** The name of a constant in the generated source. */
  private k(value: unknown): string {
    const key = typeof value === "string" ? value : undefined
    if (key !== undefined) {
      const known = this.constantNames.get(key)
      if (known !== undefined) return known
    }
    const name = `k${this.constants.length}`
    this.constants.push(value)
    if (key !== undefined) this.constantNames.set(key, name)
    return name
  }

  /** A property access for a string key: `.name` for plain identifiers, `[k3]` otherwise. */
  private prop(name: string): string {
    return IDENTIFIER.test(name) ? `.${name}` : `[${this.k(name)}]`
  }

  /** The JS variable holding a local (for a local in a cell, the cell). */
  private binding(v: VarInfo): string {
    let name = this.names.get(v)
    if (name === undefined) {
      name = `v${this.uid()}`
      this.names.set(v, name)
    }
    return name
  }

  /** The JS expression (an assignable one) reading a local. */
  private local(v: VarInfo): string {
    const name = this.binding(v)
    return this.gotos.cells.has(v) ? `${name}.v` : name
  }

  /** Code that declares (`let`) or, in a dispatch block, assigns a new local: a fresh cell for a local in one. */
  private initLocal(v: VarInfo, value: string): string {
    return this.gotos.cells.has(v) ? `${this.binding(v)} = { v: ${value} }` : `${this.binding(v)} = ${value}`
  }

  private fail(node: Node, message: string): never {
    const start = node.loc?.start
    throw new ParseFailure({
      kind: "ParseError",
      message: `${CHUNK_NAME}:${start?.line ?? 0}: ${message}`,
      ...(start ? { location: { line: start.line, column: start.column + 1 } } : {}),
    })
  }

  private use(node: Node): Resolution {
    return this.resolved.uses.get(node) ?? { kind: "global" }
  }

  private decl(node: Node): VarInfo {
    return this.resolved.declarations.get(node)!
  }

  /** How Lua names an expression in error messages: `" (local 'x')"`, `" (field 'n')"`, or "". */
  private describe(node: Node): string {
    switch (node.type) {
      case "Identifier":
        return ` (${this.use(node).kind} '${node.name}')`
      case "MemberExpression":
        return node.indexer === ":" ? ` (method '${node.identifier.name}')` : ` (field '${node.identifier.name}')`
      case "IndexExpression": {
        if (node.index.type === "StringLiteral") return ` (field '${node.index.value}')`
        // PUC Lua names a constant integer index from 0 to 255 "integer index", any other key "?".
        const k = this.constant(node.index)
        if (typeof k === "number" && Number.isSafeInteger(k) && k >= 0 && k <= 255)
          return k === 0 ? " (field 'integer index'); Lua arrays start at 1, so t[0] is nil" : " (field 'integer index')"
        return " (field '?')"
      }
      case "StringLiteral": {
        // PUC Lua prints the constant as a C string: up to its first zero byte.
        const text = node.value as string
        const zero = text.indexOf("\0")
        return ` (constant '${zero < 0 ? text : text.slice(0, zero)}')`
      }
      case "LogicalExpression": {
        // Lua folds `K and e` (K a true constant) and `K or e` (K nil or false) to `e` when it compiles them.
        const k = this.folded(node.left)
        if (k === NOT_CONSTANT) return ""
        const truthy = k !== undefined && k !== false
        return (node.operator === "and") === truthy ? this.describe(node.right) : ""
      }
      default:
        return ""
    }
  }

  /** The value of a literal node, or `NOT_CONSTANT`. */
  private constant(node: Node): LuaValue | typeof NOT_CONSTANT {
    switch (node.type) {
      case "UnaryExpression":
        return node.operator === "-" && node.argument.type === "NumericLiteral"
          ? arith(Op.Unm, this.number(node.argument), 0, 0)
          : NOT_CONSTANT
      case "NumericLiteral":
        return this.number(node)
      case "StringLiteral":
        return needsOwnDecoding(node.raw as string)
          ? decodeStringLiteral(this.source.slice(node.range![0], node.range![1]))
          : (node.value as string)
      case "BooleanLiteral":
        return node.value as boolean
      case "NilLiteral":
        return undefined
      default:
        return NOT_CONSTANT
    }
  }

  /**
   * The value of an expression PUC Lua's compiler folds to a constant: literals, `not` of one, and arithmetic on
   * numerals that it can do safely (no division by zero, bitwise operands with integer values, results neither NaN
   * nor a float zero). Used only to name operands in messages as PUC Lua does.
   */
  private folded(node: Node): LuaValue | typeof NOT_CONSTANT {
    if (node.type !== "UnaryExpression") {
      const c = this.constant(node)
      if (c !== NOT_CONSTANT) return c
    } else {
      const v = this.folded(node.argument)
      if (v === NOT_CONSTANT) return NOT_CONSTANT
      if (node.operator === "not") return v === undefined || v === false
      if (!isNumeral(v) || node.operator === "#") return NOT_CONSTANT
      return foldArith(node.operator === "-" ? Op.Unm : Op.BNot, v, v)
    }
    if (node.type === "BinaryExpression") {
      const op = ARITH_OPS.get(node.operator)
      if (op === undefined) return NOT_CONSTANT
      const a = this.folded(node.left)
      const b = this.folded(node.right)
      if (!isNumeral(a) || !isNumeral(b)) return NOT_CONSTANT
      return foldArith(op, a, b)
    }
    return NOT_CONSTANT
  }

  private number(node: Node): LuaValue {
    // The program's own text: luaparse may have read a rewritten one (see literals.ts).
    const n = stringToNumber(this.source.slice(node.range![0], node.range![1]))
    return n === undefined ? (node.value as number) : n
  }

  /** A constant as source: plain JS numbers inline, everything else through the constants array. */
  private literal(v: LuaValue): string {
    if (v === undefined) return "undefined"
    if (typeof v === "boolean") return v ? "true" : "false"
    if (typeof v === "number" && Number.isFinite(v) && !Object.is(v, -0)) return `(${v})`
    return this.k(v)
  }

  /** True for calls and `...`, which yield several values when not parenthesised. */
  private isMulti(node: Node, ownParen = -1): boolean {
    const t = node.type
    return (
      (t === "CallExpression" ||
        t === "StringCallExpression" ||
        t === "TableCallExpression" ||
        t === "VarargLiteral") &&
      !this.parens.isParenthesised(node, ownParen)
    )
  }

  /**
   * True for what PUC Lua reads from a register when an instruction runs: the running function's locals, constants
   * and `...`. An operator reads such an operand after evaluating the other (`a + f()` sees what `f` did to `a`),
   * while upvalues, globals and fields are loaded where they appear.
   */
  private register(node: Node): boolean {
    if (node.type === "Identifier") return this.use(node).kind === "local"
    return node.type === "VarargLiteral" || this.constant(node) !== NOT_CONSTANT
  }

  /** True when nothing can change the node's value: locals no closure captures, constants and `...`. */
  private unchangeable(node: Node): boolean {
    if (node.type === "Identifier") {
      const r = this.use(node)
      return r.kind === "local" && !r.v.captured
    }
    return node.type === "VarargLiteral" || this.constant(node) !== NOT_CONSTANT
  }

  /** An operand of an operator: registers are read in place (see {@link register}), anything else once, into a temporary. */
  private hold(node: Node): Held {
    const code = this.expr(node)
    return this.register(node) ? { setup: "", ref: code } : this.holdCode(code)
  }

  /**
   * A value copied where it appears, as PUC Lua copies a callee, call arguments and concatenation operands into
   * consecutive registers: only what nothing can change is used in place.
   */
  private copy(node: Node): Held {
    const code = this.expr(node)
    return this.unchangeable(node) ? { setup: "", ref: code } : this.holdCode(code)
  }

  /** Evaluate already generated code once, into a temporary. */
  private holdCode(code: string): Held {
    const t = this.temp()
    return { setup: `${t} = ${code}`, ref: t }
  }

  // ---------------------------------------------------------------------------------------------- functions

  /**
   * A Lua function as a JS function expression. A fixed-parameter function whose parameters no closure captures,
   * and whose body calls itself in a tail position, runs its body in a loop: such a call reassigns the parameters and
   * starts the next pass, so it does not grow the call depth (other calls are unchanged).
   */
  private functionBody(
    params: Array<VarInfo>,
    vararg: boolean,
    body: ReadonlyArray<Node>,
    self: SelfName | undefined = undefined,
  ): string {
    const outerFn = this.fn
    const outerBlock = this.block
    const names = params.map((p) => this.local(p))
    const loopable = self !== undefined && !vararg && params.every((p) => !p.captured)
    const jsName = `F${this.uid()}`
    this.fn = {
      temps: 0,
      maxTemps: 0,
      loops: [],
      self,
      loop: loopable ? { name: jsName, params: names } : undefined,
      looped: false,
    }
    this.block = undefined
    if (vararg) names.push("...va")
    let code = this.blockOf(body)
    if (this.fn.looped) code = `T${jsName}: for (;;) {\n${code}\nrt.depth--;\nreturn $EMPTY;\n}`
    const temps = Array.from({ length: this.fn.maxTemps }, (_, i) => `t${i}`)
    this.fn = outerFn
    this.block = outerBlock
    return [
      `function ${jsName}(${names.join(", ")}) {`,
      `if (++rt.depth > ${MAX_CALL_DEPTH}) throw $callDepthError(rt.site);`,
      "$callSites[rt.depth] = rt.site;",
      "if (--rt.budget <= 0) $meter(rt.site);",
      temps.length > 0 ? `let ${temps.join(", ")};` : "",
      code,
      "rt.depth--;",
      "return $EMPTY;",
      "}",
    ].join("\n")
  }

  private closure(node: Node, self?: SelfName): string {
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
  private tailCall(node: Node): string | undefined {
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

  // ---------------------------------------------------------------------------------------------- blocks

  /** A block's statements; `tail` is code to run at its end, inside the scope of its locals. */
  private blockOf(body: ReadonlyArray<Node>, tail = ""): string {
    const plan = this.gotos.blocks.get(body)
    const ctx: BlockCtx = { parent: this.block, plan, index: 0, hoisted: [] }
    this.block = ctx
    const codes = body.map((s, i) => {
      ctx.index = i
      return this.statement(s)
    })
    this.block = ctx.parent
    if (plan === undefined) return codes.join("\n") + (tail === "" ? "" : "\n" + tail)
    if (plan.layout === "nested") return this.nested(plan.intervals, codes, tail)
    return this.dispatch(ctx, plan, codes, tail, body)
  }

  /**
   * A block whose gotos cannot be expressed by nesting: `switch` on the jump target inside a loop, re-entered by
   * `continue`. Its locals live outside the loop (those in cells get a new cell at each declaration).
   */
  private dispatch(ctx: BlockCtx, plan: BlockPlan, codes: Array<string>, tail: string, body: ReadonlyArray<Node>) {
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
  private nested(intervals: ReadonlyArray<Interval>, codes: Array<string>, tail: string): string {
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

  // ---------------------------------------------------------------------------------------------- statements

  /** Look at the deadline every few thousand nodes. */
  private tick(): void {
    if (++this.work >= 2048) {
      this.work = 0
      if (Date.now() > this.deadline) throw compileTimeout()
    }
  }

  private statement(s: Node): string {
    this.tick()
    this.fn.temps = 0
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
      case "WhileStatement": {
        const label = `L${this.uid()}`
        const test = this.test(s.condition)
        const site = this.site(s)
        this.fn.loops.push(label)
        const body = this.blockOf(s.body)
        this.fn.loops.pop()
        return `${label}: while (${test}) {\n${charge(site)}\n${body}\n}`
      }
      case "RepeatStatement": {
        const label = `L${this.uid()}`
        const site = this.site(s)
        this.fn.loops.push(label)
        // The condition sees the body's locals: it runs at the end of the body's block.
        const body = this.blockOf(s.body, `if (${this.test(s.condition)}) break ${label};`)
        this.fn.loops.pop()
        return `${label}: for (;;) {\n${charge(site)}\n${body}\n}`
      }
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

  private gotoStatement(s: Node): string {
    const { label, plan, forward } = this.gotos.targets.get(s)!
    const jump = plan.layout === "dispatch" ? `${plan.pc} = ${label.index + 1}; continue ${plan.loop};` : undefined
    if (forward) return jump ?? `break F${label.uid};`
    return `${charge(this.site(s))} ${jump ?? `continue B${label.uid};`}`
  }

  private localStatement(s: Node): string {
    const vars: Array<VarInfo> = s.variables.map((v: Node) => this.decl(v))
    const init: ReadonlyArray<Node> = s.init
    const values = this.adjusted(init, vars.length)
    return `${values.setup}${this.declare(vars)}${vars.map((v, i) => this.initLocal(v, values.refs[i])).join(", ")};`
  }

  /** The start of a declaration of the block's new locals: `let `, or nothing when a dispatch block hoists them. */
  private declare(vars: Array<VarInfo>): string {
    const block = this.block
    if (block?.plan?.layout !== "dispatch") return "let "
    for (const v of vars) block.hoisted.push({ v, at: block.index })
    return ""
  }

  /**
   * Evaluate an expression list adjusted to exactly `n` values: `setup` statements run first (in order), then
   * `refs[i]` reads value `i` (for more than one value, from a temporary). Extra expressions are evaluated for their
   * effects.
   */
  private adjusted(nodes: ReadonlyArray<Node>, n: number): { setup: string; refs: Array<string> } {
    const last = nodes.length - 1
    const multiTail = last >= 0 && last < n - 1 && this.isMulti(nodes[last])
    const refs: Array<string> = []
    let setup = ""
    if (n === 1 && nodes.length === 1) refs.push(this.expr(nodes[0]))
    else
      nodes.forEach((node, i) => {
        if (i === last && multiTail) {
          const r = this.temp()
          setup += `${r} = ${this.multi(node)};\n`
          for (let j = 0; last + j < n; j++) refs.push(`$nth(${r}, ${j})`)
          return
        }
        const code = this.expr(node)
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

  private assignment(s: Node): string {
    const targets: ReadonlyArray<Node> = s.variables
    const init: ReadonlyArray<Node> = s.init
    if (targets.length === 1 && init.length === 1) return this.store(targets[0], this.expr(init[0]), false)
    // General case: evaluate the targets' tables and keys, then the values, then assign from the last. A local
    // table or key is read when storing, unless another target assigns that local (then, as PUC Lua does, its value
    // is copied first).
    const assigned = new Set(
      targets.flatMap((t) => {
        const r = t.type === "Identifier" ? this.use(t) : undefined
        return r !== undefined && r.kind !== "global" ? [r.v] : []
      }),
    )
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
    const values = this.adjusted(init, targets.length)
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
  private store(t: Node, value: string, held: boolean): string {
    if (t.type === "Identifier") {
      const r = this.use(t)
      if (r.kind !== "global") return `${this.local(r.v)} = ${value};`
      const name = t.name as string
      const site = this.site(t)
      const v = held ? value : this.temp()
      const setup = held ? "" : `${v} = ${value};\n`
      const p = this.prop(name)
      return `${setup}if (${v} !== undefined && G${p} !== undefined) G${p} = ${v}; else $setGlobal(GT, ${this.k(name)}, ${v}, ${site});`
    }
    // Lua evaluates the table and key expressions, then the value; a local table or key is read when storing.
    const site = this.site(t)
    const desc = this.k(this.describe(t.base))
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
        `if (${o} instanceof $LuaTable && (${h} = ${o}.fields) !== undefined && ${h}${p} !== undefined && ${v} !== undefined) ${h}${p} = ${v};`,
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

  private functionStatement(s: Node): string {
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

  private returnStatement(s: Node): string {
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

  private ifStatement(s: Node): string {
    const out: Array<string> = []
    ;(s.clauses as ReadonlyArray<Node>).forEach((c, i) => {
      const body = this.blockOf(c.body)
      if (c.type === "ElseClause") out.push(`else {\n${body}\n}`)
      else out.push(`${i === 0 ? "if" : "else if"} (${this.test(c.condition)}) {\n${body}\n}`)
    })
    return out.join("\n")
  }

  private forNumeric(s: Node): string {
    const label = `L${this.uid()}`
    const site = this.site(s)
    const start = this.expr(s.start)
    const limit = this.expr(s.end)
    const step = s.step ? this.expr(s.step) : "1"
    const v = this.local(this.decl(s.variable))
    const [m, i, lim, st, big] = [0, 1, 2, 3, 4].map(() => `f${this.uid()}`)
    this.fn.loops.push(label)
    const body = this.blockOf(s.body)
    this.fn.loops.pop()
    return [
      `{ const ${m} = $forPrep(${start}, ${limit}, ${step}, ${site});`,
      `let ${i} = $FP.i; const ${lim} = $FP.lim, ${st} = $FP.step, ${big} = $FP.big;`,
      `${label}: for (; ${m} < 2 ? (${st} > 0 ? ${i} <= ${lim} : ${i} >= ${lim}) : ${big}.more(); ${i} += ${st}) {`,
      charge(site),
      `let ${v} = ${m} === 0 ? ${i} : ${m} === 1 ? $makeFloat(${i}) : ${big}.value;`,
      body,
      "} }",
    ].join("\n")
  }

  private forGeneric(s: Node): string {
    const label = `L${this.uid()}`
    const site = this.site(s)
    const iterators: ReadonlyArray<Node> = s.iterators
    const it = `f${this.uid()}`
    let setup = ""
    let start: string
    if (iterators.length === 1 && this.isMulti(iterators[0]))
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
    return [
      `{ ${setup}const ${it} = ${start};`,
      `${label}: while (${it}.more()) {`,
      charge(site),
      `let ${bindings.join(", ")};`,
      body,
      "} }",
    ].join("\n")
  }

  // ---------------------------------------------------------------------------------------------- expressions

  /** An expression in a single-value position. */
  private expr(node: Node): string {
    this.tick()
    switch (node.type) {
      case "NilLiteral":
      case "BooleanLiteral":
      case "NumericLiteral":
      case "StringLiteral":
        return this.literal(this.constant(node) as LuaValue)
      case "VarargLiteral":
        return "va[0]"
      case "FunctionDeclaration":
        return this.closure(node)
      case "Identifier":
        return this.name(node)
      case "MemberExpression":
        return this.field(this.expr(node.base), node.identifier.name, this.site(node), this.describe(node.base))
      case "IndexExpression":
        return this.indexExpression(node)
      case "CallExpression":
      case "StringCallExpression":
      case "TableCallExpression":
        return this.call(node, true)
      case "TableConstructorExpression":
        return this.table(node)
      case "LogicalExpression":
        return this.logical(node)
      case "BinaryExpression":
        return this.binary(node)
      case "UnaryExpression":
        return this.unary(node)
      default:
        return this.fail(node, `unsupported expression ${node.type}`)
    }
  }

  /** An expression in a multi-value position (the caller checked {@link isMulti}): one value or a JS array. */
  private multi(node: Node): string {
    if (node.type === "VarargLiteral") return "va"
    return this.call(node, false)
  }

  /** An expression list as a fresh JS array (the last expression may contribute several values). */
  private list(nodes: ReadonlyArray<Node>, ownParen = -1): string {
    const last = nodes.length - 1
    const tail = last >= 0 && this.isMulti(nodes[last], last === 0 ? ownParen : -1)
    const fixed = (tail ? nodes.slice(0, last) : nodes).map((n) => this.expr(n))
    if (!tail) return `[${fixed.join(", ")}]`
    return `$spread([${fixed.join(", ")}], ${this.multi(nodes[last])})`
  }

  private name(node: Node): string {
    const r = this.use(node)
    if (r.kind !== "global") return this.local(r.v)
    const name = node.name as string
    const absent = ABSENT.get(name)
    if (absent !== undefined) return `$absentGlobal(G${this.prop(name)}, ${this.k(absent)}, ${this.site(node)})`
    return `G${this.prop(name)}`
  }

  /** `base.name` for generated base code. */
  private field(base: string, name: string, site: number, desc: string): string {
    const t = this.temp()
    const h = this.temp()
    const v = this.temp()
    return `((${t} = ${base}) instanceof $LuaTable && (${h} = ${t}.fields) !== undefined && (${v} = ${h}${this.prop(name)}) !== undefined ? ${v} : $fieldMiss(${t}, ${this.k(name)}, ${site}, ${this.k(desc)}))`
  }

  private indexExpression(node: Node): string {
    const site = this.site(node)
    const desc = this.describe(node.base)
    const k = this.constant(node.index)
    if (typeof k === "string") return this.field(this.expr(node.base), k, site, desc)
    const t = this.temp()
    const i = this.temp()
    if (typeof k === "number" && Number.isSafeInteger(k) && k >= 1 && k <= 2 ** 31)
      return `((${t} = ${this.expr(node.base)}) instanceof $LuaTable && ${k - 1} < ${t}.arr.length ? ${t}.arr[${k - 1}] : $indexAny(${t}, ${k}, ${site}, ${this.k(desc)}))`
    const obj = this.hold(node.base)
    const key = this.hold(node.index)
    const o = obj.ref
    return `(${[obj.setup, key.setup]
      .filter((x) => x !== "")
      .map((x) => x + ", ")
      .join(
        "",
      )}${o} instanceof $LuaTable && typeof ${key.ref} === "number" && (${i} = ${key.ref} - 1) >>> 0 === ${i} && ${i} < ${o}.arr.length ? ${o}.arr[${i}] : $indexAny(${o}, ${key.ref}, ${site}, ${this.k(desc)}))`
  }

  /**
   * A call. `single` truncates the results to one value; otherwise the raw result (one value or a JS array) is
   * the expression's value. Lua evaluates the callee, then the arguments, then calls: values that a call in the
   * arguments could change are held in temporaries first.
   */
  private call(node: Node, single: boolean): string {
    const site = this.site(node)
    let argNodes: ReadonlyArray<Node>
    let ownParen = -1
    if (node.type === "StringCallExpression") argNodes = [node.argument]
    else if (node.type === "TableCallExpression") argNodes = [node.arguments]
    else {
      argNodes = node.arguments
      ownParen = this.parens.after(node.base.range[1])
    }
    const base: Node = node.base
    const last = argNodes.length - 1
    const spread = last >= 0 && this.isMulti(argNodes[last], last === 0 ? ownParen : -1)
    let code: string
    if (base.type === "MemberExpression" && base.indexer === ":")
      code = this.methodCall(base, argNodes, spread, ownParen, site)
    else {
      const desc = this.k(this.describe(base))
      const callee = this.copy(base)
      if (spread) {
        const a = this.temp()
        code = seq(
          callee.setup,
          `${a} = ${this.list(argNodes, ownParen)}`,
          `rt.site = ${site}`,
          `typeof ${callee.ref} === "function" ? ${callee.ref}.apply(undefined, ${a}) : $callFail(${callee.ref}, ${desc}, ${site})`,
        )
      } else {
        const args = argNodes.map((a) => this.copy(a))
        code = seq(
          callee.setup,
          ...args.map((a) => a.setup),
          `rt.site = ${site}`,
          `typeof ${callee.ref} === "function" ? ${callee.ref}(${args.map((a) => a.ref).join(", ")}) : $callFail(${callee.ref}, ${desc}, ${site})`,
        )
      }
    }
    return single ? `$first(${code})` : code
  }

  private methodCall(
    base: Node,
    argNodes: ReadonlyArray<Node>,
    spread: boolean,
    ownParen: number,
    site: number,
  ): string {
    const name = base.identifier.name as string
    const desc = this.k(` (method '${name}')`)
    const o = this.temp()
    const h = this.temp()
    const fn = this.temp()
    const lookup = `${o} = ${this.expr(base.base)}, ${fn} = ${o} instanceof $LuaTable && (${h} = ${o}.fields) !== undefined && (${fn} = ${h}${this.prop(name)}) !== undefined ? ${fn} : $method(${o}, ${this.k(name)}, ${site}, ${this.k(this.describe(base.base))})`
    if (spread) {
      const a = this.temp()
      return seq(
        lookup,
        `${a} = ${this.list(argNodes, ownParen)}`,
        `${a}.unshift(${o})`,
        `rt.site = ${site}`,
        `typeof ${fn} === "function" ? ${fn}.apply(undefined, ${a}) : $callFail(${fn}, ${desc}, ${site})`,
      )
    }
    const args = argNodes.map((a) => this.copy(a))
    return seq(
      lookup,
      ...args.map((a) => a.setup),
      `rt.site = ${site}`,
      `typeof ${fn} === "function" ? ${fn}(${[o, ...args.map((a) => a.ref)].join(", ")}) : $callFail(${fn}, ${desc}, ${site})`,
    )
  }

  private table(node: Node): string {
    const fields: ReadonlyArray<Node> = node.fields
    const site = this.site(node)
    if (fields.length === 0) return "new $LuaTable()"
    const positional = fields.filter((x) => x.type === "TableValue")
    if (positional.length === fields.length) return `$arrayTable(${this.list(positional.map((x) => x.value))}, ${site})`
    const names = fields.map((x) => (x.type === "TableKeyString" ? (x.key.name as string) : ""))
    if (
      positional.length === 0 &&
      fields.every((x) => x.type === "TableKeyString") &&
      new Set(names).size === names.length
    ) {
      // A record with distinct names: fill the string-keyed part directly, skipping nil values.
      const o = this.temp()
      const count = this.temp()
      const v = this.temp()
      const parts = fields.map((x, i) => {
        const p = this.prop(names[i])
        const c = this.constant(x.value)
        if (c !== NOT_CONSTANT) return c === undefined ? "" : `${o}${p} = ${this.literal(c)}, ${count}++`
        return `(${v} = ${this.expr(x.value)}) !== undefined && (${o}${p} = ${v}, ${count}++)`
      })
      return seq(`${o} = new $Fields()`, `${count} = 0`, ...parts, `$recordTable(${o}, ${count})`)
    }
    // General: keyed fields in order, positional items collected and stored last (as Lua's SETLIST does).
    const t = this.temp()
    const items = this.temp()
    const parts = fields.map((x, i) => {
      if (x.type === "TableKeyString") return `$tableSet(${t}, ${this.k(x.key.name)}, ${this.expr(x.value)}, ${site})`
      if (x.type === "TableKey") {
        const key = this.holdCode(this.expr(x.key))
        return `${key.setup}, $tableSet(${t}, ${key.ref}, ${this.expr(x.value)}, ${site})`
      }
      if (i === fields.length - 1 && this.isMulti(x.value)) return `$spread(${items}, ${this.multi(x.value)})`
      return `${items}.push(${this.expr(x.value)})`
    })
    return seq(`${t} = new $LuaTable()`, `${items} = []`, ...parts, `$tableItems(${t}, ${items}, ${site})`)
  }

  private logical(node: Node): string {
    const t = this.temp()
    const a = this.expr(node.left)
    const b = this.expr(node.right)
    return node.operator === "and"
      ? `((${t} = ${a}) === undefined || ${t} === false ? ${t} : ${b})`
      : `((${t} = ${a}) !== undefined && ${t} !== false ? ${t} : ${b})`
  }

  /** A condition, as a JS boolean expression. */
  private test(node: Node): string {
    if (node.type === "BinaryExpression" && COMPARISONS.has(node.operator)) return this.comparison(node)
    if (node.type === "UnaryExpression" && node.operator === "not") return `!${this.test(node.argument)}`
    if (node.type === "LogicalExpression")
      return `(${this.test(node.left)} ${node.operator === "and" ? "&&" : "||"} ${this.test(node.right)})`
    const c = this.constant(node)
    if (c !== NOT_CONSTANT) return c === undefined || c === false ? "false" : "true"
    const v = this.hold(node)
    return seq(v.setup, `${v.ref} !== undefined && ${v.ref} !== false`)
  }

  /** Both operands of a binary operator, each evaluated once, left first (`copied` for concatenation). */
  private operands(node: Node, copied = false): [string, Held, Held] {
    const a = copied ? this.copy(node.left) : this.hold(node.left)
    const b = copied ? this.copy(node.right) : this.hold(node.right)
    return [a.setup === "" && b.setup === "" ? "" : [a.setup, b.setup].filter((x) => x !== "").join(", "), a, b]
  }

  private comparison(node: Node): string {
    const op = node.operator as string
    const site = this.site(node)
    const [setup, a, b] = this.operands(node)
    const ca = this.constant(node.left)
    const cb = this.constant(node.right)
    if (op === "==" || op === "~=") {
      const identity = [ca, cb].some(
        (c) => c !== NOT_CONSTANT && (c === undefined || typeof c === "string" || typeof c === "boolean"),
      )
      const eq = identity ? `${a.ref} === ${b.ref}` : `$luaEq(${a.ref}, ${b.ref})`
      return seq(setup, op === "==" ? eq : `!(${eq})`)
    }
    const numeric = (c: LuaValue | typeof NOT_CONSTANT, ref: string) =>
      typeof c === "number" ? "" : `typeof ${ref} === "number"`
    const checks = [numeric(ca, a.ref), numeric(cb, b.ref)].filter((x) => x !== "").join(" && ") || "true"
    const slow =
      op === "<"
        ? `$lessThan(${a.ref}, ${b.ref}, ${site})`
        : op === "<="
          ? `$lessEqual(${a.ref}, ${b.ref}, ${site})`
          : op === ">"
            ? `$lessThan(${b.ref}, ${a.ref}, ${site})`
            : `$lessEqual(${b.ref}, ${a.ref}, ${site})`
    return seq(setup, `${checks} ? ${a.ref} ${op} ${b.ref} : ${slow}`)
  }

  private binary(node: Node): string {
    const op = node.operator as string
    if (COMPARISONS.has(op)) return this.comparison(node)
    if (op === "..") return this.concat(node)
    const code = ARITH_OPS.get(op)
    if (code === undefined) return this.fail(node, `unsupported operator ${op}`)
    const site = this.site(node)
    const [setup, a, b] = this.operands(node)
    const slow = `$arith(${code}, ${a.ref}, ${b.ref}, ${site}, ${this.k(this.describe(node.left))}, ${this.k(this.describe(node.right))})`
    const ca = this.constant(node.left)
    const cb = this.constant(node.right)
    const numbers =
      [
        typeof ca === "number" ? "" : `typeof ${a.ref} === "number"`,
        typeof cb === "number" ? "" : `typeof ${b.ref} === "number"`,
      ]
        .filter((x) => x !== "")
        .join(" && ") || "true"
    const int32 = `${numbers} && (${a.ref} | 0) === ${a.ref} && (${b.ref} | 0) === ${b.ref}`
    switch (code) {
      case Op.Add:
        return seq(setup, `${numbers} ? $addNN(${a.ref}, ${b.ref}) : ${slow}`)
      case Op.Sub:
        return seq(setup, `${numbers} ? $subNN(${a.ref}, ${b.ref}) : ${slow}`)
      case Op.Mul:
        return seq(setup, `${numbers} ? $mulNN(${a.ref}, ${b.ref}) : ${slow}`)
      case Op.Div:
        return seq(setup, `${numbers} ? $divNN(${a.ref}, ${b.ref}) : ${slow}`)
      case Op.Pow:
        return seq(setup, `${numbers} ? $powNN(${a.ref}, ${b.ref}) : ${slow}`)
      case Op.Mod:
      case Op.IDiv: {
        const r = this.temp()
        const fn = code === Op.Mod ? "$modNN" : "$idivNN"
        return seq(setup, `${numbers} && (${r} = ${fn}(${a.ref}, ${b.ref})) !== undefined ? ${r} : ${slow}`)
      }
      case Op.BAnd:
        return seq(setup, `${int32} ? ${a.ref} & ${b.ref} : ${slow}`)
      case Op.BOr:
        return seq(setup, `${int32} ? ${a.ref} | ${b.ref} : ${slow}`)
      case Op.BXor:
        return seq(setup, `${int32} ? ${a.ref} ^ ${b.ref} : ${slow}`)
      default:
        return seq(setup, slow)
    }
  }

  /** `a .. b .. c`: right-associative chains are flattened and concatenated in one go. */
  private concat(node: Node): string {
    const operands: Array<Node> = []
    let n: Node = node
    for (;;) {
      operands.push(n.left)
      const right: Node = n.right
      if (right.type !== "BinaryExpression" || right.operator !== ".." || this.parens.isParenthesised(right)) {
        operands.push(right)
        break
      }
      n = right
    }
    const site = this.site(node)
    const descs = operands.map((o) => this.describe(o))
    if (operands.length === 2) {
      const [setup, a, b] = this.operands(
        { type: "BinaryExpression", left: operands[0], right: operands[1] } as Node,
        true,
      )
      return seq(
        setup,
        `typeof ${a.ref} === "string" && typeof ${b.ref} === "string" ? $cat(${a.ref}, ${b.ref}, ${site}) : $concatPair(${a.ref}, ${b.ref}, ${site}, ${this.k(descs[0])}, ${this.k(descs[1])})`,
      )
    }
    return `$concatMany([${operands.map((o) => this.expr(o)).join(", ")}], ${this.k(descs)}, ${site})`
  }

  private unary(node: Node): string {
    const op = node.operator as string
    if (op === "not") return `!${this.test(node.argument)}`
    const site = this.site(node)
    if (op === "-" && node.argument.type === "NumericLiteral")
      return this.literal(arith(Op.Unm, this.number(node.argument), 0, site))
    const v = this.hold(node.argument)
    const d = this.k(this.describe(node.argument))
    switch (op) {
      case "-":
        return seq(
          v.setup,
          `typeof ${v.ref} === "number" ? (Number.isSafeInteger(${v.ref}) ? 0 - ${v.ref} : -${v.ref}) : $arith(${Op.Unm}, ${v.ref}, ${v.ref}, ${site}, ${d}, ${d})`,
        )
      case "#":
        return seq(
          v.setup,
          `${v.ref} instanceof $LuaTable ? (${v.ref}.arr.length > 0 ? ${v.ref}.arr.length : $objectLength(${v.ref}, ${site})) : typeof ${v.ref} === "string" ? ${v.ref}.length : $length(${v.ref}, ${site}, ${d})`,
        )
      default:
        return seq(
          v.setup,
          `typeof ${v.ref} === "number" && (${v.ref} | 0) === ${v.ref} ? ~${v.ref} : $arith(${Op.BNot}, ${v.ref}, ${v.ref}, ${site}, ${d}, ${d})`,
        )
    }
  }
}
