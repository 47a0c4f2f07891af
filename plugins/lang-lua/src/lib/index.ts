/**
 * The program's global environment: the standard library, `json`, the host globals (`tools`, `search`, extension
 * globals), and clear errors for what is absent on purpose.
 */
import { stringMeta } from "../ops.js"
import { ABSENT } from "./absent.js"
import type { RunRequest, SandboxHost } from "@codemode/core/sandbox"
import { errorAt } from "../runtime.js"
import { utf8DecodeLenient, utf8Encode } from "../utf8.js"
import { Fields, LuaTable } from "../value.js"
import { installBase } from "./base.js"
import { createExtensionGlobal, createSearch, createTools } from "./host.js"
import { createJsonLib } from "./json.js"
import { createMathLib } from "./math.js"
import { createOsLib } from "./os.js"
import { createStringLib } from "./string.js"
import { createTableLib } from "./table.js"
import { createUtf8Lib } from "./utf8.js"

/** Build the globals for one run, talking to `host`. */
export const createEnvironment = (request: RunRequest, host: SandboxHost): LuaTable => {
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
  G.setStr(
    "os",
    createOsLib((name) => ABSENT.get(name)),
  )
  G.setStr("json", createJsonLib())
  G.setStr("tools", createTools(request.tools, host))
  G.setStr("search", createSearch(host))
  for (const extension of request.extensions)
    for (const name of Object.keys(extension.globals))
      G.setStr(utf8Encode(name), createExtensionGlobal(extension, name, extension.globals[name], host))
  G.setStr("_G", G)
  G.setStr("_VERSION", "Lua 5.4")
  return G
}
