import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    name: "integration",
    include: ["test/**/*.test.ts"],
    testTimeout: 120_000,
    // These files hold wall-clock bounds (timeoutMs, "ends within") and the soak keeps 16 executions in flight:
    // they run one at a time, after the rest of the suite, with no other test file competing for the cores.
    fileParallelism: false,
  },
})
