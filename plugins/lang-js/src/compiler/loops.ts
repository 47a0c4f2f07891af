/**
 * Loops: `for`, `while`, `do-while`, `for-in`, `for-of` and `for await`.
 *
 * What a loop does between iterations is written once here: how a body's completion signal ends, continues or
 * leaves the loop (`loopExit`), the fresh environment a `for (let ...)` gives each iteration (`iterationCopy`),
 * the keys a `for-in` visits, how a `for-of` opens, steps and closes its iterator. Each loop then has two drivers
 * over the same compiled parts: a plain closure, and a host generator for loops whose head or body contains
 * `await`/`yield` (a plain closure cannot suspend, and a generator would make every plain loop several times
 * slower). The plain `for` also has a fused form for counting loops.
 */
import type { Node } from "../parse.js"
import { throwTypeError } from "../runtime/errors.js"
import { call, isObject, NO_ARGS, type Value } from "../runtime/functions.js"
import { arrayIterationIsPristine, DONE, getIterator, getIteratorMethod, type Iter } from "../runtime/iterators.js"
import { refuel } from "../runtime/meter.js"
import { toNumber, toPrimitive } from "../runtime/operators.js"
import { GeneratorReturn } from "../runtime/generators.js"
import { rt } from "../runtime/state.js"
import type { Scope } from "./analyze.js"
import { assignTarget } from "./assignments.js"
import { bindingOf, initWriter, tdzSlots } from "./bindings.js"
import type { CompileContext, Env, Expr, GExpr, GStmt, Stmt, Writer } from "./context.js"
import { blankEnvironment } from "./frames.js"
import { OperandKind as K, operand } from "./operand.js"
import { binaryOperator } from "./operators.js"
import { closeQuietly, forInKeys } from "./ops.js"
import { notIterableText } from "./printer.js"
import { type ResumableTarget, resumableTarget } from "./resumable/patterns.js"
import { scopeEnter } from "./scopes.js"
import { BREAK, CONTINUE, type Signal, TDZ } from "./shared.js"

/** What a loop does with its body's completion signal. */
export const enum LoopExit {
  /** Go on with the next iteration (`continue` of this loop). */
  Next = 0,
  /** Leave the loop normally (`break` of this loop). */
  Break = 1,
  /** Leave the loop with the signal (`return`, or a `break`/`continue` of an outer statement). */
  Leave = 2,
}

/** The signals a loop with these labels handles. */
export interface LoopSignals {
  readonly breaks: ReadonlyArray<Signal>
  readonly continues: ReadonlyArray<Signal>
}

/** The signals of a loop with these labels. */
export const loopSignals = (ctx: CompileContext, labels: string[]): LoopSignals => ({
  breaks: [BREAK, ...labels.map((l) => ctx.labelSignal(l).break)],
  continues: [CONTINUE, ...labels.map((l) => ctx.labelSignal(l).continue)],
})

/** What the loop does with the signal `s` its body completed with. */
export const loopExit = (signals: LoopSignals, s: Signal): LoopExit =>
  signals.breaks.includes(s) ? LoopExit.Break : signals.continues.includes(s) ? LoopExit.Next : LoopExit.Leave

/** For a `for (let ...)` whose bindings a closure captures: a fresh environment per iteration, copied. */
const iterationCopy = (scope: Scope | undefined): ((outer: Env, previous: Env) => Env) | undefined => {
  if (scope === undefined || !scope.hasEnv) return undefined
  const size = scope.size
  const slots = [...scope.bindings.values()].map((b) => b.slot)
  return (outer, previous) => {
    const next = blankEnvironment(size, outer)
    for (let i = 0; i < slots.length; i++) next[slots[i]] = previous[slots[i]]
    return next
  }
}

/** The writer for the left side of a for-in/for-of loop. */
export const loopTarget = (ctx: CompileContext, left: Node): Writer => {
  if (left.type === "VariableDeclaration") {
    const id = left.declarations[0].id
    return id.type === "Identifier" ? initWriter(ctx, id) : ctx.pattern(id, "init")
  }
  return assignTarget(ctx, left)
}

