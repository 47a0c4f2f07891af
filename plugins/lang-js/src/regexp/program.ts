/**
 * The metered matcher's program: a parsed pattern compiled to instructions for the backtracking machine in
 * `matcher.ts`. Registers 0 to 2n-1 hold the capture groups' start and end positions (-1: undefined); each loop
 * of a quantifier adds an iteration counter and the position its current iteration started at. A lookbehind's
 * body is compiled backwards: its terms in reverse order, each reading the character before the position.
 */
import { CharTest } from "./characters.js"
import type { Node, Pattern } from "./syntax.js"

/** Instruction codes. */
export const enum Op {
  /** Match the character `a` (a code unit, or a code point with `u`). */
  Char,
  /** Match a character `test` accepts. */
  Set,
  /** Match any character (`a` = 1, the `s` flag) or any but a line terminator. */
  Dot,
  /** Continue at `a`; on failure, at `b`. */
  Split,
  /** Continue at `a`. */
  Jump,
  /** Register `a` = the position. */
  Save,
  /** Registers `a` up to `b` = undefined (the captures of a quantified atom, at each iteration). */
  Clear,
  /** Match the text of capture group `a` again (an undefined group matches the empty string). */
  Backref,
  /** `^` */
  LineStart,
  /** `$` */
  LineEnd,
  /** `\b` (`a` = 0) or `\B` (`a` = 1). */
  WordBoundary,
  /** A lookaround whose body starts at the next instruction and ends with `Done`; `a` = 1 when negative; continue at `b`. */
  Look,
  /** Loop counter `a` = 0. */
  LoopInit,
  /** Enter another iteration of loop `a` (min `b`, max `c`) at the next instruction, or leave it to `d`. */
  LoopCheck,
  /** End of an iteration of loop `a` (min `b`, max `c`): refuse an empty optional one, count it, go to `d`. */
  LoopEnd,
  /** A quantified single character (`c`: Char/Set/Dot, `d`: its code) repeated from `a` to `b` times. */
  Star,
  /** The (sub)match succeeded. */
  Done,
}

/** One instruction; every field is present so that the machine's loop sees one shape. */
export interface Instruction {
  readonly op: Op
  a: number
  b: number
  c: number
  d: number
  /** Reads the character before the position (inside a lookbehind). */
  readonly backward: boolean
  readonly greedy: boolean
  readonly test: CharTest | null
  /** A state worth remembering when the matcher memoizes failed states (a choice point). */
  memo: boolean
}

/** A compiled pattern. */
export interface Program {
  readonly code: readonly Instruction[]
  readonly registers: number
  /** Groups, group 0 (the whole match) included. */
  readonly groups: number
  readonly names: ReadonlyArray<string | undefined>
  /** An instruction every match's first character must satisfy (a Char, Set, Dot or Star reading forward), or null. */
  readonly lead: Instruction | null
}

const single = (node: Node): boolean => node.kind === "char" || node.kind === "set" || node.kind === "dot"

/**
 * The instruction the character at a match's start must satisfy: the first one that reads a character, past
 * register writes, zero-width assertions and lookarounds (a positive lookahead's own first one counts), before any
 * choice.
 */
const leadOf = (code: readonly Instruction[], from: number): Instruction | null => {
  for (let pc = from; ; ) {
    const ins = code[pc]!
    switch (ins.op) {
      case Op.Save:
      case Op.WordBoundary:
      case Op.LineStart:
      case Op.LineEnd:
        pc++
        break
      case Op.Look: {
        const inner = ins.a === 0 && !code[pc + 1]!.backward ? leadOf(code, pc + 1) : null
        if (inner !== null) return inner
        pc = ins.b
        break
      }
      case Op.Char:
      case Op.Set:
      case Op.Dot:
        return ins.backward ? null : ins
      case Op.Star:
        return ins.a >= 1 && !ins.backward ? ins : null
      default:
        return null
    }
  }
}

