/**
 * The metered backtracking machine. It runs a `Program` over a subject with an explicit backtrack stack (so a long
 * subject cannot exhaust the host's stack), charges every instruction it executes and every character a
 * quantifier or a backreference passes over to the work meter, and so stops with the program's work-budget or
 * deadline diagnostic however badly a pattern backtracks.
 *
 * The stack holds frames whose last element is their kind: a choice (where to resume), a register's previous
 * value (undone on the way back), and a single-character loop's give-back or take-more point. A lookaround runs
 * as a nested submatch on the same stack; when it succeeds its choices are dropped (lookarounds are atomic) and its
 * register writes kept, so that backtracking past it still undoes them.
 *
 * After `MEMO_AFTER` steps from one start position the machine also remembers the choice points it has entered (instruction,
 * position and every register): entering one again means the first visit's whole subtree failed, so it fails at
 * once. The answer is unchanged and patterns like `^(a+)+\1$` no longer take exponential time.
 */
import { throwRangeError } from "../runtime/errors.js"
import { charge } from "../runtime/meter.js"
import { CaseEquality, CharTest, isAsciiWord, isLineTerminator } from "./characters.js"
import { type Instruction, Op, type Program } from "./program.js"

const CHOICE = -1
const RESTORE = -2
const GIVE_BACK = -3
const TAKE_MORE = -4

/** Steps between two charges to the work meter. */
const CHARGE_EVERY = 1024
/** Steps from one start position after which failed choice points are remembered. */
const MEMO_AFTER = 4096
/** Choice points remembered per match at most. */
const MAX_MEMO = 200_000
/**
 * Work units a remembered choice point costs on top of its step, plus one per register: building and looking up its
 * key takes as long as a few dozen of the interpreter's steps.
 */
const MEMO_COST = 16
/** Backtrack stack entries at most (the host engine reports its own overflow the same way). */
const MAX_STACK = 4_000_000

const isHigh = (c: number): boolean => c >= 0xd800 && c <= 0xdbff
const isLow = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff

/** A compiled pattern ready to match, with the flags it was compiled for. */
export class Matcher {
  private readonly code: readonly Instruction[]
  private readonly multiline: boolean
  private readonly caseEquality: CaseEquality | null
  private readonly wordTest: CharTest | null
  private readonly unicode: boolean
  private readonly hasIndices: boolean
  private readonly global: boolean
  private readonly memoCost: number
  /** The instruction a match's first character must satisfy (see `Program.lead`), its op and code. */
  private readonly lead: Instruction | null
  private readonly leadOp: Op
  private readonly leadCode: number
  /** True when the lead is one code unit, found with `indexOf`. */
  private readonly leadUnit: boolean
  private readonly sticky: boolean
  /** How many lookarounds deep the machine runs (at 0 a register write on an empty stack needs no undo). */
  private depth = 0
  private s = ""
  private readonly regs: number[]
  private readonly stack: number[] = []
  private pending = 0
  private steps = 0
  private remembered = 0
  /** The step count when the current start position's attempt began. */
  private attempt = 0

  /** `flags` are the host RegExp's. */
  constructor(
    private readonly program: Program,
    flags: string,
  ) {
    this.code = program.code
    this.regs = new Array<number>(program.registers).fill(-1)
    this.memoCost = MEMO_COST + program.registers
    const lead = program.lead
    this.lead = lead
    this.leadOp = lead === null ? Op.Done : lead.op === Op.Star ? lead.c : lead.op
    this.leadCode = lead === null ? 0 : lead.op === Op.Star ? lead.d : lead.a
    const code = this.leadCode
    this.leadUnit = this.leadOp === Op.Char && (code < 0xd800 || (code > 0xdfff && code <= 0xffff))
    this.unicode = /[uv]/.test(flags)
    this.hasIndices = flags.includes("d")
    this.global = flags.includes("g")
    this.sticky = flags.includes("y")
    this.multiline = flags.includes("m")
    const ignoreCase = flags.includes("i")
    this.caseEquality = ignoreCase ? new CaseEquality(this.unicode) : null
    // With `i` and `u`, `\w` and `\b` also take the characters that fold into `[A-Za-z0-9_]`.
    this.wordTest = ignoreCase && this.unicode ? new CharTest("\\w", true, "u") : null
  }

