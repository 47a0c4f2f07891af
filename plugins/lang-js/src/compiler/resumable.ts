/**
 * The resumable form: code that contains `await` or `yield` compiles into host generator functions, so a body can
 * suspend in the middle of an expression and resume later. Only the nodes on the path to a suspension point take
 * this form; everything else inside them stays a plain closure (lifted where a generator is expected).
 */
import { MAX_CALL_DEPTH } from "../limits.js"
import type { Node } from "../parse.js"
import { caught, throwTypeError, throwValue } from "../runtime/errors.js"
import {
  call,
  construct,
  hostGetter,
  hostSetter,
  isObject,
  NO_ARGS,
  type CallImpl,
  type Value,
} from "../runtime/functions.js"
import { CALL, CONSTRUCT } from "../runtime/internals.js"
import { DONE, getIterator, getIteratorMethod, protocolIterator, type Iter } from "../runtime/iterators.js"
import { refuel, tooDeep } from "../runtime/meter.js"
import {
  copyDataProperties,
  createDataProperty,
  getComputed,
  getPrimitiveProp,
  noteAccessor,
  setComputed,
} from "../runtime/properties.js"
import { concat, toNumber, toPrimitive, toPropertyKey, toStr, typeOf, unary } from "../runtime/operators.js"
import { makeAsyncGenerator, makeGenerator, runAsync, type Body } from "../runtime/generators.js"
import { newPromise, promiseResolve, rejectPromise, rejectedPromise, resolvePromise } from "../runtime/promises.js"
import { rt } from "../runtime/state.js"
import type { FunctionInfo } from "./analyze.js"
import { binaryOperator, closeQuietly, type Compiler, keyName } from "./compile.js"
import { notFunction, prototypeFor, spreadInto, templateObject } from "./ops.js"
import {
  BREAK,
  type Env,
  type Expr,
  type GExpr,
  type GStmt,
  liftExpr,
  liftStmt,
  RETURN,
  SHORT,
  type Signal,
  type Stmt,
  unsupported,
} from "./shared.js"

type Setup = (thisValue: Value, args: Value[], self: Value, newTarget: Value) => Env

/** Compiles nodes containing suspension points into host generators. */
export class Resumable {
  /** The functions whose bodies are being compiled, innermost last. */
  private readonly functions: FunctionInfo[] = []

  constructor(private readonly c: Compiler) {}

  // ---------------------------------------------------------------------------------------------------------------
  // Functions
  // ---------------------------------------------------------------------------------------------------------------

  /** The body of an async function or generator: a generator that returns the function's result. */
  functionBody(n: Node, info: FunctionInfo, kind: string, name: string): (env: Env) => Body {
    if (!info.suspends) {
      const plain = this.c.functionBody(n, kind, name)
      return function* (env) {
        return plain(env)
      }
    }
    this.functions.push(info)
    try {
      if (n.body.type !== "BlockStatement") {
        const e = this.expr(n.body)
        return function* (env) {
          return yield* e(env)
        }
      }
      const list = this.statementList(n.body.body, false)
      return function* (env) {
        const s = yield* list(env)
        return s === RETURN ? rt.ret : undefined
      }
    } finally {
      this.functions.pop()
    }
  }

  /** `CALL` of an async function, generator or async generator. */
  callImpl(info: FunctionInfo, setup: Setup, body: (env: Env) => Body): CallImpl {
    const realm = this.c.realm
    if (info.isGenerator) {
      const fallback = info.isAsync ? realm.AsyncGeneratorProto : realm.GeneratorProto
      const make = info.isAsync ? makeAsyncGenerator : makeGenerator
      return (thisValue, args, self) => {
        if (--rt.fuel < 0) refuel()
        if (++rt.depth > MAX_CALL_DEPTH) tooDeep()
        const env = setup(thisValue, args, self, undefined)
        const g = make(body(env), prototypeFor(self, fallback))
        rt.depth--
        return g
      }
    }
    return (thisValue, args, self) => {
      if (--rt.fuel < 0) refuel()
      if (++rt.depth > MAX_CALL_DEPTH) tooDeep()
      const depth = rt.depth
      const record = newPromise()
      let env: Env
      try {
        env = setup(thisValue, args, self, undefined)
      } catch (e) {
        const reason = caught(e)
        rt.depth = depth - 1
        rejectPromise(record, reason)
        return record.object
      }
      runAsync(body(env), record)
      rt.depth = depth - 1
      return record.object
    }
  }

