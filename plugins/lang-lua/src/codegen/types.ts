/**
 * Which locals always hold a float, found once over the whole program before code is generated. Such a local lives
 * in generated code as a raw JS double (an integral one is not boxed as a `LuaFloat`) and is boxed only where its
 * value leaves float arithmetic (stored, passed, returned, concatenated: see `Expressions.name`), so that V8 keeps it
 * in a floating-point register and a loop that accumulates into it allocates nothing.
 *
 * A local is float-typed when it is declared by `local` with a value, or is the variable of a numeric `for` whose
 * initial value or step is float-typed (the loop counts in floats), and every assignment to it anywhere (in inner
 * functions too) is a float-typed expression: a float numeral, `/` and `^`, `+ - * % //` and unary minus with a
 * float-typed operand, or another float-typed local. Arithmetic with a float operand gives a float or raises an
 * error (this sandbox has no metatables), so such a local never holds anything else. Parameters, generic `for`
 * variables, locals declared without a value, assigned from a call's extra results, `...`, or named by a `function`
 * statement are not float-typed. The greatest set that satisfies these rules is found in time linear in the program.
 */
import type { Chunk, Node } from "luaparse"
import { resolution, type VarInfo } from "../scope.js"

/**
 * When an expression is float-typed: always (`true`), never (`false`), or when at least one of these locals is
 * (an expression like `x + y * t[i]` is a float when `x` or `y` is one).
 */
export type FloatCondition = boolean | ReadonlyArray<VarInfo>

/** The syntax nodes directly inside `n` that may hold statements or functions (a walk by node type, no `for in`). */
const children = (n: Node): ReadonlyArray<Node> => {
  switch (n.type) {
    case "LocalStatement":
      return n.init
    case "AssignmentStatement":
      return [...n.variables, ...n.init]
    case "CallStatement":
      return [n.expression]
    case "FunctionDeclaration":
      return n.body
    case "ReturnStatement":
      return n.arguments
    case "IfStatement":
      return n.clauses
    case "IfClause":
    case "ElseifClause":
      return [n.condition, ...n.body]
    case "ElseClause":
    case "DoStatement":
      return n.body
    case "WhileStatement":
    case "RepeatStatement":
      return [n.condition, ...n.body]
    case "ForNumericStatement":
      return n.step ? [n.start, n.end, n.step, ...n.body] : [n.start, n.end, ...n.body]
    case "ForGenericStatement":
      return [...n.iterators, ...n.body]
    case "BinaryExpression":
    case "LogicalExpression":
      return [n.left, n.right]
    case "UnaryExpression":
      return [n.argument]
    case "MemberExpression":
      return [n.base]
    case "IndexExpression":
      return [n.base, n.index]
    case "CallExpression":
      return [n.base, ...n.arguments]
    case "TableCallExpression":
      return [n.base, n.arguments]
    case "StringCallExpression":
      return [n.base]
    case "TableConstructorExpression":
      return n.fields
    case "TableKey":
      return [n.key, n.value]
    case "TableKeyString":
    case "TableValue":
      return [n.value]
    default:
      return NONE
  }
}

const NONE: ReadonlyArray<Node> = []

/** One assignment whose value may be float-typed. */
interface Assignment {
  readonly target: VarInfo
  /** The locals of its condition that are still candidates. */
  live: number
}

/** The local an identifier names (a local or an upvalue), or undefined for a global. */
const localOf = (node: Node): VarInfo | undefined => {
  const r = resolution(node)
  return r.kind === "global" ? undefined : r.v
}

/**
 * The float-typed locals of `chunk` (see the module comment). `declarations` maps declaring identifiers to their
 * locals; `condition` says when an assigned expression is float-typed.
 */
export const floatLocals = (
  chunk: Chunk,
  declarations: ReadonlyMap<Node, VarInfo>,
  condition: (node: Node) => FloatCondition,
): Set<VarInfo> => {
  const candidates = new Set<VarInfo>()
  const excluded = new Set<VarInfo>()
  /** The assignments each candidate's float-ness keeps alive. */
  const dependents = new Map<VarInfo, Array<Assignment>>()
  const assign = (target: VarInfo | undefined, value: Node | undefined) => {
    if (target === undefined || excluded.has(target)) return
    assignCondition(target, value === undefined ? false : condition(value))
  }
  const assignCondition = (target: VarInfo, c: FloatCondition) => {
    if (c === true) return
    if (c === false || c.length === 0) {
      excluded.add(target)
      return
    }
    const a: Assignment = { target, live: c.length }
    for (const v of c) {
      let list = dependents.get(v)
      if (list === undefined) dependents.set(v, (list = []))
      list.push(a)
    }
  }
  const visit = (n: Node): void => {
    switch (n.type) {
      case "LocalStatement": {
        const init: ReadonlyArray<Node> = n.init
        ;(n.variables as ReadonlyArray<Node>).forEach((id, i) => {
          const v = declarations.get(id)
          if (v === undefined) return
          candidates.add(v)
          assign(v, i < init.length ? init[i] : undefined)
        })
        break
      }
      case "AssignmentStatement": {
        const init: ReadonlyArray<Node> = n.init
        ;(n.variables as ReadonlyArray<Node>).forEach((t, i) => {
          if (t.type === "Identifier") assign(localOf(t), i < init.length ? init[i] : undefined)
        })
        break
      }
      case "ForNumericStatement": {
        const v = declarations.get(n.variable)
        if (v === undefined) break
        candidates.add(v)
        // A float loop when its initial value or its step is a float (an integer loop otherwise).
        const start = condition(n.start)
        const step = n.step ? condition(n.step) : false
        if (start === true || step === true) break
        const either = [...(start === false ? [] : start), ...(step === false ? [] : step)]
        assignCondition(v, either.length === 0 ? false : either)
        break
      }
      case "FunctionDeclaration":
        if (!n.isLocal && n.identifier?.type === "Identifier") assign(localOf(n.identifier), undefined)
        break
    }
    for (const child of children(n)) visit(child)
  }
  for (const statement of chunk.body) visit(statement)
  // Parameters and loop variables in a condition are not float-typed.
  for (const v of dependents.keys()) if (!candidates.has(v)) excluded.add(v)
  // Removing a local may leave an assignment with no float-typed local in its condition: its target goes too.
  const removed = [...excluded]
  for (let i = 0; i < removed.length; i++) {
    const list = dependents.get(removed[i])
    if (list === undefined) continue
    for (const a of list)
      if (--a.live === 0 && !excluded.has(a.target)) {
        excluded.add(a.target)
        removed.push(a.target)
      }
  }
  const floats = new Set<VarInfo>()
  for (const v of candidates) if (!excluded.has(v)) floats.add(v)
  return floats
}
