import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    projects: ["core", "plugins/*", "drive", "integration"],
  },
})
