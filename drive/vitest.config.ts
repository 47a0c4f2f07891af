import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    // The end-to-end files start the real OpenCode; running them one at a time keeps 2-core machines responsive.
    fileParallelism: false,
  },
})
