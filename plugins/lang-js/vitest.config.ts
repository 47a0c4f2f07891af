import { defineConfig } from "vitest/config"

export default defineConfig({
  // Tests run the interpreter in the test process; a sandbox thread has a 64 MB stack, so give this one room too.
  test: { include: ["test/**/*.test.ts"], testTimeout: 30_000, execArgv: ["--stack-size=4000"] },
})
