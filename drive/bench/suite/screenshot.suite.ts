import * as Fs from "node:fs"
import { Effect } from "effect"
import { Llm } from "opencode-drive"
import { expect, test } from "opencode-drive/vitest"

test("takes a screenshot of the answer", ({ drive }) =>
  drive(({ ui, llm }) =>
    Effect.gen(function* () {
      yield* llm.queue(Llm.text("Picture this."))
      yield* ui.submit("Show me")
      yield* ui.waitFor("Picture this.")
      const file = yield* ui.screenshot("answer")
      expect(Fs.statSync(file).size).toBeGreaterThan(1000)
    }),
  ))
