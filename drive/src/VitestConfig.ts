/**
 * Vitest settings that suit tests starting OpenCode (each test starts it: seconds, more on a busy machine):
 * generous timeouts, and forked workers, so each test file runs in its own process with its own runs. Kept apart
 * from `opencode-drive/vitest` so a vitest config can import it (`import { driveConfig } from "opencode-drive"`)
 * without loading vitest's test API.
 */
export const driveConfig = {
  testTimeout: 300_000,
  hookTimeout: 120_000,
  pool: "forks",
} as const
