/**
 * Parsing: acorn with the options the execution model needs (modules, top-level `await` and `return`, locations),
 * plus the interpreter's bounds on source size and syntax depth.
 */
import { parse as acornParse } from "acorn"
import { MAX_SOURCE_LENGTH, MAX_SYNTAX_DEPTH } from "./limits.js"
import type { Diagnostic, Location } from "./protocol.js"

/** An ESTree node as acorn produces it (the compiler reads nodes structurally). */
export type Node = any

/** A parsed program, or the diagnostic that explains why it could not be parsed. */
export type Parsed =
  | { readonly ok: true; readonly program: Node }
  | { readonly ok: false; readonly diagnostic: Diagnostic }

/** The 1-based location of a node's start. */
export const locationOf = (node: Node): Location => ({ line: node.loc.start.line, column: node.loc.start.column + 1 })

const parseError = (message: string, location?: Location): Parsed => ({
  ok: false,
  diagnostic: location ? { kind: "ParseError", message, location } : { kind: "ParseError", message },
})

/** The deepest nesting of syntax nodes below `root`. */
const syntaxDepth = (root: Node): number => {
  let max = 0
  const stack: Array<[Node, number]> = [[root, 1]]
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!
    if (depth > max) max = depth
    if (depth > MAX_SYNTAX_DEPTH) return depth
    for (const key in node) {
      if (key === "loc" || key === "start" || key === "end" || key === "type") continue
      const child = node[key]
      if (Array.isArray(child)) {
        for (const c of child)
          if (c !== null && typeof c === "object" && typeof c.type === "string") stack.push([c, depth + 1])
      } else if (child !== null && typeof child === "object" && typeof child.type === "string") {
        stack.push([child, depth + 1])
      }
    }
  }
  return max
}

/** The node nested deepest, for locating a depth error. */
const deepestNode = (root: Node): Node => {
  const stack: Array<[Node, number]> = [[root, 1]]
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!
    if (depth > MAX_SYNTAX_DEPTH) return node
    for (const key in node) {
      if (key === "loc") continue
      const child = node[key]
      if (Array.isArray(child)) {
        for (const c of child)
          if (c !== null && typeof c === "object" && typeof c.type === "string") stack.push([c, depth + 1])
      } else if (child !== null && typeof child === "object" && typeof child.type === "string") {
        stack.push([child, depth + 1])
      }
    }
  }
  return root
}

/** Parse a program's source. */
export const parse = (code: string): Parsed => {
  if (typeof code !== "string" || code.trim() === "")
    return parseError("The program is empty: write at least one statement")
  if (code.length > MAX_SOURCE_LENGTH) {
    return parseError(`The program is ${code.length} characters long; the limit is ${MAX_SOURCE_LENGTH}`)
  }
  let program: Node
  try {
    program = acornParse(code, {
      ecmaVersion: "latest",
      sourceType: "module",
      allowReturnOutsideFunction: true,
      allowAwaitOutsideFunction: true,
      allowHashBang: true,
      locations: true,
    })
  } catch (e) {
    if (e instanceof SyntaxError) {
      const loc = (e as SyntaxError & { loc?: { line: number; column: number } }).loc
      const message = e.message.replace(/ \(\d+:\d+\)$/, "")
      return parseError(`SyntaxError: ${message}`, loc ? { line: loc.line, column: loc.column + 1 } : undefined)
    }
    if (e instanceof RangeError) return parseError(`The program nests syntax too deeply to parse`)
    throw e
  }
  if (syntaxDepth(program) > MAX_SYNTAX_DEPTH) {
    return parseError(
      `The program nests syntax deeper than ${MAX_SYNTAX_DEPTH} levels; split long expressions into statements`,
      locationOf(deepestNode(program)),
    )
  }
  return { ok: true, program }
}