  /** `CALL` of an async function without any `await`: runs to completion, returns a settled promise. */
  plainAsyncCall(setup: Setup, body: Expr): CallImpl {
    return (thisValue, args, self) => {
      if (--rt.fuel < 0) refuel()
      if (++rt.depth > MAX_CALL_DEPTH) tooDeep()
      const depth = rt.depth
      const record = newPromise()
      try {
        resolvePromise(record, body(setup(thisValue, args, self, undefined)))
      } catch (e) {
        const reason = caught(e)
        rejectPromise(record, reason)
      }
      rt.depth = depth - 1
      return record.object
    }
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Statements
  // ---------------------------------------------------------------------------------------------------------------

  /** A statement list in resumable form; plain statements in it run directly. */
  statementList(statements: Node[], topLevel: boolean): GStmt {
    const items = statements
      .filter((s) => s.type !== "FunctionDeclaration" && s.type !== "EmptyStatement")
      .map((s): { p?: Stmt; g?: GStmt } => {
        if (topLevel && s.type === "ExpressionStatement") {
          if (this.c.suspends(s)) {
            const e = this.expr(s.expression)
            return {
              g: function* (env) {
                rt.completion = yield* e(env)
                return undefined
              },
            }
          }
          const e = this.c.expr(s.expression)
          return {
            p: (env) => {
              rt.completion = e(env)
              return undefined
            },
          }
        }
        return this.c.suspends(s) ? { g: this.statement(s) } : { p: this.c.statement(s) }
      })
    return function* (env) {
      for (let i = 0; i < items.length; i++) {
        const it = items[i]
        const s = it.p !== undefined ? it.p(env) : yield* it.g!(env)
        if (s !== undefined) return s
      }
      return undefined
    }
  }

  /** A statement in resumable form (plain statements are lifted). */
  statement(n: Node, labels: string[] = []): GStmt {
    if (!this.c.suspends(n)) return liftStmt(this.c.statement(n, labels))
    const c = this.c
    switch (n.type) {
      case "ExpressionStatement": {
        const e = this.expr(n.expression)
        return function* (env) {
          yield* e(env)
          return undefined
        }
      }
      case "VariableDeclaration": {
        const parts = n.declarations.map((d: Node): GStmt => {
          if (d.id.type !== "Identifier" && c.suspends(d.id)) {
            unsupported(d.id, "`await` inside a destructuring default", "Await the value first, then destructure it")
          }
          const write = d.id.type === "Identifier" ? c.initWriter(d.id) : c.pattern(d.id, "init")
          const v = d.init ? this.expr(d.init, d.id.type === "Identifier" ? d.id.name : undefined) : undefined
          const isVar = n.kind === "var"
          return function* (env) {
            if (v) write(env, yield* v(env))
            else if (!isVar) write(env, undefined)
            return undefined
          }
        })
        return function* (env) {
          for (const p of parts) yield* p(env)
          return undefined
        }
      }
      case "ReturnStatement": {
        const a = this.expr(n.argument)
        return function* (env) {
          rt.ret = yield* a(env)
          return RETURN
        }
      }
      case "ThrowStatement": {
        const a = this.expr(n.argument)
        const loc = c.loc(n)
        return function* (env) {
          return throwValue(yield* a(env), loc)
        }
      }
      case "IfStatement": {
        const t = this.expr(n.test)
        const a = this.statement(n.consequent)
        const b = n.alternate ? this.statement(n.alternate) : undefined
        return function* (env) {
          if (yield* t(env)) return yield* a(env)
          return b ? yield* b(env) : undefined
        }
      }
      case "BlockStatement":
        return this.block(c.analysis.scopes.get(n), n.body)
      case "LabeledStatement": {
        const all = [...labels, n.label.name]
        const body = n.body
        const loop = [
          "ForStatement",
          "ForInStatement",
          "ForOfStatement",
          "WhileStatement",
          "DoWhileStatement",
          "LabeledStatement",
        ].includes(body.type)
        if (loop) return this.statement(body, all)
        const inner = this.statement(body)
        const breaks = all.map((l) => c.labelSignal(l).break)
        return function* (env) {
          const s = yield* inner(env)
          return s !== undefined && breaks.includes(s) ? undefined : s
        }
      }
      case "WhileStatement":
      case "DoWhileStatement":
        return this.whileLoop(n, labels)
      case "ForStatement":
        return this.forLoop(n, labels)
      case "ForOfStatement":
        return n.await ? this.forAwait(n, labels) : this.forOf(n, labels)
      case "ForInStatement":
        return this.forIn(n, labels)
      case "TryStatement":
        return this.tryStatement(n)
      case "SwitchStatement":
        return this.switchStatement(n)
      case "ClassDeclaration":
        return unsupported(n, "`await`/`yield` inside a class definition", "Compute the value before the class")
      default:
        return unsupported(
          n,
          `${n.type} with \`await\`/\`yield\` is not supported`,
          "Await the value in a separate statement first",
        )
    }
  }

  private block(scope: ReturnType<Compiler["analysis"]["scopes"]["get"]>, body: Node[]): GStmt {
    const enter = this.c.scopeEnter(scope)
    const functions = scope ? this.c.hoistedFunctions(scope) : () => {}
    const list = this.statementList(body, false)
    return function* (env) {
      const e = enter(env)
      functions(e)
      return yield* list(e)
    }
  }

  private whileLoop(n: Node, labels: string[]): GStmt {
    const test = this.expr(n.test)
    const body = this.statement(n.body)
    const { breaks, continues } = this.c.loopSignals(labels)
    const loc = this.c.loc(n)
    const isDo = n.type === "DoWhileStatement"
    return function* (env) {
      let first = true
      for (;;) {
        if (!(isDo && first) && !(yield* test(env))) break
        first = false
        const s = yield* body(env)
        if (s !== undefined) {
          if (breaks.includes(s)) break
          if (!continues.includes(s)) return s
        }
        if (--rt.fuel < 0) refuel(loc)
      }
      return undefined
    }
  }

  private forLoop(n: Node, labels: string[]): GStmt {
    const c = this.c
    const scope = c.analysis.scopes.get(n)
    const init: GStmt | undefined = n.init
      ? n.init.type === "VariableDeclaration"
        ? this.statement(n.init)
        : ((e: GExpr): GStmt =>
            function* (env) {
              yield* e(env)
              return undefined
            })(this.expr(n.init))
      : undefined
    const test = n.test ? this.expr(n.test) : undefined
    const update = n.update ? this.expr(n.update) : undefined
    const body = this.statement(n.body)
    const { breaks, continues } = c.loopSignals(labels)
    const loc = c.loc(n)
    const perIteration = scope !== undefined && scope.hasEnv
    const size = scope ? scope.size : 0
    const slots = scope ? [...scope.bindings.values()].map((b) => b.slot) : []
    const enter = c.scopeEnter(scope)
    return function* (env) {
      let e = enter(env)
      if (init) yield* init(e)
      let first = true
      for (;;) {
        if (perIteration) {
          const next: Env = new Array(size)
          next[0] = env
          for (let i = 0; i < slots.length; i++) next[slots[i]] = e[slots[i]]
          e = next
        }
        if (!first && update) yield* update(e)
        first = false
        if (test && !(yield* test(e))) break
        const s = yield* body(e)
        if (s !== undefined) {
          if (breaks.includes(s)) break
          if (!continues.includes(s)) return s
        }
        if (--rt.fuel < 0) refuel(loc)
      }
      return undefined
    }
  }

  private forOf(n: Node, labels: string[]): GStmt {
    const c = this.c
    const right = this.expr(n.right)
    const bind = c.loopTarget(n.left)
    const body = this.statement(n.body)
    const enter = c.scopeEnter(c.analysis.scopes.get(n))
    const { breaks, continues } = c.loopSignals(labels)
    const loc = c.loc(n)
    return function* (env) {
      const iterable = yield* right(env)
      rt.loc = loc
      const it: Iter = getIterator(iterable)
      let finished = false
      try {
        for (;;) {
          const v = it.next()
          if (v === DONE) {
            finished = true
            break
          }
          const e = enter(env)
          bind(e, v)
          const s = yield* body(e)
          if (s !== undefined) {
            if (breaks.includes(s)) break
            if (!continues.includes(s)) return s
          }
          if (--rt.fuel < 0) refuel(loc)
        }
      } finally {
        if (!finished) closeQuietly(it)
      }
      return undefined
    }
  }

  private forAwait(n: Node, labels: string[]): GStmt {
    const c = this.c
    const right = this.expr(n.right)
    const bind = c.loopTarget(n.left)
    const body = this.statement(n.body)
    const enter = c.scopeEnter(c.analysis.scopes.get(n))
    const { breaks, continues } = c.loopSignals(labels)
    const loc = c.loc(n)
    return function* (env) {
      const iterable = yield* right(env)
      rt.loc = loc
      const method = getIteratorMethod(iterable, Symbol.asyncIterator)
      let iterator: Value
      let sync: Iter | undefined
      if (method !== undefined) {
        iterator = call(method, iterable, NO_ARGS)
        if (!isObject(iterator)) throwTypeError("Result of the Symbol.asyncIterator method is not an object", loc)
      } else {
        sync = getIterator(iterable)
      }
      const next = iterator !== undefined ? iterator.next : undefined
      let finished = false
      try {
        for (;;) {
          let value: Value
          if (sync !== undefined) {
            const v = sync.next()
            if (v === DONE) {
              finished = true
              break
            }
            rt.awaiting = true
            value = yield v
          } else {
            rt.awaiting = true
            const result = yield call(next, iterator, NO_ARGS)
            if (!isObject(result)) throwTypeError("Iterator result is not an object", loc)
            if (result.done) {
              finished = true
              break
            }
            value = result.value
          }
          const e = enter(env)
          bind(e, value)
          const s = yield* body(e)
          if (s !== undefined) {
            if (breaks.includes(s)) break
            if (!continues.includes(s)) return s
          }
          if (--rt.fuel < 0) refuel(loc)
        }
      } finally {
        if (!finished && !rt.dead) {
          if (sync !== undefined) closeQuietly(sync)
          else {
            const ret = iterator.return
            if (ret !== undefined && ret !== null) {
              rt.awaiting = true
              yield call(ret, iterator, NO_ARGS)
            }
          }
        }
      }
      return undefined
    }
  }

  private forIn(n: Node, labels: string[]): GStmt {
    const c = this.c
    const right = this.expr(n.right)
    const bind = c.loopTarget(n.left)
    const body = this.statement(n.body)
    const enter = c.scopeEnter(c.analysis.scopes.get(n))
    const { breaks, continues } = c.loopSignals(labels)
    const loc = c.loc(n)
    return function* (env) {
      const o = yield* right(env)
      const keys: string[] = []
      if (typeof o === "object" && o !== null) for (const k in o) keys.push(k)
      else if (typeof o === "string") for (let i = 0; i < o.length; i++) keys.push(String(i))
      for (const k of keys) {
        if (typeof o === "object" && !(k in o)) continue
        const e = enter(env)
        bind(e, k)
        const s = yield* body(e)
        if (s !== undefined) {
          if (breaks.includes(s)) break
          if (!continues.includes(s)) return s
        }
        if (--rt.fuel < 0) refuel(loc)
      }
      return undefined
    }
  }

  private tryStatement(n: Node): GStmt {
    const c = this.c
    const block = this.statement(n.block)
    const h = n.handler
    const enterCatch = h ? c.scopeEnter(c.analysis.scopes.get(h)) : undefined
    const bind =
      h && h.param ? (h.param.type === "Identifier" ? c.initWriter(h.param) : c.pattern(h.param, "init")) : undefined
    const handler = h ? this.statement(h.body) : undefined
    const finalizer = n.finalizer ? this.statement(n.finalizer) : undefined
    return function* (env) {
      try {
        try {
          return yield* block(env)
        } catch (e) {
          const v = caught(e)
          rt.depth = rt.base
          if (handler === undefined) throw v
          const ce = enterCatch!(env)
          if (bind) bind(ce, v)
          return yield* handler(ce)
        }
      } finally {
        if (finalizer !== undefined && !rt.dead) {
          rt.depth = rt.base
          const saved = rt.ret
          const s = yield* finalizer(env)
          if (s !== undefined) return s
          rt.ret = saved
        }
      }
    }
  }

  private switchStatement(n: Node): GStmt {
    const c = this.c
    const discriminant = this.expr(n.discriminant)
    const scope = c.analysis.scopes.get(n)
    const enter = c.scopeEnter(scope)
    const functions = scope ? c.hoistedFunctions(scope) : () => {}
    const cases = n.cases.map((k: Node) => ({
      test: k.test ? this.expr(k.test) : undefined,
      body: this.statementList(k.consequent, false),
    }))
    const defaultIndex = n.cases.findIndex((k: Node) => !k.test)
    return function* (env) {
      const d = yield* discriminant(env)
      const e = enter(env)
      functions(e)
      let start = -1
      for (let i = 0; i < cases.length; i++) {
        const t = cases[i].test
        if (t !== undefined && (yield* t(e)) === d) {
          start = i
          break
        }
      }
      if (start < 0) start = defaultIndex
      if (start < 0) return undefined
      for (let i = start; i < cases.length; i++) {
        const s: Signal | undefined = yield* cases[i].body(e)
        if (s !== undefined) return s === BREAK ? undefined : s
      }
      return undefined
    }
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Expressions
  // ---------------------------------------------------------------------------------------------------------------

  /** An expression in resumable form (plain expressions are lifted). */
  expr(n: Node, name?: string): GExpr {
    const c = this.c
    if (!c.suspends(n)) return liftExpr(c.expr(n, name))
    switch (n.type) {
      case "AwaitExpression": {
        const a = this.expr(n.argument)
        return function* (env) {
          const v = yield* a(env)
          rt.awaiting = true
          return yield v
        }
      }
      case "YieldExpression":
        return n.delegate ? this.yieldStar(n) : this.yieldExpression(n)
      case "BinaryExpression": {
        if (n.left.type === "PrivateIdentifier") {
          return unsupported(n, "`await` in a private `in` check", "Await the value in a separate statement first")
        }
        const l = this.expr(n.left)
        const r = this.expr(n.right)
        const f = binaryOperator(n.operator)
        return function* (env) {
          const a = yield* l(env)
          const b = yield* r(env)
          return f(a, b)
        }
      }
      case "LogicalExpression": {
        const l = this.expr(n.left)
        const r = this.expr(n.right)
        const op = n.operator
        return function* (env) {
          const v = yield* l(env)
          if (op === "&&" ? !v : op === "||" ? !!v : v !== undefined && v !== null) return v
          return yield* r(env)
        }
      }
      case "ConditionalExpression": {
        const t = this.expr(n.test)
        const a = this.expr(n.consequent, name)
        const b = this.expr(n.alternate, name)
        return function* (env) {
          return (yield* t(env)) ? yield* a(env) : yield* b(env)
        }
      }
      case "SequenceExpression": {
        const parts = n.expressions.map((x: Node) => this.expr(x))
        return function* (env) {
          let v: Value
          for (const p of parts) v = yield* p(env)
          return v
        }
      }
      case "UnaryExpression": {
        const a = this.expr(n.argument)
        const op = n.operator
        if (op === "delete")
          return unsupported(n, "`delete` with `await`", "Await the value in a separate statement first")
        return function* (env) {
          const v = yield* a(env)
          switch (op) {
            case "typeof":
              return typeOf(v)
            case "void":
              return undefined
            case "!":
              return !v
            case "-":
              return typeof v === "number" ? -v : unary("-", v)
            case "+":
              return typeof v === "number" ? v : toNumber(v)
            default:
              return typeof v === "number" ? ~v : unary("~", v)
          }
        }
      }
      case "TemplateLiteral": {
        const quasis: string[] = n.quasis.map((q: Node) => q.value.cooked)
        const exprs = n.expressions.map((x: Node) => this.expr(x))
        return function* (env) {
          let s = quasis[0]
          for (let i = 0; i < exprs.length; i++) {
            const v = yield* exprs[i](env)
            s = concat(concat(s, typeof v === "string" ? v : toStr(v)), quasis[i + 1])
          }
          return s
        }
      }
      case "ArrayExpression": {
        const parts = n.elements.map((e: Node | null) =>
          e === null
            ? null
            : e.type === "SpreadElement"
              ? { spread: true, e: this.expr(e.argument) }
              : { spread: false, e: this.expr(e) },
        )
        const SA = c.realm.SA
        return function* (env) {
          const r = new SA()
          for (const p of parts) {
            if (p === null) r.length++
            else if (p.spread) spreadInto(r, yield* p.e(env))
            else r[r.length] = yield* p.e(env)
          }
          return r
        }
      }
      case "ObjectExpression":
        return this.objectLiteral(n)
      case "AssignmentExpression":
        return this.assignment(n)
      case "UpdateExpression":
        return this.update(n)
      case "MemberExpression":
        return this.member(n, false)
      case "ChainExpression": {
        const inner = this.chainPart(n.expression)
        return function* (env) {
          const v = yield* inner(env)
          return v === SHORT ? undefined : v
        }
      }
      case "CallExpression":
        return this.callExpression(n, false)
      case "NewExpression": {
        const f = this.expr(n.callee)
        const args = this.args(n.arguments)
        const loc = c.loc(n)
        const text = c.text(n.callee)
        return function* (env) {
          const fn = yield* f(env)
          const a = yield* args(env)
          rt.loc = loc
          if (typeof fn !== "object" || fn === null || fn[CONSTRUCT] === undefined)
            return throwTypeError(`${text} is not a constructor`, loc)
          return construct(fn, a)
        }
      }
      case "TaggedTemplateExpression": {
        const tag = this.expr(n.tag)
        const cooked = n.quasi.quasis.map((q: Node) => q.value.cooked ?? undefined)
        const raw = n.quasi.quasis.map((q: Node) => q.value.raw)
        const exprs = n.quasi.expressions.map((x: Node) => this.expr(x))
        const loc = c.loc(n)
        const text = c.text(n.tag)
        let strings: Value
        return function* (env) {
          const f = yield* tag(env)
          if (strings === undefined) strings = templateObject(cooked, raw)
          const args: Value[] = [strings]
          for (const e of exprs) args.push(yield* e(env))
          rt.loc = loc
          return typeof f === "object" && f !== null && f[CALL] !== undefined
            ? f[CALL](undefined, args, f)
            : notFunction(text, f, loc)
        }
      }
      case "ImportExpression": {
        const source = this.expr(n.source)
        const loc = c.loc(n)
        return function* (env) {
          const spec = toStr(yield* source(env))
          try {
            return promiseResolve(c.namespaceObject(c.resolveModule(spec, loc))).object
          } catch (e) {
            return rejectedPromise(caught(e))
          }
        }
      }
      case "ParenthesizedExpression":
        return this.expr(n.expression, name)
      default:
        return unsupported(
          n,
          `\`await\`/\`yield\` inside ${n.type} is not supported`,
          "Await the value in a separate statement first",
        )
    }
  }

  private yieldExpression(n: Node): GExpr {
    const a = n.argument ? this.expr(n.argument) : undefined
    return function* (env) {
      const v = a ? yield* a(env) : undefined
      rt.awaiting = false
      return yield v
    }
  }

  private yieldStar(n: Node): GExpr {
    const a = this.expr(n.argument)
    const loc = this.c.loc(n)
    const isAsync = this.functions[this.functions.length - 1]?.isAsync ?? false
    return function* (env) {
      const iterable = yield* a(env)
      rt.loc = loc
      let iterator: Value
      if (isAsync) {
        const m = getIteratorMethod(iterable, Symbol.asyncIterator)
        iterator = m !== undefined ? call(m, iterable, NO_ARGS) : protocolIteratorObject(iterable)
      } else {
        iterator = protocolIteratorObject(iterable)
      }
      if (!isObject(iterator)) throwTypeError("Result of the Symbol.iterator method is not an object", loc)
      const next = iterator.next
      let received: Value
      let mode: "next" | "throw" = "next"
      for (;;) {
        let result: Value
        if (mode === "next") result = call(next, iterator, [received])
        else {
          const m = iterator.throw
          if (m === undefined || m === null) {
            closeQuietly(protocolIterator(iterator))
            return throwTypeError("The iterator does not provide a 'throw' method", loc)
          }
          result = call(m, iterator, [received])
        }
        if (isAsync) {
          rt.awaiting = true
          result = yield result
        }
        if (!isObject(result)) throwTypeError("Iterator result is not an object", loc)
        if (result.done) return result.value
        let returning = true
        try {
          rt.awaiting = false
          received = yield result.value
          mode = "next"
          returning = false
        } catch (e) {
          received = caught(e)
          mode = "throw"
          returning = false
        } finally {
          if (returning && !rt.dead) {
            // The consumer called `return()`: forward it to the inner iterator.
            const m = iterator.return
            if (m !== undefined && m !== null) {
              let r = call(m, iterator, NO_ARGS)
              if (isAsync) {
                rt.awaiting = true
                r = yield r
              }
              if (!isObject(r)) throwTypeError("Iterator result is not an object", loc)
            }
          }
        }
      }
    }
  }

  private args(nodes: Node[]): (env: Env) => Generator<Value, Value[], Value> {
    const parts = nodes.map((a) =>
      a.type === "SpreadElement" ? { spread: true, e: this.expr(a.argument) } : { spread: false, e: this.expr(a) },
    )
    return function* (env) {
      const list: Value[] = []
      for (const p of parts) {
        if (p.spread) spreadInto(list, yield* p.e(env))
        else list.push(yield* p.e(env))
      }
      return list
    }
  }

  private chainPart(n: Node): GExpr {
    if (n.type === "MemberExpression") return this.member(n, true)
    if (n.type === "CallExpression") return this.callExpression(n, true)
    return this.expr(n)
  }

  private member(n: Node, chain: boolean): GExpr {
    const c = this.c
    if (n.object.type === "Super" || n.property.type === "PrivateIdentifier") {
      return unsupported(
        n,
        "`await` in a `super` or private member access",
        "Await the value in a separate statement first",
      )
    }
    const o = chain ? this.chainPart(n.object) : this.expr(n.object)
    const k = n.computed ? this.expr(n.property) : undefined
    const key = n.computed ? undefined : n.property.name
    const optional = n.optional
    const loc = c.loc(n)
    return function* (env) {
      const obj = yield* o(env)
      if (chain && (obj === SHORT || (optional && (obj === undefined || obj === null)))) return SHORT
      const kv = k ? yield* k(env) : key
      return getComputed(obj, kv, loc)
    }
  }

  private callExpression(n: Node, chain: boolean): GExpr {
    const c = this.c
    const callee = n.callee
    if (callee.type === "Super") return unsupported(n, "`await` in a `super(...)` call", "Await the arguments first")
    const loc = c.loc(n)
    const text = c.text(callee)
    const args = this.args(n.arguments)
    const optionalCall = n.optional
    if (
      callee.type === "MemberExpression" &&
      callee.object.type !== "Super" &&
      callee.property.type !== "PrivateIdentifier"
    ) {
      const o = chain ? this.chainPart(callee.object) : this.expr(callee.object)
      const k = callee.computed ? this.expr(callee.property) : undefined
      const key = callee.computed ? undefined : callee.property.name
      const optionalMember = callee.optional
      const memberLoc = c.loc(callee)
      return function* (env) {
        const obj = yield* o(env)
        if (chain && (obj === SHORT || (optionalMember && (obj === undefined || obj === null)))) return SHORT
        const kv = k ? toPropertyKey(yield* k(env)) : key
        const f = typeof obj === "object" && obj !== null ? obj[kv] : getPrimitiveProp(obj, kv, memberLoc)
        if (chain && optionalCall && (f === undefined || f === null)) return SHORT
        const a = yield* args(env)
        rt.loc = loc
        return typeof f === "object" && f !== null && f[CALL] !== undefined
          ? f[CALL](obj, a, f)
          : notFunction(text, f, loc)
      }
    }
    const fe = chain ? this.chainPart(callee) : this.expr(callee)
    return function* (env) {
      const f = yield* fe(env)
      if (chain && (f === SHORT || (optionalCall && (f === undefined || f === null)))) return SHORT
      const a = yield* args(env)
      rt.loc = loc
      return typeof f === "object" && f !== null && f[CALL] !== undefined
        ? f[CALL](undefined, a, f)
        : notFunction(text, f, loc)
    }
  }

  private assignment(n: Node): GExpr {
    const c = this.c
    const target = n.left
    const op: string = n.operator
    if (target.type !== "Identifier" && target.type !== "MemberExpression") {
      if (op !== "=" || c.suspends(target))
        return unsupported(n, "`await` inside a destructuring assignment target", "Await the value first")
      const bind = c.pattern(target, "assign")
      const v = this.expr(n.right)
      return function* (env) {
        const value = yield* v(env)
        bind(env, value)
        return value
      }
    }
    if (
      target.type === "MemberExpression" &&
      (target.object.type === "Super" || target.property.type === "PrivateIdentifier")
    ) {
      return unsupported(
        n,
        "`await` in an assignment to a `super` or private member",
        "Await the value in a separate statement first",
      )
    }
    const v = this.expr(n.right, target.type === "Identifier" ? target.name : undefined)
    const logical = op === "&&=" || op === "||=" || op === "??="
    const f = op === "=" || logical ? undefined : binaryOperator(op.slice(0, -1))
    const loc = c.loc(target)
    if (target.type === "Identifier") {
      const read = op === "=" ? undefined : c.expr(target)
      const write = c.assignWriter(target)
      return function* (env) {
        if (read) {
          const cur = read(env)
          if (logical) {
            if (op === "&&=" ? !cur : op === "||=" ? !!cur : cur !== undefined && cur !== null) return cur
            const value = yield* v(env)
            write(env, value)
            return value
          }
          const value = f!(cur, yield* v(env))
          write(env, value)
          return value
        }
        const value = yield* v(env)
        write(env, value)
        return value
      }
    }
    const o = this.expr(target.object)
    const k = target.computed ? this.expr(target.property) : undefined
    const key = target.computed ? undefined : target.property.name
    return function* (env) {
      const obj = yield* o(env)
      const kv = k ? toPropertyKey(yield* k(env)) : key
      if (op === "=") {
        const value = yield* v(env)
        setComputed(obj, kv, value, loc)
        return value
      }
      const cur = getComputed(obj, kv, loc)
      if (logical) {
        if (op === "&&=" ? !cur : op === "||=" ? !!cur : cur !== undefined && cur !== null) return cur
        const value = yield* v(env)
        setComputed(obj, kv, value, loc)
        return value
      }
      const value = f!(cur, yield* v(env))
      setComputed(obj, kv, value, loc)
      return value
    }
  }

  private update(n: Node): GExpr {
    const target = n.argument
    if (
      target.type !== "MemberExpression" ||
      target.object.type === "Super" ||
      target.property.type === "PrivateIdentifier"
    ) {
      return unsupported(n, "`await` inside this update expression", "Await the value in a separate statement first")
    }
    const o = this.expr(target.object)
    const k = target.computed ? this.expr(target.property) : undefined
    const key = target.computed ? undefined : target.property.name
    const delta = n.operator === "++" ? 1 : -1
    const prefix = n.prefix
    const loc = this.c.loc(target)
    return function* (env) {
      const obj = yield* o(env)
      const kv = k ? toPropertyKey(yield* k(env)) : key
      const cur = getComputed(obj, kv, loc)
      const old = typeof cur === "number" ? cur : toNumber(toPrimitive(cur, "number"))
      const next = old + delta
      setComputed(obj, kv, next, loc)
      return prefix ? next : old
    }
  }

  private objectLiteral(n: Node): GExpr {
    const c = this.c
    const SO = c.realm.SO
    const SF = c.realm.SF
    type Part = (env: Env, o: Value) => Generator<Value, void, Value>
    const parts: Part[] = n.properties.map((p: Node): Part => {
      if (p.type === "SpreadElement") {
        const e = this.expr(p.argument)
        return function* (env, o) {
          copyDataProperties(o, yield* e(env))
        }
      }
      const k = p.computed ? this.expr(p.key) : undefined
      const staticKey = p.computed ? undefined : p.key.type === "Identifier" ? p.key.name : String(p.key.value)
      if (p.kind === "init" && !p.method) {
        const v = this.expr(p.value, staticKey)
        const isProto = !p.computed && !p.shorthand && staticKey === "__proto__"
        return function* (env, o) {
          const key = k ? toPropertyKey(yield* k(env)) : staticKey!
          const value = yield* v(env)
          if (isProto) {
            if (value === null || isObject(value)) Object.setPrototypeOf(o, value)
          } else createDataProperty(o, key, value)
        }
      }
      const kind: "method" | "get" | "set" = p.kind === "init" ? "method" : p.kind
      const info = c.analysis.functions.get(p.value)!
      return function* (env, o) {
        const key = k ? toPropertyKey(yield* k(env)) : staticKey!
        const t = c.functionTemplate(p.value, info, kind === "method" ? keyName(key) : `${kind} ${keyName(key)}`, kind)
        const fn = new SF(t.call, t.construct, env, t.meta, o, t.call3)
        if (kind === "method") createDataProperty(o, key, fn)
        else {
          noteAccessor(o)
          const existing = Object.getOwnPropertyDescriptor(o, key)
          const d: PropertyDescriptor = { enumerable: true, configurable: true }
          if (kind === "get") {
            d.get = hostGetter(fn)
            if (existing?.set) d.set = existing.set
          } else {
            d.set = hostSetter(fn)
            if (existing?.get) d.get = existing.get
          }
          Object.defineProperty(o, key, d)
        }
      }
    })
    return function* (env) {
      const o = new SO()
      for (const p of parts) yield* p(env, o)
      return o
    }
  }
}

/** An iterator object for `yield*` over a sync iterable (through the program-visible protocol). */
const protocolIteratorObject = (iterable: Value): Value => {
  const m = getIteratorMethod(iterable, Symbol.iterator)
  if (m === undefined)
    return throwTypeError(`${typeof iterable === "object" ? "object" : String(iterable)} is not iterable`)
  return call(m, iterable, NO_ARGS)
}
