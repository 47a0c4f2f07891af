/**
 * Validation of scripted responses: every output must match the `Llm.Output` schema (raw objects are accepted),
 * and a terminal output (finish, disconnect) may only come last.
 */
import { Effect, Result, Schema } from "effect"
import { LlmOutputError } from "../Errors.js"
import * as Llm from "../Llm.js"

const decodeOutput = Schema.decodeUnknownResult(Llm.Output)

/** Decode one output or fail with a message naming its position. */
export const decodeOne = (value: unknown, position: number): Effect.Effect<Llm.Output, LlmOutputError> => {
  const result = decodeOutput(value)
  if (Result.isSuccess(result)) return Effect.succeed(result.success)
  return Effect.fail(
    new LlmOutputError({
      message: `LLM output #${position + 1} is not a valid Llm output (${result.failure.message.replace(/\s+/g, " ")}); build it with the Llm constructors, e.g. Llm.text("...")`,
    }),
  )
}

/** Decode a whole response: each output valid, at most one terminal output and only at the end. */
export const decodeResponse = (
  values: ReadonlyArray<unknown>,
): Effect.Effect<ReadonlyArray<Llm.Output>, LlmOutputError> =>
  Effect.gen(function* () {
    if (values.length === 0) {
      return yield* new LlmOutputError({
        message:
          'a response needs at least one output; queue e.g. llm.queue(Llm.text("...")) or llm.queue(Llm.finish())',
      })
    }
    const outputs: Array<Llm.Output> = []
    for (const [i, value] of values.entries()) outputs.push(yield* decodeOne(value, i))
    const terminal = outputs.findIndex(Llm.isTerminal)
    if (terminal !== -1 && terminal !== outputs.length - 1) {
      return yield* new LlmOutputError({
        message: `LLM output #${terminal + 1} (${Llm.describe(outputs[terminal])}) ends the response but ${outputs.length - terminal - 1} output(s) follow it; put finish/disconnect last, or queue the rest as the next response`,
      })
    }
    return outputs
  })

/** A one-line summary of a response, for settlement errors. */
export const describeResponse = (outputs: ReadonlyArray<Llm.Output>): string =>
  `[${outputs.map(Llm.describe).join(", ")}]`
