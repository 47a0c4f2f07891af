// Benchmarks across packages: discovery quality on real catalogs (ranking against BM25, page sizes, search times).
await import("./discovery.mjs")
process.exit(0)