  /** The host `RegExp.prototype.exec` for `re` (made with this matcher's flags; its `lastIndex` is read and written) on `s`. */
  exec(re: RegExp, s: string): RegExpExecArray | null {
    const sticky = this.sticky
    const tracksIndex = this.global || sticky
    let i = tracksIndex ? re.lastIndex : 0
    const n = s.length
    this.s = s
    this.steps = 0
    this.remembered = 0
    const regs = this.regs
    const { lead, leadOp, leadCode, leadUnit } = this
    // Like the host engine: with `u`, a lastIndex inside a surrogate pair moves back to the pair's start; the scan
    // then goes one code unit at a time.
    if (this.unicode && i > 0 && isLow(s.charCodeAt(i)) && isHigh(s.charCodeAt(i - 1))) i--
    try {
      while (i <= n) {
        if (lead !== null) {
          // Skip the start positions whose first character cannot begin a match.
          if (leadUnit && !sticky) {
            const at = s.indexOf(String.fromCharCode(leadCode), i)
            this.pending += (at < 0 ? n - i : at - i) >> 5
            if (at < 0) break
            i = at
          } else {
            const from = i
            while (i < n && this.one(lead, leadOp, leadCode, i) === 0 && !sticky) i++
            this.pending += (i - from) >> 2
            if (i >= n || this.one(lead, leadOp, leadCode, i) === 0) break
          }
        }
        // A loop: `fill` is a slow call on arrays this small.
        for (let r = 0; r < regs.length; r++) regs[r] = -1
        this.pending += regs.length >> 4
        if (this.stack.length !== 0) this.stack.length = 0
        this.depth = 0
        this.attempt = this.steps + this.pending
        if (this.run(0, i) >= 0) {
          if (tracksIndex) re.lastIndex = regs[1]!
          return this.result(s)
        }
        if (sticky) break
        i++
        this.pending++
      }
    } finally {
      this.pay()
      this.stack.length = 0
      this.s = ""
    }
    if (tracksIndex) re.lastIndex = 0
    return null
  }

  /** Charge the steps taken since the last charge; check the stack bound. */
  private pay(): void {
    const units = this.pending
    this.pending = 0
    this.steps += units
    charge(units)
    if (this.stack.length > MAX_STACK) throwRangeError("Maximum call stack size exceeded")
  }

  /** The match array, shaped as the host's. */
  private result(s: string): RegExpExecArray {
    const { groups, names } = this.program
    const regs = this.regs
    const out: (string | undefined)[] = []
    const indices: ([number, number] | undefined)[] = []
    for (let g = 0; g < groups; g++) {
      const start = regs[g * 2]!
      const end = regs[g * 2 + 1]!
      const set = start >= 0 && end >= 0
      out.push(set ? s.slice(start, end) : undefined)
      indices.push(set ? [start, end] : undefined)
    }
    const m = out as unknown as RegExpExecArray & { indices?: unknown }
    m.index = regs[0]!
    m.input = s
    const named = names.some((name) => name !== undefined)
    const groupsOf = (values: readonly unknown[]): Record<string, unknown> | undefined => {
      if (!named) return undefined
      const o: Record<string, unknown> = Object.create(null)
      for (let g = 1; g < groups; g++) if (names[g] !== undefined) o[names[g]!] = values[g]
      return o
    }
    m.groups = groupsOf(out) as RegExpExecArray["groups"]
    if (this.hasIndices) {
      ;(indices as unknown as { groups: unknown }).groups = groupsOf(indices)
      m.indices = indices as unknown as RegExpIndicesArray
    }
    this.pending += groups
    return m
  }

  /** Write register `r`, remembering its old value for backtracking. */
  private set(r: number, value: number): void {
    const regs = this.regs
    if (regs[r] === value) return
    if (this.stack.length !== 0 || this.depth !== 0) this.stack.push(regs[r]!, r, RESTORE)
    regs[r] = value
  }

  /** The width of the character `ins` matches at `pos` (read backwards when `ins.backward`), or 0. */
  private one(ins: Instruction, op: Op, code: number, pos: number): number {
    const s = this.s
    let c: number
    let w = 1
    // The host engine reads no character, either way, from inside a surrogate pair (a match may start there).
    if (this.unicode && pos > 0 && isLow(s.charCodeAt(pos)) && isHigh(s.charCodeAt(pos - 1))) return 0
    if (ins.backward) {
      if (pos <= 0) return 0
      c = s.charCodeAt(pos - 1)
      if (this.unicode && isLow(c) && pos >= 2 && isHigh(s.charCodeAt(pos - 2))) {
        c = s.codePointAt(pos - 2)!
        w = 2
      }
    } else {
      if (pos >= s.length) return 0
      c = this.unicode ? s.codePointAt(pos)! : s.charCodeAt(pos)
      if (c > 0xffff) w = 2
    }
    if (op === Op.Char) return c === code ? w : 0
    if (op === Op.Set) return ins.test!.test(c) ? w : 0
    return code === 1 || !isLineTerminator(c) ? w : 0
  }

