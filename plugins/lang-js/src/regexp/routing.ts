/**
 * Which patterns the metered matcher takes: those the host engine can only run by backtracking. The sandbox starts
 * V8 with `--enable-experimental-regexp-engine-on-excessive-backtracks`, which moves a match that backtracks too much
 * to V8's linear-time engine; that engine takes no backreference, no lookaround, none of the flags `i`, `u`, `v` and
 * `d`, and no counted repetition copied more than 16 times (a quantifier's maximum, or its minimum + 1 when it is
 * unbounded, multiplied through nesting). A pattern it cannot take stays on the backtracking engine, which nothing
 * interrupts; the metered matcher takes it instead, unless it cannot backtrack at all (no quantifier, no
 * alternative), when the host's match is linear in the subject anyway.
 */
import type { Node, Pattern } from "./syntax.js"

/** The linear-time engine's bound on the copies of a counted repetition. */
const MAX_REPLICATION = 16

/** True when a counted repetition in `node` would be copied more than the linear engine allows. */
const overReplicated = (node: Node, factor: number): boolean => {
  switch (node.kind) {
    case "repeat": {
      const { min, max } = node
      if (min > MAX_REPLICATION || (max !== Infinity && max > MAX_REPLICATION)) return true
      const copies = factor * (max === Infinity ? min + 1 : max)
      return copies > MAX_REPLICATION || overReplicated(node.body, copies)
    }
    case "seq":
      return node.items.some((item) => overReplicated(item, factor))
    case "alt":
      return node.alternatives.some((alternative) => overReplicated(alternative, factor))
    case "group":
    case "look":
      return overReplicated(node.body, factor)
    default:
      return false
  }
}

/** True when matching `node` can make a choice: it has a quantifier of varying count or an alternative. */
const chooses = (node: Node): boolean => {
  switch (node.kind) {
    case "repeat":
      return node.min !== node.max || chooses(node.body)
    case "alt":
      return true
    case "seq":
      return node.items.some(chooses)
    case "group":
    case "look":
      return chooses(node.body)
    default:
      return false
  }
}

/** True when `pattern` (under `flags`) should run on the metered matcher rather than the host engine. */
export const needsMeteredMatcher = (pattern: Pattern, flags: string): boolean => {
  if (pattern.backtracks) return true
  if (!chooses(pattern.root)) return false
  return /[iudv]/.test(flags) || overReplicated(pattern.root, 1)
}
