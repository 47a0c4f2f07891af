/**
 * The project OpenCode works in: files written before launch, and with `git: true` one deterministic initial
 * commit (fixed author, committer and dates, isolated git config) so the same files always give the same commit.
 */
import * as Fs from "node:fs"
import * as Path from "node:path"
import { Effect } from "effect"
import { InvalidOptionsError, ProjectSetupError } from "../Errors.js"
import * as Processes from "./Processes.js"

/** Project files: relative path → text or bytes. */
export type ProjectFiles = Readonly<Record<string, string | Uint8Array>>

/** The fixed identity and time of the initial commit. */
export const initialCommit = {
  name: "OpenCode Drive",
  email: "drive@opencode-drive.invalid",
  date: "2000-01-01T00:00:00+0000",
  message: "Initial commit",
} as const

/** Resolve a project-relative path, refusing absolute paths and paths that leave the project. */
export const resolveInside = (root: string, relative: string): Effect.Effect<string, InvalidOptionsError> => {
  const target = Path.resolve(root, relative)
  if (relative === "" || Path.isAbsolute(relative) || !target.startsWith(root + Path.sep)) {
    return Effect.fail(
      new InvalidOptionsError({
        message: `project file path ${JSON.stringify(relative)} must be relative and stay inside the project (e.g. "src/index.ts")`,
      }),
    )
  }
  return Effect.succeed(target)
}

/** Write `files` under `root`, creating directories. */
export const writeFiles = (
  root: string,
  files: ProjectFiles,
): Effect.Effect<void, InvalidOptionsError | ProjectSetupError> =>
  Effect.forEach(
    Object.entries(files),
    ([relative, content]) =>
      Effect.gen(function* () {
        const target = yield* resolveInside(root, relative)
        yield* Effect.try({
          try: () => {
            Fs.mkdirSync(Path.dirname(target), { recursive: true })
            Fs.writeFileSync(target, content)
          },
          catch: (cause) =>
            new ProjectSetupError({ message: `cannot write project file ${relative}: ${String(cause)}`, cause }),
        })
      }),
    { discard: true },
  )

const git = (args: ReadonlyArray<string>, cwd: string, env: Record<string, string>) =>
  Effect.gen(function* () {
    const result = yield* Processes.run("git", args, { cwd, env })
    if (result.code !== 0) {
      return yield* new ProjectSetupError({
        message: `git ${args[0]} failed (exit ${result.code}): ${(result.stderr || result.stdout).trim().split("\n").slice(-3).join(" ")}; install git or set project.git to false`,
      })
    }
    return result.stdout
  })

/**
 * Initialise a repository in `root` and commit everything in it once, deterministically. The isolated global
 * git config (in the run's HOME) gets the identity and settings; returns the commit hash.
 */
export const commitInitial = (
  root: string,
  env: Record<string, string>,
  globalConfigPath: string,
): Effect.Effect<string, ProjectSetupError> =>
  Effect.gen(function* () {
    yield* Effect.try({
      try: () =>
        Fs.writeFileSync(
          globalConfigPath,
          [
            "[user]",
            `\tname = ${initialCommit.name}`,
            `\temail = ${initialCommit.email}`,
            "[init]",
            "\tdefaultBranch = main",
            "[commit]",
            "\tgpgsign = false",
            "[core]",
            "\tautocrlf = false",
            "",
          ].join("\n"),
        ),
      catch: (cause) =>
        new ProjectSetupError({ message: `cannot write the isolated git config: ${String(cause)}`, cause }),
    })
    const commitEnv = {
      ...env,
      GIT_AUTHOR_NAME: initialCommit.name,
      GIT_AUTHOR_EMAIL: initialCommit.email,
      GIT_AUTHOR_DATE: initialCommit.date,
      GIT_COMMITTER_NAME: initialCommit.name,
      GIT_COMMITTER_EMAIL: initialCommit.email,
      GIT_COMMITTER_DATE: initialCommit.date,
    }
    yield* git(["init", "--quiet"], root, commitEnv)
    yield* git(["symbolic-ref", "HEAD", "refs/heads/main"], root, commitEnv)
    yield* git(["add", "--all"], root, commitEnv)
    yield* git(["commit", "--quiet", "--allow-empty", "--no-verify", "-m", initialCommit.message], root, commitEnv)
    return (yield* git(["rev-parse", "HEAD"], root, commitEnv)).trim()
  })

/** Keep `relative` (e.g. `.opencode/`) out of git status without committing an ignore file. */
export const excludeFromGit = (root: string, relative: string): Effect.Effect<void, ProjectSetupError> =>
  Effect.try({
    try: () => {
      const file = Path.join(root, ".git", "info", "exclude")
      Fs.mkdirSync(Path.dirname(file), { recursive: true })
      Fs.appendFileSync(file, `${relative}\n`)
    },
    catch: (cause) => new ProjectSetupError({ message: `cannot update .git/info/exclude: ${String(cause)}`, cause }),
  })
