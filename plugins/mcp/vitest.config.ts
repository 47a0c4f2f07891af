import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    // The files share a worker's loaded modules (each file loading Effect and the package anew was a third of the
    // project's time); every file starts what it tests itself and restores what it changes.
    isolate: false,
  },
})
