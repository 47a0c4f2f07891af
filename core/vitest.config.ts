import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    // The files share a worker's loaded modules (each file loading Effect and the package anew); every file makes
    // and closes its own sandbox pools.
    isolate: false,
  },
})
