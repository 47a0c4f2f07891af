/**
 * Scope resolution, run once over the syntax tree before compiling: every name use is resolved to a local, an
 * upvalue or a global, and locals used by inner functions are marked as captured.
 */
import type { Chunk, Node } from "luaparse"

/** A local variable. */
export interface VarInfo {
  readonly name: string
  /** The function that declares it. */
  readonly fn: FnInfo
  /** True when an inner function uses it (so a call may change it while an expression is evaluated). */
  captured: boolean
  /** True when an assignment (or a `function name()` statement) sets it after its declaration. */
  assigned: boolean
  /** Its resolutions, made once (a large program uses one local many times). */
  asLocal?: Resolution
  asUpvalue?: Resolution
}

/** A function being compiled (the main chunk is one too). */
export interface FnInfo {
  readonly vararg: boolean
  /** The function it is written in (none for the main chunk). */
  readonly parent: FnInfo | undefined
  /** Locals of enclosing functions that it or a function inside it uses. */
  readonly free: Set<VarInfo>
}

/** How a name use resolved. */
export type Resolution =
  | { readonly kind: "local"; readonly v: VarInfo }
  | { readonly kind: "upvalue"; readonly v: VarInfo }
  | { readonly kind: "global" }

interface Scope {
  /** The names it declared, in order (popped from the visible names when it closes). */
  readonly names: Array<string>
  readonly parent: Scope | undefined
  readonly fn: FnInfo
}

/** The results of resolution, keyed by syntax node. */
export interface Resolved {
  /** Declaring identifiers (locals, parameters, loop variables, `self`) → their variable. */
  readonly declarations: Map<Node, VarInfo>
  /** Function nodes (and the chunk) → their function info. */
  readonly functions: Map<Node, FnInfo>
  /** Method definitions (`function a:m()`) → their implicit `self` parameter. */
  readonly selfParams: Map<Node, VarInfo>
}

const GLOBAL: Resolution = { kind: "global" }

/**
 * Where the resolution of a use of a local is kept: on its identifier node (a large program has hundreds of thousands
 * of uses, and a Map of them is slow to fill and to read).
 */
const RESOLUTION: unique symbol = Symbol("resolution")

type Resolvable = { [RESOLUTION]?: Resolution }

/** How the identifier `node` (a use, not a declaration) resolved: a name that is no local's is a global. */
export const resolution = (node: Node): Resolution => (node as Resolvable)[RESOLUTION] ?? GLOBAL

