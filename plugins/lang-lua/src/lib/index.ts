/**
 * The program's global environment: the standard library, `json`, the host globals (`tools`, `search`, extension
 * globals), and clear errors for what is absent on purpose.
 */
import type { CompileEnv } from "../compile.js"
import { stringMeta } from "../ops.js"
import type { RunRequest, SandboxHost } from "../protocol.js"
import { errorAt } from "../runtime.js"
import { utf8DecodeLenient } from "../utf8.js"
import { Fields, LuaTable } from "../value.js"
import { installBase, ipairsIterator, next } from "./base.js"
import { createExtensionGlobal, createSearch, createTools } from "./host.js"
import { createJsonLib } from "./json.js"
import { createMathLib } from "./math.js"
import { createOsLib } from "./os.js"
import { createStringLib } from "./string.js"
import { createTableLib } from "./table.js"
import { createUtf8Lib } from "./utf8.js"

const unavailable = (what: string, why: string) => `${what} is not available in this sandbox (${why})`

/** Names absent on purpose → what using one says. */
export const ABSENT: ReadonlyMap<string, string> = new Map([
  ["load", unavailable("load", "no dynamic code loading")],
  ["loadstring", unavailable("loadstring", "no dynamic code loading")],
  ["loadfile", unavailable("loadfile", "no file access")],
  ["dofile", unavailable("dofile", "no file access")],
  ["require", unavailable("require", "there are no modules; use the globals provided")],
  ["module", unavailable("module", "there are no modules")],
  ["package", unavailable("package", "there are no modules")],
  ["io", unavailable("io", "no file or console access; return data, and use print for logs")],
  ["debug", unavailable("debug", "no debug library")],
  ["coroutine", unavailable("coroutine", "coroutines are not supported; tool calls already wait for their results")],
  ["setmetatable", unavailable("setmetatable", "metatables are not supported")],
  ["getmetatable", unavailable("getmetatable", "metatables are not supported")],
  ["collectgarbage", unavailable("collectgarbage", "memory is managed by the host")],
  ["unpack", "unpack is not a global in Lua 5.4: use table.unpack"],
  ["os.execute", unavailable("os.execute", "no process access")],
  ["os.exit", unavailable("os.exit", "no process access; use return to end the program")],
  ["os.getenv", unavailable("os.getenv", "no environment access")],
  ["os.remove", unavailable("os.remove", "no file access")],
  ["os.rename", unavailable("os.rename", "no file access")],
  ["os.tmpname", unavailable("os.tmpname", "no file access")],
  ["os.setlocale", unavailable("os.setlocale", "the C locale is fixed")],
  ["string.dump", unavailable("string.dump", "no bytecode")],
])

/** Build the globals for one run, talking to `host`. */
export const createEnvironment = (request: RunRequest, host: SandboxHost): CompileEnv => {
  const G = new LuaTable()
  G.fields = new Fields()
  installBase(G, (line) => host.log(utf8DecodeLenient(line)))
  const strings = createStringLib()
  strings.guard = (key, site) => {
    const message = typeof key === "string" ? ABSENT.get(`string.${key}`) : undefined
    if (message !== undefined) throw errorAt(message, site)
    return undefined
  }
  stringMeta.methods = strings
  G.setStr("string", strings)
  G.setStr("table", createTableLib())
  G.setStr("math", createMathLib())
  G.setStr("utf8", createUtf8Lib())
  G.setStr("os", createOsLib((name) => ABSENT.get(name)))
  G.setStr("json", createJsonLib())
  G.setStr("tools", createTools(request.tools, host))
  G.setStr("search", createSearch(host))
  for (const extension of request.extensions)
    for (const name of Object.keys(extension.globals))
      G.setStr(name, createExtensionGlobal(extension, name, extension.globals[name], host))
  G.setStr("_G", G)
  G.setStr("_VERSION", "Lua 5.4")
  return { globals: G, next, ipairsIterator, absent: ABSENT }
}
