import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    // The files share a worker's loaded modules (each file loading Effect and Drive's sources anew); every run has
    // its own directory, ports and processes, and a file that patches a global restores it.
    isolate: false,
  },
})
