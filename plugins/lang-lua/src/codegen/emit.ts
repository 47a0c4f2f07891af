/**
 * The code generator's foundation, where the safety rule lives: no program text reaches the generated source.
 * Locals, temporaries, labels and constants get numbered names (`v12`, `t3`, `L4`, `k5`); strings, error
 * descriptions and unusual numbers are passed in a constants array ({@link Emitter.k}); the only words copied from
 * the program are field and global names that are plain identifiers (`[A-Za-z_][A-Za-z0-9_]*`), and only as
 * property names after a dot ({@link Emitter.prop}). `test/lua-codegen.test.ts` checks it with hostile programs.
 *
 * Also here: how operands are evaluated (PUC Lua's register order: {@link Emitter.hold}, {@link Emitter.copy}),
 * constants and the constant folding PUC Lua does, and how Lua names a value in an error (`(local 'x')`).
 */
import type { Node } from "luaparse"
import { decodeStringLiteral, needsOwnDecoding } from "../literals.js"
import { arith, type LuaNumber, Op, stringToNumber, toIntegerExact } from "../numbers.js"
import { compileTimeout, ParenFinder, ParseFailure, type Parsed } from "../parse.js"
import { CHUNK_NAME, type Locations } from "../runtime.js"
import { type BlockPlan, type GotoPlan, planGotos } from "../gotos.js"
import { resolution, resolve, type Resolution, type Resolved, type VarInfo } from "../scope.js"
import { LuaFloat, type LuaValue, toDouble } from "../value.js"