/** Compile `pattern` under its flags. */
export const compile = (pattern: Pattern, flags: string): Program => {
  const ignoreCase = flags.includes("i")
  const dotAll = flags.includes("s")
  const mode = flags.includes("v") ? "v" : flags.includes("u") ? "u" : ""
  const code: Instruction[] = []
  let registers = pattern.groups * 2
  const tests = new Map<string, CharTest>()
  /** Where a `Star`'s give-backs resume: choice points too. */
  const resumptions: number[] = []
  const emit = (op: Op, backward: boolean, a = 0, b = 0, extra?: Partial<Instruction>): Instruction => {
    // One literal, so that every instruction has the same shape.
    const ins: Instruction = {
      op,
      a,
      b,
      c: extra?.c ?? 0,
      d: extra?.d ?? 0,
      backward,
      greedy: extra?.greedy ?? true,
      test: extra?.test ?? null,
      memo: extra?.memo ?? false,
    }
    code.push(ins)
    return ins
  }
  const testFor = (source: string): CharTest => {
    let t = tests.get(source)
    if (t === undefined) {
      t = new CharTest(source, ignoreCase, mode)
      tests.set(source, t)
    }
    return t
  }
  /** The fields of a single-character node: its op, code and test. */
  const character = (node: Node): { op: Op; code: number; test: CharTest | null } =>
    node.kind === "char"
      ? { op: Op.Char, code: node.code, test: null }
      : node.kind === "set"
        ? { op: Op.Set, code: 0, test: testFor(node.source) }
        : { op: Op.Dot, code: dotAll ? 1 : 0, test: null }

  const gen = (node: Node, back: boolean): void => {
    switch (node.kind) {
      case "char":
      case "set":
      case "dot": {
        const c = character(node)
        emit(c.op, back, c.code, 0, { test: c.test })
        return
      }
      case "seq":
        if (back) for (let i = node.items.length - 1; i >= 0; i--) gen(node.items[i]!, back)
        else for (const item of node.items) gen(item, back)
        return
      case "alt": {
        const jumps: Instruction[] = []
        node.alternatives.forEach((alternative, i) => {
          if (i === node.alternatives.length - 1) return gen(alternative, back)
          const split = emit(Op.Split, back, code.length + 1, 0, { memo: true })
          gen(alternative, back)
          jumps.push(emit(Op.Jump, back))
          split.b = code.length
        })
        for (const j of jumps) j.a = code.length
        return
      }
      case "group":
        emit(Op.Save, back, node.index * 2 + (back ? 1 : 0))
        gen(node.body, back)
        emit(Op.Save, back, node.index * 2 + (back ? 0 : 1))
        return
      case "look": {
        const look = emit(Op.Look, back, node.negate ? 1 : 0)
        gen(node.body, node.behind)
        emit(Op.Done, node.behind)
        look.b = code.length
        return
      }
      case "backref":
        emit(Op.Backref, back, node.index)
        return
      case "assert":
        if (node.assertion === "^") emit(Op.LineStart, back)
        else if (node.assertion === "$") emit(Op.LineEnd, back)
        else emit(Op.WordBoundary, back, node.assertion === "B" ? 1 : 0)
        return
      case "repeat": {
        const { min, max, greedy, body } = node
        if (max === 0) return
        if (min === 1 && max === 1) return gen(body, back)
        if (single(body)) {
          const c = character(body)
          emit(Op.Star, back, min, max, { c: c.op, d: c.code, test: c.test, greedy, memo: true })
          resumptions.push(code.length)
          return
        }
        const counter = registers
        registers += 2
        emit(Op.LoopInit, back, counter)
        const checkAt = code.length
        const check = emit(Op.LoopCheck, back, counter, min, { c: max, greedy, memo: true })
        emit(Op.Save, back, counter + 1)
        if (node.endGroup > node.firstGroup) emit(Op.Clear, back, node.firstGroup * 2, node.endGroup * 2)
        gen(body, back)
        emit(Op.LoopEnd, back, counter, min, { c: max, d: checkAt })
        check.d = code.length
        return
      }
    }
  }
  emit(Op.Save, false, 0)
  gen(pattern.root, false)
  emit(Op.Save, false, 1)
  emit(Op.Done, false)
  for (const at of resumptions) code[at]!.memo = true
  return { code, registers, groups: pattern.groups, names: pattern.names, lead: leadOf(code, 1) }
}
