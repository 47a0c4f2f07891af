/**
 * Expressions: each compiles to a JS expression that evaluates its operands in PUC Lua's order and inlines the
 * operation's common case (numbers, table fields, the array part), calling an intrinsic for the rest.
 */
import type { Chunk, Node } from "luaparse"
import { ABSENT } from "../lib/absent.js"
import { arith, Op } from "../numbers.js"
import { MAX_STRING_BYTES } from "../runtime.js"
import type { VarInfo } from "../scope.js"
import { LuaFloat, type LuaValue } from "../value.js"
import { ARITH_OPS, COMPARISONS, Emitter, type Held, isNumeral, NOT_CONSTANT, type SelfName, seq } from "./emit.js"
import { type FloatCondition, floatLocals } from "./types.js"

/** The intrinsic for an arithmetic operation whose operand is not a JS number (boxed floats first), by operator. */
const ANY_OPERAND = new Map<Op, string>([
  [Op.Add, "$addAny"],
  [Op.Sub, "$subAny"],
  [Op.Mul, "$mulAny"],
  [Op.Div, "$divAny"],
  [Op.Mod, "$modAny"],
  [Op.IDiv, "$idivAny"],
  [Op.Pow, "$powAny"],
])

/** The operators whose result is a float when an operand is (the others are bitwise). */
const FLOAT_OPS = new Set([Op.Add, Op.Sub, Op.Mul, Op.Mod, Op.Pow, Op.Div, Op.IDiv])

/** An operand of a float-typed operation (see `Expressions.rawOperand`). */
interface RawOperand extends Held {
  readonly raw: boolean
  readonly check: boolean
}

/**
 * Text without which a program has no float-typed local (see types.ts): `/`, `^`, or what a float numeral has (a
 * digit next to a point, an exponent). Missing one would only leave a local boxed, never change what it holds.
 */
const FLOAT_SOURCES = /[/^]|\d\.|\.\d|\d[eEpP]/

/** An operand of a comparison: `raw` when it is a float-typed one, as a double. */
type Compared = Held & { readonly raw?: boolean }

/** A numeric constant as a JS double in source: its sign kept (`-0`), infinities and NaN by name. */
const floatText = (c: number | LuaFloat): string => {
  const n = c instanceof LuaFloat ? c.n : c
  if (Object.is(n, -0)) return "(-0)"
  if (Number.isNaN(n)) return "NaN"
  if (!Number.isFinite(n)) return n > 0 ? "Infinity" : "(-Infinity)"
  return `(${n})`
}

/** The expression half of the generator; statements.ts adds statements and functions. */
export abstract class Expressions extends Emitter {
  /** The float-typed locals (see types.ts), found on first use. */
  private floatTyped: Set<VarInfo> | undefined

  /** True when `v` is float-typed: it holds a raw JS double in generated code (see types.ts). */
  protected isFloatLocal(v: VarInfo): boolean {
    if (this.floatTyped === undefined) {
      let chunk: Chunk | undefined
      for (const node of this.resolved.functions.keys()) if (node.type === "Chunk") chunk = node as Chunk
      // Without a float numeral, `/` or `^` nothing is float-typed: most tool programs skip the walk.
      this.floatTyped =
        chunk === undefined || !FLOAT_SOURCES.test(this.source)
          ? new Set()
          : floatLocals(chunk, this.resolved.declarations, (node) => this.floatCondition(node))
    }
    return this.floatTyped.has(v)
  }

  /** The float-typed local an identifier names, or undefined. */
  protected floatLocalOf(node: Node): VarInfo | undefined {
    if (node.type !== "Identifier") return undefined
    const r = this.use(node)
    return r.kind !== "global" && this.isFloatLocal(r.v) ? r.v : undefined
  }

  /**
   * The code of a value assigned to `target` (a local, or undefined for any other target): the raw double for a
   * float-typed local, the Lua value otherwise.
   */
  protected assignedValue(target: VarInfo | undefined, node: Node): string {
    return target !== undefined && this.isFloatLocal(target) ? this.raw(node) : this.expr(node)
  }

