import * as Os from "node:os"
import { defineConfig } from "vitest/config"
import { BaseSequencer, type TestSpecification } from "vitest/node"

/**
 * The files that take longest, longest first (measured in a clean clone). Without this, vitest runs the projects in
 * name order and, in a fresh clone without its timing cache, a project's larger files first: the drive end-to-end
 * files came last, so a long file ended the run alone. The integration project's files are not listed: its
 * `fileParallelism: false` puts them in a group of their own that runs one file at a time after all the others.
 */
const slowest = [
  "drive/test/EndToEnd.e2e.test.ts",
  "drive/test/Lifecycle.e2e.test.ts",
  "drive/test/Cli.test.ts",
  "plugins/lang-js/test/hostile.test.ts",
  "plugins/cli/test/drive.e2e.test.ts",
  "plugins/cli/test/cli.test.ts",
  "drive/test/VitestFixture.e2e.test.ts",
  "plugins/lang-lua/test/lua-differential.test.ts",
  "drive/test/ToolControl.e2e.test.ts",
  "drive/test/Orphans.e2e.test.ts",
  "plugins/cli/test/opencode.e2e.test.ts",
  "plugins/cli/test/credentials.test.ts",
  "core/test/integrity.test.ts",
  "plugins/openapi/test/opencode.e2e.test.ts",
  "plugins/lang-lua/test/lua-tier.test.ts",
  "plugins/lang-lua/test/lua-hostile.test.ts",
  "drive/test/ToolAdapters.e2e.test.ts",
  "plugins/lang-js/test/redteam-realm-leaks.test.ts",
  "core/test/sandbox-cleanup.test.ts",
]

/** Vitest's order, with the files of `slowest` moved to the front in that order. */
class SlowestFirst extends BaseSequencer {
  override async sort(files: Array<TestSpecification>): Promise<Array<TestSpecification>> {
    const rank = (spec: TestSpecification) => {
      const index = slowest.findIndex((file) => spec.moduleId.endsWith(`/${file}`))
      return index === -1 ? slowest.length : index
    }
    const sorted = await super.sort(files)
    return sorted
      .map((spec, position) => ({ spec, position, rank: rank(spec) }))
      .sort((a, b) => a.rank - b.rank || a.position - b.position)
      .map(({ spec }) => spec)
  }
}

export default defineConfig({
  test: {
    projects: ["core", "plugins/*", "drive", "integration"],
    // Vitest's default is one worker fewer than the cores: one worker on a 2-core machine, so the whole suite ran
    // one file at a time while most files wait on child processes (OpenCode, sandboxes, ffmpeg) half the time.
    maxWorkers: Math.max(2, Os.availableParallelism() - 1),
    sequence: { sequencer: SlowestFirst },
  },
})
