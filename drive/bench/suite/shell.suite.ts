import { Effect } from "effect"
import { Llm } from "opencode-drive"
import { test } from "opencode-drive/vitest"

test("intercepts a shell call", ({ drive }) =>
  drive({ tools: ["shell"] }, ({ ui, llm, tools }) =>
    Effect.gen(function* () {
      const shells = yield* tools.control("shell")
      yield* llm.queue(
        Llm.toolCall({ index: 0, id: "call_ls", name: "shell", input: { command: "ls" } }),
        Llm.finish("tool-calls"),
      )
      yield* llm.queue(Llm.text("Listed."))
      yield* ui.submit("List the files")
      const call = yield* shells.take("call_ls")
      yield* call.succeed({ output: "README.md\n", exit: 0 })
      yield* ui.waitFor("Listed.")
    }),
  ))
