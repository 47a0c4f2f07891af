/**
 * The host's prompt: the language guide and a summary of the catalog within a token budget.
 *
 * The summary lists every group of tools (the tools of one namespace, and within a namespace the tools whose names
 * share a prefix before `/`, such as GitHub's `repos/...`) with its tool count and description, then brief
 * signatures of the most general tools of each group, taken round-robin so every group is represented early. It
 * says whether the list is COMPLETE (every tool has its signature there) or PARTIAL, and that `search` inside the
 * program finds the rest. A token is counted as 4 characters.
 */
import type { Definition } from "./Language.js"
import { checkKeys } from "./Options.js"
import type { Renderer } from "./Search.js"
import * as Signature from "./Signature.js"
import type { Entry } from "./ToolTree.js"
import * as Words from "./Words.js"

/** Options of `runtime.instructions`. */
export interface Options {
  /** The most tokens (4 characters each) the text may take; default 2,000. */
  readonly budgetTokens?: number
}

/** The budget when the host gives none. */
export const defaultBudgetTokens = 2_000

/** The longest brief signature listed, in characters; longer ones are left to `search`. */
const maxBriefSignature = 480

/** The shortest room worth trying one more signature in, in characters. */
const minimumLine = 60

/** The longest group description shown, in characters. */
const maxGroupDescription = 100

interface Group {
  /** The namespace path, `""` at the top level. */
  readonly namespace: string
  /** The name prefix before `/` shared by the group's tools, or undefined. */
  readonly family: string | undefined
  readonly entries: Entry[]
}

const groupKey = (entry: Entry): { namespace: string; family: string | undefined } => {
  const namespace = entry.segments.slice(0, -1).join(".")
  const name = entry.segments[entry.segments.length - 1]
  const slash = name.indexOf("/")
  return { namespace, family: slash > 0 ? name.slice(0, slash) : undefined }
}

