/**
 * The globals that reach the host: `tools` (built from the tool tree's shape), `search`, and extension globals.
 * Each call converts its Lua arguments to data, blocks on the host, and converts the answer back. An ordinary host
 * failure is a Lua error (`pcall` sees its message); a fatal one (limits, timeout, interruption) ends the run.
 */
import { fromData, toData, DataProblem } from "../data.js"
import { LuaError, LuaFatal } from "../errors.js"
import type {
  DataValue,
  ExtensionShape,
  GlobalShape,
  HostCall,
  Kind,
  ResultFunction,
  SandboxHost,
  ToolShape,
} from "@codemode/core/sandbox"
import { errorAt, locationOf, rt } from "../runtime.js"
import { utf8Encode } from "../utf8.js"
import { LuaTable, type LuaFunction, type LuaValue } from "../value.js"

/** Convert a program value to data for the host; a bound overflow is fatal, other problems are `kind` errors. */
const argumentData = (v: LuaValue, what: string, kind: Kind, site: number): DataValue => {
  try {
    return toData(v)
  } catch (e) {
    if (!(e instanceof DataProblem)) throw e
    const message = `${what} cannot cross to the host: ${e.reason} at ${e.path}`
    if (e.bound) throw new LuaFatal(kind, message, locationOf(site))
    // A Lua error value is a byte string: the path may hold non-ASCII keys.
    throw errorAt(utf8Encode(message), site, kind)
  }
}

/** Make the call and turn its outcome into a Lua value or an error at `site`. */
const callHost = (host: SandboxHost, call: HostCall, site: number): LuaValue => {
  rt.hostCalls++
  const outcome = host.call(call)
  rt.site = site
  if (outcome.ok) {
    let value: LuaValue
    try {
      value = fromData(outcome.value)
    } catch (e) {
      if (e instanceof DataProblem)
        throw new LuaFatal("InvalidToolOutput", `the host's answer ${e.message}`, locationOf(site))
      throw e
    }
    return outcome.functions === undefined || call.kind !== "extension"
      ? value
      : withFunctions(value, outcome.functions, call.extension, host)
  }
  const failure = outcome.error
  if (failure.fatal) throw new LuaFatal(failure.kind, failure.message, locationOf(site))
  // The host's message enters Lua as the UTF-8 bytes of its text, like every other string.
  throw new LuaError(utf8Encode(failure.message), locationOf(site), failure.kind)
}

/** Lua source for a tool path, e.g. `tools.orders["lookup-by-id"]` (segments and result are byte strings). */
export const luaToolExpression = (segments: ReadonlyArray<string>): string =>
  "tools" + segments.map((s) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(s) ? `.${s}` : `[${JSON.stringify(s)}]`)).join("")

/** A namespace of a tool tree, prepared once per shape: its keys (UTF-8 bytes) and their tools or namespaces. */
interface PreparedNamespace {
  readonly keys: ReadonlyArray<string>
  readonly values: ReadonlyArray<LuaFunction | PreparedNamespace>
  readonly guard: (k: LuaValue, site: number) => never
}

/**
 * The host of the run in progress, which the tool functions call: they are made once per tool tree and serve every
 * run of it (a Lua function holds no state a program can change, and no value outlives its run).
 */
let toolHost: SandboxHost | undefined

/** Tool trees already prepared, by shape (the sandbox keeps one shape object per runtime). */
const preparedTrees = new WeakMap<ToolShape, PreparedNamespace>()

