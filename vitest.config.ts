import * as Os from "node:os"
import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    projects: ["core", "plugins/*", "drive", "integration"],
    // Vitest's default is one worker fewer than the cores: one worker on a 2-core machine, so the whole suite ran
    // one file at a time while most files wait on child processes (OpenCode, sandboxes, ffmpeg) half the time.
    maxWorkers: Math.max(2, Os.availableParallelism() - 1),
  },
})
