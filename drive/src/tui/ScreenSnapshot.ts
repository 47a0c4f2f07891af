/**
 * Screen assertions against stored text snapshots. The screen text is normalised by masks — patterns for what
 * varies between runs (the run directory OpenCode shows in its footer, durations such as "· 3.2s", spinner
 * frames) become stable placeholders — and compared with a stored file. A missing snapshot is written (and the
 * assertion passes); `update: true` or `OPENCODE_DRIVE_UPDATE_SCREENS=1` rewrites it. A mismatch fails with
 * `ScreenMismatchError`, whose message shows the differing lines.
 */
import * as Fs from "node:fs"
import * as Path from "node:path"
import { Effect } from "effect"
import { ScreenMismatchError } from "../Errors.js"

/** A pattern for something that varies, and what it becomes. */
export interface Mask {
  readonly pattern: RegExp
  readonly replacement: string
}

/** The masks Drive offers; `defaultMasks` applies them all. */
export const masks = {
  /** A run's directory (and the project inside it), also as OpenCode abbreviates it with `~`. */
  runDirectory: {
    pattern: /(?:~|(?:\/[^\s/]+)*)\/opencode-drive\/run-[a-z0-9]+-[0-9a-f]+(?:\/files)?/g,
    replacement: "<run>",
  },
  /** Durations: `3.2s`, `12ms`, `1m 3s`, `2h`. */
  duration: { pattern: /\b\d+(?:\.\d+)?(?:ms|s|m|h)(?: \d+(?:\.\d+)?s)?\b/g, replacement: "<duration>" },
  /** OpenCode's spinner and progress glyphs (braille frames and the block spinner). */
  spinner: { pattern: /[\u2800-\u28ff\u2b1d\u25a0-\u25a3]/g, replacement: "*" },
} satisfies Record<string, Mask>

/** Every mask in {@link masks}. */
export const defaultMasks: ReadonlyArray<Mask> = Object.values(masks)

/** Options of a screen assertion. */
export interface SnapshotOptions {
  /** Masks applied before comparing (default: {@link defaultMasks}); pass `[]` to compare the raw text. */
  readonly masks?: ReadonlyArray<Mask>
  /** Rewrite the stored snapshot with this screen (also `OPENCODE_DRIVE_UPDATE_SCREENS=1`). */
  readonly update?: boolean
}

/** `text` with every mask applied and trailing blank lines removed. */
export const normalize = (text: string, applied: ReadonlyArray<Mask> = defaultMasks): string => {
  let result = text
  for (const mask of applied) result = result.replace(mask.pattern, mask.replacement)
  return `${result
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n")
    .replace(/\n+$/, "")}\n`
}

const lineDiff = (expected: string, actual: string): string => {
  const want = expected.split("\n")
  const got = actual.split("\n")
  const out: Array<string> = []
  for (let i = 0; i < Math.max(want.length, got.length); i++) {
    if (want[i] === got[i]) continue
    if (want[i] !== undefined) out.push(`  ${String(i + 1).padStart(3)} - ${want[i]}`)
    if (got[i] !== undefined) out.push(`  ${String(i + 1).padStart(3)} + ${got[i]}`)
  }
  return out.join("\n")
}

/** Compare `text` with the snapshot `file` (see the module doc); returns the normalised text. */
export const assertText = (
  text: string,
  file: string,
  options?: SnapshotOptions,
): Effect.Effect<string, ScreenMismatchError> =>
  Effect.suspend(() => {
    const actual = normalize(text, options?.masks ?? defaultMasks)
    const absolute = Path.resolve(file)
    const update = options?.update === true || process.env.OPENCODE_DRIVE_UPDATE_SCREENS === "1"
    if (update || !Fs.existsSync(absolute)) {
      Fs.mkdirSync(Path.dirname(absolute), { recursive: true })
      Fs.writeFileSync(absolute, actual)
      return Effect.succeed(actual)
    }
    const expected = Fs.readFileSync(absolute, "utf8")
    if (expected === actual) return Effect.succeed(actual)
    return Effect.fail(
      new ScreenMismatchError({
        message: `the screen does not match the snapshot ${file} (- stored, + on screen; rerun with OPENCODE_DRIVE_UPDATE_SCREENS=1 to accept it):\n${lineDiff(expected, actual)}`,
        snapshot: absolute,
        expected,
        actual,
      }),
    )
  })
