/**
 * `goto` and labels, resolved before code generation in one pass over the tree (time linear in the program).
 *
 * Lua 5.4's rules: a label is visible in its block and the blocks nested in it (not in nested functions); a label may
 * not repeat the name of a visible one; a `goto` jumps to a visible label, backward to one already seen, forward to
 * one later in its own block or an enclosing one; a forward jump may not enter the scope of a local unless the label
 * is at the end of its block (only labels follow it; never before `until`).
 *
 * Each block with a jump target gets a layout:
 * - `nested`: a label jumped to from before it closes a labeled JS block (`F<n>: { ... }`, left with `break`), one
 *   jumped to from after it opens a loop to the block's end (`B<n>: for (;;) { ... break }`, re-entered with
 *   `continue`, so locals declared after it are fresh on every pass). Used when these intervals nest and are few.
 * - `dispatch`: the block becomes `D<n>: for (;;) { switch (p<n>) { case 0: ... case k: ... } break }`, with its
 *   locals declared before the loop. A captured local declared again by a backward jump lives in a cell
 *   (`{ v: value }`, made anew by every declaration; closures bind the cell they saw), so each pass has its own, as in
 *   Lua.
 */
import type { Node } from "luaparse"
import { ParseFailure, type Parsed } from "./parse.js"
import { CHUNK_NAME } from "./runtime.js"
import type { Resolved, VarInfo } from "./scope.js"

/** A label in a block. */
export interface LabelInfo {
  readonly name: string
  /** Its statement index in the block. */
  readonly index: number
  readonly line: number
  /** Numbers its JS labels (`F<uid>` before it, `B<uid>` from it). */
  readonly uid: number
  /** The first statement of the block holding a goto that jumps forward to it. */
  forwardFrom: number | undefined
  /** True when some goto jumps back to it. */
  backward: boolean
}

/** An interval of a block's statements wrapped for its gotos (see the module comment). */
export interface Interval {
  start: number
  readonly end: number
  readonly open: string
  readonly close: string
}

/** How a block with jump targets is laid out. */
export interface BlockPlan {
  readonly labels: Map<string, LabelInfo>
  layout: "nested" | "dispatch"
  /** For `nested`: the intervals, none crossing another. */
  intervals: Array<Interval>
  /** For `dispatch`: the names of the program counter and the loop. */
  readonly pc: string
  readonly loop: string
  /** For `dispatch`: locals that live in cells (captured, and declared again by a backward jump). */
  readonly cells: Set<VarInfo>
}

/** Where a goto jumps. */
export interface GotoTarget {
  readonly label: LabelInfo
  readonly plan: BlockPlan
  readonly forward: boolean
}

/** The gotos of a program: the plan of every block holding a jump target, and every goto's target. */
export interface GotoPlan {
  /** By the block's statement array (`body` of the block's node). */
  readonly blocks: Map<ReadonlyArray<Node>, BlockPlan>
  readonly targets: Map<Node, GotoTarget>
  /** Every local that lives in a cell. */
  readonly cells: Set<VarInfo>
}

/** The most intervals a block is laid out with nested JS blocks; more become a dispatch loop. */
const MAX_NESTED_INTERVALS = 4

/** A goto waiting for a label later in its block or an enclosing one. */
interface Pending {
  readonly node: Node
  readonly name: string
  /** Index, in the block now holding it, of the statement containing the goto. */
  from: number
}

interface BlockState {
  readonly body: ReadonlyArray<Node>
  readonly labels: Map<string, LabelInfo>
  readonly pending: Array<Pending>
  /** `firstLocal[i]`: index of the first statement at or after `i` that declares a local, or the body's length. */
  readonly firstLocal: Int32Array
  /** `atEnd[i]`: only labels follow statement `i` (and the block is not a `repeat` body). */
  readonly atEnd: Uint8Array
}

