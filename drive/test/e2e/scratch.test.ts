import { Effect } from "effect"
import { it, expect } from "vitest"
import { Llm, OpenCodeDriver } from "../../src/index.js"

it("scratch", async () => {
  const t0 = Date.now()
  const result = await Effect.runPromise(
    OpenCodeDriver.useReport(
      { project: { files: { "src/example.ts": "export const value = 1\n" } }, tui: { viewport: { cols: 100, rows: 36 } }, keepArtifacts: true },
      ({ ui, llm, tuis, paths }) =>
        Effect.gen(function* () {
          console.log("ready", Date.now() - t0)
          yield* llm.queue(
            Llm.toolCall({ index: 0, id: "call_read", name: "read", input: { filePath: `${paths.files}/src/example.ts` } }),
            Llm.finish("tool-calls"),
          )
          yield* llm.queue(Llm.text("The file exports value = 1."))
          yield* ui.submit("Read src/example.ts")
          yield* ui.waitFor("The file exports value = 1.", { timeout: 120_000 })
          console.log("answered", Date.now() - t0)
          console.log(yield* ui.text())
          const second = yield* tuis.launch("second")
          console.log("second ready", Date.now() - t0)
          console.log(yield* second.ui.text())
          const requests = yield* llm.requests
          const followUp = requests.filter((r) => r.kind === "model")[1]
          console.log(JSON.stringify(followUp.messages.slice(-2), null, 1).slice(0, 3000))
          return requests.map((r) => r.kind)
        }),
    ),
  )
  console.log(JSON.stringify(result.value))
}, 300_000)
