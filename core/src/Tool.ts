/**
 * Tools: host functions a program calls through `tools.<path>(input)`.
 */
import { Data, type Effect, type Schema } from "effect"
import { checkKeys } from "./Options.js"
import { isEffectSchema } from "./TypeModel.js"

/**
 * Fail a tool's Effect with this when the program's input is wrong in a way the schema could not see (a field in
 * the wrong place, a value the API refuses): the program gets an `InvalidToolInput` diagnostic with `message`
 * instead of a `ToolFailure`, so a model knows to fix its call rather than retry it.
 */
export class InvalidInput extends Data.TaggedError("InvalidToolInput")<{ readonly message: string }> {}

/** True when `error` is an {@link InvalidInput}. */
export const isInvalidInput = (error: unknown): error is InvalidInput =>
  typeof error === "object" && error !== null && (error as { _tag?: unknown })._tag === "InvalidToolInput"

/** The value an input or output schema describes: the decoded type of an Effect Schema, anything for JSON Schema. */
export type SchemaType<S> = S extends Schema.Top ? S["Type"] : any

/** Services an input/output Effect Schema needs to decode. */
export type SchemaServices<S> = S extends Schema.Top ? S["DecodingServices"] : never

/** A tool: description, input and output schemas, and the Effect that runs it. */
export interface Tool<in out Input = any, out Output = any, out E = any, out R = any> {
  readonly _tag: "Tool"
  readonly description: string
  /** An Effect Schema (decoded before `execute`) or a JSON Schema document (signature only). */
  readonly input: unknown
  /** An Effect Schema (decoded and copied before the program sees it) or a JSON Schema (signature only). */
  readonly output?: unknown
  readonly execute: (input: Input) => Effect.Effect<Output, E, R>
}

/** Any tool, whatever its types. */
export type Any = Tool<any, any, any, any>

/** The services a tool's Effect needs. */
export type Services<T> = T extends Tool<any, any, any, infer R> ? R : never

/** Options of `Tool.make`. */
export interface MakeOptions<I, O, A, E, R> {
  readonly description: string
  readonly input: I
  readonly output?: O
  readonly execute: (input: SchemaType<I>) => Effect.Effect<A, E, R>
}

/**
 * Define a tool. `input` and `output` accept an Effect Schema or a render-only JSON Schema document; without
 * `output` the program receives `null` and the signature says so.
 */
export const make = <const I, const O = undefined, A = unknown, E = never, R = never>(
  options: MakeOptions<I, O, A, E, R>,
): Tool<SchemaType<I>, A, E, R | SchemaServices<I> | SchemaServices<O>> => {
  if (typeof options !== "object" || options === null)
    throw new TypeError("Tool.make expects { description, input, execute }")
  checkKeys("Tool.make", options, ["description", "input", "output", "execute"])
  if (typeof options.description !== "string") throw new TypeError("Tool.make: description must be a string")
  if (typeof options.execute !== "function")
    throw new TypeError("Tool.make: execute must be a function returning an Effect")
  checkSchema("input", options.input)
  if (options.output !== undefined) checkSchema("output", options.output)
  return {
    _tag: "Tool",
    description: options.description,
    input: options.input,
    ...(options.output !== undefined ? { output: options.output } : {}),
    execute: options.execute as any,
  }
}

const checkSchema = (which: string, schema: unknown) => {
  if (isEffectSchema(schema) || typeof schema === "boolean") return
  if (typeof schema === "object" && schema !== null && !Array.isArray(schema)) return
  throw new TypeError(`Tool.make: ${which} must be an Effect Schema or a JSON Schema object`)
}

/** True when `value` was made by `Tool.make`. */
export const isTool = (value: unknown): value is Any =>
  typeof value === "object" && value !== null && (value as { _tag?: unknown })._tag === "Tool"
