/**
 * The compiler: luaparse's syntax tree → a tree of JavaScript closures, built once per program.
 *
 * Every expression becomes `(frame) => value`, every statement `(frame) => signal` (0 to go on, or BREAK, RETURN,
 * GOTO). A frame is a JS array: slot 0 holds the running closure's upvalue cells, slot 1 its extra arguments, and
 * locals sit in the slots the resolver gave them (a {@link Cell} when an inner function captures them). Closures are
 * specialised by node shape (argument counts, constant operands) so the common paths do no allocation and no
 * dispatch. Work is charged at loop back-edges and calls.
 */
import type { Chunk, Node } from "luaparse"
import {
  arith,
  intAdd,
  normaliseKey,
  Op,
  stringToNumber,
  type LuaNumber,
} from "./numbers.js"
import {
  callError,
  concat2,
  concatValues,
  index,
  indexError,
  length,
  setIndex,
  stringMeta,
  tableFull,
} from "./ops.js"
import { arithmetic, arithmeticStore, comparison, ifCompare, type Operand } from "./operators.js"
import { ParenFinder, ParseFailure, type Parsed } from "./parse.js"
import type { Location } from "./protocol.js"
import {
  callDepthError,
  callSites,
  frames,
  checkStringLength,
  CHUNK_NAME,
  errorAt,
  MAX_CALL_DEPTH,
  meter,
  rt,
} from "./runtime.js"
import { Cell, resolve, type FnInfo, type Resolution, type Resolved, type UpvalueSource, type VarInfo } from "./scope.js"
import { Fields, LuaFloat, LuaTable, MAX_TABLE_ENTRIES, typeName, type LuaFunction, type LuaValue } from "./value.js"

/* eslint-disable @typescript-eslint/no-explicit-any */
type Frame = Array<any>
/** An expression yielding one value. */
type Ev = (f: Frame) => LuaValue
/** An expression in a multi-value position: one value, or a JS array of values. */
type EvM = (f: Frame) => LuaValue | Array<LuaValue>
/** A statement: returns a completion signal. */
type Ex = (f: Frame) => number
/** A condition. */
type Test = (f: Frame) => boolean

const NORMAL = 0
const BREAK = 1
const RETURN = 2
const GOTO = 3

/** The result of a function that returns nothing. */
export const EMPTY: Array<LuaValue> = Object.freeze([]) as unknown as Array<LuaValue>

/** What compiled code needs from the standard library. */
export interface CompileEnv {
  /** The globals table. */
  readonly globals: LuaTable
  /** `next`, recognised by generic `for` to iterate tables directly. */
  readonly next: LuaFunction
  /** The iterator `ipairs` returns, recognised the same way. */
  readonly ipairsIterator: LuaFunction
  /** Globals that are absent on purpose → the message for using one. */
  readonly absent: ReadonlyMap<string, string>
}

/** A compiled program: call `main()` to run it. */
export interface Program {
  readonly main: LuaFunction
  /** Source locations by id, for the run-time state. */
  readonly locations: Array<Location | undefined>
}

/** Everything the compiled function needs to make a closure. */
interface Proto {
  readonly body: Ex
  readonly params: ReadonlyArray<VarInfo>
  readonly vararg: boolean
  readonly upvalues: ReadonlyArray<UpvalueSource>
}

/** A label inside a block. */
interface LabelInfo {
  readonly name: string
  readonly index: number
  readonly line: number
  readonly id: object
  /** True when only other labels follow it in its block (Lua lets gotos jump there past local declarations). */
  readonly atEnd: boolean
}

/** Compile-time context of one block. */
interface BlockCtx {
  readonly parent: BlockCtx | undefined
  readonly fn: FnInfo
  readonly labels: Map<string, LabelInfo>
  readonly loop: boolean
  /** Index of the statement being compiled. */
  index: number
  /** Statement indices that declare locals, with the first declared name. */
  readonly locals: Array<[number, string]>
  /** Set when some goto targets one of this block's labels. */
  targeted: boolean
}

/** Compile a parsed program against the standard library environment. */
export const compile = (parsed: Parsed, env: CompileEnv): Program => {
  const compiler = new Compiler(parsed, env)
  return compiler.program(parsed.chunk)
}

class Compiler {
  private readonly resolved: Resolved
  private readonly parens: ParenFinder
  private readonly locations: Array<Location | undefined> = [undefined]
  private block: BlockCtx | undefined
  private fn!: FnInfo
  private readonly gfields: Fields

  constructor(
    parsed: Parsed,
    private readonly env: CompileEnv,
  ) {
    this.resolved = resolve(parsed.chunk)
    this.parens = new ParenFinder(parsed.source)
    if (env.globals.fields === undefined) env.globals.fields = new Fields()
    this.gfields = env.globals.fields
  }

  program(chunk: Chunk): Program {
    const fnInfo = this.resolved.functions.get(chunk)!
    this.fn = fnInfo
    const body = this.blockOf(chunk.body, false)
    const proto: Proto = { body, params: [], vararg: true, upvalues: [] }
    return { main: instantiate(proto, []), locations: this.locations }
  }

  // ---------------------------------------------------------------------------------------------- helpers

