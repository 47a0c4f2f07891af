import { defineConfig } from "tsup"

export default defineConfig({
  entry: {
    index: "src/index.ts",
    plugin: "src/plugin.ts",
    sandbox: "src/sandbox/index.ts",
    "sandbox-process": "src/sandbox/process.ts",
    "sandbox-worker": "src/sandbox/worker.ts",
  },
  format: ["esm"],
  dts: {
    entry: { index: "src/index.ts", plugin: "src/plugin.ts", sandbox: "src/sandbox/index.ts" },
    compilerOptions: { composite: false },
  },
  sourcemap: true,
  clean: true,
  target: "node20",
})
