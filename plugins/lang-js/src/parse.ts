/**
 * Parsing: acorn with the options the execution model needs (modules, top-level `await` and `return`), plus the
 * interpreter's bounds on source size and syntax depth.
 *
 * Parsing is linear in the source: acorn keeps the names declared in a scope in arrays and searches them for every
 * declaration (quadratic in the declarations of one scope: 80,000 `let`s took tens of seconds), so the parser here
 * gives each scope name lists indexed by a set (and remembers the enclosing function scope of each scope, which acorn
 * searches for at every identifier). Nodes carry only their offsets; line and column are computed from
 * a table of line starts when a location is needed, instead of three location objects per node.
 */
import { Parser } from "acorn"
import { MAX_SOURCE_LENGTH, MAX_SYNTAX_DEPTH } from "./limits.js"
import type { Diagnostic, Location } from "@codemode/core/sandbox"

/** An ESTree node as acorn produces it (the compiler reads nodes structurally). */
export type Node = any

/** The 1-based location of a source offset. */
export type Locator = (offset: number) => Location

/** A parsed program, or the diagnostic that explains why it could not be parsed. */
export type Parsed =
  | { readonly ok: true; readonly program: Node; readonly locate: Locator }
  | { readonly ok: false; readonly diagnostic: Diagnostic }

/** The names declared in one scope: an array (acorn reads `[0]`) whose `indexOf` is a set lookup. */
class NameList extends Array<string> {
  private readonly names = new Set<string>()
  override push(name: string): number {
    this.names.add(name)
    return super.push(name)
  }
  /** Acorn only asks whether a name is present (`> -1`, `=== -1`). */
  override indexOf(name: string): number {
    return this.names.has(name) ? 0 : -1
  }
}

interface AcornScope {
  readonly flags: number
  var: string[]
  lexical: string[]
  functions: string[]
  /** The nearest scope (this one or an enclosing one) that holds `var`s. */
  varScope: AcornScope
  /** The nearest non-arrow such scope (the one that provides `this`). */
  thisScope: AcornScope
}

/** Acorn's flags of the scopes that hold `var`s (top level, functions, static blocks, field initializers). */
const VAR_SCOPE = 1 | 2 | 256 | 512
/** Acorn's flag of arrow function scopes. */
const ARROW_SCOPE = 16

/** Acorn's recursive methods that every level of nesting passes through, counted by the parser below. */
const DESCENTS = ["parseStatement", "parseMaybeAssign", "parseMaybeUnary", "parseExprOp", "parseBindingAtom"] as const

/**
 * The most of acorn's {@link DESCENTS} in flight at once. Every syntax level passes through at least one and a
 * program within {@link MAX_SYNTAX_DEPTH} needs at most a few per level, so this refuses only programs the depth
 * check would refuse anyway, and it does so before acorn's recursion nears the thread's stack limit: a stack overflow
 * there is not always a catchable RangeError (V8 aborts the whole process when it strikes while a regular expression
 * is being compiled).
 */
const MAX_DESCENT = 4 * MAX_SYNTAX_DEPTH

/** Thrown by the parser at the descent that passes {@link MAX_DESCENT}, at the offset it had reached. */
class TooDeep extends Error {
  constructor(readonly offset: number) {
    super("too deep")
  }
}

/**
 * Acorn with linear-time scope bookkeeping: set-indexed name lists, and each scope's var and `this` scope recorded
 * when it is entered (acorn searches the scope stack for them at every identifier: quadratic in the nesting).
 */
const LinearParser = Parser.extend(
  (Base) =>
    class extends (Base as unknown as new (
      ...args: unknown[]
    ) => {
      scopeStack: AcornScope[]
      enterScope(flags: number): void
      currentScope(): AcornScope
    }) {
      override enterScope(flags: number): void {
        super.enterScope(flags)
        const stack = this.scopeStack
        const scope = stack[stack.length - 1]
        const parent = stack[stack.length - 2]
        scope.var = new NameList()
        scope.lexical = new NameList()
        scope.functions = new NameList()
        const holdsVars = (scope.flags & VAR_SCOPE) !== 0
        scope.varScope = holdsVars || parent === undefined ? scope : parent.varScope
        scope.thisScope =
          (holdsVars && (scope.flags & ARROW_SCOPE) === 0) || parent === undefined ? scope : parent.thisScope
      }
      currentVarScope(): AcornScope {
        return this.currentScope().varScope
      }
      currentThisScope(): AcornScope {
        return this.currentScope().thisScope
      }
      /** Acorn's recursive descents in flight (see {@link MAX_DESCENT}). */
      descent = 0
      declare start: number
      /** Count a descent, refusing one past the bound before it recurses. */
      descend(): void {
        if (++this.descent > MAX_DESCENT) throw new TooDeep(this.start)
      }
    } as unknown as typeof Parser,
)

