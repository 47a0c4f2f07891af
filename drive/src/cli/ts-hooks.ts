/**
 * Node module hooks (registered with `module.register`) that let the CLI import TypeScript modules on Node 20:
 * `.ts`/`.mts` files are transpiled in memory with TypeScript's `transpileModule` (no type checking — the CLI
 * type-checks before importing), relative `./x.js` imports fall back to `./x.ts`, and bare imports a module's
 * own location cannot resolve (`effect`, `opencode-drive`) fall back to Drive's installation.
 */
import { readFile } from "node:fs/promises"
import { fileURLToPath } from "node:url"
import ts from "typescript"

interface ResolveContext {
  readonly conditions: ReadonlyArray<string>
  readonly importAttributes: Record<string, string>
  readonly parentURL?: string
}
interface ResolveResult {
  readonly url: string
  readonly format?: string | null
  readonly shortCircuit?: boolean
}
type NextResolve = (specifier: string, context?: Partial<ResolveContext>) => Promise<ResolveResult>
interface LoadContext {
  readonly format?: string | null
  readonly conditions: ReadonlyArray<string>
  readonly importAttributes: Record<string, string>
}
interface LoadResult {
  readonly format: string
  readonly source?: string | ArrayBuffer | Uint8Array
  readonly shortCircuit?: boolean
}
type NextLoad = (url: string, context?: Partial<LoadContext>) => Promise<LoadResult>

const typescriptFile = /\.(?:ts|mts)$/

const isPathLike = (specifier: string) =>
  specifier.startsWith("./") ||
  specifier.startsWith("../") ||
  specifier.startsWith("/") ||
  specifier.startsWith("file:")

/** TypeScript sources a missing JavaScript specifier may stand for. */
export const typescriptCandidates = (specifier: string): ReadonlyArray<string> => {
  if (specifier.endsWith(".js")) return [`${specifier.slice(0, -3)}.ts`]
  if (specifier.endsWith(".mjs")) return [`${specifier.slice(0, -4)}.mts`]
  if (/\.[a-z]+$/i.test(specifier.split("/").pop() ?? "")) return []
  return [`${specifier}.ts`, `${specifier}/index.ts`]
}

const notFound = (error: unknown) => {
  const code = (error as { code?: string }).code
  return code === "ERR_MODULE_NOT_FOUND" || code === "ERR_UNSUPPORTED_DIR_IMPORT"
}

/** Resolve hook: TypeScript fallbacks for relative imports, Drive's installation for bare imports. */
export async function resolve(specifier: string, context: ResolveContext, next: NextResolve): Promise<ResolveResult> {
  try {
    return await next(specifier, context)
  } catch (error) {
    if (!notFound(error)) throw error
    if (isPathLike(specifier)) {
      for (const candidate of typescriptCandidates(specifier)) {
        try {
          return await next(candidate, context)
        } catch (candidateError) {
          if (!notFound(candidateError)) throw candidateError
        }
      }
      throw error
    }
    return next(specifier, { ...context, parentURL: import.meta.url })
  }
}

/** Load hook: transpile TypeScript files to ES modules. */
export async function load(url: string, context: LoadContext, next: NextLoad): Promise<LoadResult> {
  if (!url.startsWith("file:") || !typescriptFile.test(new URL(url).pathname)) return next(url, context)
  const fileName = fileURLToPath(url)
  const source = await readFile(fileName, "utf8")
  const output = ts.transpileModule(source, {
    fileName,
    reportDiagnostics: false,
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022,
      inlineSourceMap: true,
      inlineSources: true,
      esModuleInterop: true,
    },
  })
  return { format: "module", source: output.outputText, shortCircuit: true }
}
