/**
 * Progress per tool call: a tool tree whose tools tell the execution's `CallReporter` (when one is provided) each
 * time a program calls them, so an MCP client sees one progress notification per call while the program runs.
 */
import { Namespace, Tool } from "@codemode/core"
import { Context, Effect, Option } from "effect"

/**
 * Told of each tool call an execution makes, before the tool runs (after its input was decoded and admitted). The
 * call waits for the returned promise, so a reader that falls behind slows the program instead of growing a buffer;
 * a rejection is ignored.
 */
export class CallReporter extends Context.Service<
  CallReporter,
  { readonly report: (path: string) => Promise<unknown> | undefined }
>()("@codemode/mcp/CallReporter") {}

const reporting = (tool: Tool.Any, path: string): Tool.Any =>
  Tool.make({
    description: tool.description,
    input: tool.input,
    ...(tool.output !== undefined ? { output: tool.output } : {}),
    execute: (input: unknown) =>
      Effect.flatMap(Effect.serviceOption(CallReporter), (reporter) =>
        Option.isNone(reporter)
          ? tool.execute(input)
          : Effect.andThen(
              Effect.promise(() => Promise.resolve(reporter.value.report(path)).catch(() => undefined)),
              tool.execute(input),
            ),
      ),
  })

/**
 * The same tree, with every tool reporting its calls. Structure, names, descriptions and schemas are unchanged;
 * invalid trees are left for `CodeMode.make` to refuse with its own message.
 */
export const reportingTree = (tree: Namespace.Tree): Namespace.Tree => {
  const visit = (node: unknown, path: ReadonlyArray<string>): unknown => {
    if (Tool.isTool(node)) return reporting(node, path.join("."))
    if (Namespace.isNamespace(node))
      return Namespace.make({
        ...(node.description !== undefined ? { description: node.description } : {}),
        tools: visit(node.tools, path) as Namespace.Tree,
      })
    if (typeof node !== "object" || node === null || Array.isArray(node)) return node
    const out: Record<string, unknown> = {}
    for (const key of Object.keys(node)) out[key] = visit((node as Record<string, unknown>)[key], [...path, key])
    return out
  }
  return visit(tree, []) as Namespace.Tree
}