// Each of the descents counts itself in and out around acorn's own method.
for (const name of DESCENTS) {
  const proto = LinearParser.prototype as unknown as Record<string, (...args: unknown[]) => unknown>
  const inner = proto[name]
  proto[name] = function (this: { descend(): void; descent: number }, ...args: unknown[]) {
    this.descend()
    try {
      return inner.apply(this, args)
    } finally {
      this.descent--
    }
  }
}

const LINE_BREAK = /\r\n?|\n|\u2028|\u2029/g

/** A locator for `source`: a binary search in the offsets where lines start. */
export const locator = (source: string): Locator => {
  const starts = [0]
  LINE_BREAK.lastIndex = 0
  for (let m = LINE_BREAK.exec(source); m !== null; m = LINE_BREAK.exec(source)) starts.push(m.index + m[0].length)
  return (offset) => {
    let lo = 0
    let hi = starts.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (starts[mid] <= offset) lo = mid
      else hi = mid - 1
    }
    return { line: lo + 1, column: offset - starts[lo] + 1 }
  }
}

const parseError = (message: string, location?: Location): Parsed => ({
  ok: false,
  diagnostic: location ? { kind: "ParseError", message, location } : { kind: "ParseError", message },
})

/** True for the properties of a node that hold child nodes. */
const isChild = (v: unknown): boolean => v !== null && typeof v === "object" && typeof (v as Node).type === "string"

/** The first node nested deeper than the bound, or undefined when the tree stays within it. */
const tooDeep = (root: Node): Node | undefined => {
  const nodes: Node[] = [root]
  const depths: number[] = [1]
  while (nodes.length > 0) {
    const node = nodes.pop()
    const depth = depths.pop()!
    if (depth > MAX_SYNTAX_DEPTH) return node
    for (const key in node) {
      if (key === "type" || key === "start" || key === "end") continue
      const child = node[key]
      if (Array.isArray(child)) {
        for (const c of child) {
          if (isChild(c)) {
            nodes.push(c)
            depths.push(depth + 1)
          }
        }
      } else if (isChild(child)) {
        nodes.push(child)
        depths.push(depth + 1)
      }
    }
  }
  return undefined
}

const tooDeepMessage = `The program nests syntax deeper than ${MAX_SYNTAX_DEPTH} levels; split long expressions into statements`

/** Parse a program's source. */
export const parse = (code: string): Parsed => {
  if (typeof code !== "string" || code.trim() === "")
    return parseError("The program is empty: write at least one statement")
  if (code.length > MAX_SOURCE_LENGTH) {
    return parseError(`The program is ${code.length} characters long; the limit is ${MAX_SOURCE_LENGTH}`)
  }
  let program: Node
  try {
    program = LinearParser.parse(code, {
      ecmaVersion: "latest",
      sourceType: "module",
      allowReturnOutsideFunction: true,
      allowAwaitOutsideFunction: true,
      allowHashBang: true,
    })
  } catch (e) {
    if (e instanceof SyntaxError) {
      const loc = (e as SyntaxError & { loc?: { line: number; column: number } }).loc
      const message = e.message.replace(/ \(\d+:\d+\)$/, "")
      return parseError(`SyntaxError: ${message}`, loc ? { line: loc.line, column: loc.column + 1 } : undefined)
    }
    if (e instanceof TooDeep) return parseError(tooDeepMessage, locator(code)(e.offset))
    if (e instanceof RangeError) return parseError(`The program nests syntax too deeply to parse`)
    throw e
  }
  const locate = locator(code)
  const deep = tooDeep(program)
  if (deep !== undefined) return parseError(tooDeepMessage, locate(deep.start))
  return { ok: true, program, locate }
}