/** The groups of a catalog, in path order. */
const groupsOf = (entries: ReadonlyArray<Entry>): ReadonlyArray<Group> => {
  const groups = new Map<string, Group>()
  for (const entry of entries) {
    const { namespace, family } = groupKey(entry)
    const key = `${namespace}\u0000${family ?? ""}`
    let group = groups.get(key)
    if (!group) {
      group = { namespace, family, entries: [] }
      groups.set(key, group)
    }
    group.entries.push(entry)
  }
  return [...groups.values()].sort((a, b) => compare(label(a, "."), label(b, ".")))
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

const label = (group: Group, joiner: string) =>
  group.family === undefined ? group.namespace : `${group.namespace}${joiner}${group.family}`

/** How a group is written: `tools.orders`, `tools.github["repos/..."]`, or `tools` for the top level. */
const expression = (group: Group, dialect: Signature.Dialect): string => {
  const base = group.namespace === "" ? "tools" : Signature.toolExpression(group.namespace, dialect)
  return group.family === undefined ? base : `${base}[${JSON.stringify(`${group.family}/...`)}]`
}

const shorten = (text: string, max: number): string => {
  const line = text.split("\n")[0].trim()
  if (line.length <= max) return line
  const space = line.lastIndexOf(" ", max - 1)
  return `${line.slice(0, space > max / 2 ? space : max - 1)}…`
}

/** Where an operation's verb puts it: listing and reading come first (they lead to the rest), deleting last. */
const verbOrder: ReadonlyMap<string, number> = new Map(
  (
    [
      ["list", 0],
      ["search", 0],
      ["get", 1],
      ["read", 1],
      ["create", 2],
      ["add", 2],
      ["update", 3],
      ["set", 3],
      ["delete", 5],
      ["remove", 5],
    ] as const
  ).map(([verb, order]) => [Words.stem(verb), order]),
)

const verbRank = (entry: Entry) => {
  for (const word of Words.words(entry.segments[entry.segments.length - 1])) {
    const order = verbOrder.get(Words.stem(word))
    if (order !== undefined) return order
  }
  return 4
}

/**
 * The most useful tools first: fewer words in the name (`repos/get` before `repos/get-branch-protection`), then
 * by verb (lists, reads, creations, updates, others, deletions), then shorter paths, then path order.
 */
const generality = (a: Entry, b: Entry) =>
  Words.words(a.segments[a.segments.length - 1]).length - Words.words(b.segments[b.segments.length - 1]).length ||
  verbRank(a) - verbRank(b) ||
  a.path.length - b.path.length ||
  compare(a.path, b.path)

const validate = (options: Options | undefined): number => {
  if (options === undefined) return defaultBudgetTokens
  if (typeof options !== "object" || options === null)
    throw new TypeError("instructions expects { budgetTokens? } or nothing")
  checkKeys("instructions options", options, ["budgetTokens"])
  const budget = options.budgetTokens ?? defaultBudgetTokens
  if (typeof budget !== "number" || !Number.isInteger(budget) || budget < 1)
    throw new RangeError(`instructions: budgetTokens must be a positive whole number, got ${String(budget)}`)
  return budget
}

/**
 * The guide of `language` followed by a summary of `entries` within `options.budgetTokens`. The guide and the
 * catalog's header are always included, even when they alone exceed a very small budget.
 */
export const make = (
  language: Definition,
  entries: ReadonlyArray<Entry>,
  render: Renderer,
  options?: Options,
): string => {
  const budgetChars = validate(options) * 4
  const dialect = language.dialect
  const guide = language.instructions.trim()
  if (entries.length === 0) return `${guide}\n\nThere are no tools.`
  const groups = groupsOf(entries)
  const plural = (n: number, word: string) => `${n.toLocaleString("en-US")} ${word}${n === 1 ? "" : "s"}`
  const header = (complete: boolean, shown: number) =>
    complete
      ? `${plural(entries.length, "tool")} in ${plural(groups.length, "group")}. This list is COMPLETE: every tool's signature is below.`
      : `${plural(entries.length, "tool")} in ${plural(groups.length, "group")}. This list is PARTIAL: ${shown} of them have a signature below. ` +
        `Call search("what you need") inside the program to find the others, and search("<exact path>") for a full signature.`
  const groupLines = groups.map((group) => {
    const description = group.entries[0].namespaceDescriptions.at(-1)
    const described = description && group.family === undefined ? ` — ${shorten(description, maxGroupDescription)}` : ""
    return `- ${expression(group, dialect)}: ${plural(group.entries.length, "tool")}${described}`
  })

  // Round-robin over the groups, largest first, each in order of generality.
  const queues = [...groups]
    .sort((a, b) => b.entries.length - a.entries.length || compare(label(a, "."), label(b, ".")))
    .map((g) => [...g.entries].sort(generality))
  const fixed = (complete: boolean, shown: number, lines: ReadonlyArray<string>) =>
    [guide, `## Tools\n${header(complete, shown)}`, lines.join("\n")].join("\n\n").length
  // Listing every group comes first; groups that do not fit are counted in one line.
  const folded = (shown: number) =>
    shown === groupLines.length
      ? groupLines
      : [...groupLines.slice(0, shown), `- … ${groupLines.length - shown} more groups (search finds their tools)`]
  let shownGroups = groupLines.length
  while (shownGroups > 0 && fixed(false, 0, folded(shownGroups)) > budgetChars) shownGroups--
  const listed = folded(shownGroups)

  // Everything with full signatures, when it fits, is the COMPLETE list.
  if (shownGroups === groupLines.length) {
    const start = [guide, `## Tools\n${header(true, entries.length)}`, listed.join("\n")].join("\n\n")
    const all: string[] = []
    let length = start.length + "\n\nSignatures:".length
    for (const entry of entries) {
      const full = render.full(entry)
      length += full.length + 1
      if (length > budgetChars) break
      all.push(full)
    }
    if (all.length === entries.length) return `${start}\n\nSignatures:\n${all.join("\n")}`
  }
  const signatures: string[] = []
  const title = "Signatures (brief; search gives the full ones):"
  let used = fixed(false, 0, listed) + title.length + 3
  // Tools whose signature does not fit are passed over, until the room left is too small or two rounds in a row
  // fit nothing.
  let idleRounds = 0
  while (used + minimumLine <= budgetChars && idleRounds < 2 && queues.some((q) => q.length > 0)) {
    let added = false
    for (const queue of queues) {
      const entry = queue.shift()
      if (!entry) continue
      const brief = Signature.renderBrief(entry.path, entry.inputType, entry.outputType, dialect, maxBriefSignature)
      if (brief === undefined || used + brief.length + 1 > budgetChars) continue
      signatures.push(brief)
      used += brief.length + 1
      added = true
    }
    idleRounds = added ? 0 : idleRounds + 1
  }
  const parts = [guide, `## Tools\n${header(false, signatures.length)}`, listed.join("\n")]
  if (signatures.length) parts.push(`${title}\n${signatures.join("\n")}`)
  return parts.join("\n\n")
}