/** Compile-time context of one block. */
export interface BlockCtx {
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
export interface FnCtx {
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
  /** The pass counter of its tiered loops (see `Generator.tierUp`), declared with its temporaries: none or one. */
  readonly counters: Array<string>
}

/** The name a function has in its own body: the local (`local function f`) or the global (`function f`). */
export type SelfName = { readonly v: VarInfo } | { readonly global: string }

/** A value evaluated once: `setup` (a comma-expression part, or "") stores it, `ref` reads it. */
export type Held = { readonly setup: string; readonly ref: string }

export const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/
export const COMPARISONS = new Set(["==", "~=", "<", "<=", ">", ">="])
export const ARITH_OPS = new Map<string, Op>([
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
export const NOT_CONSTANT: unique symbol = Symbol("not a constant")

export const isNumeral = (v: unknown): v is LuaNumber =>
  typeof v === "number" || typeof v === "bigint" || v instanceof LuaFloat

/** `a op b` as PUC Lua's `constfolding` does it, or `NOT_CONSTANT` where it does not fold. */
export const foldArith = (op: Op, a: LuaNumber, b: LuaNumber): LuaValue | typeof NOT_CONSTANT => {
  const bitwise = op === Op.BAnd || op === Op.BOr || op === Op.BXor || op === Op.Shl || op === Op.Shr || op === Op.BNot
  if (bitwise && (toIntegerExact(a) === undefined || toIntegerExact(b) === undefined)) return NOT_CONSTANT
  if ((op === Op.Div || op === Op.IDiv || op === Op.Mod) && toDouble(b) === 0) return NOT_CONSTANT
  const r = arith(op, a, b, 0)
  if (typeof r === "number" && !Number.isSafeInteger(r) && (r !== r || r === 0)) return NOT_CONSTANT
  if (r instanceof LuaFloat && r.n === 0) return NOT_CONSTANT
  return r
}

/**
 * From this source size on (in bytes), a program is compiled compact: operations call their intrinsic (which handles
 * every case) instead of inlining the common case. The generated source is several times smaller, so a program near
 * the source bound compiles in a fraction of the time; the small programs that run hot loops keep the inline paths.
 * A smaller program is compact only where its code runs at most once a run (see `Generator.functionBody`).
 */
export const COMPACT_FROM = 64 * 1024

/**
 * How many loop passes (of all its loops together) the main function runs compact before a loop continues in its
 * hot function, compiled with inline paths when it gets there (see `Generator.tierUp`): a tool program's loops over
 * a tool's records mostly end before, and a program that loops longer has time to pay for a second compile.
 */
export const TIER_AFTER = 1000

/** How a {@link Emitter generator} compiles. */
export interface GeneratorOptions {
  /** Compile the main chunk's run-once code compact (the default; see `Generator.functionBody`). */
  readonly onceCompact?: boolean
  /** See {@link TIER_AFTER}. */
  readonly tierAfter?: number
  /** The sites' offsets to add to, when compiling part of a program compiled before (its hot loops). */
  readonly sites?: Array<number>
}

/** Join the non-empty parts of a comma expression. */
export const seq = (...parts: Array<string>): string => `(${parts.filter((p) => p !== "").join(", ")})`

/** The budget check at a loop back-edge or backward jump. */
export const charge = (site: number | string) => `if (--rt.budget <= 0) $meter(${site});`

/** The generator's state and the helpers every part of it uses. */
export abstract class Emitter {
  /** The byte offset of every site (id 0 is "unknown"), made into locations only when a run asks. */
  readonly offsets: Array<number>

  /** The source locations of the sites, by id. */
  readonly locations: Locations

  readonly constants: Array<unknown> = []

  protected readonly resolved: Resolved

  protected readonly gotos: GotoPlan

  protected readonly parens: ParenFinder
  protected readonly start: Parsed["start"]

  protected readonly source: string

  protected readonly names = new Map<VarInfo, string>()

  /** The string constants' indexes, by value. */
  protected readonly constantNames = new Map<string, number>()

  /** The constants the code generated since the last {@link takeConstants} uses, by index, in order of first use. */
  private usedConstants: Array<number> = []

  /** For each constant, the number of the last {@link takeConstants} round that saw it used. */
  private readonly constantRound: Array<number> = []

  private round = 0

  protected counter = 0

  protected block: BlockCtx | undefined

  protected fn!: FnCtx

  /** Compile operations as intrinsic calls here (see {@link COMPACT_FROM}): set per region as it is compiled. */
  protected compact: boolean

  /** The whole program is compiled compact (see {@link COMPACT_FROM}). */
  protected readonly large: boolean

  /** Nodes compiled since the last look at the deadline. */
  protected work = 0

  /** Compile the main chunk's run-once code compact (see `Generator.functionBody`). */
  protected readonly onceCompact: boolean

  /** After how many passes a compact loop of the main function continues in its hot function (see `Generator.tierUp`). */
  protected readonly tierAfter: number

  constructor(
    parsed: Parsed,
    private readonly deadline = Infinity,
    options: GeneratorOptions = {},
  ) {
    this.onceCompact = options.onceCompact ?? true
    this.tierAfter = options.tierAfter ?? TIER_AFTER
    this.offsets = options.sites ?? [0]
    this.resolved = resolve(parsed.chunk)
    this.gotos = planGotos(this.resolved, parsed.start)
    this.start = parsed.start
    this.parens = new ParenFinder(parsed.source)
    this.source = parsed.source
    this.large = parsed.source.length >= COMPACT_FROM
    this.compact = this.large
    const offsets = this.offsets
    const position = parsed.position
    this.locations = {
      at: (site) => {
        if (site <= 0 || site >= offsets.length) return undefined
        const { line, column } = position(offsets[site])
        return { line, column: column + 1 }
      },
    }
  }

  protected uid(): number {
    return ++this.counter
  }

  /** A fresh temporary for the statement being compiled. */
  protected temp(): string {
    const fn = this.fn
    const t = `t${fn.temps++}`
    if (fn.temps > fn.maxTemps) fn.maxTemps = fn.temps
    return t
  }

  /** A location id for `node`. */
  protected site(node: Node): number {
    this.offsets.push(node.range?.[0] ?? 0)
    return this.offsets.length - 1
  }

  /** The name of a constant in the generated source. */
  protected k(value: unknown): string {
    const key = typeof value === "string" ? value : undefined
    if (key !== undefined) {
      const known = this.constantNames.get(key)
      if (known !== undefined) {
        this.useConstant(known)
        return `k${known}`
      }
    }
    const index = this.constants.length
    this.constants.push(value)
    this.useConstant(index)
    if (key !== undefined) this.constantNames.set(key, index)
    return `k${index}`
  }

  private useConstant(index: number): void {
    if (this.constantRound[index] === this.round + 1) return
    this.constantRound[index] = this.round + 1
    this.usedConstants.push(index)
  }

  /** The constants the code generated since the last call uses (a factory binds only those). */
  protected takeConstants(): Array<number> {
    const used = this.usedConstants
    this.usedConstants = []
    this.round++
    return used
  }

  /** A property access for a string key: `.name` for plain identifiers, `[k3]` otherwise. */
  protected prop(name: string): string {
    return IDENTIFIER.test(name) ? `.${name}` : `[${this.k(name)}]`
  }

  /** The JS variable holding a local (for a local in a cell, the cell). */
  protected binding(v: VarInfo): string {
    let name = this.names.get(v)
    if (name === undefined) {
      name = `v${this.uid()}`
      this.names.set(v, name)
    }
    return name
  }

  /** The JS expression (an assignable one) reading a local. */
  protected local(v: VarInfo): string {
    const name = this.binding(v)
    return this.gotos.cells.has(v) ? `${name}.v` : name
  }

  /** Code that declares (`let`) or, in a dispatch block, assigns a new local: a fresh cell for a local in one. */
  protected initLocal(v: VarInfo, value: string): string {
    return this.gotos.cells.has(v) ? `${this.binding(v)} = { v: ${value} }` : `${this.binding(v)} = ${value}`
  }

  protected fail(node: Node, message: string): never {
    const start = this.start(node)
    throw new ParseFailure({
      kind: "ParseError",
      message: `${CHUNK_NAME}:${start.line}: ${message}`,
      location: { line: start.line, column: start.column + 1 },
    })
  }

  protected use(node: Node): Resolution {
    return resolution(node)
  }

  protected decl(node: Node): VarInfo {
    return this.resolved.declarations.get(node)!
  }

  /** Look at the deadline every few thousand nodes. */
  protected tick(): void {
    if (++this.work >= 2048) {
      this.work = 0
      if (Date.now() > this.deadline) throw compileTimeout()
    }
  }

  /** How Lua names an expression in error messages: `" (local 'x')"`, `" (field 'n')"`, or "". */
  protected describe(node: Node): string {
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
          return k === 0
            ? " (field 'integer index'); Lua arrays start at 1, so t[0] is nil"
            : " (field 'integer index')"
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
  protected constant(node: Node): LuaValue | typeof NOT_CONSTANT {
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
  protected folded(node: Node): LuaValue | typeof NOT_CONSTANT {
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

  protected number(node: Node): LuaValue {
    // The program's own text: luaparse may have read a rewritten one (see literals.ts).
    const n = stringToNumber(this.source.slice(node.range![0], node.range![1]))
    return n === undefined ? (node.value as number) : n
  }

  /** A constant as source: plain JS numbers inline, everything else through the constants array. */
  protected literal(v: LuaValue): string {
    if (v === undefined) return "undefined"
    if (typeof v === "boolean") return v ? "true" : "false"
    if (typeof v === "number" && Number.isFinite(v) && !Object.is(v, -0)) return `(${v})`
    return this.k(v)
  }

  /** True for calls and `...`, which yield several values when not parenthesised. */
  protected isMulti(node: Node, ownParen = -1): boolean {
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
  protected register(node: Node): boolean {
    if (node.type === "Identifier") return this.use(node).kind === "local"
    return node.type === "VarargLiteral" || this.constant(node) !== NOT_CONSTANT
  }

  /** True when nothing can change the node's value: locals no closure captures, constants and `...`. */
  protected unchangeable(node: Node): boolean {
    if (node.type === "Identifier") {
      const r = this.use(node)
      return r.kind === "local" && !r.v.captured
    }
    return node.type === "VarargLiteral" || this.constant(node) !== NOT_CONSTANT
  }

  /** An operand of an operator: registers are read in place (see {@link register}), anything else once, into a temporary. */
  protected hold(node: Node): Held {
    const code = this.expr(node)
    return this.register(node) ? { setup: "", ref: code } : this.holdCode(code)
  }

  /**
   * A value copied where it appears, as PUC Lua copies a callee, call arguments and concatenation operands into
   * consecutive registers: only what nothing can change is used in place.
   */
  protected copy(node: Node): Held {
    const code = this.expr(node)
    return this.unchangeable(node) ? { setup: "", ref: code } : this.holdCode(code)
  }

  /**
   * True when compact code can pass `nodes` to an intrinsic in place, as call arguments: JS evaluates them in order
   * and reads a local where it appears, so every operand but the last must be evaluated where it appears in Lua too
   * (not a register, see {@link register}) or be unchangeable.
   */
  protected inPlace(...nodes: Array<Node>): boolean {
    for (let i = 0; i < nodes.length - 1; i++) if (this.register(nodes[i]) && !this.unchangeable(nodes[i])) return false
    return true
  }

  /** Operands passed in place (see {@link inPlace}): their code, unheld. */
  protected placed(node: Node): Held {
    return { setup: "", ref: this.expr(node) }
  }

  /** Evaluate already generated code once, into a temporary. */
  protected holdCode(code: string): Held {
    const t = this.temp()
    return { setup: `${t} = ${code}`, ref: t }
  }

  /** An expression in a single-value position (see expressions.ts). */
  protected abstract expr(node: Node): string
}
