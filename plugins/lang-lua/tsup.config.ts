import { defineConfig } from "tsup"

// The definition is also built as CommonJS, so that core can load it synchronously from any package layout.
export default defineConfig([
  {
    entry: ["src/index.ts", "src/worker.ts", "src/definition.ts"],
    format: ["esm"],
    dts: { compilerOptions: { composite: false } },
    sourcemap: true,
    clean: true,
    target: "node20",
  },
  {
    entry: ["src/definition.ts"],
    format: ["cjs"],
    shims: true,
    sourcemap: true,
    target: "node20",
  },
])