  /** The width of the character before (`toward` < 0) or after `pos` as a loop from `bound` read it. */
  private width(pos: number, toward: number, bound: number): number {
    if (!this.unicode) return 1
    const s = this.s
    if (toward < 0) return pos - 2 >= bound && isLow(s.charCodeAt(pos - 1)) && isHigh(s.charCodeAt(pos - 2)) ? 2 : 1
    return pos + 2 <= bound && isHigh(s.charCodeAt(pos)) && isLow(s.charCodeAt(pos + 1)) ? 2 : 1
  }

  private isWord(pos: number): boolean {
    if (pos < 0 || pos >= this.s.length) return false
    const c = this.s.charCodeAt(pos)
    return this.wordTest === null ? isAsciiWord(c) : this.wordTest.test(c)
  }

  /** Whether the text of group `g` appears again ending (backward) or starting at `pos`; its length, or -1. */
  private backref(g: number, pos: number, backward: boolean): number {
    const regs = this.regs
    const start = regs[g * 2]!
    const end = regs[g * 2 + 1]!
    if (start < 0 || end < 0) return 0
    const len = end - start
    const s = this.s
    const from = backward ? pos - len : pos
    if (from < 0 || from + len > s.length) return -1
    this.pending += len >> 3
    const eq = this.caseEquality
    if (eq === null) {
      for (let k = 0; k < len; k++) if (s.charCodeAt(start + k) !== s.charCodeAt(from + k)) return -1
      return len
    }
    if (!this.unicode) {
      for (let k = 0; k < len; k++) if (!eq.same(s.charCodeAt(start + k), s.charCodeAt(from + k))) return -1
      return len
    }
    for (let k = 0; k < len; ) {
      const a = s.codePointAt(start + k)!
      const b = s.codePointAt(from + k)!
      if (!eq.same(a, b)) return -1
      k += a > 0xffff ? 2 : 1
    }
    return len
  }

  /** Drop the frames above `height`, undoing their register writes. */
  private unwind(height: number): void {
    const stack = this.stack
    const regs = this.regs
    while (stack.length > height) {
      const kind = stack.pop()!
      if (kind === RESTORE) {
        const r = stack.pop()!
        regs[r] = stack.pop()!
      } else stack.length -= kind === CHOICE ? 2 : 4
    }
  }

  /** Drop the choice frames above `height` and keep its register writes (a lookaround succeeded). */
  private keepWrites(height: number): void {
    const stack = this.stack
    const kept: number[] = []
    while (stack.length > height) {
      const kind = stack.pop()!
      if (kind === RESTORE) {
        const r = stack.pop()!
        kept.push(stack.pop()!, r)
      } else stack.length -= kind === CHOICE ? 2 : 4
    }
    for (let i = kept.length - 2; i >= 0; i -= 2) stack.push(kept[i]!, kept[i + 1]!, RESTORE)
  }

