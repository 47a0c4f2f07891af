/**
 * Parsing: the program's UTF-8 bytes → luaparse's syntax tree, with the sandbox's source bounds (size and syntax
 * depth) and Lua-worded parse errors.
 */
import { createRequire } from "node:module"
import type { Chunk, Node, ParseOptions } from "luaparse"
import { LuaFatal } from "./errors.js"
import type { Diagnostic } from "@codemode/core/sandbox"
import { parserSource } from "./literals.js"
import { CHUNK_NAME } from "./runtime.js"
import { utf8Encode } from "./utf8.js"

/**
 * luaparse is CommonJS. Required, it loads in a few milliseconds; imported as a module, Node first scans its whole
 * source for the names it exports, which adds about 20 ms to every sandbox's start.
 */
const luaparse = createRequire(import.meta.url)("luaparse") as {
  parse: (source: string, options: ParseOptions) => Chunk
}

/** The largest program source, in UTF-8 bytes. */
export const MAX_SOURCE_BYTES = 1024 * 1024
/** The deepest nesting of syntax (statements, blocks and expressions inside one another). */
export const MAX_SYNTAX_DEPTH = 200

/** A parsed program: the syntax tree and the byte string it was parsed from (ranges index into it). */
export interface Parsed {
  readonly chunk: Chunk
  readonly source: string
  /** Where a node starts: its 1-based line and 0-based byte column (luaparse is run without locations). */
  readonly start: (node: Node) => Position
  /** The position of a byte offset (a node's start is `start(node)`). */
  readonly position: (offset: number) => Position
}

/** A 1-based line and a 0-based byte column. */
export interface Position {
  readonly line: number
  readonly column: number
}

/**
 * The start of every line of `source` (a line ends at `\n`, `\r`, `\r\n` or `\n\r`, as Lua's lexer counts), so
 * that positions come from node ranges: luaparse's own locations cost an object per node.
 */
const lineStarts = (source: string): Array<number> => {
  const starts = [0]
  for (let i = 0; i < source.length; i++) {
    const c = source.charCodeAt(i)
    if (c !== 10 && c !== 13) continue
    const d = source.charCodeAt(i + 1)
    if ((d === 10 || d === 13) && d !== c) i++
    starts.push(i + 1)
  }
  return starts
}

/**
 * The position finder for `source`. The line starts are found on the first question (most runs ask none: positions
 * are for diagnostics); until then it keeps the source.
 */
const positions = (source: string): Parsed["position"] => {
  let text: string | undefined = source
  let starts: Array<number> = []
  return (offset) => {
    if (text !== undefined) {
      starts = lineStarts(text)
      text = undefined
    }
    let lo = 0
    let hi = starts.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (starts[mid] <= offset) lo = mid
      else hi = mid - 1
    }
    return { line: lo + 1, column: offset - starts[lo] }
  }
}

/** Thrown for a program that cannot be parsed; carries the diagnostic. */
export class ParseFailure {
  constructor(readonly diagnostic: Diagnostic) {}
}

const parseError = (message: string, line?: number, column?: number): ParseFailure =>
  new ParseFailure(
    line === undefined
      ? { kind: "ParseError", message }
      : { kind: "ParseError", message, location: { line, column: column ?? 1 } },
  )

/** The error for a deadline that passed while the program was being compiled. */
export const compileTimeout = (): LuaFatal =>
  new LuaFatal("TimeoutExceeded", "the execution timed out while compiling the program", undefined)

/**
 * Parse `code` (a JS string) as a Lua chunk, or throw a {@link ParseFailure}; past `deadline` (a `Date.now()` time)
 * it throws the timeout instead.
 */
export const parse = (code: string, deadline = Infinity): Parsed => {
  if (code.trim().length === 0)
    throw parseError("the program is empty: write Lua statements ending with `return <value>`")
  const source = utf8Encode(code)
  if (source.length > MAX_SOURCE_BYTES)
    throw parseError(
      `the program is ${source.length} bytes long, over the source limit of ${MAX_SOURCE_BYTES} bytes (1 MiB)`,
    )
  let chunk: Chunk
  let nodes = 0
  try {
    chunk = luaparse.parse(parserSource(source), {
      luaVersion: "5.3",
      encodingMode: "pseudo-latin1",
      locations: false,
      ranges: true,
      comments: false,
      onCreateNode:
        deadline === Infinity
          ? undefined
          : () => {
              if ((++nodes & 4095) === 0 && Date.now() > deadline) throw compileTimeout()
            },
    })
  } catch (e) {
    if (e instanceof RangeError)
      throw parseError(`the program nests too deeply (the syntax depth limit is ${MAX_SYNTAX_DEPTH} levels)`)
    throw translateSyntaxError(e, source)
  }
  const position = positions(source)
  const start = (node: Node) => position(node.range?.[0] ?? 0)
  checkDepth(chunk, start)
  return { chunk, source, start, position }
}

