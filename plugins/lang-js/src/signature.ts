/**
 * How JavaScript programs see tool signatures: TypeScript-like, `tools.orders.lookup(input: { id: string }):
 * Promise<{ status: string }>`, with `/** doc *\/` comments before fields.
 */
import type { Signature } from "@codemode/core/plugin"

const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/

const escapeDoc = (line: string) => line.replace(/\*\//g, "*\\/")

/** The JavaScript dialect of signatures. */
export const dialect: Signature.Dialect = {
  name: "javascript",
  searchSignature:
    "search(input: string | { query?: string; namespace?: string; limit?: number; offset?: number }): " +
    "{ items: Array<{ path: string; description: string; signature: string }>; remaining: number; " +
    "next: { offset: number } | null }",
  isName: (segment) => identifier.test(segment),
  any: "unknown",
  null: "null",
  void: "void",
  integer: "number",
  separator: ";",
  comment: (lines, indent) =>
    lines.length === 0
      ? ""
      : lines.length === 1
        ? `${indent}/** ${escapeDoc(lines[0])} */\n`
        : `${indent}/**\n${lines.map((l) => `${indent} * ${escapeDoc(l)}`).join("\n")}\n${indent} */\n`,
  trailingComment: () => "",
  key: (name) => (identifier.test(name) ? name : JSON.stringify(name)),
  record: (value) => `Record<string, ${value}>`,
  result: (type) => `Promise<${type}>`,
  call: (expression, input, output) => `${expression}(input: ${input}): ${output}`,
  lineComment: (text) => `// ${text}`,
}