/** The left side of a for-in/for-of loop in resumable code (resumable only when a default or key suspends). */
const gLoopTarget = (ctx: CompileContext, left: Node): ResumableTarget => {
  if (left.type !== "VariableDeclaration") return resumableTarget(ctx, left, "assign")
  const id = left.declarations[0].id
  if (id.type === "Identifier") return { plain: initWriter(ctx, id), resumable: undefined }
  return resumableTarget(ctx, id, "init")
}

/** An expression statement as a loop's `init`. */
const effectOf =
  (e: Expr): Stmt =>
  (env) => {
    e(env)
    return undefined
  }

// -----------------------------------------------------------------------------------------------------------------
// Plain drivers
// -----------------------------------------------------------------------------------------------------------------

/** `for (init; test; update) body`. */
export const forStatement = (ctx: CompileContext, n: Node, labels: string[]): Stmt => {
  const scope = ctx.analysis.scopes.get(n)
  const init: Stmt | undefined = n.init
    ? n.init.type === "VariableDeclaration"
      ? ctx.statement(n.init)
      : effectOf(ctx.expr(n.init))
    : undefined
  const copy = iterationCopy(scope)
  const enter = scopeEnter(scope)
  const start = ctx.compiledNodes
  if (copy === undefined && labels.length === 0) {
    const counting = countingLoop(ctx, n, init, enter, start)
    if (counting) return counting
  }
  const test = n.test ? ctx.expr(n.test) : undefined
  const update = n.update ? ctx.expr(n.update) : undefined
  const body = ctx.statement(n.body)
  const steps = ctx.stepsSince(start)
  const signals = loopSignals(ctx, labels)
  const loc = ctx.loc(n)
  if (copy !== undefined) {
    const size = scope!.size
    const tdz = tdzSlots(scope!)
    return (env) => {
      let e = blankEnvironment(size, env)
      for (let i = 0; i < tdz.length; i++) e[tdz[i]] = TDZ
      if (init) init(e)
      let first = true
      for (;;) {
        e = copy(env, e)
        if (!first && update) update(e)
        first = false
        if (test && !test(e)) break
        const s = body(e)
        if (s !== undefined) {
          const exit = loopExit(signals, s)
          if (exit === LoopExit.Break) break
          if (exit === LoopExit.Leave) return s
        }
        if ((rt.fuel -= steps) < 0) refuel(loc)
      }
      return undefined
    }
  }
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
        if ((rt.fuel -= steps) < 0) refuel(loc)
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
        const exit = loopExit(signals, s)
        if (exit === LoopExit.Break) break
        if (exit === LoopExit.Leave) return s
      }
      if (update !== undefined) update(env)
      if ((rt.fuel -= steps) < 0) refuel(loc)
    }
    return undefined
  }
}

/**
 * The fused form of the counting loop `for (...; i < limit; i++)` over a local `i`: the test and the update run
 * inline instead of through closures. Undefined (and nothing compiled) when the loop does not have that shape.
 */
const countingLoop = (
  ctx: CompileContext,
  n: Node,
  init: Stmt | undefined,
  enter: (env: Env) => Env,
  start: number,
): Stmt | undefined => {
  const test = n.test
  const update = n.update
  if (!test || !update || test.type !== "BinaryExpression" || !["<", "<=", ">", ">="].includes(test.operator))
    return undefined
  if (test.left.type !== "Identifier") return undefined
  const counter = bindingOf(ctx, test.left)
  if (counter === null || counter.tdz) return undefined
  let delta: number
  let target: Node
  if (
    update.type === "UpdateExpression" &&
    update.argument.type === "Identifier" &&
    update.argument.name === test.left.name
  ) {
    delta = update.operator === "++" ? 1 : -1
    target = update.argument
  } else if (
    update.type === "AssignmentExpression" &&
    (update.operator === "+=" || update.operator === "-=") &&
    update.left.type === "Identifier" &&
    update.left.name === test.left.name &&
    update.right.type === "Literal" &&
    typeof update.right.value === "number"
  ) {
    delta = update.operator === "+=" ? update.right.value : -update.right.value
    target = update.left
  } else return undefined
  const I = operand(ctx, test.left)
  if (I.kind !== K.Local) return undefined
  const slot = I.slot
  const written = bindingOf(ctx, target)
  if (written === null || written.slot !== slot || written.immutable || written.tdz) return undefined
  const L = operand(ctx, test.right)
  const lk = L.kind
  const ls = L.slot
  const lv = L.value
  const le = L.expr
  const body = ctx.statement(n.body)
  const steps = ctx.stepsSince(start)
  const op: string = test.operator
  const less = op === "<"
  const compareSlow = binaryOperator(op)
  const loc = ctx.loc(n)
  return (env) => {
    enter(env)
    if (init) init(env)
    for (;;) {
      const i = env[slot]
      const limit = lk === K.Local ? env[ls] : lk === K.Constant ? lv : lk === K.Parent ? env[0][ls] : le(env)
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
      if ((rt.fuel -= steps) < 0) refuel(loc)
    }
    return undefined
  }
}

