/**
 * `fs`: Effect operations on the project's files for scripts (paths relative to the project directory; paths
 * that leave the project are refused).
 */
import * as Fs from "node:fs"
import * as Path from "node:path"
import { Effect } from "effect"
import { type InvalidOptionsError, ProjectSetupError } from "../Errors.js"
import { resolveInside } from "./Project.js"

/** File operations inside the project. */
export interface ProjectFs {
  /** The project directory (absolute). */
  readonly root: string
  readonly read: (path: string) => Effect.Effect<string, InvalidOptionsError | ProjectSetupError>
  readonly write: (
    path: string,
    content: string | Uint8Array,
  ) => Effect.Effect<void, InvalidOptionsError | ProjectSetupError>
  readonly exists: (path: string) => Effect.Effect<boolean, InvalidOptionsError>
  readonly remove: (path: string) => Effect.Effect<void, InvalidOptionsError | ProjectSetupError>
}

const attempt = <A>(what: string, run: () => A) =>
  Effect.try({ try: run, catch: (cause) => new ProjectSetupError({ message: `${what}: ${String(cause)}`, cause }) })

/** File operations rooted at `root`. */
export const make = (root: string): ProjectFs => ({
  root,
  read: (path) =>
    Effect.flatMap(resolveInside(root, path), (file) =>
      attempt(`cannot read ${path}`, () => Fs.readFileSync(file, "utf8")),
    ),
  write: (path, content) =>
    Effect.flatMap(resolveInside(root, path), (file) =>
      attempt(`cannot write ${path}`, () => {
        Fs.mkdirSync(Path.dirname(file), { recursive: true })
        Fs.writeFileSync(file, content)
      }),
    ),
  exists: (path) => Effect.map(resolveInside(root, path), (file) => Fs.existsSync(file)),
  remove: (path) =>
    Effect.flatMap(resolveInside(root, path), (file) =>
      attempt(`cannot remove ${path}`, () => Fs.rmSync(file, { recursive: true, force: true })),
    ),
})
