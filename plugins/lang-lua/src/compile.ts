/**
 * The compiler's entry and its cache: luaparse's syntax tree → JavaScript source (codegen/) → one JS function per
 * Lua function, built once per program with `new Function` (the rest of a split main chunk while the program's first
 * host call is in flight: see `Generator.program`; a hot loop of the main function when a run first gets there: see
 * codegen/tiering.ts).
 *
 * Lua locals become JS `let` variables and Lua closures become JS closures, so V8 optimises a Lua program as it
 * would a hand-written JS one (a tree of closures cannot get there: V8 shares call feedback among closures made from
 * one function, and the calls between them stay megamorphic). Operations are inlined for their common case (numbers,
 * table fields, the array part) and call {@link INTRINSICS} otherwise; work is charged at loop back-edges, backward
 * gotos and calls. The parts: codegen/emit.ts (names, constants: the rule that no program text reaches the
 * generated source), codegen/expressions.ts, codegen/statements.ts, gotos.ts (the layout of gotos), scope.ts.
 */
import { TIER_AFTER } from "./codegen/emit.js"
import { Generator } from "./codegen/statements.js"
import { INTRINSICS } from "./intrinsics.js"
import { parse, ParseFailure } from "./parse.js"
import { type Locations, rt } from "./runtime.js"
import type { LuaFunction, LuaTable } from "./value.js"

/** A factory made by `new Function` from generated source. */
type Factory = (...args: Array<unknown>) => LuaFunction

/**
 * A program compiled to a JS factory. It holds no run state: every {@link instantiate} makes fresh closures over a
 * fresh environment, and V8 keeps (and reuses) the optimised code of the factory's inner functions.
 */
export interface Compiled {
  readonly factory: Factory
  readonly constants: ReadonlyArray<unknown>
  /** Source locations by id, for the run-time state. */
  readonly locations: Locations
  /** The sites' offsets (`locations` reads them): a hot loop's compile adds its own. */
  readonly sites: Array<number>
  /** The program's text, parsed again to compile a hot loop (see codegen/tiering.ts). */
  readonly code: string
  /** Its key in the cache. */
  readonly key: string
  /** The ids of its tiered loops (see codegen/tiering.ts), and after how many passes they tier up. */
  readonly tiered: ReadonlyArray<number>
  readonly tierAfter: number
  /** The sources of its hot loops' functions, made for all of them when a run first tiers one up. */
  hotCode: HotCode | undefined
  /** The hot loops' functions compiled so far, by loop id (each serves every run: it takes the run's globals). */
  readonly hot: Map<number, LuaFunction>
  bytes: number
  /** The rest of a split main chunk (see `GeneratedProgram.rest`), made by {@link compileRest}. */
  readonly rest: Rest | undefined
}

/** The rest of a split main chunk: generated, then compiled by V8, once (see {@link compileRest}). */
interface Rest {
  /** Makes its source; dropped once called (the generator it closes over holds the program's syntax tree). */
  generate: (() => string) | undefined
  /** Its factory, once V8 has compiled it. */
  factory: Factory | undefined
  /** What generating or compiling it threw: the run's later attempt throws it again. */
  failure: { readonly error: unknown } | undefined
}

/** The hot functions' sources of a program's tiered loops, by loop id, and the constants they share. */
interface HotCode {
  readonly sources: ReadonlyMap<number, string>
  readonly constants: ReadonlyArray<unknown>
}

/** The compiled programs a worker keeps, by runtime scope and source text, most recently used last. */
const cache = new Map<string, Compiled>()
const CACHE_ENTRIES = 32
const CACHE_BYTES = 4 * 1024 * 1024
let cachedBytes = 0

/** Whether the main chunk's run-once code is compiled compact (see `Generator.functionBody`). */
let onceCompact = true

/** After how many passes a loop of the main function tiers up (see codegen/tiering.ts). */
let tierAfter = TIER_AFTER

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
 * Tier up the main function's loops after `passes` passes ({@link TIER_AFTER} by default): tests use 1 and 2, so
 * that the hot functions run the loops of every program. Forgets the compiled programs.
 */