  /**
   * The value of a numeric `for`'s variable `v` in a pass, from the loop's mode (see `forPrep`), its counter and its
   * 64-bit walker: a float-typed one is the counter itself (its loop always counts in floats).
   */
  protected loopValue(v: VarInfo, mode: string, counter: string, big: string): string {
    if (this.isFloatLocal(v)) return counter
    return `${mode} === 0 ? ${counter} : ${mode} === 1 ? $makeFloat(${counter}) : ${big}.value`
  }

  /** An expression in a single-value position. */
  protected expr(node: Node): string {
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
  protected multi(node: Node): string {
    if (node.type === "VarargLiteral") return `(${this.varargCharge(node)}, va)`
    return this.call(node, false)
  }

  /** Spreading `...` copies every value: they are charged to the work meter. */
  protected varargCharge(node: Node): string {
    return `(rt.budget -= va.length) <= 0 && $meter(${this.site(node)})`
  }

  /** An expression list as a fresh JS array (the last expression may contribute several values). */
  protected list(nodes: ReadonlyArray<Node>, ownParen = -1): string {
    const last = nodes.length - 1
    const tail = last >= 0 && this.isMulti(nodes[last], last === 0 ? ownParen : -1)
    const fixed = (tail ? nodes.slice(0, last) : nodes).map((n) => this.expr(n))
    if (!tail) return `[${fixed.join(", ")}]`
    return `$spread([${fixed.join(", ")}], ${this.multi(nodes[last])})`
  }

  protected name(node: Node): string {
    const r = this.use(node)
    if (r.kind !== "global") {
      const v = this.local(r.v)
      // A float-typed local leaves float arithmetic here: boxed when integral.
      return this.isFloatLocal(r.v) ? `($isInt(${v}) ? new $LuaFloat(${v}) : ${v})` : v
    }
    const name = node.name as string
    const absent = ABSENT.get(name)
    if (absent !== undefined) return `$absentGlobal(G${this.prop(name)}, ${this.k(absent)}, ${this.site(node)})`
    return `G${this.prop(name)}`
  }

  /** `base.name` for generated base code. */
  protected field(base: string, name: string, site: number, desc: string): string {
    if (this.compact) return `$getField(${base}, ${this.k(name)}, ${site}, ${this.k(desc)})`
    const t = this.temp()
    const v = this.temp()
    return `((${t} = ${base}) instanceof $LuaTable && (${v} = ${t}.fields${this.prop(name)}) !== undefined ? ${v} : $fieldMiss(${t}, ${this.k(name)}, ${site}, ${this.k(desc)}))`
  }

  protected indexExpression(node: Node): string {
    const site = this.site(node)
    const desc = this.describe(node.base)
    const k = this.constant(node.index)
    if (typeof k === "string") return this.field(this.expr(node.base), k, site, desc)
    if (this.compact) {
      const inPlace = this.inPlace(node.base, node.index)
      const obj = inPlace ? this.placed(node.base) : this.hold(node.base)
      const key = inPlace ? this.placed(node.index) : this.hold(node.index)
      return seq(obj.setup, key.setup, `$indexAny(${obj.ref}, ${key.ref}, ${site}, ${this.k(desc)})`)
    }
    const t = this.temp()
    const i = this.temp()
    if (typeof k === "number" && Number.isSafeInteger(k) && k >= 1 && k <= 2 ** 31)
      return `((${t} = ${this.expr(node.base)}) instanceof $LuaTable && ${k - 1} < ${t}.arr.length ? ${t}.arr[${k - 1}] : $indexAny(${t}, ${k}, ${site}, ${this.k(desc)}))`
    const obj = this.hold(node.base)
    const key = this.hold(node.index)
    const o = obj.ref
    const kr = key.ref
    const v = this.temp()
    // An array item, or a string key found in the table (`groups[name]`); everything else takes the call.
    return `(${[obj.setup, key.setup]
      .filter((x) => x !== "")
      .map((x) => x + ", ")
      .join(
        "",
      )}${o} instanceof $LuaTable && typeof ${kr} === "number" && (${i} = ${kr} - 1) >>> 0 === ${i} && ${i} < ${o}.arr.length ? ${o}.arr[${i}] : typeof ${kr} === "string" && ${o} instanceof $LuaTable && (${v} = ${o}.fields[${kr}]) !== undefined ? ${v} : $indexAny(${o}, ${kr}, ${site}, ${this.k(desc)}))`
  }

  /**
   * A call. `single` truncates the results to one value; otherwise the raw result (one value or a JS array) is
   * the expression's value. Lua evaluates the callee, then the arguments, then calls: values that a call in the
   * arguments could change are held in temporaries first.
   */
  protected call(node: Node, single: boolean): string {
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
    const compactCall = this.compact && !spread && argNodes.length <= 3
    if (base.type === "MemberExpression" && base.indexer === ":")
      code = this.methodCall(base, argNodes, spread, ownParen, site)
    else {
      const desc = this.k(this.describe(base))
      const callee = compactCall ? undefined : this.copy(base)
      if (callee === undefined) {
        // JS evaluates a call's arguments in order, each where it appears: as Lua copies a callee and arguments.
        const values = [base, ...argNodes].map((a) => this.expr(a))
        code = `$call${argNodes.length}(${values[0]}, ${desc}, ${site}${values
          .slice(1)
          .map((v) => `, ${v}`)
          .join("")})`
      } else if (spread && argNodes[last].type === "VarargLiteral") {
        // `f(a, ...)`: the varargs spread into the call (no array of the arguments is built to apply).
        const args = argNodes.slice(0, last).map((a) => this.copy(a))
        code = seq(
          callee.setup,
          ...args.map((a) => a.setup),
          this.varargCharge(argNodes[last]),
          `rt.site = ${site}`,
          `typeof ${callee.ref} === "function" ? ${callee.ref}(${[...args.map((a) => a.ref), "...va"].join(", ")}) : $callFail(${callee.ref}, ${desc}, ${site})`,
        )
      } else if (spread) {
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

  protected methodCall(
    base: Node,
    argNodes: ReadonlyArray<Node>,
    spread: boolean,
    ownParen: number,
    site: number,
  ): string {
    const name = base.identifier.name as string
    const desc = this.k(` (method '${name}')`)
    const o = this.temp()
    const fn = this.temp()
    const lookup = `${o} = ${this.expr(base.base)}, ${fn} = ${o} instanceof $LuaTable && (${fn} = ${o}.fields${this.prop(name)}) !== undefined ? ${fn} : $method(${o}, ${this.k(name)}, ${site}, ${this.k(this.describe(base.base))})`
    if (spread && argNodes[argNodes.length - 1].type === "VarargLiteral") {
      const args = argNodes.slice(0, -1).map((a) => this.copy(a))
      return seq(
        lookup,
        ...args.map((a) => a.setup),
        this.varargCharge(argNodes[argNodes.length - 1]),
        `rt.site = ${site}`,
        `typeof ${fn} === "function" ? ${fn}(${[o, ...args.map((a) => a.ref), "...va"].join(", ")}) : $callFail(${fn}, ${desc}, ${site})`,
      )
    }
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

  protected table(node: Node): string {
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
      // Records of up to 8 names get a part sized for them (`$Fields1` ... `$Fields8`, see RECORD_FIELDS).
      const make = names.length <= 8 ? `$Fields${names.length}` : "$Fields"
      return seq(`${o} = new ${make}()`, `${count} = 0`, ...parts, `$recordTable(${o}, ${count})`)
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

  protected logical(node: Node): string {
    const t = this.temp()
    const a = this.expr(node.left)
    const b = this.expr(node.right)
    if (this.compact)
      return node.operator === "and" ? `($truthy(${t} = ${a}) ? ${b} : ${t})` : `($truthy(${t} = ${a}) ? ${t} : ${b})`
    return node.operator === "and"
      ? `((${t} = ${a}) === undefined || ${t} === false ? ${t} : ${b})`
      : `((${t} = ${a}) !== undefined && ${t} !== false ? ${t} : ${b})`
  }

  /** A condition, as a JS boolean expression. */
  protected test(node: Node): string {
    if (node.type === "BinaryExpression" && COMPARISONS.has(node.operator)) return this.comparison(node)
    if (node.type === "UnaryExpression" && node.operator === "not") return `!${this.test(node.argument)}`
    if (node.type === "LogicalExpression")
      return `(${this.test(node.left)} ${node.operator === "and" ? "&&" : "||"} ${this.test(node.right)})`
    const c = this.constant(node)
    if (c !== NOT_CONSTANT) return c === undefined || c === false ? "false" : "true"
    if (this.compact) return `$truthy(${this.expr(node)})`
    const v = this.hold(node)
    return seq(v.setup, `${v.ref} !== undefined && ${v.ref} !== false`)
  }

  /** Both operands of a binary operator, each evaluated once, left first (`copied` for concatenation). */
  protected operands(node: Node, copied = false): [string, Held, Held] {
    const a = copied ? this.copy(node.left) : this.hold(node.left)
    const b = copied ? this.copy(node.right) : this.hold(node.right)
    return [a.setup === "" && b.setup === "" ? "" : [a.setup, b.setup].filter((x) => x !== "").join(", "), a, b]
  }

  protected comparison(node: Node): string {
    const op = node.operator as string
    const site = this.site(node)
    // `>` and `>=` pass their operands swapped: they are held.
    const [setup, a, b]: [string, Compared, Compared] =
      this.compact && op !== ">" && op !== ">=" && this.inPlace(node.left, node.right)
        ? ["", this.placed(node.left), this.placed(node.right)]
        : this.compact
          ? this.operands(node)
          : this.comparedOperands(node)
    const ca = this.constant(node.left)
    const cb = this.constant(node.right)
    if (op === "==" || op === "~=") {
      const identity = [ca, cb].some(
        (c) => c !== NOT_CONSTANT && (c === undefined || typeof c === "string" || typeof c === "boolean"),
      )
      // Two plain numbers are equal exactly when they are the same double (NaN is equal to nothing).
      const eq = identity
        ? `${a.ref} === ${b.ref}`
        : this.compact
          ? `$luaEq(${a.ref}, ${b.ref}, ${site})`
          : `(typeof ${a.ref} === "number" && typeof ${b.ref} === "number" ? ${a.ref} === ${b.ref} : $luaEq(${a.ref}, ${b.ref}, ${site}))`
      return seq(setup, op === "==" ? eq : `!(${eq})`)
    }
    // A float-typed operand is compared as its double: a JS number, compared as its boxed value would be.
    const numeric = (c: LuaValue | typeof NOT_CONSTANT, o: Compared) =>
      o.raw === true || typeof c === "number" || c instanceof LuaFloat ? "" : `typeof ${o.ref} === "number"`
    const checks = [numeric(ca, a), numeric(cb, b)].filter((x) => x !== "").join(" && ") || "true"
    // An integral float constant compares by its value (`x < 1.0` is `x < 1`).
    const x = a.raw !== true && ca instanceof LuaFloat ? floatText(ca) : a.ref
    const y = b.raw !== true && cb instanceof LuaFloat ? floatText(cb) : b.ref
    const slow =
      op === "<"
        ? `$lessThan(${a.ref}, ${b.ref}, ${site})`
        : op === "<="
          ? `$lessEqual(${a.ref}, ${b.ref}, ${site})`
          : op === ">"
            ? `$lessThan(${b.ref}, ${a.ref}, ${site})`
            : `$lessEqual(${b.ref}, ${a.ref}, ${site})`
    return seq(setup, this.compact ? slow : `${checks} ? ${x} ${op} ${y} : ${slow}`)
  }

  /** Both operands of a comparison, each evaluated once, left first: float-typed ones as doubles. */
  protected comparedOperands(node: Node): [string, Compared, Compared] {
    if (!this.isFloat(node.left) && !this.isFloat(node.right)) return this.operands(node)
    // An integer operand is compared exactly, not as a double: it is not converted.
    const a = this.rawOperand(node.left, false)
    const b = this.rawOperand(node.right, false)
    return [[a.setup, b.setup].filter((x) => x !== "").join(", "), a, b]
  }

  protected binary(node: Node): string {
    const op = node.operator as string
    if (COMPARISONS.has(op)) return this.comparison(node)
    if (op === "..") return this.concat(node)
    if (!this.compact && this.isFloat(node) && !this.constantOperands(node)) return this.boxed(this.raw(node))
    const code = ARITH_OPS.get(op)
    if (code === undefined) return this.fail(node, `unsupported operator ${op}`)
    const site = this.site(node)
    const [setup, a, b] =
      this.compact && this.inPlace(node.left, node.right)
        ? ["", this.placed(node.left), this.placed(node.right)]
        : this.operands(node)
    const ca = this.constant(node.left)
    const cb = this.constant(node.right)
    const descs = `${site}, ${this.k(this.describe(node.left))}, ${this.k(this.describe(node.right))}`
    const anyFn = ANY_OPERAND.get(code)
    const slow =
      // PUC Lua compiles `x - 0` as `x + 0` (its immediate operand is negated), so that `-0.0 - 0` is `0.0`.
      code === Op.Sub && cb === 0
        ? `$subZero(${code}, ${a.ref}, ${b.ref}, ${descs})`
        : anyFn !== undefined
          ? `${anyFn}(${a.ref}, ${b.ref}, ${descs})`
          : `$arith(${code}, ${a.ref}, ${b.ref}, ${descs})`
    if (this.compact) return seq(setup, slow)
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
      case Op.Sub:
      case Op.Mul:
      case Op.Div: {
        // Two constants: V8 would fold the operation at compile time and lose the sign of a NaN (`0/0` is `-nan`).
        if (typeof ca === "number" && typeof cb === "number") return `${anyFn}(${a.ref}, ${b.ref}, ${descs})`
        // The JS result is the Lua result unless the operands' kinds disagree with the result's (an integral float
        // result, an integer overflow, or a `-0` product of integers): the rare cases take the slow call.
        const r = this.temp()
        const symbol = code === Op.Add ? "+" : code === Op.Sub ? "-" : code === Op.Mul ? "*" : "/"
        const isInt = (c: LuaValue | typeof NOT_CONSTANT, ref: string) =>
          typeof c === "number" ? Number.isSafeInteger(c) : `$isInt(${ref})`
        const ints = code === Op.Div ? [false] : [isInt(ca, a.ref), isInt(cb, b.ref)]
        const resultInt = `$isInt(${r})`
        const cond = ints.includes(false)
          ? `!${resultInt}`
          : ints.every((x) => x === true)
            ? resultInt
            : `${resultInt} === (${ints.filter((x) => x !== true).join(" && ")})`
        const value = code === Op.Mul ? `${r} + 0` : r
        return seq(setup, `${numbers} && (${r} = ${a.ref} ${symbol} ${b.ref}, ${cond}) ? ${value} : ${slow}`)
      }
      case Op.Pow:
        return seq(setup, `${numbers} ? $powNN(${a.ref}, ${b.ref}) : ${slow}`)
      case Op.Mod:
      case Op.IDiv: {
        const r = this.temp()
        const fn = code === Op.Mod ? "$modNN" : "$idivNN"
        if (typeof cb === "number" && Number.isSafeInteger(cb) && cb > 0 && cb < 2 ** 31 && typeof ca !== "number") {
          // A positive int32 divisor (`i % 7`, `n // 2`): an int32 dividend is computed in place, on integers.
          // `r + c` is exact for a remainder in (-c, 0); the quotient of int32s rounds to the nearest double closer
          // than 1/c, so its floor is exact.
          const x = a.ref
          const fast =
            code === Op.Mod
              ? `(${x} | 0) === ${x} ? ((${r} = (${x} | 0) % ${cb}) < 0 ? ${r} + ${cb} : ${r} + 0)`
              : `(${x} | 0) === ${x} ? Math.floor(${x} / ${cb}) + 0`
          return seq(setup, `typeof ${x} === "number" ? (${fast} : ${fn}(${x}, ${cb})) : ${slow}`)
        }
        // Two int32 operands and a positive divisor (`i % #t`): the remainder in place, as above.
        const int32Mod =
          code === Op.Mod
            ? `${int32} && ${b.ref} > 0 ? ((${r} = ${a.ref} % ${b.ref}) < 0 ? ${r} + ${b.ref} : ${r} + 0) : `
            : ""
        return seq(setup, `${int32Mod}${numbers} && (${r} = ${fn}(${a.ref}, ${b.ref})) !== undefined ? ${r} : ${slow}`)
      }
      case Op.BAnd:
        return seq(setup, `${int32} ? ${a.ref} & ${b.ref} : ${slow}`)
      case Op.BOr:
        return seq(setup, `${int32} ? ${a.ref} | ${b.ref} : ${slow}`)
      case Op.BXor:
        return seq(setup, `${int32} ? ${a.ref} ^ ${b.ref} : ${slow}`)
      // Shifts of an int32 by 0 to 31 (right, of a non-negative one) or 0 to 21 (left: the result stays below 2^53).
      case Op.Shr:
        return seq(
          setup,
          `${int32} && ${a.ref} >= 0 && ${b.ref} >= 0 && ${b.ref} < 32 ? ${a.ref} >>> ${b.ref} : ${slow}`,
        )
      case Op.Shl:
        return seq(setup, `${int32} && ${b.ref} >= 0 && ${b.ref} < 22 ? ${a.ref} * (1 << ${b.ref}) + 0 : ${slow}`)
      default:
        return seq(setup, slow)
    }
  }

  /**
   * True when `node`, if it evaluates without an error, gives a float: a float numeral, `/` and `^`, and `+ - * % //`
   * and unary minus with such an operand. A tree of these is computed on doubles ({@link raw}) and its value boxed
   * once, at its root, when it is integral: no intermediate `2.0` is allocated, no operand is checked twice.
   */
  protected isFloat(node: Node): boolean {
    const c = this.floatCondition(node)
    return typeof c === "boolean" ? c : c.some((v) => this.isFloatLocal(v))
  }

  /**
   * When `node` is float-typed (see {@link isFloat}): always, never, or when one of the listed locals is (a
   * float-typed local is one too; see types.ts).
   */
  protected floatCondition(node: Node): FloatCondition {
    switch (node.type) {
      case "NumericLiteral": {
        const c = this.constant(node)
        return c instanceof LuaFloat || (typeof c === "number" && !Number.isSafeInteger(c))
      }
      case "Identifier": {
        const r = this.use(node)
        return r.kind === "global" ? false : [r.v]
      }
      case "UnaryExpression":
        return node.operator === "-" ? this.floatCondition(node.argument) : false
      case "BinaryExpression": {
        const code = ARITH_OPS.get(node.operator)
        if (code === undefined || !FLOAT_OPS.has(code)) return false
        if (code === Op.Div || code === Op.Pow) return true
        // Two constants take the general path, which V8 does not fold (folding would lose the sign of a NaN).
        if (this.constantOperands(node)) return this.isFloat(node.left) || this.isFloat(node.right)
        const a = this.floatCondition(node.left)
        if (a === true) return true
        const b = this.floatCondition(node.right)
        if (b === true) return true
        return a === false ? b : b === false ? a : [...a, ...b]
      }
      default:
        return false
    }
  }

  /**
   * The value of a float-typed operation on two numeric constants (`4 / 2`, `1 / 3`), computed here when it is
   * finite and not zero: V8 may fold what the generated code computes from constants, and an operation on finite,
   * nonzero doubles gives no NaN, whose sign V8's folding would lose (`0 / 0` is `-nan` in C). Undefined otherwise.
   */
  protected foldedFloat(node: Node): number | undefined {
    const a = this.constant(node.left)
    const b = this.constant(node.right)
    if (!isNumeral(a) || !isNumeral(b)) return undefined
    const r = arith(ARITH_OPS.get(node.operator)!, a, b, 0)
    const n = r instanceof LuaFloat ? r.n : r
    return typeof n === "number" && Number.isFinite(n) && n !== 0 ? n : undefined
  }

  /** True for a binary operation on two constants: it takes the general path (see {@link floatCondition}). */
  protected constantOperands(node: Node): boolean {
    return this.constant(node.left) !== NOT_CONSTANT && this.constant(node.right) !== NOT_CONSTANT
  }

  /** A float-typed expression ({@link isFloat}) as JS source giving its value as a double. */
  protected raw(node: Node): string {
    const c = this.constant(node)
    if (c !== NOT_CONSTANT) return floatText(c as number | LuaFloat)
    if (node.type === "Identifier") return this.local(this.floatLocalOf(node)!)
    if (node.type === "UnaryExpression") return `(-${this.raw(node.argument)})`
    if (this.constantOperands(node)) {
      const folded = this.foldedFloat(node)
      return folded !== undefined ? floatText(folded) : `$floatValue(${this.expr(node)})`
    }
    const code = ARITH_OPS.get(node.operator)!
    const site = this.site(node)
    const a = this.rawOperand(node.left)
    const b = this.rawOperand(node.right)
    const setup = [a.setup, b.setup].filter((x) => x !== "").join(", ")
    const checks = [a, b].filter((o) => o.check).map((o) => `typeof ${o.ref} === "number"`)
    const x = a.ref
    const y = b.ref
    const fast =
      code === Op.Add || (code === Op.Sub && this.constant(node.right) === 0)
        ? // PUC Lua compiles `x - 0` as `x + 0`, so that `-0.0 - 0` is `0.0`.
          `${x} + ${code === Op.Add ? y : "0"}`
        : code === Op.Sub
          ? `${x} - ${y}`
          : code === Op.Mul
            ? `${x} * ${y}`
            : code === Op.Div
              ? `${x} / ${y}`
              : code === Op.Mod
                ? `$floatMod(${x}, ${y})`
                : code === Op.Pow
                  ? `$floatPow(${x}, ${y})`
                  : `Math.floor(${x} / ${y})`
    // The slow path gets the doubles unboxed, and which of them they are (boxed only if an error or a string needs it).
    const raws = (a.raw ? 1 : 0) | (b.raw ? 2 : 0)
    const slow = `$floatArith(${code}, ${a.ref}, ${b.ref}, ${site}, ${this.k(this.describe(node.left))}, ${this.k(this.describe(node.right))}, ${raws})`
    if (checks.length === 0) return seq(setup, fast)
    return seq(setup, `${checks.join(" && ")} ? ${fast} : ${slow}`)
  }

  /**
   * An operand of a float-typed operation, evaluated once in Lua's order: a float-typed one as a double (`raw`),
   * any other as its Lua value (`check`: it must be tested for a JS number).
   */
  protected rawOperand(node: Node, converted = true): RawOperand {
    const c = this.constant(node)
    if (c !== NOT_CONSTANT && (typeof c === "number" || c instanceof LuaFloat))
      return { setup: "", ref: floatText(c), raw: true, check: false }
    // A float-typed local is read in place when it is a register (see `Emitter.hold`).
    if (this.floatLocalOf(node) !== undefined && this.register(node))
      return { setup: "", ref: this.raw(node), raw: true, check: false }
    if (this.isFloat(node)) return { ...this.holdCode(this.raw(node)), raw: true, check: false }
    if (converted && this.isConverted(node)) return { ...this.holdCode(this.converted(node)), raw: true, check: false }
    return { ...this.hold(node), raw: false, check: true }
  }

  /**
   * True for `a + b`, `a - b` and `a * b` (not `a - 0`, see {@link binary}) that are not float-typed: as an operand of
   * float arithmetic, their value is converted to a float at once, so they are computed as doubles
   * ({@link converted}), whether their operands are integers or floats, and no integral result is boxed.
   */
  protected isConverted(node: Node): boolean {
    if (node.type !== "BinaryExpression") return false
    const code = ARITH_OPS.get(node.operator)
    return code === Op.Add || code === Op.Mul || (code === Op.Sub && this.constant(node.right) !== 0)
  }

  /**
   * The value of an {@link isConverted} operation as a double. Two JS numbers are added, subtracted or multiplied
   * as doubles: exact unless both are integers and the result leaves the safe range (64-bit wrap-around is the slow
   * path's), and a product of integers that is `-0` is `0`. Anything else (a boxed float, a string, an error) takes
   * `$convertedArith`, as compact code does for every case.
   */
  protected converted(node: Node): string {
    const code = ARITH_OPS.get(node.operator)!
    const site = this.site(node)
    const [setup, a, b] = this.operands(node)
    const ca = this.constant(node.left)
    const cb = this.constant(node.right)
    const number = (c: LuaValue | typeof NOT_CONSTANT, ref: string) =>
      typeof c === "number" ? "" : `typeof ${ref} === "number"`
    const int = (c: LuaValue | typeof NOT_CONSTANT, ref: string) =>
      typeof c === "number" ? (Number.isSafeInteger(c) ? "" : "false") : `$isInt(${ref})`
    const checks = [number(ca, a.ref), number(cb, b.ref)].filter((x) => x !== "")
    const ints = [int(ca, a.ref), int(cb, b.ref)].filter((x) => x !== "")
    const r = this.temp()
    const symbol = code === Op.Add ? "+" : code === Op.Sub ? "-" : "*"
    // Integer operands: the double result is exact when it is a safe integer (`+= 0` turns a product's -0 into 0).
    const exact = ints.includes("false")
      ? "true"
      : ints.length === 0
        ? `$isInt(${r} += 0)`
        : `!(${ints.join(" && ")}) || $isInt(${r} += 0)`
    const slow = `$convertedArith(${code}, ${a.ref}, ${b.ref}, ${site}, ${this.k(this.describe(node.left))}, ${this.k(this.describe(node.right))})`
    // Compact code calls the intrinsic, which does the same.
    if (this.compact) return seq(setup, slow)
    return seq(setup, `${[...checks, `(${r} = ${a.ref} ${symbol} ${b.ref}, ${exact})`].join(" && ")} ? ${r} : ${slow}`)
  }

  /** The Lua value of a double that is a float: boxed when it is integral. */
  protected boxed(raw: string): string {
    const t = this.temp()
    return `($isInt(${t} = ${raw}) ? new $LuaFloat(${t}) : ${t})`
  }

  /** `a .. b .. c`: right-associative chains are flattened and concatenated in one go. */
  protected concat(node: Node): string {
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
    if (this.compact) return `$concatMany([${operands.map((o) => this.expr(o)).join(", ")}], ${this.k(descs)}, ${site})`
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
    if (operands.length > 6)
      return `$concatMany([${operands.map((o) => this.expr(o)).join(", ")}], ${this.k(descs)}, ${site})`
    // A short chain of strings is joined in place (no array); anything else, or a result over the bound, takes the
    // general path with the values already computed.
    const held = operands.map((o) => this.copy(o))
    const refs = held.map((h) => h.ref)
    const r = this.temp()
    const strings = held
      .filter((_, i) => typeof this.constant(operands[i]) !== "string")
      .map((h) => `typeof ${h.ref} === "string"`)
    const slow = `$concatMany([${refs.join(", ")}], ${this.k(descs)}, ${site})`
    const fast = `(${r} = ${refs.join(" + ")}).length <= ${MAX_STRING_BYTES} ? ${r} : ${slow}`
    return seq(
      held
        .map((h) => h.setup)
        .filter((x) => x !== "")
        .join(", "),
      strings.length === 0 ? fast : `${strings.join(" && ")} ? (${fast}) : ${slow}`,
    )
  }

  protected unary(node: Node): string {
    const op = node.operator as string
    if (op === "not") return `!${this.test(node.argument)}`
    const site = this.site(node)
    if (op === "-" && node.argument.type === "NumericLiteral")
      return this.literal(arith(Op.Unm, this.number(node.argument), 0, site))
    if (op === "-" && !this.compact && this.isFloat(node.argument)) return this.boxed(`-${this.raw(node.argument)}`)
    // In compact code `#` reads its operand once: in place.
    const v = this.compact && op === "#" ? this.placed(node.argument) : this.hold(node.argument)
    const d = this.k(this.describe(node.argument))
    if (this.compact)
      return seq(
        v.setup,
        op === "#"
          ? `$lengthOf(${v.ref}, ${site}, ${d})`
          : `$arith(${op === "-" ? Op.Unm : Op.BNot}, ${v.ref}, ${v.ref}, ${site}, ${d}, ${d})`,
      )
    switch (op) {
      case "-":
        return seq(
          v.setup,
          `typeof ${v.ref} === "number" ? ($isInt(${v.ref}) ? 0 - ${v.ref} : -${v.ref}) : $arith(${Op.Unm}, ${v.ref}, ${v.ref}, ${site}, ${d}, ${d})`,
        )
      case "#":
        return seq(
          v.setup,
          `${v.ref} instanceof $LuaTable && ${v.ref}.arr.length > 0 ? ${v.ref}.arr.length : $lengthOf(${v.ref}, ${site}, ${d})`,
        )
      default:
        return seq(
          v.setup,
          `typeof ${v.ref} === "number" && (${v.ref} | 0) === ${v.ref} ? ~${v.ref} : $arith(${Op.BNot}, ${v.ref}, ${v.ref}, ${site}, ${d}, ${d})`,
        )
    }
  }

  /** A function literal as a JS function expression (see statements.ts). */
  protected abstract closure(node: Node, self?: SelfName): string
}