/** Resolve every name in `chunk`, in time linear in its size. */
export const resolve = (chunk: Chunk): Resolved => {
  const out: Resolved = { declarations: new Map(), functions: new Map(), selfParams: new Map() }
  let scope: Scope | undefined
  /** The visible locals by name, innermost last. */
  const visible = new Map<string, Array<VarInfo>>()

  const newFn = (node: Node, vararg: boolean): FnInfo => {
    const fn: FnInfo = { vararg, parent: scope?.fn, free: new Set() }
    out.functions.set(node, fn)
    return fn
  }
  const open = (fn: FnInfo) => {
    scope = { names: [], parent: scope, fn }
  }
  const close = () => {
    const s = scope!
    for (const name of s.names) visible.get(name)!.pop()
    scope = s.parent
  }
  const declare = (id: Node): VarInfo => {
    const s = scope!
    // Every field from the start, so that all locals share one hidden class (the resolutions are made on first use).
    const v: VarInfo = {
      name: id.name,
      fn: s.fn,
      captured: false,
      assigned: false,
      asLocal: undefined,
      asUpvalue: undefined,
    }
    let stack = visible.get(id.name)
    if (stack === undefined) visible.set(id.name, (stack = []))
    stack.push(v)
    s.names.push(id.name)
    out.declarations.set(id, v)
    return v
  }
  const use = (id: Node) => {
    const here = scope!.fn
    const stack = visible.get(id.name)
    const v = stack === undefined || stack.length === 0 ? undefined : stack[stack.length - 1]
    if (v === undefined) return
    if (v.fn === here) {
      ;(id as Resolvable)[RESOLUTION] = v.asLocal ??= { kind: "local", v }
      return
    }
    v.captured = true
    ;(id as Resolvable)[RESOLUTION] = v.asUpvalue ??= { kind: "upvalue", v }
    // Every function between the use and the declaration needs the local; stop where it is already known.
    for (let f: FnInfo | undefined = here; f !== undefined && f !== v.fn && !f.free.has(v); f = f.parent) f.free.add(v)
  }

  /** Record that the target `t` of an assignment is set (when it is a local). */
  const assign = (t: Node) => {
    if (t.type !== "Identifier") return
    const r = (t as Resolvable)[RESOLUTION]
    if (r !== undefined && r.kind !== "global") r.v.assigned = true
  }

  const exprs = (list: ReadonlyArray<Node> | undefined) => {
    if (list) for (const e of list) expr(e)
  }
  const block = (body: ReadonlyArray<Node>) => {
    open(scope!.fn)
    for (const s of body) stmt(s)
    close()
  }
  const func = (node: Node, selfParam: boolean) => {
    const params: ReadonlyArray<Node> = node.parameters
    const vararg = params.some((p) => p.type === "VarargLiteral")
    const fn = newFn(node, vararg)
    open(fn)
    if (selfParam) out.selfParams.set(node, declare({ type: "Identifier", name: "self" }))
    for (const p of params) if (p.type === "Identifier") declare(p)
    for (const s of node.body) stmt(s)
    close()
  }
  const expr = (e: Node | null | undefined): void => {
    if (!e) return
    switch (e.type) {
      case "Identifier":
        use(e)
        return
      case "FunctionDeclaration":
        func(e, false)
        return
      case "BinaryExpression":
      case "LogicalExpression":
        expr(e.left)
        expr(e.right)
        return
      case "UnaryExpression":
        expr(e.argument)
        return
      case "MemberExpression":
        expr(e.base)
        return
      case "IndexExpression":
        expr(e.base)
        expr(e.index)
        return
      case "CallExpression":
      case "TableCallExpression":
        expr(e.base)
        exprs(e.arguments.type ? [e.arguments] : e.arguments)
        return
      case "StringCallExpression":
        expr(e.base)
        return
      case "TableConstructorExpression":
        for (const f of e.fields) {
          if (f.type === "TableKey") expr(f.key)
          expr(f.value)
        }
        return
      default:
        return
    }
  }
  const stmt = (s: Node): void => {
    switch (s.type) {
      case "LocalStatement":
        exprs(s.init)
        for (const v of s.variables) declare(v)
        return
      case "AssignmentStatement":
        exprs(s.variables)
        exprs(s.init)
        for (const t of s.variables) assign(t)
        return
      case "CallStatement":
        expr(s.expression)
        return
      case "FunctionDeclaration":
        if (s.isLocal) {
          declare(s.identifier)
          func(s, false)
        } else {
          expr(s.identifier)
          assign(s.identifier)
          func(s, s.identifier.type === "MemberExpression" && s.identifier.indexer === ":")
        }
        return
      case "ReturnStatement":
        exprs(s.arguments)
        return
      case "IfStatement":
        for (const c of s.clauses) {
          expr(c.condition)
          block(c.body)
        }
        return
      case "WhileStatement":
        expr(s.condition)
        block(s.body)
        return
      case "DoStatement":
        block(s.body)
        return
      case "RepeatStatement":
        open(scope!.fn)
        for (const b of s.body) stmt(b)
        expr(s.condition)
        close()
        return
      case "ForNumericStatement":
        expr(s.start)
        expr(s.end)
        expr(s.step)
        open(scope!.fn)
        declare(s.variable)
        for (const b of s.body) stmt(b)
        close()
        return
      case "ForGenericStatement":
        exprs(s.iterators)
        open(scope!.fn)
        for (const v of s.variables) declare(v)
        for (const b of s.body) stmt(b)
        close()
        return
      default:
        return
    }
  }

  const main = newFn(chunk, true)
  open(main)
  for (const s of chunk.body) stmt(s)
  close()
  return out
}