/** Resolve every goto of the program (its functions are in `resolved`) and plan the layout of every block with jump targets. */
export const planGotos = (resolved: Resolved, start: Parsed["start"]): GotoPlan => {
  const fail = (node: Node, message: string): never => {
    const { line, column } = start(node)
    throw new ParseFailure({
      kind: "ParseError",
      message: `${CHUNK_NAME}:${line}: ${message}`,
      location: { line, column: column + 1 },
    })
  }
  const lineOf = (node: Node): number => start(node).line
  const blocks = new Map<ReadonlyArray<Node>, BlockPlan>()
  const targets = new Map<Node, GotoTarget>()
  const cellsAll = new Set<VarInfo>()
  const labelBlock = new Map<LabelInfo, BlockState>()
  let counter = 0
  /** The visible labels of the function being walked, by name. */
  let active = new Map<string, LabelInfo>()

  const planOf = (state: BlockState): BlockPlan => {
    let plan = blocks.get(state.body)
    if (plan === undefined) {
      const n = ++counter
      plan = { labels: state.labels, layout: "nested", intervals: [], pc: `p${n}`, loop: `D${n}`, cells: new Set() }
      blocks.set(state.body, plan)
    }
    return plan
  }

  const resolveForward = (state: BlockState, label: LabelInfo) => {
    let kept = 0
    for (const p of state.pending) {
      if (p.name !== label.name) {
        state.pending[kept++] = p
        continue
      }
      if (state.atEnd[label.index] === 0) {
        const at = state.firstLocal[p.from + 1]
        if (at < label.index) {
          const s = state.body[at]
          const local = s.type === "LocalStatement" ? s.variables[0].name : s.identifier.name
          fail(p.node, `<goto ${p.name}> at line ${lineOf(p.node)} jumps into the scope of local '${local}'`)
        }
      }
      label.forwardFrom = label.forwardFrom === undefined ? p.from : Math.min(label.forwardFrom, p.from)
      targets.set(p.node, { label, plan: planOf(state), forward: true })
    }
    state.pending.length = kept
  }

  /** Walk a block; returns the gotos still waiting for a label, to be resolved in the enclosing block. */
  const block = (body: ReadonlyArray<Node>, repeat: boolean): Array<Pending> => {
    const n = body.length
    const firstLocal = new Int32Array(n + 1)
    firstLocal[n] = n
    const atEnd = new Uint8Array(n)
    let onlyLabels = !repeat
    for (let i = n - 1; i >= 0; i--) {
      const s = body[i]
      const declares = s.type === "LocalStatement" || (s.type === "FunctionDeclaration" && s.isLocal)
      firstLocal[i] = declares ? i : firstLocal[i + 1]
      atEnd[i] = onlyLabels ? 1 : 0
      if (s.type !== "LabelStatement") onlyLabels = false
    }
    const state: BlockState = { body, labels: new Map(), pending: [], firstLocal, atEnd }
    for (let i = 0; i < n; i++) {
      const s = body[i]
      if (s.type === "LabelStatement") {
        const name = s.label.name as string
        const seen = active.get(name)
        if (seen !== undefined) fail(s, `label '${name}' already defined on line ${seen.line}`)
        const label: LabelInfo = {
          name,
          index: i,
          line: lineOf(s),
          uid: ++counter,
          forwardFrom: undefined,
          backward: false,
        }
        active.set(name, label)
        state.labels.set(name, label)
        labelBlock.set(label, state)
        resolveForward(state, label)
      } else if (s.type === "GotoStatement") {
        const name = s.label.name as string
        const label = active.get(name)
        if (label !== undefined) {
          label.backward = true
          targets.set(s, { label, plan: planOf(labelBlock.get(label)!), forward: false })
        } else state.pending.push({ node: s, name, from: i })
      } else
        for (const p of statement(s)) {
          p.from = i
          state.pending.push(p)
        }
    }
    for (const name of state.labels.keys()) active.delete(name)
    return state.pending
  }

  /** Walk a function body: a fresh set of visible labels; every goto must find its label inside. */
  const functionBody = (body: ReadonlyArray<Node>) => {
    const outer = active
    active = new Map()
    const left = block(body, false)
    if (left.length > 0) {
      const p = left[0]
      fail(p.node, `no visible label '${p.name}' for <goto> at line ${lineOf(p.node)}`)
    }
    active = outer
  }

  /** Walk the blocks inside a statement (functions are walked on their own); returns its unresolved gotos. */
  const statement = (s: Node): Array<Pending> => {
    switch (s.type) {
      case "IfStatement": {
        const out: Array<Pending> = []
        for (const c of s.clauses) out.push(...block(c.body, false))
        return out
      }
      case "WhileStatement":
      case "DoStatement":
      case "ForNumericStatement":
      case "ForGenericStatement":
        return block(s.body, false)
      case "RepeatStatement":
        return block(s.body, true)
      default:
        return []
    }
  }

  // Labels never cross a function: every function (the main chunk first) is walked on its own.
  for (const fn of resolved.functions.keys()) functionBody(fn.body)
  for (const [body, plan] of blocks) layout(body, plan, resolved, cellsAll)
  return { blocks, targets, cells: cellsAll }
}

/** Decide a block's layout from its jump targets, and its cells when it is a dispatch loop. */
const layout = (body: ReadonlyArray<Node>, plan: BlockPlan, resolved: Resolved, cellsAll: Set<VarInfo>): void => {
  const n = body.length
  const forward: Array<Interval> = []
  const intervals: Array<Interval> = []
  for (const label of plan.labels.values()) {
    if (label.forwardFrom !== undefined)
      forward.push({ start: label.forwardFrom, end: label.index, open: `F${label.uid}: {`, close: "}" })
    if (label.backward)
      intervals.push({ start: label.index, end: n, open: `B${label.uid}: for (;;) {`, close: "break; }" })
  }
  let nested = forward.length + intervals.length <= MAX_NESTED_INTERVALS
  if (nested) {
    // Overlapping forward intervals are merged by starting the later one earlier: no local is declared between a
    // forward goto and its label (unless the label ends the block), so widening the JS block changes no scope.
    forward.sort((a, b) => a.end - b.end)
    for (let changed = true; changed; ) {
      changed = false
      for (const a of forward)
        for (const b of forward)
          if (a.start < b.start && b.start < a.end && a.end < b.end) {
            b.start = a.start
            changed = true
          }
    }
    intervals.push(...forward)
    for (const a of intervals)
      for (const b of intervals) if (a.start < b.start && b.start < a.end && a.end < b.end) nested = false
  }
  if (nested) {
    plan.layout = "nested"
    plan.intervals = intervals
    return
  }
  plan.layout = "dispatch"
  plan.intervals = []
  let firstBackward = n
  for (const label of plan.labels.values())
    if (label.backward && label.index < firstBackward) firstBackward = label.index
  for (let i = firstBackward; i < n; i++) {
    const s = body[i]
    const ids: ReadonlyArray<Node> =
      s.type === "LocalStatement" ? s.variables : s.type === "FunctionDeclaration" && s.isLocal ? [s.identifier] : []
    for (const id of ids) {
      const v = resolved.declarations.get(id)
      if (v !== undefined && v.captured) {
        plan.cells.add(v)
        cellsAll.add(v)
      }
    }
  }
}
