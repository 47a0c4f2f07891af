import { Effect } from "effect"
import { Llm } from "opencode-drive"
import { expect, test } from "opencode-drive/vitest"

test("answers a prompt", ({ drive }) =>
  drive(({ ui, llm }) =>
    Effect.gen(function* () {
      yield* llm.queue(Llm.text("The answer is 42."))
      yield* ui.submit("What is the answer?")
      const screen = yield* ui.waitFor("The answer is 42.")
      expect(screen.text).toContain("What is the answer?")
    }),
  ))
