/**
 * Printing for terminals: a `CodeMode.Result` as readable text (value, tool calls, logs, warnings, timing), and the
 * catalog and search hits the `codemode` command shows.
 */
import type { CodeMode, Search } from "@codemode/core"

const indent = (text: string, prefix: string) =>
  text
    .split("\n")
    .map((line) => prefix + line)
    .join("\n")

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`

/** The first line of a description. */
export const firstLine = (text: string): string => text.split("\n", 1)[0] ?? ""

/** A `Result` as text: outcome and timing, the value as JSON, every tool call, logs and warnings. */
export const formatResult = (result: CodeMode.Result, durationMs?: number): string => {
  const timing = durationMs === undefined ? "" : ` in ${Math.round(durationMs)} ms`
  const calls = result.toolCalls
  const lines: string[] = []
  if (result.ok) {
    lines.push(`ok${timing}, ${plural(calls.length, "tool call")}`)
    lines.push("value:", indent(JSON.stringify(result.value, null, 2), "  "))
  } else {
    const where = result.error.location
      ? ` (line ${result.error.location.line}, column ${result.error.location.column})`
      : ""
    lines.push(`failed${timing}, ${plural(calls.length, "tool call")}`)
    lines.push(`error: ${result.error.kind}: ${result.error.message}${where}`)
  }
  if (calls.length > 0) {
    lines.push("tool calls:")
    const width = Math.max(...calls.map((c) => c.name.length))
    calls.forEach((call, i) => {
      const number = String(i + 1).padStart(String(calls.length).length)
      const time = `${call.durationMs.toFixed(call.durationMs < 10 ? 1 : 0)} ms`.padStart(8)
      const error = call.error ? `  ${call.error}` : ""
      lines.push(`  ${number}. ${call.name.padEnd(width)}  ${call.status.padEnd(11)}${time}${error}`)
    })
  }
  if (result.logs && result.logs.length > 0) lines.push("logs:", ...result.logs.map((l) => indent(l, "  ")))
  if (result.ok && result.warnings && result.warnings.length > 0)
    lines.push("warnings:", ...result.warnings.map((w) => `  ${w.kind}: ${w.message}`))
  if (result.truncated) lines.push("(output was truncated by maxOutputBytes)")
  return lines.join("\n")
}

/** Search hits as text: path and description, then the signature, for each hit. */
export const formatHits = (page: Search.Page): string => {
  if (page.items.length === 0) return "no tools match"
  const blocks = page.items.map(
    (item, i) => `${i + 1}. ${item.path}: ${firstLine(item.description)}\n${indent(item.signature, "   ")}`,
  )
  if (page.remaining > 0) blocks.push(`(${page.remaining} more)`)
  return blocks.join("\n\n")
}
