import { defineConfig } from "tsup"

export default defineConfig({
  entry: {
    index: "src/index.ts",
    cli: "src/cli/main.ts",
    "ts-hooks": "src/cli/ts-hooks.ts",
    reaper: "src/run/reaper-main.ts",
    vitest: "src/vitest.ts",
    testing: "src/testing.ts",
  },
  format: ["esm"],
  dts: {
    entry: { index: "src/index.ts", vitest: "src/vitest.ts", testing: "src/testing.ts" },
    compilerOptions: { composite: false },
  },
  sourcemap: true,
  clean: true,
  target: "node20",
})