  /** Run from instruction `pc` at `pos` to a `Done`: its position, or -1 when every path failed. */
  private run(pc: number, pos: number): number {
    const code = this.code
    const regs = this.regs
    const stack = this.stack
    const s = this.s
    const n = s.length
    const base = stack.length
    let memo: Set<string> | null = null
    for (;;) {
      if (++this.pending >= CHARGE_EVERY) this.pay()
      const ins = code[pc]!
      let ok = true
      if (ins.memo && this.steps + this.pending - this.attempt >= MEMO_AFTER) {
        const key = `${pc},${pos},${regs.join(",")}`
        this.pending += this.memoCost
        memo ??= new Set()
        if (memo.has(key)) ok = false
        else if (this.remembered < MAX_MEMO) {
          memo.add(key)
          this.remembered++
        }
      }
      if (ok)
        switch (ins.op) {
          case Op.Char:
          case Op.Set:
          case Op.Dot: {
            const w = this.one(ins, ins.op, ins.a, pos)
            if (w === 0) ok = false
            else {
              pos += ins.backward ? -w : w
              pc++
            }
            break
          }
          case Op.Split:
            stack.push(ins.b, pos, CHOICE)
            pc = ins.a
            break
          case Op.Jump:
            pc = ins.a
            break
          case Op.Save:
            this.set(ins.a, pos)
            pc++
            break
          case Op.Clear:
            for (let r = ins.a; r < ins.b; r++) if (regs[r] !== -1) this.set(r, -1)
            pc++
            break
          case Op.Backref: {
            const len = this.backref(ins.a, pos, ins.backward)
            const end = pos + (ins.backward ? -len : len)
            // The host engine fails a backreference (even an empty one) that ends inside a surrogate pair.
            if (len < 0 || (this.unicode && end > 0 && isLow(s.charCodeAt(end)) && isHigh(s.charCodeAt(end - 1))))
              ok = false
            else {
              pos += ins.backward ? -len : len
              pc++
            }
            break
          }
          case Op.LineStart:
            ok = pos === 0 || (this.multiline && isLineTerminator(s.charCodeAt(pos - 1)))
            pc++
            break
          case Op.LineEnd:
            ok = pos === n || (this.multiline && isLineTerminator(s.charCodeAt(pos)))
            pc++
            break
          case Op.WordBoundary:
            ok = (this.isWord(pos - 1) !== this.isWord(pos)) === (ins.a === 0)
            pc++
            break
          case Op.Look: {
            const height = stack.length
            this.depth++
            const found = this.run(pc + 1, pos) >= 0
            this.depth--
            if (ins.a === 1) {
              if (found) this.unwind(height)
              ok = !found
            } else {
              ok = found
              if (found) this.keepWrites(height)
            }
            pc = ins.b
            break
          }
          case Op.LoopInit:
            this.set(ins.a, 0)
            pc++
            break
          case Op.LoopCheck: {
            const count = regs[ins.a]!
            if (count < ins.b) pc++
            else if (count >= ins.c) pc = ins.d
            else if (ins.greedy) {
              stack.push(ins.d, pos, CHOICE)
              pc++
            } else {
              stack.push(pc + 1, pos, CHOICE)
              pc = ins.d
            }
            break
          }
          case Op.LoopEnd: {
            const count = regs[ins.a]!
            if (count >= ins.b && pos === regs[ins.a + 1]) ok = false
            else {
              // An unbounded loop's count only matters up to its minimum (states that differ past it are equal).
              this.set(ins.a, ins.c === Infinity && count >= ins.b ? count : count + 1)
              pc = ins.d
            }
            break
          }
          case Op.Star: {
            const min = ins.a
            const max = ins.b
            const step = ins.backward ? -1 : 1
            const from = pos
            let k = 0
            let w: number
            while (k < min && (w = this.one(ins, ins.c, ins.d, pos)) !== 0) {
              pos += step * w
              k++
            }
            if (k < min) {
              this.pending += k
              ok = false
              break
            }
            if (ins.greedy) {
              while (k < max && (w = this.one(ins, ins.c, ins.d, pos)) !== 0) {
                pos += step * w
                k++
              }
              if (k > min) stack.push(pc, from, pos, k, GIVE_BACK)
            } else if (k < max) stack.push(pc, from, pos, k, TAKE_MORE)
            this.pending += k
            pc++
            break
          }
          case Op.Done:
            if (memo !== null) this.remembered -= memo.size
            return pos
        }
      if (ok) continue
      // Backtrack to the latest choice above this run's base.
      for (;;) {
        if (stack.length === base) {
          if (memo !== null) this.remembered -= memo.size
          return -1
        }
        const kind = stack.pop()!
        if (kind === RESTORE) {
          const r = stack.pop()!
          regs[r] = stack.pop()!
          continue
        }
        if (kind === CHOICE) {
          pos = stack.pop()!
          pc = stack.pop()!
          break
        }
        let k = stack.pop()!
        let at = stack.pop()!
        const from = stack.pop()!
        const star = stack.pop()!
        const loop = code[star]!
        if (++this.pending >= CHARGE_EVERY) this.pay()
        if (kind === GIVE_BACK) {
          const toward = loop.backward ? 1 : -1
          at += toward * this.width(at, toward, from)
          k--
          if (k > loop.a) stack.push(star, from, at, k, GIVE_BACK)
        } else {
          const w = this.one(loop, loop.c, loop.d, at)
          if (w === 0) continue
          at += loop.backward ? -w : w
          k++
          if (k < loop.b) stack.push(star, from, at, k, TAKE_MORE)
        }
        pos = at
        pc = star + 1
        break
      }
    }
  }
}
