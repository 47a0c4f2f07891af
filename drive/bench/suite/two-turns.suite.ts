import { Effect } from "effect"
import { Llm } from "opencode-drive"
import { test } from "opencode-drive/vitest"

test("two turns in one session", ({ drive }) =>
  drive(({ ui, llm }) =>
    Effect.gen(function* () {
      yield* llm.queue(Llm.text("First answer."))
      yield* ui.submit("First")
      yield* ui.waitFor("First answer.")
      yield* llm.queue(Llm.text("Second answer."))
      yield* ui.submit("Second")
      yield* ui.waitFor("Second answer.")
    }),
  ))