/** `while (test) body`. */
export const whileStatement = (ctx: CompileContext, n: Node, labels: string[]): Stmt => {
  const start = ctx.compiledNodes
  const test = ctx.expr(n.test)
  const body = ctx.statement(n.body)
  const steps = ctx.stepsSince(start)
  const signals = loopSignals(ctx, labels)
  const loc = ctx.loc(n)
  return (env) => {
    while (test(env)) {
      const s = body(env)
      if (s !== undefined) {
        const exit = loopExit(signals, s)
        if (exit === LoopExit.Break) break
        if (exit === LoopExit.Leave) return s
      }
      if ((rt.fuel -= steps) < 0) refuel(loc)
    }
    return undefined
  }
}

/** `do body while (test)`. */
export const doWhileStatement = (ctx: CompileContext, n: Node, labels: string[]): Stmt => {
  const start = ctx.compiledNodes
  const body = ctx.statement(n.body)
  const test = ctx.expr(n.test)
  const steps = ctx.stepsSince(start)
  const signals = loopSignals(ctx, labels)
  const loc = ctx.loc(n)
  return (env) => {
    do {
      const s = body(env)
      if (s !== undefined) {
        const exit = loopExit(signals, s)
        if (exit === LoopExit.Break) break
        if (exit === LoopExit.Leave) return s
      }
      if ((rt.fuel -= steps) < 0) refuel(loc)
    } while (test(env))
    return undefined
  }
}

/** `for (left of right) body`: arrays with the built-in iterator take a host loop. */
export const forOfStatement = (ctx: CompileContext, n: Node, labels: string[]): Stmt => {
  const scope = ctx.analysis.scopes.get(n)
  const right = ctx.expr(n.right)
  const start = ctx.compiledNodes
  const bind = loopTarget(ctx, n.left)
  const body = ctx.statement(n.body)
  const steps = ctx.stepsSince(start)
  const enter = scopeEnter(scope)
  const signals = loopSignals(ctx, labels)
  const loc = ctx.loc(n)
  return (env) => {
    const iterable = right(env)
    if (Array.isArray(iterable) && arrayIterationIsPristine(iterable)) {
      for (let i = 0; i < iterable.length; i++) {
        const e = enter(env)
        bind(e, iterable[i])
        const s = body(e)
        if (s !== undefined) {
          const exit = loopExit(signals, s)
          if (exit === LoopExit.Break) break
          if (exit === LoopExit.Leave) return s
        }
        if ((rt.fuel -= steps) < 0) refuel(loc)
      }
      return undefined
    }
    rt.loc = loc
    const it = getIterator(iterable, () => notIterableText(n.right))
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
        const exit = loopExit(signals, s)
        if (exit !== LoopExit.Next) {
          it.close()
          if (exit === LoopExit.Break) break
          return s
        }
      }
      if ((rt.fuel -= steps) < 0) refuel(loc)
    }
    return undefined
  }
}