/** Prepare the namespace `node` at `prefix` (Lua segments) and `hostPath` (the host's names). */
const prepare = (
  node: ToolShape,
  prefix: ReadonlyArray<string>,
  hostPath: ReadonlyArray<string>,
): PreparedNamespace => {
  const keys: string[] = []
  const values: Array<LuaFunction | PreparedNamespace> = []
  for (const name of Object.keys(node)) {
    const child = node[name]
    // The program names tools with byte strings: keys and the segments shown in messages are UTF-8 bytes.
    const key = utf8Encode(name)
    keys.push(key)
    if (child === true) {
      const path = [...hostPath, name].join(".")
      values.push(function (input: LuaValue) {
        const site = rt.site
        const data = input === undefined ? {} : argumentData(input, `the input of ${path}`, "InvalidToolInput", site)
        return callHost(toolHost!, { kind: "tool", path, input: data }, site)
      })
    } else values.push(prepare(child, [...prefix, key], [...hostPath, name]))
  }
  const where = prefix.length === 0 ? "tools" : luaToolExpression(prefix)
  const guard = (k: LuaValue, site: number): never => {
    const shown = typeof k === "string" ? luaToolExpression([...prefix, k]) : `${where}[${String(k)}]`
    throw errorAt(
      `unknown tool ${shown}: no tool or namespace '${String(k)}' in ${where}; ` +
        `use search({ query = "..." }) to find the exact path`,
      site,
      "UnknownTool",
    )
  }
  return { keys, values, guard }
}

/** A fresh table of the prepared namespace (and fresh tables of its namespaces): a program may change them. */
const instantiate = (namespace: PreparedNamespace): LuaTable => {
  const t = new LuaTable()
  const { keys, values } = namespace
  for (let i = 0; i < keys.length; i++) {
    const v = values[i]
    t.setStr(keys[i], typeof v === "function" ? v : instantiate(v))
  }
  t.guard = namespace.guard
  return t
}

/**
 * The `tools` table for `shape`: namespaces are tables, tools are functions; unknown names raise UnknownTool. The
 * tables are new every run; names, paths and functions are made once per shape (1,200 tools: ~0.85 ms a run before).
 */
export const createTools = (shape: ToolShape, host: SandboxHost): LuaTable => {
  toolHost = host
  let prepared = preparedTrees.get(shape)
  if (prepared === undefined) {
    prepared = prepare(shape, [], [])
    preparedTrees.set(shape, prepared)
  }
  return instantiate(prepared)
}

/** The `search(args)` global. */
export const createSearch = (host: SandboxHost): LuaFunction =>
  function (input: LuaValue) {
    const site = rt.site
    const data = input === undefined ? {} : argumentData(input, "the search request", "InvalidToolInput", site)
    return callHost(host, { kind: "search", input: data }, site)
  }

/** A Lua function calling an extension function: a global by its dotted `name`, or one from a result by `handle`. */
const extensionFunction = (extension: string, name: string, host: SandboxHost, handle?: number): LuaFunction =>
  function (...args: Array<LuaValue>) {
    const site = rt.site
    const data = args.map((a, i) => argumentData(a, `argument #${i + 1} of ${name}`, "InvalidDataValue", site))
    const call: HostCall =
      handle === undefined
        ? { kind: "extension", extension, name, args: data }
        : { kind: "extension", extension, name, args: data, handle }
    return callHost(host, call, site)
  }

/** Put the functions an extension call returned where its result had them (`null` placeholders in the data). */
const withFunctions = (
  value: LuaValue,
  functions: ReadonlyArray<ResultFunction>,
  extension: string,
  host: SandboxHost,
): LuaValue => {
  let root = value
  for (const f of functions) {
    const fn = extensionFunction(extension, f.name, host, f.handle)
    if (f.path.length === 0) {
      root = fn
      continue
    }
    let t = root
    for (let i = 0; i < f.path.length - 1 && t instanceof LuaTable; i++) {
      const key = f.path[i]
      t = typeof key === "number" ? t.getInt(key + 1) : t.getStr(utf8Encode(key))
    }
    const last = f.path[f.path.length - 1]
    if (!(t instanceof LuaTable)) continue
    if (typeof last === "number") t.setInt(last + 1, fn)
    else t.setStr(utf8Encode(last), fn)
  }
  return root
}

/** One extension global: a function, or a table of functions (nested), calling the host by dotted name. */
export const createExtensionGlobal = (
  extension: ExtensionShape,
  name: string,
  shape: GlobalShape,
  host: SandboxHost,
): LuaValue => {
  if (typeof shape === "string") return extensionFunction(extension.name, name, host)
  const t = new LuaTable()
  for (const key of Object.keys(shape))
    t.setStr(utf8Encode(key), createExtensionGlobal(extension, `${name}.${key}`, shape[key], host))
  return t
}