/** Turn luaparse's `[line:col] message` error into a Lua-worded ParseError. */
const translateSyntaxError = (e: unknown, source: string): ParseFailure => {
  const err = e as { message?: string; line?: number; column?: number; index?: number }
  if (typeof err?.message !== "string" || typeof err.line !== "number") throw e
  const line = err.line
  const column = (err.column ?? 0) + 1
  const rest = typeof err.index === "number" ? source.slice(err.index, err.index + 40) : ""
  const attribute = /^<\s*(const|close)\s*>/.exec(rest)
  if (attribute !== null)
    return parseError(
      `${CHUNK_NAME}:${line}: the Lua 5.4 attribute <${attribute[1]}> is not supported in this sandbox (its parser, ` +
        `luaparse, reads Lua 5.3 syntax); declare a plain local instead`,
      line,
      column,
    )
  let message = err.message.replace(/^\[\d+:\d+\]\s*/, "")
  const hint = typeof err.index === "number" ? syntaxHint(source, err.index) : undefined
  if (hint !== undefined) message += `; ${hint}`
  // Lua names the goto's line in these two messages.
  if (/^no visible label '.*' for <goto>$/.test(message)) message += ` at line ${line}`
  if (/^no loop to break/.test(message)) message = `break outside a loop at line ${line}`
  message = message.replace(/^(<goto [^>]*>) jumps into the scope/, `$1 at line ${line} jumps into the scope`)
  return parseError(`${CHUNK_NAME}:${line}: ${message}`, line, column)
}

/**
 * What a model that writes another language's syntax needs to hear, for the syntax error at `index`: Lua's
 * `continue` (there is none), `!=`, `!`, `//` comments, `+=` and `++`.
 */
const syntaxHint = (source: string, index: number): string | undefined => {
  const before = source.slice(Math.max(0, index - 40), index)
  if (/\bcontinue\s*$/.test(before))
    return "Lua has no continue statement: put a label `::continue::` at the end of the loop body and write `goto continue`"
  const at = source.slice(index, index + 2)
  if (at === "!=") return "Lua writes not-equal as `~=`"
  if (at[0] === "!") return "Lua writes logical negation as `not`"
  if (at === "//") return "Lua comments start with `--` (`//` is floor division)"
  if (/^[-+*/%]=/.test(at) || at === "++") return "Lua has no compound assignment or `++`: write `x = x + 1`"
  return undefined
}

/**
 * The fields that hold the syntax nodes inside a node, by node type, in luaparse's order (a large program has a
 * million nodes: naming the fields is faster than listing every node's keys). A type missing here has its keys
 * listed.
 */
const CHILDREN = new Map<string, ReadonlyArray<string>>([
  ["Chunk", ["body"]],
  ["Identifier", []],
  ["NumericLiteral", []],
  ["StringLiteral", []],
  ["BooleanLiteral", []],
  ["NilLiteral", []],
  ["VarargLiteral", []],
  ["BreakStatement", []],
  ["LabelStatement", ["label"]],
  ["GotoStatement", ["label"]],
  ["ReturnStatement", ["arguments"]],
  ["IfStatement", ["clauses"]],
  ["IfClause", ["condition", "body"]],
  ["ElseifClause", ["condition", "body"]],
  ["ElseClause", ["body"]],
  ["WhileStatement", ["condition", "body"]],
  ["DoStatement", ["body"]],
  ["RepeatStatement", ["condition", "body"]],
  ["LocalStatement", ["variables", "init"]],
  ["AssignmentStatement", ["variables", "init"]],
  ["CallStatement", ["expression"]],
  ["FunctionDeclaration", ["identifier", "parameters", "body"]],
  ["ForNumericStatement", ["variable", "start", "end", "step", "body"]],
  ["ForGenericStatement", ["variables", "iterators", "body"]],
  ["TableKey", ["key", "value"]],
  ["TableKeyString", ["key", "value"]],
  ["TableValue", ["value"]],
  ["TableConstructorExpression", ["fields"]],
  ["BinaryExpression", ["left", "right"]],
  ["LogicalExpression", ["left", "right"]],
  ["UnaryExpression", ["argument"]],
  ["MemberExpression", ["identifier", "base"]],
  ["IndexExpression", ["base", "index"]],
  ["CallExpression", ["base", "arguments"]],
  ["TableCallExpression", ["base", "arguments"]],
  ["StringCallExpression", ["base", "argument"]],
])

/** The keys of a node of a type missing from {@link CHILDREN} that may hold syntax nodes. */
const keysOf = (node: Node): Array<string> =>
  Object.keys(node).filter((k) => k !== "loc" && k !== "range" && k !== "type" && k !== "raw" && k !== "name")

