import { Effect } from "effect"
import { Llm } from "opencode-drive"
import { test } from "opencode-drive/vitest"

test("a second TUI on the same server", ({ drive }) =>
  drive(({ tuis, llm }) =>
    Effect.gen(function* () {
      const second = yield* tuis.launch("second", { viewport: { cols: 90, rows: 28 } })
      yield* llm.queue(Llm.text("Hello, second."))
      yield* second.ui.submit("Hello from the second TUI")
      yield* second.ui.waitFor("Hello, second.")
    }),
  ))