  /** A location id for `node`. */
  private site(node: Node): number {
    const start = node.loc?.start
    this.locations.push(start === undefined ? undefined : { line: start.line, column: start.column + 1 })
    return this.locations.length - 1
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
      case "Identifier": {
        const r = this.use(node)
        return ` (${r.kind} '${node.name}')`
      }
      case "MemberExpression":
        return node.indexer === ":" ? ` (method '${node.identifier.name}')` : ` (field '${node.identifier.name}')`
      case "IndexExpression":
        return node.index.type === "StringLiteral" ? ` (field '${node.index.value}')` : ""
      case "StringLiteral":
        return ` (constant '${node.value}')`
      default:
        return ""
    }
  }

  /** The frame slot of a plain (not captured) local variable use, or -1. */
  private slotOf(node: Node): number {
    if (node.type !== "Identifier") return -1
    const r = this.use(node)
    return r.kind === "local" && !r.v.captured ? r.v.slot : -1
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
        return node.value as string
      case "BooleanLiteral":
        return node.value as boolean
      case "NilLiteral":
        return undefined
      default:
        return NOT_CONSTANT
    }
  }

  private number(node: Node): LuaValue {
    const n = stringToNumber(node.raw as string)
    return n === undefined ? (node.value as number) : n
  }

  /** True for calls and `...`, which yield several values when not parenthesised. */
  private isMulti(node: Node, ownParen = -1): boolean {
    const t = node.type
    return (
      (t === "CallExpression" || t === "StringCallExpression" || t === "TableCallExpression" || t === "VarargLiteral") &&
      !this.parens.isParenthesised(node, ownParen)
    )
  }

  // ---------------------------------------------------------------------------------------------- blocks

  private blockOf(body: ReadonlyArray<Node>, loop: boolean): Ex {
    const ctx: BlockCtx = {
      parent: this.block,
      fn: this.fn,
      labels: new Map(),
      loop,
      index: 0,
      locals: [],
      targeted: false,
    }
    body.forEach((s, i) => {
      if (s.type !== "LabelStatement") return
      const name = s.label.name as string
      for (let b: BlockCtx | undefined = ctx; b !== undefined && b.fn === this.fn; b = b.parent) {
        const seen = b.labels.get(name)
        if (seen !== undefined) this.fail(s, `label '${name}' already defined on line ${seen.line}`)
      }
      const atEnd = body.slice(i + 1).every((n) => n.type === "LabelStatement")
      ctx.labels.set(name, { name, index: i, line: s.loc?.start.line ?? 0, id: {}, atEnd })
    })
    this.block = ctx
    const stmts: Array<Ex> = []
    body.forEach((s, i) => {
      ctx.index = i
      if (s.type === "LocalStatement") ctx.locals.push([i, s.variables[0].name])
      else if (s.type === "FunctionDeclaration" && s.isLocal) ctx.locals.push([i, s.identifier.name])
      stmts.push(this.statement(s))
    })
    this.block = ctx.parent
    if (ctx.targeted) return labelBlock(stmts, ctx, this.site(body[0] ?? { type: "Chunk" }))
    return sequence(stmts.filter((_, i) => body[i].type !== "LabelStatement"))
  }

  // ---------------------------------------------------------------------------------------------- statements

  private statement(s: Node): Ex {
    switch (s.type) {
      case "LocalStatement":
        return this.localStatement(s)
      case "AssignmentStatement":
        return this.assignment(s)
      case "CallStatement": {
        const call = this.call(s.expression, false)
        return (f) => {
          call(f)
          return NORMAL
        }
      }
      case "FunctionDeclaration":
        return this.functionStatement(s)
      case "ReturnStatement":
        return this.returnStatement(s)
      case "IfStatement":
        return this.ifStatement(s)
      case "WhileStatement":
        return this.whileStatement(s)
      case "RepeatStatement":
        return this.repeatStatement(s)
      case "DoStatement":
        return this.blockOf(s.body, false)
      case "ForNumericStatement":
        return this.forNumeric(s)
      case "ForGenericStatement":
        return this.forGeneric(s)
      case "BreakStatement": {
        let inLoop = false
        for (let b = this.block; b !== undefined && b.fn === this.fn; b = b.parent) if (b.loop) inLoop = true
        if (!inLoop) this.fail(s, "break outside a loop")
        return () => BREAK
      }
      case "GotoStatement":
        return this.gotoStatement(s)
      case "LabelStatement":
        return () => NORMAL
      default:
        return this.fail(s, `unsupported statement ${s.type}`)
    }
  }

  private gotoStatement(s: Node): Ex {
    const name = s.label.name as string
    for (let b = this.block; b !== undefined && b.fn === this.fn; b = b.parent) {
      const label = b.labels.get(name)
      if (label === undefined) continue
      // The statement of block `b` that contains this goto:
      let inner: BlockCtx = this.block!
      while (inner !== b) inner = inner.parent!
      const from = b.index
      if (label.index > from && !label.atEnd) {
        const local = b.locals.find(([i]) => i > from && i < label.index)
        if (local !== undefined)
          this.fail(s, `<goto ${name}> at line ${s.loc?.start.line} jumps into the scope of local '${local[1]}'`)
      }
      b.targeted = true
      const id = label.id
      return () => {
        rt.label = id
        return GOTO
      }
    }
    return this.fail(s, `no visible label '${name}' for <goto> at line ${s.loc?.start.line}`)
  }

  private localStatement(s: Node): Ex {
    const vars: Array<VarInfo> = s.variables.map((v: Node) => this.decl(v))
    const init: ReadonlyArray<Node> = s.init
    if (vars.length === 1 && init.length === 1) {
      const { slot, captured } = vars[0]
      const fused = captured ? undefined : this.arithmeticStoreOf(slot, init[0])
      if (fused !== undefined) return fused
      const e = this.expr(init[0])
      return captured
        ? (f) => {
            f[slot] = new Cell(e(f))
            return NORMAL
          }
        : (f) => {
            f[slot] = e(f)
            return NORMAL
          }
    }
    if (init.length === 0) {
      return (f) => {
        for (const v of vars) f[v.slot] = v.captured ? new Cell(undefined) : undefined
        return NORMAL
      }
    }
    const values = this.adjusted(init, vars.length)
    return (f) => {
      const vals = values(f)
      for (let i = 0; i < vars.length; i++) {
        const v = vars[i]
        f[v.slot] = v.captured ? new Cell(vals[i]) : vals[i]
      }
      return NORMAL
    }
  }

  /** `local = a op b` as one closure, when the value is an arithmetic expression on locals and constants. */
  private arithmeticStoreOf(slot: number, e: Node): Ex | undefined {
    if (e.type !== "BinaryExpression") return undefined
    const code = ARITH_OPS.get(e.operator)
    if (code === undefined) return undefined
    return arithmeticStore(
      slot,
      code,
      this.operand(e.left),
      this.operand(e.right),
      this.site(e),
      this.describe(e.left),
      this.describe(e.right),
    )
  }

  /** Evaluate an expression list adjusted to exactly `n` values. */
  private adjusted(nodes: ReadonlyArray<Node>, n: number): (f: Frame) => Array<LuaValue> {
    const last = nodes.length - 1
    const tail = last >= 0 && last === n - 1 ? false : last >= 0 && this.isMulti(nodes[last])
    const fixed = nodes.map((e, i) => (i === last && tail ? undefined : this.expr(e)))
    const multi = tail ? this.multi(nodes[last]) : undefined
    return (f) => {
      const out = new Array<LuaValue>(n)
      for (let i = 0; i < fixed.length; i++) {
        const e = fixed[i]
        if (e !== undefined) {
          const v = e(f)
          if (i < n) out[i] = v
        }
      }
      if (multi !== undefined) {
        const r = multi(f)
        if (Array.isArray(r)) for (let j = 0; last + j < n; j++) out[last + j] = r[j]
        else if (last < n) out[last] = r
      }
      return out
    }
  }

  private assignment(s: Node): Ex {
    const targets: ReadonlyArray<Node> = s.variables
    const init: ReadonlyArray<Node> = s.init
    if (targets.length === 1 && init.length === 1) {
      const slot = this.slotOf(targets[0])
      const fused = slot >= 0 ? this.arithmeticStoreOf(slot, init[0]) : undefined
      return fused ?? this.assignOne(targets[0], this.expr(init[0]))
    }
    // General case: evaluate the targets' tables and keys, then the values, then assign.
    const refs = targets.map((t) => this.reference(t))
    const values = this.adjusted(init, targets.length)
    return (f) => {
      const objs = refs.map((r) => (r.obj === undefined ? undefined : r.obj(f)))
      const keys = refs.map((r) => (r.key === undefined ? undefined : r.key(f)))
      const vals = values(f)
      for (let i = refs.length - 1; i >= 0; i--) refs[i].store(f, objs[i], keys[i], vals[i])
      return NORMAL
    }
  }

  /** A target of a multiple assignment: how to evaluate its table and key, and how to store into it. */
  private reference(t: Node): {
    obj?: Ev
    key?: Ev
    store: (f: Frame, obj: LuaValue, key: LuaValue, v: LuaValue) => void
  } {
    if (t.type === "Identifier") {
      const store = this.storeName(t)
      return { store: (f, _o, _k, v) => store(f, v) }
    }
    const site = this.site(t)
    const desc = this.describe(t.base)
    const obj = this.expr(t.base)
    const key: Ev = t.type === "MemberExpression" ? constantEv(t.identifier.name) : this.expr(t.index)
    return { obj, key, store: (_f, o, k, v) => setIndex(o, k, v, site, desc) }
  }

  /** How to store into a name (for multiple assignment). */
  private storeName(t: Node): (f: Frame, v: LuaValue) => void {
    const r = this.use(t)
    if (r.kind === "local") {
      const slot = r.v.slot
      return r.v.captured
        ? (f, v) => {
            f[slot].v = v
          }
        : (f, v) => {
            f[slot] = v
          }
    }
    if (r.kind === "upvalue") {
      const i = r.index
      return (f, v) => {
        f[0][i].v = v
      }
    }
    const site = this.site(t)
    const name = t.name as string
    const globals = this.env.globals
    return (_f, v) => {
      if (!globals.setStr(name, v)) throw tableFull(site)
    }
  }

  private assignOne(t: Node, e: Ev): Ex {
    const site = this.site(t)
    if (t.type === "Identifier") {
      const r = this.use(t)
      if (r.kind === "local") {
        const slot = r.v.slot
        return r.v.captured
          ? (f) => {
              f[slot].v = e(f)
              return NORMAL
            }
          : (f) => {
              f[slot] = e(f)
              return NORMAL
            }
      }
      if (r.kind === "upvalue") {
        const i = r.index
        return (f) => {
          f[0][i].v = e(f)
          return NORMAL
        }
      }
      const name = t.name as string
      const globals = this.env.globals
      return (f) => {
        if (!globals.setStr(name, e(f))) throw tableFull(site)
        return NORMAL
      }
    }
    const desc = this.describe(t.base)
    const obj = this.expr(t.base)
    if (t.type === "MemberExpression") {
      const name = t.identifier.name as string
      return (f) => {
        const o = obj(f)
        const v = e(f)
        if (o instanceof LuaTable) {
          if (!o.setStr(name, v)) throw tableFull(site)
        } else throw indexError(o, desc, site)
        return NORMAL
      }
    }
    const key = this.expr(t.index)
    return (f) => {
      const o = obj(f)
      const k = key(f)
      const v = e(f)
      if (o instanceof LuaTable) {
        if (typeof k === "number" && Number.isSafeInteger(k)) {
          if (!o.setInt(k, v)) throw tableFull(site)
          return NORMAL
        }
        if (typeof k === "string") {
          if (!o.setStr(k, v)) throw tableFull(site)
          return NORMAL
        }
      }
      setIndex(o, k, v, site, desc)
      return NORMAL
    }
  }

  private functionStatement(s: Node): Ex {
    const id: Node = s.identifier
    if (s.isLocal) {
      const v = this.decl(id)
      const make = this.closure(s)
      const slot = v.slot
      return v.captured
        ? (f) => {
            const cell = new Cell(undefined)
            f[slot] = cell
            cell.v = make(f)
            return NORMAL
          }
        : (f) => {
            f[slot] = make(f)
            return NORMAL
          }
    }
    const make = this.closure(s)
    if (id.type === "Identifier") return this.assignOne(id, make)
    // function a.b.c() / function a.b:m(): assign the field
    const target: Node = { ...id, type: "MemberExpression", indexer: "." }
    return this.assignOne(target, make)
  }

  private returnStatement(s: Node): Ex {
    const args: ReadonlyArray<Node> = s.arguments
    if (args.length === 0)
      return () => {
        rt.ret = EMPTY
        return RETURN
      }
    const slot = args.length === 1 ? this.slotOf(args[0]) : -1
    if (slot >= 0)
      return (f) => {
        rt.ret = f[slot]
        return RETURN
      }
    if (args.length === 1) {
      const e = this.isMulti(args[0]) ? this.multi(args[0]) : this.expr(args[0])
      return (f) => {
        rt.ret = e(f)
        return RETURN
      }
    }
    const list = this.list(args)
    return (f) => {
      rt.ret = list(f)
      return RETURN
    }
  }

  private ifStatement(s: Node): Ex {
    const clauses: Array<{ test: Test; body: Ex }> = []
    let otherwise: Ex | undefined
    for (const c of s.clauses as ReadonlyArray<Node>) {
      if (c.type === "ElseClause") otherwise = this.blockOf(c.body, false)
      else clauses.push({ test: this.test(c.condition), body: this.blockOf(c.body, false) })
    }
    const first = (s.clauses as ReadonlyArray<Node>)[0].condition as Node
    if (clauses.length === 1 && first.type === "BinaryExpression") {
      const fused = ifCompare(
        first.operator,
        this.operand(first.left),
        this.operand(first.right),
        this.site(first),
        clauses[0].body,
        otherwise,
      )
      if (fused !== undefined) return fused
    }
    if (clauses.length === 1) {
      const { test, body } = clauses[0]
      if (otherwise === undefined) return (f) => (test(f) ? body(f) : NORMAL)
      const other = otherwise
      return (f) => (test(f) ? body(f) : other(f))
    }
    if (clauses.length === 2) {
      const [a, b] = clauses
      const other = otherwise ?? (() => NORMAL)
      return (f) => (a.test(f) ? a.body(f) : b.test(f) ? b.body(f) : other(f))
    }
    const tests = clauses.map((c) => c.test)
    const bodies = clauses.map((c) => c.body)
    return (f) => {
      for (let i = 0; i < tests.length; i++) if (tests[i](f)) return bodies[i](f)
      return otherwise === undefined ? NORMAL : otherwise(f)
    }
  }

  private whileStatement(s: Node): Ex {
    const test = this.test(s.condition)
    const body = this.blockOf(s.body, true)
    const site = this.site(s)
    return (f) => {
      while (test(f)) {
        if (--rt.budget <= 0) meter(site)
        const sig = body(f)
        if (sig !== NORMAL) {
          if (sig === BREAK) break
          return sig
        }
      }
      return NORMAL
    }
  }

  private repeatStatement(s: Node): Ex {
    const site = this.site(s)
    const body = this.blockOf(s.body, true)
    // The condition sees the body's locals; the resolver already bound its names to the body's slots.
    const test = this.test(s.condition)
    return (f) => {
      for (;;) {
        if (--rt.budget <= 0) meter(site)
        const sig = body(f)
        if (sig !== NORMAL) {
          if (sig === BREAK) break
          return sig
        }
        if (test(f)) break
      }
      return NORMAL
    }
  }

  private forNumeric(s: Node): Ex {
    const start = this.expr(s.start)
    const limit = this.expr(s.end)
    const step = s.step ? this.expr(s.step) : undefined
    const v = this.decl(s.variable)
    const slot = v.slot
    const captured = v.captured
    const body = this.blockOf(s.body, true)
    const site = this.site(s)
    return (f) => {
      const a = start(f)
      const b = limit(f)
      const c = step === undefined ? 1 : step(f)
      if (typeof a === "number" && typeof c === "number" && Number.isSafeInteger(a) && Number.isSafeInteger(c) && c !== 0) {
        let lim = typeof b === "number" ? b : b instanceof LuaFloat ? b.n : NaN
        if (!Number.isSafeInteger(lim)) {
          lim = c > 0 ? Math.floor(lim) : Math.ceil(lim)
          // Beyond the safe range the loop cannot finish within the work bound; clamp when that is certain.
          if (Math.abs(a) < 2 ** 51 && Math.abs(c) < 2 ** 20) {
            if (lim > 2 ** 52) lim = 2 ** 52
            else if (lim < -(2 ** 52)) lim = -(2 ** 52)
          }
        }
        if (Number.isSafeInteger(lim) && Number.isSafeInteger(lim + c)) {
          if (c > 0) {
            for (let i = a; i <= lim; i += c) {
              if (--rt.budget <= 0) meter(site)
              f[slot] = captured ? new Cell(i) : i
              const sig = body(f)
              if (sig !== NORMAL) {
                if (sig === BREAK) break
                return sig
              }
            }
          } else {
            for (let i = a; i >= lim; i += c) {
              if (--rt.budget <= 0) meter(site)
              f[slot] = captured ? new Cell(i) : i
              const sig = body(f)
              if (sig !== NORMAL) {
                if (sig === BREAK) break
                return sig
              }
            }
          }
          return NORMAL
        }
      }
      return forNumericGeneral(f, a, b, c, slot, captured, body, site)
    }
  }

  private forGeneric(s: Node): Ex {
    const vars: Array<VarInfo> = s.variables.map((v: Node) => this.decl(v))
    const values = this.adjusted(s.iterators, 3)
    const body = this.blockOf(s.body, true)
    const site = this.site(s)
    const { next, ipairsIterator } = this.env
    const n = vars.length
    const v0 = vars[0]
    const v1 = vars[1] as VarInfo | undefined
    const set = (f: Frame, v: VarInfo | undefined, value: LuaValue) => {
      if (v !== undefined) f[v.slot] = v.captured ? new Cell(value) : value
    }
    return (f) => {
      const [fn, state, initial] = values(f)
      if (fn === next && state instanceof LuaTable && initial === undefined) {
        // pairs(t): walk the array part, then the hash part.
        for (let i = 0; i < state.arr.length; i++) {
          const value = state.arr[i]
          if (value === undefined) continue
          if (--rt.budget <= 0) meter(site)
          set(f, v0, i + 1)
          set(f, v1, value)
          for (let j = 2; j < n; j++) set(f, vars[j], undefined)
          const sig = body(f)
          if (sig !== NORMAL) return sig === BREAK ? NORMAL : sig
        }
        const o = state.fields
        if (o !== undefined)
          for (const key in o) {
            const value = o[key]
            if (value === undefined) continue
            if (--rt.budget <= 0) meter(site)
            set(f, v0, key)
            set(f, v1, value)
            for (let j = 2; j < n; j++) set(f, vars[j], undefined)
            const sig = body(f)
            if (sig !== NORMAL) return sig === BREAK ? NORMAL : sig
          }
        const h = state.hash
        if (h !== undefined)
          for (const [key, value] of h) {
            if (value === undefined) continue
            if (--rt.budget <= 0) meter(site)
            set(f, v0, key)
            set(f, v1, value)
            for (let j = 2; j < n; j++) set(f, vars[j], undefined)
            const sig = body(f)
            if (sig !== NORMAL) return sig === BREAK ? NORMAL : sig
          }
        return NORMAL
      }
      if (fn === ipairsIterator && state instanceof LuaTable && initial === 0) {
        for (let i = 1; ; i++) {
          const value = state.getInt(i)
          if (value === undefined) return NORMAL
          if (--rt.budget <= 0) meter(site)
          set(f, v0, i)
          set(f, v1, value)
          for (let j = 2; j < n; j++) set(f, vars[j], undefined)
          const sig = body(f)
          if (sig !== NORMAL) return sig === BREAK ? NORMAL : sig
        }
      }
      if (typeof fn !== "function") throw errorAt(`attempt to call a ${typeName(fn)} value`, site)
      let control = initial
      for (;;) {
        if (--rt.budget <= 0) meter(site)
        rt.site = site
        const r = fn(state, control)
        let first: LuaValue
        if (Array.isArray(r)) {
          first = r[0]
          if (first === undefined) return NORMAL
          for (let j = 0; j < n; j++) set(f, vars[j], r[j])
        } else {
          first = r
          if (first === undefined) return NORMAL
          set(f, v0, first)
          for (let j = 1; j < n; j++) set(f, vars[j], undefined)
        }
        control = first
        const sig = body(f)
        if (sig !== NORMAL) return sig === BREAK ? NORMAL : sig
      }
    }
  }

  // ---------------------------------------------------------------------------------------------- expressions

  /** An expression in a single-value position. */
  expr(node: Node): Ev {
    switch (node.type) {
      case "NilLiteral":
        return () => undefined
      case "BooleanLiteral":
        return node.value ? () => true : () => false
      case "NumericLiteral":
      case "StringLiteral":
        return constantEv(this.constant(node) as LuaValue)
      case "VarargLiteral":
        return (f) => (f[1] as Array<LuaValue>)[0]
      case "FunctionDeclaration":
        return this.closure(node)
      case "Identifier":
        return this.name(node)
      case "MemberExpression":
        return this.member(node)
      case "IndexExpression":
        return this.indexExpression(node)
      case "CallExpression":
      case "StringCallExpression":
      case "TableCallExpression":
        return this.call(node, true) as Ev
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

  /** An expression in a multi-value position (the caller checked {@link isMulti}). */
  private multi(node: Node): EvM {
    if (node.type === "VarargLiteral") return (f) => f[1]
    return this.call(node, false)
  }

  /** Evaluate an expression list into a fresh JS array (the last expression may contribute several values). */
  private list(nodes: ReadonlyArray<Node>, ownParen = -1): (f: Frame) => Array<LuaValue> {
    const last = nodes.length - 1
    const tail = last >= 0 && this.isMulti(nodes[last], last === 0 ? ownParen : -1)
    const fixed = (tail ? nodes.slice(0, last) : nodes).map((n) => this.expr(n))
    const multi = tail ? this.multi(nodes[last]) : undefined
    const k = fixed.length
    if (multi === undefined) {
      if (k === 1) {
        const [a] = fixed
        return (f) => [a(f)]
      }
      if (k === 2) {
        const [a, b] = fixed
        return (f) => [a(f), b(f)]
      }
      if (k === 3) {
        const [a, b, c] = fixed
        return (f) => [a(f), b(f), c(f)]
      }
      return (f) => fixed.map((e) => e(f))
    }
    return (f) => {
      const out = new Array<LuaValue>(k)
      for (let i = 0; i < k; i++) out[i] = fixed[i](f)
      const r = multi(f)
      if (Array.isArray(r)) for (let i = 0; i < r.length; i++) out.push(r[i])
      else out.push(r)
      return out
    }
  }

  private name(node: Node): Ev {
    const r = this.use(node)
    if (r.kind === "local") {
      const slot = r.v.slot
      return r.v.captured ? (f) => f[slot].v : (f) => f[slot]
    }
    if (r.kind === "upvalue") {
      const i = r.index
      return (f) => f[0][i].v
    }
    const name = node.name as string
    const gfields = this.gfields
    const absent = this.env.absent.get(name)
    if (absent !== undefined) {
      const site = this.site(node)
      return () => {
        const v = gfields[name]
        if (v === undefined) throw errorAt(absent, site)
        return v
      }
    }
    return () => gfields[name]
  }

  private member(node: Node): Ev {
    const name = node.identifier.name as string
    const site = this.site(node)
    const desc = this.describe(node.base)
    const slot = this.slotOf(node.base)
    if (slot >= 0)
      return (f) => {
        const t = f[slot]
        if (t instanceof LuaTable) {
          const h = t.fields
          if (h !== undefined) {
            const v = h[name]
            if (v !== undefined) return v
          }
          return t.guard === undefined ? undefined : t.guard(name, site)
        }
        return index(t, name, site, desc)
      }
    const obj = this.expr(node.base)
    return (f) => {
      const t = obj(f)
      if (t instanceof LuaTable) {
        const h = t.fields
        if (h !== undefined) {
          const v = h[name]
          if (v !== undefined) return v
        }
        return t.guard === undefined ? undefined : t.guard(name, site)
      }
      return index(t, name, site, desc)
    }
  }

  private indexExpression(node: Node): Ev {
    const obj = this.expr(node.base)
    const site = this.site(node)
    const desc = this.describe(node.base)
    const k = this.constant(node.index)
    if (typeof k === "string") {
      return (f) => {
        const t = obj(f)
        if (t instanceof LuaTable) {
          const h = t.fields
          if (h !== undefined) {
            const v = h[k]
            if (v !== undefined) return v
          }
          return t.guard === undefined ? undefined : t.guard(k, site)
        }
        return index(t, k, site, desc)
      }
    }
    const key = this.expr(node.index)
    return (f) => {
      const t = obj(f)
      const k = key(f)
      if (t instanceof LuaTable) {
        if (typeof k === "number") {
          const i = k - 1
          const arr = t.arr
          if (i >>> 0 === i && i < arr.length) return arr[i]
        } else if (typeof k === "string") {
          const h = t.fields
          if (h !== undefined) {
            const v = h[k]
            if (v !== undefined) return v
          }
          return t.guard === undefined ? undefined : t.guard(k, site)
        }
      }
      return index(t, k, site, desc)
    }
  }

  /**
   * A call. `single` truncates the results to one value; otherwise the raw result (one value or a JS array) is
   * returned.
   */
  private call(node: Node, single: boolean): EvM {
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
    if (base.type === "MemberExpression" && base.indexer === ":")
      return this.methodCall(base, argNodes, spread, ownParen, single, site)
    const desc = this.describe(base)
    if (spread) {
      const callee = this.expr(base)
      const args = this.list(argNodes, ownParen)
      return (f) => {
        const fn = callee(f)
        const a = args(f)
        if (typeof fn !== "function") throw callError(fn, desc, site)
        rt.site = site
        const r = fn.apply(undefined, a)
        return single && Array.isArray(r) ? r[0] : r
      }
    }
    // The callee and the arguments are read through "fetchers" (kind + slot/value/closure) inline, so that locals,
    // upvalues, globals and constants cost no closure call.
    const c = this.fetcher(base)
    const ck = c.kind
    const cs = c.slot
    const cv = c.value
    const ce = c.ev
    const gfields = this.gfields
    const args = argNodes.map((a) => this.fetcher(a))
    switch (args.length) {
      case 0:
        return (f) => {
          const fn = ck === SLOT ? f[cs] : ck === UPVALUE ? f[0][cs].v : ck === GLOBAL ? gfields[cv as string] : ce(f)
          if (typeof fn !== "function") throw callError(fn, desc, site)
          rt.site = site
          const r = fn()
          return single && Array.isArray(r) ? r[0] : r
        }
      case 1: {
        const { kind: k0, slot: s0, value: v0, ev: e0 } = args[0]
        return (f) => {
          const fn = ck === SLOT ? f[cs] : ck === UPVALUE ? f[0][cs].v : ck === GLOBAL ? gfields[cv as string] : ce(f)
          const x = k0 === SLOT ? f[s0] : k0 === CONST ? v0 : k0 === UPVALUE ? f[0][s0].v : k0 === GLOBAL ? gfields[v0 as string] : e0(f)
          if (typeof fn !== "function") throw callError(fn, desc, site)
          rt.site = site
          const r = fn(x)
          return single && Array.isArray(r) ? r[0] : r
        }
      }
      case 2: {
        const { kind: k0, slot: s0, value: v0, ev: e0 } = args[0]
        const { kind: k1, slot: s1, value: v1, ev: e1 } = args[1]
        return (f) => {
          const fn = ck === SLOT ? f[cs] : ck === UPVALUE ? f[0][cs].v : ck === GLOBAL ? gfields[cv as string] : ce(f)
          const x = k0 === SLOT ? f[s0] : k0 === CONST ? v0 : k0 === UPVALUE ? f[0][s0].v : k0 === GLOBAL ? gfields[v0 as string] : e0(f)
          const y = k1 === SLOT ? f[s1] : k1 === CONST ? v1 : k1 === UPVALUE ? f[0][s1].v : k1 === GLOBAL ? gfields[v1 as string] : e1(f)
          if (typeof fn !== "function") throw callError(fn, desc, site)
          rt.site = site
          const r = fn(x, y)
          return single && Array.isArray(r) ? r[0] : r
        }
      }
      case 3: {
        const { kind: k0, slot: s0, value: v0, ev: e0 } = args[0]
        const { kind: k1, slot: s1, value: v1, ev: e1 } = args[1]
        const { kind: k2, slot: s2, value: v2, ev: e2 } = args[2]
        return (f) => {
          const fn = ck === SLOT ? f[cs] : ck === UPVALUE ? f[0][cs].v : ck === GLOBAL ? gfields[cv as string] : ce(f)
          const x = k0 === SLOT ? f[s0] : k0 === CONST ? v0 : k0 === UPVALUE ? f[0][s0].v : k0 === GLOBAL ? gfields[v0 as string] : e0(f)
          const y = k1 === SLOT ? f[s1] : k1 === CONST ? v1 : k1 === UPVALUE ? f[0][s1].v : k1 === GLOBAL ? gfields[v1 as string] : e1(f)
          const z = k2 === SLOT ? f[s2] : k2 === CONST ? v2 : k2 === UPVALUE ? f[0][s2].v : k2 === GLOBAL ? gfields[v2 as string] : e2(f)
          if (typeof fn !== "function") throw callError(fn, desc, site)
          rt.site = site
          const r = fn(x, y, z)
          return single && Array.isArray(r) ? r[0] : r
        }
      }
      default: {
        const callee = this.expr(base)
        const evs = argNodes.map((a) => this.expr(a))
        return (f) => {
          const fn = callee(f)
          const a = evs.map((e) => e(f))
          if (typeof fn !== "function") throw callError(fn, desc, site)
          rt.site = site
          const r = fn.apply(undefined, a)
          return single && Array.isArray(r) ? r[0] : r
        }
      }
    }
  }

  /**
   * How to read a value inline: a plain local's slot, an upvalue, a global (not one absent on purpose), a constant,
   * or (otherwise) a closure.
   */
  private fetcher(node: Node): Fetcher {
    const none = { slot: 0, value: undefined, ev: NO_EV }
    if (node.type === "Identifier") {
      const r = this.use(node)
      if (r.kind === "local" && !r.v.captured) return { ...none, kind: SLOT, slot: r.v.slot }
      if (r.kind === "upvalue") return { ...none, kind: UPVALUE, slot: r.index }
      if (r.kind === "global" && !this.env.absent.has(node.name)) return { ...none, kind: GLOBAL, value: node.name }
    }
    const c = this.constant(node)
    if (c !== NOT_CONSTANT) return { ...none, kind: CONST, value: c }
    return { ...none, kind: CLOSURE, ev: this.expr(node) }
  }

  private methodCall(
    base: Node,
    argNodes: ReadonlyArray<Node>,
    spread: boolean,
    ownParen: number,
    single: boolean,
    site: number,
  ): EvM {
    const obj = this.expr(base.base)
    const objDesc = this.describe(base.base)
    const name = base.identifier.name as string
    const desc = ` (method '${name}')`
    const strings = stringMeta
    const lookup = (o: LuaValue): LuaValue => {
      if (o instanceof LuaTable) {
        const v = o.fields === undefined ? undefined : o.fields[name]
        return v !== undefined || o.guard === undefined ? v : o.guard(name, site)
      }
      if (typeof o === "string") return strings.methods.getStr(name)
      throw indexError(o, objDesc, site)
    }
    if (spread) {
      const args = this.list(argNodes, ownParen)
      return (f) => {
        const o = obj(f)
        const fn = lookup(o)
        const a = args(f)
        if (typeof fn !== "function") throw callError(fn, desc, site)
        a.unshift(o)
        rt.site = site
        const r = fn.apply(undefined, a)
        return single && Array.isArray(r) ? r[0] : r
      }
    }
    const args = argNodes.map((a) => this.expr(a))
    switch (args.length) {
      case 0:
        return (f) => {
          const o = obj(f)
          const fn = lookup(o)
          if (typeof fn !== "function") throw callError(fn, desc, site)
          rt.site = site
          const r = fn(o)
          return single && Array.isArray(r) ? r[0] : r
        }
      case 1: {
        const [a0] = args
        return (f) => {
          const o = obj(f)
          const fn = lookup(o)
          const x = a0(f)
          if (typeof fn !== "function") throw callError(fn, desc, site)
          rt.site = site
          const r = fn(o, x)
          return single && Array.isArray(r) ? r[0] : r
        }
      }
      case 2: {
        const [a0, a1] = args
        return (f) => {
          const o = obj(f)
          const fn = lookup(o)
          const x = a0(f)
          const y = a1(f)
          if (typeof fn !== "function") throw callError(fn, desc, site)
          rt.site = site
          const r = fn(o, x, y)
          return single && Array.isArray(r) ? r[0] : r
        }
      }
      default:
        return (f) => {
          const o = obj(f)
          const fn = lookup(o)
          const a = args.map((e) => e(f))
          if (typeof fn !== "function") throw callError(fn, desc, site)
          a.unshift(o)
          rt.site = site
          const r = fn.apply(undefined, a)
          return single && Array.isArray(r) ? r[0] : r
        }
    }
  }

  private closure(node: Node): Ev {
    const info = this.resolved.functions.get(node)!
    const outerFn = this.fn
    const outerBlock = this.block
    this.fn = info
    this.block = undefined
    const params: Array<VarInfo> = []
    const self = this.resolved.selfParams.get(node)
    if (self !== undefined) params.push(self)
    for (const p of node.parameters as ReadonlyArray<Node>) if (p.type === "Identifier") params.push(this.decl(p))
    const body = this.blockOf(node.body, false)
    this.fn = outerFn
    this.block = outerBlock
    const proto: Proto = { body, params, vararg: info.vararg, upvalues: info.upvalues }
    const sources = info.upvalues
    const n = sources.length
    return (f) => {
      const ups = new Array<Cell>(n)
      for (let i = 0; i < n; i++) {
        const s = sources[i]
        ups[i] = s.fromLocal ? f[s.index] : f[0][s.index]
      }
      return instantiate(proto, ups)
    }
  }

  private table(node: Node): Ev {
    const fields: ReadonlyArray<Node> = node.fields
    const site = this.site(node)
    if (fields.length === 0) return () => new LuaTable()
    const positional = fields.filter((x) => x.type === "TableValue")
    if (positional.length === fields.length) {
      const items = this.list(positional.map((x) => x.value))
      return (f) => {
        const t = new LuaTable()
        const arr = items(f)
        if (arr.length > MAX_TABLE_ENTRIES) throw tableFull(site)
        let n = arr.length
        while (n > 0 && arr[n - 1] === undefined) n--
        arr.length = n
        t.arr = arr
        return t
      }
    }
    const names = fields.map((x) => (x.type === "TableKeyString" ? (x.key.name as string) : ""))
    if (positional.length === 0 && fields.every((x) => x.type === "TableKeyString") && new Set(names).size === names.length) {
      // A record with distinct names: fill the string-keyed part directly.
      const values = fields.map((x) => this.expr(x.value))
      const n = names.length
      return (f) => {
        const t = new LuaTable()
        const o = new Fields()
        let count = 0
        for (let i = 0; i < n; i++) {
          const v = values[i](f)
          if (v !== undefined) {
            o[names[i]] = v
            count++
          }
        }
        t.fields = o
        t.nfields = count
        return t
      }
    }
    // General: keyed fields in order, positional items collected and stored last (as Lua's SETLIST does).
    const steps: Array<{ key?: Ev; value: Ev | EvM; multi: boolean }> = fields.map((x, i) => {
      if (x.type === "TableKeyString") return { key: constantEv(x.key.name), value: this.expr(x.value), multi: false }
      if (x.type === "TableKey") return { key: this.expr(x.key), value: this.expr(x.value), multi: false }
      const multi = i === fields.length - 1 && this.isMulti(x.value)
      return { value: multi ? this.multi(x.value) : this.expr(x.value), multi }
    })
    return (f) => {
      const t = new LuaTable()
      const items: Array<LuaValue> = []
      for (const step of steps) {
        if (step.key !== undefined) {
          const k = step.key(f)
          const v = step.value(f) as LuaValue
          if (k === undefined) throw errorAt("table index is nil", site)
          const key = normaliseKey(k)
          if (typeof key === "number" && Number.isNaN(key)) throw errorAt("table index is NaN", site)
          if (!t.set(key, v)) throw tableFull(site)
        } else if (step.multi) {
          const r = step.value(f)
          if (Array.isArray(r)) for (const v of r) items.push(v)
          else items.push(r)
        } else items.push(step.value(f) as LuaValue)
      }
      if (items.length + t.size() > MAX_TABLE_ENTRIES) throw tableFull(site)
      for (let i = 0; i < items.length; i++) t.set(i + 1, items[i])
      return t
    }
  }

  private logical(node: Node): Ev {
    const a = this.expr(node.left)
    const b = this.expr(node.right)
    if (node.operator === "and")
      return (f) => {
        const v = a(f)
        return v === undefined || v === false ? v : b(f)
      }
    return (f) => {
      const v = a(f)
      return v !== undefined && v !== false ? v : b(f)
    }
  }

  /** A condition: comparisons and logic produce JS booleans directly. */
  private test(node: Node): Test {
    if (node.type === "BinaryExpression" && COMPARISONS.has(node.operator)) return this.comparison(node)
    if (node.type === "UnaryExpression" && node.operator === "not") {
      const t = this.test(node.argument)
      return (f) => !t(f)
    }
    if (node.type === "LogicalExpression") {
      const a = this.test(node.left)
      const b = this.test(node.right)
      return node.operator === "and" ? (f) => a(f) && b(f) : (f) => a(f) || b(f)
    }
    if (node.type === "BooleanLiteral") return node.value ? () => true : () => false
    const e = this.expr(node)
    return (f) => {
      const v = e(f)
      return v !== undefined && v !== false
    }
  }

  private comparison(node: Node): Test {
    const site = this.site(node)
    return comparison(node.operator as string, this.operand(node.left), this.operand(node.right), site)
  }

  /** How to read an operand: a plain local's slot, a constant, or a closure. */
  private operand(node: Node): Operand {
    const slot = this.slotOf(node)
    if (slot >= 0) return { kind: "slot", slot }
    const c = this.constant(node)
    if (c !== NOT_CONSTANT) return { kind: "const", value: c }
    if (node.type === "MemberExpression" && node.indexer === "." && this.slotOf(node.base) >= 0)
      return {
        kind: "field",
        slot: this.slotOf(node.base),
        name: node.identifier.name,
        site: this.site(node),
        desc: this.describe(node.base),
      }
    return { kind: "ev", ev: this.expr(node) }
  }

  private binary(node: Node): Ev {
    const op = node.operator as string
    if (COMPARISONS.has(op)) return this.comparison(node)
    if (op === "..") return this.concat(node)
    const code = ARITH_OPS.get(op)
    if (code === undefined) return this.fail(node, `unsupported operator ${op}`)
    const site = this.site(node)
    return arithmetic(
      code,
      this.operand(node.left),
      this.operand(node.right),
      site,
      this.describe(node.left),
      this.describe(node.right),
    )
  }

  /** `a .. b .. c`: right-associative chains are flattened and concatenated in one go. */
  private concat(node: Node): Ev {
    const operands: Array<Node> = []
    let n: Node = node
    while (n.type === "BinaryExpression" && n.operator === ".." && !this.parens.isParenthesised(n.right)) {
      operands.push(n.left)
      n = n.right
    }
    operands.push(n)
    const site = this.site(node)
    const evs = operands.map((o) => this.expr(o))
    const descs = operands.map((o) => this.describe(o))
    if (evs.length === 2) {
      const [a, b] = evs
      const [da, db] = descs
      return (f) => {
        const x = a(f)
        const y = b(f)
        if (typeof x === "string" && typeof y === "string") {
          const len = x.length + y.length
          if (len > 16777216) checkStringLength(len, site)
          return x + y
        }
        return concat2(x, y, site, da, db)
      }
    }
    const k = evs.length
    return (f) => {
      let s = ""
      let values: Array<LuaValue> | undefined
      for (let i = 0; i < k; i++) {
        const v = evs[i](f)
        if (values !== undefined) values[i] = v
        else if (typeof v === "string") s += v
        else {
          // Not all strings: collect the rest and take the general path (numbers, errors). The strings so far
          // only matter through their concatenation, so they stand as one piece.
          values = new Array<LuaValue>(k).fill("")
          values[0] = s
          values[i] = v
        }
      }
      if (values !== undefined) return concatValues(values, descs, site)
      checkStringLength(s.length, site)
      return s
    }
  }

  private unary(node: Node): Ev {
    const op = node.operator as string
    const site = this.site(node)
    const a = this.expr(node.argument)
    const d = this.describe(node.argument)
    switch (op) {
      case "not":
        return (f) => {
          const v = a(f)
          return v === undefined || v === false
        }
      case "-":
        if (node.argument.type === "NumericLiteral") {
          const v = arith(Op.Unm, this.number(node.argument), 0, site)
          return () => v
        }
        return (f) => {
          const v = a(f)
          if (typeof v === "number") return Number.isSafeInteger(v) ? 0 - v : -v
          return arith(Op.Unm, v, v, site, d, d)
        }
      case "#":
        return (f) => {
          const v = a(f)
          if (v instanceof LuaTable) return v.arr.length
          if (typeof v === "string") return v.length
          return length(v, site, d)
        }
      default:
        return (f) => {
          const v = a(f)
          if (typeof v === "number" && (v | 0) === v) return ~v
          return arith(Op.BNot, v, v, site, d, d)
        }
    }
  }
}

/** Fetcher kinds (see {@link Compiler.fetcher}). */
const SLOT = 0
const UPVALUE = 1
const GLOBAL = 2
const CONST = 3
const CLOSURE = 4
interface Fetcher {
  readonly kind: number
  readonly slot: number
  readonly value: LuaValue
  readonly ev: Ev
}
const NO_EV: Ev = () => undefined

const NOT_CONSTANT: unique symbol = Symbol("not a constant")
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

const constantEv = (v: LuaValue): Ev => () => v

/** Run statements in order, stopping at the first non-normal signal. */
const sequence = (xs: Array<Ex>): Ex => {
  switch (xs.length) {
    case 0:
      return () => NORMAL
    case 1:
      return xs[0]
    case 2: {
      const [a, b] = xs
      return (f) => a(f) || b(f)
    }
    case 3: {
      const [a, b, c] = xs
      return (f) => a(f) || b(f) || c(f)
    }
    case 4: {
      const [a, b, c, d] = xs
      return (f) => a(f) || b(f) || c(f) || d(f)
    }
    default: {
      const n = xs.length
      return (f) => {
        for (let i = 0; i < n; i++) {
          const s = xs[i](f)
          if (s !== NORMAL) return s
        }
        return NORMAL
      }
    }
  }
}

/** A block with labels some goto targets: a GOTO signal for one of them continues at the label. */
const labelBlock = (xs: Array<Ex>, ctx: BlockCtx, site: number): Ex => {
  const targets = new Map<unknown, number>()
  for (const label of ctx.labels.values()) targets.set(label.id, label.index)
  const n = xs.length
  return (f) => {
    let i = 0
    while (i < n) {
      const s = xs[i](f)
      if (s === NORMAL) {
        i++
        continue
      }
      if (s === GOTO) {
        const to = targets.get(rt.label)
        if (to !== undefined) {
          if (to <= i && --rt.budget <= 0) meter(site)
          i = to + 1
          continue
        }
      }
      return s
    }
    return NORMAL
  }
}

/** Make a Lua function value from its prototype and captured upvalue cells. */
const instantiate = (p: Proto, ups: Array<Cell>): LuaFunction => {
  const { body, params, vararg } = p
  const nparams = params.length
  const simple = !vararg && params.every((v) => !v.captured)
  if (simple && nparams <= 3) {
    const s0 = params[0]?.slot ?? 0
    const s1 = params[1]?.slot ?? 0
    const s2 = params[2]?.slot ?? 0
    switch (nparams) {
      case 0:
        return function () {
          if (++rt.depth > MAX_CALL_DEPTH) throw callDepthError(rt.site)
          callSites[rt.depth] = rt.site
          if (--rt.budget <= 0) meter(rt.site)
          const f = frames[rt.depth]
          f[0] = ups
          const s = body(f)
          rt.depth--
          return s === RETURN ? rt.ret : EMPTY
        }
      case 1:
        return function (a: LuaValue) {
          if (++rt.depth > MAX_CALL_DEPTH) throw callDepthError(rt.site)
          callSites[rt.depth] = rt.site
          if (--rt.budget <= 0) meter(rt.site)
          const f = frames[rt.depth]
          f[0] = ups
          f[s0] = a
          const s = body(f)
          rt.depth--
          return s === RETURN ? rt.ret : EMPTY
        }
      case 2:
        return function (a: LuaValue, b: LuaValue) {
          if (++rt.depth > MAX_CALL_DEPTH) throw callDepthError(rt.site)
          callSites[rt.depth] = rt.site
          if (--rt.budget <= 0) meter(rt.site)
          const f = frames[rt.depth]
          f[0] = ups
          f[s0] = a
          f[s1] = b
          const s = body(f)
          rt.depth--
          return s === RETURN ? rt.ret : EMPTY
        }
      default:
        return function (a: LuaValue, b: LuaValue, c: LuaValue) {
          if (++rt.depth > MAX_CALL_DEPTH) throw callDepthError(rt.site)
          callSites[rt.depth] = rt.site
          if (--rt.budget <= 0) meter(rt.site)
          const f = frames[rt.depth]
          f[0] = ups
          f[s0] = a
          f[s1] = b
          f[s2] = c
          const s = body(f)
          rt.depth--
          return s === RETURN ? rt.ret : EMPTY
        }
    }
  }
  return function (...args: Array<LuaValue>) {
    if (++rt.depth > MAX_CALL_DEPTH) throw callDepthError(rt.site)
    callSites[rt.depth] = rt.site
    if (--rt.budget <= 0) meter(rt.site)
    const f = frames[rt.depth]
    f[0] = ups
    for (let i = 0; i < nparams; i++) {
      const v = params[i]
      f[v.slot] = v.captured ? new Cell(args[i]) : args[i]
    }
    if (vararg) f[1] = args.length > nparams ? args.slice(nparams) : EMPTY
    const s = body(f)
    rt.depth--
    return s === RETURN ? rt.ret : EMPTY
  }
}

/** The general numeric `for`: floats, integers beyond the safe range, and Lua's errors for bad operands. */
const forNumericGeneral = (
  f: Frame,
  a: LuaValue,
  b: LuaValue,
  c: LuaValue,
  slot: number,
  captured: boolean,
  body: Ex,
  site: number,
): number => {
  const isNum = (v: LuaValue): v is LuaNumber =>
    typeof v === "number" || typeof v === "bigint" || v instanceof LuaFloat
  if (!isNum(a)) throw errorAt(`bad 'for' initial value (number expected, got ${typeName(a)})`, site)
  if (!isNum(b)) throw errorAt(`bad 'for' limit (number expected, got ${typeName(b)})`, site)
  if (!isNum(c)) throw errorAt(`bad 'for' step (number expected, got ${typeName(c)})`, site)
  const isInt = (v: LuaNumber) => typeof v === "bigint" || (typeof v === "number" && Number.isSafeInteger(v))
  const set = (v: LuaValue) => {
    f[slot] = captured ? new Cell(v) : v
  }
  if (isInt(a) && isInt(c)) {
    const ia = a as number | bigint
    const ic = c as number | bigint
    // eslint-disable-next-line eqeqeq
    if (ic == 0) throw errorAt("'for' step is zero", site)
    let lim: number | bigint
    if (isInt(b)) lim = b as number | bigint
    else {
      const d = b instanceof LuaFloat ? b.n : (b as number)
      if (Number.isNaN(d)) return NORMAL
      const fl = ic > 0 ? Math.floor(d) : Math.ceil(d)
      if (fl >= 9223372036854775807) lim = 0x7fffffffffffffffn
      else if (fl <= -9223372036854775808) lim = -0x8000000000000000n
      else lim = BigInt(fl)
    }
    if (ic > 0 ? ia > lim : ia < lim) return NORMAL
    // Iteration count computed without overflow, as Lua 5.4 does.
    const count =
      ic > 0
        ? (BigInt(lim) - BigInt(ia)) / BigInt(ic)
        : (BigInt(ia) - BigInt(lim)) / -BigInt(ic)
    let i: number | bigint = ia
    for (let k = 0n; k <= count; k++) {
      if (--rt.budget <= 0) meter(site)
      set(i)
      const sig = body(f)
      if (sig !== NORMAL) return sig === BREAK ? NORMAL : sig
      if (k < count) i = intAdd(i, ic)
    }
    return NORMAL
  }
  const x = a instanceof LuaFloat ? a.n : Number(a)
  const y = b instanceof LuaFloat ? b.n : Number(b)
  const z = c instanceof LuaFloat ? c.n : Number(c)
  if (z === 0) throw errorAt("'for' step is zero", site)
  for (let i = x; z > 0 ? i <= y : i >= y; i += z) {
    if (--rt.budget <= 0) meter(site)
    set(Number.isSafeInteger(i) ? new LuaFloat(i) : i)
    const sig = body(f)
    if (sig !== NORMAL) return sig === BREAK ? NORMAL : sig
  }
  return NORMAL
}
