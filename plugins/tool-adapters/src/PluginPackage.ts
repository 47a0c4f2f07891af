/**
 * The `@opencode-ai/plugin` package OpenCode wants in every configuration directory, provided from this package's
 * own installation instead of the package registry.
 *
 * On start, OpenCode 1.x installs `@opencode-ai/plugin` (its version, with `effect`, `zod` and the SDK: about
 * 80 MB) into each configuration directory it reads (`$XDG_CONFIG_HOME/opencode/`, a project's `.opencode/`), and
 * loads custom tools only after that install finished. It skips the install when the directory already has a
 * `node_modules/` and a `package-lock.json` whose root lists every dependency its `package.json` names. So
 * {@link provideTo} writes exactly that: a `package.json` and a `package-lock.json` naming the package, and
 * `node_modules/@opencode-ai/plugin` as a symbolic link to the copy npm installed with this package. Nothing is
 * downloaded, nothing is copied, and the generated adapter files import the same package OpenCode would have
 * installed. The pinned version is the one the supported OpenCode release asks for.
 */
import * as Fs from "node:fs"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"

/** The package name OpenCode installs into its configuration directories. */
export const name = "@opencode-ai/plugin"

/** The version OpenCode 1.18.33 installs (the version of this package's dependency). */
export const version = "1.18.33"

/** A problem providing the package; the message says what to do. */
class PluginPackageError extends Error {}

let located: string | undefined

/** The directory of the installed `@opencode-ai/plugin` (the one this package depends on). */
export const directory = (): string => {
  if (located !== undefined) return located
  let entry: string
  try {
    entry = fileURLToPath(import.meta.resolve(name))
  } catch (cause) {
    throw new PluginPackageError(
      `cannot find ${name}, a dependency of @codemode/tool-adapters (${String(cause)}); reinstall with npm install`,
    )
  }
  for (let dir = Path.dirname(entry); dir !== Path.dirname(dir); dir = Path.dirname(dir)) {
    const manifest = Path.join(dir, "package.json")
    if (!Fs.existsSync(manifest)) continue
    const parsed = JSON.parse(Fs.readFileSync(manifest, "utf8")) as { name?: string; version?: string }
    if (parsed.name !== name) continue
    if (parsed.version !== version) {
      throw new PluginPackageError(
        `${name} ${parsed.version} is installed at ${dir}, but OpenCode 1.18.33 needs ${version}; reinstall with npm install`,
      )
    }
    located = dir
    return dir
  }
  throw new PluginPackageError(`cannot find the package.json of ${name} above ${entry}; reinstall with npm install`)
}

const manifest = (): string => `${JSON.stringify({ dependencies: { [name]: version } }, null, 2)}\n`

const lockfile = (): string =>
  `${JSON.stringify(
    {
      name: "opencode-config",
      lockfileVersion: 3,
      requires: true,
      packages: { "": { dependencies: { [name]: version } } },
    },
    null,
    2,
  )}\n`

/**
 * Make `configDir` (an OpenCode configuration directory) hold `@opencode-ai/plugin` the way OpenCode expects, so
 * OpenCode installs nothing there. Creates the directory; idempotent. Throws {@link PluginPackageError} when the
 * package is not installed.
 */
export const provideTo = (configDir: string): void => {
  const target = directory()
  const link = Path.join(configDir, "node_modules", ...name.split("/"))
  Fs.mkdirSync(Path.dirname(link), { recursive: true })
  Fs.writeFileSync(Path.join(configDir, "package.json"), manifest())
  Fs.writeFileSync(Path.join(configDir, "package-lock.json"), lockfile())
  Fs.rmSync(link, { recursive: true, force: true })
  Fs.symlinkSync(target, link, "dir")
}
