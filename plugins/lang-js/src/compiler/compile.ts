/**
 * The compiler: turns the analysed AST into a tree of host closures, once per execution.
 *
 * Each expression becomes `(env) => value` and each statement `(env) => signal`. Variables are environment slots
 * found at compile time; hot operators carry inline fast paths for numbers and strings; loops and calls charge the
 * work meter. Function bodies that contain `await`/`yield` are compiled by `Resumable` into host generators; all
 * other code stays in plain closures.
 */
import { MAX_CALL_DEPTH } from "../limits.js"
import type { Node } from "../parse.js"
import { locationOf } from "../parse.js"
import type { Location } from "../protocol.js"
import { caught, throwReferenceError, throwTypeError, throwUnsupported, throwValue } from "../runtime/errors.js"
import {
  call,
  hostGetter,
  hostSetter,
  isConstructor,
  isObject,
  NO_ARGS,
  type Call3Impl,
  type CallImpl,
  type ConstructImpl,
  type Value,
} from "../runtime/functions.js"
import {
  CALL,
  CALL3,
  CONSTRUCT,
  ENV,
  FIELDS,
  HOME,
  registerPrivateName,
  type FunctionMeta,
} from "../runtime/internals.js"
import { DONE, getIterator, arrayIterationIsPristine } from "../runtime/iterators.js"
import { refuel, tooDeep } from "../runtime/meter.js"
import {
  add,
  arithmetic,
  compare,
  concat,
  hasProperty,
  instanceOf,
  looseEquals,
  toNumber,
  toPrimitive,
  toPropertyKey,
  toStr,
  typeOf,
  unary,
} from "../runtime/operators.js"
import {
  copyDataProperties,
  createDataProperty,
  deleteProp,
  getComputed,
  getPrimitiveProp,
  setComputed,
  setProp,
} from "../runtime/properties.js"
import type { Realm } from "../runtime/realm.js"
import { promiseResolve, rejectedPromise } from "../runtime/promises.js"
import { rt } from "../runtime/state.js"
import { type Analysis, type Binding, type FunctionInfo, hopsTo, type Scope } from "./analyze.js"
import { unsupportedGlobalHint } from "./unsupportedGlobals.js"
import {
  constAssignError,
  createArguments,
  defineMethodProperty,
  forInKeys,
  initializeInstance,
  notFunction,
  privateGet,
  privateIn,
  privateSet,
  prototypeFor,
  requireDestructurable,
  restArray,
  setPrototype,
  spreadInto,
  superConstruct,
  superGet,
  superSet,
  tdzError,
  templateObject,
  type ClassElement,
} from "./ops.js"
import { Resumable } from "./resumable.js"
import {
  BREAK,
  CONTINUE,
  type Env,
  type Expr,
  type GStmt,
  RETURN,
  SHORT,
  Signal,
  type Stmt,
  TDZ,
  unsupported,
} from "./shared.js"

/** Writes a value into a binding or assignment target. */
export type Writer = (env: Env, value: Value) => void

/** How a pattern binds: declarations initialize, assignments assign (checking `const` and TDZ). */
export type BindMode = "init" | "assign"

/** Everything needed to create closures of one function definition. */
export interface FunctionTemplate {
  readonly call: CallImpl
  readonly construct: ConstructImpl | undefined
  readonly meta: FunctionMeta
  /** The argument-list-free entry, for functions with at most three plain parameters. */
  readonly call3?: Call3Impl
}

/** How an operand is read (see `Compiler.operand`). */
export interface Operand {
  readonly kind: 0 | 1 | 2 | 3
  readonly slot: number
  readonly value: Value
  readonly expr: Expr
}

/** Up to three call arguments as inline operands (see `Compiler.directArguments`). */
interface DirectArguments {
  readonly n: number
  readonly k0: number
  readonly s0: number
  readonly v0: Value
  readonly e0: Expr
  readonly k1: number
  readonly s1: number
  readonly v1: Value
  readonly e1: Expr
  readonly k2: number
  readonly s2: number
  readonly v2: Value
  readonly e2: Expr
}

/** Resolves `import` specifiers to module values (provided by the host bridge). */
export type ModuleResolver = (specifier: string, location: Location) => Value

/** A compiled program. */
export interface CompiledProgram {
  /** Create the top-level environment (bindings, imports, hoisted functions). */
  readonly setup: () => Env
  /** The plain body, when the program has no top-level `await`. */
  readonly body: Stmt | undefined
  /** The resumable body, when it has. */
  readonly resumableBody: GStmt | undefined
}

const EMPTY_STATEMENT: Stmt = () => undefined

const numberFast = (op: string): ((a: number, b: number) => Value) | undefined => {
  switch (op) {
    case "-":
      return (a, b) => a - b
    case "*":
      return (a, b) => a * b
    case "/":
      return (a, b) => a / b
    case "%":
      return (a, b) => a % b
    case "**":
      return (a, b) => a ** b
    case "&":
      return (a, b) => a & b
    case "|":
      return (a, b) => a | b
    case "^":
      return (a, b) => a ^ b
    case "<<":
      return (a, b) => a << b
    case ">>":
      return (a, b) => a >> b
    case ">>>":
      return (a, b) => a >>> b
  }
  return undefined
}

/** The function implementing a binary operator on any two values. */
export const binaryOperator = (op: string): ((a: Value, b: Value) => Value) => {
  switch (op) {
    case "+":
      return (a, b) => (typeof a === "number" && typeof b === "number" ? a + b : add(a, b))
    case "-":
      return (a, b) => (typeof a === "number" && typeof b === "number" ? a - b : arithmetic("-", a, b))
    case "*":
      return (a, b) => (typeof a === "number" && typeof b === "number" ? a * b : arithmetic("*", a, b))
    case "/":
      return (a, b) => (typeof a === "number" && typeof b === "number" ? a / b : arithmetic("/", a, b))
    case "%":
      return (a, b) => (typeof a === "number" && typeof b === "number" ? a % b : arithmetic("%", a, b))
    case "**":
    case "&":
    case "|":
    case "^":
    case "<<":
    case ">>":
    case ">>>": {
      const fast = numberFast(op)!
      return (a, b) => (typeof a === "number" && typeof b === "number" ? fast(a, b) : arithmetic(op, a, b))
    }
    case "<":
      return (a, b) =>
        (typeof a === "number" && typeof b === "number") || (typeof a === "string" && typeof b === "string")
          ? a < b
          : compare("<", a, b)
    case ">":
      return (a, b) =>
        (typeof a === "number" && typeof b === "number") || (typeof a === "string" && typeof b === "string")
          ? a > b
          : compare(">", a, b)
    case "<=":
      return (a, b) =>
        (typeof a === "number" && typeof b === "number") || (typeof a === "string" && typeof b === "string")
          ? a <= b
          : compare("<=", a, b)
    case ">=":
      return (a, b) =>
        (typeof a === "number" && typeof b === "number") || (typeof a === "string" && typeof b === "string")
          ? a >= b
          : compare(">=", a, b)
    case "===":
      return (a, b) => a === b
    case "!==":
      return (a, b) => a !== b
    case "==":
      return (a, b) => (typeof a === typeof b && typeof a !== "object" ? a === b : looseEquals(a, b))
    case "!=":
      return (a, b) => !(typeof a === typeof b && typeof a !== "object" ? a === b : looseEquals(a, b))
    case "in":
      return (a, b) => hasProperty(a, b)
    case "instanceof":
      return (a, b) => instanceOf(a, b)
  }
  throw new Error(`internal: unknown operator ${op}`)
}

/** The name a property key gives a function (`[description]` for symbols). */
export const keyName = (key: PropertyKey): string =>
  typeof key === "symbol" ? (key.description === undefined ? "" : `[${key.description}]`) : String(key)

const compareAny = (op: string, a: Value, b: Value): boolean => {
  if (typeof a === "string" && typeof b === "string") {
    return op === "<" ? a < b : op === ">" ? a > b : op === "<=" ? a <= b : a >= b
  }
  return compare(op, a, b)
}

const isAnonymousFunctionDefinition = (n: Node): boolean =>
  ((n.type === "FunctionExpression" || n.type === "ClassExpression") && !n.id) || n.type === "ArrowFunctionExpression"

const propertyKeyName = (key: Node, computed: boolean): string | undefined => {
  if (computed)
    return key.type === "Literal" && (typeof key.value === "string" || typeof key.value === "number")
      ? String(key.value)
      : undefined
  if (key.type === "Identifier") return key.name
  if (key.type === "Literal") return String(key.value)
  return undefined
}

/** The compiler for one execution. */
export class Compiler {
  private readonly locations = new Map<Node, Location>()
  private readonly labelSignals = new Map<string, { break: Signal; continue: Signal }>()
  /** The resumable-form compiler (async functions, generators, top-level await). */
  readonly resumable: Resumable

  constructor(
    readonly analysis: Analysis,
    readonly realm: Realm,
    readonly source: string,
    readonly resolveModule: ModuleResolver,
  ) {
    this.resumable = new Resumable(this)
  }

  /** The 1-based location of a node (cached: compiled closures keep one object per node). */
  loc(node: Node): Location {
    let l = this.locations.get(node)
    if (l === undefined) {
      l = locationOf(node)
      this.locations.set(node, l)
    }
    return l
  }

  /** The source text of a node, shortened for messages. */
  text(node: Node): string {
    const t = this.source.slice(node.start, node.end)
    return t.length > 60 ? `${t.slice(0, 57)}...` : t
  }

  /** The signals of a label. */
  labelSignal(label: string): { break: Signal; continue: Signal } {
    let s = this.labelSignals.get(label)
    if (s === undefined) {
      s = { break: new Signal("break", label), continue: new Signal("continue", label) }
      this.labelSignals.set(label, s)
    }
    return s
  }

