/**
 * The compiler's entry and its cache: luaparse's syntax tree → JavaScript source (codegen/) → one JS function per
 * Lua function, built once per program with `new Function`.
 *
 * Lua locals become JS `let` variables and Lua closures become JS closures, so V8 optimises a Lua program as it
 * would a hand-written JS one (a tree of closures cannot get there: V8 shares call feedback among closures made from
 * one function, and the calls between them stay megamorphic). Operations are inlined for their common case (numbers,
 * table fields, the array part) and call {@link INTRINSICS} otherwise; work is charged at loop back-edges, backward
 * gotos and calls. The parts: codegen/emit.ts (names, constants: the rule that no program text reaches the
 * generated source), codegen/expressions.ts, codegen/statements.ts, gotos.ts (the layout of gotos), scope.ts.
 */
import { Generator } from "./codegen/statements.js"
import { INTRINSICS } from "./intrinsics.js"
import { parse, ParseFailure } from "./parse.js"
import type { Locations } from "./runtime.js"
import type { LuaFunction, LuaTable } from "./value.js"

/**
 * A program compiled to a JS factory. It holds no run state: every {@link instantiate} makes fresh closures over a
 * fresh environment, and V8 keeps (and reuses) the optimised code of the factory's inner functions.
 */
export interface Compiled {
  readonly factory: (...args: Array<unknown>) => LuaFunction
  readonly constants: ReadonlyArray<unknown>
  /** Source locations by id, for the run-time state. */
  readonly locations: Locations
  readonly bytes: number
}

/** The compiled programs a worker keeps, by runtime scope and source text, most recently used last. */
const cache = new Map<string, Compiled>()
const CACHE_ENTRIES = 32
const CACHE_BYTES = 4 * 1024 * 1024
let cachedBytes = 0

/** Whether the main chunk's run-once code is compiled compact (see `Generator.functionBody`). */
let onceCompact = true

/**
 * Compile the main chunk's run-once code compact (the default) or with inline paths like the rest: tests run both,
 * so that the inline paths are covered outside loops and functions too. Forgets the compiled programs.
 */
export const setRunOnceCompact = (on: boolean): void => {
  onceCompact = on
  cache.clear()
  cachedBytes = 0
}

/**
 * Parse and compile `code`, or reuse its compiled form from an earlier run of the same runtime (`scope`, see
 * `RunRequest.scope`) in this worker. Compiling is linear in the source and looks at `deadline` (a `Date.now()`
 * time) as it goes.
 */
export const compile = (code: string, deadline = Infinity, scope = ""): Compiled => {
  const key = `${scope}\u0000${code}`
  const known = cache.get(key)
  if (known !== undefined) {
    cache.delete(key)
    cache.set(key, known)
    return known
  }
  // The syntax tree is garbage once the source is generated: V8 may collect it while it compiles that source.
  const { source, constants, locations } = generate(code, deadline)
  let factory: Compiled["factory"]
  try {
    factory = new Function("$", "K", "G", "GT", source) as Compiled["factory"]
  } catch (e) {
    // The generated source is valid JavaScript; what fails here are the engine's size limits.
    throw new ParseFailure({
      kind: "ExecutionFailure",
      message: `the program is too large for the compiler (${e instanceof Error ? e.message : String(e)}): split it into smaller functions`,
    })
  }
  const compiled: Compiled = {
    factory,
    constants,
    locations,
    bytes: code.length + source.length,
  }
  cache.set(key, compiled)
  cachedBytes += compiled.bytes
  for (const [key, old] of cache) {
    if (cache.size <= CACHE_ENTRIES && cachedBytes <= CACHE_BYTES) break
    cache.delete(key)
    cachedBytes -= old.bytes
  }
  return compiled
}

/** Parse `code` and generate its factory's source. */
const generate = (code: string, deadline: number) => {
  const parsed = parse(code, deadline)
  const generator = new Generator(parsed, deadline, onceCompact)
  const source = generator.program(parsed.chunk)
  return { source, constants: generator.constants, locations: generator.locations }
}

/** Make the program's main function for one run, over that run's globals table. */
export const instantiate = (compiled: Compiled, globals: LuaTable): LuaFunction => {
  return compiled.factory(INTRINSICS, compiled.constants, globals.fields, globals)
}

/** The generated JS source of a program, for tests and debugging. */
export const generatedSource = (code: string): string => {
  const parsed = parse(code)
  return new Generator(parsed, Infinity, onceCompact).program(parsed.chunk)
}
