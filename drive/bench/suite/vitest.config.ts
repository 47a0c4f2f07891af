import { defineConfig } from "vitest/config"
import { driveConfig } from "opencode-drive"

// The 8-test suite `node bench/suite.mjs` times serially and with 2 workers.
export default defineConfig({ test: { include: ["bench/suite/*.suite.ts"], ...driveConfig } })
