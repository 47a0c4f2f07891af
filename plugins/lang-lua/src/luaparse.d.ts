/** The part of luaparse's API this package uses (the package ships no types). */
declare module "luaparse" {
  export interface ParseOptions {
    luaVersion?: "5.1" | "5.2" | "5.3" | "LuaJIT"
    encodingMode?: "none" | "pseudo-latin1" | "x-user-defined"
    locations?: boolean
    ranges?: boolean
    comments?: boolean
    scope?: boolean
    onCreateNode?: (node: Node) => void
  }
  /** A syntax node; the fields depend on `type`. */
  export interface Node {
    readonly type: string
    readonly loc?: { readonly start: { line: number; column: number }; readonly end: { line: number; column: number } }
    readonly range?: readonly [number, number]
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    readonly [field: string]: any
  }
  export interface Chunk extends Node {
    readonly type: "Chunk"
    readonly body: ReadonlyArray<Node>
  }
  export function parse(source: string, options?: ParseOptions): Chunk
  const luaparse: { parse: typeof parse }
  export default luaparse
}