/** Syntax nodes that do not add a nesting level of their own (they only group their parent's parts). */
const transparent = new Set(["IfClause", "ElseifClause", "ElseClause", "TableKey", "TableKeyString", "TableValue"])

/** Reject syntax nested deeper than {@link MAX_SYNTAX_DEPTH} levels (iteratively: the tree may be very deep). */
const checkDepth = (chunk: Chunk, start: Parsed["start"]): void => {
  const nodes: Array<Node> = [chunk]
  const depths: Array<number> = [0]
  while (nodes.length > 0) {
    const node = nodes.pop()!
    const depth = depths.pop()!
    if (depth > MAX_SYNTAX_DEPTH) {
      const { line, column } = start(node)
      throw parseError(
        `${CHUNK_NAME}:${line}: the program nests too deeply: syntax depth exceeds the limit of ${MAX_SYNTAX_DEPTH} levels`,
        line,
        column + 1,
      )
    }
    const keys = CHILDREN.get(node.type) ?? keysOf(node)
    if (keys.length === 0) continue
    const next = transparent.has(node.type) ? depth : depth + 1
    for (let k = 0; k < keys.length; k++) {
      const child = node[keys[k]]
      if (child === null || typeof child !== "object") continue
      if (Array.isArray(child)) {
        for (let i = 0; i < child.length; i++) {
          const c = child[i]
          if (c !== null && typeof c === "object" && typeof c.type === "string") {
            nodes.push(c)
            depths.push(next)
          }
        }
      } else if (typeof child.type === "string") {
        nodes.push(child)
        depths.push(next)
      }
    }
  }
}

/**
 * Finds parentheses around expressions. luaparse drops them from the tree, but `(f())` keeps only the first value of
 * `f()`, so the compiler asks whether the character before an expression (skipping blanks and comments) is `(`.
 */
export class ParenFinder {
  private comment: Uint8Array | undefined

  constructor(private readonly source: string) {}

  /** Answers of {@link before} by position: many nodes start at one position (`a.b.c`), each asks once. */
  private readonly known = new Map<number, number>()

  /** The position of the last significant character before `pos`, or -1. */
  before(pos: number): number {
    const known = this.known.get(pos)
    if (known !== undefined) return known
    const found = this.scanBefore(pos)
    this.known.set(pos, found)
    return found
  }

  private scanBefore(pos: number): number {
    const mask = this.commentMask()
    const s = this.source
    let i = pos - 1
    while (i >= 0) {
      const c = s.charCodeAt(i)
      if (mask[i] === 1 || c === 32 || (c >= 9 && c <= 13)) i--
      else return i
    }
    return -1
  }

  /** The position of the first significant character at or after `pos`, or the source length. */
  after(pos: number): number {
    const mask = this.commentMask()
    const s = this.source
    let i = pos
    while (i < s.length) {
      const c = s.charCodeAt(i)
      if (mask[i] === 1 || c === 32 || (c >= 9 && c <= 13)) i++
      else return i
    }
    return i
  }

  /** True when `node` is wrapped in parentheses other than the one at `ownParen` (a call's argument list). */
  isParenthesised(node: Node, ownParen = -1): boolean {
    const p = this.before(node.range![0])
    return p >= 0 && p !== ownParen && this.source.charCodeAt(p) === 40
  }

  /** Marks every byte inside a comment (computed once, on first use). */
  private commentMask(): Uint8Array {
    if (this.comment !== undefined) return this.comment
    const s = this.source
    const mask = new Uint8Array(s.length)
    let i = 0
    const longBracket = (at: number): number => {
      // returns the level of a long bracket `[==[` starting at `at`, or -1
      if (s[at] !== "[") return -1
      let j = at + 1
      while (s[j] === "=") j++
      return s[j] === "[" ? j - at - 1 : -1
    }
    const skipLong = (at: number, level: number): number => {
      const close = "]" + "=".repeat(level) + "]"
      const end = s.indexOf(close, at + level + 2)
      return end < 0 ? s.length : end + close.length
    }
    while (i < s.length) {
      const c = s[i]
      if (c === "-" && s[i + 1] === "-") {
        const start = i
        const level = longBracket(i + 2)
        if (level >= 0) i = skipLong(i + 2, level)
        else {
          const nl = s.indexOf("\n", i)
          i = nl < 0 ? s.length : nl
        }
        mask.fill(1, start, i)
      } else if (c === '"' || c === "'") {
        i++
        while (i < s.length && s[i] !== c && s[i] !== "\n") i += s[i] === "\\" ? 2 : 1
        i++
      } else if (c === "[") {
        const level = longBracket(i)
        i = level >= 0 ? skipLong(i, level) : i + 1
      } else i++
    }
    this.comment = mask
    return mask
  }
}