  /** True when a node contains `await`/`yield` of its own function. */
  suspends(node: Node): boolean {
    return this.analysis.suspends.has(node)
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Program
  // ---------------------------------------------------------------------------------------------------------------

  /** Compile the whole program. */
  program(program: Node): CompiledProgram {
    const info = this.analysis.program
    const scope = info.scope
    const size = scope.size
    const tdzSlots = this.tdzSlots(scope)
    const imports: Array<(env: Env) => void> = []
    for (const s of program.body) {
      if (s.type === "ImportDeclaration") imports.push(this.importDeclaration(s))
      else if (s.type.startsWith("Export")) {
        unsupported(s, "`export` is not supported", "Programs are not modules that export: return the value instead")
      }
    }
    const functions = this.hoistedFunctions(scope)
    const thisSlot = info.thisBinding!.slot
    const setup = (): Env => {
      const env: Env = new Array(size)
      env[0] = undefined
      for (let i = 0; i < tdzSlots.length; i++) env[tdzSlots[i]] = TDZ
      env[thisSlot] = undefined
      for (const imp of imports) imp(env)
      functions(env)
      return env
    }
    const statements = program.body.filter((s: Node) => s.type !== "ImportDeclaration")
    if (info.suspends) {
      return { setup, body: undefined, resumableBody: this.resumable.statementList(statements, true) }
    }
    return { setup, body: this.statementList(statements, true), resumableBody: undefined }
  }

  private importDeclaration(s: Node): (env: Env) => void {
    const specifier = String(s.source.value)
    const loc = this.loc(s)
    const writers = s.specifiers.map((spec: Node) => {
      const write = this.initWriter(spec.local)
      switch (spec.type) {
        case "ImportDefaultSpecifier":
          return (env: Env, module: Value) => write(env, module)
        case "ImportNamespaceSpecifier":
          return (env: Env, module: Value) => write(env, this.namespaceObject(module))
        default: {
          const name = spec.imported.type === "Identifier" ? spec.imported.name : String(spec.imported.value)
          if (name === "default") return (env: Env, module: Value) => write(env, module)
          return (env: Env, module: Value) => {
            const v = isObject(module) ? module[name] : undefined
            if (v === undefined) {
              throwValue(
                rt.realm.makeError(
                  "SyntaxError",
                  `The module '${specifier}' does not provide an export named '${name}'`,
                ),
                loc,
              )
            }
            write(env, v)
          }
        }
      }
    })
    return (env) => {
      const module = this.resolveModule(specifier, loc)
      for (const w of writers) w(env, module)
    }
  }

  /** The namespace object of a module (`import * as m`, dynamic `import()`): its properties plus `default`. */
  namespaceObject(module: Value): Value {
    const ns = Object.create(null)
    if (isObject(module)) for (const k of Object.keys(module)) ns[k] = module[k]
    ns.default = module
    return ns
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Variables
  // ---------------------------------------------------------------------------------------------------------------

  /** Slots of a scope's bindings that need a TDZ marker when the scope is entered. */
  tdzSlots(scope: Scope): number[] {
    const out: number[] = []
    for (const b of scope.bindings.values()) {
      if (b.tdz && (b.kind === "let" || b.kind === "const" || b.kind === "class" || b.kind === "classInner"))
        out.push(b.slot)
    }
    return out
  }

  /** Instantiate the function declarations hoisted to the start of a scope. */
  hoistedFunctions(scope: Scope): (env: Env) => void {
    const decls = scope.functionDeclarations
    if (decls.length === 0) return () => {}
    const makers = decls.map((d) => {
      const write = this.initWriter(d.id)
      const make = this.functionExpression(d, d.id.name)
      return (env: Env) => write(env, make(env))
    })
    return (env) => {
      for (let i = 0; i < makers.length; i++) makers[i](env)
    }
  }

  private binding(node: Node): Binding | null {
    const b = this.analysis.refs.get(node)
    if (b === undefined) throw new Error(`internal: unresolved reference ${node.name ?? node.type} at ${node.start}`)
    return b
  }

  /** Read a binding from the environment of the reference's scope. */
  readBinding(node: Node, b: Binding): Expr {
    const hops = hopsTo(this.analysis.refScopes.get(node)!, b)
    const slot = b.slot
    if (b.tdz) {
      const name = b.name
      const loc = this.loc(node)
      switch (hops) {
        case 0:
          return (env) => {
            const v = env[slot]
            return v === TDZ ? tdzError(name, loc) : v
          }
        case 1:
          return (env) => {
            const v = env[0][slot]
            return v === TDZ ? tdzError(name, loc) : v
          }
        default:
          return (env) => {
            let e = env
            for (let i = 0; i < hops; i++) e = e[0]
            const v = e[slot]
            return v === TDZ ? tdzError(name, loc) : v
          }
      }
    }
    switch (hops) {
      case 0:
        return (env) => env[slot]
      case 1:
        return (env) => env[0][slot]
      case 2:
        return (env) => env[0][0][slot]
      case 3:
        return (env) => env[0][0][0][slot]
      default:
        return (env) => {
          let e = env
          for (let i = 0; i < hops; i++) e = e[0]
          return e[slot]
        }
    }
  }

  /** A function that returns the environment holding a binding. */
  envOf(node: Node, b: Binding): (env: Env) => Env {
    const hops = hopsTo(this.analysis.refScopes.get(node)!, b)
    switch (hops) {
      case 0:
        return (env) => env
      case 1:
        return (env) => env[0]
      case 2:
        return (env) => env[0][0]
      default:
        return (env) => {
          let e = env
          for (let i = 0; i < hops; i++) e = e[0]
          return e
        }
    }
  }

  private identifier(node: Node): Expr {
    const b = this.binding(node)
    if (b === null) return this.readGlobal(node, node.name, false)
    return this.readBinding(node, b)
  }

  /** Read a global variable (a realm cell, or a `globalThis` property created by the program). */
  readGlobal(node: Node, name: string, forTypeof: boolean): Expr {
    if (name === "undefined") return () => undefined
    const cell = this.realm.cells.get(name)
    if (cell) return () => cell.value
    const g = this.realm.globalObject
    if (forTypeof) return () => g[name]
    const loc = this.loc(node)
    const hint = unsupportedGlobalHint(name)
    return () => {
      if (name in g) return g[name]
      if (hint !== undefined) return throwUnsupported(`${name} is not available: ${hint}`, loc)
      return throwReferenceError(`${name} is not defined`, loc)
    }
  }

  /** A writer that initializes a declared binding (declarations, parameters, imports). */
  initWriter(node: Node): Writer {
    const b = this.binding(node)
    if (b === null) throw new Error(`internal: declaration ${node.name} has no binding`)
    const slot = b.slot
    const hops = hopsTo(this.analysis.refScopes.get(node)!, b)
    if (hops === 0) {
      return (env, v) => {
        env[slot] = v
      }
    }
    const envOf = this.envOf(node, b)
    return (env, v) => {
      envOf(env)[slot] = v
    }
  }

  /** A writer for assigning to an identifier (checks `const`, TDZ; globals must exist). */
  assignWriter(node: Node): Writer {
    const b = this.binding(node)
    const loc = this.loc(node)
    if (b === null) {
      const name = node.name
      const cell = this.realm.cells.get(name)
      if (cell) {
        return (_env, v) => {
          cell.value = v
        }
      }
      const g = this.realm.globalObject
      return (_env, v) => {
        if (!(name in g)) throwReferenceError(`${name} is not defined`, loc)
        g[name] = v
      }
    }
    if (b.immutable) {
      const read = b.tdz ? this.readBinding(node, b) : undefined
      return (env) => {
        if (read) read(env)
        constAssignError(loc)
      }
    }
    const slot = b.slot
    const envOf = this.envOf(node, b)
    if (b.tdz) {
      const name = b.name
      return (env, v) => {
        const e = envOf(env)
        if (e[slot] === TDZ) tdzError(name, loc)
        e[slot] = v
      }
    }
    const hops = hopsTo(this.analysis.refScopes.get(node)!, b)
    if (hops === 0) {
      return (env, v) => {
        env[slot] = v
      }
    }
    return (env, v) => {
      envOf(env)[slot] = v
    }
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Expressions
  // ---------------------------------------------------------------------------------------------------------------

  /** Compile an expression. `name` names anonymous functions and classes (`const f = () => {}`). */
  expr(n: Node, name?: string): Expr {
    switch (n.type) {
      case "Literal":
        return this.literal(n)
      case "Identifier":
        return this.identifier(n)
      case "ThisExpression":
        return this.readBinding(n, this.analysis.refs.get(n)!)
      case "TemplateLiteral":
        return this.template(n)
      case "TaggedTemplateExpression":
        return this.taggedTemplate(n)
      case "ArrayExpression":
        return this.arrayLiteral(n)
      case "ObjectExpression":
        return this.objectLiteral(n)
      case "FunctionExpression":
      case "ArrowFunctionExpression":
        return this.functionExpression(n, n.id?.name ?? name ?? "")
      case "ClassExpression":
        return this.classExpression(n, n.id?.name ?? name ?? "")
      case "UnaryExpression":
        return this.unaryExpression(n)
      case "UpdateExpression":
        return this.update(n)
      case "BinaryExpression":
        return this.binary(n)
      case "LogicalExpression":
        return this.logical(n)
      case "AssignmentExpression":
        return this.assignment(n)
      case "ConditionalExpression": {
        const t = this.expr(n.test)
        const a = this.expr(n.consequent, name)
        const b = this.expr(n.alternate, name)
        return (env) => (t(env) ? a(env) : b(env))
      }
      case "SequenceExpression": {
        const parts = n.expressions.map((x: Node) => this.expr(x))
        const last = parts.pop()!
        return (env) => {
          for (let i = 0; i < parts.length; i++) parts[i](env)
          return last(env)
        }
      }
      case "MemberExpression":
        return this.member(n, false)
      case "ChainExpression": {
        const inner = this.chainPart(n.expression)
        return (env) => {
          const v = inner(env)
          return v === SHORT ? undefined : v
        }
      }
      case "CallExpression":
        return this.callExpression(n, false)
      case "NewExpression":
        return this.newExpression(n)
      case "MetaProperty":
        if (n.meta.name === "new") return this.readBinding(n, this.analysis.refs.get(n)!)
        return unsupported(
          n,
          "`import.meta` is not supported",
          "Programs are not loaded from files; there is no module metadata",
        )
      case "ImportExpression":
        return this.dynamicImport(n)
      case "AwaitExpression":
      case "YieldExpression":
        // Resumable code handles these; reaching here means a position the resumable form does not cover.
        return unsupported(
          n,
          `\`${n.type === "AwaitExpression" ? "await" : "yield"}\` is not supported in this position`,
          "Await the value in a separate statement first",
        )
      case "ParenthesizedExpression":
        return this.expr(n.expression, name)
      default:
        return unsupported(
          n,
          `${n.type} is not supported`,
          "Rewrite this expression with the supported subset (see SUPPORT.md)",
        )
    }
  }

  private literal(n: Node): Expr {
    if (n.regex) {
      const pattern: string = n.regex.pattern
      const flags: string = n.regex.flags
      const loc = this.loc(n)
      const make = this.realm.makeRegExp
      try {
        new RegExp(pattern, flags)
      } catch (e) {
        return unsupported(
          n,
          `Invalid regular expression /${pattern}/${flags}: ${(e as Error).message}`,
          "Fix the pattern",
        )
      }
      return () => {
        rt.loc = loc
        return make(pattern, flags)
      }
    }
    if (n.bigint !== undefined) {
      return unsupported(n, "BigInt literals are not supported", "Use ordinary numbers (integers up to 2^53 are exact)")
    }
    const v = n.value
    return () => v
  }

  private template(n: Node): Expr {
    const quasis: string[] = n.quasis.map((q: Node) => q.value.cooked)
    const exprs: Expr[] = n.expressions.map((x: Node) => this.expr(x))
    if (exprs.length === 0) {
      const s = quasis[0]
      return () => s
    }
    if (exprs.length === 1) {
      const [q0, q1] = quasis
      const e0 = exprs[0]
      return (env) => {
        const v = e0(env)
        return concat(concat(q0, typeof v === "string" ? v : toStr(v)), q1)
      }
    }
    return (env) => {
      let s = quasis[0]
      for (let i = 0; i < exprs.length; i++) {
        const v = exprs[i](env)
        s = concat(concat(s, typeof v === "string" ? v : toStr(v)), quasis[i + 1])
      }
      return s
    }
  }

  private taggedTemplate(n: Node): Expr {
    const cooked = n.quasi.quasis.map((q: Node) => q.value.cooked ?? undefined)
    const raw = n.quasi.quasis.map((q: Node) => q.value.raw)
    let strings: Value
    const exprs: Expr[] = n.quasi.expressions.map((x: Node) => this.expr(x))
    const callee = this.calleeAndThis(n.tag, false)
    const loc = this.loc(n)
    const text = this.text(n.tag)
    return (env) => {
      const [f, thisValue] = callee(env)
      if (strings === undefined) strings = templateObject(cooked, raw)
      const args: Value[] = [strings]
      for (let i = 0; i < exprs.length; i++) args.push(exprs[i](env))
      rt.loc = loc
      if (typeof f === "object" && f !== null) {
        const c = f[CALL]
        if (c !== undefined) return c(thisValue, args, f)
      }
      return notFunction(text, f, loc)
    }
  }

  private arrayLiteral(n: Node): Expr {
    const SA = this.realm.SA
    const elements: Node[] = n.elements
    const hasSpread = elements.some((e) => e && e.type === "SpreadElement")
    const hasHole = elements.some((e) => e === null)
    if (!hasSpread && !hasHole) {
      const items = elements.map((e) => this.expr(e))
      switch (items.length) {
        case 0:
          return () => new SA()
        case 1: {
          const [a] = items
          return (env) => {
            const r = new SA()
            r[0] = a(env)
            return r
          }
        }
        case 2: {
          const [a, b] = items
          return (env) => {
            const r = new SA()
            r[0] = a(env)
            r[1] = b(env)
            return r
          }
        }
        default:
          return (env) => {
            const r = new SA()
            for (let i = 0; i < items.length; i++) r[i] = items[i](env)
            return r
          }
      }
    }
    const parts = elements.map((e) =>
      e === null
        ? null
        : e.type === "SpreadElement"
          ? { spread: true, e: this.expr(e.argument) }
          : { spread: false, e: this.expr(e) },
    )
    return (env) => {
      const r = new SA()
      for (const p of parts) {
        if (p === null) r.length++
        else if (p.spread) spreadInto(r, p.e(env))
        else r[r.length] = p.e(env)
      }
      return r
    }
  }

  private objectLiteral(n: Node): Expr {
    const SO = this.realm.SO
    type Part = (env: Env, o: Value) => void
    const simpleKeys: string[] = []
    const simpleValues: Expr[] = []
    let simple = true
    for (const p of n.properties) {
      if (p.type !== "Property" || p.kind !== "init" || p.method || p.computed) {
        simple = false
        break
      }
      const key = propertyKeyName(p.key, false)!
      if (key === "__proto__" && !p.shorthand) {
        simple = false
        break
      }
      simpleKeys.push(key)
      simpleValues.push(this.expr(p.value, key))
    }
    if (simple) {
      const k = simpleKeys
      const v = simpleValues
      switch (k.length) {
        case 0:
          return () => new SO()
        case 1: {
          const [k0] = k
          const [v0] = v
          return (env) => {
            const o = new SO()
            createDataProperty(o, k0, v0(env))
            return o
          }
        }
        case 2: {
          const [k0, k1] = k
          const [v0, v1] = v
          return (env) => {
            const o = new SO()
            createDataProperty(o, k0, v0(env))
            createDataProperty(o, k1, v1(env))
            return o
          }
        }
        default:
          return (env) => {
            const o = new SO()
            for (let i = 0; i < k.length; i++) createDataProperty(o, k[i], v[i](env))
            return o
          }
      }
    }
    const parts: Part[] = n.properties.map((p: Node): Part => {
      if (p.type === "SpreadElement") {
        const e = this.expr(p.argument)
        return (env, o) => copyDataProperties(o, e(env))
      }
      const staticKey = propertyKeyName(p.key, p.computed)
      const keyExpr: Expr = p.computed ? this.expr(p.key) : () => staticKey
      const keyOf = p.computed ? (env: Env) => toPropertyKey(keyExpr(env)) : () => staticKey as string
      if (p.kind === "init" && !p.method) {
        if (!p.computed && !p.shorthand && staticKey === "__proto__") {
          const e = this.expr(p.value)
          return (env, o) => setPrototype(o, e(env))
        }
        const e = this.expr(p.value, staticKey)
        if (p.computed && isAnonymousFunctionDefinition(p.value)) {
          const named = this.namedAtRuntime(p.value)
          return (env, o) => {
            const key = keyOf(env)
            createDataProperty(o, key, named(env, key))
          }
        }
        return (env, o) => {
          const key = keyOf(env)
          createDataProperty(o, key, e(env))
        }
      }
      const kind: "method" | "get" | "set" = p.kind === "init" ? "method" : p.kind
      const template = (key: string) => this.functionTemplate(p.value, this.analysis.functions.get(p.value)!, key, kind)
      const fixed = p.computed ? undefined : template(kind === "method" ? staticKey! : `${kind} ${staticKey}`)
      const SF = this.realm.SF
      return (env, o) => {
        const key = keyOf(env)
        const t = fixed ?? template(kind === "method" ? keyName(key) : `${kind} ${keyName(key)}`)
        const fn = new SF(t.call, t.construct, env, t.meta, o, t.call3)
        defineMethodProperty(o, key, kind, fn, true, hostGetter, hostSetter)
      }
    })
    return (env) => {
      const o = new SO()
      for (let i = 0; i < parts.length; i++) parts[i](env, o)
      return o
    }
  }

  /** An anonymous function/class whose name is only known at run time (computed keys). */
  private namedAtRuntime(n: Node): (env: Env, key: PropertyKey) => Value {
    const make = this.expr(n, "")
    return (env, key) => {
      const f = make(env)
      Object.defineProperty(f, "name", { value: keyName(key), writable: false, enumerable: false, configurable: true })
      return f
    }
  }

  private unaryExpression(n: Node): Expr {
    const op: string = n.operator
    if (op === "typeof") {
      if (n.argument.type === "Identifier") {
        const b = this.binding(n.argument)
        const read = b === null ? this.readGlobal(n.argument, n.argument.name, true) : this.readBinding(n.argument, b)
        return (env) => typeOf(read(env))
      }
      const a = this.expr(n.argument)
      return (env) => typeOf(a(env))
    }
    if (op === "delete") return this.deleteExpression(n)
    const a = this.expr(n.argument)
    switch (op) {
      case "!":
        return (env) => !a(env)
      case "void":
        return (env) => {
          a(env)
          return undefined
        }
      case "-":
        return (env) => {
          const v = a(env)
          return typeof v === "number" ? -v : unary("-", v)
        }
      case "+":
        return (env) => {
          const v = a(env)
          return typeof v === "number" ? v : toNumber(v)
        }
      case "~":
        return (env) => {
          const v = a(env)
          return typeof v === "number" ? ~v : unary("~", v)
        }
    }
    return unsupported(n, `The ${op} operator is not supported`, "Use a supported operator")
  }

  private deleteExpression(n: Node): Expr {
    let target = n.argument
    if (target.type === "ChainExpression") target = target.expression
    if (target.type !== "MemberExpression") {
      const a = this.expr(n.argument)
      return (env) => {
        a(env)
        return true
      }
    }
    if (target.object.type === "Super") {
      const loc = this.loc(n)
      return () => throwReferenceError("Unsupported reference to 'super'", loc)
    }
    const o = this.expr(target.object)
    const k = target.computed
      ? this.expr(target.property)
      : (
          (key: string) => () =>
            key
        )(target.property.name)
    const loc = this.loc(n)
    const optional = target.optional
    return (env) => {
      const obj = o(env)
      if (optional && (obj === undefined || obj === null)) return true
      return deleteProp(obj, k(env), loc)
    }
  }

  /**
   * How an operand is read: a local slot of the current environment (kind 0), a constant (kind 1), a slot of the
   * parent environment (kind 3) or any other compiled expression (kind 2). Hot closures read the first three inline
   * instead of calling a closure.
   */
  operand(n: Node): Operand {
    if (n.type === "Identifier") {
      const b = this.binding(n)
      if (b !== null && !b.tdz) {
        const hops = hopsTo(this.analysis.refScopes.get(n)!, b)
        if (hops === 0) return { kind: 0, slot: b.slot, value: undefined, expr: this.expr(n) }
        if (hops === 1) return { kind: 3, slot: b.slot, value: undefined, expr: this.expr(n) }
      }
    }
    if (n.type === "Literal" && !n.regex && n.bigint === undefined)
      return { kind: 1, slot: -1, value: n.value, expr: this.expr(n) }
    return { kind: 2, slot: -1, value: undefined, expr: this.expr(n) }
  }

  private binary(n: Node): Expr {
    const op: string = n.operator
    if (n.left.type === "PrivateIdentifier") {
      const sym = this.readBinding(n.left, this.analysis.refs.get(n.left)!)
      const r = this.expr(n.right)
      const loc = this.loc(n)
      return (env) => privateIn(sym(env), r(env), loc)
    }
    const A = this.operand(n.left)
    const B = this.operand(n.right)
    const ak = A.kind
    const as = A.slot
    const av = A.value
    const ae = A.expr
    const bk = B.kind
    const bs = B.slot
    const bv = B.value
    const be = B.expr
    switch (op) {
      case "+":
        return (env) => {
          const a = ak === 0 ? env[as] : ak === 1 ? av : ak === 3 ? env[0][as] : ae(env)
          const b = bk === 0 ? env[bs] : bk === 1 ? bv : bk === 3 ? env[0][bs] : be(env)
          return typeof a === "number" && typeof b === "number" ? a + b : add(a, b)
        }
      case "-":
        return (env) => {
          const a = ak === 0 ? env[as] : ak === 1 ? av : ak === 3 ? env[0][as] : ae(env)
          const b = bk === 0 ? env[bs] : bk === 1 ? bv : bk === 3 ? env[0][bs] : be(env)
          return typeof a === "number" && typeof b === "number" ? a - b : arithmetic("-", a, b)
        }
      case "*":
        return (env) => {
          const a = ak === 0 ? env[as] : ak === 1 ? av : ak === 3 ? env[0][as] : ae(env)
          const b = bk === 0 ? env[bs] : bk === 1 ? bv : bk === 3 ? env[0][bs] : be(env)
          return typeof a === "number" && typeof b === "number" ? a * b : arithmetic("*", a, b)
        }
      case "/":
        return (env) => {
          const a = ak === 0 ? env[as] : ak === 1 ? av : ak === 3 ? env[0][as] : ae(env)
          const b = bk === 0 ? env[bs] : bk === 1 ? bv : bk === 3 ? env[0][bs] : be(env)
          return typeof a === "number" && typeof b === "number" ? a / b : arithmetic("/", a, b)
        }
      case "%":
        return (env) => {
          const a = ak === 0 ? env[as] : ak === 1 ? av : ak === 3 ? env[0][as] : ae(env)
          const b = bk === 0 ? env[bs] : bk === 1 ? bv : bk === 3 ? env[0][bs] : be(env)
          return typeof a === "number" && typeof b === "number" ? a % b : arithmetic("%", a, b)
        }
      case "<":
        return (env) => {
          const a = ak === 0 ? env[as] : ak === 1 ? av : ak === 3 ? env[0][as] : ae(env)
          const b = bk === 0 ? env[bs] : bk === 1 ? bv : bk === 3 ? env[0][bs] : be(env)
          return typeof a === "number" && typeof b === "number" ? a < b : compareAny("<", a, b)
        }
      case "<=":
        return (env) => {
          const a = ak === 0 ? env[as] : ak === 1 ? av : ak === 3 ? env[0][as] : ae(env)
          const b = bk === 0 ? env[bs] : bk === 1 ? bv : bk === 3 ? env[0][bs] : be(env)
          return typeof a === "number" && typeof b === "number" ? a <= b : compareAny("<=", a, b)
        }
      case ">":
        return (env) => {
          const a = ak === 0 ? env[as] : ak === 1 ? av : ak === 3 ? env[0][as] : ae(env)
          const b = bk === 0 ? env[bs] : bk === 1 ? bv : bk === 3 ? env[0][bs] : be(env)
          return typeof a === "number" && typeof b === "number" ? a > b : compareAny(">", a, b)
        }
      case ">=":
        return (env) => {
          const a = ak === 0 ? env[as] : ak === 1 ? av : ak === 3 ? env[0][as] : ae(env)
          const b = bk === 0 ? env[bs] : bk === 1 ? bv : bk === 3 ? env[0][bs] : be(env)
          return typeof a === "number" && typeof b === "number" ? a >= b : compareAny(">=", a, b)
        }
      case "===":
        return (env) => {
          const a = ak === 0 ? env[as] : ak === 1 ? av : ak === 3 ? env[0][as] : ae(env)
          const b = bk === 0 ? env[bs] : bk === 1 ? bv : bk === 3 ? env[0][bs] : be(env)
          return a === b
        }
      case "!==":
        return (env) => {
          const a = ak === 0 ? env[as] : ak === 1 ? av : ak === 3 ? env[0][as] : ae(env)
          const b = bk === 0 ? env[bs] : bk === 1 ? bv : bk === 3 ? env[0][bs] : be(env)
          return a !== b
        }
      case "&":
        return (env) => {
          const a = ak === 0 ? env[as] : ak === 1 ? av : ak === 3 ? env[0][as] : ae(env)
          const b = bk === 0 ? env[bs] : bk === 1 ? bv : bk === 3 ? env[0][bs] : be(env)
          return typeof a === "number" && typeof b === "number" ? a & b : arithmetic("&", a, b)
        }
      case "|":
        return (env) => {
          const a = ak === 0 ? env[as] : ak === 1 ? av : ak === 3 ? env[0][as] : ae(env)
          const b = bk === 0 ? env[bs] : bk === 1 ? bv : bk === 3 ? env[0][bs] : be(env)
          return typeof a === "number" && typeof b === "number" ? a | b : arithmetic("|", a, b)
        }
    }
    const f = binaryOperator(op)
    return (env) =>
      f(
        ak === 0 ? env[as] : ak === 1 ? av : ak === 3 ? env[0][as] : ae(env),
        bk === 0 ? env[bs] : bk === 1 ? bv : bk === 3 ? env[0][bs] : be(env),
      )
  }

  private logical(n: Node): Expr {
    const l = this.expr(n.left)
    const r = this.expr(n.right)
    switch (n.operator) {
      case "&&":
        return (env) => {
          const v = l(env)
          return v ? r(env) : v
        }
      case "||":
        return (env) => {
          const v = l(env)
          return v ? v : r(env)
        }
      default:
        return (env) => {
          const v = l(env)
          return v === undefined || v === null ? r(env) : v
        }
    }
  }

  private update(n: Node): Expr {
    const delta = n.operator === "++" ? 1 : -1
    const prefix: boolean = n.prefix
    const target = n.argument
    const bump = (old: Value): [Value, Value] => {
      const num = typeof old === "number" ? old : toNumber(toPrimitive(old, "number"))
      return [num, num + delta]
    }
    if (target.type === "Identifier") {
      const b = this.binding(target)
      if (b !== null && !b.tdz && !b.immutable) {
        const slot = b.slot
        const hops = hopsTo(this.analysis.refScopes.get(target)!, b)
        if (hops === 0) {
          return prefix
            ? (env) => {
                const v = env[slot]
                return (env[slot] = typeof v === "number" ? v + delta : bump(v)[1])
              }
            : (env) => {
                const v = env[slot]
                if (typeof v === "number") {
                  env[slot] = v + delta
                  return v
                }
                const [old, next] = bump(v)
                env[slot] = next
                return old
              }
        }
      }
      const read = this.identifier(target)
      const write = this.assignWriter(target)
      return (env) => {
        const [old, next] = bump(read(env))
        write(env, next)
        return prefix ? next : old
      }
    }
    const ref = this.reference(target)
    return (env) => {
      const r = ref(env)
      const [old, next] = bump(r.get())
      r.set(next)
      return prefix ? next : old
    }
  }

  /**
   * A member expression as an assignment target: evaluates the object and key once and returns get/set
   * accessors (used by compound assignments and updates).
   */
  private reference(target: Node): (env: Env) => { get: () => Value; set: (v: Value) => void } {
    if (target.type !== "MemberExpression") {
      return unsupported(target, "Invalid assignment target", "Assign to a variable or a property")
    }
    const loc = this.loc(target)
    if (target.object.type === "Super") {
      const refs = this.analysis.supers.get(target.object)!
      const home = this.readBinding(target.object, refs.home)
      const self = this.readBinding(target.object, refs.this)
      const k = this.memberKey(target)
      return (env) => {
        const h = home(env)
        const t = self(env)
        const key = k(env)
        return { get: () => superGet(h, key, t), set: (v) => superSet(h, key, v, t) }
      }
    }
    const o = this.expr(target.object)
    if (target.property.type === "PrivateIdentifier") {
      const sym = this.readBinding(target.property, this.analysis.refs.get(target.property)!)
      const name = target.property.name
      return (env) => {
        const obj = o(env)
        const s = sym(env)
        return { get: () => privateGet(obj, s, name, loc), set: (v) => privateSet(obj, s, name, v, loc) }
      }
    }
    const k = this.memberKey(target)
    return (env) => {
      const obj = o(env)
      const key = k(env)
      return { get: () => getComputed(obj, key, loc), set: (v) => setProp(obj, key, v, loc) }
    }
  }

  /** The (already converted) property key of a member expression. */
  private memberKey(target: Node): Expr {
    if (!target.computed) {
      const name = target.property.name
      return () => name
    }
    const p = target.property
    if (p.type === "Literal" && (typeof p.value === "string" || typeof p.value === "number")) {
      const v = p.value
      return () => v
    }
    const k = this.expr(p)
    return (env) => toPropertyKey(k(env))
  }

  private assignment(n: Node): Expr {
    const op: string = n.operator
    const target = n.left
    if (op === "=") {
      if (target.type === "Identifier") {
        const write = this.assignWriter(target)
        const v = this.expr(n.right, target.name)
        return (env) => {
          const value = v(env)
          write(env, value)
          return value
        }
      }
      if (target.type === "MemberExpression") return this.memberAssignment(target, this.expr(n.right))
      const bind = this.pattern(target, "assign")
      const v = this.expr(n.right)
      return (env) => {
        const value = v(env)
        bind(env, value)
        return value
      }
    }
    if (op === "&&=" || op === "||=" || op === "??=") {
      const read = target.type === "Identifier" ? this.identifier(target) : undefined
      const write = target.type === "Identifier" ? this.assignWriter(target) : undefined
      const ref = target.type === "Identifier" ? undefined : this.reference(target)
      const v = this.expr(n.right, target.type === "Identifier" ? target.name : undefined)
      const shouldAssign =
        op === "&&=" ? (x: Value) => !!x : op === "||=" ? (x: Value) => !x : (x: Value) => x === undefined || x === null
      if (read) {
        return (env) => {
          const cur = read(env)
          if (!shouldAssign(cur)) return cur
          const value = v(env)
          write!(env, value)
          return value
        }
      }
      return (env) => {
        const r = ref!(env)
        const cur = r.get()
        if (!shouldAssign(cur)) return cur
        const value = v(env)
        r.set(value)
        return value
      }
    }
    const binop = op.slice(0, -1)
    const v = this.expr(n.right)
    if (target.type === "Identifier") {
      const b = this.binding(target)
      if (b !== null && !b.tdz && !b.immutable && hopsTo(this.analysis.refScopes.get(target)!, b) === 0) {
        const slot = b.slot
        if (binop === "+") {
          return (env) => {
            const a = env[slot]
            const c = v(env)
            return (env[slot] = typeof a === "number" && typeof c === "number" ? a + c : add(a, c))
          }
        }
        const f = binaryOperator(binop)
        return (env) => (env[slot] = f(env[slot], v(env)))
      }
      const read = this.identifier(target)
      const write = this.assignWriter(target)
      const f = binaryOperator(binop)
      return (env) => {
        const value = f(read(env), v(env))
        write(env, value)
        return value
      }
    }
    const ref = this.reference(target)
    const f = binaryOperator(binop)
    return (env) => {
      const r = ref(env)
      const value = f(r.get(), v(env))
      r.set(value)
      return value
    }
  }

  /** `target.key = value` for a member target. */
  memberAssignment(target: Node, v: Expr): Expr {
    const loc = this.loc(target)
    if (target.object.type === "Super" || target.property.type === "PrivateIdentifier") {
      const ref = this.reference(target)
      return (env) => {
        const r = ref(env)
        const value = v(env)
        r.set(value)
        return value
      }
    }
    const o = this.expr(target.object)
    if (!target.computed) {
      const key = target.property.name
      return (env) => {
        const obj = o(env)
        const value = v(env)
        if (typeof obj === "object" && obj !== null) obj[key] = value
        else setProp(obj, key, value, loc)
        return value
      }
    }
    const k = this.expr(target.property)
    return (env) => {
      const obj = o(env)
      const key = k(env)
      const value = v(env)
      setComputed(obj, key, value, loc)
      return value
    }
  }

  /** A member read: `o.k`, `o[k]`, `o.#k`, `super.k`. With `chain`, a short-circuited object propagates. */
  member(n: Node, chain: boolean): Expr {
    const loc = this.loc(n)
    if (n.object.type === "Super") {
      const refs = this.analysis.supers.get(n.object)!
      const home = this.readBinding(n.object, refs.home)
      const self = this.readBinding(n.object, refs.this)
      const k = this.memberKey(n)
      return (env) => superGet(home(env), k(env), self(env))
    }
    const o = chain ? this.chainPart(n.object) : this.expr(n.object)
    const optional: boolean = n.optional
    if (n.property.type === "PrivateIdentifier") {
      const sym = this.readBinding(n.property, this.analysis.refs.get(n.property)!)
      const name = n.property.name
      return (env) => {
        const obj = o(env)
        if (chain && (obj === SHORT || (optional && (obj === undefined || obj === null)))) return SHORT
        return privateGet(obj, sym(env), name, loc)
      }
    }
    if (!n.computed) {
      const key: string = n.property.name
      if (chain) {
        return (env) => {
          const obj = o(env)
          if (obj === SHORT || (optional && (obj === undefined || obj === null))) return SHORT
          return typeof obj === "object" && obj !== null ? obj[key] : getPrimitiveProp(obj, key, loc)
        }
      }
      const O = this.operand(n.object)
      const ok = O.kind
      const os = O.slot
      const oe = O.expr
      if (key === "length") {
        return (env) => {
          const obj = ok === 0 ? env[os] : ok === 3 ? env[0][os] : oe(env)
          return typeof obj === "string"
            ? obj.length
            : typeof obj === "object" && obj !== null
              ? obj.length
              : getPrimitiveProp(obj, key, loc)
        }
      }
      return (env) => {
        const obj = ok === 0 ? env[os] : ok === 3 ? env[0][os] : oe(env)
        return typeof obj === "object" && obj !== null ? obj[key] : getPrimitiveProp(obj, key, loc)
      }
    }
    const k = this.expr(n.property)
    if (chain) {
      return (env) => {
        const obj = o(env)
        if (obj === SHORT || (optional && (obj === undefined || obj === null))) return SHORT
        return getComputed(obj, k(env), loc)
      }
    }
    const O = this.operand(n.object)
    const K = this.operand(n.property)
    const ok = O.kind
    const os = O.slot
    const oe = O.expr
    const kk = K.kind
    const ks = K.slot
    const kv = K.value
    const ke = K.expr
    return (env) => {
      const obj = ok === 0 ? env[os] : ok === 3 ? env[0][os] : oe(env)
      const key = kk === 0 ? env[ks] : kk === 1 ? kv : kk === 3 ? env[0][ks] : ke(env)
      if (typeof obj === "object" && obj !== null && typeof key === "number") return obj[key]
      return getComputed(obj, key, loc)
    }
  }

  /** A link of an optional chain (may produce `SHORT`). */
  chainPart(n: Node): Expr {
    if (n.type === "MemberExpression") return this.member(n, true)
    if (n.type === "CallExpression") return this.callExpression(n, true)
    return this.expr(n)
  }

  /** Compile call arguments into a function producing the argument list. */
  args(nodes: Node[]): (env: Env) => Value[] {
    if (nodes.some((a) => a.type === "SpreadElement")) {
      const parts = nodes.map((a) =>
        a.type === "SpreadElement" ? { spread: true, e: this.expr(a.argument) } : { spread: false, e: this.expr(a) },
      )
      return (env) => {
        const list: Value[] = []
        for (const p of parts) {
          if (p.spread) spreadInto(list, p.e(env))
          else list.push(p.e(env))
        }
        return list
      }
    }
    const items = nodes.map((a) => this.expr(a))
    switch (items.length) {
      case 0:
        return () => NO_ARGS
      case 1: {
        const A = this.operand(nodes[0])
        const ak = A.kind
        const as = A.slot
        const av = A.value
        const ae = A.expr
        return (env) => [ak === 0 ? env[as] : ak === 1 ? av : ak === 3 ? env[0][as] : ae(env)]
      }
      case 2: {
        const A = this.operand(nodes[0])
        const B = this.operand(nodes[1])
        const ak = A.kind
        const as = A.slot
        const av = A.value
        const ae = A.expr
        const bk = B.kind
        const bs = B.slot
        const bv = B.value
        const be = B.expr
        return (env) => [
          ak === 0 ? env[as] : ak === 1 ? av : ak === 3 ? env[0][as] : ae(env),
          bk === 0 ? env[bs] : bk === 1 ? bv : bk === 3 ? env[0][bs] : be(env),
        ]
      }
      case 3: {
        const [a, b, c] = items
        return (env) => [a(env), b(env), c(env)]
      }
      default:
        return (env) => {
          const list = new Array(items.length)
          for (let i = 0; i < items.length; i++) list[i] = items[i](env)
          return list
        }
    }
  }

  /**
   * Up to three plain arguments as inline operands (for calls that can skip the argument list); undefined when
   * there are more, or spread.
   */
  private directArguments(nodes: Node[]): DirectArguments | undefined {
    if (nodes.length > 3 || nodes.some((a) => a.type === "SpreadElement")) return undefined
    const none: Operand = { kind: 1, slot: -1, value: undefined, expr: () => undefined }
    const [A, B, C] = [0, 1, 2].map((i) => (i < nodes.length ? this.operand(nodes[i]) : none))
    return {
      n: nodes.length,
      k0: A.kind,
      s0: A.slot,
      v0: A.value,
      e0: A.expr,
      k1: B.kind,
      s1: B.slot,
      v1: B.value,
      e1: B.expr,
      k2: C.kind,
      s2: C.slot,
      v2: C.value,
      e2: C.expr,
    }
  }

  /** Evaluate a callee and the `this` it should be called with (tagged templates). */
  private calleeAndThis(callee: Node, chain: boolean): (env: Env) => [Value, Value] {
    if (callee.type === "MemberExpression" && callee.object.type === "Super") {
      const refs = this.analysis.supers.get(callee.object)!
      const home = this.readBinding(callee.object, refs.home)
      const self = this.readBinding(callee.object, refs.this)
      const k = this.memberKey(callee)
      return (env) => {
        const t = self(env)
        return [superGet(home(env), k(env), t), t]
      }
    }
    if (callee.type === "MemberExpression") {
      const loc = this.loc(callee)
      const o = chain ? this.chainPart(callee.object) : this.expr(callee.object)
      const k = this.memberKey(callee)
      if (callee.property.type === "PrivateIdentifier") {
        const sym = this.readBinding(callee.property, this.analysis.refs.get(callee.property)!)
        const name = callee.property.name
        return (env) => {
          const obj = o(env)
          return [privateGet(obj, sym(env), name, loc), obj]
        }
      }
      return (env) => {
        const obj = o(env)
        return [getComputed(obj, k(env), loc), obj]
      }
    }
    const f = this.expr(callee)
    return (env) => [f(env), undefined]
  }

  private callExpression(n: Node, chain: boolean): Expr {
    const callee = n.callee
    const loc = this.loc(n)
    if (callee.type === "Super") return this.superCall(n)
    const args = this.args(n.arguments)
    const text = this.text(callee)
    const optionalCall: boolean = n.optional
    if (
      callee.type === "MemberExpression" &&
      callee.object.type !== "Super" &&
      callee.property.type !== "PrivateIdentifier"
    ) {
      const memberLoc = this.loc(callee)
      const o = chain ? this.chainPart(callee.object) : this.expr(callee.object)
      const optionalMember: boolean = callee.optional
      const O = this.operand(callee.object)
      const ok = chain ? 2 : O.kind
      const os = O.slot
      if (!callee.computed) {
        const key: string = callee.property.name
        if (chain) {
          return (env) => {
            const obj = o(env)
            if (obj === SHORT || (optionalMember && (obj === undefined || obj === null))) return SHORT
            const f = typeof obj === "object" && obj !== null ? obj[key] : getPrimitiveProp(obj, key, memberLoc)
            if (optionalCall && (f === undefined || f === null)) return SHORT
            const a = args(env)
            rt.loc = loc
            if (typeof f === "object" && f !== null) {
              const c = f[CALL]
              if (c !== undefined) return c(obj, a, f)
            }
            return notFunction(text, f, loc)
          }
        }
        const direct = this.directArguments(n.arguments)
        if (direct) {
          const { n: count, k0, s0, v0, e0, k1, s1, v1, e1, k2, s2, v2, e2 } = direct
          return (env) => {
            const obj = ok === 0 ? env[os] : ok === 3 ? env[0][os] : o(env)
            const f = typeof obj === "object" && obj !== null ? obj[key] : getPrimitiveProp(obj, key, memberLoc)
            const a0 = k0 === 0 ? env[s0] : k0 === 1 ? v0 : k0 === 3 ? env[0][s0] : e0(env)
            const a1 = k1 === 0 ? env[s1] : k1 === 1 ? v1 : k1 === 3 ? env[0][s1] : e1(env)
            const a2 = k2 === 0 ? env[s2] : k2 === 1 ? v2 : k2 === 3 ? env[0][s2] : e2(env)
            rt.loc = loc
            if (typeof f === "object" && f !== null) {
              const c3 = f[CALL3]
              if (c3 !== undefined) return c3(obj, a0, a1, a2, f)
              const c = f[CALL]
              if (c !== undefined)
                return c(obj, count === 0 ? NO_ARGS : count === 1 ? [a0] : count === 2 ? [a0, a1] : [a0, a1, a2], f)
            }
            return notFunction(text, f, loc)
          }
        }
        return (env) => {
          const obj = ok === 0 ? env[os] : ok === 3 ? env[0][os] : o(env)
          const f = typeof obj === "object" && obj !== null ? obj[key] : getPrimitiveProp(obj, key, memberLoc)
          const a = args(env)
          rt.loc = loc
          if (typeof f === "object" && f !== null) {
            const c = f[CALL]
            if (c !== undefined) return c(obj, a, f)
          }
          return notFunction(text, f, loc)
        }
      }
      const k = this.expr(callee.property)
      return (env) => {
        const obj = o(env)
        if (chain && (obj === SHORT || (optionalMember && (obj === undefined || obj === null)))) return SHORT
        const f = getComputed(obj, k(env), memberLoc)
        if (chain && optionalCall && (f === undefined || f === null)) return SHORT
        const a = args(env)
        rt.loc = loc
        if (typeof f === "object" && f !== null) {
          const c = f[CALL]
          if (c !== undefined) return c(obj, a, f)
        }
        return notFunction(text, f, loc)
      }
    }
    if (callee.type === "MemberExpression") {
      const ct = this.calleeAndThis(callee, chain)
      return (env) => {
        const [f, thisValue] = ct(env)
        if (chain && optionalCall && (f === undefined || f === null)) return SHORT
        const a = args(env)
        rt.loc = loc
        return typeof f === "object" && f !== null && f[CALL] !== undefined
          ? f[CALL](thisValue, a, f)
          : notFunction(text, f, loc)
      }
    }
    const fe = chain ? this.chainPart(callee) : this.expr(callee)
    const F = this.operand(callee)
    const fk = chain ? 2 : F.kind
    const fs = F.slot
    const direct = chain ? undefined : this.directArguments(n.arguments)
    if (direct) {
      const { n: count, k0, s0, v0, e0, k1, s1, v1, e1, k2, s2, v2, e2 } = direct
      return (env) => {
        const f = fk === 0 ? env[fs] : fk === 3 ? env[0][fs] : fe(env)
        const a0 = k0 === 0 ? env[s0] : k0 === 1 ? v0 : k0 === 3 ? env[0][s0] : e0(env)
        const a1 = k1 === 0 ? env[s1] : k1 === 1 ? v1 : k1 === 3 ? env[0][s1] : e1(env)
        const a2 = k2 === 0 ? env[s2] : k2 === 1 ? v2 : k2 === 3 ? env[0][s2] : e2(env)
        rt.loc = loc
        if (typeof f === "object" && f !== null) {
          const c3 = f[CALL3]
          if (c3 !== undefined) return c3(undefined, a0, a1, a2, f)
          const c = f[CALL]
          if (c !== undefined)
            return c(undefined, count === 0 ? NO_ARGS : count === 1 ? [a0] : count === 2 ? [a0, a1] : [a0, a1, a2], f)
        }
        return notFunction(text, f, loc)
      }
    }
    return (env) => {
      const f = fk === 0 ? env[fs] : fk === 3 ? env[0][fs] : fe(env)
      if (chain && (f === SHORT || (optionalCall && (f === undefined || f === null)))) return SHORT
      const a = args(env)
      rt.loc = loc
      if (typeof f === "object" && f !== null) {
        const c = f[CALL]
        if (c !== undefined) return c(undefined, a, f)
      }
      return notFunction(text, f, loc)
    }
  }

  private superCall(n: Node): Expr {
    const refs = this.analysis.supers.get(n.callee)!
    const func = this.readBinding(n.callee, refs.func!)
    const newTarget = this.readBinding(n.callee, refs.newTarget!)
    const thisEnv = this.envOf(n.callee, refs.this)
    const thisSlot = refs.this.slot
    const args = this.args(n.arguments)
    const loc = this.loc(n)
    return (env) => {
      const f = func(env)
      const a = args(env)
      const result = superConstruct(f, a, newTarget(env), loc)
      const e = thisEnv(env)
      if (e[thisSlot] !== TDZ) throwReferenceError("Super constructor may only be called once", loc)
      e[thisSlot] = result
      initializeInstance(f, result)
      return result
    }
  }

  private newExpression(n: Node): Expr {
    const c = this.expr(n.callee)
    const args = this.args(n.arguments)
    const loc = this.loc(n)
    const text = this.text(n.callee)
    return (env) => {
      const f = c(env)
      const a = args(env)
      rt.loc = loc
      if (typeof f !== "object" || f === null || f[CONSTRUCT] === undefined)
        return throwTypeError(`${text} is not a constructor`, loc)
      return f[CONSTRUCT](a, f, f)
    }
  }

  private dynamicImport(n: Node): Expr {
    const source = this.expr(n.source)
    const loc = this.loc(n)
    return (env) => {
      const spec = toStr(source(env))
      try {
        return promiseResolve(this.namespaceObject(this.resolveModule(spec, loc))).object
      } catch (e) {
        return rejectedPromise(caught(e))
      }
    }
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Statements
  // ---------------------------------------------------------------------------------------------------------------

  /** Compile a statement. `labels` are the labels directly applied to it (for loops). */
  statement(n: Node, labels: string[] = []): Stmt {
    switch (n.type) {
      case "ExpressionStatement":
        return this.effect(n.expression)
      case "VariableDeclaration":
        return this.variableDeclaration(n)
      case "FunctionDeclaration":
        return EMPTY_STATEMENT
      case "ClassDeclaration": {
        const write = this.initWriter(n.id)
        const make = this.classExpression(n, n.id.name)
        return (env) => {
          write(env, make(env))
          return undefined
        }
      }
      case "ReturnStatement": {
        if (!n.argument) {
          return () => {
            rt.ret = undefined
            return RETURN
          }
        }
        const a = this.expr(n.argument)
        return (env) => {
          rt.ret = a(env)
          return RETURN
        }
      }
      case "IfStatement": {
        const t = this.expr(n.test)
        const c = this.statement(n.consequent)
        if (!n.alternate) return (env) => (t(env) ? c(env) : undefined)
        const a = this.statement(n.alternate)
        return (env) => (t(env) ? c(env) : a(env))
      }
      case "BlockStatement":
        return this.withScope(this.analysis.scopes.get(n), this.statementList(n.body, false))
      case "ForStatement":
        return this.forStatement(n, labels)
      case "ForOfStatement":
        if (n.await)
          return unsupported(
            n,
            "`for await` outside an async function",
            "Use it inside an async function or at top level",
          )
        return this.forOf(n, labels)
      case "ForInStatement":
        return this.forIn(n, labels)
      case "WhileStatement":
        return this.whileStatement(n, labels)
      case "DoWhileStatement":
        return this.doWhile(n, labels)
      case "BreakStatement": {
        const s = n.label ? this.labelSignal(n.label.name).break : BREAK
        return () => s
      }
      case "ContinueStatement": {
        const s = n.label ? this.labelSignal(n.label.name).continue : CONTINUE
        return () => s
      }
      case "ThrowStatement": {
        const a = this.expr(n.argument)
        const loc = this.loc(n)
        return (env) => throwValue(a(env), loc)
      }
      case "TryStatement":
        return this.tryStatement(n)
      case "SwitchStatement":
        return this.switchStatement(n)
      case "LabeledStatement": {
        const all = [...labels, n.label.name]
        const body = n.body
        if (isLoop(body) || body.type === "LabeledStatement") return this.statement(body, all)
        const inner = this.statement(body)
        const breaks = all.map((l) => this.labelSignal(l).break)
        return (env) => {
          const s = inner(env)
          return s !== undefined && breaks.includes(s) ? undefined : s
        }
      }
      case "EmptyStatement":
      case "DebuggerStatement":
        return EMPTY_STATEMENT
      case "ImportDeclaration":
        return unsupported(n, "`import` must be at the top level", "Move the import to the start of the program")
      case "ExportNamedDeclaration":
      case "ExportDefaultDeclaration":
      case "ExportAllDeclaration":
        return unsupported(
          n,
          "`export` is not supported",
          "Programs are not modules that export: return the value instead",
        )
      default:
        return unsupported(
          n,
          `${n.type} is not supported`,
          "Rewrite this statement with the supported subset (see SUPPORT.md)",
        )
    }
  }

  /** An expression evaluated only for its effects, as a statement (updates and assignments skip the value). */
  effect(e: Node): Stmt {
    if (e.type === "UpdateExpression" && e.argument.type === "Identifier") {
      const b = this.binding(e.argument)
      if (b !== null && !b.tdz && !b.immutable && hopsTo(this.analysis.refScopes.get(e.argument)!, b) === 0) {
        const slot = b.slot
        const delta = e.operator === "++" ? 1 : -1
        return (env) => {
          const v = env[slot]
          env[slot] = typeof v === "number" ? v + delta : toNumber(toPrimitive(v, "number")) + delta
          return undefined
        }
      }
    }
    if (e.type === "AssignmentExpression" && e.operator === "=" && e.left.type === "Identifier") {
      const b = this.binding(e.left)
      if (b !== null && !b.tdz && !b.immutable && hopsTo(this.analysis.refScopes.get(e.left)!, b) === 0) {
        const slot = b.slot
        const v = this.expr(e.right, e.left.name)
        return (env) => {
          env[slot] = v(env)
          return undefined
        }
      }
    }
    const x = this.expr(e)
    return (env) => {
      x(env)
      return undefined
    }
  }

  /** Compile a statement list; at top level, expression statements record the REPL-style completion value. */
  statementList(statements: Node[], topLevel: boolean): Stmt {
    const list: Stmt[] = statements
      .filter((s) => s.type !== "FunctionDeclaration" && s.type !== "EmptyStatement")
      .map((s) => {
        if (topLevel && s.type === "ExpressionStatement") {
          const e = this.expr(s.expression)
          return (env: Env) => {
            rt.completion = e(env)
            return undefined
          }
        }
        return this.statement(s)
      })
    switch (list.length) {
      case 0:
        return EMPTY_STATEMENT
      case 1:
        return list[0]
      case 2: {
        const [a, b] = list
        return (env) => {
          const s = a(env)
          return s !== undefined ? s : b(env)
        }
      }
      case 3: {
        const [a, b, c] = list
        return (env) => {
          let s = a(env)
          if (s !== undefined) return s
          s = b(env)
          return s !== undefined ? s : c(env)
        }
      }
      default:
        return (env) => {
          for (let i = 0; i < list.length; i++) {
            const s = list[i](env)
            if (s !== undefined) return s
          }
          return undefined
        }
    }
  }

  /** Wrap code running in a block scope: new environment if needed, TDZ markers, hoisted functions. */
  withScope(scope: Scope | undefined, inner: Stmt): Stmt {
    if (scope === undefined) return inner
    const tdz = this.tdzSlots(scope)
    const hasFunctions = scope.functionDeclarations.length > 0
    const functions = this.hoistedFunctions(scope)
    if (scope.hasEnv) {
      const size = scope.size
      return (env) => {
        const e: Env = new Array(size)
        e[0] = env
        for (let i = 0; i < tdz.length; i++) e[tdz[i]] = TDZ
        functions(e)
        return inner(e)
      }
    }
    if (tdz.length === 0 && !hasFunctions) return inner
    return (env) => {
      for (let i = 0; i < tdz.length; i++) env[tdz[i]] = TDZ
      functions(env)
      return inner(env)
    }
  }

  /** The environment a scope runs in: a new one (for scopes with their own environment) or the current one. */
  scopeEnter(scope: Scope | undefined): (env: Env) => Env {
    if (scope === undefined) return (env) => env
    const tdz = this.tdzSlots(scope)
    if (scope.hasEnv) {
      const size = scope.size
      return (env) => {
        const e: Env = new Array(size)
        e[0] = env
        for (let i = 0; i < tdz.length; i++) e[tdz[i]] = TDZ
        return e
      }
    }
    if (tdz.length === 0) return (env) => env
    return (env) => {
      for (let i = 0; i < tdz.length; i++) env[tdz[i]] = TDZ
      return env
    }
  }

  private variableDeclaration(n: Node): Stmt {
    const parts: Stmt[] = []
    for (const d of n.declarations) {
      if (d.id.type === "Identifier") {
        const write = this.initWriter(d.id)
        if (d.init) {
          const v = this.expr(d.init, d.id.name)
          parts.push((env) => {
            write(env, v(env))
            return undefined
          })
        } else if (n.kind !== "var") {
          parts.push((env) => {
            write(env, undefined)
            return undefined
          })
        }
      } else {
        const bind = this.pattern(d.id, "init")
        const v = d.init ? this.expr(d.init) : () => undefined
        parts.push((env) => {
          bind(env, v(env))
          return undefined
        })
      }
    }
    if (parts.length === 1) return parts[0]
    return (env) => {
      for (let i = 0; i < parts.length; i++) parts[i](env)
      return undefined
    }
  }

  /** Signals a loop with these labels handles. */
  loopSignals(labels: string[]): { breaks: Signal[]; continues: Signal[] } {
    return {
      breaks: [BREAK, ...labels.map((l) => this.labelSignal(l).break)],
      continues: [CONTINUE, ...labels.map((l) => this.labelSignal(l).continue)],
    }
  }

  private forStatement(n: Node, labels: string[]): Stmt {
    const scope = this.analysis.scopes.get(n)
    const init: Stmt | undefined = n.init
      ? n.init.type === "VariableDeclaration"
        ? this.statement(n.init)
        : (
            (e: Expr): Stmt =>
            (env) => {
              e(env)
              return undefined
            }
          )(this.expr(n.init))
      : undefined
    const test = n.test ? this.expr(n.test) : undefined
    const update = n.update ? this.expr(n.update) : undefined
    const body = this.statement(n.body)
    const { breaks, continues } = this.loopSignals(labels)
    const loc = this.loc(n)
    if (scope !== undefined && scope.hasEnv) {
      const size = scope.size
      const slots = [...scope.bindings.values()].map((b) => b.slot)
      const tdz = this.tdzSlots(scope)
      return (env) => {
        let e: Env = new Array(size)
        e[0] = env
        for (let i = 0; i < tdz.length; i++) e[tdz[i]] = TDZ
        if (init) init(e)
        let first = true
        for (;;) {
          const next: Env = new Array(size)
          next[0] = env
          for (let i = 0; i < slots.length; i++) next[slots[i]] = e[slots[i]]
          e = next
          if (!first && update) update(e)
          first = false
          if (test && !test(e)) break
          const s = body(e)
          if (s !== undefined) {
            if (breaks.includes(s)) break
            if (!continues.includes(s)) return s
          }
          if (--rt.fuel < 0) refuel(loc)
        }
        return undefined
      }
    }
    const enter = this.scopeEnter(scope)
    const counting = labels.length === 0 ? this.countingLoop(n, init, body, enter) : undefined
    if (counting) return counting
    if (labels.length === 0) {
      return (env) => {
        enter(env)
        if (init) init(env)
        for (;;) {
          if (test !== undefined && !test(env)) break
          const s = body(env)
          if (s !== undefined) {
            if (s === BREAK) break
            if (s !== CONTINUE) return s
          }
          if (update !== undefined) update(env)
          if (--rt.fuel < 0) refuel(loc)
        }
        return undefined
      }
    }
    return (env) => {
      enter(env)
      if (init) init(env)
      for (;;) {
        if (test !== undefined && !test(env)) break
        const s = body(env)
        if (s !== undefined) {
          if (breaks.includes(s)) break
          if (!continues.includes(s)) return s
        }
        if (update !== undefined) update(env)
        if (--rt.fuel < 0) refuel(loc)
      }
      return undefined
    }
  }

  /**
   * The fused form of the counting loop `for (...; i < limit; i++)` over a local `i`: the test and the update run
   * inline instead of through closures. Undefined when the loop does not have that shape.
   */
  private countingLoop(n: Node, init: Stmt | undefined, body: Stmt, enter: (env: Env) => Env): Stmt | undefined {
    const test = n.test
    const update = n.update
    if (!test || !update || test.type !== "BinaryExpression" || !["<", "<=", ">", ">="].includes(test.operator))
      return undefined
    if (test.left.type !== "Identifier") return undefined
    const I = this.operand(test.left)
    if (I.kind !== 0) return undefined
    const slot = I.slot
    let delta: number
    if (
      update.type === "UpdateExpression" &&
      update.argument.type === "Identifier" &&
      update.argument.name === test.left.name
    ) {
      delta = update.operator === "++" ? 1 : -1
    } else if (
      update.type === "AssignmentExpression" &&
      (update.operator === "+=" || update.operator === "-=") &&
      update.left.type === "Identifier" &&
      update.left.name === test.left.name &&
      update.right.type === "Literal" &&
      typeof update.right.value === "number"
    ) {
      delta = update.operator === "+=" ? update.right.value : -update.right.value
    } else return undefined
    const target = this.binding(update.type === "UpdateExpression" ? update.argument : update.left)
    if (target === null || target.slot !== slot || target.immutable || target.tdz) return undefined
    const L = this.operand(test.right)
    const lk = L.kind
    const ls = L.slot
    const lv = L.value
    const le = L.expr
    const op: string = test.operator
    const less = op === "<"
    const compareSlow = binaryOperator(op)
    const loc = this.loc(n)
    return (env) => {
      enter(env)
      if (init) init(env)
      for (;;) {
        const i = env[slot]
        const limit = lk === 0 ? env[ls] : lk === 1 ? lv : lk === 3 ? env[0][ls] : le(env)
        if (typeof i === "number" && typeof limit === "number") {
          if (less ? !(i < limit) : !(op === "<=" ? i <= limit : op === ">" ? i > limit : i >= limit)) break
        } else if (!compareSlow(i, limit)) break
        const s = body(env)
        if (s !== undefined) {
          if (s === BREAK) break
          if (s !== CONTINUE) return s
        }
        const v = env[slot]
        env[slot] = typeof v === "number" ? v + delta : toNumber(toPrimitive(v, "number")) + delta
        if (--rt.fuel < 0) refuel(loc)
      }
      return undefined
    }
  }

  private whileStatement(n: Node, labels: string[]): Stmt {
    const test = this.expr(n.test)
    const body = this.statement(n.body)
    const { breaks, continues } = this.loopSignals(labels)
    const loc = this.loc(n)
    return (env) => {
      while (test(env)) {
        const s = body(env)
        if (s !== undefined) {
          if (breaks.includes(s)) break
          if (!continues.includes(s)) return s
        }
        if (--rt.fuel < 0) refuel(loc)
      }
      return undefined
    }
  }

  private doWhile(n: Node, labels: string[]): Stmt {
    const test = this.expr(n.test)
    const body = this.statement(n.body)
    const { breaks, continues } = this.loopSignals(labels)
    const loc = this.loc(n)
    return (env) => {
      do {
        const s = body(env)
        if (s !== undefined) {
          if (breaks.includes(s)) break
          if (!continues.includes(s)) return s
        }
        if (--rt.fuel < 0) refuel(loc)
      } while (test(env))
      return undefined
    }
  }

  /** The writer for the left side of a for-in/for-of loop. */
  loopTarget(left: Node): Writer {
    if (left.type === "VariableDeclaration") {
      const id = left.declarations[0].id
      return id.type === "Identifier" ? this.initWriter(id) : this.pattern(id, "init")
    }
    return this.assignTarget(left)
  }

  /** A writer for any assignment target (identifier, member, pattern). */
  assignTarget(target: Node): Writer {
    if (target.type === "Identifier") return this.assignWriter(target)
    if (target.type === "MemberExpression") {
      const ref = this.reference(target)
      return (env, v) => ref(env).set(v)
    }
    return this.pattern(target, "assign")
  }

  private forOf(n: Node, labels: string[]): Stmt {
    const scope = this.analysis.scopes.get(n)
    const right = this.expr(n.right)
    const bind = this.loopTarget(n.left)
    const body = this.statement(n.body)
    const enter = this.scopeEnter(scope)
    const { breaks, continues } = this.loopSignals(labels)
    const loc = this.loc(n)
    return (env) => {
      const iterable = right(env)
      if (Array.isArray(iterable) && arrayIterationIsPristine(iterable)) {
        for (let i = 0; i < iterable.length; i++) {
          const e = enter(env)
          bind(e, iterable[i])
          const s = body(e)
          if (s !== undefined) {
            if (breaks.includes(s)) break
            if (!continues.includes(s)) return s
          }
          if (--rt.fuel < 0) refuel(loc)
        }
        return undefined
      }
      rt.loc = loc
      const it = getIterator(iterable)
      for (;;) {
        const v = it.next()
        if (v === DONE) break
        const e = enter(env)
        let s: Signal | undefined
        try {
          bind(e, v)
          s = body(e)
        } catch (err) {
          closeQuietly(it)
          throw err
        }
        if (s !== undefined) {
          if (breaks.includes(s)) {
            it.close()
            break
          }
          if (!continues.includes(s)) {
            it.close()
            return s
          }
        }
        if (--rt.fuel < 0) refuel(loc)
      }
      return undefined
    }
  }

  private forIn(n: Node, labels: string[]): Stmt {
    const scope = this.analysis.scopes.get(n)
    const right = this.expr(n.right)
    const bind = this.loopTarget(n.left)
    const body = this.statement(n.body)
    const enter = this.scopeEnter(scope)
    const { breaks, continues } = this.loopSignals(labels)
    const loc = this.loc(n)
    return (env) => {
      const o = right(env)
      const keys = forInKeys(o)
      const isObj = typeof o === "object" && o !== null
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i]
        if (isObj && !(k in o)) continue
        const e = enter(env)
        bind(e, k)
        const s = body(e)
        if (s !== undefined) {
          if (breaks.includes(s)) break
          if (!continues.includes(s)) return s
        }
        if (--rt.fuel < 0) refuel(loc)
      }
      return undefined
    }
  }

  private tryStatement(n: Node): Stmt {
    const block = this.statement(n.block)
    const handler = n.handler ? this.catchClause(n.handler) : undefined
    const finalizer = n.finalizer ? this.statement(n.finalizer) : undefined
    if (finalizer === undefined) {
      return (env) => {
        const depth = rt.depth
        try {
          return block(env)
        } catch (e) {
          const v = caught(e)
          rt.depth = depth
          return handler!(env, v)
        }
      }
    }
    return (env) => {
      const depth = rt.depth
      try {
        try {
          return block(env)
        } catch (e) {
          const v = caught(e)
          rt.depth = depth
          if (handler === undefined) throw v
          return handler(env, v)
        }
      } finally {
        if (!rt.dead) {
          rt.depth = depth
          const saved = rt.ret
          const s = finalizer(env)
          if (s !== undefined) return s
          rt.ret = saved
        }
      }
    }
  }

  /** A catch clause: binds the exception and runs the handler body. */
  catchClause(h: Node): (env: Env, thrown: Value) => Signal | undefined {
    const enter = this.scopeEnter(this.analysis.scopes.get(h))
    const bind = h.param
      ? h.param.type === "Identifier"
        ? this.initWriter(h.param)
        : this.pattern(h.param, "init")
      : undefined
    const body = this.statement(h.body)
    return (env, thrown) => {
      const e = enter(env)
      if (bind) bind(e, thrown)
      return body(e)
    }
  }

  private switchStatement(n: Node): Stmt {
    const discriminant = this.expr(n.discriminant)
    const scope = this.analysis.scopes.get(n)
    const cases = n.cases.map((c: Node) => ({
      test: c.test ? this.expr(c.test) : undefined,
      body: this.statementList(c.consequent, false),
    }))
    const enter = this.scopeEnter(scope)
    const functions = scope ? this.hoistedFunctions(scope) : () => {}
    const defaultIndex = n.cases.findIndex((c: Node) => !c.test)
    return (env) => {
      const d = discriminant(env)
      const e = enter(env)
      functions(e)
      let start = -1
      for (let i = 0; i < cases.length; i++) {
        const t = cases[i].test
        if (t !== undefined && t(e) === d) {
          start = i
          break
        }
      }
      if (start < 0) start = defaultIndex
      if (start < 0) return undefined
      for (let i = start; i < cases.length; i++) {
        const s = cases[i].body(e)
        if (s !== undefined) return s === BREAK ? undefined : s
      }
      return undefined
    }
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Patterns
  // ---------------------------------------------------------------------------------------------------------------

  /** Compile a binding or assignment pattern into a writer. */
  pattern(p: Node, mode: BindMode): Writer {
    switch (p.type) {
      case "Identifier":
        return mode === "init" ? this.initWriter(p) : this.assignWriter(p)
      case "MemberExpression":
        return this.assignTarget(p)
      case "AssignmentPattern": {
        const inner = this.pattern(p.left, mode)
        const d = this.expr(p.right, p.left.type === "Identifier" ? p.left.name : undefined)
        return (env, v) => inner(env, v === undefined ? d(env) : v)
      }
      case "ObjectPattern":
        return this.objectPattern(p, mode)
      case "ArrayPattern":
        return this.arrayPattern(p, mode)
      default:
        return unsupported(p, `${p.type} is not a valid binding target`, "Bind to names, objects or arrays")
    }
  }

  private objectPattern(p: Node, mode: BindMode): Writer {
    const loc = this.loc(p)
    const SO = this.realm.SO
    let rest: Writer | undefined
    const props: Array<{ key: Expr; write: Writer }> = []
    for (const prop of p.properties) {
      if (prop.type === "RestElement") {
        rest = this.pattern(prop.argument, mode)
        continue
      }
      const key: Expr = prop.computed
        ? (
            (k: Expr): Expr =>
            (env) =>
              toPropertyKey(k(env))
          )(this.expr(prop.key))
        : (
            (name: string): Expr =>
            () =>
              name
          )(propertyKeyName(prop.key, false)!)
      props.push({ key, write: this.pattern(prop.value, mode) })
    }
    return (env, v) => {
      requireDestructurable(v, loc)
      const used: PropertyKey[] | undefined = rest ? [] : undefined
      for (let i = 0; i < props.length; i++) {
        const k = props[i].key(env)
        used?.push(k)
        props[i].write(env, typeof v === "object" ? v[k] : getPrimitiveProp(v, k, loc))
      }
      if (rest) {
        const r = new SO()
        copyDataProperties(
          r,
          v,
          used!.map((k) => (typeof k === "number" ? String(k) : k)),
        )
        rest(env, r)
      }
    }
  }

  private arrayPattern(p: Node, mode: BindMode): Writer {
    const loc = this.loc(p)
    const elements: Array<{ rest: boolean; write: Writer } | null> = p.elements.map((e: Node | null) =>
      e === null
        ? null
        : e.type === "RestElement"
          ? { rest: true, write: this.pattern(e.argument, mode) }
          : { rest: false, write: this.pattern(e, mode) },
    )
    return (env, v) => {
      if (Array.isArray(v) && arrayIterationIsPristine(v)) {
        for (let i = 0; i < elements.length; i++) {
          const el = elements[i]
          if (el === null) continue
          if (el.rest) el.write(env, restArray(v, i))
          else el.write(env, v[i])
        }
        return
      }
      rt.loc = loc
      const it = getIterator(v)
      let done = false
      try {
        for (const el of elements) {
          if (el !== null && el.rest) {
            const r = new this.realm.SA()
            while (!done) {
              const x = it.next()
              if (x === DONE) done = true
              else r[r.length] = x
            }
            el.write(env, r)
            continue
          }
          let x: Value
          if (!done) {
            x = it.next()
            if (x === DONE) {
              done = true
              x = undefined
            }
          }
          if (el !== null) el.write(env, x)
        }
      } catch (e) {
        if (!done) closeQuietly(it)
        throw e
      }
      if (!done) it.close()
    }
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Functions
  // ---------------------------------------------------------------------------------------------------------------

  /** A function or arrow expression: creates a closure over the current environment. */
  functionExpression(n: Node, name: string): Expr {
    const info = this.analysis.functions.get(n)!
    const t = this.functionTemplate(n, info, name, n.type === "ArrowFunctionExpression" ? "arrow" : "function")
    const SF = this.realm.SF
    return (env) => new SF(t.call, t.construct, env, t.meta, undefined, t.call3)
  }

  /** The number of parameters before the first default or rest (a function's `length`). */
  private expectedArgs(params: Node[]): number {
    let n = 0
    for (const p of params) {
      if (p.type === "AssignmentPattern" || p.type === "RestElement") break
      n++
    }
    return n
  }

  /** Compile the parameter list into a binder `(env, args) => void`. */
  private parameters(params: Node[]): ((env: Env, args: Value[]) => void) | undefined {
    if (params.length === 0) return undefined
    const binders = params.map((p, i): ((env: Env, args: Value[]) => void) => {
      if (p.type === "RestElement") {
        const w = this.pattern(p.argument, "init")
        return (env, args) => w(env, restArray(args, i))
      }
      const w = this.pattern(p, "init")
      return (env, args) => w(env, i < args.length ? args[i] : undefined)
    })
    return (env, args) => {
      for (let i = 0; i < binders.length; i++) binders[i](env, args)
    }
  }

  /** Build the call/construct behaviour shared by all closures of one function definition. */
  functionTemplate(
    n: Node,
    info: FunctionInfo,
    name: string,
    kind: "function" | "arrow" | "method" | "get" | "set" | "field" | "static" | "constructor",
  ): FunctionTemplate {
    const params: Node[] = kind === "field" || kind === "static" ? [] : n.params
    const loc = this.loc(n)
    const scope = info.scope
    const size = scope.hasEnv ? scope.size : 0
    const isOrdinary = kind === "function" && !info.isAsync && !info.isGenerator
    const meta: FunctionMeta = {
      name,
      length: this.expectedArgs(params),
      constructorKind: kind === "constructor" ? (info.derived ? "derived" : "base") : isOrdinary ? "base" : "none",
      protoKind: info.isGenerator ? (info.isAsync ? "asyncGenerator" : "generator") : isOrdinary ? "object" : "none",
      display:
        kind === "constructor"
          ? "class"
          : `${info.isAsync ? "async " : ""}${info.isGenerator ? "generator " : ""}function`,
      source: kind === "field" || kind === "static" ? undefined : this.source.slice(n.start, n.end),
    }
    // Parameters and declarations.
    const tdz = this.tdzSlots(scope)
    const thisSlot = info.thisBinding ? info.thisBinding.slot : -1
    const argsSlot = info.argumentsBinding ? info.argumentsBinding.slot : -1
    const funcSlot = info.funcBinding ? info.funcBinding.slot : -1
    const homeSlot = info.homeBinding ? info.homeBinding.slot : -1
    const newTargetSlot = info.newTargetBinding ? info.newTargetBinding.slot : -1
    const derived = info.derived
    const simpleParams = params.every((p) => p.type === "Identifier")
    const paramSlots = simpleParams ? params.map((p) => this.binding(p)!.slot) : []
    const bindParams = simpleParams ? undefined : this.parameters(params)
    const hasFunctions = scope.functionDeclarations.length > 0
    const functions = this.hoistedFunctions(scope)
    const simple =
      simpleParams &&
      tdz.length === 0 &&
      argsSlot < 0 &&
      funcSlot < 0 &&
      homeSlot < 0 &&
      newTargetSlot < 0 &&
      !hasFunctions &&
      !derived
    const setup = (thisValue: Value, args: Value[], self: Value, newTarget: Value): Env => {
      let env: Env
      if (size === 0) env = self[ENV]
      else {
        env = new Array(size)
        env[0] = self[ENV]
      }
      for (let i = 0; i < tdz.length; i++) env[tdz[i]] = TDZ
      if (thisSlot >= 0) env[thisSlot] = derived ? TDZ : thisValue
      if (argsSlot >= 0) env[argsSlot] = createArguments(args)
      if (funcSlot >= 0) env[funcSlot] = self
      if (homeSlot >= 0) env[homeSlot] = self[HOME]
      if (newTargetSlot >= 0) env[newTargetSlot] = newTarget
      if (bindParams) bindParams(env, args)
      else for (let i = 0; i < paramSlots.length; i++) env[paramSlots[i]] = i < args.length ? args[i] : undefined
      if (hasFunctions) functions(env)
      return env
    }
    // Body.
    const resumable = info.isAsync || info.isGenerator ? info.suspends || info.isGenerator : false
    if (resumable) {
      const gbody = this.resumable.functionBody(n, info, kind, name)
      return { call: this.resumable.callImpl(info, setup, gbody), construct: undefined, meta }
    }
    const body = this.functionBody(n, kind, name)
    if (info.isAsync) return { call: this.resumable.plainAsyncCall(setup, body), construct: undefined, meta }
    if (kind === "constructor") {
      return { call: classCallError(name, loc), construct: this.classConstruct(info, loc, setup, body), meta }
    }
    let call: CallImpl
    let call3: Call3Impl | undefined
    const paramsInOrder = paramSlots.every((slot, i) => slot === i + 1)
    if (simple && size > 0 && size <= 8 && paramsInOrder) {
      // The hot path: the environment is one array literal (allocated inline by the host JIT) holding the
      // parent link and the parameters; other slots start undefined.
      const np = paramSlots.length
      call = (thisValue, args, self) => {
        if (--rt.fuel < 0) refuel()
        if (++rt.depth > MAX_CALL_DEPTH) tooDeep()
        const p = self[ENV]
        let env: Env
        switch (size) {
          case 1:
            env = [p]
            break
          case 2:
            env = [p, np > 0 ? args[0] : undefined]
            break
          case 3:
            env = [p, np > 0 ? args[0] : undefined, np > 1 ? args[1] : undefined]
            break
          case 4:
            env = [p, np > 0 ? args[0] : undefined, np > 1 ? args[1] : undefined, np > 2 ? args[2] : undefined]
            break
          case 5:
            env = [
              p,
              np > 0 ? args[0] : undefined,
              np > 1 ? args[1] : undefined,
              np > 2 ? args[2] : undefined,
              np > 3 ? args[3] : undefined,
            ]
            break
          case 6:
            env = [
              p,
              np > 0 ? args[0] : undefined,
              np > 1 ? args[1] : undefined,
              np > 2 ? args[2] : undefined,
              np > 3 ? args[3] : undefined,
              np > 4 ? args[4] : undefined,
            ]
            break
          case 7:
            env = [
              p,
              np > 0 ? args[0] : undefined,
              np > 1 ? args[1] : undefined,
              np > 2 ? args[2] : undefined,
              np > 3 ? args[3] : undefined,
              np > 4 ? args[4] : undefined,
              np > 5 ? args[5] : undefined,
            ]
            break
          default:
            env = [
              p,
              np > 0 ? args[0] : undefined,
              np > 1 ? args[1] : undefined,
              np > 2 ? args[2] : undefined,
              np > 3 ? args[3] : undefined,
              np > 4 ? args[4] : undefined,
              np > 5 ? args[5] : undefined,
              np > 6 ? args[6] : undefined,
            ]
        }
        if (thisSlot >= 0) env[thisSlot] = thisValue
        const r = body(env)
        rt.depth--
        return r
      }
      if (np <= 3 && size <= 6) {
        // Same as `call`, with the (at most three) arguments passed directly.
        call3 = (thisValue, a0, a1, a2, self) => {
          if (--rt.fuel < 0) refuel()
          if (++rt.depth > MAX_CALL_DEPTH) tooDeep()
          const p = self[ENV]
          let env: Env
          switch (size) {
            case 1:
              env = [p]
              break
            case 2:
              env = [p, np > 0 ? a0 : undefined]
              break
            case 3:
              env = [p, np > 0 ? a0 : undefined, np > 1 ? a1 : undefined]
              break
            case 4:
              env = [p, np > 0 ? a0 : undefined, np > 1 ? a1 : undefined, np > 2 ? a2 : undefined]
              break
            case 5:
              env = [p, np > 0 ? a0 : undefined, np > 1 ? a1 : undefined, np > 2 ? a2 : undefined, undefined]
              break
            default:
              env = [p, np > 0 ? a0 : undefined, np > 1 ? a1 : undefined, np > 2 ? a2 : undefined, undefined, undefined]
          }
          if (thisSlot >= 0) env[thisSlot] = thisValue
          const r = body(env)
          rt.depth--
          return r
        }
      }
    } else {
      call = (thisValue, args, self) => {
        if (--rt.fuel < 0) refuel()
        if (++rt.depth > MAX_CALL_DEPTH) tooDeep()
        const r = body(setup(thisValue, args, self, undefined))
        rt.depth--
        return r
      }
    }
    let construct: ConstructImpl | undefined
    if (isOrdinary) {
      const ObjectProto = this.realm.ObjectProto
      construct = (args, newTarget, self) => {
        if (--rt.fuel < 0) refuel()
        if (++rt.depth > MAX_CALL_DEPTH) tooDeep()
        const obj = Object.create(prototypeFor(newTarget, ObjectProto))
        const r = body(setup(obj, args, self, newTarget))
        rt.depth--
        return isObject(r) ? r : obj
      }
    }
    return { call, construct, meta, call3 }
  }

  /** The plain (non-resumable) body of a function: returns the function's result. */
  functionBody(n: Node, kind: string, name: string): Expr {
    if (kind === "field") {
      if (!n.value) return () => undefined
      return this.expr(n.value, name)
    }
    if (kind === "static") {
      const list = this.statementList(n.body, false)
      return (env) => {
        list(env)
        return undefined
      }
    }
    if (n.body.type !== "BlockStatement") return this.expr(n.body)
    const statements: Node[] = n.body.body
    const last = statements[statements.length - 1]
    if (last && last.type === "ReturnStatement" && last.argument) {
      const tail = this.expr(last.argument)
      const rest = statements
        .slice(0, -1)
        .filter((s) => s.type !== "FunctionDeclaration" && s.type !== "EmptyStatement")
      if (rest.length === 0) return tail
      // Guard clauses (`if (c) return x` ... `return y`) become one conditional expression.
      const guards = rest.map(guardClause)
      if (guards.every((g) => g !== undefined)) {
        let chain = tail
        for (let i = guards.length - 1; i >= 0; i--) {
          const test = this.expr(guards[i]!.test)
          const value = this.expr(guards[i]!.value)
          const otherwise = chain
          chain = (env) => (test(env) ? value(env) : otherwise(env))
        }
        return chain
      }
      const head = this.statementList(statements.slice(0, -1), false)
      return (env) => {
        const s = head(env)
        if (s !== undefined) return rt.ret
        return tail(env)
      }
    }
    const list = this.statementList(statements, false)
    return (env) => (list(env) === RETURN ? rt.ret : undefined)
  }

  /** `CONSTRUCT` of a class constructor. */
  private classConstruct(
    info: FunctionInfo,
    loc: Location,
    setup: (thisValue: Value, args: Value[], self: Value, newTarget: Value) => Env,
    body: Expr,
  ): ConstructImpl {
    const ObjectProto = this.realm.ObjectProto
    if (!info.derived) {
      return (args, newTarget, self) => {
        if (--rt.fuel < 0) refuel()
        if (++rt.depth > MAX_CALL_DEPTH) tooDeep()
        const obj = Object.create(prototypeFor(newTarget, ObjectProto))
        initializeInstance(self, obj)
        const r = body(setup(obj, args, self, newTarget))
        rt.depth--
        return isObject(r) ? r : obj
      }
    }
    const thisSlot = info.thisBinding ? info.thisBinding.slot : -1
    return (args, newTarget, self) => {
      if (--rt.fuel < 0) refuel()
      if (++rt.depth > MAX_CALL_DEPTH) tooDeep()
      const env = setup(undefined, args, self, newTarget)
      const r = body(env)
      rt.depth--
      if (isObject(r)) return r
      if (r !== undefined) return throwTypeError("Derived constructors may only return object or undefined", loc)
      const t = thisSlot >= 0 ? env[thisSlot] : TDZ
      return t === TDZ ? tdzError("%this", loc) : t
    }
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Classes
  // ---------------------------------------------------------------------------------------------------------------

  /** A class declaration or expression. */
  classExpression(n: Node, name: string): Expr {
    const scope = this.analysis.scopes.get(n)!
    const enter = this.scopeEnter(scope)
    const realm = this.realm
    const SF = realm.SF
    const loc = this.loc(n)
    const innerSlot = n.id ? scope.bindings.get(n.id.name)!.slot : -1
    const privates = [...scope.bindings.values()].filter((b) => b.kind === "private")
    const heritage = n.superClass ? this.expr(n.superClass) : undefined
    const heritageText = n.superClass ? this.text(n.superClass) : ""
    const ctorNode = n.body.body.find((el: Node) => el.type === "MethodDefinition" && el.kind === "constructor")
    let ctor: FunctionTemplate
    if (ctorNode) {
      ctor = this.functionTemplate(ctorNode.value, this.analysis.functions.get(ctorNode.value)!, name, "constructor")
    } else {
      ctor = defaultConstructor(name, !!n.superClass, loc, realm.ObjectProto)
    }
    type Element = (env: Env, F: Value, proto: Value, instance: ClassElement[], statics: Array<() => void>) => void
    const elements: Element[] = []
    for (const el of n.body.body) {
      if (el.type === "MethodDefinition") {
        if (el.kind === "constructor") continue
        const isPrivate = el.key.type === "PrivateIdentifier"
        const key = this.classKey(el)
        const kind: "method" | "get" | "set" = el.kind
        const info = this.analysis.functions.get(el.value)!
        const staticName = isPrivate ? `#${el.key.name}` : propertyKeyName(el.key, el.computed)
        const fixed =
          staticName !== undefined
            ? this.functionTemplate(el.value, info, kind === "method" ? staticName : `${kind} ${staticName}`, kind)
            : undefined
        const isStatic: boolean = el.static
        elements.push((env, F, proto, instance) => {
          const k = key(env)
          const t =
            fixed ??
            this.functionTemplate(el.value, info, kind === "method" ? keyName(k) : `${kind} ${keyName(k)}`, kind)
          const home = isStatic ? F : proto
          const fn = new SF(t.call, t.construct, env, t.meta, home, t.call3)
          if (isPrivate && !isStatic) {
            const existing = instance.find((x) => x.key === k)
            if (kind === "method") instance.push({ kind: "method", key: k, isPrivate: true, init: fn })
            else if (existing && existing.kind === "accessor") {
              ;(existing as { get?: Value; set?: Value })[kind] = kind === "get" ? hostGetter(fn) : hostSetter(fn)
            } else {
              instance.push({
                kind: "accessor",
                key: k,
                isPrivate: true,
                get: kind === "get" ? hostGetter(fn) : undefined,
                set: kind === "set" ? hostSetter(fn) : undefined,
              })
            }
            return
          }
          defineMethodProperty(home, k, kind, fn, false, hostGetter, hostSetter)
        })
      } else if (el.type === "PropertyDefinition") {
        const isPrivate = el.key.type === "PrivateIdentifier"
        const key = this.classKey(el)
        const isStatic: boolean = el.static
        const info = this.analysis.functions.get(el)
        const staticName = isPrivate ? `#${el.key.name}` : propertyKeyName(el.key, el.computed)
        const t = info ? this.functionTemplate(el, info, staticName ?? "", "field") : undefined
        elements.push((env, F, proto, instance, statics) => {
          const k = key(env)
          const init = t ? new SF(t.call, undefined, env, t.meta, isStatic ? F : proto) : undefined
          if (!isStatic) {
            instance.push({ kind: "field", key: k, isPrivate, init })
            return
          }
          statics.push(() => {
            const value = init ? call(init, F, NO_ARGS) : undefined
            if (isPrivate)
              Object.defineProperty(F, k, { value, writable: true, enumerable: false, configurable: false })
            else Object.defineProperty(F, k, { value, writable: true, enumerable: true, configurable: true })
          })
        })
      } else if (el.type === "StaticBlock") {
        const t = this.functionTemplate(el, this.analysis.functions.get(el)!, "", "static")
        elements.push((env, F, _proto, _instance, statics) => {
          const fn = new SF(t.call, undefined, env, t.meta, F)
          statics.push(() => call(fn, F, NO_ARGS))
        })
      }
    }
    return (outer) => {
      const env = enter(outer)
      for (const p of privates) {
        const sym = Symbol(p.name)
        registerPrivateName(sym)
        env[p.slot] = sym
      }
      let protoParent: Value = realm.ObjectProto
      let ctorParent: Value = realm.FunctionProto
      if (heritage) {
        const parent = heritage(env)
        if (parent === null) {
          protoParent = null
        } else {
          if (!isConstructor(parent)) {
            throwTypeError(`Class extends value ${heritageText} is not a constructor or null`, loc)
          }
          const pp = parent.prototype
          if (pp !== null && !isObject(pp))
            throwTypeError(`Class extends value does not have valid prototype property`, loc)
          protoParent = pp
          ctorParent = parent
        }
      }
      const proto = Object.create(protoParent)
      const F = new SF(ctor.call, ctor.construct, env, ctor.meta, proto)
      if (ctorParent !== realm.FunctionProto) Object.setPrototypeOf(F, ctorParent)
      Object.defineProperty(F, "prototype", { value: proto, writable: false, enumerable: false, configurable: false })
      Object.defineProperty(proto, "constructor", { value: F, writable: true, enumerable: false, configurable: true })
      const instance: ClassElement[] = []
      const statics: Array<() => void> = []
      for (const el of elements) el(env, F, proto, instance, statics)
      F[FIELDS] = instance.length > 0 ? instance : undefined
      if (innerSlot >= 0) env[innerSlot] = F
      for (const s of statics) s()
      return F
    }
  }

  /** The key of a class element: a property key, or the private name's symbol. */
  private classKey(el: Node): Expr {
    if (el.key.type === "PrivateIdentifier") return this.readBinding(el.key, this.analysis.refs.get(el.key)!)
    if (el.computed) {
      const k = this.expr(el.key)
      return (env) => toPropertyKey(k(env))
    }
    const name = propertyKeyName(el.key, false)!
    return () => name
  }
}

/** `if (test) return value` (without `else`, the return possibly alone in a block): its test and value. */
const guardClause = (s: Node): { test: Node; value: Node } | undefined => {
  if (s.type !== "IfStatement" || s.alternate) return undefined
  let c = s.consequent
  if (c.type === "BlockStatement" && c.body.length === 1) c = c.body[0]
  if (c.type !== "ReturnStatement" || !c.argument) return undefined
  return { test: s.test, value: c.argument }
}

const isLoop = (n: Node): boolean =>
  n.type === "ForStatement" ||
  n.type === "ForInStatement" ||
  n.type === "ForOfStatement" ||
  n.type === "WhileStatement" ||
  n.type === "DoWhileStatement"

/** Close an iterator while an exception propagates (a failure to close never hides the exception). */
export const closeQuietly = (it: { close(): void }): void => {
  if (rt.dead) return
  try {
    it.close()
  } catch (e) {
    if (rt.dead) throw e
  }
}

const classCallError =
  (name: string, loc: Location): CallImpl =>
  () =>
    throwTypeError(`Class constructor ${name || "(anonymous)"} cannot be invoked without 'new'`, loc)

/** The constructor of a class that declares none. */
const defaultConstructor = (name: string, derived: boolean, loc: Location, ObjectProto: Value): FunctionTemplate => {
  const meta: FunctionMeta = {
    name,
    length: 0,
    constructorKind: derived ? "derived" : "base",
    protoKind: "none",
    display: "class",
  }
  const construct: ConstructImpl = derived
    ? (args, newTarget, self) => {
        if (++rt.depth > MAX_CALL_DEPTH) tooDeep()
        const result = superConstruct(self, args, newTarget, loc)
        initializeInstance(self, result)
        rt.depth--
        return result
      }
    : (_args, newTarget, self) => {
        const obj = Object.create(prototypeFor(newTarget, ObjectProto))
        initializeInstance(self, obj)
        return obj
      }
  return { call: classCallError(name, loc), construct, meta }
}
