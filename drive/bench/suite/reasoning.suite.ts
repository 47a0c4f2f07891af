import { Effect } from "effect"
import { Llm } from "opencode-drive"
import { test } from "opencode-drive/vitest"

test("streams reasoning before the answer", ({ drive }) =>
  drive(({ ui, llm }) =>
    Effect.gen(function* () {
      yield* llm.queue(Llm.reasoning("Thinking it over"), Llm.text("Done thinking.", { chunkSize: 4, delay: 5 }))
      yield* ui.submit("Think")
      yield* ui.waitFor("Done thinking.")
    }),
  ))
