import { Effect } from "effect"
import { Llm } from "opencode-drive"
import { expect, test } from "opencode-drive/vitest"

test("resizes and keeps answering", ({ drive }) =>
  drive({ tui: { viewport: { cols: 100, rows: 30 } } }, ({ ui, llm }) =>
    Effect.gen(function* () {
      yield* ui.resize(80, 24)
      yield* llm.queue(Llm.text("Smaller now."))
      yield* ui.submit("Resize")
      yield* ui.waitFor("Smaller now.")
      expect((yield* ui.capture()).cols).toBe(80)
    }),
  ))
