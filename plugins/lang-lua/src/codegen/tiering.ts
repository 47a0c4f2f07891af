/**
 * Which loops of the main function can tier up, and what they need from it. Such a loop is compiled compact (the
 * code V8 compiles fastest, and runs fastest before it optimises), and after {@link TIER_AFTER} passes continues in
 * a hot function of its own: the loop compiled again, with inline paths, in a second compile unit made only then
 * (see `Generator.tierUp` and `Generator.hotLoop`). A run hands that function the state the loop sees: the loop's
 * iterator or counters, and the main function's locals that the loop uses, by value. The hot function hands back
 * those it sets.
 *
 * By value is exact when nothing else can see the local while the loop runs: it is not captured, or it is never set
 * after its declaration (a `local function` that calls itself). A loop that uses a captured local that is set
 * somewhere is compiled with inline paths from the start, as are the loops of programs with gotos (a jump may enter
 * or leave the loop) and the loops nested too deeply in tiered ones (the walk below is linear in each loop's size).
 *
 * @see TIER_AFTER in emit.ts
 */
import type { Node } from "luaparse"
import { resolution, type FnInfo, type Resolved, type VarInfo } from "../scope.js"

/** What a tiered loop needs from the main function: the outer locals it uses (in order of first use) and sets. */
export interface LoopState {
  readonly uses: ReadonlyArray<VarInfo>
  readonly sets: ReadonlySet<VarInfo>
}

/** The loops that can tier up. */
export const LOOPS = new Set(["WhileStatement", "RepeatStatement", "ForNumericStatement", "ForGenericStatement"])

/**
 * The state `loop` (a statement of the main function `main`) needs from it, or undefined when the loop cannot tier
 * up (see the module comment).
 */
export const loopState = (loop: Node, main: FnInfo, resolved: Resolved): LoopState | undefined => {
  const declared = new Set<VarInfo>()
  const used = new Set<VarInfo>()
  const uses: Array<VarInfo> = []
  const sets = new Set<VarInfo>()
  const setTarget = (t: Node | null) => {
    if (t === null || t.type !== "Identifier") return
    const r = resolution(t)
    if (r.kind !== "global" && r.v.fn === main) sets.add(r.v)
  }
  const visit = (node: Node): void => {
    if (node.type === "Identifier") {
      const d = resolved.declarations.get(node)
      if (d !== undefined) {
        declared.add(d)
        return
      }
      const r = resolution(node)
      if (r.kind !== "global" && r.v.fn === main && !used.has(r.v)) {
        used.add(r.v)
        uses.push(r.v)
      }
      return
    }
    if (node.type === "AssignmentStatement") for (const t of node.variables as ReadonlyArray<Node>) setTarget(t)
    else if (node.type === "FunctionDeclaration" && !node.isLocal) setTarget(node.identifier)
    for (const key in node) {
      if (key === "range") continue
      const child = (node as Record<string, unknown>)[key]
      if (child === null || typeof child !== "object") continue
      if (Array.isArray(child)) {
        for (const c of child) if (c !== null && typeof c === "object" && typeof c.type === "string") visit(c)
      } else if (typeof (child as Node).type === "string") visit(child as Node)
    }
  }
  visit(loop)
  const outer = uses.filter((v) => !declared.has(v))
  for (const v of outer) if (v.captured && v.assigned) return undefined
  for (const v of sets) if (declared.has(v)) sets.delete(v)
  return { uses: outer, sets }
}
