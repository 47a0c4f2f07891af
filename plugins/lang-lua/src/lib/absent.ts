/** The globals and library functions that are absent from this sandbox on purpose, and what using one says. */

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