/** `for (left in right) body`: the keys are taken when the loop starts; deleted ones are skipped. */
export const forInStatement = (ctx: CompileContext, n: Node, labels: string[]): Stmt => {
  const scope = ctx.analysis.scopes.get(n)
  const right = ctx.expr(n.right)
  const start = ctx.compiledNodes
  const bind = loopTarget(ctx, n.left)
  const body = ctx.statement(n.body)
  const steps = ctx.stepsSince(start)
  const enter = scopeEnter(scope)
  const signals = loopSignals(ctx, labels)
  const loc = ctx.loc(n)
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
        const exit = loopExit(signals, s)
        if (exit === LoopExit.Break) break
        if (exit === LoopExit.Leave) return s
      }
      if ((rt.fuel -= steps) < 0) refuel(loc)
    }
    return undefined
  }
}

// -----------------------------------------------------------------------------------------------------------------
// Resumable drivers
// -----------------------------------------------------------------------------------------------------------------

/** `for`, `while` and `do-while` whose head or body contains `await`/`yield`. */
export const gForStatement = (ctx: CompileContext, n: Node, labels: string[]): GStmt => {
  const isFor = n.type === "ForStatement"
  const isDo = n.type === "DoWhileStatement"
  const scope = isFor ? ctx.analysis.scopes.get(n) : undefined
  const init: GStmt | undefined =
    !isFor || !n.init
      ? undefined
      : n.init.type === "VariableDeclaration"
        ? ctx.gstatement(n.init)
        : gEffectOf(ctx.gexpr(n.init))
  const start = ctx.compiledNodes
  // A test or update that does not suspend runs in place (no host generator per iteration).
  const plainTest = n.test && !ctx.suspends(n.test) ? ctx.expr(n.test) : undefined
  const test: GExpr | undefined = n.test && plainTest === undefined ? ctx.gexpr(n.test) : undefined
  const plainUpdate = isFor && n.update && !ctx.suspends(n.update) ? ctx.expr(n.update) : undefined
  const update: GExpr | undefined = isFor && n.update && plainUpdate === undefined ? ctx.gexpr(n.update) : undefined
  const body = ctx.gstatement(n.body)
  const steps = ctx.stepsSince(start)
  const signals = loopSignals(ctx, labels)
  const loc = ctx.loc(n)
  const copy = iterationCopy(scope)
  const enter = scopeEnter(scope)
  return function* (env) {
    let e = enter(env)
    if (init) yield* init(e)
    let first = true
    for (;;) {
      if (copy !== undefined) e = copy(env, e)
      if (!first) {
        if (plainUpdate !== undefined) plainUpdate(e)
        else if (update) yield* update(e)
      }
      if (!(isDo && first) && (plainTest !== undefined ? !plainTest(e) : test && !(yield* test(e)))) break
      first = false
      const s = yield* body(e)
      if (s !== undefined) {
        const exit = loopExit(signals, s)
        if (exit === LoopExit.Break) break
        if (exit === LoopExit.Leave) return s
      }
      if ((rt.fuel -= steps) < 0) refuel(loc)
    }
    return undefined
  }
}

const gEffectOf = (e: GExpr): GStmt =>
  function* (env) {
    yield* e(env)
    return undefined
  }

/** `for-of` whose head or body contains `await`/`yield`: the iterator is closed however the body ends. */
export const gForOfStatement = (ctx: CompileContext, n: Node, labels: string[]): GStmt => {
  const right = ctx.gexpr(n.right)
  const start = ctx.compiledNodes
  const bind = gLoopTarget(ctx, n.left)
  const body = ctx.gstatement(n.body)
  const steps = ctx.stepsSince(start)
  const enter = scopeEnter(ctx.analysis.scopes.get(n))
  const signals = loopSignals(ctx, labels)
  const loc = ctx.loc(n)
  return function* (env) {
    const iterable = yield* right(env)
    rt.loc = loc
    const it: Iter = getIterator(iterable, () => notIterableText(n.right))
    for (;;) {
      const v = it.next()
      if (v === DONE) break
      const e = enter(env)
      let s: Signal | undefined
      try {
        if (bind.plain !== undefined) bind.plain(e, v)
        else yield* bind.resumable!(e, v)
        s = yield* body(e)
      } catch (err) {
        // A generator's return() closes the iterator like a `return` (its failures count); a throw closes quietly.
        if (err instanceof GeneratorReturn) it.close()
        else closeQuietly(it)
        throw err
      }
      if (s !== undefined) {
        const exit = loopExit(signals, s)
        if (exit !== LoopExit.Next) {
          it.close()
          if (exit === LoopExit.Break) break
          return s
        }
      }
      if ((rt.fuel -= steps) < 0) refuel(loc)
    }
    return undefined
  }
}

