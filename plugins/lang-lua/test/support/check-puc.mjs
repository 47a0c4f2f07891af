// Checks the expected values of conformance cases against the reference interpreter `lua5.4`:
//   node test/support/check-puc.mjs   (from plugins/lang-lua; needs `lua5.4` and esbuild)
// Every case with an expected value and `puc !== false` runs under lua5.4 with a small JSON encoder; the printed
// JSON must equal the expected value. Cases expecting errors are checked for the message (position prefix ignored).
import { spawnSync } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { isDeepStrictEqual } from "node:util"
import { build } from "esbuild"

const dir = mkdtempSync(join(tmpdir(), "lua-cases-"))
const out = join(dir, "cases.mjs")
await build({
  entryPoints: [new URL("../cases/index.ts", import.meta.url).pathname],
  bundle: true,
  format: "esm",
  outfile: out,
  platform: "node",
  logLevel: "error",
})
const { allCases } = await import(out)

const prelude = String.raw`
local function esc(s) return (s:gsub('[%c"\\]', function(c) return string.format("\\u%04x", c:byte()) end)) end
local function enc(v)
  local t = type(v)
  if v == nil then return "null" end
  if t == "boolean" then return tostring(v) end
  if t == "number" then
    if math.type(v) == "integer" then return string.format("%d", v) end
    if v ~= v or v == math.huge or v == -math.huge then error("not data: " .. tostring(v)) end
    return string.format("%.17g", v)
  end
  if t == "string" then return '"' .. esc(v) .. '"' end
  if t == "table" then
    local n, count = #v, 0
    for _ in pairs(v) do count = count + 1 end
    if n > 0 and n == count then
      local parts = {}
      for i = 1, n do parts[i] = enc(v[i]) end
      return "[" .. table.concat(parts, ",") .. "]"
    end
    local parts = {}
    for k, x in pairs(v) do parts[#parts + 1] = '"' .. esc(tostring(k)) .. '":' .. enc(x) end
    return "{" .. table.concat(parts, ",") .. "}"
  end
  error("not data: " .. t)
end
`
let checked = 0
let failed = 0
for (const [group, cases] of Object.entries(allCases))
  for (const c of cases) {
    if (c.puc === false) continue
    const isValue = "value" in c && c.error === undefined
    const body = isValue
      ? `${prelude}\nlocal __f = assert(load(${JSON.stringify(c.code)}, "=input"))\nio.write(enc((__f())))`
      : `local __f, __e = load(${JSON.stringify(c.code)}, "=input")\nif not __f then io.write("PARSE:" .. __e) return end\nlocal __ok, __m = pcall(__f)\nio.write(__ok and "OK" or ("ERR:" .. tostring(__m)))`
    const file = join(dir, "case.lua")
    writeFileSync(file, body)
    const r = spawnSync("lua5.4", [file], { encoding: "utf8" })
    checked++
    if (isValue) {
      let got
      try {
        got = JSON.parse(r.stdout)
      } catch {
        got = `(lua5.4 said: ${r.stdout}${r.stderr})`
      }
      if (!isDeepStrictEqual(JSON.parse(JSON.stringify(got)), JSON.parse(JSON.stringify(c.value)))) {
        failed++
        console.log(`${group} / ${c.name}\n  expected ${JSON.stringify(c.value)}\n  lua5.4   ${JSON.stringify(got)}`)
      }
    } else if (c.error?.kind !== "ParseError" && typeof c.error?.message === "string") {
      if (!r.stdout.includes(c.error.message)) {
        failed++
        console.log(
          `${group} / ${c.name}\n  expected error containing ${JSON.stringify(c.error.message)}\n  lua5.4   ${r.stdout}`,
        )
      }
    }
  }
rmSync(dir, { recursive: true, force: true })
console.log(`${checked} cases checked against lua5.4, ${failed} differ`)