export const setTierUpAfter = (passes: number): void => {
  tierAfter = passes
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
  const { program, constants, locations, sites, tiered } = generate(code, deadline)
  const compiled: Compiled = {
    factory: factoryOf(program.source),
    constants,
    locations,
    sites,
    code,
    key,
    tiered,
    tierAfter,
    hotCode: undefined,
    hot: new Map(),
    bytes: code.length + program.source.length,
    rest: program.rest === undefined ? undefined : { generate: program.rest, factory: undefined, failure: undefined },
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

/** Parse `code` and generate its factories' source. */
const generate = (code: string, deadline: number) => {
  const parsed = parse(code, deadline)
  const generator = new Generator(parsed, deadline, { onceCompact, tierAfter })
  const program = generator.program(parsed.chunk)
  return {
    program,
    constants: generator.constants,
    locations: generator.locations,
    sites: generator.offsets,
    tiered: generator.tieredLoops,
  }
}

/**
 * The sources of the hot functions of all of `compiled`'s tiered loops: the program is parsed again, once (it parsed
 * before, so only the deadline can stop it), and their sites join the program's.
 */
const generateHot = (compiled: Compiled, deadline: number): HotCode => {
  const parsed = parse(compiled.code, deadline)
  const generator = new Generator(parsed, deadline, { sites: compiled.sites })
  const sources = new Map<number, string>()
  for (const id of compiled.tiered) sources.set(id, generator.hotLoop(parsed.chunk, id))
  return { sources, constants: generator.constants }
}

/** The function of `compiled`'s hot loop `id` (see codegen/tiering.ts), compiled when a run first needs it. */
const hotLoop = (compiled: Compiled, id: number): LuaFunction => {
  const known = compiled.hot.get(id)
  if (known !== undefined) return known
  let code = compiled.hotCode
  if (code === undefined) {
    code = generateHot(compiled, rt.deadline)
    compiled.hotCode = code
    let bytes = 0
    for (const source of code.sources.values()) bytes += source.length
    grow(compiled, bytes)
  }
  const hot = factoryOf(code.sources.get(id)!)(INTRINSICS, code.constants, undefined, undefined, undefined, undefined)
  compiled.hot.set(id, hot)
  return hot
}

/** V8's compile of generated source: a factory of the main function (or of the rest of a split one, or a hot loop). */
const factoryOf = (source: string): Factory => {
  try {
    return new Function("$", "K", "G", "GT", "R", "H", source) as Factory
  } catch (e) {
    // The generated source is valid JavaScript; what fails here are the engine's size limits.
    throw new ParseFailure({
      kind: "ExecutionFailure",
      message: `the program is too large for the compiler (${e instanceof Error ? e.message : String(e)}): split it into smaller functions`,
    })
  }
}

/**
 * What a failure of the compiler is reported as. Its recursion is bounded by the syntax depth bound, so a JS stack
 * overflow there is the compiler's own failure, never the program's call depth.
 */
export const compilerFailure = (e: unknown): unknown =>
  e instanceof RangeError
    ? new ParseFailure({
        kind: "ParseError",
        message: `the program could not be compiled (${e.message}); nest its expressions and blocks less deeply`,
      })
    : e

/** Count `bytes` more of `compiled`'s code against the cache's bound. */
const grow = (compiled: Compiled, bytes: number): void => {
  compiled.bytes += bytes
  if (cache.get(compiled.key) === compiled) cachedBytes += bytes
}

/** Drop `compiled` from the cache (a later run of its code compiles it again). */
const forget = (compiled: Compiled): void => {
  if (cache.get(compiled.key) !== compiled) return
  cache.delete(compiled.key)
  cachedBytes -= compiled.bytes
}

/**
 * Generate and compile the rest of a split main chunk if that is still to do: the worker calls it while the
 * program's first host call is in flight, and the main function when it reaches the rest before any host call. A
 * failure (the deadline passed, or the engine's size limits) is thrown again by the run's next attempt, and the
 * program leaves the cache.
 */
export const compileRest = (compiled: Compiled): void => {
  const rest = compiled.rest
  if (rest === undefined || rest.factory !== undefined) return
  if (rest.failure !== undefined) throw rest.failure.error
  const generate = rest.generate!
  rest.generate = undefined
  try {
    const source = generate()
    grow(compiled, source.length)
    rest.factory = factoryOf(source)
  } catch (e) {
    const error = compilerFailure(e)
    rest.failure = { error }
    forget(compiled)
    throw error
  }
}

/**
 * After a run of `compiled`: a rest the run did not reach is still to generate, and its generator holds the syntax
 * tree, so the program leaves the cache rather than keep the tree (a later run compiles it again).
 */
export const settleRest = (compiled: Compiled): void => {
  if (compiled.rest?.generate !== undefined) forget(compiled)
}

/** Make the program's main function for one run, over that run's globals table. */
export const instantiate = (compiled: Compiled, globals: LuaTable): LuaFunction => {
  const K = compiled.constants
  const G = globals.fields
  // A run of a program that has tiered up before in this worker tiers its loops up at their first pass: their
  // hot functions are compiled, and V8 has optimised them.
  const hot = Object.assign((id: number): LuaFunction => hotLoop(compiled, id), {
    passes: compiled.hotCode === undefined ? 0 : compiled.tierAfter,
  })
  // The rest of a split main chunk, made when the main function reaches it.
  const rest = () => {
    compileRest(compiled)
    return compiled.rest!.factory!(INTRINSICS, K, G, globals, undefined, hot)
  }
  return compiled.factory(INTRINSICS, K, G, globals, rest, hot)
}

/**
 * The generated JS source of a program (both factories' of a split one, and the factories of its hot loops), for
 * tests and debugging.
 */
export const generatedSource = (code: string): string => {
  const parsed = parse(code)
  const generator = new Generator(parsed, Infinity, { onceCompact, tierAfter })
  const { source, rest } = generator.program(parsed.chunk)
  const restSource = rest?.()
  const again = parse(code)
  const hotGenerator = new Generator(again, Infinity, { sites: generator.offsets })
  const hot = generator.tieredLoops.map((id) => hotGenerator.hotLoop(again.chunk, id))
  return [source, ...(restSource === undefined ? [] : [restSource]), ...hot].join("\n")
}
