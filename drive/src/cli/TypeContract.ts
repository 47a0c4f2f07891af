/**
 * Type contracts checked before the CLI imports a module: a generated, in-memory entry file next to the module
 * assigns its default export to the required type (`Effect<unknown, unknown, never>` for `run`, `Script` for
 * `check`/`start`), and the TypeScript compiler checks it together with the module itself. `effect` and
 * `opencode-drive` resolve from the module's location, falling back to Drive's own installation.
 */
import * as Fs from "node:fs"
import * as Path from "node:path"
import ts from "typescript"

/** Which contract to check. */
export type Contract = "effect" | "script"

/** The outcome: ok, or every type error, one per line, the module's own errors first. */
export type ContractResult = { readonly ok: true } | { readonly ok: false; readonly message: string }

const contractSource = (contract: Contract, specifier: string) =>
  contract === "effect"
    ? [
        'import type { Effect } from "effect"',
        `import program from ${JSON.stringify(specifier)}`,
        "const contract: Effect.Effect<unknown, unknown, never> = program",
        "void contract",
        "",
      ].join("\n")
    : [
        'import type { Script } from "opencode-drive"',
        `import script from ${JSON.stringify(specifier)}`,
        "const contract: Script<unknown, unknown> = script",
        "void contract",
        "",
      ].join("\n")

const baseOptions: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  lib: ["lib.es2023.d.ts"],
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  allowImportingTsExtensions: true,
  allowJs: true,
  checkJs: false,
  skipLibCheck: true,
  esModuleInterop: true,
  resolveJsonModule: true,
  isolatedModules: true,
}

/** Every `node_modules/@types` directory from `dir` up to the root. */
const typeRootsFrom = (dir: string): ReadonlyArray<string> => {
  const roots: Array<string> = []
  for (let current = dir; ; current = Path.dirname(current)) {
    const candidate = Path.join(current, "node_modules", "@types")
    if (Fs.existsSync(candidate)) roots.push(candidate)
    if (Path.dirname(current) === current) return roots
  }
}

/**
 * Compiler options for a module in `dir`: Node's types when `@types/node` is found from the module or from Drive,
 * otherwise the DOM library, so that globals such as `console` type-check either way.
 */
const optionsFor = (dir: string, fallbackDir: string): ts.CompilerOptions => {
  const typeRoots = [...new Set([...typeRootsFrom(dir), ...typeRootsFrom(fallbackDir)])]
  const hasNode = typeRoots.some((root) => Fs.existsSync(Path.join(root, "node", "package.json")))
  return hasNode
    ? { ...baseOptions, typeRoots, types: ["node"] }
    : { ...baseOptions, types: [], lib: [...(baseOptions.lib ?? []), "lib.dom.d.ts"] }
}

/** Diagnostics that usually follow from another mistake: "not assignable", "no overload matches", missing members. */
const consequentialCodes = new Set([2322, 2345, 2375, 2379, 2739, 2740, 2741, 2769])

const oneLine = (diagnostic: ts.Diagnostic, base: string) => {
  const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, " ").replace(/\s+/g, " ")
  if (!diagnostic.file || diagnostic.start === undefined) return text
  const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start)
  return `${Path.relative(base, diagnostic.file.fileName) || diagnostic.file.fileName}(${line + 1},${character + 1}): ${text}`
}

/**
 * Check `modulePath` against `contract`. `fallbackDir` is a directory from which `effect` and `opencode-drive`
 * resolve when the module's own location cannot resolve them.
 */
export const check = (modulePath: string, contract: Contract, fallbackDir: string): ContractResult => {
  const absolute = Path.resolve(modulePath)
  if (!Fs.existsSync(absolute)) return { ok: false, message: `${modulePath} does not exist` }
  const dir = Path.dirname(absolute)
  const contractFile = Path.join(dir, `__opencode_drive_contract_${process.pid}__.ts`)
  const contractText = contractSource(contract, `./${Path.basename(absolute)}`)
  const options = optionsFor(dir, fallbackDir)
  const host = ts.createCompilerHost(options, true)
  // As `tsc` does: documentation comments are parsed only where they can change a type error (in JavaScript files),
  // not in the megabytes of `.d.ts` comments of `effect`; the diagnostics are tsc's.
  host.jsDocParsingMode = ts.JSDocParsingMode.ParseForTypeErrors
  const getSourceFile = host.getSourceFile.bind(host)
  const fileExists = host.fileExists.bind(host)
  const readFile = host.readFile.bind(host)
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) =>
    Path.resolve(fileName) === contractFile
      ? ts.createSourceFile(fileName, contractText, languageVersion, true)
      : getSourceFile(fileName, languageVersion, onError, shouldCreate)
  host.fileExists = (fileName) => Path.resolve(fileName) === contractFile || fileExists(fileName)
  host.readFile = (fileName) => (Path.resolve(fileName) === contractFile ? contractText : readFile(fileName))
  const fallbackFile = Path.join(fallbackDir, "__opencode_drive_resolution__.ts")
  host.resolveModuleNameLiterals = (literals, containingFile, redirectedReference, compilerOptions) =>
    literals.map((literal) => {
      const resolved = ts.resolveModuleName(
        literal.text,
        containingFile,
        compilerOptions,
        host,
        undefined,
        redirectedReference,
      )
      if (resolved.resolvedModule || literal.text.startsWith(".") || Path.isAbsolute(literal.text)) return resolved
      return ts.resolveModuleName(literal.text, fallbackFile, compilerOptions, host, undefined, redirectedReference)
    })

  const program = ts.createProgram({ rootNames: [contractFile], options, host })
  const relevant = new Set([contractFile, absolute])
  const diagnostics = [
    ...program.getConfigFileParsingDiagnostics(),
    ...program.getSyntacticDiagnostics(),
    ...program.getSemanticDiagnostics(),
  ].filter((diagnostic) => diagnostic.file === undefined || relevant.has(Path.resolve(diagnostic.file.fileName)))
  if (diagnostics.length === 0) return { ok: true }
  const requirement =
    contract === "effect"
      ? "its default export must be an Effect<_, _, never> (every requirement provided)"
      : "its default export must be a script made with defineScript (Effect-only setup and run)"
  const inContract = (diagnostic: ts.Diagnostic) =>
    diagnostic.file !== undefined && Path.resolve(diagnostic.file.fileName) === contractFile
  // Most useful first: the module's own errors that are not about assignability (a misspelt method, "Did you
  // mean 'submit'?"), in source order; then its assignability errors, which such a mistake usually causes; then
  // the contract's.
  const assignability = (diagnostic: ts.Diagnostic) => consequentialCodes.has(diagnostic.code)
  const bySource = (a: ts.Diagnostic, b: ts.Diagnostic) => (a.start ?? 0) - (b.start ?? 0)
  const own = diagnostics.filter((diagnostic) => !inContract(diagnostic)).sort(bySource)
  const ordered = [
    ...own.filter((diagnostic) => !assignability(diagnostic)),
    ...own.filter(assignability),
    ...diagnostics.filter(inContract),
  ]
  const details = ordered.map((diagnostic) =>
    inContract(diagnostic)
      ? `${Path.basename(absolute)}: ${requirement}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, " ").replace(/\s+/g, " ")}`
      : oneLine(diagnostic, process.cwd()),
  )
  const count = details.length > 1 ? ` (${details.length} errors)` : ""
  return { ok: false, message: [`type check failed${count}: ${details[0]}`, ...details.slice(1)].join("\n") }
}
