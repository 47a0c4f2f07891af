import { defineConfig } from "tsup"

export default defineConfig({
  entry: { index: "src/index.ts", "sandbox-worker": "src/sandbox/worker.ts" },
  format: ["esm"],
  dts: { entry: { index: "src/index.ts" } },
  sourcemap: true,
  clean: true,
  target: "node20",
})