/** `for-in` whose head or body contains `await`/`yield`. */
export const gForInStatement = (ctx: CompileContext, n: Node, labels: string[]): GStmt => {
  const right = ctx.gexpr(n.right)
  const start = ctx.compiledNodes
  const bind = gLoopTarget(ctx, n.left)
  const body = ctx.gstatement(n.body)
  const steps = ctx.stepsSince(start)
  const enter = scopeEnter(ctx.analysis.scopes.get(n))
  const signals = loopSignals(ctx, labels)
  const loc = ctx.loc(n)
  return function* (env) {
    const o = yield* right(env)
    const keys = forInKeys(o)
    const isObj = typeof o === "object" && o !== null
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]
      if (isObj && !(k in o)) continue
      const e = enter(env)
      if (bind.plain !== undefined) bind.plain(e, k)
      else yield* bind.resumable!(e, k)
      const s = yield* body(e)
      if (s !== undefined) {
        const exit = loopExit(signals, s)
        if (exit === LoopExit.Break) break
        if (exit === LoopExit.Leave) return s
      }
      if ((rt.fuel -= steps) < 0) refuel(loc)
    }
    return undefined
  }
}

/** `for await (left of right) body`: an async iterator, or a sync one whose values are awaited. */
export const gForAwaitStatement = (ctx: CompileContext, n: Node, labels: string[]): GStmt => {
  const right = ctx.gexpr(n.right)
  const start = ctx.compiledNodes
  const bind = gLoopTarget(ctx, n.left)
  const body = ctx.gstatement(n.body)
  const steps = ctx.stepsSince(start)
  const enter = scopeEnter(ctx.analysis.scopes.get(n))
  const signals = loopSignals(ctx, labels)
  const loc = ctx.loc(n)
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
      sync = getIterator(iterable, () => notIterableText(n.right))
    }
    const next = iterator !== undefined ? iterator.next : undefined
    /** Close the iterator early: `return()` is called and awaited; unless `quiet`, its failures count. */
    function* close(quiet: boolean): Generator<Value, void, Value> {
      if (rt.dead) return
      if (sync !== undefined) {
        if (quiet) closeQuietly(sync)
        else sync.close()
        return
      }
      try {
        const ret = iterator.return
        if (ret === undefined || ret === null) return
        rt.awaiting = true
        const result = yield call(ret, iterator, NO_ARGS)
        if (!isObject(result)) throwTypeError("Iterator result is not an object", loc)
      } catch (e) {
        if (!quiet || rt.dead) throw e
      }
    }
    for (;;) {
      let value: Value
      if (sync !== undefined) {
        const v = sync.next()
        if (v === DONE) break
        rt.awaiting = true
        value = yield v
      } else {
        rt.awaiting = true
        const result = yield call(next, iterator, NO_ARGS)
        if (!isObject(result)) throwTypeError("Iterator result is not an object", loc)
        if (result.done) break
        value = result.value
      }
      const e = enter(env)
      let s: Signal | undefined
      try {
        if (bind.plain !== undefined) bind.plain(e, value)
        else yield* bind.resumable!(e, value)
        s = yield* body(e)
      } catch (err) {
        yield* close(!(err instanceof GeneratorReturn))
        throw err
      }
      if (s !== undefined) {
        const exit = loopExit(signals, s)
        if (exit !== LoopExit.Next) {
          yield* close(false)
          if (exit === LoopExit.Break) break
          return s
        }
      }
      if ((rt.fuel -= steps) < 0) refuel(loc)
    }
    return undefined
  }
}
